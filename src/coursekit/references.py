"""Numbers carried over from the earlier courses of the series, which this course compares against.

They were measured there, on the same 252-subscriber test set, and are inputs here, not results: a
lesson quotes them through these names, never as literals.
"""

TEST_SET_SIZE = 252

LINEAR_MODEL_HITS = 202
"""Test subscribers classified correctly by the tuned linear model of the Supervised Learning course
(with all 756 training rows); the tuned decision tree reached the same number."""

DECISION_TREE_HITS = 198
"""Test subscribers classified correctly by the untuned decision tree of the Supervised Learning course."""

LINEAR_MODEL = LINEAR_MODEL_HITS / TEST_SET_SIZE
DECISION_TREE = DECISION_TREE_HITS / TEST_SET_SIZE

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
