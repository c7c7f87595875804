"""Every lesson runs in Pyodide, as the page's in-browser run runs it, and prints its expected tables.

node (no browser) loads Pyodide from ``node_modules/pyodide`` (``npm ci``, done by ``make test``) and
runs each lesson's code cells with the page's own engine (``sphinxext/static/run/engine.mjs``) and
runner (`booktools.pagerun`), with the course seed and ``FIGURES = False``: the stdout must equal the
stored expected table (``tests/expected/``), the platform-sensitive tokens compared by shape, since
WebAssembly's maths library rounds tanh, exp and log differently in the last bit. Where a lesson has no
platform-sensitive cell, every quoted text and claim also equals the book's own execution's.

The lessons are split over one node process per core, slowest first.
"""

import difflib
import json
import os
import shutil
import subprocess
import sys

import nbformat
import pytest
from conftest import LESSONS, ROOT
from test_lessons import expected_with_counts

from booktools.browser import lesson_payload, write_payload, write_runtime
from booktools.execute import last_seconds
from booktools.outputs import differences, quoted_texts, recorded_claims, same_shape, sensitive_tokens

EXPECTED = ROOT / "tests" / "expected"
MACHINE_TIMES = {3: {"time_example", "time_weight"}, 22: {"update_times", "speed_band"}}
"""Quotes of times measured on the machine that ran the lesson (lesson 3's two loop orders, lesson 22's
TP18; both keep them out of every claim and every test): another run, in the browser or not, gives
other numbers; compared by shape."""
NODE = os.environ.get("NODE") or shutil.which("node") or shutil.which("nodejs")
SCRIPT = ROOT / "tests" / "pyodide" / "run_lessons.mjs"
TIMEOUT = 3600


def same_words_and_numbers(want: str, got: str) -> bool:
    """Token by token the same words, and numbers where numbers (`booktools.outputs.same_shape`)."""
    return len(want.split()) == len(got.split()) and all(map(same_shape, want.split(), got.split()))


def compare_quotes(number: int, shown: dict[str, str], quoted: dict[str, str], claims: set[str]) -> list[str]:
    """Each text a run quoted (``shown``) against the CPython execution's (``quoted``): equal, except
    measured times (by shape) and, in a lesson with platform-sensitive cells, what is computed from them:
    a quoted number by shape, a claim sentence in other words too (its outcome may flip with them)."""
    sensitive = bool(sensitive_tokens(EXPECTED, number))
    problems = []
    for name, text in shown.items():
        if name not in quoted:
            problems.append(f"{name}: quoted by the run, not by the CPython execution")
            continue
        want = quoted[name]
        if text == want or (name in MACHINE_TIMES.get(number, ()) and same_words_and_numbers(want, text)):
            continue
        if sensitive and (name in claims or same_words_and_numbers(want, text)):
            continue
        problems.append(f"{name}: run {text!r}, CPython {want!r}")
    return problems


def lesson_cells(notebook) -> list:
    """An executed notebook's cells, as the lesson numbers them (the cell papermill injects after the
    parameters cell, with a run's parameters, is not the lesson's)."""
    cells = nbformat.read(notebook, as_version=4).cells if not isinstance(notebook, dict) else notebook["cells"]
    return [cell for cell in cells if "injected-parameters" not in cell.get("metadata", {}).get("tags", [])]


def tables_by_cell(notebook) -> dict[int, list[str]]:
    """The Markdown tables each code cell showed (`coursekit.tables.show_table`), by cell index."""
    shown = {}
    for index, cell in enumerate(lesson_cells(notebook)):
        for output in cell.get("outputs", []):
            if output.get("output_type") == "display_data" and "text/markdown" in output.get("data", {}):
                text = output["data"]["text/markdown"]
                shown.setdefault(index, []).append("".join(text) if isinstance(text, list) else text)
    return shown


