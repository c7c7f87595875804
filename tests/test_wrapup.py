"""The Course Wrap-Up is read from the lessons' executions: with the course seed it is the source's table,
with another seed it holds that seed's numbers, and the book's page shows it."""

import json
import re

import pytest
from conftest import LESSONS, ROOT

from booktools.lessons import find_lessons
from booktools.outputs import printed_stdout
from booktools.wrapup import ROW_NAMES, conclusions, markdown, row_of, rows_from_folder
from coursekit.claims import CLAIMS_MIME, SECOND_RUN_CLAIM
from coursekit.prose import GLUE_PREFIX

SOURCE = json.loads((ROOT / "tests" / "expected" / "source-wrap-up.json").read_text(encoding="utf-8"))["rows"]
EVERY_LESSON = len(SOURCE) == len(LESSONS)


def glue_output(name: str, text: str) -> dict:
    return {"output_type": "display_data", "data": {GLUE_PREFIX + "text/plain": repr(text)},
            "metadata": {"scrapbook": {"name": name, "mime_prefix": GLUE_PREFIX}}}


def notebook_with(texts: dict, closing: dict | None = None, seed: int = 20260218) -> dict:
    outputs = [glue_output(name, text) for name, text in texts.items()]
    if closing is not None:
        outputs.append({"output_type": "display_data", "data": {CLAIMS_MIME: {SECOND_RUN_CLAIM: closing}},
                        "metadata": {}})
    parameters = {"cell_type": "code", "source": "SEED = 20260218\nRUNS = 2", "outputs": [],
                  "metadata": {"tags": ["parameters"]}}
    injected = {"cell_type": "code", "source": f"SEED = {seed}\n", "outputs": [],
                "metadata": {"tags": ["injected-parameters"]}}
    return {"cells": [parameters, injected, {"cell_type": "code", "source": "", "outputs": outputs,
                                             "metadata": {}}]}


def test_a_row_is_read_from_the_quotes_and_a_missing_quote_is_named():
    lesson = LESSONS[0]
    texts = {"baseline": "0.7579", "network_number": "0.7857", "second_run": "0.7698", "sampling_error": "0.0258"}
    closing = {"holds": True, "says": "The second run moves the number by 0.0159, more than the 0.0040 x."}
    row = row_of(lesson, notebook_with(texts, closing))
    assert (row.baseline, row.network, row.second_run, row.sampling_error) == tuple(texts.values())
    assert row.closing == closing
    with pytest.raises(ValueError, match=f"lesson {lesson.stem} quotes no second_run"):
        row_of(lesson, notebook_with({k: v for k, v in texts.items() if k != "second_run"}))


def test_the_closing_count_and_the_comparison_with_the_linear_model():
    # three unit-1 rows, one holding the closing claim; the course seed's linear model, retrained on its
    # rows, gets 202 of 252 right: 0.8016
    lessons = [lesson for lesson in find_lessons(ROOT) if lesson.unit == "fundamentals"][:3]
    def rows_with(networks, seed=20260218, test_size="252"):
        return [row_of(lesson, notebook_with(
            {"baseline": "0.7579", "network_number": network, "second_run": "0.7698", "sampling_error": "0.0250",
             "test_size": test_size}, {"holds": holds, "says": "s."}, seed=seed))
            for lesson, network, holds in zip(lessons, networks, (True, False, False))]
    rows = rows_with(("0.7857", "0.7937", "0.8016"))
    assert {row.seed for row in rows} == {20260218}    # the injected parameter, read back
    found = {claim.name: claim for claim in conclusions(rows)}
    assert not found["second_run_outweighs_in_most"].holds and "In 1 of the 3" in found[
        "second_run_outweighs_in_most"].says
    assert not found["fundamentals_below_linear_model"].holds  # 0.8016 reaches the line
    assert "1 of the 6 runs" in found["fundamentals_below_linear_model"].says
    assert next(c for c in conclusions(rows_with(("0.7857", "0.7937", "0.8000")))
                if c.name == "fundamentals_below_linear_model").holds
    with pytest.raises(ValueError, match="counted on 258 rows, the lessons on 252"):
        conclusions(rows_with(("0.7857", "0.7937", "0.8000"), seed=7))   # seed 7's test set has 258 rows
    with pytest.raises(ValueError, match="one seed"):
        conclusions(rows[:2] + rows_with(("0.7857",), seed=7, test_size="258")[:1])
    text = markdown(rows)
    assert text.count("\n| 0") == 3 and "0.7937" in text and '<figure class="coursekit-figure">' in text


