"""Printing the course's tables, and reading a band of runs in subscribers.

A lesson declares a table once, as columns of (heading, format spec), and prints the heading and rows
through it, so the heading always lines up with the numbers below it::

    table = Table(("run", ">6"), ("test", ">8.4f"))
    print(table.header())      # '   run     test'
    print(table.row(1, 0.7857))  # '     1   0.7857'"""

import re
from collections.abc import Sequence

from . import registry
from .checks import require_nonempty, require_positive_int

_SPEC = re.compile(r"^(?P<align>[<>^])?(?P<sign>[+\- ])?(?P<width>\d+)?(?P<rest>.*)$")


class Table:
    """Fixed-width text table: one format spec per column, cells joined by one space."""

    def __init__(self, *columns: tuple[str, str]):
        self.columns = require_nonempty("columns", columns)
        for heading, spec in self.columns:
            if not isinstance(heading, str) or not isinstance(spec, str) or not _SPEC.match(spec):
                raise ValueError(f"columns must be (heading, format spec) pairs, got {(heading, spec)!r}")

    def header(self, spans: Sequence[tuple[str, int]] | None = None) -> str:
        """The headings, aligned and padded like the values below them.

        ``spans`` puts one heading over several neighbouring columns (one value per run, say): a list
        of ``(heading, number of columns)`` that covers every column in order. A spanning heading is
        right-aligned over the combined width of its columns; the columns' own headings are not shown.
        """
        if spans is None:
            spans = [(heading, 1) for heading, _ in self.columns]
        if [n for _, n in spans if not isinstance(n, int) or n < 1] or sum(n for _, n in spans) != len(self.columns):
            raise ValueError(f"spans must cover the {len(self.columns)} columns in order, got {spans!r}")
        cells, first = [], 0
        for heading, count in spans:
            group = self.columns[first:first + count]
            first += count
            if count == 1:
                parts = _SPEC.match(group[0][1])
                cells.append(f"{heading:{parts['align'] or '>'}{parts['width'] or ''}}")
            else:
                width = sum(self._width(column) for column in group) + count - 1
                cells.append(f"{heading:>{width}}")
        return " ".join(cells)

    @staticmethod
    def _width(column: tuple[str, str]) -> int:
        heading, spec = column
        return int(_SPEC.match(spec)["width"] or len(heading))

    def row(self, *values) -> str:
        """One row; ``values`` in column order, each formatted with its column's spec."""
        if len(values) != len(self.columns):
            raise ValueError(f"values must have one entry per column ({len(self.columns)}), got {len(values)}")
        return " ".join(f"{value:{spec}}" for value, (_, spec) in zip(values, self.columns))


def band(values: Sequence[float]) -> tuple[float, float]:
    """Lowest and highest of a set of runs: the band a single reported number hides."""
    values = require_nonempty("values", values)
    return min(values), max(values)


def band_text(values: Sequence[float]) -> str:
    """The band as the course prints it, e.g. ``0.7659-0.7857``."""
    low, high = band(values)
    return f"{low:.4f}-{high:.4f}"


def in_subscribers(difference: float, set_size: int) -> int:
    """An accuracy difference expressed in whole subscribers of a set of ``set_size`` rows.

    Pass the size of the set the accuracies were measured on (``len(Y_TEST)``): 252 test subscribers
    with the course seed, another number with another seed.
    """
    require_positive_int("set_size", set_size)
    return round(difference * set_size)


def listing(values: Sequence, spec: str = ".4f") -> str:
    """Values as prose, each formatted with ``spec``: ``'a and b'``, ``'a, b and c'``."""
    texts = [f"{value:{spec}}" for value in require_nonempty("values", values)]
    return texts[0] if len(texts) == 1 else ", ".join(texts[:-1]) + " and " + texts[-1]


def band_words(values: Sequence[float], spec: str = ".4f") -> str:
    """The band as a sentence reads it after "is": ``"between 0.7659 and 0.7857"``, or, when every run
    landed on the same value, ``"0.7937 in every run"`` (a band ``0.7937-0.7937`` would hide that the
    runs agree exactly).

    >>> band_words([0.5, 0.75]), band_words([0.75, 0.75, 0.75])
    ('between 0.5000 and 0.7500', '0.7500 in every run')
    """
    low, high = band(values)
    if low == high:
        return f"{low:{spec}} in every run" if len(values) > 1 else f"{low:{spec}}"
    return f"between {low:{spec}} and {high:{spec}}"


def band_label(values: Sequence[float], noun: str = "runs") -> str:
    """The band as a sentence shows it in place of a number: ``"0.7659-0.7857"`` like `band_text`,
    but ``"0.7937 (all 3 runs alike)"`` when every value is the same, which a band ``0.7937-0.7937``
    would hide.

    >>> band_label([0.5, 0.75]), band_label([0.75, 0.75, 0.75]), band_label([0.5] * 2, "results")
    ('0.5000-0.7500', '0.7500 (all 3 runs alike)', '0.5000 (all 2 results alike)')
    """
    low, high = band(values)
    if low == high and len(values) > 1:
        return f"{low:.4f} (all {len(values)} {noun} alike)"
    return band_text(values)


def markdown_table(header: Sequence[str], rows: Sequence[Sequence], left: int = 0) -> str:
    """A table of already formatted cells as Markdown, every column right-aligned (numbers line up)
    but the first ``left`` columns, which hold words and align left.

    >>> print(markdown_table(["batch", "updates"], [[10, "1,200"], [30, 400]]))
    | batch | updates |
    |---:|---:|
    | 10 | 1,200 |
    | 30 | 400 |
    """
    header = [str(cell) for cell in require_nonempty("header", header)]
    if isinstance(left, bool) or not isinstance(left, int) or not 0 <= left <= len(header):
        raise ValueError(f"left must count columns of the header (0 to {len(header)}), got {left!r}")
    lines = ["| " + " | ".join(header) + " |", "|" + ":---|" * left + "---:|" * (len(header) - left)]
    for k, row in enumerate(require_nonempty("rows", rows)):
        if len(row) != len(header):
            raise ValueError(f"rows[{k}] must have one cell per column ({len(header)}), got {len(row)}")
        lines.append("| " + " | ".join(str(cell) for cell in row) + " |")
    return "\n".join(lines)


def show_table(header: Sequence[str], rows: Sequence[Sequence], left: int = 0) -> None:
    """Show `markdown_table` as a cell output, rendered as a table in JupyterLab and on the book's
    pages (the text itself for a plain-text reader). Nothing goes to stdout, so a lesson's printed
    tables stay those of the source. Outside IPython nothing is shown: the table is kept in
    `coursekit.registry`, where the page's in-browser run reads it to replace the table shown."""
    text = markdown_table(header, rows, left)
    registry.record_display("text/markdown", text)
    if registry.ipython_shell() is None:
        return
    from IPython.display import display

    display({"text/markdown": text, "text/plain": text}, raw=True)
