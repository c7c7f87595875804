"""The two yardsticks a test number is read against: the second run and the test set's sampling error.

A test accuracy is a proportion counted on a finite test set. Had the test subscribers been another
draw from the same population, the count would move by about one **standard error**,
``sqrt(p (1 - p) / n)`` for an accuracy ``p`` over ``n`` examples (the binomial proportion's
standard error). The second run measures the other source of noise, the network's initial values.
A change counts as measured only when it is larger than both.
"""

import math
import statistics

from .checks import require_positive_int


def standard_error(accuracy: float, examples: int) -> float:
    """One standard error of an accuracy measured on ``examples`` examples.

    >>> round(standard_error(0.8, 252), 4)
    0.0252
    """
    if isinstance(accuracy, bool) or not isinstance(accuracy, (int, float)) or not 0 <= accuracy <= 1:
        raise ValueError(f"accuracy must be a share between 0 and 1, got {accuracy!r}")
    require_positive_int("examples", examples)
    return math.sqrt(accuracy * (1 - accuracy) / examples)


def standard_error_of_mean(values) -> float:
    """One standard error of a mean measured over examples (a mean reconstruction error, say):
    the examples' sample standard deviation over the square root of their number.

    >>> round(standard_error_of_mean([1.0, 2.0, 3.0, 4.0]), 4)
    0.6455
    """
    values = list(values)
    if len(values) < 2:
        raise ValueError(f"values must hold at least two examples, got {len(values)}")
    for value in values:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or math.isnan(value):
            raise ValueError(f"values must be numbers, got {value!r}")
    return statistics.stdev(values) / math.sqrt(len(values))


def is_measured(change: float, second_run_difference: float, sampling_error: float) -> bool:
    """Whether ``change`` exceeds both the run-to-run difference and the sampling error (by size).

    >>> is_measured(0.03, 0.01, 0.025), is_measured(0.02, 0.01, 0.025), is_measured(0.03, 0.04, 0.025)
    (True, False, False)
    """
    for name, value in (("change", change), ("second_run_difference", second_run_difference),
                        ("sampling_error", sampling_error)):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or math.isnan(value):
            raise ValueError(f"{name} must be a number, got {value!r}")
    if sampling_error < 0:
        raise ValueError(f"sampling_error must not be negative, got {sampling_error!r}")
    return abs(change) > abs(second_run_difference) and abs(change) > sampling_error
