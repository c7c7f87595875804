"""Progress of the slow cells: one line in JupyterLab, nothing on stdout, nothing on the HTML page.

A lesson's stdout carries only its tables (the tests compare it with the expected tables), so progress
is a separate *display* output: one line ("runs: 3 of 5, 4.2 s") that is updated in place while the
loop runs and emptied when it ends. An empty output renders as nothing, both in JupyterLab and in the
HTML book, and the executed notebook keeps no trace of the bar but an empty output.

Outside IPython the line goes to the listener of `coursekit.registry` instead, if one is set (the
page's in-browser run shows it beside its "cell k of n"), at most a few times a second.

The line is displayed when `progress` is called, so call it *before* the cell prints its table: then
the line sits above the table instead of splitting it in two.
"""

import time
from collections.abc import Iterable
from itertools import count

from . import registry
from .checks import require_int

_display_ids = count(1)
REPORT_EVERY = 0.25
"""Seconds between two lines passed to the registry's listener (outside IPython)."""


class progress:
    """Iterate over ``iterable`` while a line labelled ``description`` counts the steps done.

    ``total`` defaults to ``len(iterable)`` where the iterable has one. Outside IPython (a script, a
    test) it is a plain iteration that shows nothing, and reports its line to the listener of
    `coursekit.registry` when one is set.
    """

    def __init__(self, iterable: Iterable, description: str, total: int | None = None):
        if not isinstance(description, str) or not description:
            raise ValueError(f"description must be a non-empty string, got {description!r}")
        if total is None and hasattr(iterable, "__len__"):
            total = len(iterable)
        self.total = None if total is None else require_int("total", total, minimum=0)
        self.iterable, self.description = iterable, description
        self.done, self.started = 0, time.perf_counter()
        self._reported = self.started
        self._handle = self._show(display_id=f"coursekit-progress-{next(_display_ids)}")

    def _line(self) -> str:
        of = f" of {self.total}" if self.total is not None else ""
        return f"{self.description}: {self.done}{of}, {time.perf_counter() - self.started:.1f} s"

    def _show(self, display_id: str):
        if registry.ipython_shell() is None:
            registry.report_progress(self._line())
            return None
        from IPython.display import display

        return display({"text/plain": self._line()}, raw=True, display_id=display_id)

    def _update(self) -> None:
        if self._handle is not None:
            self._handle.update({"text/plain": self._line()}, raw=True)
        elif time.perf_counter() - self._reported >= REPORT_EVERY:
            self._reported = time.perf_counter()
            registry.report_progress(self._line())

    def __iter__(self):
        try:
            for item in self.iterable:
                yield item
                self.done += 1
                self._update()
        finally:
            if self._handle is not None:
                self._handle.update({}, raw=True)  # an empty output: nothing left to see
            else:
                registry.report_progress(None)
