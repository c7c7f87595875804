"""The network of unit 3 (lessons 21-24), its parameters held in one flat list.

The network reads the eight ``PRACTICE_FIELDS`` of the subscriber table, has one hidden layer of
rectified units and one output unit whose sign is the prediction (0 or more: suspicious). Lesson 20
writes its gradient out by hand (and checks it against a computation graph) for its own network;
this is the same hand route for any number of hidden units, imported by lessons 21-24.

The parameters are one flat list, in this order::

    hidden weights, row by row (unit j, input i at j * inputs + i)
    hidden biases                (hidden of them)
    output weights               (hidden of them)
    output bias                  (the last entry)

so a list of ``hidden * (inputs + 2) + 1`` numbers, from which `unpack` recovers the number of hidden
units once the number of inputs is known.

Operation order is part of the specification: a unit's sum is its bias plus Python's ``sum()`` of the
weighted inputs (compensated since Python 3.12); the gradient adds the examples' contributions one by
one in batch order and divides by the batch size at the end.
"""

from operator import mul

from .activations import sigmoid_zero_below
from .checks import require_positive_int, require_seed
from .initialization import gain_scaled_layers

Parameters = list[float]
"""The unit-3 network's parameters in one flat list (`unpack` names its parts): hidden rows, hidden
biases, output weights, output bias."""


def initial_parameters(seed: int, inputs: int, hidden: int) -> Parameters:
    """Gain-scaled weights (uniform within +-sqrt(2 / fan-in)) and zero biases, as one flat list."""
    require_seed("seed", seed)
    require_positive_int("inputs", inputs)
    require_positive_int("hidden", hidden)
    (rows, biases), (out_rows, out_biases) = gain_scaled_layers(seed, [inputs, hidden, 1])
    return [w for row in rows for w in row] + biases + out_rows[0] + out_biases


def unpack(p: Parameters, inputs: int):
    """The flat list's four parts: hidden weight rows, hidden biases, output weights, output bias."""
    require_positive_int("inputs", inputs)
    hidden, rest = divmod(len(p) - 1, inputs + 2)
    if hidden < 1 or rest:
        raise ValueError(f"p must hold hidden * (inputs + 2) + 1 parameters for {inputs} inputs, "
                         f"got {len(p)}")
    rows = [p[j * inputs:(j + 1) * inputs] for j in range(hidden)]
    start = hidden * inputs
    return rows, p[start:start + hidden], p[start + hidden:-1], p[-1]


def hidden_layer(rows, biases, x) -> Parameters:
    """The rectified hidden units' values for example ``x``: bias plus weighted sum, 0 if negative."""
    if len(rows) != len(biases):
        raise ValueError(f"rows and biases must have one entry per unit, got {len(rows)} and "
                         f"{len(biases)}")
    return [s if s > 0 else 0.0 for s in (b + sum(map(mul, row, x)) for row, b in zip(rows, biases))]


def _check_set(X, Y) -> None:
    if not X:
        raise ValueError("X must hold at least one example")
    if len(X) != len(Y):
        raise ValueError(f"Y must hold one label per example of X ({len(X)}), got {len(Y)}")


def gradient(p: Parameters, X, Y, batch) -> Parameters:
    """The mean cross-entropy gradient of the rows ``batch`` of ``X``, ``Y``, as a flat list.

    Backpropagation written out for this network: the output's error signal is sigmoid(output) minus
    the label, each hidden weight gets it through its unit's output weight, and a unit whose sum was
    not positive passes nothing back.
    """
    _check_set(X, Y)
    if not batch:
        raise ValueError("batch must name at least one row")
    inputs = len(X[0])
    rows, biases, out_weights, out_bias = unpack(p, inputs)
    hidden = len(biases)
    g_rows = [[0.0] * inputs for _ in range(hidden)]
    g_biases, g_out, g_out_bias = [0.0] * hidden, [0.0] * hidden, 0.0
    for k in batch:
        x = X[k]
        h = hidden_layer(rows, biases, x)
        s = out_bias + sum(map(mul, out_weights, h))
        d = sigmoid_zero_below(s) - Y[k]
        g_out_bias += d
        for j in range(hidden):
            g_out[j] += d * h[j]
            if h[j] > 0:  # a unit that was off passes nothing back
                d_unit = d * out_weights[j]
                g_biases[j] += d_unit
                g_rows[j] = [g + d_unit * v for g, v in zip(g_rows[j], x)]
    flat = [g for row in g_rows for g in row] + g_biases + g_out + [g_out_bias]
    return [g / len(batch) for g in flat]


def right_answers(p: Parameters, X, Y) -> list[bool]:
    """For every row, whether the output falls on the label's side of zero."""
    _check_set(X, Y)
    rows, biases, out_weights, out_bias = unpack(p, len(X[0]))
    return [(out_bias + sum(map(mul, out_weights, hidden_layer(rows, biases, x))) >= 0.0) == (y == 1)
            for x, y in zip(X, Y)]


def accuracy(p: Parameters, X, Y) -> float:
    """Share of the rows of ``X`` the network gets right."""
    return sum(right_answers(p, X, Y)) / len(X)
