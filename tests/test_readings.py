"""Unit tests of coursekit.readings: the reading sequences of lessons 13-14, split and baselines."""

import math

import pytest

from coursekit import SEED
from coursekit.generator import make_generator
from coursekit.readings import (
    LENGTH,
    SCALE,
    SEQUENCE_COUNT,
    SPLIT_SIZES,
    accuracy,
    baseline_at,
    baseline_hits,
    example_index,
    first_periods,
    has_marker,
    load_readings,
    marker_pair,
    plain_forward,
    plain_network,
    plain_parameters,
    reading_sequence,
    reading_sequences,
    require_measured_length,
    shown_sequences,
    split_sequences,
    state_difference,
    step_differences,
    tanh_nudged,
    train_plain,
)


@pytest.fixture(scope="module")
def sequences():
    return reading_sequences(SEED)


@pytest.fixture(scope="module")
def split(sequences):
    return split_sequences(sequences, SEED)


# --- the sequences ---------------------------------------------------------------------------------

def test_sequences_have_twelve_readings_with_two_decimals(sequences):
    assert len(sequences) == SEQUENCE_COUNT
    for readings in sequences:
        assert len(readings) == LENGTH
        assert all(v >= 0.0 and round(v, 2) == v for v in readings)


def test_the_marker_is_the_only_zero_and_sits_first(sequences):
    assert all(v > 0.0 for readings in sequences for v in readings[1:])
    rate = sum(1 for readings in sequences if has_marker(readings)) / len(sequences)
    assert 0.44 < rate < 0.56  # half of the meters were replaced


def test_draw_order_level_then_periods_then_marker():
    draw = make_generator(SEED + 400000 + 3)
    typical = 23.0 + 8.0 * draw()
    factors = [math.exp((draw() + draw() + draw() - 1.5) * 0.62) for _ in range(LENGTH)]
    replaced = draw() < 0.5
    readings = reading_sequence(SEED, 3)
    assert readings[1:] == [math.floor(typical * f * 100 + 0.5) / 100 for f in factors[1:]]
    assert has_marker(readings) == replaced
    if not replaced:
        assert readings[0] == math.floor(typical * factors[0] * 100 + 0.5) / 100


def test_sequences_are_a_pure_function_of_the_seed(sequences):
    assert reading_sequences(SEED, count=10) == sequences[:10]
    assert reading_sequences(7, count=10) != sequences[:10]
    # a shorter sequence draws the same periods; only the marker draw comes earlier in the stream
    assert reading_sequence(SEED, 5, length=4)[1:] == sequences[5][1:4]


# --- the network's view and the label ---------------------------------------------------------------

def test_first_periods_scales_flags_and_labels():
    readings = [0.0, 30.0, 20.0, 26.0]
    steps, label = first_periods(readings, 4)
    assert steps == [[0.0, 1.0], [30.0 / SCALE, 0.0], [20.0 / SCALE, 0.0], [26.0 / SCALE, 0.0]]
    assert label == 1  # marker and 26 > tier
    assert first_periods(readings, 3)[1] == 0  # the third period, 20, is below the tier
    assert first_periods([31.0, 30.0], 2)[1] == 0  # no marker, no label
    # the label turns on just above the tier, and not at it
    assert first_periods([0.0, 25.0], 2)[1] == 0 and first_periods([0.0, 25.001], 2)[1] == 1


def test_marker_pair_differs_only_in_step_one(sequences):
    readings = sequences[0]
    before = list(readings)
    marked, unmarked = marker_pair(readings, 6)
    assert readings == before, "the pair must not change the readings it copies"
    steps, _ = first_periods(readings, 6)
    assert marked[0] == [0.0, 1.0] and unmarked[0] == [readings[1] / SCALE, 0.0]
    assert marked[1:] == steps[1:] == unmarked[1:]


# --- the split and the baselines --------------------------------------------------------------------

def test_split_sizes_and_partition(sequences, split):
    assert (len(split.train), len(split.validation)) == SPLIT_SIZES
    assert len(split.test) == SEQUENCE_COUNT - sum(SPLIT_SIZES) == 200
    assert split.shuffled == split.train + split.validation + split.test
    assert sorted(map(id, split.shuffled)) == sorted(map(id, sequences))


def test_the_test_set_is_every_sequence_after_training_and_validation():
    """As the source slices it (SEQS[300:]): fewer sequences leave a smaller test set, never a gap."""
    split = load_readings(SEED, count=330)
    assert len(split.test) == 30
    assert split.test == split.shuffled[300:]


def test_baseline_is_per_length_and_from_the_test_set(split):
    for length in (2, 8, 12):
        labels = [first_periods(r, length)[1] for r in split.test]
        positives = sum(labels)
        assert split.baseline(length) == max(positives, len(labels) - positives) / len(labels)
    assert split.baseline(2) == baseline_at(split.test, 2)


@pytest.mark.parametrize("made", [lambda split: split, lambda split: load_readings(SEED)],
                         ids=["split_sequences", "load_readings"])
