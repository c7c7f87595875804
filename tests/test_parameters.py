"""A lesson run with a bad parameter fails at once, with an error that names the parameter as the reader
wrote it. Every parameter of every lesson is tried in-process (the parameters cell and the check cell
after it, no kernel); one lesson is also run end to end with papermill, as a reader would run it."""

import nbformat
import papermill
import pytest
from conftest import LESSONS
from myst_nb.core.read import read_myst_markdown_notebook

from booktools.execute import read_lesson, run_papermill

SIGNED = {"GATE_BIAS": "lesson 14's gate bias: a bias may be negative"}
"""Numeric parameters for which a negative value is a valid setting."""


def parameter_cells(lesson) -> tuple[str, str]:
    """The lesson's parameters cell and the cell that checks it, which must come right after it."""
    cells = [cell for cell in read_myst_markdown_notebook(lesson.path.read_text(encoding="utf-8")).cells
             if cell.cell_type == "code"]
    index = next(i for i, cell in enumerate(cells) if "parameters" in cell.metadata.get("tags", []))
    return cells[index].source, cells[index + 1].source


def parameters_of(lesson) -> dict:
    namespace = {}
    exec(parameter_cells(lesson)[0], namespace)
    return {name: value for name, value in namespace.items() if name.isupper()}


def spoiled(value, kind: str):
    """``value`` made wrong: of the wrong type, or (``kind="negative"``) below zero; in a tuple, its
    first element is spoiled."""
    if isinstance(value, (tuple, list)):
        return type(value)([spoiled(value[0], kind), *value[1:]]) if value else "abc"
    if kind == "negative" and isinstance(value, (int, float)) and not isinstance(value, bool):
        return -1 if isinstance(value, int) else -1.0
    return 12345 if isinstance(value, str) else "abc"


def negative_makes_sense(value) -> bool:
    while isinstance(value, (tuple, list)) and value:
        value = value[0]
    return isinstance(value, (int, float)) and not isinstance(value, bool)


CASES = [(lesson, name, kind) for lesson in LESSONS for name, value in parameters_of(lesson).items()
         for kind in ("wrong type", "negative")
         if kind == "wrong type" or (negative_makes_sense(value) and name not in SIGNED)]


@pytest.mark.parametrize("lesson, name, kind", CASES,
                         ids=[f"{lesson.stem[:2]}-{name}-{kind.replace(' ', '-')}" for lesson, name, kind in CASES])
def test_every_parameter_refuses_a_bad_value_by_name(lesson, name, kind):
    parameters, check = parameter_cells(lesson)
    assert "require_" in check or "raise ValueError" in check, f"{lesson.stem}: no check cell after the parameters"
    namespace = {}
    exec(parameters, namespace)
    namespace[name] = spoiled(namespace[name], kind)
    with pytest.raises(ValueError) as raised:
        exec(check, namespace)
    assert str(raised.value).startswith(name), f"{lesson.stem}: {name} refused as {str(raised.value)[:80]!r}"


def test_every_lesson_has_parameters_to_check():
    for lesson in LESSONS:
        assert "SEED" in parameters_of(lesson), f"{lesson.stem}: no SEED parameter"


@pytest.mark.parametrize("parameters, name", [({"SEED": "abc"}, "SEED"), ({"SEED": -3}, "SEED")],
                         ids=["SEED-abc", "SEED-negative"])
def test_a_bad_parameter_stops_papermill_before_any_work(parameters, name, tmp_path):
    lesson = LESSONS[0]
    with pytest.raises(papermill.PapermillExecutionError) as raised:
        run_papermill(lesson, read_lesson(lesson), tmp_path / "out.ipynb", parameters=parameters)
    assert raised.value.ename == "ValueError"
    assert raised.value.evalue.startswith(name), raised.value.evalue
    executed = [c for c in nbformat.read(tmp_path / "out.ipynb", as_version=4).cells
                if c.cell_type == "code" and c.get("execution_count")]
    assert len(executed) <= 3, "the bad parameter must be caught before the lesson starts working"