def table_rows(markdown: str) -> list[list[str]]:
    """The body rows of a Markdown table, each a list of its cells' texts."""
    rows = [row.strip().strip("|").split("|") for row in markdown.strip().splitlines()]
    return [[cell.strip() for cell in row] for row in rows[2:]]


def same_table_shape(got: list, want: list) -> bool:
    """The same tables with the same rows of the same number of cells."""
    return len(got) == len(want) and all(
        len(g) == len(w) and all(len(a) == len(b) for a, b in zip(g, w)) for g, w in zip(got, want))


def compare_shown_tables(number: int, shown: dict, executed: dict) -> list[str]:
    """Rows of the tables a run showed against an execution's, cell by cell: equal, or (measured times,
    `MACHINE_TIMES`) the same words with numbers where numbers; in a lesson with platform-sensitive cells,
    whose "How sure is this?" and other shown tables read chaotic runs, the same shape (as its claims are
    compared in `compare_quotes`: their outcome may flip with a last bit of tanh)."""
    sensitive = bool(sensitive_tokens(EXPECTED, number))
    problems = []
    for index in sorted(set(shown) | set(executed)):
        got, want = shown.get(index, []), [table_rows(text) for text in executed.get(index, [])]
        if got == want:
            continue
        if number in MACHINE_TIMES and len(got) == len(want) and all(
                len(g) == len(w) and all(same_words_and_numbers(" ".join(a), " ".join(b)) for a, b in zip(w, g))
                for g, w in zip(got, want)):
            continue
        if sensitive and same_table_shape(got, want):
            continue
        problems.append(f"cell {index}: shown {got}, executed {want}")
    return problems


def stdout_by_cell(notebook) -> dict[int, str]:
    """What each code cell of an executed notebook printed, by its index among the lesson's cells."""
    printed = {}
    for index, cell in enumerate(lesson_cells(notebook)):
        text = "".join(output["text"] for output in cell.get("outputs", [])
                       if output.get("output_type") == "stream" and output.get("name") == "stdout")
        if cell["cell_type"] == "code" and text:
            printed[index] = text
    return printed


def sensitive_cells(book_notebook, number: int) -> set[int]:
    """The code cells that print a lesson's platform-sensitive tokens (listed for the course seed): with
    another seed another of their chaotic values may swing, so a rerun compares them by shape."""
    indices, cells, seen = sensitive_tokens(EXPECTED, number), set(), 0
    for index, text in stdout_by_cell(book_notebook).items():
        count = len(text.split())
        if any(seen <= i < seen + count for i in indices):
            cells.add(index)
        seen += count
    return cells


def compare_tables(shown: dict[int, str], executed: dict[int, str], by_shape: set[int]) -> list[str]:
    """A run's printed blocks against an execution's, cell by cell: equal, or for the cells in
    ``by_shape`` the same words with numbers where numbers."""
    problems = []
    for index in sorted(shown.keys() | executed.keys()):
        got, want = shown.get(index, ""), executed.get(index, "")
        if got == want or (index in by_shape and got.count("\n") == want.count("\n")
                           and same_words_and_numbers(want, got)):
            continue
        diff = difflib.unified_diff(want.splitlines(), got.splitlines(), "executed", "run", lineterm="", n=1)
        problems.append(f"cell {index}:\n" + "\n".join(diff))
    return problems


def share(lessons, workers: int) -> list[list]:
    """The lessons split into ``workers`` groups of about equal seconds, slowest first."""
    groups = [[] for _ in range(workers)]
    load = [0.0] * workers
    for lesson in sorted(lessons, key=lambda each: -last_seconds(ROOT, each)):
        k = load.index(min(load))
        groups[k].append(lesson)
        load[k] += last_seconds(ROOT, lesson) or 1.0
    return [group for group in groups if group]


