"""The two yardsticks a difference is read against: the run-to-run spread and the sampling error.

Two settings compared on the same test rows (with and without a hidden layer, two optimizers, a network
and the baseline) differ for three reasons: the setting, the network's random initial values, and the
draw of the test rows. The course accepts a difference as **measured** only when it is beyond both
kinds of noise:

- **the run-to-run spread**: what the lesson measured between runs that differ only in their initial
  values. With two runs of a setting it is their difference; with three or more, the range of their
  numbers (largest minus smallest). Two settings compared: the larger of their two spreads.
- **the sampling error of the paired difference**. Both numbers were counted on the *same* rows, so
  what a new draw of test rows would move is the difference itself, and it moves only through the rows
  on which the two disagree. With ``b`` rows only the first gets right and ``c`` rows only the second,
  out of ``n``, the difference of accuracies is ``(b - c) / n`` and its standard error
  ``sqrt(b + c - (b - c)**2 / n) / n`` (the standard error of the mean of the per-row differences,
  each +1, -1 or 0). A difference counts beyond it when it is larger than **two standard errors**,
  the conventional 95% threshold (`THRESHOLD`). With fewer than `EXACT_BELOW` disagreeing rows the
  normal approximation is poor, and **McNemar's exact test** decides instead: under "no difference"
  each disagreeing row is a fair coin, and the difference counts when a split as lopsided as ``b`` to
  ``c`` has a two-sided probability below 5%. For a mean over the same items (an error per sequence)
  the paired standard error is that of the per-item differences.

`Runs` holds one setting's runs scored row by row; `Comparison` sets two of them side by side and
decides; `Paired` is its sampling yardstick alone, for two score lists of one run each (two fixed
rules, two runs of one network). `standard_error` is the sampling error of one accuracy on its own,
which each lesson quotes beside its network's number.
"""

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from .checks import require_int, require_positive_int

THRESHOLD = 2.0
"""Standard errors a difference must exceed to count beyond sampling error (two: about 95%)."""

EXACT_BELOW = 25
"""With fewer disagreeing rows than this, McNemar's exact test decides instead of two standard errors."""

SIGNIFICANCE = 0.05
"""The two-sided probability below which McNemar's exact test counts a split as beyond chance."""


def _require_number(name: str, value) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or math.isnan(value):
        raise ValueError(f"{name} must be a number, got {value!r}")
    return value


def standard_error(accuracy: float, examples: int) -> float:
    """One standard error of an accuracy measured on ``examples`` examples, ``sqrt(p (1 - p) / n)``.

    >>> round(standard_error(0.8, 252), 4)
    0.0252
    """
    if isinstance(accuracy, bool) or not isinstance(accuracy, (int, float)) or not 0 <= accuracy <= 1:
        raise ValueError(f"accuracy must be a share between 0 and 1, got {accuracy!r}")
    require_positive_int("examples", examples)
    return math.sqrt(accuracy * (1 - accuracy) / examples)


def accuracy_uncertainty(accuracy: float, examples: int, noun: str = "row") -> str:
    """How uncertain one accuracy is, in words that continue "one standard error of X, ...": the
    standard error in rows, or, at an accuracy of 0 or 1 where the formula gives 0, the one-sided 95%
    bound for no error (or no hit) in ``examples`` tries, ``1 - 0.05 ** (1 / n)`` (about 3/n, the rule
    of three), and how far the true accuracy may still lie.

    >>> accuracy_uncertainty(0.8, 250, "sequence")
    'about 6.3 sequences.'
    >>> print(accuracy_uncertainty(1.0, 180, "sequence"))  # doctest: +NORMALIZE_WHITESPACE
    which at an accuracy of 1.0000 does not make the number exact: with no error in 180 sequences, the
    one-sided 95% bound on the error rate, 1 − 0.05^(1/n) = 0.0165 (about 3/n = 0.0167, the rule of
    three), still allows a true accuracy down to 0.9835.
    """
    if isinstance(accuracy, bool) or not isinstance(accuracy, (int, float)) or not 0 <= accuracy <= 1:
        raise ValueError(f"accuracy must be a share between 0 and 1, got {accuracy!r}")
    require_positive_int("examples", examples)
    if not isinstance(noun, str) or not noun.strip():
        raise ValueError(f"noun must name a test row, got {noun!r}")
    if 0 < accuracy < 1:
        return f"about {standard_error(accuracy, examples) * examples:.1f} {noun}s."
    bound = 1 - 0.05 ** (1 / examples)
    side = "error" if accuracy == 1 else "hit"
    reach = f"down to {1 - bound:.4f}" if accuracy == 1 else f"up to {bound:.4f}"
    return (f"which at an accuracy of {accuracy:.4f} does not make the number exact: with no {side} in "
            f"{examples} {noun}s, the one-sided 95% bound on the {side} rate, 1 − 0.05^(1/n) = "
            f"{bound:.4f} (about 3/n = {3 / examples:.4f}, the rule of three), still allows a true "
            f"accuracy {reach}.")


