"""The embedding table and the small body that reads it: lesson 17 teaches them, lesson 18 imports them.

A sequence's event codes enter the body as a list of ``(column, value)`` pairs:

- with a table (an embedding, learned or frozen, or lesson 17's one-column table of code numbers), the
  mean of the rows the steps' codes read from it, every column (`table_mean`);
- without one (one-hot), each code's share of the steps, only for the codes present (`one_hot_mean`):
  the columns of the absent codes would add exact zeros, which change no sum.

The body is one hidden layer of rectified units and one output unit whose sign is the answer
(`score`, `accuracy`). `train` runs full-batch gradient descent on the cross-entropy loss, of the body
and, when asked, of the table; its draws and its operation order are lesson 17's, which are the source
course's: a unit's value is Python's ``sum()`` of the weighted inputs plus the bias, the examples'
gradients are added one by one in the order of the sequences, and every parameter moves by
``rate * gradient / n`` after the epoch. Kept that way, lessons 17 and 18 print the source's digits.
"""

from operator import mul

from .activations import sigmoid_clipped
from .checks import (
    require_bool,
    require_each,
    require_nonempty,
    require_positive_int,
    require_positive_number,
    require_seed,
)
from .generator import centred_sum, make_generator

BODY_SEED_OFFSET = 500
"""The body's initial values are drawn from the stream of ``seed + 500``, as in the source course."""


def drawn_table(seed: int, rows: int, columns: int) -> list[list[float]]:
    """A table of ``rows`` codes by ``columns``, each value ``(three draws - 1.5) * 1.1``, row by row."""
    require_seed("seed", seed)
    require_positive_int("rows", rows)
    require_positive_int("columns", columns)
    draw = make_generator(seed)
    return [[centred_sum(draw) * 1.1 for _ in range(columns)] for _ in range(rows)]


def one_hot_mean(codes) -> list[tuple[int, float]]:
    """The mean of the steps' one-hot vectors, kept sparse: (code, share of the steps) for each code
    present, in code order; every step adds ``1 / steps`` to its code's share."""
    codes = require_nonempty("codes", codes)
    share = {}
    for c in codes:
        share[c] = share.get(c, 0.0) + 1.0 / len(codes)
    return sorted(share.items())


def table_mean(table, codes) -> list[tuple[int, float]]:
    """The mean of the rows the steps' codes read from ``table``, as (column, value) for every column;
    every step adds ``row / steps`` to the mean."""
    codes = require_nonempty("codes", codes)
    mean = [0.0] * len(require_nonempty("table", table)[0])
    for c in codes:
        row = table[c]
        for j in range(len(mean)):
            mean[j] += row[j] / len(codes)
    return list(enumerate(mean))


def represent(table, codes) -> list[tuple[int, float]]:
    """What the body reads of a sequence: `one_hot_mean` when ``table`` is None, else `table_mean`."""
    return one_hot_mean(codes) if table is None else table_mean(table, codes)


def initial_body(seed: int, width: int, hidden: int) -> dict:
    """The body before training: hidden weights (``hidden`` rows of ``width``) and output weights drawn
    as ``(three draws - 1.5) * 0.9`` from the stream of ``seed + 500``, in that order; zero biases."""
    require_seed("seed", seed)
    require_positive_int("width", width)
    require_positive_int("hidden", hidden)
    draw = make_generator(seed + BODY_SEED_OFFSET)
    W1 = [[centred_sum(draw) * 0.9 for _ in range(width)] for _ in range(hidden)]
    return {"W1": W1, "b1": [0.0] * hidden, "w": [centred_sum(draw) * 0.9 for _ in range(hidden)], "b": 0.0}


def score(net: dict, inputs) -> float:
    """The output unit's value: its bias plus its weights times the rectified hidden units; the network
    answers 1 where it is above zero."""
    z = [sum([row[j] * v for j, v in inputs]) + b for row, b in zip(net["W1"], net["b1"])]
    return sum(w * max(0.0, zi) for w, zi in zip(net["w"], z)) + net["b"]


def hits(net: dict, sequences, task) -> list[bool]:
    """For every sequence, whether the network answers its label for ``task`` (a
    `coursekit.steps.CodeTask`) right, reading it through the network's own table (None: one-hot)."""
    sequences = require_nonempty("sequences", sequences)
    return [(score(net, represent(net["table"], s.codes)) > 0) == (s.code_labels[task.name] == 1)
            for s in sequences]


def accuracy(net: dict, sequences, task) -> float:
    """The share of ``sequences`` whose label for ``task`` the network answers right (`hits`)."""
    return sum(hits(net, sequences, task)) / len(sequences)


