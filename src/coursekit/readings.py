"""The fictional reading sequences of lessons 13-14, their split and their per-length baseline; and
the plain recurrent network that lesson 13 teaches and lesson 14 compares with the gated unit; and the
measurements both lessons take of a network on them (the marker's trace in the state, the accuracy, the
sequences an explorer shows).

Each of 500 subscribers gets twelve monthly meter readings in m³, drawn around a personal typical
level. In about half of them the first reading is **zero**: the meter was replaced. That zero is the
**marker**; no other period can be zero, so the marker is unique and sits at the start.

The label joins two conditions: the marker is present **and** the last period read lies above the
tariff tier of 25 m³. A network reading the sequence step by step must therefore carry the marker
from the first step to the last. Cutting a sequence to its first ``length`` periods moves the "last
period", so the label, and with it the baseline, depends on the length.

The sequences are shuffled once (seed + 95000); the first 200 are the training set, the next 100 the
validation set, and the rest (200) the test set, as the source slices them. Everything is fictional and
derives from the course seed through `make_generator`.
"""

import math
from collections.abc import Sequence
from dataclasses import dataclass
from operator import mul

from .activations import sigmoid_clipped
from .checks import (
    require_int,
    require_nonempty,
    require_positive_int,
    require_positive_number,
    require_seed,
    require_split_sizes,
)
from .generator import centred_sum, epoch_orders, make_generator, shuffled_split, signed_uniform
from .subscribers import baseline_accuracy

LENGTH = 12
"""Periods of a full sequence."""
TIER = 25.0  # m³: the tariff tier the last period is compared with
SCALE = 40.0  # m³: readings are divided by it to make a network input
MARKER_RATE = 0.5  # share of meters replaced, i.e. of sequences starting with a zero reading
SEQUENCE_COUNT = 500
SPLIT_SIZES = (200, 100)  # training, validation; the test set is every sequence after them
SEQUENCE_SEED_OFFSET = 400000
SPLIT_SEED_OFFSET = 95000


def reading_sequence(seed: int, index: int, length: int = LENGTH) -> list[float]:
    """The ``length`` readings (m³, two decimals) of subscriber ``index``.

    The subscriber's own stream (seed + 400000 + index) first draws a typical level from 23 to 31 m³,
    then one log-normal-looking factor per period, and last whether the meter was replaced.
    """
    require_seed("seed", seed)
    require_int("index", index, minimum=0)
    require_positive_int("length", length)
    draw = make_generator(seed + SEQUENCE_SEED_OFFSET + index)
    typical = 23.0 + 8.0 * draw()
    readings = [math.floor(typical * math.exp(centred_sum(draw) * 0.62) * 100 + 0.5) / 100
                for _ in range(length)]
    if draw() < MARKER_RATE:
        readings[0] = 0.0  # the marker
    return readings


def reading_sequences(seed: int, count: int = SEQUENCE_COUNT, length: int = LENGTH) -> list[list[float]]:
    """The first ``count`` subscribers' sequences, in drawing order."""
    require_positive_int("count", count)
    return [reading_sequence(seed, i, length) for i in range(count)]


@dataclass(frozen=True)
class SequenceSplit:
    """The sequences in their shuffled order, and the three sets cut from it."""

    shuffled: list
    train: list
    validation: list
    test: list

    def baseline(self, length: int) -> float:
        """Most frequent class on the test set, for sequences cut to ``length`` periods."""
        return baseline_at(self.test, length)


def split_sequences(sequences: Sequence, seed: int, sizes: tuple[int, int] = SPLIT_SIZES) -> SequenceSplit:
    """Shuffle with ``seed + 95000``; the first ``sizes[0]`` sequences train, the next ``sizes[1]``
    validate, and every sequence after them is the test set."""
    require_seed("seed", seed)
    sizes = require_split_sizes("sizes", sizes)
    return SequenceSplit(*shuffled_split(sequences, seed + SPLIT_SEED_OFFSET, *sizes, name="sequences"))


def load_readings(seed: int, count: int = SEQUENCE_COUNT,
                  sizes: tuple[int, int] = SPLIT_SIZES) -> SequenceSplit:
    """Generate ``count`` sequences and split them the way lessons 13-14 do."""
    return split_sequences(reading_sequences(seed, count), seed, sizes)


def has_marker(readings: Sequence[float]) -> bool:
    """Whether the meter was replaced: the first reading is zero."""
    return readings[0] == 0.0


def require_measured_length(name: str, value) -> int:
    """A length the lessons measure: an int from 2 (a marker pair needs a second period) to `LENGTH`."""
    require_int(name, value, minimum=2)
    if value > LENGTH:
        raise ValueError(f"{name} must be at most {LENGTH}, the periods of a sequence; got {value}")
    return value


def example_index(sequences: Sequence[Sequence[float]]) -> int:
    """The first of ``sequences`` with the marker and a last period above the tier: label 1 in full."""
    for index, readings in enumerate(sequences):
        if has_marker(readings) and readings[LENGTH - 1] > TIER:
            return index
    raise ValueError("sequences must hold one with the marker and a last period above the tier")