def test_course_seed_gives_the_sources_facts(split, made):
    """The source printed these for seed 20260218: marker rate 0.514; 56 positives of 200 at length 2;
    the lessons' one-call loader gives them too."""
    split = made(split)
    assert sum(1 for r in split.shuffled if has_marker(r)) == 257
    assert sum(first_periods(r, 2)[1] for r in split.test) == 56
    assert split.baseline(2) == 144 / 200


# --- the plain recurrent network --------------------------------------------------------------------

def test_plain_network_draws_inputs_then_recurrent_then_head():
    net = plain_network(SEED + 11, hidden=3)
    draw = make_generator(SEED + 11)
    inputs = [[(draw() * 2 - 1) * 0.5 ** 0.5 for _ in range(2)] for _ in range(3)]
    recurrent = [[(draw() * 2 - 1) * (1 / 3) ** 0.5 for _ in range(3)] for _ in range(3)]
    head = [(draw() * 2 - 1) * (1 / 3) ** 0.5 for _ in range(3)]
    assert (net["input"], net["recurrent"], net["head"]) == (inputs, recurrent, head)
    assert net["bias"] == [0.0] * 3 and net["head_bias"] == [0.0]
    counted = sum(len(row) for row in net["input"] + net["recurrent"]) + len(net["bias"]) + len(net["head"]) + 1
    assert plain_parameters(3) == counted
    assert plain_parameters(6) == 61 and plain_parameters(9) == 118  # the source's budget table


def test_plain_forward_is_the_tanh_recurrence_read_at_the_last_state():
    net = {"input": [[0.5, -1.0]], "recurrent": [[0.25]], "bias": [0.1], "head": [2.0], "head_bias": [-0.5]}
    probability, states = plain_forward(net, [[1.0, 0.0], [0.0, 1.0]])
    h1 = math.tanh(0.1 + 0.5)
    h2 = math.tanh(0.1 - 1.0 + 0.25 * h1)
    assert states == [[h1], [h2]]
    assert probability == 1 / (1 + math.exp(-(-0.5 + 2.0 * h2)))


def test_train_plain_reproduces_the_sources_first_run_at_length_two(split):
    """The source printed 0.9500 for length 2, run 1 (seed SEED + 11, orders from SEED + 511)."""
    train_set = [first_periods(r, 2) for r in split.train]
    test_set = [first_periods(r, 2) for r in split.test]
    net = train_plain(plain_network(SEED + 11), train_set, 30, 0.05, SEED + 511)
    hits = sum(1 for steps, label in test_set if (plain_forward(net, steps)[0] >= 0.5) == (label == 1))
    assert hits / len(test_set) == 0.95
    assert accuracy(net, plain_forward, test_set) == 0.95


# --- the measurements lessons 13 and 14 share ----------------------------------------------------------

def test_state_difference_is_the_mean_summed_unit_gap_at_step_t():
    marked = [[[1.0, 0.0], [0.5, -0.5]], [[0.0, 0.25], [0.0, 0.0]]]
    unmarked = [[[0.0, 0.0], [0.0, 0.0]], [[0.0, 0.0], [0.25, 0.0]]]
    assert state_difference(marked, unmarked, 1) == (1.0 + 0.25) / 2
    assert state_difference(marked, unmarked, 2) == (0.5 + 0.5 + 0.25) / 2
    assert step_differences(marked[0], unmarked[0]) == [1.0, 1.0]
    assert step_differences(marked[1], unmarked[1]) == [0.25, 0.25]


def test_state_difference_gives_the_sources_trace_table(split):
    """The source printed h diff k1 0.92844 at length 2 and 0.00913 at 12, and k2 0.00067 at 12."""
    def paths(seed):
        net = plain_network(seed)
        pairs = [marker_pair(r, LENGTH) for r in split.shuffled]
        return [[plain_forward(net, pair[copy])[1] for pair in pairs] for copy in (0, 1)]

    first, second = paths(SEED + 11), paths(SEED + 12)
    assert f"{state_difference(*first, 2):.5f}" == "0.92844"
    assert f"{state_difference(*first, 12):.5f}" == "0.00913"
    assert f"{state_difference(*second, 12):.5f}" == "0.00067"


def test_baseline_hits_score_the_most_frequent_label_row_by_row(split):
    # labels at length 2: marker and second reading over 25 m3 -> 1, 0, 0 (the majority says 0)
    assert baseline_hits([[0.0, 30.0], [0.0, 20.0], [5.0, 30.0]], 2) == [False, True, True]
    # a majority of ones: the baseline says 1
    assert baseline_hits([[0.0, 30.0], [0.0, 26.0], [5.0, 30.0]], 2) == [True, True, False]
    for length in (2, 10, 12):
        hits = baseline_hits(split.test, length)
        assert len(hits) == len(split.test) and sum(hits) / len(hits) == split.baseline(length)


