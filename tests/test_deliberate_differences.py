"""The course's deliberate differences (listed in `coursekit`'s docstring): pieces that look alike but
compute differently on purpose, because each reproduces the digits of the source lessons that use it.
Each test below fails if someone "tidies up" by unifying them; the lessons' tables would change too."""

import ast
import re

import pytest
from conftest import ROOT

import coursekit
from booktools.lessons import find_lessons
from coursekit import readings, steps
from coursekit.activations import SIGMOIDS, sigmoid, sigmoid_clipped, sigmoid_zero_below
from coursekit.subscribers import baseline_accuracy, not_suspicious_share


def test_the_package_docstring_lists_every_deliberate_difference():
    doc = coursekit.__doc__
    for name in ("sigmoid_zero_below", "sigmoid_clipped", "not_suspicious_share", "majority_baseline",
                 "steps.split_sequences", "readings.split_sequences"):
        assert name in doc, f"coursekit's docstring does not name {name}"


def test_the_three_sigmoids_differ_where_the_lessons_need_it():
    assert set(SIGMOIDS.values()) == {sigmoid, sigmoid_zero_below, sigmoid_clipped}
    assert sigmoid_zero_below(-31) == 0.0 < sigmoid(-31) < sigmoid_clipped(-31)  # cut, exact, clipped
    assert sigmoid_clipped(-40) == sigmoid_clipped(-30) and sigmoid_clipped(40) < 1.0 == sigmoid(800)
    # below zero the split form e/(1+e) and 1/(1+exp(-z)) round differently in the last digit
    assert sigmoid(-0.7) != sigmoid_zero_below(-0.7) == sigmoid_clipped(-0.7)


def defined_functions(lesson, name: str) -> list[ast.FunctionDef]:
    from booktools.execute import read_lesson

    code = "\n".join(cell.source for cell in read_lesson(lesson).cells if cell.cell_type == "code")
    code = "\n".join(line for line in code.splitlines() if not line.lstrip().startswith(("%", "!")))
    return [node for node in ast.walk(ast.parse(code)) if isinstance(node, ast.FunctionDef) and node.name == name]


def test_only_the_lessons_that_teach_the_sigmoid_write_it_and_theirs_is_the_package_one():
    teaching = {1, 2}
    for lesson in find_lessons(ROOT):
        found = defined_functions(lesson, "sigmoid")
        if lesson.number not in teaching:
            assert not found, f"{lesson.stem} writes its own sigmoid: import the named variant from coursekit"
            continue
        assert len(found) == 1, f"{lesson.stem} teaches the sigmoid once"
        namespace = {}
        exec(compile(ast.Module([found[0]], []), lesson.stem, "exec"), {"math": __import__("math")}, namespace)
        taught = namespace["sigmoid"]
        points = [z / 8 for z in range(-6000, 6001, 7)]
        assert [taught(z) for z in points] == [sigmoid(z) for z in points], f"{lesson.stem}: not the package's"


INLINE_SIGMOID = re.compile(r"math\.exp\(-max\(-30|> -30 else 0\.0")


def test_the_lessons_write_no_sigmoid_variant_inline_but_where_they_teach_the_code_around_it():
    """Lessons 13 and 17 teach a forward pass and a training loop with the clipped sigmoid written in
    (checked against their package twins in hidden cells); every other lesson calls the named variant."""
    for lesson in find_lessons(ROOT):
        found = INLINE_SIGMOID.findall(lesson.path.read_text(encoding="utf-8"))
        assert lesson.number in (13, 17) or not found, f"{lesson.stem} writes a sigmoid variant inline: {found}"


def test_the_baselines_differ_in_their_arithmetic():
    labels = [1.0, 1.0, 0.0]  # positives in the majority
    assert baseline_accuracy(labels) == 2 / 3
    assert not_suspicious_share(labels) == 1 / 3  # unit 1 counts the "not suspicious" answers, always
    assert steps.majority_baseline([1, 0, 0]) == 0.6666666666666667 != 2 / 3 == baseline_accuracy([1.0, 0.0, 0.0])


def test_the_two_sequence_splits_mean_different_things():
    drawn = steps.step_sequences(coursekit.SEED)
    kept = steps.split_sequences(drawn)
    assert kept.train[0] is drawn[0] and kept.test[-1] is drawn[len(kept.train) + len(kept.validation)
                                                                 + len(kept.test) - 1]  # drawing order
    sequences = readings.reading_sequences(coursekit.SEED, 500)
    shuffled = readings.split_sequences(sequences, coursekit.SEED)
    assert shuffled.train != sequences[:len(shuffled.train)]  # shuffled first
    assert sorted(map(tuple, shuffled.train + shuffled.validation + shuffled.test)) == sorted(map(tuple, sequences))


@pytest.mark.parametrize("name", sorted(SIGMOIDS))
def test_each_sigmoid_is_a_sigmoid(name):
    function = SIGMOIDS[name]
    assert function(0.0) == 0.5 and function(2.0) + function(-2.0) == pytest.approx(1.0)