def standard_error_of_mean(values) -> float:
    """One standard error of a mean measured over examples (a mean reconstruction error, say): the
    examples' sample standard deviation over the square root of their number.

    >>> round(standard_error_of_mean([1.0, 2.0, 3.0, 4.0]), 4)
    0.6455
    """
    values = _require_values("values", values)
    if len(values) < 2:
        raise ValueError(f"values must hold at least two examples, got {len(values)}")
    return statistics.stdev(values) / math.sqrt(len(values))


def disagreements(hits_a: Sequence, hits_b: Sequence) -> tuple[int, int]:
    """``(b, c)``: the rows only the first gets right, and the rows only the second gets right.

    >>> disagreements([1, 1, 0, 0, 1], [1, 0, 1, 0, 0])
    (2, 1)
    """
    hits_a, hits_b = _require_hits("hits_a", hits_a), _require_hits("hits_b", hits_b)
    if len(hits_a) != len(hits_b):
        raise ValueError(f"hits_a and hits_b must score the same rows, got {len(hits_a)} and {len(hits_b)}")
    only_a = sum(1 for a, b in zip(hits_a, hits_b) if a and not b)
    only_b = sum(1 for a, b in zip(hits_a, hits_b) if b and not a)
    return only_a, only_b


def paired_standard_error(only_a: int, only_b: int, rows: int) -> float:
    """The standard error of a difference of two accuracies counted on the same ``rows`` rows, from the
    rows where they disagree: ``sqrt(b + c - (b - c)**2 / n) / n``.

    Worked by hand: 252 rows, 10 only the first gets right, 4 only the second: the difference is
    6 / 252 = 0.0238, its standard error sqrt(14 - 36 / 252) / 252 = 3.7225 / 252 = 0.0148.

    >>> round(paired_standard_error(10, 4, 252), 4), paired_standard_error(0, 0, 252)
    (0.0148, 0.0)
    """
    require_int("only_a", only_a, minimum=0)
    require_int("only_b", only_b, minimum=0)
    require_positive_int("rows", rows)
    if only_a + only_b > rows:
        raise ValueError(f"only_a + only_b must be at most rows ({rows}), got {only_a} + {only_b}")
    return math.sqrt(only_a + only_b - (only_a - only_b) ** 2 / rows) / rows


def mcnemar_p(only_a: int, only_b: int) -> float:
    """McNemar's exact test: the two-sided probability of a split of the disagreeing rows at least as
    lopsided as ``only_a`` to ``only_b`` when each row is a fair coin (the two settings equally good).

    Worked by hand: 5 to 0, 2 * (1/2)**5 = 0.0625; 6 to 1, 2 * (1 + 7) / 2**7 = 0.125.

    >>> mcnemar_p(5, 0), mcnemar_p(6, 1), mcnemar_p(3, 3), mcnemar_p(0, 0)
    (0.0625, 0.125, 1.0, 1.0)
    """
    require_int("only_a", only_a, minimum=0)
    require_int("only_b", only_b, minimum=0)
    total = only_a + only_b
    tail = sum(math.comb(total, k) for k in range(min(only_a, only_b) + 1)) / 2 ** total
    return min(1.0, 2 * tail)


