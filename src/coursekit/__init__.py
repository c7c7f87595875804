"""coursekit: the small shared package of *Deep Learning, Measured*.

Every lesson of the book imports from here what two or more lessons share: the self-written random
generator, the fictional data sets, the weight initialization, and the helpers that print tables and
bands. What a lesson *teaches* stays written out in that lesson.

Everything is pure Python on purpose: no numpy, no torch. A reader can hold each module in their head.
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
