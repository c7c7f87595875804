"""The fictional step/marker sequence set of unit 2 (lessons 15-19), with its event codes and raw form.

Each of 720 fictional subscribers has a meter read at twelve steps. A reading is stored as the
**deviation** left after the subscriber's own level and seasonal swing are taken out; step 0 is the
same calibration reading for everyone and is exactly 0.0. One step between the third and the twelfth
(index 2..11) is the **marker step**, and the sequence's label says whether the reading at that step
exceeds 0.35: the other eleven steps never enter it. Every sequence is also drawn a region (the five
regions of the subscriber table), which no lesson's label uses.

Two additions come from the same generator, each from a stream of its own, so that asking for them
never changes the readings:

- **event codes** (lessons 17 and 18): one of 24 symbolic codes per step. A :class:`CodeTask` turns
  them into a label, "at least ``minimum`` steps carry a code of the group": the suspect codes (eight,
  at least five steps) and the maintenance codes (ten, the eight suspect ones and two more, at least
  six steps).
- the **raw** sequence (lesson 19): subscriber level + a yearly sine/cosine swing + the deviation.

Everything derives from the seed through :func:`coursekit.generator.make_generator`: sequence ``i``
draws its region, readings and marker from ``seed + i``, its codes from ``seed + 8000 + i`` and its
level and swing from ``seed + 6000 + i``. The set is cut in drawing order into 360 / 180 / 180
sequences (training / validation / test); lessons that train on fewer take the first rows of it.
"""

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from .checks import require_int, require_nonempty, require_positive_int, require_seed
from .generator import centred_sum, make_generator, pick
from .subscribers import REGIONS, Split

STEPS = 12
"""Readings per sequence; step 0 is the shared calibration reading."""
SEQUENCES = 720
SPLIT_SIZES = (360, 180, 180)
FIRST_MARKER = 2
"""The marker never falls on the calibration step or the first real reading."""
THRESHOLD = 0.35
"""The marker step's reading must exceed this for the label to be 1."""
READING_SCALE = 1.9
"""Spread of a deviation: (sum of three uniform draws - 1.5) * 1.9, rounded to three decimals."""

CODES = 24
"""How many event codes there are: calibration, outage, cover opened, manual reading, ..."""
CODE_SEED_OFFSET = 8000
RAW_SEED_OFFSET = 6000

LEVEL, LEVEL_SCALE, SWING_SCALE = 21.0, 6.0, 2.6
"""Raw form: level 21 +- (three draws - 1.5) * 6; sine and cosine amplitudes (two draws - 1) * 2.6."""


@dataclass(frozen=True)
class CodeTask:
    """A label read from the event codes: 1 when at least ``minimum`` steps carry a code of ``codes``.

    The label depends on how many steps carry such a code, never on where they are or on the code
    numbers' order, which is why an ordinal encoding of the code carries nothing about it.
    """

    name: str
    codes: tuple[int, ...]
    minimum: int

    def __post_init__(self):
        if not isinstance(self.name, str) or not self.name:
            raise ValueError(f"name must be a non-empty string, got {self.name!r}")
        for i, code in enumerate(require_nonempty("codes", self.codes)):
            require_int(f"codes[{i}]", code, minimum=0)
            if code >= CODES:
                raise ValueError(f"codes[{i}] must be below {CODES}, got {code}")
        require_int("minimum", self.minimum, minimum=1)
        if self.minimum > STEPS:
            raise ValueError(f"minimum must be at most {STEPS} (the steps of a sequence), got {self.minimum}")

    def count(self, codes: Sequence[int]) -> int:
        """How many of the steps carry a code of this task's group."""
        return sum(c in self.codes for c in codes)

    def label(self, codes: Sequence[int]) -> int:
        return 1 if self.count(codes) >= self.minimum else 0


SUSPECT = CodeTask("suspect", (1, 4, 5, 9, 13, 16, 20, 22), 5)
"""Lessons 17 and 18 (the target task): eight suspect codes, scattered over the numbering."""
MAINTENANCE = CodeTask("maintenance", (1, 2, 4, 5, 7, 9, 13, 16, 20, 22), 6)
"""Lesson 18's source task: the eight suspect codes and two more; its labels are plentiful."""


@dataclass(frozen=True)
class StepSequence:
    """One subscriber's sequence.

    ``reading`` holds the twelve deviations, ``marker`` the index of the marker step and ``label``
    whether that step's reading exceeds :data:`THRESHOLD`. ``codes`` and ``code_labels`` (task name ->
    label) are filled only when the set was drawn with code tasks, ``raw`` only when asked for.
    """

    reading: list[float]
    marker: int
    label: int
    region: str
    codes: list[int] | None = None
    code_labels: dict[str, int] = field(default_factory=dict)
    raw: list[float] | None = None


def _deviations(draw) -> tuple[str, list[float], int]:
    """Region, the twelve deviations and the marker step, in the order the stream draws them."""
    region = REGIONS[pick(draw(), [r[1] for r in REGIONS])][0]
    reading = [0.0] + [round(centred_sum(draw) * READING_SCALE, 3) for _ in range(STEPS - 1)]
    marker = FIRST_MARKER + int(draw() * (STEPS - FIRST_MARKER))
    return region, reading, marker


