"""The fictional subscriber table of the course, its split, and its scaling.

A utility serves 1,400 drawn subscribers in five regions. About 4.6 % of the draws are dropped, the rest
get up to three monthly consumption readings, and a hidden score decides the **suspicious** label
(suspected illicit use or a faulty meter). Subscribers without a single reading are dropped too,
which leaves 1,260 rows. Everything derives from the course seed through `make_generator`.

The rows are shuffled once (seed + 90000) and cut into training (the first 756), validation (the next
252) and test (all the rest: 252 rows with the course seed, as many as another seed leaves).
Lessons scale the twelve feature columns with the mean and spread learned from a training set and apply
that same scaling to every set.
"""

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from .checks import require_choice, require_int, require_nonempty, require_seed
from .generator import centred_sum, make_generator, pick, shuffled_split

DRAWN = 1400
"""How many subscribers are drawn before any is dropped."""

# name, share of subscribers, typical consumption, shift of the hidden suspicion score
REGIONS = (
    ("north", 0.28, 21, 0.00),
    ("south", 0.22, 17, -0.10),
    ("east", 0.18, 26, 0.30),
    ("west", 0.14, 14, -0.05),
    ("central", 0.18, 23, 0.05),
)
HOUSEHOLD_SIZES = (0.06, 0.24, 0.30, 0.24, 0.11, 0.05)  # 1 to 6 people
SATISFACTION = (0.08, 0.14, 0.27, 0.34, 0.17)  # rating 1 to 5
READING_COUNTS = (0.05, 0.12, 0.21, 0.62)  # 0 to 3 readings
DROP_SHARE = 0.046  # drawn subscribers who never enter the table
ZERO_READING_SHARE = 0.038  # readings that come back as 0.0
SUSPICION_THRESHOLD = 1.35

FIELDS = (
    "mean_consumption", "volatility", "household", "satisfaction", "period", "zero_readings",
    "per_person", "area_north", "area_south", "area_east", "area_west", "area_central",
)
"""The twelve feature columns, fixed for the whole course."""

LABEL = "suspicious"
SPLIT_SEED_OFFSET = 90000
TRAIN_SIZE, VALIDATION_SIZE = 756, 252
"""Rows of the training and validation sets; the test set is every row after them."""


def _draw_subscribers(seed: int) -> list[dict]:
    """Region, household size and satisfaction of every drawn subscriber that is kept."""
    kept = []
    for i in range(DRAWN):
        draw = make_generator(seed + i)
        region = REGIONS[pick(draw(), [r[1] for r in REGIONS])]
        household = 1 + pick(draw(), HOUSEHOLD_SIZES)
        satisfaction = 1 + pick(draw(), SATISFACTION)
        if draw() >= DROP_SHARE:
            kept.append({"id": 10001 + i, "region": region, "household": household,
                         "satisfaction": satisfaction})
    return kept


def _readings(seed: int, subscriber: dict) -> list[float]:
    """Up to three monthly readings, each a little lower than the one before, some of them zero."""
    draw, readings = make_generator(seed + 7000 + subscriber["id"]), []
    typical = subscriber["region"][2]
    for month in range(pick(draw(), READING_COUNTS)):
        if draw() < ZERO_READING_SHARE:
            readings.append(0.0)
        else:
            noise = math.exp(centred_sum(draw) * 0.62)
            readings.append(math.floor(typical * noise * (1 - month * 0.05) * 100 + 0.5) / 100)
        draw()  # one value per reading is spent whether or not the reading is zero
    return readings


def _suspicion_score(seed: int, subscriber: dict, readings: list[float]) -> float:
    """The hidden score behind the label; only its comparison with the threshold is ever seen."""
    draw = make_generator(seed + 51000 + subscriber["id"])
    mean, spread = sum(readings) / len(readings), max(readings) - min(readings)
    return (0.052 * (mean - 20) + 0.85 * (min(readings) == 0.0) + 0.026 * spread
            + 0.24 * (subscriber["household"] >= 5) - 0.20 * (subscriber["satisfaction"] >= 4)
            + subscriber["region"][3] + 0.9 * (subscriber["id"] - 10001) / 1399
            + centred_sum(draw) * 1.30)


