"""Numbers carried over from the earlier courses of the series, which this course compares against.

They were measured there, on the course seed's test set, and are inputs here, not results: a lesson
quotes them through these names, never as literals. The comparison lines of lessons 6-9 and 20 are hit
counts divided by the size of the test set the lesson's seed produced, as the course computes them, so
with another seed they move with the test set (`linear_model`, `decision_tree`).
"""

import functools

from .checks import require_positive_int, require_seed

LINEAR_MODEL_HITS = 202
"""Test subscribers classified correctly by the tuned linear model of the Supervised Learning course
(with all 756 training rows); the tuned decision tree reached the same number."""

DECISION_TREE_HITS = 198
"""Test subscribers classified correctly by the untuned decision tree of the Supervised Learning course."""

REPORTED_LINEAR_MODEL = 0.8016
"""The linear model's test accuracy with all 756 training rows as the Supervised Learning course reported
it (four decimals): lesson 1 measures the cost of the reduced training set against this figure."""


def linear_model(test_size: int) -> float:
    """The linear model's comparison line on a test set of ``test_size`` rows: its hits / the size."""
    return LINEAR_MODEL_HITS / require_positive_int("test_size", test_size)


LINEAR_MODEL_RATE, LINEAR_MODEL_EPOCHS = 0.1, 100
"""The setting with which a single-layer network, started at zero on all 756 training rows, is the
Supervised Learning course's logistic regression (lesson 1 shows it: with the course seed it reaches
exactly `LINEAR_MODEL_HITS`)."""


@functools.cache
def linear_model_hits(seed: int) -> tuple[bool, ...]:
    """The linear model *measured on this seed's test set*: a single-layer network (logistic regression)
    started at zero and trained on all 756 training rows (`LINEAR_MODEL_RATE`, `LINEAR_MODEL_EPOCHS`),
    with each test row's hit, in the test set's order. With the course seed it gets `LINEAR_MODEL_HITS`
    rows right; with another seed it is that seed's own linear model, so that a network can be compared
    with it row by row (`coursekit.noise.Comparison`), which the reported hit counts never allow.
    Computed once per seed (about half a second).
    """
    from .network import hits, train
    from .subscribers import load_subscribers

    data = load_subscribers(require_seed("seed", seed), scale_on="full")
    X, Y = data.full_train
    net = train([([[0.0] * len(data.fields)], [0.0])], X, Y, LINEAR_MODEL_RATE, LINEAR_MODEL_EPOCHS)
    return tuple(hits(net, *data.test))


def decision_tree(test_size: int) -> float:
    """The untuned decision tree's comparison line on a test set of ``test_size`` rows."""
    return DECISION_TREE_HITS / require_positive_int("test_size", test_size)

SCALING_GAIN = 0.0437
"""Test accuracy that scaling the columns added to a gradient-based model in the Data Preparation and
Feature Engineering course (assumption NN3 of this course)."""

REGRESSION_FITS = (0.4770, 0.4751)
"""Explained variance of the two fits of the Regression Metrics lesson of the Supervised Learning course
(quoted in lesson 4, assumption NN26)."""

PENALTY_SWEEP = (0.001, 1000)
"""Smallest and largest penalty coefficient of the Regularization Intuition lesson of the Introduction to
Machine Learning course (quoted in lesson 8)..."""

WEIGHT_SIZE_OVER_SWEEP = (10.040, 0.601)
"""...and the size of the weights it measured at those two ends."""

PIPELINE_INFLATION = (0.0397, 0.0476)
"""Range of the inflation that learning a transformation from the whole set produced in the pipelines
lesson of the Data Preparation and Feature Engineering course (quoted in lesson 9)."""

PREPARATION_NOTEBOOK_ITEMS = 39
"""Decisions the Data Collection and Preparation course wrote down for its preparation notebook, each
an item a run must pin to be repeated (lesson 23 adds the training's own items to them)."""

WORKING_ENVIRONMENT_ITEMS = 9
"""Items of the working environment that the Data Analysis with Python course counted as needed to
repeat an analysis (quoted in lesson 23)."""

REPORT_ITEMS = 11
"""Items the Visualization, Reporting and Analysis at Scale course counted for the report itself
(quoted in lesson 23)."""
