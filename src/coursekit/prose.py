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
    """A count with its noun in the right number: ``"1 subscriber"``, ``"12 subscribers"``, and
    ``"no subscribers"`` for zero.

    ``plural`` is for nouns that do not just add an s (``counted(2, "batch", "batches")``); ``signed``
    writes the sign of a difference (``"+1 subscriber"``, ``"-2 subscribers"``; zero stays "no").

    >>> counted(1, "grid"), counted(0, "layer"), counted(3, "candidate"), counted(-1, "row", signed=True)
    ('1 grid', 'no layers', '3 candidates', '-1 row')
    """
    require_int("count", count)
    if not isinstance(noun, str) or not noun.strip():
        raise ValueError(f"noun must be a non-empty word, got {noun!r}")
    nouns = noun if abs(count) == 1 else (plural or noun + "s")
    if count == 0:
        return f"no {nouns}"
    number = f"{count:+d}" if signed else str(count)
    return f"{number} {nouns}"


def change_words(change: float, spec: str = ".4f", gain: str = "adds", loss: str = "takes away",
                 none: str = "changes nothing") -> str:
    """A signed change as a verb says it: ``"adds 0.0317"``, ``"takes away 0.1850"``, ``"changes nothing"``.

    >>> change_words(0.0317), change_words(-0.185), change_words(0.0), change_words(-2, "d", "gains", "loses")
    ('adds 0.0317', 'takes away 0.1850', 'changes nothing', 'loses 2')
    """
    if isinstance(change, bool) or not isinstance(change, (int, float)) or change != change:
        raise ValueError(f"change must be a number, got {change!r}")
    if change == 0:
        return none
    return f"{gain if change > 0 else loss} {abs(change):{spec}}"


def lead_words(first: str, second: str, change: float, spec: str = ".4f") -> str:
    """Which of two is ahead, by how much: ``"run 1 is ahead of run 2 by 0.0159"``, ``"... behind ..."``,
    or ``"run 1 is level with run 2"`` for a tie (``change`` is the first's number minus the second's).

    >>> lead_words("Run 1", "run 2", -0.0159), lead_words("Run 1", "run 2", 0)
    ('Run 1 is behind run 2 by 0.0159', 'Run 1 is level with run 2')
    """
    if isinstance(change, bool) or not isinstance(change, (int, float)) or change != change:
        raise ValueError(f"change must be a number, got {change!r}")
    if change == 0:
        return f"{first} is level with {second}"
    return f"{first} is {'ahead of' if change > 0 else 'behind'} {second} by {abs(change):{spec}}"


def runs_where(holding, every, noun: str = "run") -> str:
    """Where something holds among numbered runs, as a sentence says it: ``"in all 4 runs"``,
    ``"in none of the 4 runs"``, ``"in runs 2, 3 and 4, not in run 1"``.

    >>> runs_where([2, 3, 4], [1, 2, 3, 4]), runs_where([], [1, 2]), runs_where([1, 2], [1, 2])
    ('in runs 2, 3 and 4, not in run 1', 'in neither run', 'in both runs')
    """
    every = list(every)
    holding = [item for item in every if item in set(holding)]
    if not every:
        raise ValueError("every must list at least one run")
    nouns = noun + "s"
    if len(holding) == len(every):
        return f"in both {nouns}" if len(every) == 2 else (f"in the one {noun}" if len(every) == 1
                                                             else f"in all {len(every)} {nouns}")
    if not holding:
        return f"in neither {noun}" if len(every) == 2 else f"in none of the {len(every)} {nouns}"
    missing = [item for item in every if item not in holding]

    def named(items):
        return f"{noun if len(items) == 1 else nouns} {series(items)}"

    return f"in {named(holding)}, not in {named(missing)}"


def after_colon(sentence: str) -> str:
    """A sentence continued after a colon: its first letter lower-cased, unless it starts an
    abbreviation (a capital followed by another capital or a digit). Never pass one that starts with a
    name ("Adam"): there the capital stays, and the caller joins the sentence itself.

    >>> after_colon("The network's number is 0.79."), after_colon("NN12 holds.")
    ("the network's number is 0.79.", 'NN12 holds.')
    """
    if not isinstance(sentence, str) or not sentence:
        raise ValueError(f"sentence must be a non-empty string, got {sentence!r}")
    if len(sentence) > 1 and (sentence[1].isupper() or sentence[1].isdigit()):
        return sentence
    return sentence[0].lower() + sentence[1:]


def series(words) -> str:
    """Words joined as a sentence lists them: ``"8"``, ``"8 and 9"``, ``"6, 7 and 8"``.

    >>> series(["6", "7", "8"])
    '6, 7 and 8'
    """
    items = [str(word) for word in words]
    if not items:
        raise ValueError("words must not be empty")
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def numbered(noun: str, items) -> str:
    """Items named by a noun in the right number, as a sentence names them: ``"run 2"``,
    ``"runs 1 and 3"``, ``"rates 0.5 and 2"`` (the noun takes an s for more than one item).

    >>> numbered("run", [2]), numbered("candidate", [8, 9])
    ('run 2', 'candidates 8 and 9')
    """
    if not isinstance(noun, str) or not noun.strip():
        raise ValueError(f"noun must name the items, got {noun!r}")
    items = list(items)
    return f"{noun if len(items) == 1 else noun + 's'} {series(items)}"
