"""Unit tests of coursekit: the generator, the subscriber table, the networks and every argument check."""

import math

import pytest

from coursekit import SEED, minibatch, network
from coursekit.activations import ACTIVATIONS, activation, sigmoid
from coursekit.checks import require_positive_int, require_seed
from coursekit.generator import centred_sum, make_generator, permutation, pick, signed_uniform
from coursekit.initialization import gain_scaled_layers, parameter_count
from coursekit.losses import loss
from coursekit.references import decision_tree, linear_model
from coursekit.subscribers import (
    FIELDS,
    Scaler,
    baseline_accuracy,
    load_subscribers,
    not_suspicious_share,
    split_rows,
    subscriber_table,
)
from coursekit.tables import Table, band, band_text, in_subscribers


@pytest.fixture(scope="module")
def table():
    return subscriber_table(SEED)


@pytest.fixture(scope="module")
def sets():
    return load_subscribers(SEED)


# --- the generator ---------------------------------------------------------------------------------

def test_generator_first_values_for_the_course_seed():
    draw = make_generator(SEED)
    assert [round(draw(), 12) for _ in range(3)] == [0.969538690057, 0.624134521233, 0.75002319552]


def test_generator_is_a_pure_function_of_its_seed():
    a, b, c = make_generator(7), make_generator(7), make_generator(8)
    first = [a() for _ in range(5)]
    assert first == [b() for _ in range(5)]
    assert first != [c() for _ in range(5)]
    assert all(0.0 <= v < 1.0 for v in first)


def test_pick_walks_the_cumulative_weights():
    assert pick(0.0, [0.5, 0.5]) == 0
    assert pick(0.49, [0.5, 0.5]) == 0
    assert pick(0.5, [0.5, 0.5]) == 1
    assert pick(0.99, [0.2, 0.2]) == 1  # beyond the total: the last index


def test_permutation_is_a_shuffled_order():
    order = permutation(50, SEED)
    assert sorted(order) == list(range(50)) and order != list(range(50))


def test_the_named_draws_take_the_stream_in_order_with_the_expected_spread():
    stream, draw = make_generator(SEED), make_generator(SEED)
    a, b, c, d = stream(), stream(), stream(), stream()
    assert centred_sum(draw) == a + b + c - 1.5 and signed_uniform(draw) == d * 2 - 1
    values = [centred_sum(draw) for _ in range(20000)]
    mean = sum(values) / len(values)
    variance = sum((v - mean) ** 2 for v in values) / len(values)
    assert abs(mean) < 0.01 and abs(variance - 0.25) < 0.01 and -1.5 < min(values) < max(values) < 1.5
    signed = [signed_uniform(draw) for _ in range(20000)]
    assert -1 <= min(signed) < -0.99 and 0.99 < max(signed) < 1 and abs(sum(signed) / len(signed)) < 0.02


# --- the subscriber table --------------------------------------------------------------------------

def test_table_size_and_columns(table):
    assert len(table) == 1260
    assert set(FIELDS) | {"suspicious"} == set(table[0])
    assert len(FIELDS) == 12


def test_split_sizes_and_rates(table, sets):
    split = split_rows(table, SEED)
    assert (len(split.train), len(split.validation), len(split.test)) == (756, 252, 252)
    shorter = split_rows(table[:1100], SEED)  # another seed keeps another number of rows: the test set
    assert (len(shorter.train), len(shorter.validation), len(shorter.test)) == (756, 252, 92)  # is the rest
    assert len(sets.train[0]) == 300 and len(sets.full_train[0]) == 756
    def rate(labels):
        return sum(labels) / len(labels)

    assert round(rate(sets.full_train[1]), 4) == 0.2222
    assert round(rate(sets.train[1]), 4) == 0.2200
    assert round(rate(sets.test[1]), 4) == 0.2421


def test_baseline_is_the_most_frequent_class(sets):
    assert round(sets.baseline, 4) == 0.7579
    assert sets.baseline == 191 / 252
    assert baseline_accuracy([1.0, 1.0, 0.0]) == pytest.approx(2 / 3)
    # the subscriber baseline counts the not-suspicious labels, as the course does
    assert not_suspicious_share([1.0, 1.0, 0.0]) == pytest.approx(1 / 3)


