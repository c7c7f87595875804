"""Numbers in the prose: computed by the lesson, shown on the HTML page and in JupyterLab alike.

A lesson's text never types a measured number. A code cell computes it and *quotes* it, already
formatted the way the sentence shows it::

    quote(baseline=f"{BASELINE:.4f}", runs=RUNS)

and the text writes ``{eval}`baseline```. One call serves the book's two readers:

- in JupyterLab, jupyterlab-myst evaluates ``baseline`` in the kernel when the Markdown cell is run:
  `quote` made it a variable of the notebook;
- the HTML book has no kernel: `quote` also *glues* the text into the executed notebook (the record
  format of myst-nb's ``glue``), and the book's Sphinx extension pastes it wherever ``{eval}`` names it.

A name is quoted once per lesson, so every sentence shows the value of the one cell that computed it
(JupyterLab's *Run All* may evaluate a Markdown cell after later cells have run).
"""

import keyword

from . import registry
from .checks import require_int

GLUE_PREFIX = "application/papermill.record/"
"""Where myst-nb looks for glued values in a cell's outputs (the papermill/scrapbook record format)."""


def require_quotable_name(what: str, name) -> str:
    """A name the text can ``{eval}``: a lowercase Python identifier that is no keyword."""
    if (not isinstance(name, str) or not name.isidentifier() or keyword.iskeyword(name)
            or name.startswith("_") or not name.islower()):
        raise ValueError(f"{what}: a quoted name must be a lowercase Python identifier, got {name!r}")
    return name


def _check(name: str, value) -> None:
    require_quotable_name(name, name)
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise ValueError(f"{name} must be quoted as text (format it first, e.g. f\"{{x:.4f}}\") or as an "
                         f"int, got {value!r} ({type(value).__name__})")


def glue(texts: dict) -> bool:
    """Keep each name of ``texts`` in `coursekit.registry` and, in IPython, set it in the notebook and
    glue its text for the HTML book.

    Returns whether it glued (False outside IPython). `quote` and `coursekit.claims.record` use it.
    """
    for name, value in texts.items():
        _check(name, value)
    registry.record_texts(texts)
    shell = registry.ipython_shell()
    if shell is None:
        return False
    from IPython.display import display

    shell.push(texts)
    for name, value in texts.items():
        display({GLUE_PREFIX + "text/plain": repr(value)}, raw=True,
                metadata={"scrapbook": {"name": name, "mime_prefix": GLUE_PREFIX}})
    return True


def quote(**texts) -> None:
    """Make each ``name=text`` a variable of the notebook and glue it for the HTML book.

    Every value must be a ``str`` (a number formatted as the sentence shows it) or an ``int`` (a
    count). Outside IPython (a plain script, a test, the page's in-browser run) nothing is displayed
    and nothing is set: the texts are only kept in `coursekit.registry`, where a runner reads them.
    """
    if not texts:
        raise ValueError("texts: quote at least one name=text")
    glue(texts)


NUMBER_WORDS = "zero one two three four five six seven eight nine ten eleven twelve".split()


def in_words(count: int) -> str:
    """A count as a sentence writes it: "five" up to twelve, digits beyond ("24")."""
    require_int("count", count, minimum=0)
    return NUMBER_WORDS[count] if count < len(NUMBER_WORDS) else str(count)


def counted(count: int, noun: str, plural: str | None = None, signed: bool = False) -> str:
    """A count with its noun in the right number: ``"1 subscriber"``, ``"12 subscribers"``.

    ``plural`` is for nouns that do not just add an s (``counted(2, "batch", "batches")``); ``signed``
    writes the sign of a difference (``"+1 subscriber"``, ``"-2 subscribers"``, ``"0 subscribers"``).

    >>> counted(1, "grid"), counted(0, "layer"), counted(3, "candidate"), counted(-1, "row", signed=True)
    ('1 grid', '0 layers', '3 candidates', '-1 row')
    """
    require_int("count", count)
    if not isinstance(noun, str) or not noun.strip():
        raise ValueError(f"noun must be a non-empty word, got {noun!r}")
    number = f"{count:+d}" if signed and count else str(count)
    return f"{number} {noun if abs(count) == 1 else (plural or noun + 's')}"


def series(words) -> str:
    """Words joined as a sentence lists them: ``"8"``, ``"8 and 9"``, ``"6, 7 and 8"``.

    >>> series(["6", "7", "8"])
    '6, 7 and 8'
    """
    items = [str(word) for word in words]
    if not items:
        raise ValueError("words must not be empty")
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
