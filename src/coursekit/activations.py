"""Activation functions, each paired with its derivative written in terms of the unit's *output*.

Writing the derivative from the output (``a``) rather than the input (``z``) is what lets the backward
pass reuse the values the forward pass stored: for the sigmoid ``a(1 - a)``, for the hyperbolic tangent
``1 - a²``, for the rectified unit 1 where the unit is on and 0 where it is off.
"""

import math

from .checks import require_choice


def sigmoid(z: float) -> float:
    """The S-shaped squashing function into (0, 1), written so that exp() never overflows."""
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z)) if z < 700 else 1.0
    e = math.exp(z) if z > -700 else 0.0
    return e / (1.0 + e)


def sigmoid_zero_below(z: float) -> float:
    """The sigmoid as lessons 10, 11 and 20-24 compute it: below -30 the output is exactly 0.0.

    A deliberate difference from `sigmoid`: at -30 the true value is about 9.4e-14, and a loss or
    gradient that reads it gets other last digits than the source printed. Not interchangeable.
    """
    return 1 / (1 + math.exp(-z)) if z > -30 else 0.0


def sigmoid_clipped(z: float) -> float:
    """The sigmoid as lessons 12-19 compute it: the input clipped to [-30, 30] first.

    A deliberate difference from `sigmoid` and `sigmoid_zero_below`: beyond ±30 the output stays at
    the value for ±30 (about 9.4e-14 from 0 or 1), never exactly 0 or 1. Not interchangeable.
    """
    return 1 / (1 + math.exp(-max(-30, min(30, z))))


SIGMOIDS = {"split at zero": sigmoid, "zero below -30": sigmoid_zero_below, "clipped at ±30": sigmoid_clipped}
"""The three sigmoids of the course, numerically different on purpose: each reproduces the digits of the
source's lessons that use it (see each function). Unifying them changes printed tables."""


def rectified(z: float) -> float:
    """The rectified linear unit: positive values pass, the rest become zero."""
    return z if z > 0.0 else 0.0


def identity(z: float) -> float:
    return z


ACTIVATIONS = {
    "sigmoid": (sigmoid, lambda a: a * (1.0 - a)),
    "hyperbolic tangent": (math.tanh, lambda a: 1.0 - a * a),
    "rectified": (rectified, lambda a: 1.0 if a > 0.0 else 0.0),
    "identity": (identity, lambda a: 1.0),
}
"""name -> (function of the input, derivative as a function of the output)."""


def activation(name_or_pair):
    """Resolve an activation given by name, or pass through a ``(function, derivative)`` pair."""
    if isinstance(name_or_pair, str) and name_or_pair in ACTIVATIONS:  # the common case, on hot paths
        return ACTIVATIONS[name_or_pair]
    if isinstance(name_or_pair, tuple) and len(name_or_pair) == 2 and all(map(callable, name_or_pair)):
        return name_or_pair
    return ACTIVATIONS[require_choice("activation", name_or_pair, ACTIVATIONS)]
