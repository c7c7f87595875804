"""coursekit: the small shared package of *Deep Learning, Measured*.

Every lesson of the book imports from here what two or more lessons share: the self-written random
generator, the fictional data sets, the weight initialization, and the helpers that print tables and
bands. What a lesson *teaches* stays written out in that lesson.

Everything is pure Python on purpose: no numpy, no torch. A reader can hold each module in their head.
"""

SEED = 20260218
"""The seed of the whole course: every data set and every initialization derives from it."""

__all__ = ["SEED"]
