"""Every lesson, executed with papermill, prints exactly its stored expected table; its text quotes only
computed numbers, each computed once; it reads back unchanged when JupyterLab saves it."""

import ast
import json
import re

import nbformat
import pytest
from conftest import LESSONS, ROOT

from booktools.lessons import find_lessons
from booktools.outputs import (
    definition_lines,
    differences,
    printed_stdout,
    replace_tokens,
    sensitive_tokens,
    source_count_tokens,
)

EXPECTED = ROOT / "tests" / "expected"


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.stem)
def test_lesson_prints_its_expected_tables(lesson, executed_lessons):
    notebook, error = executed_lessons[lesson.stem]
    assert error is None, f"lesson {lesson.stem} failed to execute:\n{error}"
    expected_file = EXPECTED / f"{lesson.stem}.txt"
    assert expected_file.exists(), f"lesson {lesson.stem} has no expected table {expected_file.name}"
    problems = differences(expected_with_counts(lesson, expected_file.read_text(encoding="utf-8")),
                           printed_stdout(notebook), sensitive_tokens(EXPECTED, lesson.number))
    assert not problems, f"lesson {lesson.stem} printed something else than expected:\n" + "\n".join(problems)


def expected_with_counts(lesson, expected: str) -> str:
    """The expected table with the counts of the lesson's own code lines (lesson 20) computed from the
    lesson's code cells, as the lesson computes them: every other token stays the source's."""
    counted = source_count_tokens(EXPECTED, lesson.number)
    if not counted:
        return expected
    cells = code_cells(lesson)
    return replace_tokens(expected, set(counted),
                          lambda i: str(sum(definition_lines(cells, name) for name in counted[i])))


def test_lesson_twenty_counts_are_computed_not_masked():
    """The line counts are compared exactly: a lesson that printed another count would fail."""
    lesson = next(lesson for lesson in find_lessons(ROOT) if lesson.number == 20)
    stored = (EXPECTED / f"{lesson.stem}.txt").read_text(encoding="utf-8")
    computed = expected_with_counts(lesson, stored)
    counted = source_count_tokens(EXPECTED, 20)
    assert counted and not sensitive_tokens(EXPECTED, 20)
    tokens = computed.split()
    assert [tokens[i - 1] for i in counted] == ["machinery", "route", "machinery"]
    assert differences(computed, replace_tokens(computed, {min(counted)}, lambda i: "1000"), set())


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.stem)
def test_lesson_keeps_progress_off_stdout_and_runs_clean(lesson, executed_lessons):
    notebook, error = executed_lessons[lesson.stem]
    assert error is None, f"lesson {lesson.stem} failed to execute:\n{error}"
    cells = nbformat.read(notebook, as_version=4).cells
    stdout = printed_stdout(notebook)
    assert "it/s" not in stdout and "%|" not in stdout, f"{lesson.stem}: a progress bar went to stdout"
    for cell in cells:
        for output in cell.get("outputs", []):
            assert output.get("output_type") != "error", f"{lesson.stem}: a cell raised an error"
            if output.get("name") == "stderr":
                assert "Warning" not in output["text"], f"{lesson.stem}: warning on stderr: {output['text'][:300]}"


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.stem)
def test_lesson_has_seed_parameter_cell(lesson):
    from myst_nb.core.read import read_myst_markdown_notebook

    notebook = read_myst_markdown_notebook(lesson.path.read_text(encoding="utf-8"))
    tagged = [c for c in notebook.cells if "parameters" in c.metadata.get("tags", [])]
    assert len(tagged) == 1, f"{lesson.stem} must have exactly one cell tagged 'parameters'"
    from coursekit import SEED

    assert f"SEED = {SEED}" in tagged[0].source, f"{lesson.stem}: the parameters cell must set SEED = {SEED}"


def test_platform_sensitive_list_names_only_real_lessons():
    listed = json.loads((EXPECTED / "platform-sensitive.json").read_text())["lessons"]
    digests = json.loads((EXPECTED / "source-digests.json").read_text())
    for number, entry in listed.items():
        for low, high in entry["ranges"]:
            assert 0 <= low <= high < digests[number]["tokens"], f"lesson {number}: range {low}-{high} out of bounds"


def prose_of(lesson) -> str:
    """The lesson's Markdown without code cells, roles, inline code and maths."""
    text = lesson.path.read_text(encoding="utf-8")
    text = re.sub(r"```\{code-cell\}.*?```", "", text, flags=re.S)
    text = re.sub(r"\{[a-z:]+\}`[^`]*`", "", text)
    text = re.sub(r"`[^`]*`", "", text)
    return re.sub(r"\$[^$]*\$", "", text)


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.stem)
def test_prose_recites_no_measured_number(lesson):
    """A measured number (three or more decimals, or scientific notation) in the text must come from glue."""
    recited = re.findall(r"(?<![\w.])[+-]?\d+\.\d{3,}|\d\.\d+e[+-]?\d+", prose_of(lesson))
    assert not recited, f"{lesson.stem} writes measured numbers as literals: {recited}"


def code_cells(lesson) -> list[str]:
    from myst_nb.core.read import read_myst_markdown_notebook

    notebook = read_myst_markdown_notebook(lesson.path.read_text(encoding="utf-8"))
    return [cell.source for cell in notebook.cells if cell.cell_type == "code"]


CLAIM_MAKERS = {"Claim", "measured", "measured_again"}
"""What builds a claim in a lesson (`coursekit.claims`): its first argument is a quoted name too."""