def _row(subscriber: dict, readings: list[float], score: float) -> dict:
    mean = sum(readings) / len(readings)
    row = {"household": subscriber["household"], "satisfaction": subscriber["satisfaction"],
           "period": len(readings), "mean_consumption": round(mean, 2),
           "volatility": round(max(readings) - min(readings), 2),
           "zero_readings": int(min(readings) == 0.0), LABEL: int(score > SUSPICION_THRESHOLD)}
    row["per_person"] = round(row["mean_consumption"] / row["household"], 3)
    for name, *_ in REGIONS:
        row["area_" + name] = int(subscriber["region"][0] == name)
    return row


def subscriber_table(seed: int) -> list[dict]:
    """All kept subscribers as rows (dicts of the twelve fields and the label), in drawing order."""
    require_seed("seed", seed)
    rows = []
    for subscriber in _draw_subscribers(seed):
        readings = _readings(seed, subscriber)
        if readings:
            rows.append(_row(subscriber, readings, _suspicion_score(seed, subscriber, readings)))
    return rows


@dataclass(frozen=True)
class Split:
    """Rows of the training, validation and test sets."""

    train: list[dict]
    validation: list[dict]
    test: list[dict]


def split_rows(rows: Sequence[dict], seed: int) -> Split:
    """Shuffle with ``seed + 90000``; the first 756 rows train, the next 252 validate, the rest test."""
    require_seed("seed", seed)
    _, train, validation, test = shuffled_split(rows, seed + SPLIT_SEED_OFFSET, TRAIN_SIZE,
                                                VALIDATION_SIZE, name="rows")
    return Split(train, validation, test)


@dataclass(frozen=True)
class Scaler:
    """Mean and spread of each field, learned from one set and applied to every set."""

    fields: tuple[str, ...]
    mean: dict
    spread: dict

    @classmethod
    def fit(cls, rows: Sequence[dict], fields: Sequence[str] = FIELDS) -> "Scaler":
        """Learn each field's mean and population standard deviation (floored at 1e-9) from ``rows``."""
        rows = require_nonempty("rows", rows)
        fields = tuple(require_nonempty("fields", fields))
        for name in fields:
            require_choice("field", name, rows[0].keys())
        mean = {a: statistics.fmean(row[a] for row in rows) for a in fields}
        spread = {a: max(1e-9, statistics.pstdev([row[a] for row in rows])) for a in fields}
        return cls(fields, mean, spread)

    def transform(self, row: dict) -> list[float]:
        """The row's fields as scaled features, in the order of ``self.fields``."""
        return [(row[a] - self.mean[a]) / self.spread[a] for a in self.fields]


def features_and_labels(rows: Sequence[dict], scaler: Scaler) -> tuple[list[list[float]], list[float]]:
    """Scaled feature vectors and float labels (1.0 suspicious, 0.0 not) of ``rows``."""
    return [scaler.transform(row) for row in rows], [float(row[LABEL]) for row in rows]


def baseline_accuracy(labels: Sequence[float]) -> float:
    """Accuracy of always saying the most frequent class (whichever it is)."""
    labels = require_nonempty("labels", labels)
    positives = sum(1 for y in labels if y > 0.5)
    return max(positives, len(labels) - positives) / len(labels)


def not_suspicious_share(labels: Sequence[float]) -> float:
    """The subscriber table's baseline as the course computes it: always answer "not suspicious".

    That is the most frequent class of the table (about four in five subscribers are not suspicious),
    but the course counts the zero labels rather than comparing the two classes.
    """
    labels = require_nonempty("labels", labels)
    return sum(y == 0.0 for y in labels) / len(labels)


@dataclass(frozen=True)
class SubscriberSets:
    """The scaled sets a lesson trains and measures on. Each set is a pair (features, labels)."""

    full_train: tuple[list, list]
    train: tuple[list, list]
    validation: tuple[list, list]
    test: tuple[list, list]
    fields: tuple[str, ...]
    baseline: float

    @property
    def baseline_hits(self) -> list[bool]:
        """For every test row, whether the baseline's answer, "not suspicious", is right: the baseline
        as `coursekit.noise.Runs` scores it (its mean is ``baseline``)."""
        return [y == 0.0 for y in self.test[1]]