@pytest.mark.skipif(not EVERY_LESSON, reason="LESSONS selects part of the book; the wrap-up needs all")
def test_with_the_course_seed_the_wrap_up_is_the_source_table(executed_lessons):
    rows = rows_from_folder(ROOT, "executed")
    assert len(rows) == 24
    for row in rows:
        source = SOURCE[str(row.lesson.number)]
        assert (row.baseline, row.network, row.second_run) == (
            source["baseline"], source["network_number"], source["second_run"]), f"row {row.lesson.stem}"


@pytest.mark.skipif(not EVERY_LESSON, reason="LESSONS selects part of the book; the wrap-up needs all")
def test_with_another_seed_the_wrap_up_holds_that_seeds_numbers(other_seed_lessons):
    rows = rows_from_folder(ROOT, "executed-SEED-7")
    assert len(rows) == 24
    moved = 0
    for row in rows:
        notebook, _ = other_seed_lessons[row.lesson.stem]
        printed = set(re.findall(r"[+-]?\d+\.\d+", printed_stdout(notebook)))
        assert row.baseline in printed, f"{row.lesson.stem}: the wrap-up's baseline {row.baseline} was not printed"
        for name, value in zip(ROW_NAMES[1:], (row.network, row.second_run)):
            # printed as it is, or (lessons 13-14) as its lead over the baseline
            lead = f"{float(value) - float(row.baseline):+.4f}"
            assert value in printed or lead in printed, (
                f"{row.lesson.stem}: the wrap-up's {name} {value} is not a number it printed")
        source = SOURCE[str(row.lesson.number)]
        moved += (row.network, row.second_run) != (source["network_number"], source["second_run"])
    assert moved >= 12, f"only {moved} of 24 rows differ from the course seed's"


def test_the_wrap_up_page_shows_every_row(build_log):
    page = (ROOT / "_build" / "html" / "book" / "wrap-up.html").read_text(encoding="utf-8")
    table = re.search(r"<table.*?</table>", page, re.S)[0]
    every_lesson = find_lessons(ROOT)
    assert len(re.findall(r"<tr", table)) == len(every_lesson) + 1
    for lesson in every_lesson:
        assert f"{lesson.stem}.html" in table, f"the wrap-up does not link {lesson.stem}"


def closing_pair(says: str) -> float:
    """The second run's difference a closing claim states: "moves the network's number by X", or 0 for
    "gives the network's number again"."""
    if "gives the network's number again" in says:
        return 0.0
    match = re.search(r"moves the network's number by ([0-9.]+)", says)
    assert match, f"a closing claim that names no second-run difference: {says!r}"
    return float(match[1])


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.stem)
def test_each_closing_claim_reads_its_own_wrap_up_row(lesson, executed_lessons, other_seed_lessons):
    """One network's number and one second run per lesson: the pair the closing claim compares is the
    pair of the lesson's wrap-up row (to the rounding of the four decimals both are quoted with), under
    the course seed and the other seed."""
    for seed, (path, error) in (("course seed", executed_lessons[lesson.stem]),
                                ("other seed", other_seed_lessons[lesson.stem])):
        assert error is None, f"{lesson.stem} ({seed}) failed to execute"
        row = row_of(lesson, json.loads(path.read_text(encoding="utf-8")))
        if row.closing is None:
            continue
        network, second = (float(text.split()[0]) for text in (row.network, row.second_run))
        assert abs(closing_pair(row.closing["says"]) - abs(network - second)) <= 0.00011, (
            f"{lesson.stem} ({seed}): the closing claim's second run is not the row's pair "
            f"({row.network} and {row.second_run}): {row.closing['says']}")
