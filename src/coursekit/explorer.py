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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from .checks import require_choice, require_nonempty

DPI = 80
"""Resolution of every explorer image: enough for a 7-inch figure on screen, small in the page."""

_created: list["Explorer"] = []  # the explorers of this kernel, for `response_report`


@dataclass(frozen=True)
class Control:
    """One control of an explorer: the values it offers, its starting value and how it is shown."""

    values: tuple
    default: object
    kind: str  # "menu" (a drop-down) or "slider" (ordered values)
    label: str | None = None


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
    if not isinstance(seconds, (int, float)) or isinstance(seconds, bool) or seconds <= 0:
        raise ValueError(f"seconds must be a positive number, got {seconds!r}")
    last_shown, state, empty = time.perf_counter(), None, True
    for state in states:
        empty = False
        if time.perf_counter() - last_shown >= seconds:
            yield figure_of(state)
            last_shown = time.perf_counter()
    if empty:
        raise ValueError("states must hold at least one state to draw")
    yield figure_of(state)


def _figures(drawn):
    """What a draw function returned, as figures: one figure, or the figures `progressive` yields."""
    from matplotlib.figure import Figure

    return [drawn] if isinstance(drawn, Figure) else drawn


def final_figure(drawn):
    """The last of the figures a draw function returned (the others are closed unseen)."""
    import matplotlib.pyplot as plt

    last = None
    for figure in _figures(drawn):
        if last is not None:
            plt.close(last)
        last = figure
    return last


