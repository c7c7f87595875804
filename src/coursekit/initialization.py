"""Gain-scaled initialization: the starting range of a layer's weights shrinks with its fan-in."""

import math

from .checks import require_positive_number, require_sizes
from .generator import make_generator, signed_uniform


def gain_scaled_layers(seed: int, sizes, gain: float = 2.0) -> list[tuple[list[list[float]], list[float]]]:
    """One ``(weights, biases)`` pair per layer of a network with layer widths ``sizes``.

    Each weight is drawn uniformly from ``[-sqrt(gain / fan_in), +sqrt(gain / fan_in))``, row by row
    (one row per unit of the layer, one column per input); biases start at zero. The draws come from a
    single generator seeded with ``seed``, layer after layer, so a network's starting point is fixed by
    its seed alone.

    Lessons 1-5, 20 and 21 use the default ``gain=2.0``; lessons 6-9 pass their own gain through
    `coursekit.minibatch.bias_column_layers` (a wider range for the same seed).
    """
    sizes = require_sizes("sizes", sizes)
    require_positive_number("gain", gain)
    draw, layers = make_generator(seed), []
    for fan_in, fan_out in zip(sizes, sizes[1:]):
        limit = math.sqrt(gain / fan_in)
        weights = [[signed_uniform(draw) * limit for _ in range(fan_in)] for _ in range(fan_out)]
        layers.append((weights, [0.0] * fan_out))
    return layers


def parameter_count(sizes) -> int:
    """Weights plus biases of a fully connected network with layer widths ``sizes``."""
    sizes = require_sizes("sizes", sizes)
    return sum(fan_in * fan_out + fan_out for fan_in, fan_out in zip(sizes, sizes[1:]))
