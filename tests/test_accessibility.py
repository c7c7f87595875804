"""Every page of the built site passes an accessibility audit: axe-core (WCAG 2.0/2.1 A and AA rules) in
headless Chromium through Playwright, served on loopback. Every lesson figure carries a description
(never its file name), an explorer announces the frame it switched to, and the theme follows the
reader's colour scheme.

The audit needs a Chromium: Debian's ``chromium`` (``.ci/run`` installs it where it is missing and
``apt-get`` can). Without one these tests fail and say so; set ``BOOK_AUDIT=skip`` to leave them out
knowingly on a machine that has no browser.
"""

import os
import re
import shutil
import threading
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

import pytest
from conftest import ROOT

from booktools.lessons import find_lessons

HTML = ROOT / "_build" / "html"
RULES = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
BLOCKING = {"serious", "critical"}
CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")

if os.environ.get("BOOK_AUDIT") == "skip":
    pytest.skip("BOOK_AUDIT=skip: the accessibility audit was left out on purpose", allow_module_level=True)


class QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def site(build_log):
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(QuietHandler, directory=str(HTML)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()


@pytest.fixture(scope="module")
def browser():
    assert CHROMIUM, ("no Chromium found: the accessibility audit could not run (install Debian's "
                      "chromium, or set CHROMIUM=/path/to/chromium; BOOK_AUDIT=skip leaves it out)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield launched
        launched.close()


def is_redirect(path) -> bool:
    """A stub that sends the browser on to another page (the site's index.html): nothing to audit, and
    auditing it would race the navigation."""
    return bool(re.search(r'http-equiv="refresh"', path.read_text(encoding="utf-8", errors="replace"), re.I))


def pages() -> list[str]:
    return sorted(str(path.relative_to(HTML)) for path in HTML.rglob("*.html")
                  if "_static" not in path.parts and path.name not in {"genindex.html", "search.html"}
                  and not is_redirect(path))


AUDIT_OPTIONS = {"runOnly": {"type": "tag", "values": RULES}, "resultTypes": ["violations"]}
AUDIT_PAGES_AT_ONCE = max(1, os.cpu_count() or 1)  # each page's audit keeps one renderer busy


def audit(site: str, names: list[str]) -> dict[str, list]:
    """Every page's axe violations, ``AUDIT_PAGES_AT_ONCE`` pages at a time in one headless Chromium."""
    import asyncio

    from axe_playwright_python.async_playwright import Axe
    from playwright.async_api import async_playwright

    async def run() -> dict[str, list]:
        waiting, found = list(names), {}
        async with async_playwright() as playwright:
            chromium = await playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])

            async def auditor():
                page = await chromium.new_page()
                while waiting:
                    name = waiting.pop(0)
                    # the page as a reader meets it: loaded (the theme's scripts ran) and then quiet
                    await page.goto(site + name, wait_until="load")
                    await page.wait_for_load_state("networkidle")
                    found[name] = (await Axe().run(page, options=AUDIT_OPTIONS)).response["violations"]
                await page.close()

            await asyncio.gather(*(auditor() for _ in range(AUDIT_PAGES_AT_ONCE)))
            await chromium.close()
        return found

    return asyncio.run(run())


def test_every_page_passes_the_audit(site):
    assert CHROMIUM, ("no Chromium found: the accessibility audit could not run (install Debian's "
                      "chromium, or set CHROMIUM=/path/to/chromium; BOOK_AUDIT=skip leaves it out)")
    names = pages()
    found = audit(site, names)
    assert sorted(found) == names and len(names) >= 30, f"only {len(found)} pages audited"
    failures = [f"{name}: {violation['id']} ({violation['impact']}), {len(violation['nodes'])}x: {violation['help']}"
                for name, violations in found.items() for violation in violations
                if violation["impact"] in BLOCKING]
    assert not failures, "serious or critical accessibility violations:\n" + "\n".join(failures)


def test_every_code_block_and_table_is_a_keyboard_stop(build_log):
    """A code block, printed output or table wider than the page scrolls; it is reachable by keyboard
    from the start, not only once the theme's script has run (an audit once caught lesson 10 before it
    had)."""
    block = re.compile(r'<div class="highlight"><pre\b[^>]*>|<div class="pst-scrollable-table-container"[^>]*>')
    blocks = {str(path.relative_to(HTML)): block.findall(path.read_text(encoding="utf-8"))
              for path in (HTML / "book").rglob("*.html")}
    assert sum(len(found) for found in blocks.values()) > 24, "no code blocks found in the built lessons"
    assert any("table" in tag for found in blocks.values() for tag in found), "no tables found"
    unreachable = {name: len([tag for tag in found if 'tabindex="0"' not in tag])
                   for name, found in blocks.items()}
    assert not any(unreachable.values()), f"blocks without a keyboard stop: {unreachable}"


@pytest.mark.parametrize("lesson", find_lessons(ROOT), ids=lambda lesson: lesson.stem)
def test_every_figure_is_described(lesson, build_log):
    html = (HTML / "book" / lesson.unit / f"{lesson.stem}.html").read_text(encoding="utf-8")
    main = re.search(r"<main.*?</main>", html, re.S)[0]
    images = re.findall(r"<img\b[^>]*>", main)
    assert images, f"{lesson.stem}: no figure"
    assert 'class="coursekit-figure"' in main, f"{lesson.stem}: no figure shown with coursekit.plots.show"
    for image in images:
        alt = re.search(r'alt="([^"]*)"', image)
        text = alt[1] if alt else ""
        assert len(text.split()) >= 4, f"{lesson.stem}: an image without a description: {image[:160]}"
        assert not re.search(r"\.(png|svg|jpe?g)\b|_images/", text), f"{lesson.stem}: described by a file name: {text}"


def test_an_explorer_announces_the_frame_it_switches_to(site, browser):
    page = browser.new_page()
    page.goto(site + "book/fundamentals/01-perceptron-and-multilayer-network.html", wait_until="load")
    slider = page.locator(".coursekit-explorer input[type=range]").first
    slider.focus()
    page.keyboard.press("ArrowRight")
    announced = page.locator(".coursekit-explorer .explorer-announcer").first.text_content()
    visible = page.evaluate("""() => [...document.querySelectorAll('.coursekit-explorer img[data-frame]')]
        .filter((img) => img.style.display !== 'none')[0].alt""")
    page.close()
    assert announced and announced == visible, (announced, visible)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_theme_follows_the_readers_colour_scheme(site, browser, scheme):
    context = browser.new_context(color_scheme=scheme)
    page = context.new_page()
    page.goto(site + "book/intro.html", wait_until="load")
    theme = page.evaluate("document.documentElement.dataset.theme")
    context.close()
    assert theme == scheme