def _gradients(net: dict, data, width: int, learn_table: bool):
    """The summed gradients of the loss over ``data`` ((inputs, codes, label) per sequence): of the
    hidden weights and biases, the output weights and bias, and (``learn_table``) of the table's rows."""
    W1, b1, w, b = net["W1"], net["b1"], net["w"], net["b"]
    hidden = len(W1)
    gW1 = [[0.0] * width for _ in range(hidden)]
    gb1, gw, gb = [0.0] * hidden, [0.0] * hidden, 0.0
    g_table = [[0.0] * width for _ in net["table"]] if learn_table else None
    W1_columns = [[row[j] for row in W1] for j in range(width)] if learn_table else None
    for inputs, codes, label in data:
        z = [sum([row[j] * v for j, v in inputs]) + bi for row, bi in zip(W1, b1)]
        active = [i for i in range(hidden) if z[i] > 0]
        o = sum(w[i] * z[i] for i in active) + b
        d = sigmoid_clipped(o) - label
        gb += d
        d_hidden = [d * w[i] if z[i] > 0 else 0.0 for i in range(hidden)]
        for i in active:  # a unit that is off passes exact zeros, which change no sum: skipped
            gw[i] += d * z[i]
            gb1[i] += d_hidden[i]
            g_row, d_i = gW1[i], d_hidden[i]
            for j, v in inputs:
                g_row[j] += d_i * v
        if learn_table:  # each step read its code's row and gave 1/steps of it to the mean
            d_mean = [sum(map(mul, d_hidden, column)) for column in W1_columns]
            for c in codes:
                g_code = g_table[c]
                g_code[:] = [g + dm / len(codes) for g, dm in zip(g_code, d_mean)]
    return gW1, gb1, gw, gb, g_table


def _descend(net: dict, gradients, rate: float, n: int) -> None:
    """Move every parameter by ``rate * gradient / n``, the table's rows too when it has gradients."""
    gW1, gb1, gw, gb, g_table = gradients
    W1, b1, w = net["W1"], net["b1"], net["w"]
    for i in range(len(W1)):
        w[i] -= rate * gw[i] / n
        b1[i] -= rate * gb1[i] / n
        W1[i][:] = [v - rate * g / n for v, g in zip(W1[i], gW1[i])]
    net["b"] -= rate * gb / n
    if g_table is not None:
        for row, g_row in zip(net["table"], g_table):
            row[:] = [v - rate * g / n for v, g in zip(row, g_row)]


def _snapshot(net: dict, learn_table: bool) -> dict:
    """A copy of the network as it stands; a table that does not learn is shared, not copied."""
    table = net["table"]
    return {"table": [row[:] for row in table] if learn_table else table,
            "W1": [row[:] for row in net["W1"]], "b1": net["b1"][:], "w": net["w"][:], "b": net["b"]}


def train(seed: int, table, sequences, task, *, width: int, hidden: int, rate: float, stops,
          learn_table: bool) -> dict[int, dict]:
    """Full-batch gradient descent on ``sequences``' labels for ``task``, up to the last of ``stops``.

    ``table`` is None for one-hot (``width`` = the number of codes), else a table of ``width`` columns,
    updated in place when ``learn_table``. The body starts from `initial_body` (``seed``). Returns the
    network after each stop, by epoch: ``{"table", "W1", "b1", "w", "b"}``, a copy of the table when it
    learns. A table that does not learn is read once, since every sequence's mean stays the same.
    """
    require_positive_int("width", width)
    if table is not None and any(len(row) != width for row in require_nonempty("table", table)):
        raise ValueError(f"table must have {width} columns (width) in every row")
    if learn_table and table is None:
        raise ValueError("learn_table needs a table: one-hot (table None) has none to learn")
    require_positive_number("rate", rate)
    stops = require_each("stops", stops, require_positive_int)
    require_bool("learn_table", learn_table)
    sequences = require_nonempty("sequences", sequences)
    net = {"table": table, **initial_body(seed, width, hidden)}
    data = [(represent(table, s.codes), s.codes, s.code_labels[task.name]) for s in sequences]
    nets = {}
    for epoch in range(1, max(stops) + 1):
        _descend(net, _gradients(net, data, width, learn_table), rate, len(data))
        if learn_table:  # the sequences are read again through the updated table
            data = [(represent(table, codes), codes, label) for _inputs, codes, label in data]
        if epoch in stops:
            nets[epoch] = _snapshot(net, learn_table)
    return nets
