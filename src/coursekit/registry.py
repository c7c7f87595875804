"""What a lesson quoted and claimed, kept for any runner, with or without IPython.

`coursekit.prose.quote` and `coursekit.claims.record` put every text and claim here first; in IPython
(JupyterLab, papermill, the book's execution) they then also glue them into the notebook. A runner
without IPython reads them back here: the page's in-browser run (`booktools.pagerun`, in Pyodide),
which replaces each quoted number and claim sentence of the page with its rerun's.

`coursekit.progress` reports its line to a listener set here when there is no IPython to show it;
`coursekit.tables.show_table` keeps the tables it shows here too, in order (`displays`).

    >>> clear(); record_texts({"baseline": "0.7540"}); texts()
    {'baseline': '0.7540'}
"""

from collections.abc import Callable

_texts: dict[str, str | int] = {}
_claims: dict[str, dict] = {}
_displays: list[tuple[str, str]] = []
_sure_rows: dict[str, object] = {}  # claim name: its row of "How sure is this?", in recording order
_progress_listener: Callable[[str | None], None] | None = None


def ipython_shell():
    """The running IPython shell, or None (a script, a test, Pyodide, where IPython is not installed)."""
    try:
        from IPython import get_ipython
    except ImportError:
        return None
    return get_ipython()


def record_texts(texts: dict) -> None:
    """Keep each quoted ``name: text`` (a later quote of a name replaces the earlier one)."""
    _texts.update(texts)


def record_claims(recorded: dict) -> None:
    """Keep each claim ``name: {"holds": ..., "says": ...}`` (`coursekit.claims.claims_record`)."""
    _claims.update({name: dict(entry) for name, entry in recorded.items()})


def record_sure_rows(rows) -> None:
    """Keep each ``(claim name, row)`` for the lesson's "How sure is this?" table
    (`coursekit.claims.how_sure`); a claim recorded again (a cell run twice) keeps its place."""
    _sure_rows.update(rows)


def sure_rows() -> list[tuple[str, object]]:
    """Every ``(claim name, row)`` recorded since the last `clear`, in recording order."""
    return list(_sure_rows.items())


def texts() -> dict[str, str | int]:
    """Every text quoted since the last `clear`, by name."""
    return dict(_texts)


def claims() -> dict[str, dict]:
    """Every claim recorded since the last `clear`, by name."""
    return {name: dict(entry) for name, entry in _claims.items()}


def record_display(mime: str, data: str) -> None:
    """Keep something a lesson showed (a Markdown table: ``"text/markdown"``), in order."""
    _displays.append((mime, data))


def displays() -> list[tuple[str, str]]:
    """Everything shown since the last `clear` or `take_displays`, in order."""
    return list(_displays)


def take_displays() -> list[tuple[str, str]]:
    """What was shown since the last call (a runner calls it after each cell), and forget it."""
    taken = list(_displays)
    _displays.clear()
    return taken


def clear() -> None:
    """Forget what was quoted, claimed and shown (a runner calls it before a lesson)."""
    _texts.clear()
    _claims.clear()
    _displays.clear()
    _sure_rows.clear()


def listen_to_progress(listener: Callable[[str | None], None] | None) -> None:
    """Have ``listener(line)`` called with each progress line outside IPython ("runs: 3 of 5, 4.2 s"),
    and with None when the loop ends; None stops listening."""
    global _progress_listener
    if listener is not None and not callable(listener):
        raise ValueError(f"listener must be a function of one line, or None, got {listener!r}")
    _progress_listener = listener


def report_progress(line: str | None) -> None:
    """Pass a progress line (None: the loop ended) to the listener, if one is set."""
    if _progress_listener is not None:
        _progress_listener(line)
