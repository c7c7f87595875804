"""The lessons' explorers: one figure, a few controls, live in JupyterLab and switchable on the HTML page.

A lesson gives a *draw function* (the control values as keyword arguments -> a matplotlib figure) and
its controls; `Explorer` does the rest. One output, two renderings:

- **JupyterLab** shows the output's ipywidgets view: the controls and an ``ipywidgets.Image`` holding
  the figure as PNG. Changing a control calls the draw function again (an ``observe`` callback) and
  replaces the image. No Output widget is involved, so executing a lesson headless (papermill,
  nbclient, ``jupyter-book build``) never waits on nbclient's capture of Output widgets, which can
  deadlock (jupyter/nbclient#312).
- **The HTML page** has no kernel and shows the output's ``text/html`` instead: the figure drawn at
  execution time for a grid of *frames* (a few values of some controls, the others at their defaults)
  and plain HTML controls that switch between them with the book's own small script
  (``booktools/sphinxext/static/explorer.js``, see `booktools.sphinxext`).

Draw functions should reuse what the lesson has already computed (the runs behind its tables), and
train incrementally what it has not (`coursekit.curves.GrowingCurve`), so that a control answers in
well under a second. Where a setting must be trained first, the draw function returns `progressive`
figures instead of one: the widget shows the run as it trains (the first figure within about half a
second) and ends on the finished one; the HTML frames take the finished one.
"""

import base64
import html
import io
import itertools
import json
import time
import traceback
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from .checks import require_choice, require_nonempty, require_positive_number
from .plots import SKIPPED_NOTE, drawing

EXPLORER_CLASS = "coursekit-explorer"
"""The HTML class of an explorer's page output (the book's Sphinx extension and script look for it)."""

DPI = 80
"""Resolution of every explorer image: enough for a 7-inch figure on screen, small in the page."""

@dataclass(frozen=True)
class Control:
    """One control of an explorer: the values it offers, its starting value and how it is shown."""

    values: tuple
    default: object
    kind: str  # "menu" (a drop-down) or "slider" (ordered values)
    label: str | None = None

    def caption(self, name: str) -> str:
        """What the reader sees beside the control: its label, or its keyword with spaces."""
        return self.label or name.replace("_", " ")


def _control(kind: str, values, default, label) -> Control:
    values = tuple(require_nonempty("values", values))
    if len(set(values)) != len(values):
        raise ValueError(f"values must not repeat, got {values!r}")
    default = values[0] if default is None else require_choice("default", default, values)
    if label is not None and (not isinstance(label, str) or not label):
        raise ValueError(f"label must be a non-empty string, got {label!r}")
    return Control(values, default, kind, label)


def menu(values: Sequence, default=None, label: str | None = None) -> Control:
    """A drop-down over ``values`` (names, settings), starting at ``default`` (the first value)."""
    return _control("menu", values, default, label)


def slider(values: Sequence, default=None, label: str | None = None) -> Control:
    """A slider over ordered ``values`` (epochs, runs, rates), starting at ``default`` (the first)."""
    return _control("slider", values, default, label)


def figure_png(figure, dpi: int = DPI) -> bytes:
    """The figure as PNG bytes; the figure is closed, so that no cell shows it a second time.

    Every frame keeps the figure's own size (no tight bounding box), so switching frames never moves
    the page; a figure without a layout engine gets a tight layout to keep its labels inside.
    """
    import matplotlib.pyplot as plt

    if figure.get_layout_engine() is None:
        figure.tight_layout()
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=dpi)
    plt.close(figure)
    return buffer.getvalue()


def fixed_margins(figure, **margins):
    """Place the axes with ``figure.subplots_adjust(**margins)`` and keep them there: `figure_png` then
    skips its layout pass, the slowest part of drawing a frame (about a third of it)."""
    from matplotlib.layout_engine import PlaceHolderLayoutEngine

    figure.subplots_adjust(**margins)
    figure.set_layout_engine(PlaceHolderLayoutEngine(adjust_compatible=True, colorbar_gridspec=True))
    return figure


