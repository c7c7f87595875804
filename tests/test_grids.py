"""Unit tests of coursekit.grids: the coverage grids of lessons 10-12, their split and baseline; and of
coursekit.generator.epoch_orders, the per-epoch shuffles of the lessons that train on them (10-14)."""

import pytest

from coursekit import SEED
from coursekit.generator import epoch_orders, make_generator, permutation
from coursekit.grids import (
    DENSITY,
    GRID_COUNT,
    RUN_LENGTH,
    SIDE,
    SPLIT_SIZES,
    GridSplit,
    active_cells,
    coverage_grid,
    coverage_grids,
    load_grids,
    split_grids,
)


@pytest.fixture(scope="module")
def grids():
    return coverage_grids(SEED)


@pytest.fixture(scope="module")
def split(grids):
    return split_grids(grids, SEED)


def has_line(grid, length=RUN_LENGTH):
    side = len(grid)
    return any(all(grid[i][j + k] for k in range(length)) or all(grid[j + k][i] for k in range(length))
               for i in range(side) for j in range(side - length + 1))


# --- the grids -------------------------------------------------------------------------------------

def test_grids_are_square_binary_and_labelled(grids):
    assert len(grids) == GRID_COUNT
    for grid, label in grids:
        assert len(grid) == SIDE and all(len(row) == SIDE for row in grid)
        assert {v for row in grid for v in row} <= {0, 1}
        assert label in (0, 1)


def test_every_planted_grid_holds_a_line(grids):
    assert all(has_line(grid) for grid, label in grids if label == 1)
    # ... but a line is not proof of a plant: noise lines up by chance in some unlabelled grids
    assert any(has_line(grid) for grid, label in grids if label == 0)


def test_draw_order_cells_first_then_the_trace():
    """The grid's own stream fills the cells row by row; the planted cells only ever add ones."""
    for index in range(40):
        grid, label = coverage_grid(SEED, index)
        draw = make_generator(SEED + 300000 + index)
        noise = [[1 if draw() < DENSITY else 0 for _ in range(SIDE)] for _ in range(SIDE)]
        added = [(i, j) for i in range(SIDE) for j in range(SIDE) if grid[i][j] != noise[i][j]]
        assert all(grid[i][j] == 1 for i, j in added)
        if label == 0:
            assert added == []
        else:
            assert len(added) <= RUN_LENGTH


def test_rates_are_near_the_generator_settings(grids):
    active = sum(v for grid, _ in grids for row in grid for v in row) / (len(grids) * SIDE * SIDE)
    planted = sum(label for _, label in grids) / len(grids)
    assert 0.08 < active < 0.11  # 9 % noise plus up to three planted cells
    assert 0.36 < planted < 0.48  # 42 % planted


def test_grids_are_a_pure_function_of_the_seed(grids):
    assert coverage_grids(SEED, count=20) == grids[:20]
    assert coverage_grids(7, count=20) != grids[:20]


def test_shape_parameters_change_the_grid():
    small, _ = coverage_grid(SEED, 0, side=8)
    assert len(small) == 8 and all(len(row) == 8 for row in small)
    _, always = coverage_grid(SEED, 0, trace_rate=1.0)
    _, never = coverage_grid(SEED, 0, trace_rate=0.0)
    assert (always, never) == (1, 0)


# --- the split and the baseline --------------------------------------------------------------------

def test_split_sizes_and_that_the_sets_partition_the_grids(grids, split):
    assert (len(split.train), len(split.validation)) == SPLIT_SIZES
    assert len(split.test) == GRID_COUNT - sum(SPLIT_SIZES) == 200
    assert split.shuffled == split.train + split.validation + split.test
    assert sorted(map(id, split.shuffled)) == sorted(map(id, grids))
    assert split.shuffled != list(grids)


def test_the_test_set_is_every_grid_after_training_and_validation():
    """As the source slices it (DATA[300:]): fewer grids leave a smaller test set, never a gap."""
    grids = coverage_grids(SEED, count=340)
    split = split_grids(grids, SEED)
    assert len(split.test) == 40
    assert split.test == split.shuffled[300:]
    assert len(split_grids(grids, SEED, sizes=(100, 50)).test) == 190


def test_baseline_is_the_most_frequent_class_of_the_test_set(split):
    planted = sum(label for _, label in split.test)
    assert split.baseline == max(planted, len(split.test) - planted) / len(split.test)
    assert split.baseline >= 0.5


def test_baseline_hits_score_the_majority_answer_grid_by_grid(split):
    hits = split.baseline_hits
    assert len(hits) == len(split.test)
    assert sum(hits) / len(hits) == split.baseline
    assert all(hit == (label == split.majority_answer) for hit, (_, label) in zip(hits, split.test))