def paired_standard_error_of_mean(values_a: Sequence, values_b: Sequence) -> float:
    """The standard error of a difference of two means over the same items: that of the mean of the
    per-item differences, ``sqrt(sum((d - mean d)**2) / n) / sqrt(n)``. For right-or-wrong scores (1 or
    0) it equals `paired_standard_error`.

    >>> round(paired_standard_error_of_mean([0.5, 0.7, 0.2, 0.4], [0.3, 0.6, 0.2, 0.1]), 4)
    0.0559
    """
    values_a, values_b = _require_values("values_a", values_a), _require_values("values_b", values_b)
    if len(values_a) != len(values_b):
        raise ValueError(f"values_a and values_b must score the same items, got {len(values_a)} and "
                         f"{len(values_b)}")
    if len(values_a) < 2:
        raise ValueError(f"values_a must hold at least two items, got {len(values_a)}")
    differences = [a - b for a, b in zip(values_a, values_b)]
    mean = sum(differences) / len(differences)
    return math.sqrt(sum((d - mean) ** 2 for d in differences) / len(differences)) / math.sqrt(len(differences))


def _require_values(name: str, values) -> list:
    values = list(values)
    for value in values:
        _require_number(f"{name}: every value", value)
    return values


def _require_hits(name: str, hits) -> list:
    hits = list(hits)
    for hit in hits:
        if hit not in (0, 1):  # True and False included
            raise ValueError(f"{name} must hold 1 (right) or 0 (wrong) per row, got {hit!r}")
    return [int(hit) for hit in hits]


@dataclass(frozen=True)
class Runs:
    """One setting's runs, each scored row by row on the same test rows.

    ``scores[k]`` is run k's score of every row: 1 or 0 (True or False) for a right or wrong answer,
    or a number (an error) where the lesson measures a mean. The setting's **number** is the mean of
    its ``judged`` run (the first by default): the run the lesson reports. Runs differ only in their
    initial values, so their numbers' range is the setting's run-to-run **spread**. A setting with one
    run (the baseline, which answers the same every time) has no spread. Per-row numbers that happen to
    be all 0 or 1 (a lead of -1, 0 or +1 that is never -1) are read as numbers with ``as_numbers=True``.

    >>> network = Runs("the network", [[1, 1, 0, 1], [1, 0, 0, 1]])
    >>> network.number, network.numbers, network.spread, network.second_run
    (0.75, (0.75, 0.5), 0.25, 0.5)
    """

    label: str
    scores: tuple
    judged: int = 0
    as_numbers: bool = False  # True: numbers, even where they all happen to be 0 or 1

    def __post_init__(self):
        if not isinstance(self.label, str) or not self.label.strip():
            raise ValueError(f"label must name the setting, got {self.label!r}")
        runs = tuple(tuple(int(value) if isinstance(value, bool) else value for value in run)
                     for run in self.scores)
        if not runs:
            raise ValueError(f"{self.label}: scores must hold at least one run")
        if any(len(run) != len(runs[0]) for run in runs) or not runs[0]:
            raise ValueError(f"{self.label}: every run must score the same, non-empty rows, got "
                             f"{[len(run) for run in runs]} rows")
        for run in runs:
            _require_values(f"{self.label}: scores", run)
        object.__setattr__(self, "scores", runs)
        require_int("judged", self.judged, minimum=0)
        if self.judged >= len(runs):
            raise ValueError(f"{self.label}: judged must index one of its {len(runs)} runs, got {self.judged}")

    @property
    def rows(self) -> int:
        return len(self.scores[0])

    @property
    def binary(self) -> bool:
        """Whether the scores are right-or-wrong answers (then numbers are accuracies): all 0 or 1, unless
        the setting was built ``as_numbers``."""
        return not self.as_numbers and all(value in (0, 1) for run in self.scores for value in run)

    @property
    def totals(self) -> tuple:
        """Each run's sum of scores: the rows it gets right, for right-or-wrong scores."""
        return tuple(sum(run) for run in self.scores)

    @property
    def numbers(self) -> tuple:
        """Each run's number: its mean score (an accuracy, for right-or-wrong scores)."""
        return tuple(total / self.rows for total in self.totals)

    @property
    def number(self) -> float:
        """The setting's number: its judged run's."""
        return self.numbers[self.judged]

    @property
    def second(self) -> int:
        """The index of the setting's second run: the first run after the judged one (or before it, when
        the judged run is the last)."""
        if len(self.scores) < 2:
            raise ValueError(f"{self.label}: one run has no second run")
        return self.judged + 1 if self.judged + 1 < len(self.scores) else self.judged - 1

    @property
    def second_run(self) -> float:
        """The second run's number, reported beside the setting's number."""
        return self.numbers[self.second]

    @property
    def spread(self) -> float:
        """The run-to-run spread: the range of the runs' numbers (their difference, with two runs)."""
        totals = self.totals
        return (max(totals) - min(totals)) / self.rows


