"""A lesson run with a bad parameter fails at once, with an error that names the parameter."""

import papermill
import pytest

from booktools.execute import read_lesson, run_papermill
from conftest import LESSONS

FIRST = LESSONS[0]


@pytest.mark.parametrize("parameters, name", [
    ({"SEED": "abc"}, "SEED"),
    ({"EPOCHS": 0}, "EPOCHS"),
], ids=["SEED-abc", "EPOCHS-0"])
def test_bad_parameter_fails_with_a_clear_error(parameters, name, tmp_path):
    with pytest.raises(papermill.PapermillExecutionError) as raised:
        run_papermill(FIRST, read_lesson(FIRST), tmp_path / "out.ipynb", parameters=parameters)
    assert raised.value.ename == "ValueError"
    assert raised.value.evalue.startswith(name), raised.value.evalue
    executed = [c for c in __import__("nbformat").read(tmp_path / "out.ipynb", as_version=4).cells
                if c.cell_type == "code" and c.get("execution_count")]
    assert len(executed) <= 3, "the bad parameter must be caught before the lesson starts working"