def png_width(png: bytes) -> int:
    """The pixel width written in a PNG's header (bytes 16-19 of the IHDR chunk)."""
    if png[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("png must be the bytes of a PNG image")
    return int.from_bytes(png[16:20], "big")


class Explorer:
    """An interactive figure: ``draw(**values)`` returns a matplotlib figure for the control values.

    ``controls`` maps each keyword of ``draw`` to a `menu` or `slider`. ``frames`` maps some of those
    names to the values the HTML page offers (each list holding the control's default); the page gets
    one image per combination, the other controls staying at their defaults. Show the explorer by making
    it the last expression of a cell.
    """

    def __init__(self, draw: Callable, controls: Mapping[str, Control], frames: Mapping[str, Sequence],
                 description: str = ""):
        if not callable(draw):
            raise ValueError(f"draw must be a function of the control values, got {draw!r}")
        if not isinstance(controls, Mapping) or not controls:
            raise ValueError(f"controls must map at least one name to a menu or slider, got {controls!r}")
        for name, control in controls.items():
            if not isinstance(name, str) or not name.isidentifier():
                raise ValueError(f"controls: {name!r} is not a keyword name")
            if not isinstance(control, Control):
                raise ValueError(f"controls[{name!r}] must be made by menu() or slider(), got {control!r}")
        if not isinstance(frames, Mapping) or not frames:
            raise ValueError(f"frames must map at least one control to the values the page shows, got {frames!r}")
        self.draw, self.controls, self.description = draw, dict(controls), description
        self.frames = {}
        for name, values in frames.items():
            control = self.controls.get(require_choice("frames", name, self.controls))
            values = tuple(require_nonempty(f"frames[{name!r}]", values))
            for value in values:
                require_choice(f"frames[{name!r}]", value, control.values)
            if control.default not in values:
                raise ValueError(f"frames[{name!r}] must hold the control's default {control.default!r}")
            self.frames[name] = tuple(sorted(values, key=control.values.index))
        self.values = {name: control.default for name, control in self.controls.items()}
        self._pngs = {}  # frame key (tuple of values of the framed controls) -> PNG
        self._widget = None
        _created.append(self)
        self.frame_seconds = self._render_frames()

    # --- drawing -----------------------------------------------------------------------------------

    def render(self, **values) -> bytes:
        """The figure for the given control values (the others at their current values), as PNG."""
        for name, value in values.items():
            require_choice(name, value, self.controls[require_choice("control", name, self.controls)].values)
        return figure_png(final_figure(self.draw(**{**self.values, **values})))

    def _frame_keys(self) -> list[tuple]:
        return list(itertools.product(*self.frames.values()))

    def _render_frames(self) -> float:
        """Draw every frame once (the default frame first); return the seconds it took."""
        started = time.perf_counter()
        defaults = {name: control.default for name, control in self.controls.items()}
        for key in self._frame_keys():
            self._pngs[key] = figure_png(final_figure(self.draw(**{**defaults, **dict(zip(self.frames, key))})))
        return time.perf_counter() - started

    # --- JupyterLab: the widget --------------------------------------------------------------------

    def widget(self):
        """The ipywidgets view (built once): a row of controls above the figure."""
        if self._widget is None:
            import ipywidgets as widgets

            inputs = {name: self._input(widgets, name, control) for name, control in self.controls.items()}
            default_key = tuple(self.values[name] for name in self.frames)
            png = self._pngs[default_key]
            # at its own pixel width: a stretched image would blur
            self._image = widgets.Image(value=png, format="png", width=str(png_width(png)))
            self._status = widgets.HTML(value="")
            for name, control in inputs.items():
                control.observe(lambda change, name=name: self._changed(name, change["new"]), names="value")
            controls = widgets.HBox(list(inputs.values()), layout=widgets.Layout(flex_flow="row wrap"))
            self._widget = widgets.VBox([controls, self._image, self._status])
        return self._widget

    @staticmethod
    def _input(widgets, name: str, control: Control):
        label = control.label or name.replace("_", " ")
        options = [(str(value), value) for value in control.values]
        style = {"description_width": "initial"}
        if control.kind == "slider":
            return widgets.SelectionSlider(options=options, value=control.default, description=label,
                                           continuous_update=False, style=style)
        return widgets.Dropdown(options=options, value=control.default, description=label, style=style)

    def _changed(self, name: str, value) -> None:
        self.values[name] = value
        try:
            for figure in _figures(self.draw(**self.values)):  # a progressive draw shows each figure
                png = figure_png(figure)
                self._image.value, self._image.width = png, str(png_width(png))
            self._status.value = ""
        except Exception as error:  # a callback's exception would vanish into the kernel's log
            self._status.value = f"<pre>could not draw: {html.escape(repr(error))}</pre>"

    # --- the HTML page: frames ---------------------------------------------------------------------

    def frames_html(self) -> str:
        """The explorer for a page without a kernel: the pre-rendered frames, default frame first.

        The controls are described in ``data-controls`` and built by the book's script, so that a
        frontend without it (a notebook opened untrusted, a static viewer) shows the default frame and
        no inert controls. Frames other than the default are hidden with inline style, which survives
        JupyterLab's HTML sanitizer.
        """
        controls = []
        for name, values in self.frames.items():
            control = self.controls[name]
            controls.append({"name": name, "label": control.label or name.replace("_", " "),
                             "kind": control.kind, "values": [str(v) for v in values],
                             "start": values.index(control.default)})
        default_key = tuple(self.controls[name].default for name in self.frames)
        keys = sorted(self._frame_keys(), key=lambda key: key != default_key)  # default first, stable
        images = []
        for key in keys:
            indices = ",".join(str(self.frames[name].index(v)) for name, v in zip(self.frames, key))
            setting = ", ".join(f"{name.replace('_', ' ')} {v}" for name, v in zip(self.frames, key))
            encoded = base64.b64encode(self._pngs[key]).decode("ascii")
            style = "" if key == default_key else ' style="display:none"'
            images.append(f'<img src="data:image/png;base64,{encoded}" data-frame="{indices}" '
                          f'alt="{html.escape(self.description or "explorer")}: {html.escape(setting)}"{style}>')
        fixed = [f"{control.label or name.replace('_', ' ')} = {control.default}"
                 for name, control in self.controls.items() if name not in self.frames]
        note = (f"Frames drawn when the lesson was executed; the other controls stay at "
                f"{html.escape(', '.join(fixed))}." if fixed else "Frames drawn when the lesson was executed.")
        return (f'<div class="coursekit-explorer" data-controls="{html.escape(json.dumps(controls))}">'
                f'<div class="explorer-frames">{"".join(images)}</div>'
                f'<p class="explorer-note">{note}</p></div>')

    # --- display -------------------------------------------------------------------------------------

    def _repr_mimebundle_(self, **kwargs) -> dict:
        bundle = self.widget()._repr_mimebundle_(**kwargs)
        bundle["text/html"] = self.frames_html()
        bundle["text/plain"] = f"Explorer with {len(self._pngs)} frames ({', '.join(self.controls)})"
        return bundle

    def response_times(self) -> dict[str, tuple[float, float]]:
        """For a change of each control (to a value no frame has drawn): CPU seconds until the first
        figure is ready and until the last (the same unless the draw is progressive). CPU time is what
        a reader waits for on an idle core, whatever else the measuring machine is doing."""
        times = {}
        for name, control in self.controls.items():
            framed = self.frames.get(name, ())
            others = [v for v in control.values if v != control.default]
            if not others:
                continue
            fresh = [v for v in others if v not in framed]
            value = (fresh or others)[0]
            started, first = time.process_time(), None
            for figure in _figures(self.draw(**{**self.values, name: value})):
                figure_png(figure)
                first = time.process_time() - started if first is None else first
            times[name] = (first, time.process_time() - started)
        return times


def response_report() -> str:
    """For the benchmark: each explorer of this kernel, its frames, frame seconds and response times."""
    return json.dumps([{"frames": len(e._pngs), "frame_seconds": e.frame_seconds,
                        "responses": e.response_times()} for e in _created])
