"""Unit tests of unit 3's view of the subscriber table (lessons 20-24): eight columns, 300 training rows,
only the continuous columns scaled, by plain sums; and of its network, `coursekit.practice`."""

import math

import pytest

from coursekit import SEED, practice
from coursekit.generator import make_generator, permutation
from coursekit.subscribers import (
    FIELDS,
    PRACTICE_FIELDS,
    PRACTICE_SCALED,
    features_and_labels,
    load_practice_subscribers,
    not_suspicious_share,
    practice_scaler,
    split_rows,
    subscriber_table,
)


@pytest.fixture(scope="module")
def split():
    return split_rows(subscriber_table(SEED), SEED)


@pytest.fixture(scope="module")
def sets():
    return load_practice_subscribers(SEED)


def test_eight_of_the_twelve_columns_indicators_first():
    assert len(PRACTICE_FIELDS) == 8 and set(PRACTICE_FIELDS) <= set(FIELDS)
    assert all(name.startswith("area_") for name in PRACTICE_FIELDS[:4]) and "area_north" not in PRACTICE_FIELDS
    # the source's lesson 21 scales its columns 4 to 7: household, satisfaction, period, mean
    assert PRACTICE_SCALED == ("household", "satisfaction", "period", "mean_consumption")


def test_sizes_and_baseline(sets):
    assert [len(sets.train[0]), len(sets.validation[0]), len(sets.test[0]), len(sets.full_train[0])] == \
        [300, 252, 252, 756]
    assert all(len(x) == 8 for x in sets.train[0] + sets.test[0])
    assert sets.fields == PRACTICE_FIELDS
    assert sets.baseline == not_suspicious_share(sets.test[1]) == 191 / 252
    assert sum(sets.train[1]) == 66  # suspicious share 0.2200 in the reduced training set


def test_indicators_stay_zero_or_one_and_one_hot(sets, split):
    for x, row in zip(sets.test[0], split.test):
        assert all(v in (0.0, 1.0) for v in x[:4])
        assert sum(x[:4]) == (0 if row["area_north"] else 1)


def test_continuous_columns_are_standardised_on_the_reduced_training_rows(sets):
    rows = sets.train[0]
    for j in range(4, 8):
        column = [x[j] for x in rows]
        assert abs(sum(column) / len(column)) < 1e-12
        assert abs(math.sqrt(sum(v * v for v in column) / len(column)) - 1.0) < 1e-12
    test_means = [sum(x[j] for x in sets.test[0]) / len(sets.test[0]) for j in range(4, 8)]
    assert any(abs(m) > 1e-3 for m in test_means)  # the test set is scaled with the training statistics


def test_scaler_uses_plain_sums_over_the_given_rows(split):
    rows = split.train[:300]
    scaler = practice_scaler(rows)
    periods = [float(row["period"]) for row in rows]
    mean = sum(periods) / len(periods)
    assert scaler.mean["period"] == mean
    assert scaler.spread["period"] == math.sqrt(sum((v - mean) ** 2 for v in periods) / len(periods))
    assert scaler.mean["area_east"] == 0.0 and scaler.spread["area_east"] == 1.0
    wider = practice_scaler(rows + split.test)  # the leaky variant of lesson 23 learns from more rows
    assert wider.mean["mean_consumption"] != scaler.mean["mean_consumption"]


def test_the_view_is_the_split_and_scaler_composed(sets, split):
    reduced = split.train[:300]
    assert features_and_labels(split.test, practice_scaler(reduced)) == sets.test


def test_deterministic_from_the_seed_and_another_seed_differs(sets):
    again = load_practice_subscribers(SEED)
    assert again.train == sets.train and again.baseline == sets.baseline
    other = load_practice_subscribers(7, train_rows=100)
    assert len(other.train[0]) == 100 and other.train != sets.train


@pytest.mark.parametrize("call, name", [
    (lambda: load_practice_subscribers("x"), "seed"),
    (lambda: load_practice_subscribers(SEED, train_rows=0), "train_rows"),
    (lambda: load_practice_subscribers(SEED, train_rows=757), "train_rows"),
    (lambda: practice_scaler([]), "rows"),
    (lambda: practice_scaler([{name: 1 for name in PRACTICE_FIELDS}] * 3), "rows"),
])
def test_bad_arguments_raise_value_error_naming_them(call, name):
    with pytest.raises(ValueError, match=f"^{name}"):
        call()


# --- coursekit.practice: the network of lessons 21-24 -------------------------------------------