def test_another_seed_gives_another_test_set_and_comparison_lines():
    other = load_subscribers(7)
    size = len(other.test[1])
    assert len(other.full_train[1]) == 756 and len(other.validation[1]) == 252
    assert size != 252 and f"{linear_model(size):.4f}" != "0.8016"
    # the source's comparison lines on the course seed's 252 test subscribers
    course_size = len(load_subscribers(SEED).test[1])
    assert (f"{linear_model(course_size):.4f}", f"{decision_tree(course_size):.4f}") == ("0.8016", "0.7857")


def test_scaling_is_learned_on_the_training_rows(sets):
    X = sets.full_train[0]
    for column in range(len(FIELDS)):
        values = [row[column] for row in X]
        assert abs(sum(values) / len(values)) < 1e-9
    reduced = load_subscribers(SEED, scale_on="reduced")
    assert reduced.train[0] != sets.train[0]  # lessons 6-9 scale on the 300 rows they train on
    assert abs(sum(row[0] for row in reduced.train[0]) / 300) < 1e-9


# --- initialization and networks --------------------------------------------------------------------

def test_gain_scaled_layers_shape_range_and_zero_biases():
    net = gain_scaled_layers(SEED + 1, [12, 8, 1])
    assert [len(w) for w, _ in net] == [8, 1] and len(net[0][0][0]) == 12
    assert all(abs(v) < math.sqrt(2.0 / 12) for row in net[0][0] for v in row)
    assert all(b == 0.0 for _, biases in net for b in biases)
    assert parameter_count([12, 8, 1]) == 113


def test_bias_column_layers_use_the_same_draws():
    plain, column = gain_scaled_layers(5, [3, 2], gain=6.0), minibatch.bias_column_layers(5, [3, 2])
    assert column[0] == [row + [0.0] for row in plain[0][0]]


def test_full_batch_training_lowers_the_loss(sets):
    X, Y = sets.train
    losses = []
    network.train(gain_scaled_layers(SEED + 1, [12, 8, 1]), X, Y, 0.3, 5,
                  on_epoch=lambda epoch, net, gw, gb, mean: losses.append(mean))
    assert len(losses) == 5 and losses[-1] < losses[0]


def test_activation_derivatives_match_finite_differences():
    for name, (function, derivative) in ACTIVATIONS.items():
        z = 0.7
        numeric = (function(z + 1e-6) - function(z - 1e-6)) / 2e-6
        assert derivative(function(z)) == pytest.approx(numeric, rel=1e-5), name
    assert sigmoid(-800) == 0.0 and sigmoid(800) == 1.0


# --- tables ---------------------------------------------------------------------------------------

def test_table_aligns_header_with_rows():
    table = Table(("run", ">6"), ("test", ">8.4f"))
    assert table.header() == "   run     test"
    assert table.row(1, 0.78571) == "     1   0.7857"
    assert band([0.77, 0.79, 0.78]) == (0.77, 0.79)
    assert band_text([0.7659, 0.7857]) == "0.7659-0.7857"
    assert in_subscribers(0.0198, 252) == 5


# --- every bad argument is refused with a message naming it ----------------------------------------

