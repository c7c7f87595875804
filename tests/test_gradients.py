"""The hand-written backward passes of coursekit agree with the numerical derivative of their own loss.

Each check perturbs every parameter of a small network by ±h, measures the cross-entropy again, and
compares the central difference with what backpropagation returned. A smooth hidden activation keeps
kinks out of the comparison (lesson 5 shows what a kink does to it).
"""

import copy
import math

import pytest

from coursekit import minibatch, network, readings
from coursekit.generator import make_generator
from coursekit.initialization import gain_scaled_layers
from coursekit.losses import loss

H = 1e-6
TOLERANCE = 1e-6  # |backpropagation - central difference|, on gradients of order 0.01 to 1


def examples(count: int, inputs: int, seed: int = 11):
    draw = make_generator(seed)
    X = [[draw() * 2 - 1 for _ in range(inputs)] for _ in range(count)]
    Y = [1.0 if draw() < 0.4 else 0.0 for _ in range(count)]
    return X, Y


def cross_entropy(p: float, y: float) -> float:
    return -(y * math.log(p) + (1 - y) * math.log(1 - p))


def numerical(parameters, setter, total_loss):
    """Central differences of ``total_loss`` with respect to each parameter (``setter(i, value)``)."""
    found = []
    for i, value in enumerate(parameters):
        setter(i, value + H)
        up = total_loss()
        setter(i, value - H)
        down = total_loss()
        setter(i, value)
        found.append((up - down) / (2 * H))
    return found


def assert_close(backpropagated, numerical_values):
    worst = max(abs(a - b) for a, b in zip(backpropagated, numerical_values, strict=True))
    assert worst < TOLERANCE, f"backpropagation and the numerical derivative differ by up to {worst:.2e}"
    assert max(abs(v) for v in numerical_values) > 1e-3, "a check on zero gradients would prove nothing"


def flat_positions(net):
    """(layer, kind, unit, input) of every parameter of a coursekit.network net."""
    return [(k, "w", j, p) for k, (weights, _) in enumerate(net) for j, row in enumerate(weights)
            for p in range(len(row))] + [(k, "b", j, None) for k, (_, biases) in enumerate(net)
                                         for j in range(len(biases))]


@pytest.mark.parametrize("hidden", ["sigmoid", "hyperbolic tangent"])
def test_network_backward_pass(hidden):
    X, Y = examples(6, 4)
    net = gain_scaled_layers(5, [4, 3, 3, 1])
    function, derivative = network.activation(hidden)
    grad_w, grad_b = network.zero_gradients(net)
    for x, y in zip(X, Y):
        values = network.forward(net, x, hidden)
        network.add_example_gradient(net, values, values[-1][0] - y, derivative, grad_w, grad_b)
    positions = flat_positions(net)
    backpropagated = [grad_w[k][j][p] if kind == "w" else grad_b[k][j] for k, kind, j, p in positions]

    def get(position):
        k, kind, j, p = position
        return net[k][0][j][p] if kind == "w" else net[k][1][j]

    def setter(i, value):
        k, kind, j, p = positions[i]
        if kind == "w":
            net[k][0][j][p] = value
        else:
            net[k][1][j] = value

    def total():
        return sum(loss("cross-entropy")[0](network.predict(net, x, hidden), y) for x, y in zip(X, Y))

    assert_close(backpropagated, numerical([get(p) for p in positions], setter, total))


@pytest.mark.parametrize("hidden", ["sigmoid", "hyperbolic tangent"])
def test_minibatch_gradient(hidden):
    X, Y = examples(8, 3)
    layers = minibatch.bias_column_layers(7, [3, 4, 1])
    rows = [0, 2, 3, 6]
    gradient, _ = minibatch.batch_gradient(layers, X, Y, rows, hidden)
    positions = [(L, j, i) for L, rows_of in enumerate(layers) for j, row in enumerate(rows_of)
                 for i in range(len(row))]

    def setter(n, value):
        L, j, i = positions[n]
        layers[L][j][i] = value

    def total():
        return minibatch.mean_loss(layers, [X[i] for i in rows], [Y[i] for i in rows], hidden)

    assert_close([gradient[L][j][i] for L, j, i in positions],
                 numerical([layers[L][j][i] for L, j, i in positions], setter, total))


def test_recurrent_training_step_follows_the_gradient():
    """`train_plain` steps every weight as soon as its gradient at step t is known; with a tiny rate the
    change of each weight, divided by the rate, is the gradient of the example's loss."""
    net = readings.plain_network(3, hidden=3)
    steps = [[0.4, 0.0], [0.9, 1.0], [-0.3, 0.0], [0.7, 0.0]]
    label = 1
    keys = [("input", k, c) for k in range(3) for c in range(2)] + [
        ("recurrent", k, c) for k in range(3) for c in range(3)] + [("bias", k, None) for k in range(3)] + [
        ("head", k, None) for k in range(3)] + [("head_bias", 0, None)]

    def get(model, key):
        name, k, c = key
        return model[name][k][c] if c is not None else model[name][k]

    def setter(i, value):
        name, k, c = keys[i]
        if c is None:
            net[name][k] = value
        else:
            net[name][k][c] = value

    def total():
        return cross_entropy(readings.plain_forward(net, steps)[0], label)

    expected = numerical([get(net, key) for key in keys], setter, total)
    rate = 1e-7
    trained = readings.train_plain(copy.deepcopy(net), [(steps, label)], epochs=1, rate=rate, seed=1)
    stepped = [(get(net, key) - get(trained, key)) / rate for key in keys]
    worst = max(abs(a - b) for a, b in zip(stepped, expected))
    assert worst < 1e-4, f"the recurrent update and the numerical gradient differ by up to {worst:.2e}"
    assert max(abs(v) for v in expected) > 1e-3
