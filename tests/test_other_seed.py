"""Any seed follows the course's algorithm: every lesson, executed with another seed, runs to the end and
prints tables of the same shape, and what the course derives from the data moves with the data.

The lessons run with `booktools.execute.OTHER_SEED` into their own folder (never into the book), cached
by the same stamps as the book's own execution.
"""

import re

import pytest
from conftest import LESSONS, ROOT

from booktools.execute import OTHER_SEED, seed_variant
from booktools.outputs import glued_texts, printed_stdout

EXPECTED = ROOT / "tests" / "expected"
OTHER = seed_variant(OTHER_SEED)
PATTERN = re.compile(r"^[#.+\-|*o]+$")  # rows of a drawn grid or sequence, which change with the data
NUMERIC = re.compile(r"^(?=.*\d)[\d.,+\-%x/e()\[\];:]+$")  # 0.7857, 0.7659-0.7857, 12x12, 1e-05, (3),


LITERAL = re.compile(r"""["']([^"'\n]*)["']""")


def printed_words(lesson) -> set[str]:
    """Every word inside a string literal of the lesson's code: what the lesson can print in place of
    the course seed's word ('hyperbolic tangent' where the course chose 'sigmoid') or of a number
    ('never' where the course's run crossed at epoch 19)."""
    source = lesson.path.read_text(encoding="utf-8")
    return {word.strip(",;:()") for literal in LITERAL.findall(source) for word in literal.split()}


def placeholder_words(lesson) -> set[str]:
    """String literals of the lesson's code that are one word ('never'): what it prints for a value
    the run did not reach."""
    source = lesson.path.read_text(encoding="utf-8")
    return {literal for literal in LITERAL.findall(source) if literal.isalpha()}


def token_kind(token: str, vocabulary: set[str]) -> str:
    """What a token must stay when the seed changes: a number, a drawn pattern, or a word the lesson
    prints; any other token must stay itself."""
    if NUMERIC.match(token):
        return "number"
    if PATTERN.match(token):
        return "pattern"
    return "word" if token in vocabulary or token.strip(",;:()") in vocabulary else token


def line_shape(line: str, vocabulary: set[str]) -> list[tuple[str, str]]:
    """(kind, token) per token, consecutive words merged: a chosen setting may be named in more words."""
    shape = []
    for token in re.split(r"[\s=]+", line.strip()):  # name=value settings compare by their value
        kind = token_kind(token, vocabulary)
        if kind == "word" and shape and shape[-1][0] == "word":
            continue
        shape.append((kind, token))
    return shape


def same_slot(want: tuple[str, str], got: tuple[str, str], placeholders: set[str]) -> bool:
    """Same kind, or a number on one side and a word the lesson prints instead of one on the other."""
    if want[0] == got[0]:
        return True
    kinds = {want[0], got[0]}
    word = want[1] if want[0] == "word" else got[1]
    return kinds == {"number", "word"} and word.strip(",;:()") in placeholders


def shape_differences(expected: str, printed: str, lesson_words: set[str],
                      placeholders: set[str]) -> list[str]:
    vocabulary = {t for t in expected.split() if not NUMERIC.match(t)} | lesson_words
    expected_lines, printed_lines = expected.splitlines(), printed.splitlines()
    if len(expected_lines) != len(printed_lines):
        return [f"{len(printed_lines)} lines printed, {len(expected_lines)} with the course seed"]
    problems = []
    for number, (want, got) in enumerate(zip(expected_lines, printed_lines), start=1):
        shape_want, shape_got = line_shape(want, vocabulary), line_shape(got, vocabulary)
        if len(shape_want) != len(shape_got) or not all(
                same_slot(w, g, placeholders) for w, g in zip(shape_want, shape_got)):
            problems.append(f"line {number}: {got!r} is not shaped like {want!r}")
    return problems


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.stem)
def test_lesson_with_another_seed_prints_tables_of_the_same_shape(lesson, other_seed_lessons):
    notebook, error = other_seed_lessons[lesson.stem]
    assert error is None, f"{lesson.stem} failed with SEED = {OTHER_SEED}:\n{error}"
    expected = (EXPECTED / f"{lesson.stem}.txt").read_text(encoding="utf-8")
    printed = printed_stdout(notebook)
    assert printed != expected, f"{lesson.stem} printed the course seed's tables with SEED = {OTHER_SEED}"
    problems = shape_differences(expected, printed, printed_words(lesson),
                                  placeholder_words(lesson))
    assert not problems, f"{lesson.stem} with SEED = {OTHER_SEED}:\n" + "\n".join(problems[:10])


