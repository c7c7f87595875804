"""Rerunning a lesson in its page: the built site served on loopback, Chromium through Playwright.

Lessons 06, 13 and 22 are rerun with ``SEED = 7`` in the page (Pyodide in a module Web Worker); then
every quoted text and claim sentence on the page equals what the tests' own seed-7 execution glued
(`booktools.outputs.glued_texts`, as myst-nb pastes it), and every printed block what that cell
printed. Compared by shape (`test_pyodide_lessons`): measured times, and in a lesson with
platform-sensitive cells the cells that print them (with another seed another of their chaotic
values may swing), the numbers quoted from them, and its claim sentences (their outcome may flip).
A bad seed shows the lesson's own ``ValueError`` and leaves the page as published; "back to the
published run" restores it; a page opened as a file explains ``make serve``. No request leaves the
site.

Needs the built book with Pyodide (``npm ci``, done by ``make test``) and a Chromium, as the
accessibility audit does (``.ci/run`` installs Debian's).
"""

import ast
import json
import os
import shutil
import threading

import nbformat
import pytest
from conftest import ROOT
from test_pyodide_lessons import (
    compare_quotes,
    compare_shown_tables,
    compare_tables,
    sensitive_cells,
    stdout_by_cell,
    tables_by_cell,
)

from booktools.browser import CELL_CLASS, NAME_CLASS, QUOTE_CLASS, unavailable_reason
from booktools.execute import executed_path
from booktools.lessons import find_lessons
from booktools.outputs import glued_texts, recorded_claims, sensitive_tokens
from booktools.serve import make_server

HTML = ROOT / "_build" / "html"
EXPECTED = ROOT / "tests" / "expected"
CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
LAUNCH_ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-component-update",
               "--disable-default-apps", "--disable-sync", "--no-first-run", "--disable-domain-reliability"]
RERUN = ("06", "13", "22")
RUN_SECONDS = 300  # the slowest of the three takes well under a minute in the browser
LESSONS = {f"{lesson.number:02d}": lesson for lesson in find_lessons(ROOT)}


