"""Figures the lessons share: a band of runs against the baseline, curves over epochs, and `show`,
which puts a lesson's figure on the page with a description of what it shows.

`draw_figures` is the switch behind every lesson's ``FIGURES`` parameter: off, `show` and the
explorers (`coursekit.explorer`) draw nothing, so that a run that only wants a lesson's tables and
claims (the seed atlas, `booktools.atlas`) skips the rendering; the tables and claims are the same.
"""

import base64
import html
import io
from collections.abc import Mapping, Sequence

from . import registry
from .checks import require_bool, require_nonempty

_drawing = True

BASELINE_STYLE = {"color": "0.35", "linestyle": "--", "linewidth": 1.2}
REFERENCE_STYLE = {"color": "tab:green", "linestyle": ":", "linewidth": 1.5}


def plot_bands(ax, runs: Mapping[str, Sequence[float]], baseline: float, set_size: int,
               reference: tuple[str, float] | None = None):
    """Draw each group's runs as points over a shaded band, with the baseline (and a reference line).

    ``runs`` maps a group name (an architecture, an activation...) to the test accuracy of each run.
    A right-hand axis counts subscribers above the baseline, the unit in which the course reads every
    difference: ``set_size`` is the size of the set the accuracies were measured on.
    """
    groups = require_nonempty("runs", runs.items())
    for position, (name, values) in enumerate(groups):
        values = require_nonempty(f"runs[{name!r}]", values)
        ax.fill_between([position - 0.25, position + 0.25], min(values), max(values),
                        color=f"C{position}", alpha=0.18, linewidth=0)
        offsets = [position + 0.3 * (i / max(1, len(values) - 1) - 0.5) for i in range(len(values))]
        ax.scatter(offsets, values, color=f"C{position}", zorder=3)
        for run, (x, y) in enumerate(zip(offsets, values), start=1):
            ax.annotate(str(run), (x, y), textcoords="offset points", xytext=(0, 6),
                        ha="center", fontsize=8, color="0.3")
    ax.axhline(baseline, label=f"baseline {baseline:.4f}", **BASELINE_STYLE)
    if reference is not None:
        label, value = reference
        ax.axhline(value, label=f"{label} {value:.4f}", **REFERENCE_STYLE)
    ax.set_xticks(range(len(groups)), [name for name, _ in groups])
    ax.set_xlim(-0.6, len(groups) - 0.4)
    ax.set_ylabel("test accuracy")
    ax.legend(loc="lower right", fontsize=8)
    subscribers = ax.secondary_yaxis(
        "right", functions=(lambda a: (a - baseline) * set_size, lambda s: s / set_size + baseline))
    subscribers.set_ylabel("subscribers above the baseline")
    return ax


def plot_curves(ax, epochs: Sequence[int], curves: Mapping[str, Sequence[float]], ylabel: str,
                baseline: float | None = None):
    """Draw one line per named curve over ``epochs``, with an optional baseline."""
    epochs = require_nonempty("epochs", epochs)
    for name, values in curves.items():
        if len(values) != len(epochs):
            raise ValueError(f"curves[{name!r}] must have one value per epoch ({len(epochs)}), got {len(values)}")
        ax.plot(epochs, values, label=name)
    if baseline is not None:
        ax.axhline(baseline, label=f"baseline {baseline:.4f}", **BASELINE_STYLE)
    ax.set_xlabel("epoch")
    ax.set_ylabel(ylabel)
    ax.legend(fontsize=8)
    return ax


FIGURE_CLASS = "coursekit-figure"
"""The HTML class of a figure shown with `show` (the book's Sphinx extension writes its image to a file)."""


def figure_html(png: bytes, description: str, caption: str | None = None) -> str:
    """A ``<figure>`` with the PNG inline, ``description`` as its alt text and an optional caption."""
    encoded = base64.b64encode(png).decode("ascii")
    parts = [f'<figure class="{FIGURE_CLASS}">',
             f'<img src="data:image/png;base64,{encoded}" alt="{html.escape(description, quote=True)}"/>']
    if caption:
        parts.append(f"<figcaption>{html.escape(caption)}</figcaption>")
    parts.append("</figure>")
    return "".join(parts)


def draw_figures(on: bool) -> None:
    """Draw the figures and explorer frames from now on (``True``, the default) or skip them (``False``).

    A lesson calls it with its ``FIGURES`` parameter, last in its hidden check cell; the figures'
    computations still run (their descriptions quote claims), only the rendering is skipped. It returns
    nothing, so that the cell leaves no value on the page (`drawing` tells whether figures are drawn).
    """
    global _drawing
    _drawing = require_bool("on", on)


def drawing() -> bool:
    """Whether figures are drawn (see `draw_figures`)."""
    return _drawing


SKIPPED_NOTE = "not drawn: this run has FIGURES = False"


def show(figure, description: str, caption: str | None = None) -> None:
    """Show a lesson's figure described in words: ``description`` says what is plotted against what
    and what the reader should see in it, with this run's numbers (a screen reader reads it as the
    image's alt text); ``caption``, if given, is printed under the figure for every reader.

    ``figure`` is a matplotlib figure or, better, a function of no arguments that draws and returns
    one: then nothing is drawn, and matplotlib is not even imported, in a run with ``FIGURES = False``
    (`draw_figures`), so that a lesson's tables and claims need no plotting library at all.

    In JupyterLab and on the book's pages the figure is HTML (an image with its description); outside
    IPython the figure is simply closed. Nothing goes to stdout. IPython itself is never required.
    """
    if not isinstance(description, str) or len(description.split()) < 4:
        raise ValueError(f"description must say in words what the figure shows, got {description!r}")
    if caption is not None and (not isinstance(caption, str) or not caption.strip()):
        raise ValueError(f"caption must be a non-empty sentence or None, got {caption!r}")
    shell = registry.ipython_shell()
    if not _drawing:
        if not callable(figure):
            import matplotlib.pyplot as plt

            plt.close(figure)
        if shell is not None:
            from IPython.display import display

            display({"text/plain": f"[figure {SKIPPED_NOTE}]"}, raw=True)
        return
    if callable(figure):
        figure = figure()
    import matplotlib.pyplot as plt

    if shell is None:
        plt.close(figure)
        return
    from IPython.display import display

    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", bbox_inches="tight")
    plt.close(figure)
    display({"text/html": figure_html(buffer.getvalue(), description, caption),
             "text/plain": f"[figure: {description}]"}, raw=True)
