"""The stored expected tables are the source course's output, token for token.

The source's output is fingerprinted in tests/expected/source-digests.json (made from the course
specification by `python -m booktools.digests`), so this runs without the specification at hand.
"""

import json

import pytest
from conftest import ROOT

from booktools.digests import token_digest
from booktools.lessons import find_lessons

EXPECTED = ROOT / "tests" / "expected"
DIGESTS = json.loads((EXPECTED / "source-digests.json").read_text(encoding="utf-8"))
TABLES = sorted(EXPECTED.glob("[0-2][0-9]-*.txt"))


@pytest.mark.parametrize("table", TABLES, ids=lambda path: path.stem)
def test_expected_table_is_the_source_output(table):
    number = str(int(table.name[:2]))
    source = DIGESTS[number]
    assert table.stem == f"{int(number):02d}-{source['slug']}", f"{table.name}: name does not match the slug"
    text = table.read_text(encoding="utf-8")
    assert len(text.split()) == source["tokens"], (
        f"{table.name} holds {len(text.split())} tokens, the source printed {source['tokens']}")
    assert token_digest(text) == source["sha256"], f"{table.name} differs from the source's output"


def test_every_lesson_has_a_table_and_every_table_a_lesson():
    lessons = {lesson.stem for lesson in find_lessons(ROOT)}
    tables = {path.stem for path in TABLES}
    assert lessons == tables, f"lessons without table: {lessons - tables}; tables without lesson: {tables - lessons}"


def test_digests_cover_the_whole_course():
    assert sorted(map(int, DIGESTS)) == list(range(1, 25))