def source_init_weights(seed: int, inputs: int, hidden: int) -> list[float]:
    """The source's lesson 21 `init_weights`, written from its code: hidden weights row by row, hidden
    biases, output weights, output bias, the weights from one stream in that order."""
    r = make_generator(seed)
    return ([(r() * 2 - 1) * math.sqrt(2.0 / inputs) for _ in range(hidden * inputs)] + [0.0] * hidden
            + [(r() * 2 - 1) * math.sqrt(2.0 / hidden) for _ in range(hidden)] + [0.0])


def test_initial_parameters_are_the_sources_layout_and_draws():
    p = practice.initial_parameters(SEED + 1, 8, 5)
    assert len(p) == 5 * (8 + 2) + 1
    assert p == source_init_weights(SEED + 1, 8, 5)
    assert p[40:45] == [0.0] * 5 and p[-1] == 0.0  # biases start at zero
    assert all(abs(w) <= math.sqrt(2 / 8) for w in p[:40])
    assert practice.initial_parameters(SEED + 2, 8, 5) != p


def test_unpack_reads_the_layout_and_the_unit_count_from_the_length():
    p = list(range(4 * (3 + 2) + 1))  # 4 hidden units, 3 inputs: positions name the parts
    rows, biases, out_weights, out_bias = practice.unpack(p, 3)
    assert rows == [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9, 10, 11]]
    assert biases == [12, 13, 14, 15] and out_weights == [16, 17, 18, 19] and out_bias == 20


def test_hidden_layer_is_bias_plus_weighted_sum_rectified():
    assert practice.hidden_layer([[1.0, 2.0], [1.0, -2.0]], [0.5, 0.5], [1.0, 1.0]) == [3.5, 0.0]


def mean_loss(p, X, Y, batch):
    rows, biases, out_weights, out_bias = practice.unpack(p, len(X[0]))
    total = 0.0
    for k in batch:
        s = out_bias + sum(w * h for w, h in zip(out_weights, practice.hidden_layer(rows, biases, X[k])))
        total += max(0.0, s) + math.log(1.0 + math.exp(-abs(s))) - s * Y[k]
    return total / len(batch)


def test_gradient_matches_the_numerical_derivative_of_the_loss(sets):
    X, Y = sets.train
    p, batch = practice.initial_parameters(SEED + 1, 8, 8), list(range(30))
    g = practice.gradient(p, X, Y, batch)
    assert len(g) == len(p) and any(v != 0.0 for v in g)
    step = 1e-6
    for i in range(0, len(p), 7):
        up, down = list(p), list(p)
        up[i] += step
        down[i] -= step
        numerical = (mean_loss(up, X, Y, batch) - mean_loss(down, X, Y, batch)) / (2 * step)
        assert abs(numerical - g[i]) < 1e-6, i


def test_a_network_with_zero_parameters_calls_every_row_suspicious(sets):
    X, Y = sets.test
    p = [0.0] * (8 * (8 + 2) + 1)
    assert practice.right_answers(p, X, Y) == [y == 1 for y in Y]
    assert practice.accuracy(p, X, Y) == sum(Y) / len(Y)


def test_training_with_the_package_reproduces_the_course_network_number(sets):
    """Lesson 20's first run (400 updates of 30 rows, rate 0.30, a new order every epoch) gave 0.8095
    on the course's test set: 204 of the 252 subscribers."""
    (X, Y), (X_test, Y_test) = sets.train, sets.test
    p = practice.initial_parameters(SEED + 1, 8, 8)
    for epoch in range(40):
        order = permutation(len(X), SEED + 700 + epoch)
        for start in range(0, len(X), 30):
            p = [w - 0.30 * v for w, v in zip(p, practice.gradient(p, X, Y, order[start:start + 30]))]
    assert sum(practice.right_answers(p, X_test, Y_test)) == 204


@pytest.mark.parametrize("call, name", [
    (lambda: practice.initial_parameters("x", 8, 8), "seed"),
    (lambda: practice.initial_parameters(SEED, 0, 8), "inputs"),
    (lambda: practice.initial_parameters(SEED, 8, 0), "hidden"),
    (lambda: practice.unpack([0.0] * 80, 8), "p"),
    (lambda: practice.unpack([0.0] * 81, 0), "inputs"),
    (lambda: practice.hidden_layer([[1.0]], [0.0, 0.0], [1.0]), "rows"),
    (lambda: practice.gradient([0.0] * 81, [[0.0] * 8], [1], []), "batch"),
    (lambda: practice.gradient([0.0] * 81, [], [], [0]), "X"),
    (lambda: practice.accuracy([0.0] * 81, [[0.0] * 8], [1, 0]), "Y"),
])
def test_practice_bad_arguments_raise_value_error_naming_them(call, name):
    with pytest.raises(ValueError, match=f"^{name}"):
        call()
