"""Unit tests of coursekit.embeddings, the embedding model of lessons 17 and 18: small cases worked out by
hand, the gradient against finite differences of a loss written out independently, and the held-out
accuracies the source course prints in lesson 17's table."""

import math

import pytest

from coursekit import SEED
from coursekit.embeddings import (
    accuracy,
    drawn_table,
    initial_body,
    one_hot_mean,
    represent,
    score,
    table_mean,
    train,
)
from coursekit.steps import CODES, SUSPECT, split_sequences, step_sequences


@pytest.fixture(scope="module")
def split():
    return split_sequences(step_sequences(SEED, code_tasks=[SUSPECT]))


# --- what the body reads ---------------------------------------------------------------------------


def test_table_mean_is_the_mean_of_the_rows_read():
    table = [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]
    # rows 0, 2, 2, 1: (1 + 5 + 5 + 3) / 4 and (2 + 6 + 6 + 4) / 4
    assert table_mean(table, [0, 2, 2, 1]) == [(0, 3.5), (1, 4.5)]


def test_one_hot_mean_holds_the_shares_of_the_codes_present():
    assert one_hot_mean([0, 2, 2, 1]) == [(0, 0.25), (1, 0.25), (2, 0.5)]
    assert represent(None, [7, 7]) == [(7, 1.0)]


def test_score_of_a_small_network_by_hand():
    net = {"W1": [[1.0, -1.0], [0.5, 0.5]], "b1": [0.0, -1.0], "w": [2.0, 3.0], "b": 0.5}
    # z = (3 - 4, 1.5 + 2 - 1) = (-1, 2.5); the first unit is off: 0.5 + 3 * 2.5
    assert score(net, [(0, 3.0), (1, 4.0)]) == 8.0
    # a sparse input reads only its columns: z = (-4, 2 - 1) = (-4, 1), so 0.5 + 3 * 1
    assert score(net, [(1, 4.0)]) == 3.5


def test_drawn_table_and_body_are_bell_shaped_draws_of_the_right_size():
    table = drawn_table(SEED, CODES, 3)
    assert len(table) == CODES and all(len(row) == 3 for row in table)
    assert all(abs(v) <= 1.5 * 1.1 for row in table for v in row)
    body = initial_body(SEED, 3, 6)
    assert [len(row) for row in body["W1"]] == [3] * 6 and body["b1"] == [0.0] * 6 and body["b"] == 0.0
    assert drawn_table(SEED, CODES, 3) == table, "the same seed draws the same table"


# --- training ------------------------------------------------------------------------------------------


def loss(table, W1, b1, w, b, sequences):
    """Mean cross-entropy of the network on ``sequences``, the forward pass written out densely."""
    total = 0.0
    for s in sequences:
        m = [sum(table[c][j] for c in s.codes) / len(s.codes) for j in range(len(table[0]))]
        a = [max(0.0, sum(wij * mj for wij, mj in zip(row, m)) + bj) for row, bj in zip(W1, b1)]
        p = 1 / (1 + math.exp(-(sum(wi * ai for wi, ai in zip(w, a)) + b)))
        y = s.code_labels[SUSPECT.name]
        total -= y * math.log(p) + (1 - y) * math.log(1 - p)
    return total / len(sequences)


def test_one_step_moves_every_parameter_down_its_finite_difference_gradient(split):
    sequences, rate, seed, eps = split.train[:12], 0.5, 11, 1e-6
    table = drawn_table(seed + 900, CODES, 3)
    start = {"table": [row[:] for row in table], **initial_body(seed, 3, 4)}
    after = train(seed, table, sequences, SUSPECT, width=3, hidden=4, rate=rate, stops=[1],
                  learn_table=True)[1]

    def numeric(name, *index):
        """Central difference of the loss in one parameter of ``start``."""
        values = []
        for sign in (1, -1):
            p = {k: [r[:] for r in v] if k in ("table", "W1") else (v[:] if isinstance(v, list) else v)
                 for k, v in start.items()}
            if not index:
                p[name] += sign * eps
            elif len(index) == 1:
                p[name][index[0]] += sign * eps
            else:
                p[name][index[0]][index[1]] += sign * eps
            values.append(loss(p["table"], p["W1"], p["b1"], p["w"], p["b"], sequences))
        return (values[0] - values[1]) / (2 * eps)

    def moved(name, *index):
        before, now = start[name], after[name]
        for i in index:
            before, now = before[i], now[i]
        return (before - now) / rate

    checked = [("b",), ("w", 0), ("w", 3), ("b1", 1), ("W1", 2, 0), ("W1", 0, 2)]
    checked += [("table", c, j) for c in (SUSPECT.codes[0], 0, CODES - 1) for j in range(3)]
    for name, *index in checked:
        assert moved(name, *index) == pytest.approx(numeric(name, *index), rel=1e-5, abs=1e-8), (name, index)


def test_lesson_17_held_out_accuracies_as_the_source_prints_them(split):
    """Lesson 17's table, run 1 (seed SEED + 1, table SEED + 901) on the first 200 training sequences:
    one-hot 0.7167 and 0.8000 after 150 and 300 epochs, the learned table 0.9722 and 1.0000, the
    frozen table 0.6944 and 0.6778, the code number 0.6444 at both."""
    printed = {"one-hot": ("0.7167", "0.8000"), "learned": ("0.9722", "1.0000"),
               "frozen": ("0.6944", "0.6778"), "numeric": ("0.6444", "0.6444")}
    tables = {"one-hot": (None, CODES), "numeric": ([[c / (CODES - 1)] for c in range(CODES)], 1)}
    for setup, expected in printed.items():
        table, width = tables.get(setup, (drawn_table(SEED + 901, CODES, 3), 3))
        nets = train(SEED + 1, table, split.train[:200], SUSPECT, width=width, hidden=6, rate=0.9,
                     stops=(150, 300), learn_table=setup == "learned")
        got = tuple(f"{accuracy(nets[t], split.test, SUSPECT):.4f}" for t in (150, 300))
        assert got == expected, setup


# --- bad arguments -------------------------------------------------------------------------------------


@pytest.mark.parametrize("arguments, name", [
    ({"table": None, "learn_table": True}, "learn_table"),
    ({"width": 4}, "table"),
    ({"stops": []}, "stops"),
    ({"stops": [5, 0]}, "stops[1]"),
    ({"rate": 0}, "rate"),
    ({"hidden": 0}, "hidden"),
    ({"seed": -1}, "seed"),
])
def test_train_refuses_bad_arguments_by_name(split, arguments, name):
    given = {"seed": 1, "table": drawn_table(1, CODES, 3), "width": 3, "hidden": 2, "rate": 0.5,
             "stops": [2], "learn_table": False, **arguments}
    seed, table = given.pop("seed"), given.pop("table")
    with pytest.raises(ValueError, match=rf"^{name.replace('[', '.').replace(']', '.')}"):
        train(seed, table, split.train[:5], SUSPECT, **given)


def test_drawn_table_refuses_a_bad_size():
    with pytest.raises(ValueError, match="^columns"):
        drawn_table(1, CODES, 0)
