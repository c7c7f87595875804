"""The mini-batch network of lessons 6-9.

From lesson 6 on, the course trains in mini-batches of 20 rows, visits the rows in a fixed order per
epoch (the same in every run, so that runs differ only in their initial values), and keeps each unit's
bias as the **last entry of its weight row**. The weighted sum ``sum(map(mul, row, a))`` (the products
``w * a`` in the order of ``zip``) stops at the shorter list, so the bias is left out of it and added
afterwards.

Unlike lessons 1-5, the probability is clipped to [1e-12, 1 - 1e-12] before the loss and the error
signal, the error is carried down with Python's ``sum()``, and each batch's gradient is averaged
before the step. What a lesson changes in the loop (the optimizer, clipping, dropout, normalization)
stays written in that lesson.
"""

import math
from collections.abc import Sequence
from operator import mul

from .activations import activation, sigmoid
from .checks import require_int, require_nonempty, require_seed
from .generator import permutation
from .initialization import gain_scaled_layers

ORDER_SEED_OFFSET = 500


Layers = list[list[list[float]]]
"""A mini-batch network (lessons 6-9): per layer, one row ``[w_1, ..., w_n, bias]`` per unit."""


def bias_column_layers(seed: int, sizes, gain: float = 6.0) -> Layers:
    """Gain-scaled layers in the bias-as-last-column layout: one row ``[w_1, ..., w_n, bias]`` per unit.

    The draws are those of `coursekit.initialization.gain_scaled_layers` with the same seed and gain
    (lessons 6, 8 and 9 keep the default 6.0; lesson 7 studies multiples of it).
    """
    return [[row + [bias] for row, bias in zip(weights, biases)]
            for weights, biases in gain_scaled_layers(seed, sizes, gain)]


def epoch_order(epoch: int, n: int, seed: int) -> list[int]:
    """The order in which epoch ``epoch`` (from 0) visits ``n`` rows: the same in every run."""
    require_int("epoch", epoch, minimum=0)
    require_seed("seed", seed)
    return permutation(n, seed + ORDER_SEED_OFFSET + epoch)


def batches(order: Sequence[int], size: int) -> list[list[int]]:
    """``order`` cut into consecutive batches of ``size`` rows (the last one may be shorter)."""
    require_int("size", size, minimum=1)
    return [list(order[b:b + size]) for b in range(0, len(order), size)]


def forward(layers: Layers, x: Sequence[float], hidden="rectified") -> list[list[float]]:
    """The input of every layer, then the output: ``[x, hidden_1, ..., [probability]]``."""
    function, _ = activation(hidden)
    a, trace = x, []
    for i, rows in enumerate(layers):
        trace.append(a)
        sums = [sum(map(mul, row, a)) + row[-1] for row in rows]  # zip's order; the bias is last
        a = [sigmoid(sums[0])] if i == len(layers) - 1 else [function(s) for s in sums]
    trace.append(a)
    return trace


def clipped(p: float) -> float:
    """A probability kept inside [1e-12, 1 - 1e-12], so that its logarithm is finite."""
    return min(max(p, 1e-12), 1 - 1e-12)


def zeros(layers: Layers):
    """Gradient accumulators shaped like ``layers``."""
    return [[[0.0] * len(row) for row in rows] for rows in layers]


def batch_gradient(layers: Layers, X, Y, rows: Sequence[int], hidden="rectified"):
    """Backpropagation over the batch ``rows``: the averaged gradient and the mean cross-entropy."""
    rows = require_nonempty("rows", rows)
    _, slope = activation(hidden)
    G, loss = zeros(layers), 0.0
    for i in rows:
        trace = forward(layers, X[i], hidden)
        p = clipped(trace[-1][0])
        loss -= Y[i] * math.log(p) + (1 - Y[i]) * math.log(1 - p)
        signals = [p - Y[i]]
        for L in range(len(layers) - 1, -1, -1):
            weights, a = layers[L], trace[L]
            for g, s in zip(G[L], signals):
                g[:len(a)] = [gj + s * v for gj, v in zip(g, a)]
                g[-1] += s
            if L:  # each input's signal: the signals above, weighted by the weights into them
                columns = list(zip(*weights))
                signals = [sum(map(mul, signals, columns[j])) * slope(v) for j, v in enumerate(a)]
    for rows_of_layer in G:
        for g in rows_of_layer:
            g[:] = [v / len(rows) for v in g]
    return G, loss / len(rows)


def mean_loss(layers: Layers, X, Y, hidden="rectified") -> float:
    """Mean cross-entropy of the whole set (no training)."""
    X = require_nonempty("X", X)
    total = 0.0
    for x, y in zip(X, Y):
        p = clipped(forward(layers, x, hidden)[-1][0])
        total -= y * math.log(p) + (1 - y) * math.log(1 - p)
    return total / len(X)


def hits(layers: Layers, X, Y, hidden="rectified") -> list[bool]:
    """For every row, whether its probability falls on the same side of 0.5 as its label."""
    X = require_nonempty("X", X)
    return [(forward(layers, x, hidden)[-1][0] > 0.5) == (y > 0.5) for x, y in zip(X, Y)]


def accuracy(layers: Layers, X, Y, hidden="rectified") -> float:
    """Share of rows whose probability falls on the same side of 0.5 as the label."""
    return sum(hits(layers, X, Y, hidden)) / len(X)


def parameter_total(layers: Layers) -> int:
    """Weights and biases of a network in the bias-column layout."""
    return sum(len(row) for rows in layers for row in rows)
