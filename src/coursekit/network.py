"""The fully connected network of lessons 1-5, trained by full-batch gradient descent.

Lesson 1 writes this network out in full and lesson 5 derives its backward pass; later lessons import it
from here. A network is a list of layers, each a pair ``(weights, biases)`` with one row of weights per
unit (see `coursekit.initialization.gain_scaled_layers`). Hidden layers share one activation; the
single output unit is always a sigmoid, read as the probability of the **suspicious** class.

Operation order is part of the specification: the weighted sum is Python's ``sum()`` (compensated since
Python 3.12) plus the bias; gradients are added example by example in row order and divided by the
number of rows at update time (``rate * gradient / n``).
"""

from collections.abc import Callable, Sequence
from operator import mul

from .activations import activation, sigmoid
from .checks import require_nonempty, require_positive_int, require_positive_number
from .losses import loss as loss_by_name

Layer = tuple[list[list[float]], list[float]]
"""One layer: its weight rows (one per unit, one column per input) and its biases."""
Net = list[Layer]
"""A full-batch network (lessons 1-5): its layers, inputs first (`coursekit.initialization.gain_scaled_layers`)."""


def weighted_sum(weights: Sequence[float], inputs: Sequence[float], bias: float) -> float:
    """A unit's input: the inputs times their weights, summed, plus the bias."""
    return sum(w * x for w, x in zip(weights, inputs)) + bias


def forward(net: Net, x: Sequence[float], hidden="rectified") -> list[list[float]]:
    """Values of every layer for example ``x``, the input first and the output (one probability) last."""
    return _forward(net, x, activation(hidden)[0])


def _forward(net: Net, x, function) -> list[list[float]]:
    # `weighted_sum` written inline: the same products summed in the same order, without a call per unit
    values, last = [x], len(net) - 1
    for k, (weights, biases) in enumerate(net):
        inputs = values[-1]
        sums = [sum(map(mul, row, inputs)) + b for row, b in zip(weights, biases)]
        values.append([sigmoid(sums[0])] if k == last else [function(s) for s in sums])
    return values


def predict(net: Net, x: Sequence[float], hidden="rectified") -> float:
    """The network's probability that ``x`` is suspicious."""
    return forward(net, x, hidden)[-1][0]


def hits(net: Net, X, Y, hidden="rectified") -> list[bool]:
    """For every row, whether its probability falls on the same side of 0.5 as its label."""
    X = require_nonempty("X", X)
    function = activation(hidden)[0]
    return [(_forward(net, x, function)[-1][0] > 0.5) == (y > 0.5) for x, y in zip(X, Y)]


def positive_calls(run_hits, Y) -> int:
    """How many rows a run calls positive (**suspicious**), read from its hits and the labels: a hit on a
    positive row or a miss on a negative one. 0 or ``len(Y)``: the run answers one class for every row.

    >>> positive_calls([True, False, False], [1.0, 1.0, 0.0])  # calls row 1 positive, row 2 not, row 3 positive
    2
    """
    run_hits = require_nonempty("run_hits", run_hits)
    if len(run_hits) != len(Y):
        raise ValueError(f"run_hits and Y must have the same length, got {len(run_hits)} and {len(Y)}")
    return sum(bool(hit) == (y > 0.5) for hit, y in zip(run_hits, Y))


def accuracy(net: Net, X, Y, hidden="rectified") -> float:
    """Share of rows whose probability falls on the same side of 0.5 as the label."""
    return sum(hits(net, X, Y, hidden)) / len(X)


def add_example_gradient(net: Net, values, signal: float, derivative: Callable, grad_w, grad_b) -> None:
    """Backward pass of one example: add its gradient into ``grad_w`` / ``grad_b`` in place.

    ``signal`` is the error at the output unit's input (for sigmoid + cross-entropy: prediction minus
    label). Each layer adds signal x input to its weight gradients, then sends the signal down through
    its weights, scaled by the activation's slope at the unit below.
    """
    signals = [signal]
    for k in range(len(net) - 1, -1, -1):
        weights, inputs = net[k][0], values[k]
        for j, s in enumerate(signals):
            if s:
                row = grad_w[k][j]
                row[:] = [g + s * v for g, v in zip(row, inputs)]
                grad_b[k][j] += s
        if k == 0:
            return
        below = [0.0] * len(inputs)
        for s, row in zip(signals, weights):
            if s:
                below = [b + s * w for b, w in zip(below, row)]
        signals = [b * derivative(v) for b, v in zip(below, inputs)]


def zero_gradients(net: Net):
    """Gradient accumulators shaped like ``net``: (per-layer weight rows, per-layer biases)."""
    return ([[[0.0] * len(row) for row in weights] for weights, _ in net],
            [[0.0] * len(biases) for _, biases in net])


def descend(net: Net, grad_w, grad_b, rate: float, n: int) -> None:
    """One gradient-descent step with gradients summed over ``n`` rows: w -= rate * g / n."""
    for (weights, biases), g_w, g_b in zip(net, grad_w, grad_b):
        for j, row in enumerate(weights):
            row[:] = [w - rate * g / n for w, g in zip(row, g_w[j])]
            biases[j] -= rate * g_b[j] / n


def train(net: Net, X, Y, rate: float, epochs: int, hidden="rectified", loss: str = "cross-entropy",
          on_epoch: Callable | None = None):
    """Full-batch gradient descent for ``epochs`` epochs; returns ``net``, trained in place.

    ``hidden`` names the hidden activation (or is a ``(function, derivative)`` pair), ``loss`` names the
    loss. After each epoch's update ``on_epoch(epoch, net, grad_w, grad_b, mean_loss)`` is called, if
    given: ``epoch`` counts from 1, the gradients are that epoch's sums (before dividing by the number
    of rows), and ``mean_loss`` is the training loss measured during that epoch, before its update.
    """
    X = require_nonempty("X", X)
    if len(X) != len(Y):
        raise ValueError(f"X and Y must have the same length, got {len(X)} and {len(Y)}")
    require_positive_number("rate", rate)
    require_positive_int("epochs", epochs)
    function, derivative = activation(hidden)
    loss_value, output_signal = loss_by_name(loss)
    n = len(X)
    for epoch in range(1, epochs + 1):
        grad_w, grad_b = zero_gradients(net)
        total = 0.0
        for x, y in zip(X, Y):
            values = _forward(net, x, function)
            if on_epoch is not None:  # the loss is read only by the hook
                total += loss_value(values[-1][0], y)
            add_example_gradient(net, values, output_signal(values[-1][0], y), derivative, grad_w, grad_b)
        descend(net, grad_w, grad_b, rate, n)
        if on_epoch is not None:
            on_epoch(epoch, net, grad_w, grad_b, total / n)
    return net