def test_the_nudged_tangent_is_one_last_bit_up_and_can_move_a_chaotic_run(split):
    assert tanh_nudged(0.3) > math.tanh(0.3) and math.nextafter(tanh_nudged(0.3), 0.0) == math.tanh(0.3)
    net = plain_network(SEED + 11)
    steps = first_periods(split.test[0], 12)[0]
    assert plain_forward(net, steps, math.tanh) == plain_forward(net, steps)
    assert plain_forward(net, steps, tanh_nudged) != plain_forward(net, steps)
    # a stable run: the nudge moves every weight, yet the source's 0.9500 at length 2, run 1 stays
    train_set = [first_periods(r, 2) for r in split.train]
    test_set = [first_periods(r, 2) for r in split.test]
    runs = [train_plain(plain_network(SEED + 11), train_set, 30, 0.05, SEED + 511, tanh=tanh)
            for tanh in (math.tanh, tanh_nudged)]
    assert runs[0]["recurrent"] != runs[1]["recurrent"]
    assert [accuracy(net, plain_forward, test_set) for net in runs] == [0.95, 0.95]


def test_accuracy_counts_one_half_as_saying_one():
    probabilities = [(0.7, 1), (0.2, 0), (0.5, 0), (0.49, 1), (0.5, 1)]
    assert accuracy(None, lambda net, p: (p, []), probabilities) == 3 / 5


def test_example_index_is_the_sources_example(split):
    """The source printed: example sequence (m3): 0.00 26.80 37.98 ... 26.95 25.18."""
    example = split.shuffled[example_index(split.shuffled)]
    assert example[:3] == [0.0, 26.80, 37.98] and example[-2:] == [26.95, 25.18]
    assert example_index([[31.0] * LENGTH, [0.0] + [20.0] * 11, [0.0] + [26.0] * 11]) == 2


def test_shown_sequences_are_the_example_then_least_median_most():
    kept = [5.0, 1.0, 3.0, 9.0, 7.0]  # least: 1, median (3rd smallest): 0, most: 3
    assert shown_sequences(2, kept) == [2, 1, 0, 3]
    # the example is also the least kept: the lowest unused index fills the fourth frame
    assert shown_sequences(0, [0.1, 0.5, 0.9, 0.3, 0.7]) == [0, 1, 2, 3]


def test_measured_lengths_run_from_two_to_twelve():
    assert [require_measured_length("T", t) for t in (2, 12)] == [2, 12]
    for bad in (1, 13, 2.0, "2"):
        with pytest.raises(ValueError, match=r"^LENGTHS\[3\]"):
            require_measured_length("LENGTHS[3]", bad)


# --- argument checks -------------------------------------------------------------------------------

@pytest.mark.parametrize("call, name", [
    (lambda: reading_sequence("x", 0), "seed"),
    (lambda: reading_sequence(SEED, -1), "index"),
    (lambda: reading_sequence(SEED, 0, length=0), "length"),
    (lambda: reading_sequences(SEED, count=0), "count"),
    (lambda: split_sequences([], -3), "seed"),
    (lambda: split_sequences([[1.0]] * 10, SEED), "sequences"),
    (lambda: split_sequences([[1.0]] * 300, SEED), "sequences"),  # no test set left
    (lambda: split_sequences([], SEED, sizes=(200, 100, 200)), "sizes"),
    (lambda: split_sequences([], SEED, sizes=(0, 100)), "sizes"),
    (lambda: load_readings(SEED, count=0), "count"),
    (lambda: first_periods([0.0, 1.0], 3), "length"),
    (lambda: first_periods([0.0, 1.0], 0), "length"),
    (lambda: baseline_at([], 2), "sequences"),
    (lambda: baseline_hits([], 2), "sequences"),
    (lambda: marker_pair([0.0], 1), "readings"),
    (lambda: marker_pair([0.0, 3.0], 5), "length"),
    (lambda: plain_network(-1), "seed"),
    (lambda: plain_network(SEED, hidden=0), "hidden"),
    (lambda: plain_parameters(0), "hidden"),
    (lambda: plain_forward(plain_network(SEED), []), "steps"),
    (lambda: train_plain(plain_network(SEED), [], 1, 0.05, SEED), "data"),
    (lambda: train_plain(plain_network(SEED), [([[0.0, 1.0]], 1)], -1, 0.05, SEED), "epochs"),
    (lambda: train_plain(plain_network(SEED), [([[0.0, 1.0]], 1)], 1, 0.0, SEED), "rate"),
    (lambda: state_difference([], [], 1), "marked"),
    (lambda: state_difference([[[0.0]]], [], 1), "unmarked"),
    (lambda: state_difference([[[0.0]]], [[[1.0]]], 0), "length"),
    (lambda: state_difference([[[0.0]]], [[[1.0]]], 2), "length"),
    (lambda: step_differences([], []), "marked"),
    (lambda: accuracy(plain_network(SEED), plain_forward, []), "data"),
    (lambda: example_index([[31.0] * LENGTH]), "sequences"),
    (lambda: shown_sequences(0, []), "kept"),
    (lambda: shown_sequences(3, [1.0, 2.0]), "example"),
    (lambda: shown_sequences(-1, [1.0, 2.0]), "example"),
])
def test_bad_arguments_raise_a_value_error_naming_them(call, name):
    with pytest.raises(ValueError) as raised:
        call()
    assert str(raised.value).startswith(name)