def prints_comparison_lines(lesson) -> bool:
    expected = EXPECTED / f"{lesson.stem}.txt"
    return expected.exists() and "comparison lines" in expected.read_text(encoding="utf-8")


@pytest.mark.parametrize("lesson", [one for one in LESSONS if prints_comparison_lines(one)],
                         ids=lambda one: one.stem)
def test_comparison_lines_are_the_hits_over_this_seeds_test_set(lesson, other_seed_lessons):
    """The earlier course's linear model (202 hits) and decision tree (198 hits), divided by the size of
    the test set this seed produced, as the course computes them."""
    from coursekit.references import decision_tree, linear_model
    from coursekit.subscribers import load_subscribers

    notebook, error = other_seed_lessons[lesson.stem]
    assert error is None, error
    test_size = len(load_subscribers(OTHER_SEED).test[1])
    line = re.search(r"comparison lines.*", printed_stdout(notebook))
    assert line, f"{lesson.stem}: no comparison line printed"
    printed = {model: re.search(model + r" (\d\.\d{4})", line[0]) for model in ("linear model", "decision tree")}
    assert all(printed.values()), f"{lesson.stem}: the comparison line names no value for each model: {line[0]}"
    assert (printed["linear model"][1], printed["decision tree"][1]) == (
        f"{linear_model(test_size):.4f}", f"{decision_tree(test_size):.4f}")


def test_shape_check_accepts_another_choice_and_rejects_another_table():
    """The check itself: a chosen setting named in more words, 'never' for a number and name=value
    settings pass; a lost column, a number turned into a word the lesson never prints, and a missing
    line fail."""
    expected = ("chosen: sigmoid\n  plain   0.05   0.3664   19   0.8056\n"
                "  initialization seed=20260219, batch size=30\n")
    words, placeholders = {"hyperbolic", "tangent", "sigmoid", "never"}, {"never"}
    assert not shape_differences(expected, "chosen: hyperbolic tangent\n  plain   0.05   0.4056   never"
                                 "   0.7698\n  initialization seed=8, batch size=30\n", words, placeholders)
    lost_column = "chosen: sigmoid\n  plain   0.05   0.3664   0.8056\n  initialization seed=8, batch size=30\n"
    assert shape_differences(expected, lost_column, words, placeholders)
    unknown_word = expected.replace("19", "later")
    assert shape_differences(expected, unknown_word, words, placeholders)
    assert shape_differences(expected, expected.split("\n", 1)[1], words, placeholders)


def derived_baseline(lesson, seed: int) -> str | None:
    """The baseline the course derives from the data for ``seed``, computed with coursekit: the
    subscriber table's (lessons 1-9, 20-24) and the coverage grids' (10-12); None for the others."""
    from booktools.wrapup import DATA_SETS
    from coursekit.grids import load_grids
    from coursekit.subscribers import load_subscribers

    loaders = {"subscriber table": load_subscribers, "coverage grids": load_grids}
    load = loaders.get(DATA_SETS[lesson.number])
    return f"{load(seed).baseline:.4f}" if load else None


@pytest.mark.parametrize("lesson", [one for one in LESSONS if derived_baseline(one, OTHER_SEED)],
                         ids=lambda one: one.stem)
def test_the_baseline_follows_the_seed(lesson, executed_lessons, other_seed_lessons):
    """The baseline each lesson quotes is the one coursekit derives from the seed's data: the course's
    with the course seed, another with the other seed (a typed baseline would fail one of the two)."""
    from coursekit import SEED

    for seed, (notebook, error) in ((SEED, executed_lessons[lesson.stem]),
                                    (OTHER_SEED, other_seed_lessons[lesson.stem])):
        assert error is None, error
        assert glued_texts(notebook)["baseline"] == repr(derived_baseline(lesson, seed)), f"seed {seed}"
    assert derived_baseline(lesson, SEED) != derived_baseline(lesson, OTHER_SEED)
