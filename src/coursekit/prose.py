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

GLUE_PREFIX = "application/papermill.record/"
"""Where myst-nb looks for glued values in a cell's outputs (the papermill/scrapbook record format)."""


def _check(name: str, value) -> None:
    if not name.isidentifier() or keyword.iskeyword(name) or name.startswith("_") or not name.islower():
        raise ValueError(f"{name}: a quoted name must be a lowercase Python identifier, got {name!r}")
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise ValueError(f"{name} must be quoted as text (format it first, e.g. f\"{{x:.4f}}\") or as an "
                         f"int, got {value!r} ({type(value).__name__})")


def quote(**texts) -> None:
    """Make each ``name=text`` a variable of the notebook and glue it for the HTML book.

    Every value must be a ``str`` (a number formatted as the sentence shows it) or an ``int`` (a
    count). Outside IPython (a plain script, a test) nothing is displayed and nothing is set.
    """
    if not texts:
        raise ValueError("texts: quote at least one name=text")
    for name, value in texts.items():
        _check(name, value)
    from IPython import get_ipython  # imported here so that coursekit itself needs no IPython

    shell = get_ipython()
    if shell is None:
        return
    from IPython.display import display

    shell.push(texts)
    for name, value in texts.items():
        display({GLUE_PREFIX + "text/plain": repr(value)}, raw=True,
                metadata={"scrapbook": {"name": name, "mime_prefix": GLUE_PREFIX}})


NUMBER_WORDS = "zero one two three four five six seven eight nine ten eleven twelve".split()


def in_words(count: int) -> str:
    """A count as a sentence writes it: "five" up to twelve, digits beyond ("24")."""
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise ValueError(f"count must be a non-negative integer, got {count!r}")
    return NUMBER_WORDS[count] if count < len(NUMBER_WORDS) else str(count)