@dataclass(frozen=True)
class Paired:
    """Two score lists on the same rows, one run each (two fixed rules, or two runs of one network), set
    side by side for the sampling yardstick alone: the difference of their means and whether it is beyond
    the sampling error of the paired difference (two standard errors, or McNemar's exact test with fewer
    than `EXACT_BELOW` disagreeing rows). `Comparison` adds the run-to-run spread of two settings.

    >>> Paired([1, 1, 1, 1, 1, 1, 0], [0, 0, 0, 0, 0, 0, 0]).beyond_sampling   # 6 to 0: p = 0.03125
    True
    """

    a: tuple
    b: tuple
    as_numbers: bool = False

    def __post_init__(self):
        a, b = (tuple(int(v) if isinstance(v, bool) else v for v in side) for side in (self.a, self.b))
        for name, side in (("a", a), ("b", b)):
            if not side:
                raise ValueError(f"{name} must score at least one row")
            _require_values(name, side)
        if len(a) != len(b):
            raise ValueError(f"a and b must score the same rows, got {len(a)} and {len(b)}")
        object.__setattr__(self, "a", a)
        object.__setattr__(self, "b", b)

    @property
    def rows(self) -> int:
        return len(self.a)

    @property
    def binary(self) -> bool:
        """Whether both are right-or-wrong answers (all 0 or 1, unless built ``as_numbers``)."""
        return not self.as_numbers and all(v in (0, 1) for v in self.a + self.b)

    @property
    def change(self) -> float:
        """The first's mean minus the second's."""
        return (sum(self.a) - sum(self.b)) / self.rows

    @property
    def disagreements(self) -> tuple[int, int]:
        """``(b, c)``: rows only the first gets right, and only the second (right-or-wrong only)."""
        return disagreements(self.a, self.b)

    @property
    def exact(self) -> bool:
        """Whether McNemar's exact test decides (right-or-wrong scores, few disagreeing rows)."""
        return self.binary and sum(self.disagreements) < EXACT_BELOW

    @property
    def standard_error(self) -> float:
        """The standard error of the paired difference."""
        if self.binary:
            return paired_standard_error(*self.disagreements, self.rows)
        return paired_standard_error_of_mean(self.a, self.b)

    @property
    def sampling_error(self) -> float:
        """`THRESHOLD` standard errors of the paired difference: how far the change must reach."""
        return THRESHOLD * self.standard_error

    @property
    def p_value(self) -> float:
        """McNemar's exact two-sided probability of the split of disagreeing rows (right-or-wrong only)."""
        if not self.binary:
            raise ValueError("McNemar's test counts rows of right-or-wrong scores; these are numbers")
        return mcnemar_p(*self.disagreements)

    @property
    def beyond_sampling(self) -> bool:
        """Whether the difference is beyond sampling error: McNemar's exact test below `SIGNIFICANCE` with
        few disagreeing rows, otherwise larger than two standard errors of the paired difference."""
        if self.exact:
            return self.change != 0 and self.p_value < SIGNIFICANCE
        return abs(self.change) > self.sampling_error