def test_the_majority_answer_is_the_more_frequent_label_and_no_line_on_a_tie():
    grid = [[0]]
    def split_of(labels):
        return GridSplit([], [], [], [(grid, label) for label in labels])
    assert split_of([1, 1, 0]).majority_answer == 1
    assert split_of([1, 0, 0]).majority_answer == 0
    assert split_of([1, 0]).majority_answer == 0 and split_of([1, 0]).baseline_hits == [False, True]


@pytest.mark.parametrize("made", [lambda grids: split_grids(grids, SEED), lambda grids: load_grids(SEED)],
                         ids=["split_grids", "load_grids"])
def test_course_seed_gives_the_sources_facts(grids, made):
    """The source printed these for seed 20260218: mean active cells 13.96 and baseline 0.5850; the
    lessons' one-call loader gives them too."""
    split = made(grids)
    assert f"{sum(sum(map(sum, g)) for g, _ in split.shuffled) / len(split.shuffled):.2f}" == "13.96"
    assert split.baseline == 117 / 200 and len(split.test) == 200


# --- active cells ----------------------------------------------------------------------------------

def test_active_cells_lists_the_ones_row_by_row():
    grid = [[0, 1, 0], [0, 0, 0], [1, 0, 1]]
    assert active_cells(grid) == [(0, 1), (2, 0), (2, 2)]
    assert active_cells([[0] * 4 for _ in range(4)]) == []


# --- argument checks -------------------------------------------------------------------------------

@pytest.mark.parametrize("call, name", [
    (lambda: coverage_grid(-1, 0), "seed"),
    (lambda: coverage_grid(SEED, 1.5), "index"),
    (lambda: coverage_grid(SEED, 0, side=0), "side"),
    (lambda: coverage_grid(SEED, 0, run_length=13), "run_length"),
    (lambda: coverage_grid(SEED, 0, density=1.5), "density"),
    (lambda: coverage_grid(SEED, 0, trace_rate="high"), "trace_rate"),
    (lambda: coverage_grids(SEED, count=0), "count"),
    (lambda: split_grids([], "seed"), "seed"),
    (lambda: split_grids(coverage_grids(SEED, count=10), SEED), "grids"),
    (lambda: split_grids(coverage_grids(SEED, count=300), SEED), "grids"),  # no test set left
    (lambda: split_grids([], SEED, sizes=(200, 100, 200)), "sizes"),
    (lambda: split_grids([], SEED, sizes=(1, 0)), "sizes"),
    (lambda: load_grids(SEED, count=-5), "count"),
    (lambda: active_cells([[0, 1], [1]]), "grid"),
    (lambda: active_cells([]), "grid"),
])
def test_bad_arguments_raise_a_value_error_naming_them(call, name):
    with pytest.raises(ValueError) as raised:
        call()
    assert str(raised.value).startswith(name)


# --- epoch orders (coursekit.generator) --------------------------------------------------------------

def test_epoch_orders_are_one_stream_of_fisher_yates_walks():
    """Every epoch's order is a permutation of the examples, drawn from one stream that goes on from
    epoch to epoch: only the first order is `permutation(n, seed)`, the second continues the draws."""
    orders = list(epoch_orders(200, 3, SEED + 511))
    assert len(orders) == 3
    assert all(sorted(order) == list(range(200)) for order in orders)
    assert orders[0] == permutation(200, SEED + 511)
    assert orders[1] != orders[0] and orders[2] != orders[1]
    draw, expected = make_generator(SEED + 511), []
    for _ in range(3):
        order = list(range(200))
        for i in range(199, 0, -1):
            j = int(draw() * (i + 1))
            order[i], order[j] = order[j], order[i]
        expected.append(order)
    assert orders == expected
    assert list(epoch_orders(200, 3, SEED + 511)) == orders  # a pure function of the seed
    assert list(epoch_orders(200, 0, SEED)) == [] and list(epoch_orders(0, 2, SEED)) == [[], []]


@pytest.mark.parametrize("call, name", [
    (lambda: epoch_orders(-1, 3, SEED), "n"),
    (lambda: epoch_orders(10, 2.5, SEED), "epochs"),
    (lambda: epoch_orders(10, 3, -4), "seed"),
])
def test_epoch_orders_check_their_arguments_before_any_draw(call, name):
    with pytest.raises(ValueError) as raised:
        call()  # no iteration: the check must not wait for the first order
    assert str(raised.value).startswith(name)