@pytest.fixture(scope="module")
def site(build_log):
    assert unavailable_reason(ROOT) is None, ("Pyodide is not installed (node_modules/pyodide): make test "
                                              "runs npm ci first; install Node.js and npm")
    server = make_server(HTML, 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def browser():
    assert CHROMIUM, "no Chromium found (install Debian's chromium, or set CHROMIUM=/path/to/chromium)"
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        yield launched
        launched.close()


def page_url(site: str, lesson) -> str:
    return f"{site}book/{lesson.unit}/{lesson.stem}.html"


class Visit:
    """A lesson page in a fresh browser context, with every request it made."""

    def __init__(self, browser, site: str, lesson):
        self.context = browser.new_context()
        self.page = self.context.new_page()
        self.requests: list[str] = []
        self.context.on("request", lambda request: self.requests.append(request.url))
        self.page.goto(page_url(site, lesson), wait_until="load")
        self.panel = self.page.locator(f".coursekit-run[data-lesson='{lesson.stem}']")
        self.page.locator(f".coursekit-run[data-lesson='{lesson.stem}'][data-state]").wait_for(timeout=20_000)
        assert self.panel.get_attribute("data-state") == "ready", (
            f"{lesson.stem}: no run offered: {self.panel.text_content()}")

    def run(self, seed: str) -> str:
        """Type ``seed``, press Run and wait for the run to end; the panel's final state."""
        self.panel.locator("input[name=SEED]").fill(seed)
        self.panel.locator("button[type=submit]").click()
        self.page.wait_for_function(
            f"""() => ['done', 'error', 'failed'].includes(
                document.querySelector(".coursekit-run[data-lesson='{self.panel_lesson}']").dataset.state)""",
            timeout=RUN_SECONDS * 1000)
        return self.panel.get_attribute("data-state")

    @property
    def panel_lesson(self) -> str:
        return self.panel.get_attribute("data-lesson")

    def quotes(self) -> dict[str, list[str]]:
        """Every pasted text on the page, by name (a name may be pasted more than once)."""
        return self.page.evaluate(f"""() => {{
            const found = {{}};
            for (const node of document.querySelectorAll('.{QUOTE_CLASS}')) {{
              const name = [...node.classList].find((c) => c.startsWith('{NAME_CLASS}')).slice({len(NAME_CLASS)});
              (found[name] = found[name] || []).push(node.textContent);
            }}
            return found;
        }}""")

    def printed(self) -> dict[int, str]:
        """The text of every printed block on the page, by cell index."""
        return {int(index): text for index, text in self.page.evaluate(f"""() => {{
            const found = {{}};
            for (const cell of document.querySelectorAll("[class*='{CELL_CLASS}']")) {{
              const index = [...cell.classList].find((c) => /^{CELL_CLASS}\\d+$/.test(c)).slice({len(CELL_CLASS)});
              const block = cell.querySelector('.cell_output .output.stream pre');
              if (block) found[index] = block.textContent;
            }}
            return found;
        }}""").items()}

    def shown_tables(self) -> dict[int, list[list[list[str]]]]:
        """The body rows of every table a code cell shows on the page (not printed), by cell index."""
        return {int(index): tables for index, tables in self.page.evaluate(f"""() => {{
            const found = {{}};
            for (const cell of document.querySelectorAll("[class*='{CELL_CLASS}']")) {{
              const index = [...cell.classList].find((c) => /^{CELL_CLASS}\\d+$/.test(c)).slice({len(CELL_CLASS)});
              const output = cell.querySelector('.cell_output');
              if (!output) continue;
              const tables = [...output.children].filter((child) => !child.classList.contains('output'))
                .map((block) => block.querySelector('table') || (block.matches('table') ? block : null))
                .filter((table) => table)
                .map((table) => [...table.querySelectorAll('tbody tr')].map((tr) =>
                  [...tr.querySelectorAll('td')].map((td) => td.textContent.trim())));
              if (tables.length) found[index] = tables;
            }}
            return found;
        }}""").items()}

    def sure_titles(self) -> dict[str, str]:
        """The hover text of every short measured result on the page (a link to "How sure is this?"), by
        the name of its claim."""
        return self.page.evaluate(f"""() => {{
            const found = {{}};
            for (const link of document.querySelectorAll('a.coursekit-sure')) {{
              const node = link.querySelector('.{QUOTE_CLASS}');
              const name = [...node.classList].find((c) => c.startsWith('{NAME_CLASS}')).slice({len(NAME_CLASS)});
              found[name] = link.title;
            }}
            return found;
        }}""")

    def close(self):
        self.context.close()


def pasted(text: str) -> str:
    """A glued repr as myst-nb's text paste shows it (its format_plain_text with the "s" spec)."""
    try:
        return str(ast.literal_eval(text))
    except (SyntaxError, ValueError):
        return text


@pytest.mark.parametrize("number", RERUN)
def test_rerun_with_seed_seven_shows_the_seed_seven_execution(number, site, browser, other_seed_lessons,
                                                               executed_lessons):
    lesson = LESSONS[number]
    executed, error = other_seed_lessons[lesson.stem]
    assert error is None, f"{lesson.stem}: the seed-7 execution failed:\n{error}"
    visit = Visit(browser, site, lesson)
    try:
        published = visit.quotes()
        state = visit.run("7")
        error_text = visit.panel.locator(".coursekit-run-error").text_content()
        assert state == "done", f"{lesson.stem}: the run ended '{state}': {error_text}"
        shown, printed, tables = visit.quotes(), visit.printed(), visit.shown_tables()
        titles = visit.sure_titles()
    finally:
        visit.close()
    glued = {name: pasted(text) for name, text in glued_texts(executed).items()}
    claims, _ = recorded_claims(executed)
    assert shown.keys() == published.keys() and len(shown) >= 10, f"{lesson.stem}: quotes lost or added"
    repeated = {name: texts for name, texts in shown.items() if len(set(texts)) > 1}
    assert not repeated, f"{lesson.stem}: one name shows different texts on the page: {repeated}"
    problems = compare_quotes(lesson.number, {name: texts[0] for name, texts in shown.items()}, glued, set(claims))
    assert not problems, f"{lesson.stem} rerun with SEED = 7:\n" + "\n".join(problems)
    assert shown != published, f"{lesson.stem}: the page still shows the published run"
    by_shape = sensitive_cells(executed_lessons[lesson.stem][0], lesson.number)
    problems = compare_tables(printed, stdout_by_cell(executed), by_shape)
    assert not problems, f"{lesson.stem}: the page's tables after the rerun:\n" + "\n".join(problems)
    problems = compare_shown_tables(lesson.number, tables, tables_by_cell(executed))
    assert not problems, f"{lesson.stem}: the tables shown on the page after the rerun:\n" + "\n".join(problems)
    assert titles, f"{lesson.stem}: no short measured result links its yardsticks"
    if not by_shape:  # a chaotic cell may move a yardstick's last digits: then only the sentences are compared
        stale = {name: title for name, title in titles.items() if title != claims[name].get("detail")}
        assert not stale, f"{lesson.stem}: hover texts not those of the rerun: {stale}"
    outside = [url for url in visit.requests if not url.startswith(site)]
    assert not outside, f"{lesson.stem}: requests left the site: {outside}"
    assert any("/_static/pyodide/pyodide.asm.wasm" in url for url in visit.requests), "Pyodide was not loaded"


def test_a_bad_seed_shows_the_lessons_error_and_leaves_the_page(site, browser):
    lesson = LESSONS["06"]
    visit = Visit(browser, site, lesson)
    try:
        published, tables = visit.quotes(), visit.printed()
        state = visit.run("-3")
        error_text = visit.panel.locator(".coursekit-run-error").text_content()
        after, tables_after = visit.quotes(), visit.printed()
        status = visit.panel.locator(".coursekit-run-status").text_content()
    finally:
        visit.close()
    assert state == "error"
    assert error_text.startswith("ValueError: SEED") and "-3" in error_text, error_text
    assert "unchanged" in status and after == published and tables_after == tables


def test_stop_ends_the_run_and_leaves_the_page(site, browser):
    lesson = LESSONS["06"]
    visit = Visit(browser, site, lesson)
    try:
        published, tables = visit.quotes(), visit.printed()
        visit.panel.locator("input[name=SEED]").fill("7")
        visit.panel.locator("button[type=submit]").click()
        status = visit.panel.locator(".coursekit-run-status")
        visit.page.wait_for_function(
            "() => /^Cell \\d+ of \\d+, [\\d.]+ s/.test(document.querySelector('.coursekit-run-status').textContent)",
            timeout=60_000)
        counting = status.text_content()
        visit.panel.get_by_role("button", name="Stop").click()
        state, stopped = visit.panel.get_attribute("data-state"), status.text_content()
        after, tables_after = visit.quotes(), visit.printed()
        visit.page.wait_for_timeout(1000)
        still = visit.panel.get_attribute("data-state")
    finally:
        visit.close()
    assert state == "stopped" == still and stopped.startswith("Stopped at cell") and "unchanged" in stopped, stopped
    assert counting and after == published and tables_after == tables


def test_a_lesson_with_platform_sensitive_cells_says_so(site, browser):
    notes = {}
    for number in ("13", "06"):
        visit = Visit(browser, site, LESSONS[number])
        try:
            notes[number] = visit.panel.locator(".coursekit-run-sensitive").all_text_contents()
        finally:
            visit.close()
    entry = json.loads((EXPECTED / "platform-sensitive.json").read_text())["lessons"]["13"]
    assert len(notes["13"]) == 1 and entry["page"] in notes["13"][0] and "last bit" in notes["13"][0]
    assert not sensitive_tokens(EXPECTED, 6) and notes["06"] == []


def test_back_to_the_published_run(site, browser):
    lesson = LESSONS["22"]
    visit = Visit(browser, site, lesson)
    try:
        published, tables = visit.quotes(), visit.printed()
        assert visit.run("7") == "done"
        changed = visit.quotes()
        notes = visit.page.locator(".coursekit-run-figure-note").count()
        figures = visit.page.locator(".coursekit-figure, .coursekit-explorer").count()
        visit.panel.get_by_role("button", name="Back to the published run").click()
        restored, tables_restored = visit.quotes(), visit.printed()
        left = visit.page.locator(".coursekit-run-figure-note").count()
    finally:
        visit.close()
    assert changed != published and figures and notes == figures and not left
    assert restored == published and tables_restored == tables


def test_a_page_opened_as_a_file_explains_make_serve(build_log, browser):
    lesson = LESSONS["06"]
    page = browser.new_page()
    try:
        page.goto((HTML / "book" / lesson.unit / f"{lesson.stem}.html").as_uri(), wait_until="load")
        text = page.locator(".coursekit-run").text_content()
    finally:
        page.close()
    assert "make serve" in text and f"http://127.0.0.1:8000/book/{lesson.unit}/{lesson.stem}.html" in text


def test_every_lesson_page_has_its_panel_and_its_code(build_log):
    for lesson in LESSONS.values():
        html = (HTML / "book" / lesson.unit / f"{lesson.stem}.html").read_text(encoding="utf-8")
        assert f'data-lesson="{lesson.stem}"' in html, f"{lesson.stem}: no run panel"
        payload = json.loads((HTML / "_static" / "run" / "lessons" / f"{lesson.stem}.json").read_text())
        cells = nbformat.read(executed_path(ROOT, lesson), as_version=4).cells
        for cell in payload["cells"]:
            if "remove-cell" in cells[cell["index"]].metadata.get("tags", []):
                continue  # not on the page (nor is anything it prints)
            assert f"{CELL_CLASS}{cell['index']} " in html or f"{CELL_CLASS}{cell['index']}\"" in html, (
                f"{lesson.stem}: code cell {cell['index']} is not marked on the page")
        assert payload["parameters"][0]["name"] == "SEED"