@pytest.fixture(scope="session")
def pyodide_runs(executed_lessons, tmp_path_factory):
    """{stem: (result, seconds)} of every lesson run in Pyodide under node, and the start-up seconds."""
    assert NODE, "node was not found: install Node.js and npm (.ci/run installs Debian's nodejs and npm)"
    assert (ROOT / "node_modules" / "pyodide" / "pyodide.mjs").is_file(), (
        "Pyodide is not installed: run npm ci (make test does)")
    folder = tmp_path_factory.mktemp("pyodide")
    write_runtime(ROOT, folder)
    paths = {}
    for lesson in LESSONS:
        notebook, error = executed_lessons[lesson.stem]
        assert error is None, f"{lesson.stem} failed to execute:\n{error}"
        nb = json.loads(nbformat.writes(nbformat.read(notebook, as_version=4)))
        paths[lesson.stem] = write_payload(folder, lesson_payload(lesson.stem, lesson.number, nb, EXPECTED))
    workers = int(os.environ.get("LESSON_WORKERS", 0)) or os.cpu_count() or 1
    processes = [subprocess.Popen([NODE, str(SCRIPT), str(folder / "run"), *(str(paths[each.stem]) for each in group)],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
                 for group in share(LESSONS, workers)]
    runs, startups = {}, []
    for process in processes:
        out, err = process.communicate(timeout=TIMEOUT)
        assert process.returncode == 0, f"node failed:\n{err[-3000:]}"
        for line in out.splitlines():
            record = json.loads(line)
            if "startup" in record:
                startups.append(record["startup"])
            else:
                runs[record["stem"]] = (record["result"], record["seconds"])
    print(f"Pyodide start-up {', '.join(f'{s:.1f}' for s in startups)} s; "
          + ", ".join(f"{stem} {seconds:.1f} s" for stem, (_, seconds) in sorted(runs.items())), file=sys.stderr)
    return runs


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.stem)
def test_lesson_prints_its_expected_tables_in_pyodide(lesson, pyodide_runs):
    result, _ = pyodide_runs[lesson.stem]
    error = result["error"]
    assert error is None, (f"{lesson.stem} failed in Pyodide, cell {error['cell']}: {error['type']}: "
                           f"{error['message']}\n{error['traceback']}")
    payload_cells = sorted(int(index) for index in result["stdout"])
    printed = "".join(result["stdout"][str(index)] for index in payload_cells)
    expected = expected_with_counts(lesson, (EXPECTED / f"{lesson.stem}.txt").read_text(encoding="utf-8"))
    problems = differences(expected, printed, sensitive_tokens(EXPECTED, lesson.number))
    assert not problems, f"{lesson.stem} printed in Pyodide something else than expected:\n" + "\n".join(problems)


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.stem)
def test_lesson_quotes_and_claims_in_pyodide_as_in_the_book(lesson, pyodide_runs, executed_lessons):
    result, _ = pyodide_runs[lesson.stem]
    assert result["error"] is None, f"{lesson.stem} failed in Pyodide"
    notebook, _ = executed_lessons[lesson.stem]
    quoted = {name: str(value) for name, value in quoted_texts(notebook).items()}
    claims, _ = recorded_claims(notebook)
    assert result["texts"].keys() == quoted.keys(), f"{lesson.stem}: other names quoted in Pyodide"
    assert result["claims"].keys() == claims.keys(), f"{lesson.stem}: other claims recorded in Pyodide"
    problems = compare_quotes(lesson.number, result["texts"], quoted, set(claims))
    assert not problems, f"{lesson.stem} quoted otherwise in Pyodide:\n" + "\n".join(problems)
    shown = {int(index): [table_rows(text) for text in texts] for index, texts in result["displays"].items()}
    problems = compare_shown_tables(lesson.number, shown, tables_by_cell(notebook))
    assert not problems, f"{lesson.stem} showed other tables in Pyodide:\n" + "\n".join(problems)
    if not sensitive_tokens(EXPECTED, lesson.number):
        assert result["claims"] == claims, f"{lesson.stem}: other claims in Pyodide"