@dataclass(frozen=True)
class Comparison:
    """Two settings' numbers on the same test rows, set side by side: ``change`` is the first's number
    minus the second's, and the difference is measured when it is beyond both the run-to-run spread
    (the larger of the two settings') and the sampling error of the paired difference.

    >>> import random
    >>> draw = random.Random(1).random
    >>> rows = 200
    >>> wide = Runs("the wide network", [[draw() < 0.85 for _ in range(rows)] for _ in range(2)])
    >>> narrow = Runs("the narrow network", [[draw() < 0.70 for _ in range(rows)] for _ in range(2)])
    >>> comparison = Comparison(wide, narrow)
    >>> comparison.beyond_spread, comparison.beyond_sampling, comparison.measured
    (True, True, True)
    """

    a: Runs
    b: Runs

    def __post_init__(self):
        for name in ("a", "b"):
            if not isinstance(getattr(self, name), Runs):
                raise ValueError(f"{name} must be Runs, got {getattr(self, name)!r}")
        if self.a.rows != self.b.rows:
            raise ValueError(f"{self.a.label} and {self.b.label} must be scored on the same rows, got "
                             f"{self.a.rows} and {self.b.rows}")
        if len(self.a.scores) < 2 and len(self.b.scores) < 2:
            raise ValueError(f"neither {self.a.label} nor {self.b.label} has a second run: the run-to-run "
                             "spread a difference is read against was not measured")
        if self.a.binary != self.b.binary:
            raise ValueError(f"{self.a.label} and {self.b.label} must both be right-or-wrong scores, or "
                             "both numbers")

    @property
    def rows(self) -> int:
        return self.a.rows

    @property
    def binary(self) -> bool:
        return self.a.binary

    @property
    def judged(self) -> tuple[tuple, tuple]:
        return self.a.scores[self.a.judged], self.b.scores[self.b.judged]

    @property
    def change(self) -> float:
        """The first setting's number minus the second's."""
        return (self.a.totals[self.a.judged] - self.b.totals[self.b.judged]) / self.rows

    @property
    def change_count(self) -> int:
        """The change in rows (right-or-wrong scores only): how many more rows the first gets right."""
        if not self.binary:
            raise ValueError("change_count counts rows of right-or-wrong scores; these are numbers")
        return round(self.a.totals[self.a.judged] - self.b.totals[self.b.judged])

    @property
    def spread(self) -> float:
        """The run-to-run spread the change is read against: the larger of the two settings'."""
        return max(self.a.spread, self.b.spread)

    @property
    def paired(self) -> Paired:
        """The two judged runs, side by side on the same rows: the sampling yardstick."""
        return Paired(*self.judged, as_numbers=not self.binary)

    @property
    def disagreements(self) -> tuple[int, int]:
        """``(b, c)``: rows only the first setting's judged run gets right, and only the second's."""
        return self.paired.disagreements

    @property
    def exact(self) -> bool:
        """Whether McNemar's exact test decides (right-or-wrong scores, few disagreeing rows)."""
        return self.paired.exact

    @property
    def standard_error(self) -> float:
        """The standard error of the paired difference."""
        return self.paired.standard_error

    @property
    def sampling_error(self) -> float:
        """`THRESHOLD` standard errors of the paired difference: how far the change must reach."""
        return self.paired.sampling_error

    @property
    def p_value(self) -> float:
        """McNemar's exact two-sided probability of the split of disagreeing rows (right-or-wrong only)."""
        return self.paired.p_value

    @property
    def beyond_spread(self) -> bool:
        """Whether the change is larger, by size, than the run-to-run spread (compared in rows for
        right-or-wrong scores, so that equal counts compare equal)."""
        if self.binary:
            a, b = self.a.totals, self.b.totals
            widest = max(max(a) - min(a), max(b) - min(b))
            return abs(self.change_count) > widest
        return abs(self.change) > self.spread

    @property
    def beyond_sampling(self) -> bool:
        """Whether the change is beyond the sampling error of the paired difference (`Paired`)."""
        return self.paired.beyond_sampling

    @property
    def measured(self) -> bool:
        """Beyond both yardsticks."""
        return self.beyond_spread and self.beyond_sampling

    @property
    def side(self) -> int:
        """+1 when the first setting is ahead, -1 when it is behind, 0 for a tie."""
        return (self.change > 0) - (self.change < 0)

    def on_second_runs(self, a_label: str, b_label: str) -> "Comparison":
        """The same two settings read on their second runs (a one-run setting, the baseline, on its only
        run), against the same spreads: does the verdict of the judged runs hold there too?"""
        def second(runs: Runs, label: str) -> Runs:
            return Runs(label, runs.scores, judged=runs.second if len(runs.scores) > 1 else 0,
                        as_numbers=runs.as_numbers)

        return Comparison(second(self.a, a_label), second(self.b, b_label))

