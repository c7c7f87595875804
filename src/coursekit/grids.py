"""The fictional coverage grids of lessons 10-12, their split and their baseline.

Each subscriber's service area is divided into a 12 x 12 grid of coverage units. A cell holds 1 when
its unit has a reading above the threshold, 0 otherwise; about 9 % of the cells are active on their
own, as noise. In about 42 % of the grids a **leak trace** is planted: a line of three adjacent cells,
horizontal or vertical, anywhere in the grid. The label says whether a trace was planted (1) or not (0).
Everything is fictional and derives from the course seed through `make_generator`.

The label cannot always be read from the grid: noise cells sometimes line up into three by chance.
The 500 grids are shuffled once (seed + 90000); the first 200 are the training set, the next 100 the
validation set, and the rest (200) the test set, as the source slices them. The baseline is the most
frequent class on the test set.
"""

from collections.abc import Sequence
from dataclasses import dataclass

from .checks import require_int, require_positive_int, require_seed, require_share, require_split_sizes
from .generator import make_generator, shuffled_split
from .subscribers import baseline_accuracy

SIDE = 12
"""Cells per side of a grid."""
DENSITY = 0.09  # chance that a cell is active on its own (noise)
TRACE_RATE = 0.42  # chance that a leak trace is planted
RUN_LENGTH = 3  # cells of a planted trace
GRID_COUNT = 500
SPLIT_SIZES = (200, 100)  # training, validation; the test set is every grid after them
GRID_SEED_OFFSET = 300000
SPLIT_SEED_OFFSET = 90000



def coverage_grid(seed: int, index: int, side: int = SIDE, density: float = DENSITY,
                  trace_rate: float = TRACE_RATE, run_length: int = RUN_LENGTH) -> tuple[list[list[int]], int]:
    """Grid number ``index`` (rows of 0/1 cells) and its label: 1 if a leak trace was planted.

    The grid's own stream (seed + 300000 + index) first fills the cells row by row, then decides
    whether to plant a trace; a planted trace draws its direction, the row (or column) it lies on,
    and the cell it starts from, in that order.
    """
    require_seed("seed", seed)
    require_int("index", index, minimum=0)
    require_positive_int("side", side)
    require_positive_int("run_length", run_length)
    if run_length > side:
        raise ValueError(f"run_length must be at most side ({side}), got {run_length}")
    require_share("density", density)
    require_share("trace_rate", trace_rate)
    draw = make_generator(seed + GRID_SEED_OFFSET + index)
    cells = [[1 if draw() < density else 0 for _ in range(side)] for _ in range(side)]
    planted = 1 if draw() < trace_rate else 0
    if planted:
        horizontal = draw() < 0.5
        line = int(draw() * side)
        start = int(draw() * (side - run_length + 1))
        for k in range(run_length):
            if horizontal:
                cells[line][start + k] = 1
            else:
                cells[start + k][line] = 1
    return cells, planted


def coverage_grids(seed: int, count: int = GRID_COUNT, **shape) -> list[tuple[list[list[int]], int]]:
    """The first ``count`` grids with their labels, in drawing order (``shape``: see `coverage_grid`)."""
    require_positive_int("count", count)
    return [coverage_grid(seed, i, **shape) for i in range(count)]


@dataclass(frozen=True)
class GridSplit:
    """The grids in their shuffled order, and the three sets cut from it. Each item is (grid, label)."""

    shuffled: list
    train: list
    validation: list
    test: list

    @property
    def baseline(self) -> float:
        """Accuracy of always saying the most frequent class of the test set."""
        return baseline_accuracy([label for _, label in self.test])

    @property
    def majority_answer(self) -> int:
        """The baseline's answer for every grid: the most frequent label of the test set (0, "no line",
        when both labels are equally frequent)."""
        planted = sum(label for _, label in self.test)
        return 1 if planted > len(self.test) - planted else 0

    @property
    def baseline_hits(self) -> list[bool]:
        """For every test grid, whether the baseline's answer (`majority_answer`) is its label: the
        baseline as `coursekit.noise.Runs` scores it, row by row (its mean is ``baseline``)."""
        answer = self.majority_answer
        return [label == answer for _, label in self.test]


def split_grids(grids: Sequence, seed: int, sizes: tuple[int, int] = SPLIT_SIZES) -> GridSplit:
    """Shuffle with ``seed + 90000``; the first ``sizes[0]`` grids train, the next ``sizes[1]``
    validate, and every grid after them is the test set."""
    require_seed("seed", seed)
    sizes = require_split_sizes("sizes", sizes)
    return GridSplit(*shuffled_split(grids, seed + SPLIT_SEED_OFFSET, *sizes, name="grids"))


def load_grids(seed: int, count: int = GRID_COUNT, sizes: tuple[int, int] = SPLIT_SIZES) -> GridSplit:
    """Generate ``count`` grids and split them the way lessons 10-12 do."""
    return split_grids(coverage_grids(seed, count), seed, sizes)


def active_cells(grid: Sequence[Sequence[int]]) -> list[tuple[int, int]]:
    """Positions (row, column) of the active cells, row by row.

    The grids are binary and sparse (about 14 active cells of 144), so the lessons' convolutions loop
    over this list instead of over every cell: the sums they compute are the same, only shorter.
    """
    side = len(grid)
    if side == 0 or any(len(row) != side for row in grid):
        raise ValueError(f"grid must be a non-empty square list of rows, got {side} rows")
    return [(i, j) for i in range(side) for j in range(side) if grid[i][j]]
