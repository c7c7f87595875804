"""Unit tests of coursekit.steps: the step/marker sequence set of lessons 15-19, its codes and raw form."""


import pytest

from coursekit import SEED
from coursekit.steps import (
    CODES,
    MAINTENANCE,
    SEQUENCES,
    SPLIT_SIZES,
    STEPS,
    SUSPECT,
    THRESHOLD,
    CodeTask,
    group_distances,
    majority_baseline,
    positive_rate,
    split_sequences,
    step_sequences,
)


@pytest.fixture(scope="module")
def full():
    """The course seed's set with everything: both code tasks and the raw form."""
    return step_sequences(SEED, code_tasks=[MAINTENANCE, SUSPECT], raw=True)


# --- the sequences ---------------------------------------------------------------------------------

def test_size_shape_and_the_calibration_step(full):
    assert len(full) == SEQUENCES == 720
    for s in full:
        assert len(s.reading) == len(s.codes) == len(s.raw) == STEPS == 12
        assert s.reading[0] == 0.0  # the shared calibration reading
        assert all(round(r, 3) == r for r in s.reading)


def test_marker_range_and_label_rule(full):
    markers = {s.marker for s in full}
    assert markers == set(range(2, STEPS))  # every admissible step occurs, no other
    for s in full:
        assert s.label == (1 if s.reading[s.marker] > THRESHOLD else 0)
    assert 0 < sum(s.label for s in full) < len(full)


def test_first_sequence_is_the_source_courses(full):
    # the source's lessons 16, 17 and 19 print the first sequence of this seed: the data set is the spec
    first = full[0]
    assert first.reading == [0.0, 0.893, -0.222, -0.542, -0.404, -1.114, 0.234, -1.03, -1.493, 0.534,
                             -1.807, 0.05]
    assert first.codes == [0, 8, 0, 16, 22, 10, 17, 7, 14, 19, 7, 18]
    assert first.raw == [21.188, 21.247, 19.977, 20.223, 21.497, 22.188, 24.826, 24.397, 24.089, 25.549,
                         22.073, 22.529]


def test_determinism_from_the_seed():
    a, b, c = step_sequences(7, 30), step_sequences(7, 30), step_sequences(8, 30)
    assert a == b
    assert [s.reading for s in a] != [s.reading for s in c]
    # sequence i depends on seed + i only: a shorter set is a prefix, a shifted seed a shifted set
    assert step_sequences(7, 10) == a[:10]
    assert step_sequences(8, 29) == a[1:]


def test_additions_never_change_the_readings(full):
    plain = step_sequences(SEED)
    assert [(s.reading, s.marker, s.label, s.region) for s in plain] == \
           [(s.reading, s.marker, s.label, s.region) for s in full]
    assert plain[0].codes is None and plain[0].raw is None and plain[0].code_labels == {}


def test_raw_form_is_level_plus_a_yearly_swing(full):
    # sin and cos change sign half a year later, so what the raw form adds to the deviation,
    # at step t plus at step t + 6, is twice the subscriber's level (up to the rounding to 0.001)
    for s in full[:50]:
        added = [s.raw[t] - s.reading[t] for t in range(STEPS)]
        levels = [(added[t] + added[t + STEPS // 2]) / 2 for t in range(STEPS // 2)]
        assert max(levels) - min(levels) < 2e-3
        assert 21.0 - 9.0 <= levels[0] <= 21.0 + 9.0


# --- event codes and their tasks -------------------------------------------------------------------

def test_codes_and_their_labels(full):
    assert all(0 <= c < CODES for s in full for c in s.codes)
    assert len({c for s in full for c in s.codes}) == CODES
    for s in full:
        assert s.code_labels["suspect"] == (sum(c in SUSPECT.codes for c in s.codes) >= 5)
        assert s.code_labels["maintenance"] == (sum(c in MAINTENANCE.codes for c in s.codes) >= 6)
        # the suspect codes are maintenance codes, so a sequence never has more suspect ones
        assert MAINTENANCE.count(s.codes) >= SUSPECT.count(s.codes)


def test_the_two_tasks():
    assert len(SUSPECT.codes) == 8 and len(MAINTENANCE.codes) == 10
    assert set(SUSPECT.codes) < set(MAINTENANCE.codes)
    assert max(SUSPECT.codes) - min(SUSPECT.codes) + 1 > 2 * len(SUSPECT.codes)  # scattered, not one block
    task = CodeTask("odd", (1, 3), 2)
    assert task.count([1, 1, 2, 5]) == 2 and task.label([1, 1, 2, 5]) == 1 and task.label([1, 2]) == 0


# --- split and baseline ----------------------------------------------------------------------------

def test_split_in_drawing_order(full):
    split = split_sequences(full)
    assert (len(split.train), len(split.validation), len(split.test)) == SPLIT_SIZES == (360, 180, 180)
    assert split.train + split.validation + split.test == full


def test_rates_and_baseline(full):
    labels = [s.label for s in split_sequences(full).test]
    # the source's lesson 15: 180 held-out sequences, baseline 0.6333 (the rarer class 0.3667)
    assert len(labels) == 180
    assert (f"{majority_baseline(labels):.4f}", f"{positive_rate(labels):.4f}") == ("0.6333", "0.3667")
    assert majority_baseline([1, 1, 0]) == pytest.approx(2 / 3)
    assert majority_baseline([0, 0, 0, 1]) == 0.75


# --- distances between a group's rows in a table ---------------------------------------------------

def test_group_distances_counts_pairs_and_sees_a_separated_group():
    separated = [[5.0, float(c % 2) * 0.1] if c in SUSPECT.codes else [0.0, float(c % 3) * 0.1]
                 for c in range(CODES)]
    d = group_distances(separated, SUSPECT.codes)
    assert (len(d.within_group), len(d.within_others), len(d.between)) == (8 * 7, 16 * 15, 8 * 16)
    assert d.ratio() > 10
    line = [[float(c)] for c in range(CODES)]
    assert group_distances(line, range(0, CODES, 2)).ratio() == pytest.approx(1.0, abs=0.1)


# --- every public function rejects a bad argument, naming it ---------------------------------------

@pytest.mark.parametrize("call, name", [
    (lambda: step_sequences(-1), "seed"),
    (lambda: step_sequences(SEED, 0), "count"),
    (lambda: step_sequences(SEED, 5, code_tasks=["suspect"]), r"code_tasks\[0\]"),
    (lambda: step_sequences(SEED, 5, code_tasks=[SUSPECT, SUSPECT]), "code_tasks"),
    (lambda: step_sequences(SEED, 5, raw="yes"), "raw"),
    (lambda: split_sequences(step_sequences(SEED, 100)), "sequences"),
    (lambda: positive_rate([]), "labels"),
    (lambda: majority_baseline([]), "labels"),
    (lambda: CodeTask("", (1,), 1), "name"),
    (lambda: CodeTask("t", (1, CODES), 1), r"codes\[1\]"),
    (lambda: CodeTask("t", (), 1), "codes"),
    (lambda: CodeTask("t", (1,), 0), "minimum"),
    (lambda: CodeTask("t", (1,), STEPS + 1), "minimum"),
    (lambda: group_distances([[0.0]] * 5, SUSPECT.codes), "table"),
    (lambda: group_distances([[0.0]] * CODES, [3]), "codes"),
    (lambda: group_distances([[0.0]] * CODES, [3, CODES]), "codes"),
])
def test_bad_arguments_name_themselves(call, name):
    with pytest.raises(ValueError, match="^" + name):
        call()