def _codes(seed: int) -> list[int]:
    draw = make_generator(seed)
    return [int(draw() * CODES) for _ in range(STEPS)]


def _raw(seed: int, reading: list[float]) -> list[float]:
    """Level + a*sin + b*cos of the step's angle in the year + the deviation, rounded to three decimals."""
    draw = make_generator(seed)
    level = LEVEL + centred_sum(draw) * LEVEL_SCALE
    a = (draw() + draw() - 1.0) * SWING_SCALE
    b = (draw() + draw() - 1.0) * SWING_SCALE
    angle = [2 * math.pi * t / STEPS for t in range(STEPS)]
    return [round(level + a * math.sin(angle[t]) + b * math.cos(angle[t]) + reading[t], 3)
            for t in range(STEPS)]


def step_sequences(seed: int, count: int = SEQUENCES, code_tasks: Sequence[CodeTask] = (),
                   raw: bool = False) -> list[StepSequence]:
    """The first ``count`` sequences of the set drawn from ``seed``, in drawing order.

    With ``code_tasks`` every sequence also gets its event codes and one label per task; with ``raw``
    its raw form. Neither changes the readings, the marker or the label.
    """
    require_seed("seed", seed)
    require_positive_int("count", count)
    code_tasks = list(code_tasks)
    for i, task in enumerate(code_tasks):
        if not isinstance(task, CodeTask):
            raise ValueError(f"code_tasks[{i}] must be a CodeTask, got {task!r}")
    if len({task.name for task in code_tasks}) < len(code_tasks):
        raise ValueError(f"code_tasks must have distinct names, got {[task.name for task in code_tasks]}")
    if not isinstance(raw, bool):
        raise ValueError(f"raw must be True or False, got {raw!r}")
    sequences = []
    for i in range(count):
        region, reading, marker = _deviations(make_generator(seed + i))
        codes = _codes(seed + CODE_SEED_OFFSET + i) if code_tasks else None
        sequences.append(StepSequence(
            reading=reading, marker=marker, label=1 if reading[marker] > THRESHOLD else 0, region=region,
            codes=codes, code_labels={task.name: task.label(codes) for task in code_tasks},
            raw=_raw(seed + RAW_SEED_OFFSET + i, reading) if raw else None))
    return sequences


def split_sequences(sequences: Sequence[StepSequence]) -> Split:
    """Cut the set in drawing order into 360 / 180 / 180 (training / validation / test).

    The draws are independent from sequence to sequence, so no shuffle is needed.
    """
    if len(sequences) < sum(SPLIT_SIZES):
        raise ValueError(f"sequences must hold at least {sum(SPLIT_SIZES)} sequences, got {len(sequences)}")
    n_train, n_validation, n_test = SPLIT_SIZES
    end = n_train + n_validation
    return Split(list(sequences[:n_train]), list(sequences[n_train:end]), list(sequences[end:end + n_test]))


@dataclass(frozen=True)
class GroupDistances:
    """Euclidean distances between the rows an embedding table gives to the codes of a group.

    ``within_group`` pairs two distinct codes of the group, ``within_others`` two distinct codes
    outside it, ``between`` one code of each. A table that separates the group puts its codes closer
    to one another than to the rest: the scale-free :meth:`ratio` is then well above 1.
    """

    within_group: list[float]
    within_others: list[float]
    between: list[float]

    def means(self) -> tuple[float, float, float]:
        return tuple(sum(d) / len(d) for d in (self.within_group, self.within_others, self.between))

    def ratio(self) -> float:
        """Mean distance between the groups over the average of the two within-group means."""
        within_group, within_others, between = self.means()
        return between / ((within_group + within_others) / 2)


def _distance(u: Sequence[float], v: Sequence[float]) -> float:
    return sum((u[i] - v[i]) ** 2 for i in range(len(u))) ** 0.5


def group_distances(table: Sequence[Sequence[float]], codes: Sequence[int]) -> GroupDistances:
    """Distances between the rows of ``table`` (one row per event code) inside and across ``codes``."""
    table = require_nonempty("table", table)
    if len(table) != CODES:
        raise ValueError(f"table must have one row per code ({CODES}), got {len(table)}")
    group = set(require_nonempty("codes", codes))
    if not group <= set(range(CODES)) or len(group) > CODES - 2 or len(group) < 2:
        raise ValueError(f"codes must be at least 2 and at most {CODES - 2} distinct codes below {CODES}, "
                         f"got {codes!r}")
    inside = [c for c in range(CODES) if c in group]
    outside = [c for c in range(CODES) if c not in group]

    def pairs(a, b):
        return [_distance(table[i], table[j]) for i in a for j in b if i != j]

    return GroupDistances(pairs(inside, inside), pairs(outside, outside), pairs(inside, outside))


def positive_rate(labels: Sequence[int]) -> float:
    """Share of labels that are 1."""
    labels = require_nonempty("labels", labels)
    return sum(labels) / len(labels)


def majority_baseline(labels: Sequence[int]) -> float:
    """Accuracy of giving every sequence the most frequent label: max(rate, 1 - rate), as the course does."""
    rate = positive_rate(labels)
    return max(rate, 1 - rate)