@pytest.mark.parametrize("call, name", [
    (lambda: make_generator("abc"), "seed"),
    (lambda: make_generator(1.5), "seed"),
    (lambda: make_generator(True), "seed"),
    (lambda: make_generator(-1), "seed"),
    (lambda: pick(1.5, [1.0]), "u"),
    (lambda: pick(0.5, []), "weights"),
    (lambda: permutation(-3, 1), "n"),
    (lambda: subscriber_table("abc"), "seed"),
    (lambda: load_subscribers(SEED, train_rows=0), "train_rows"),
    (lambda: load_subscribers(SEED, train_rows=800), "train_rows"),
    (lambda: load_subscribers(SEED, scale_on="test"), "scale_on"),
    (lambda: split_rows([], SEED), "rows"),
    (lambda: Scaler.fit([]), "rows"),
    (lambda: Scaler.fit([{"a": 1}], ["b"]), "field"),
    (lambda: gain_scaled_layers(1, [12]), "sizes"),
    (lambda: gain_scaled_layers(1, [12, 0, 1]), "sizes[1]"),
    (lambda: gain_scaled_layers(1, [12, 1], gain=0), "gain"),
    (lambda: parameter_count("12-8-1"), "sizes"),
    (lambda: activation("softplus"), "activation"),
    (lambda: loss("hinge"), "loss"),
    (lambda: network.train(gain_scaled_layers(1, [2, 1]), [[0.0, 1.0]], [1.0], 0.3, 0), "epochs"),
    (lambda: network.train(gain_scaled_layers(1, [2, 1]), [[0.0, 1.0]], [1.0], -0.3, 5), "rate"),
    (lambda: network.train(gain_scaled_layers(1, [2, 1]), [[0.0, 1.0]], [1.0, 0.0], 0.3, 5), "X and Y"),
    (lambda: network.accuracy(gain_scaled_layers(1, [2, 1]), [], []), "X"),
    (lambda: minibatch.epoch_order(-1, 10, SEED), "epoch"),
    (lambda: minibatch.batches([1, 2, 3], 0), "size"),
    (lambda: minibatch.batch_gradient(minibatch.bias_column_layers(1, [2, 1]), [], [], []), "rows"),
    (lambda: Table(("run", 6)), "columns"),
    (lambda: Table(("run", ">6")).row(1, 2), "values"),
    (lambda: in_subscribers(0.1, 0), "set_size"),
    (lambda: linear_model(0), "test_size"),
    (lambda: band([]), "values"),
    (lambda: require_positive_int("EPOCHS", 0), "EPOCHS"),
    (lambda: require_seed("SEED", "abc"), "SEED"),
])
def test_bad_arguments_raise_value_error_naming_them(call, name):
    with pytest.raises(ValueError) as raised:
        call()
    assert str(raised.value).startswith(name), f"message should start with {name!r}: {raised.value}"


def test_table_spanning_header_covers_groups_of_columns():
    table = Table(("setting", ">8"), ("", ">7.4f"), ("", ">7.4f"), ("dead", ">5"))
    assert table.header([("setting", 1), ("test 2 runs", 2), ("dead", 1)]) == " setting     test 2 runs  dead"
    assert len(table.header([("setting", 1), ("test 2 runs", 2), ("dead", 1)])) == len(table.row("a", 0.1, 0.2, 3))
    with pytest.raises(ValueError, match="^spans"):
        table.header([("setting", 1), ("test", 2)])


def test_listing_reads_like_prose():
    from coursekit.tables import listing

    assert listing([0.76984, 0.79761]) == "0.7698 and 0.7976"
    assert listing([1, 2, 3], "d") == "1, 2 and 3"
    assert listing([5], "d") == "5"
    with pytest.raises(ValueError, match="^values"):
        listing([])


def test_a_markdown_table_lines_up_its_cells_and_refuses_a_ragged_row():
    from coursekit.tables import markdown_table, show_table

    text = markdown_table(["$b$", "measured"], [[10, "0.11736"], [300, "0.00000"]])
    assert text.splitlines() == ["| $b$ | measured |", "|---:|---:|", "| 10 | 0.11736 |",
                                 "| 300 | 0.00000 |"]
    with pytest.raises(ValueError, match=r"^rows\[1\] must have one cell per column \(2\), got 1"):
        markdown_table(["a", "b"], [[1, 2], [3]])
    with pytest.raises(ValueError, match="^header"):
        markdown_table([], [[1]])
    assert show_table(["a"], [[1]]) is None  # outside IPython: nothing shown, nothing raised


def test_the_linear_model_retrained_on_a_seed_is_the_earlier_courses_on_the_course_seed():
    from coursekit.references import LINEAR_MODEL_HITS, linear_model_hits

    hits = linear_model_hits(SEED)
    assert len(hits) == 252 and sum(hits) == LINEAR_MODEL_HITS   # the Supervised Learning course's 202
    assert len(linear_model_hits(7)) == 258   # another seed: its own test rows, one hit each
    with pytest.raises(ValueError, match="seed"):
        linear_model_hits(-1)
