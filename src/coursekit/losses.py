"""Loss functions of a single sigmoid output: the loss of one example and the error signal it sends
back into the output unit (the derivative of the loss with respect to the unit's input sum)."""

import math

from .checks import require_choice


def cross_entropy(a: float, y: float) -> float:
    """Minus the log of the probability given to the true class, floored at 1e-12."""
    return -(math.log(max(a, 1e-12)) if y else math.log(max(1 - a, 1e-12)))


def squared_error(a: float, y: float) -> float:
    return (a - y) ** 2


LOSSES = {
    # sigmoid and cross-entropy cancel: the signal is just prediction minus label
    "cross-entropy": (cross_entropy, lambda a, y: a - y),
    # squared error keeps the sigmoid's slope a(1 - a), which vanishes when the output saturates
    "squared error": (squared_error, lambda a, y: 2.0 * (a - y) * a * (1.0 - a)),
}
"""name -> (loss of one example, error signal at the output unit's input)."""


def loss(name: str):
    """The ``(loss, output signal)`` pair of a loss given by name."""
    return LOSSES[require_choice("loss", name, LOSSES)]