def _require_length(readings: Sequence[float], length) -> None:
    require_positive_int("length", length)
    if length > len(readings):
        raise ValueError(f"length must be at most the {len(readings)} periods of the sequence, got {length}")


def first_periods(readings: Sequence[float], length: int) -> tuple[list[list[float]], int]:
    """The network's view of the first ``length`` periods, and the label at that length.

    Each step is two numbers: the reading divided by 40 m³, and 1.0 if the reading is zero (the
    marker) else 0.0. The label is 1 when the marker is present and period ``length`` lies above the
    tier.
    """
    _require_length(readings, length)
    steps = [[v / SCALE, 1.0 if v == 0.0 else 0.0] for v in readings[:length]]
    return steps, 1 if (readings[0] == 0.0 and readings[length - 1] > TIER) else 0


def baseline_at(sequences: Sequence[Sequence[float]], length: int) -> float:
    """Accuracy of always saying the most frequent label of ``sequences`` cut to ``length`` periods."""
    if not sequences:
        raise ValueError("sequences must not be empty")
    return baseline_accuracy([first_periods(readings, length)[1] for readings in sequences])


def baseline_hits(sequences: Sequence[Sequence[float]], length: int) -> list[bool]:
    """For every sequence cut to ``length`` periods, whether always saying the most frequent label is
    right: the baseline as `coursekit.noise.Runs` scores it, row by row (its mean is `baseline_at`; on a
    tie the baseline says 0, which scores the same half).

    >>> baseline_hits([[0.0, 30.0], [0.0, 20.0], [5.0, 30.0]], 2)
    [False, True, True]
    """
    if not sequences:
        raise ValueError("sequences must not be empty")
    labels = [first_periods(readings, length)[1] for readings in sequences]
    majority = 1 if 2 * sum(labels) > len(labels) else 0
    return [label == majority for label in labels]


def marker_pair(readings: Sequence[float], length: int) -> tuple[list[list[float]], list[list[float]]]:
    """The same first ``length`` steps twice, differing only in step one: marked, then unmarked.

    The marked copy starts with a zero reading and its indicator; the unmarked copy starts with the
    second period's reading instead, so both first steps look like real readings of this meter.
    """
    if len(readings) < 2:
        raise ValueError(f"readings must hold at least two periods, got {len(readings)}")
    steps, _ = first_periods(readings, length)
    marked, unmarked = [step[:] for step in steps], [step[:] for step in steps]
    marked[0] = [0.0, 1.0]
    unmarked[0] = [readings[1] / SCALE, 0.0]
    return marked, unmarked


# --- the plain recurrent network (taught in lesson 13, compared in lesson 14) -------------------------

HIDDEN = 6
"""Hidden units of the course's plain recurrent network."""


def plain_network(seed: int, hidden: int = HIDDEN) -> dict:
    """The plain recurrent network of lesson 13, from the stream ``make_generator(seed)``.

    Drawn in this order: the input weights (two per unit, uniform in +-sqrt(1/2)), the recurrent
    weights (``hidden`` per unit, uniform in +-sqrt(1/hidden)), then the head's weights (same range);
    the biases and the head's bias start at zero.
    """
    require_seed("seed", seed)
    require_positive_int("hidden", hidden)
    draw = make_generator(seed)
    input_scale, state_scale = (1 / 2) ** 0.5, (1 / hidden) ** 0.5
    return {"input": [[signed_uniform(draw) * input_scale for _ in range(2)] for _ in range(hidden)],
            "recurrent": [[signed_uniform(draw) * state_scale for _ in range(hidden)] for _ in range(hidden)],
            "bias": [0.0] * hidden,
            "head": [signed_uniform(draw) * state_scale for _ in range(hidden)], "head_bias": [0.0]}


def plain_parameters(hidden: int = HIDDEN) -> int:
    """Input weights (2 per unit), recurrent weights, biases, head weights and the head's bias."""
    require_positive_int("hidden", hidden)
    return hidden * 2 + hidden * hidden + hidden + hidden + 1


def tanh_nudged(x: float) -> float:
    """``math.tanh(x)`` moved up by one unit in the last place (`math.nextafter`): the smallest change
    another machine's C library could make to it. A training run whose result moves when it is trained
    again with this tangent (``tanh=tanh_nudged``) is chaotic; one that stays put may still move under
    another change of a last bit."""
    return math.nextafter(math.tanh(x), math.inf)


def plain_forward(net: dict, steps: Sequence[Sequence[float]],
                  tanh=math.tanh) -> tuple[float, list[list[float]]]:
    """h_t = tanh(b + W_in x_t + W_rec h_(t-1)) from h_0 = 0; the output reads the last state.

    Returns the probability (a sigmoid of the head's sum, clipped to +-30) and the states h_1 .. h_T.
    ``tanh`` is the hyperbolic tangent used (`tanh_nudged` to test a training run for chaos).
    """
    steps = require_nonempty("steps", steps)
    w_in, w_rec, bias = net["input"], net["recurrent"], net["bias"]
    hidden = len(bias)
    state, states = [0.0] * hidden, []
    for x in steps:
        state = [tanh(bias[k] + w_in[k][0] * x[0] + w_in[k][1] * x[1] + sum(map(mul, w_rec[k], state)))
                 for k in range(hidden)]
        states.append(state)
    z = net["head_bias"][0] + sum(map(mul, net["head"], state))
    return sigmoid_clipped(z), states


