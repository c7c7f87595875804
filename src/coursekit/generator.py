"""The course's self-written random generator, and the things it is used for: bell-shaped and signed
draws, weighted picks, shuffles, the course's split, and a new order of the training examples for
every epoch.

The generator is deliberately tiny: a seed is mixed into a 32-bit state (the finaliser of MurmurHash3),
then a linear congruential step produces each value. The same seed gives the same stream on every
machine, in every Python version, which is what lets the book print exact numbers.
"""

from collections.abc import Callable, Iterator, Sequence

from .checks import require_int, require_nonempty, require_positive_int, require_seed

MASK32 = 0xFFFFFFFF


def make_generator(seed: int) -> Callable[[], float]:
    """Return a function that draws the next uniform value in [0, 1) of the stream seeded by ``seed``.

    >>> draw = make_generator(20260218)
    >>> round(draw(), 6), round(draw(), 6)
    (0.969539, 0.624135)
    """
    require_seed("seed", seed)
    mixed = ((seed ^ (seed >> 16)) * 2246822507) & MASK32
    mixed = ((mixed ^ (mixed >> 13)) * 3266489909) & MASK32
    state = (mixed ^ (mixed >> 16)) & MASK32

    def draw() -> float:
        nonlocal state
        state = (state * 1664525 + 1013904223) & MASK32
        return state / 4294967296

    return draw


def pick(u: float, weights: Sequence[float]) -> int:
    """Index chosen by the uniform value ``u`` from ``weights`` (which should sum to about 1).

    The cumulative sum is walked left to right; a ``u`` beyond the total falls on the last index.
    """
    weights = require_nonempty("weights", weights)
    if not 0.0 <= u < 1.0:
        raise ValueError(f"u must be a uniform value in [0, 1), got {u!r}")
    total = 0.0
    for index, weight in enumerate(weights):
        total += weight
        if u < total:
            return index
    return len(weights) - 1


def centred_sum(draw: Callable[[], float]) -> float:
    """Three uniform draws summed and centred, ``draw() + draw() + draw() - 1.5``: a bell-shaped value
    in (-1.5, 1.5) with mean 0 and variance 1/4, the course's stand-in for a normal draw. Takes three
    values of the stream, in that order."""
    return draw() + draw() + draw() - 1.5


def signed_uniform(draw: Callable[[], float]) -> float:
    """``draw() * 2 - 1``: one value of the stream spread uniformly over [-1, 1)."""
    return draw() * 2 - 1


def permutation(n: int, seed: int) -> list[int]:
    """The order 0..n-1 shuffled by a Fisher-Yates walk from the back, driven by ``make_generator(seed)``."""
    require_int("n", n, minimum=0)
    draw, order = make_generator(seed), list(range(n))
    for i in range(n - 1, 0, -1):
        j = int(draw() * (i + 1))
        order[i], order[j] = order[j], order[i]
    return order


def epoch_orders(n: int, epochs: int, seed: int) -> Iterator[list[int]]:
    """One shuffled order of the ``n`` training examples per epoch, ``epochs`` orders in all.

    Each order is a Fisher-Yates walk from the back, like `permutation`'s, but all of them are drawn
    from ONE stream, ``make_generator(seed)``: the second epoch's walk goes on where the first one's
    draws stopped, so only the first order equals ``permutation(n, seed)``. The lessons that update
    after every example (10-14) visit their training set in these orders.
    """
    require_int("n", n, minimum=0)
    require_int("epochs", epochs, minimum=0)
    require_seed("seed", seed)
    draw = make_generator(seed)

    def orders():
        for _ in range(epochs):
            order = list(range(n))
            for i in range(n - 1, 0, -1):
                j = int(draw() * (i + 1))
                order[i], order[j] = order[j], order[i]
            yield order

    return orders()


def shuffled_split(items: Sequence, seed: int, train_size: int, validation_size: int,
                   name: str = "items") -> tuple[list, list, list, list]:
    """The course's split: ``items`` in the order of ``permutation(len(items), seed)``, then the first
    ``train_size`` for training, the next ``validation_size`` for validation and all the rest for
    testing (so the test set's size follows the data). Returns (shuffled, train, validation, test).
    """
    require_seed("seed", seed)
    require_positive_int("train_size", train_size)
    require_positive_int("validation_size", validation_size)
    if len(items) <= train_size + validation_size:
        raise ValueError(f"{name} must hold more than the {train_size + validation_size} of training and "
                         f"validation, so that a test set is left; got {len(items)}")
    shuffled = [items[i] for i in permutation(len(items), seed)]
    end = train_size + validation_size
    return shuffled, shuffled[:train_size], shuffled[train_size:end], shuffled[end:]
