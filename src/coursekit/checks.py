"""Argument checks shared by coursekit's public functions and by the lessons' parameter cells.

Each check raises ``ValueError`` with a message that names the offending argument, so that a reader who
sets ``SEED = "abc"`` in a lesson's parameters cell learns at once which knob is wrong.
"""

from collections.abc import Iterable


def _is_int(value) -> bool:
    # bool is a subclass of int, but True is not a sensible seed or epoch count.
    return isinstance(value, int) and not isinstance(value, bool)


def require_int(name: str, value, minimum: int | None = None) -> int:
    """Return ``value`` if it is an int (and at least ``minimum``), else raise ValueError naming ``name``."""
    if not _is_int(value):
        raise ValueError(f"{name} must be an integer, got {value!r} ({type(value).__name__})")
    if minimum is not None and value < minimum:
        raise ValueError(f"{name} must be at least {minimum}, got {value!r}")
    return value


def require_positive_int(name: str, value) -> int:
    """Return ``value`` if it is an int greater than zero, else raise ValueError naming ``name``."""
    return require_int(name, value, minimum=1)


def require_seed(name: str, value) -> int:
    """A seed is a non-negative int: the generator mixes its bits, so a float or a string makes no sense."""
    return require_int(name, value, minimum=0)


def require_bool(name: str, value) -> bool:
    """Return ``value`` if it is True or False (a switch), else raise ValueError naming ``name``."""
    if not isinstance(value, bool):
        raise ValueError(f"{name} must be True or False, got {value!r} ({type(value).__name__})")
    return value


def require_int_up_to(name: str, value, limit: int, limit_name: str) -> int:
    """An int from 1 to ``limit``, another parameter named ``limit_name`` in the message (a batch size
    is at most the training set's size, ``TRAIN_ROWS``).

    >>> require_int_up_to("BATCH_SIZE", 301, 300, "TRAIN_ROWS")
    Traceback (most recent call last):
    ValueError: BATCH_SIZE must be at most TRAIN_ROWS (300), got 301
    """
    require_int(name, value, minimum=1)
    if value > limit:
        raise ValueError(f"{name} must be at most {limit_name} ({limit}), got {value}")
    return value


def require_positive_number(name: str, value) -> float:
    """Return ``value`` if it is a real number greater than zero (a learning rate, say)."""
    if _is_int(value) or isinstance(value, float):
        if value > 0:
            return value
        raise ValueError(f"{name} must be greater than zero, got {value!r}")
    raise ValueError(f"{name} must be a number, got {value!r} ({type(value).__name__})")


def require_share(name: str, value) -> float:
    """A share (of cells, of grids, a probability): a real number from 0 to 1."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 <= value <= 1.0:
        raise ValueError(f"{name} must be a number from 0 to 1, got {value!r}")
    return value


def require_choice(name: str, value, choices: Iterable):
    """Return ``value`` if it is one of ``choices``, else raise ValueError listing the valid ones."""
    options = list(choices)
    if value not in options:
        listed = ", ".join(repr(c) for c in options)
        raise ValueError(f"{name} must be one of {listed}; got {value!r}")
    return value


def require_sizes(name: str, sizes) -> list[int]:
    """Layer sizes of a network: a list of at least two positive ints, inputs first, outputs last."""
    if not isinstance(sizes, (list, tuple)) or len(sizes) < 2:
        raise ValueError(f"{name} must list at least two layer sizes (inputs, ..., outputs), got {sizes!r}")
    for i, size in enumerate(sizes):
        require_positive_int(f"{name}[{i}]", size)
    return list(sizes)


def require_nonempty(name: str, values) -> list:
    """Return ``values`` as a list if it holds at least one element."""
    items = list(values)
    if not items:
        raise ValueError(f"{name} must not be empty")
    return items


def require_each(name: str, values, check, *args, **kwargs) -> list:
    """``values`` as a list, at least one, each passing ``check(f"{name}[i]", value, *args, **kwargs)``:
    a tuple parameter such as ``RATES = (0.1, 0.3)`` checked element by element, the bad one named by
    its index.

    >>> require_each("RATES", (0.1, -0.3), require_positive_number)
    Traceback (most recent call last):
    ValueError: RATES[1] must be greater than zero, got -0.3
    """
    items = require_nonempty(name, values)
    for i, value in enumerate(items):
        check(f"{name}[{i}]", value, *args, **kwargs)
    return items


def require_split_sizes(name: str, sizes) -> tuple[int, int]:
    """The sizes of a training and a validation set (the test set is the rest): two positive ints."""
    if not isinstance(sizes, (tuple, list)) or len(sizes) != 2:
        raise ValueError(f"{name} must hold two set sizes (training, validation; the test set is the "
                         f"rest), got {sizes!r}")
    for part, size in zip(("training", "validation"), sizes):
        require_positive_int(f"{name} ({part})", size)
    return tuple(sizes)


def at_least(minimum: int):
    """A check for `require_parameters`: an int of at least ``minimum`` (``RUNS=at_least(2)``)."""
    require_int("minimum", minimum)
    return lambda name, value: require_int(name, value, minimum=minimum)


def each(check, *args, **kwargs):
    """A check for `require_parameters`: a tuple whose every element passes ``check`` (`require_each`)."""
    if not callable(check):
        raise ValueError(f"check must be a function (name, value), got {check!r}")
    return lambda name, values: require_each(name, values, check, *args, **kwargs)


def one_of(*choices):
    """A check for `require_parameters`: one of ``choices`` (`require_choice`)."""
    if not choices:
        raise ValueError("choices: give at least one")
    return lambda name, value: require_choice(name, value, choices)


def require_parameters(namespace, **checks) -> None:
    """Check a lesson's parameters in one call, before any work is done: each keyword names a parameter
    of ``namespace`` (the lesson's ``globals()``) and gives its check, a function ``(name, value)`` that
    raises ValueError naming a bad value (`require_int`, `require_seed`, ``at_least(2)``,
    ``each(require_positive_number)``...).

    >>> RATE, RUNS = 0.3, 1
    >>> require_parameters({"RATE": RATE, "RUNS": RUNS}, RATE=require_positive_number, RUNS=at_least(2))
    Traceback (most recent call last):
    ValueError: RUNS must be at least 2, got 1
    """
    if not checks:
        raise ValueError("checks: name at least one parameter and its check")
    for name, check in checks.items():
        if name not in namespace:
            raise ValueError(f"{name}: no such parameter in this lesson")
        if not callable(check):
            raise ValueError(f"{name}: its check must be a function (name, value), got {check!r}")
        check(name, namespace[name])
