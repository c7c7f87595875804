"""Training runs that go on only as far as they are asked, remembering what they measured on the way.

Full-batch training has no randomness of its own: 100 epochs and then 100 more end in exactly the weights
of 200 epochs at once. A lesson that needs the same run at several epoch budgets (a table at 100 epochs,
a candidate at 200, an explorer's curve in between) trains it once, through a `GrowingCurve`, and every
cell and every explorer frame reads what it needs from the points measured on the way.
"""

from collections.abc import Callable

from .checks import require_int, require_positive_int


class GrowingCurve:
    """One training run of ``model``, measured at epoch 0, every ``step`` epochs and wherever asked.

    ``advance(model, epochs)`` trains the model ``epochs`` more epochs in place; ``measure(model)``
    returns what the lesson reads (say, train, validation and test accuracy). The run never goes back:
    an epoch can be read once the run has reached it only if it was measured on the way.
    """

    def __init__(self, model, advance: Callable, measure: Callable, step: int = 10):
        if not callable(advance) or not callable(measure):
            raise ValueError("advance and measure must be functions of the model")
        self.model, self.advance, self.measure = model, advance, measure
        self.step = require_positive_int("step", step)
        self.done = 0
        self.points: dict[int, object] = {0: measure(model)}

    def up_to(self, epochs: int) -> list[tuple[int, object]]:
        """The points from epoch 0 to ``epochs`` (every ``step`` epochs, and ``epochs`` itself)."""
        require_int("epochs", epochs, minimum=0)
        for target in [*range(self.step, epochs, self.step), epochs]:
            if target > self.done:
                self.advance(self.model, target - self.done)
                self.done = target
                self.points[target] = self.measure(self.model)
        return sorted((epoch, value) for epoch, value in self.points.items() if epoch <= epochs)

    def growing(self, epochs: int):
        """Train on to ``epochs`` (as `up_to` does), yielding the points so far after every step;
        a run that is already there yields once. For explorers that draw a run while it trains."""
        require_int("epochs", epochs, minimum=0)
        targets = [t for t in [*range(self.step, epochs, self.step), epochs] if t > self.done]
        for target in targets:
            self.up_to(target)
            yield self.up_to(target)
        if not targets:
            yield self.up_to(epochs)

    def at(self, epochs: int):
        """What was measured after ``epochs`` epochs (training on if the run has not got there yet)."""
        self.up_to(epochs)
        if epochs not in self.points:
            raise ValueError(f"epochs {epochs} was passed without being measured (measured: "
                             f"{sorted(self.points)}); ask for it before asking for a later epoch")
        return self.points[epochs]
