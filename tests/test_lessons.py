"""Every lesson, executed with papermill, prints exactly its stored expected table."""

import json
import re

import nbformat
import pytest

from booktools.outputs import differences, printed_stdout, sensitive_tokens
from conftest import LESSONS, ROOT

EXPECTED = ROOT / "tests" / "expected"


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.stem)
def test_lesson_prints_its_expected_tables(lesson, executed_lessons):
    notebook, error = executed_lessons[lesson.stem]
    assert error is None, f"lesson {lesson.stem} failed to execute:\n{error}"
    expected_file = EXPECTED / f"{lesson.stem}.txt"
    assert expected_file.exists(), f"lesson {lesson.stem} has no expected table {expected_file.name}"
    problems = differences(expected_file.read_text(encoding="utf-8"), printed_stdout(notebook),
                           sensitive_tokens(EXPECTED, lesson.number))
    assert not problems, f"lesson {lesson.stem} printed something else than expected:\n" + "\n".join(problems)


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
    assert "SEED = 20260218" in tagged[0].source, f"{lesson.stem}: the parameters cell must set SEED = 20260218"


def test_platform_sensitive_list_names_only_real_lessons():
    listed = json.loads((EXPECTED / "platform-sensitive.json").read_text())["lessons"]
    digests = json.loads((EXPECTED / "source-digests.json").read_text())
    for number, entry in listed.items():
        for low, high in entry["ranges"]:
            assert 0 <= low <= high < digests[number]["tokens"], f"lesson {number}: range {low}-{high} out of bounds"


def prose_of(lesson) -> str:
    """The lesson's Markdown without code cells, glue roles, inline code and maths."""
    text = lesson.path.read_text(encoding="utf-8")
    text = re.sub(r"```\{code-cell\}.*?```", "", text, flags=re.S)
    text = re.sub(r"\{glue:[a-z]*\}`[^`]*`", "", text)
    text = re.sub(r"`[^`]*`", "", text)
    return re.sub(r"\$[^$]*\$", "", text)


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.stem)
def test_prose_recites_no_measured_number(lesson):
    """A measured number (three or more decimals, or scientific notation) in the text must come from glue."""
    recited = re.findall(r"(?<![\w.])[+-]?\d+\.\d{3,}|\d\.\d+e[+-]?\d+", prose_of(lesson))
    assert not recited, f"{lesson.stem} writes measured numbers as literals: {recited}"