def train_plain(net: dict, data: Sequence, epochs: int, rate: float, seed: int, tanh=math.tanh) -> dict:
    """Train ``net`` in place on ``data`` (pairs of steps and label) as lesson 13 does.

    Cross-entropy, one example at a time in the orders of `epoch_orders(len(data), epochs, seed)`,
    backpropagation through time written out: the head steps first, then the walk back in time, where
    every weight is stepped as soon as its gradient at step t is known (so earlier steps pass the error
    back through recurrent weights the later steps have already moved). ``tanh`` is the hyperbolic
    tangent of the forward passes (`plain_forward`).
    """
    data = require_nonempty("data", data)
    require_int("epochs", epochs, minimum=0)
    require_positive_number("rate", rate)
    w_in, w_rec, bias = net["input"], net["recurrent"], net["bias"]
    head, head_bias = net["head"], net["head_bias"]
    hidden = len(bias)
    for order in epoch_orders(len(data), epochs, seed):
        for index in order:
            steps, label = data[index]
            probability, states = plain_forward(net, steps, tanh)
            error = probability - label
            grad_state = [error * head[k] for k in range(hidden)]
            for k in range(hidden):
                head[k] -= rate * error * states[-1][k]
            head_bias[0] -= rate * error
            for t in range(len(steps) - 1, -1, -1):
                before = states[t - 1] if t > 0 else [0.0] * hidden
                passed = [0.0] * hidden
                for k in range(hidden):
                    g = grad_state[k] * (1 - states[t][k] ** 2)  # through tanh
                    step = rate * g
                    bias[k] -= step
                    w_in[k][0] -= step * steps[t][0]
                    w_in[k][1] -= step * steps[t][1]
                    row = w_rec[k]
                    passed = [p + g * w for p, w in zip(passed, row)]  # the weight before its step
                    row[:] = [w - step * b for w, b in zip(row, before)]
                grad_state = passed
    return net


# --- measurements of a network on the sequences (taught in lesson 13, reused in lesson 14) -------------

def _require_pairs(marked: Sequence, unmarked: Sequence) -> None:
    require_nonempty("marked", marked)
    if len(unmarked) != len(marked):
        raise ValueError(f"unmarked must hold as many state paths as marked ({len(marked)}), "
                         f"got {len(unmarked)}")


def state_difference(marked: Sequence, unmarked: Sequence, length: int) -> float:
    """D_T of lesson 13: the mean over the sequences of |h_T(marked) - h_T(unmarked)|, summed over units.

    ``marked`` and ``unmarked`` hold one state path h_1 .. h_n per sequence, from the marked and the
    unmarked copy (`marker_pair`); T is ``length``, at most the paths' length.
    """
    _require_pairs(marked, unmarked)
    require_positive_int("length", length)
    if length > len(marked[0]):
        raise ValueError(f"length must be at most the {len(marked[0])} steps of the paths, got {length}")
    total = 0.0
    for a, b in zip(marked, unmarked):
        total += sum(abs(one - other) for one, other in zip(a[length - 1], b[length - 1]))
    return total / len(marked)


def step_differences(marked: Sequence, unmarked: Sequence) -> list[float]:
    """One sequence's |h_t(marked) - h_t(unmarked)|, summed over the units, at every step t = 1 .. n."""
    _require_pairs(marked, unmarked)
    return [sum(abs(one - other) for one, other in zip(a, b)) for a, b in zip(marked, unmarked)]


def hits(net: dict, forward, data: Sequence) -> list[bool]:
    """For every pair of steps and label in ``data``, whether the probability ``forward(net, steps)[0]``
    falls on the side of 0.5 of its label."""
    data = require_nonempty("data", data)
    return [(forward(net, steps)[0] >= 0.5) == (label == 1) for steps, label in data]


def accuracy(net: dict, forward, data: Sequence) -> float:
    """Share of ``data`` (pairs of steps and label) whose probability ``forward(net, steps)[0]`` falls on
    the side of 0.5 of their label."""
    return sum(hits(net, forward, data)) / len(data)


def shown_sequences(example: int, kept: Sequence[float]) -> list[int]:
    """The sequences an explorer draws on the page: ``example``, then those whose ``kept`` (one value
    per sequence, say the difference left after the last step) is the smallest, the median and the
    largest; where two coincide (another seed), the lowest other indices fill up to four."""
    kept = require_nonempty("kept", kept)
    require_int("example", example, minimum=0)
    if example >= len(kept):
        raise ValueError(f"example must index one of the {len(kept)} sequences, got {example}")
    ranked = sorted(range(len(kept)), key=kept.__getitem__)
    frames = [example]
    for index in (ranked[0], ranked[len(ranked) // 2], ranked[-1]):
        if index not in frames:
            frames.append(index)
    for index in range(len(kept)):
        if len(frames) < 4 and index not in frames:
            frames.append(index)
    return frames
