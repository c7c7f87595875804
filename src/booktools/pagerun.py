"""Run a lesson's code cells without IPython, one cell at a time, with a reader's parameters.

This is the Python half of the page's in-browser run: the book ships this file, `coursekit` and each
lesson's code cells (`booktools.browser`), and the page's Web Worker runs them in Pyodide
(``sphinxext/static/run/engine.mjs``). The node test and ``make bench`` run the very same module, in
Pyodide and in CPython. Only the standard library is used.

A run does what papermill does with ``-p NAME VALUE``: the lesson's ``parameters`` cell runs, then an
assignment of the reader's values (``FIGURES = False`` always: the page cannot draw), then the other
cells, in one namespace that is the ``__main__`` module, as in a kernel. Each cell's stdout is kept
apart (the page puts it back under its cell); each cell's code is registered in `linecache`, so that
`inspect.getsource` and `linecache.getlines` read it as they do in a kernel. What the lesson quoted and
claimed is read from `coursekit.registry`. A cell that raises ends the run; its error is reported
(a bad parameter: the lesson's own check cell raises the `ValueError` naming it).

    run = LessonRun(lesson, {"SEED": "7"})   # lesson: the shipped payload (booktools.browser)
    for index in run.cell_indices:
        run.run_cell(index)                    # {"index", "stdout", "seconds", "error"}
    run.result()                               # {"stdout", "displays", "texts", "claims", "error", "seconds"}
"""

import ast
import builtins
import contextlib
import io
import json
import linecache
import sys
import time
import traceback
import types

ALWAYS = {"FIGURES": "False"}
"""Parameters every in-page run takes whatever the reader typed: the page draws no figures."""


def literal(name: str, text: str):
    """The value of ``text`` as the reader typed it for parameter ``name``: a Python literal."""
    if not isinstance(name, str) or not name.isidentifier():
        raise ValueError(f"parameter names must be identifiers, got {name!r}")
    try:
        return ast.literal_eval(text.strip())
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        raise ValueError(f"{name}: {text!r} is not a Python value (a number such as 7 or 0.05, a word "
                         f"in quotes, a tuple such as (1, 2), True or False)") from None


def injected_parameters(overrides: dict[str, str]) -> str:
    """The cell papermill would inject after the ``parameters`` cell: ``NAME = value`` per override."""
    return "".join(f"{name} = {literal(name, text)!r}\n" for name, text in {**overrides, **ALWAYS}.items())


def forget_coursekit() -> None:
    """Drop the imported coursekit modules, so that a run starts from the package as a kernel would
    (its caches and its figure switch fresh), in a worker that already ran a lesson."""
    for name in [name for name in sys.modules if name == "coursekit" or name.startswith("coursekit.")]:
        del sys.modules[name]


def lesson_traceback(error: BaseException) -> str:
    """The traceback of an error a cell raised, from the lesson's own frames on (not the runner's)."""
    frames = [frame for frame in traceback.extract_tb(error.__traceback__) if frame.filename != __file__]
    return "".join(traceback.format_list(frames[-8:]) + traceback.format_exception_only(error))


class LessonRun:
    """One run of a lesson: ``lesson`` is the payload `booktools.browser.lesson_payload` ships (its
    code cells, each ``{"index", "source"}``, and the index of its ``parameters`` cell); ``overrides``
    maps parameter names to the values the reader typed, as text."""

    def __init__(self, lesson: dict, overrides: dict[str, str] | None = None):
        self.stem = lesson["stem"]
        self.cells = {cell["index"]: cell["source"] for cell in lesson["cells"]}
        self.cell_indices = [cell["index"] for cell in lesson["cells"]]
        self.parameters_cell = lesson["parameters_cell"]
        self.stdout: dict[int, str] = {}
        self.displays: dict[int, list[str]] = {}  # the Markdown tables each cell showed (coursekit.tables.show_table)
        self.error: dict | None = None
        self.seconds = 0.0
        try:
            self.injected = injected_parameters(dict(overrides or {}))
        except ValueError as error:
            self.injected = ""
            self.error = {"cell": None, "type": "ValueError", "message": str(error), "traceback": ""}
        forget_coursekit()
        from coursekit import registry

        self.registry = registry
        registry.clear()
        self.module = types.ModuleType("__main__")
        self.module.__dict__["__builtins__"] = builtins

    @classmethod
    def from_json(cls, lesson: str, overrides: str) -> "LessonRun":
        """A run from the payload and the overrides as JSON texts (how the worker passes them)."""
        return cls(json.loads(lesson), json.loads(overrides))

    def listen(self, listener=None) -> None:
        """Pass each progress line of the lesson's slow loops to ``listener`` (`coursekit.progress`);
        no listener: stop."""
        self.registry.listen_to_progress(listener)

    @property
    def failed(self) -> bool:
        return self.error is not None

    def _execute(self, source: str, filename: str) -> None:
        linecache.cache[filename] = (len(source), None, source.splitlines(keepends=True), filename)
        code = compile(source, filename, "exec")
        main = sys.modules.get("__main__")
        sys.modules["__main__"] = self.module  # dataclasses, pickle and inspect look the module up here
        try:
            exec(code, self.module.__dict__)
        finally:
            sys.modules["__main__"] = main

    def run_cell(self, index: int) -> dict:
        """Run one code cell (after the ``parameters`` cell, the reader's values too); its stdout, its
        seconds and its error (None, or type, message and traceback)."""
        if self.error is not None:
            return {"index": index, "stdout": "", "seconds": 0.0, "error": self.error}
        buffer, started = io.StringIO(), time.perf_counter()
        try:
            with contextlib.redirect_stdout(buffer), contextlib.redirect_stderr(io.StringIO()):
                self._execute(self.cells[index], f"<lesson {self.stem} cell {index}>")
                if index == self.parameters_cell:
                    self._execute(self.injected, f"<lesson {self.stem} parameters>")
        except BaseException as error:  # a lesson's error, shown to the reader; KeyboardInterrupt too
            self.error = {"cell": index, "type": type(error).__name__, "message": str(error),
                          "traceback": lesson_traceback(error)}
        seconds = time.perf_counter() - started
        self.seconds += seconds
        if buffer.getvalue():
            self.stdout[index] = buffer.getvalue()
        shown = [data for mime, data in self.registry.take_displays() if mime == "text/markdown"]
        if shown:
            self.displays[index] = shown
        return {"index": index, "stdout": buffer.getvalue(), "seconds": seconds, "error": self.error}

    def run_all(self, report=None) -> dict:
        """Every cell in order (``report(k, n, index)`` before each), until one fails; `result`."""
        for k, index in enumerate(self.cell_indices, start=1):
            if self.error is not None:
                break
            if report is not None:
                report(k, len(self.cell_indices), index)
            self.run_cell(index)
        return self.result()

    def printed(self) -> str:
        """Everything the cells printed, in order (what the stored expected table holds)."""
        return "".join(self.stdout.get(index, "") for index in self.cell_indices)

    def result(self) -> dict:
        """What the page needs: stdout and the Markdown tables shown, by cell; every quoted text as the
        page shows it (``str`` of the value, as myst-nb's paste role writes it); the claims, the error
        and the cells' seconds."""
        return {"stdout": {str(index): text for index, text in self.stdout.items()},
                "displays": {str(index): shown for index, shown in self.displays.items()},
                "texts": {name: str(value) for name, value in self.registry.texts().items()},
                "claims": self.registry.claims(), "error": self.error, "seconds": self.seconds}

    def result_json(self) -> str:
        return json.dumps(self.result())