def progressive(states, figure_of, seconds: float = 0.5):
    """The figures of a computation that takes a while, for a draw function to return.

    ``states`` is an iterator over the computation's states (a run trained on step by step, say:
    `coursekit.curves.GrowingCurve.growing`); ``figure_of(state)`` draws one. A figure is drawn once
    ``seconds`` have passed since the last one, and always for the last state; a computation that is
    quick (or already done) gives a single figure.
    """
    require_positive_number("seconds", seconds)
    last_shown, state, empty = time.perf_counter(), None, True
    for state in states:
        empty = False
        if time.perf_counter() - last_shown >= seconds:
            yield figure_of(state)
            last_shown = time.perf_counter()
    if empty:
        raise ValueError("states must hold at least one state to draw")
    yield figure_of(state)


def figures_of(drawn):
    """What a draw function returned, as figures: one figure, or the figures `progressive` yields."""
    from matplotlib.figure import Figure

    return [drawn] if isinstance(drawn, Figure) else drawn


def final_figure(drawn):
    """The last of the figures a draw function returned (the others are closed unseen)."""
    import matplotlib.pyplot as plt

    last = None
    for figure in figures_of(drawn):
        if last is not None:
            plt.close(last)
        last = figure
    return last


def png_width(png: bytes) -> int:
    """The pixel width written in a PNG's header (bytes 16-19 of the IHDR chunk)."""
    if png[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("png must be the bytes of a PNG image")
    return int.from_bytes(png[16:20], "big")


def checked_controls(controls) -> dict[str, Control]:
    """``controls`` as a dict, each a keyword name mapped to a `menu` or `slider`."""
    if not isinstance(controls, Mapping) or not controls:
        raise ValueError(f"controls must map at least one name to a menu or slider, got {controls!r}")
    for name, control in controls.items():
        if not isinstance(name, str) or not name.isidentifier():
            raise ValueError(f"controls: {name!r} is not a keyword name")
        if not isinstance(control, Control):
            raise ValueError(f"controls[{name!r}] must be made by menu() or slider(), got {control!r}")
    return dict(controls)


def checked_frames(frames, controls: Mapping[str, Control]) -> dict[str, tuple]:
    """``frames`` as a dict of framed control -> its values in the control's order, each holding the
    control's default."""
    if not isinstance(frames, Mapping) or not frames:
        raise ValueError(f"frames must map at least one control to the values the page shows, got {frames!r}")
    checked = {}
    for name, values in frames.items():
        control = controls[require_choice("frames", name, controls)]
        values = tuple(require_nonempty(f"frames[{name!r}]", values))
        for value in values:
            require_choice(f"frames[{name!r}]", value, control.values)
        if control.default not in values:
            raise ValueError(f"frames[{name!r}] must hold the control's default {control.default!r}")
        checked[name] = tuple(sorted(values, key=control.values.index))
    return checked


def draw_frames(draw: Callable, controls: Mapping[str, Control], frames: Mapping[str, tuple]) -> dict:
    """Every frame as PNG, keyed by the tuple of the framed controls' values (the others at their
    defaults); the default frame is drawn first."""
    defaults = {name: control.default for name, control in controls.items()}
    return {key: figure_png(final_figure(draw(**{**defaults, **dict(zip(frames, key))})))
            for key in itertools.product(*frames.values())}


class LiveView:
    """The JupyterLab view of an explorer: its controls above the figure, redrawn on every change."""

    def __init__(self, draw: Callable, controls: Mapping[str, Control], first_png: bytes):
        import ipywidgets as widgets

        self.draw, self.values = draw, {name: control.default for name, control in controls.items()}
        inputs = {name: self._input(widgets, name, control) for name, control in controls.items()}
        self.image = widgets.Image(format="png")
        self._show(first_png)
        self.status = widgets.HTML(value="")
        for name, control in inputs.items():
            control.observe(lambda change, name=name: self.changed(name, change["new"]), names="value")
        row = widgets.HBox(list(inputs.values()), layout=widgets.Layout(flex_flow="row wrap"))
        self.widget = widgets.VBox([row, self.image, self.status])

    @staticmethod
    def _input(widgets, name: str, control: Control):
        options = [(str(value), value) for value in control.values]
        settings = {"options": options, "value": control.default, "description": control.caption(name),
                    "style": {"description_width": "initial"}}
        if control.kind == "slider":
            return widgets.SelectionSlider(continuous_update=False, **settings)
        return widgets.Dropdown(**settings)

    def _show(self, png: bytes) -> None:
        # at its own pixel width: a stretched image would blur
        self.image.value, self.image.width = png, str(png_width(png))

    def changed(self, name: str, value) -> None:
        """Redraw for a control's new value (a progressive draw shows each figure as it comes)."""
        self.values[name] = value
        try:
            for figure in figures_of(self.draw(**self.values)):
                self._show(figure_png(figure))
            self.status.value = ""
        except Exception:  # a callback's exception would vanish into the kernel's log
            self.status.value = f"<pre>could not draw:\n{html.escape(traceback.format_exc())}</pre>"


class Explorer:
    """An interactive figure: ``draw(**values)`` returns a matplotlib figure for the control values.

    ``controls`` maps each keyword of ``draw`` to a `menu` or `slider`. ``frames`` maps some of those
    names to the values the HTML page offers (each list holding the control's default); the page gets
    one image per combination, the other controls staying at their defaults. Show the explorer by making
    it the last expression of a cell. With figures switched off (`coursekit.plots.draw_figures`) it
    checks its definition and draws nothing.
    """

    def __init__(self, draw: Callable, controls: Mapping[str, Control], frames: Mapping[str, Sequence],
                 description: str = ""):
        if not callable(draw):
            raise ValueError(f"draw must be a function of the control values, got {draw!r}")
        self.draw, self.description = draw, description
        self.controls = checked_controls(controls)
        self.frames = checked_frames(frames, self.controls)
        started = time.perf_counter()
        self.pngs = draw_frames(self.draw, self.controls, self.frames) if drawing() else {}
        self.frame_seconds = time.perf_counter() - started
        self._view = None

    @property
    def default_key(self) -> tuple:
        return tuple(self.controls[name].default for name in self.frames)

    def view(self) -> LiveView:
        """The live view for JupyterLab (built once), starting on the default frame."""
        if self._view is None:
            self._view = LiveView(self.draw, self.controls, self.pngs[self.default_key])
        return self._view

    def frames_html(self) -> str:
        """The explorer for a page without a kernel: the pre-rendered frames, default frame first.

        The controls are described in ``data-controls`` and built by the book's script, so that a
        frontend without it (a notebook opened untrusted, a static viewer) shows the default frame and
        no inert controls. Frames other than the default are hidden with inline style, which survives
        JupyterLab's HTML sanitizer.
        """
        controls = [{"name": name, "label": self.controls[name].caption(name), "kind": self.controls[name].kind,
                     "values": [str(v) for v in values], "start": values.index(self.controls[name].default)}
                    for name, values in self.frames.items()]
        images = []
        for key in sorted(self.pngs, key=lambda key: key != self.default_key):  # default first, stable
            indices = ",".join(str(self.frames[name].index(v)) for name, v in zip(self.frames, key))
            setting = ", ".join(f"{self.controls[name].caption(name)} {v}" for name, v in zip(self.frames, key))
            encoded = base64.b64encode(self.pngs[key]).decode("ascii")
            style = "" if key == self.default_key else ' style="display:none"'
            images.append(f'<img src="data:image/png;base64,{encoded}" data-frame="{indices}" '
                          f'alt="{html.escape(self.description or "explorer")}: {html.escape(setting)}"{style}>')
        fixed = [f"{control.caption(name)} = {control.default}"
                 for name, control in self.controls.items() if name not in self.frames]
        note = (f"Frames drawn when the lesson was executed; the other controls stay at "
                f"{html.escape(', '.join(fixed))}." if fixed else "Frames drawn when the lesson was executed.")
        return (f'<div class="{EXPLORER_CLASS}" data-controls="{html.escape(json.dumps(controls))}">'
                f'<div class="explorer-frames">{"".join(images)}</div>'
                f'<p class="explorer-note">{note}</p></div>')

    def _repr_mimebundle_(self, **kwargs) -> dict:
        if not self.pngs:
            return {"text/plain": f"[explorer {SKIPPED_NOTE}]"}
        bundle = self.view().widget._repr_mimebundle_(**kwargs)
        bundle["text/html"] = self.frames_html()
        bundle["text/plain"] = f"Explorer with {len(self.pngs)} frames ({', '.join(self.controls)})"
        return bundle
