"""coursekit: the small shared package of *Deep Learning, Measured*.

Every lesson of the book imports from here what two or more lessons share; what a lesson *teaches*
stays written out in that lesson (a later lesson reuses it from here). Pure Python on purpose: no
numpy, no torch. A reader can hold each module in their head. The modules:

- **Randomness and data**: `generator` (the course's own random generator, bell-shaped and signed
  draws, shuffles and splits), `subscribers` (the subscriber table, unit 1 and 3), `grids` (the
  coverage grids, lessons 10-12), `readings` (the reading sequences, 13-14), `steps` (the step
  sequences and event codes, 15-19), `references` (the earlier course's models to beat).
- **Networks**: `activations`, `losses`, `initialization`, `network` (full-batch, lessons 1-5),
  `minibatch` (lessons 6-9), `embeddings` (the embedding table, 17-18), `practice` (the hand-written
  network of unit 3), `curves` (training curves grown on demand).
- **Reading results**: `tables` (the printed tables and bands of runs), `noise` (the run-to-run
  spread and the paired test), `claims` (conclusions computed from the numbers), `prose` (numbers
  quoted into the text), `progress`, `registry` (what was quoted, claimed and shown, for a runner
  without IPython).
- **Showing them**: `plots` (figures with their descriptions, and the ``FIGURES`` switch),
  `explorer` (the interactive figures), `checks` (argument checks that name the bad value).

Deliberate differences: pieces that look alike but compute differently on purpose, because each
reproduces the digits of the source lessons that use it (``tests/test_deliberate_differences.py`` fails
if they are unified):

- three sigmoids (`activations.SIGMOIDS`): `activations.sigmoid` (split at zero, never overflows;
  the one lessons 1 and 2 teach), `activations.sigmoid_zero_below` (exactly 0.0 below -30; lessons 10, 11,
  20-24), `activations.sigmoid_clipped` (input clipped to [-30, 30]; lessons 12-19);
- baselines: `subscribers.baseline_accuracy` (the larger class count over the set size),
  `subscribers.not_suspicious_share` (the share of "not suspicious" labels, unit 1's baseline even
  where the other class is larger), `steps.majority_baseline` (``max(rate, 1 - rate)`` in floats, which
  can differ from the count form in the last digit), and the data sets' own ``baseline`` methods
  built on the first;
- two splits of sequences: `readings.split_sequences` shuffles first (seed + 95000) and cuts
  200/100/rest, `steps.split_sequences` cuts in drawing order (the draws are independent already).
"""

import sys
import warnings

if sys.version_info < (3, 12):  # pragma: no cover - the book's own environment is 3.12+
    warnings.warn(
        "coursekit runs on Python %d.%d, but the book's numbers were produced with Python 3.12 or newer, "
        "whose float sum() is compensated: several tables will print other last digits." % sys.version_info[:2],
        RuntimeWarning, stacklevel=2)

SEED = 20260218
"""The seed of the whole course: every data set and every initialization derives from it."""

__all__ = ["SEED"]