def claim_names(tree) -> list[str]:
    """The names of the claims a piece of lesson code builds, once per occurrence: ``Claim("name", ...)``,
    ``measured("name", ...)``, and the closing claim ``second_run_outweighs(...)`` under its fixed name."""
    from coursekit.claims import SECOND_RUN_CLAIM

    calls = [node for node in ast.walk(tree) if isinstance(node, ast.Call)]
    return ([node.args[0].value for node in calls if getattr(node.func, "id", None) in CLAIM_MAKERS
             and node.args and isinstance(node.args[0], ast.Constant)]
            + [SECOND_RUN_CLAIM for node in calls if getattr(node.func, "id", None) == "second_run_outweighs"])


def quoted_names(tree) -> list[str]:
    """The names a lesson passes to ``quote(name=...)`` or names a claim by, once per occurrence."""
    return [keyword.arg for node in ast.walk(tree) if isinstance(node, ast.Call)
            and getattr(node.func, "id", None) == "quote" for keyword in node.keywords] + claim_names(tree)


OWN_SCOPE = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda, ast.ListComp, ast.SetComp,
             ast.DictComp, ast.GeneratorExp)


def notebook_level_bindings(tree) -> list[str]:
    """Names the code binds in the notebook's namespace: assignments, loop targets, imports, definitions
    (not the local names of functions and comprehensions, which have scopes of their own)."""
    names = []

    def visit(node):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.append(node.name)
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.append(node.id)
        if isinstance(node, ast.alias):
            names.append((node.asname or node.name).split(".")[0])
        if not isinstance(node, OWN_SCOPE):
            for child in ast.iter_child_nodes(node):
                visit(child)

    visit(tree)
    return names


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.stem)
def test_every_prose_number_is_quoted_once_and_never_rebound(lesson):
    """{eval}`name` shows what quote(name=...) computed: one quote per name, and no other binding of it
    (JupyterLab may evaluate a sentence after later cells have run), and every quoted name is used."""
    text = lesson.path.read_text(encoding="utf-8")
    used = set(re.findall(r"\{eval\}`([^`]*)`", text))
    assert used, f"{lesson.stem} quotes no computed number in its text"
    trees = [ast.parse(source) for source in code_cells(lesson)]
    quoted = [name for tree in trees for name in quoted_names(tree)]
    twice = sorted({name for name in quoted if quoted.count(name) > 1})
    assert not twice, f"{lesson.stem}: quoted more than once: {twice}"
    assert not used - set(quoted), f"{lesson.stem}: the text evaluates names never quoted: {sorted(used - set(quoted))}"
    assert not set(quoted) - used, f"{lesson.stem}: quoted but never shown: {sorted(set(quoted) - used)}"
    bound = {name for tree in trees for name in notebook_level_bindings(tree)}
    assert not bound & set(quoted), f"{lesson.stem}: quoted names also bound by the code: {sorted(bound & set(quoted))}"
    assert "{glue" not in text, (f"{lesson.stem}: use {{eval}} with quote(), not glue roles "
                                 "(JupyterLab cannot show them)")


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.stem)
def test_jupyterlab_saves_the_lesson_unchanged(lesson):
    """What JupyterLab adds when it opens, runs and saves a lesson (jupytext version, evaluated {eval}
    results, kernel metadata) goes to the paired .ipynb: jupytext writes the .md back byte for byte."""
    import jupytext
    from jupytext.config import load_jupytext_config

    text = lesson.path.read_text(encoding="utf-8")
    config = load_jupytext_config(str(lesson.path.parent))
    notebook = jupytext.reads(text, fmt="md:myst")
    notebook.metadata["jupytext"]["text_representation"]["jupytext_version"] = jupytext.__version__
    notebook.metadata["language_info"] = {"name": "python", "version": "3.12.1"}
    notebook.metadata["widgets"] = {"application/vnd.jupyter.widget-state+json": {"state": {}}}
    for cell in notebook.cells:
        if cell.cell_type == "markdown":
            cell.metadata["user_expressions"] = [{"expression": "x", "result": {"status": "ok", "data": {}}}]
    assert jupytext.writes(notebook, fmt="md:myst", config=config) == text, (
        f"{lesson.stem} would change when saved from JupyterLab")
    assert notebook.metadata["kernelspec"]["display_name"] == "Python 3 (ipykernel)", (
        "JupyterLab rewrites any other kernel display name")


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.stem)
def test_progress_lines_sit_above_the_tables(lesson, executed_lessons):
    """A progress line shown between two printed chunks would split a table in JupyterLab."""
    notebook, error = executed_lessons[lesson.stem]
    assert error is None, f"lesson {lesson.stem} failed to execute:\n{error}"
    for index, cell in enumerate(nbformat.read(notebook, as_version=4).cells):
        outputs = cell.get("outputs", [])
        for position, output in enumerate(outputs):
            if output.get("output_type") == "display_data" and not output.get("data"):  # a finished progress line
                printed_before = any(o.get("output_type") == "stream" for o in outputs[:position])
                assert not printed_before, f"{lesson.stem}, cell {index}: progress shown after the cell printed"


CODE_WIDTH = 88  # what the book's page column shows without a horizontal scroll bar


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.stem)
def test_code_lines_fit_the_page_column(lesson):
    long_lines = [f"{line[:60]}... ({len(line)})" for source in code_cells(lesson)
                  for line in source.splitlines() if len(line) > CODE_WIDTH]
    assert not long_lines, f"{lesson.stem}: code lines wider than {CODE_WIDTH}:\n" + "\n".join(long_lines)