def load_subscribers(seed: int, train_rows: int = 300, scale_on: str = "full",
                     fields: Sequence[str] = FIELDS) -> SubscriberSets:
    """Generate, split and scale the subscriber table the way the course's lessons do.

    ``train_rows`` cuts the training set to its first rows (the course works with 300 of the 756, to
    keep pure-Python training fast). ``scale_on`` says which training rows the scaling is learned from:
    ``"full"`` (all 756, as lessons 1-5 do) or ``"reduced"`` (the ``train_rows`` kept, as lessons 6-9
    do). The baseline is the share of not-suspicious subscribers in the test set.
    """
    require_seed("seed", seed)
    require_int("train_rows", train_rows, minimum=1)
    if train_rows > TRAIN_SIZE:
        raise ValueError(f"train_rows must be at most {TRAIN_SIZE}, got {train_rows}")
    require_choice("scale_on", scale_on, ("full", "reduced"))
    split = split_rows(subscriber_table(seed), seed)
    reduced = split.train[:train_rows]
    return scaled_sets(split, reduced, Scaler.fit(split.train if scale_on == "full" else reduced, fields))


def scaled_sets(split: Split, reduced: Sequence[dict], scaler: Scaler) -> SubscriberSets:
    """Every set of ``split`` (and the ``reduced`` training rows) through ``scaler``; the test baseline."""
    test = features_and_labels(split.test, scaler)
    return SubscriberSets(
        full_train=features_and_labels(split.train, scaler),
        train=features_and_labels(reduced, scaler),
        validation=features_and_labels(split.validation, scaler),
        test=test,
        fields=scaler.fields,
        baseline=not_suspicious_share(test[1]),
    )


# --- unit 3 (Training Practice, lessons 20-24): eight of the twelve columns -----------------------

PRACTICE_FIELDS = (
    "area_south", "area_east", "area_west", "area_central", "household", "satisfaction", "period",
    "mean_consumption",
)
"""The eight feature columns of unit 3, in the order its networks read them: three regions and the
centre as 0/1 indicators (north is the region they leave out), then the four continuous columns.
Volatility, the zero-reading flag and consumption per person are not used in this unit."""

PRACTICE_SCALED = PRACTICE_FIELDS[4:]
"""The columns unit 3 scales: only the continuous ones; the area indicators stay 0 or 1."""


def practice_scaler(rows: Sequence[dict]) -> Scaler:
    """Unit 3's scaling of ``PRACTICE_FIELDS``, learned from ``rows``.

    Each continuous column gets the mean and population standard deviation of ``rows``, computed as
    plain sums divided by the row count (``sum(...) / n`` and ``sqrt(sum((v - mean) ** 2) / n)``),
    the arithmetic unit 3 uses; unit 1's `Scaler.fit` can differ from it in the last bit. An area
    indicator gets mean 0 and spread 1, which leaves it exactly as it is.
    """
    rows = require_nonempty("rows", rows)
    mean, spread = {}, {}
    for name in PRACTICE_FIELDS:
        mean[name], spread[name] = 0.0, 1.0
    for name in PRACTICE_SCALED:
        values = [float(row[name]) for row in rows]
        middle = sum(values) / len(values)
        deviation = math.sqrt(sum((v - middle) ** 2 for v in values) / len(values))
        if deviation == 0.0:
            raise ValueError(f"rows must not all share one value of {name!r} (nothing to scale by)")
        mean[name], spread[name] = middle, deviation
    return Scaler(PRACTICE_FIELDS, mean, spread)


def load_practice_subscribers(seed: int, train_rows: int = 300) -> SubscriberSets:
    """The subscriber sets of unit 3: the eight ``PRACTICE_FIELDS``, scaled on the reduced training set.

    Same table and split as every other lesson; the training set is the first ``train_rows`` rows of the
    756 (300 in the course) and `practice_scaler` is learned from those rows only, then applied to every
    set (``full_train`` is included for completeness, scaled the same way). The baseline is the share
    of not-suspicious subscribers in the test set.
    """
    require_seed("seed", seed)
    require_int("train_rows", train_rows, minimum=1)
    if train_rows > TRAIN_SIZE:
        raise ValueError(f"train_rows must be at most {TRAIN_SIZE}, got {train_rows}")
    split = split_rows(subscriber_table(seed), seed)
    reduced = split.train[:train_rows]
    return scaled_sets(split, reduced, practice_scaler(reduced))
