"""coursekit's pieces for the reader: explorers, quoted prose numbers, progress lines, growing curves."""

import json
import re

import matplotlib

matplotlib.use("agg")
import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

from coursekit.curves import GrowingCurve  # noqa: E402
from coursekit.explorer import Explorer, figure_png, menu, png_width, progressive, slider  # noqa: E402
from coursekit.progress import progress  # noqa: E402
from coursekit.prose import quote  # noqa: E402


def draw_line(slope, shift=0):
    fig, ax = plt.subplots(figsize=(3, 2))
    ax.plot([0, 1], [shift, shift + slope])
    ax.set_title(f"slope {slope}, shift {shift}")
    return fig


def small_explorer(**extra):
    return Explorer(draw_line, controls={"slope": slider([1, 2, 3], default=2), "shift": menu([0, 5])},
                    frames={"slope": [1, 2, 3], "shift": [0, 5]}, **extra)


def test_explorer_renders_one_frame_per_combination_default_first():
    explorer = small_explorer()
    page = explorer.frames_html()
    frames = re.findall(r'<img src="data:image/png;base64,[^"]+" data-frame="([0-9,]+)"[^>]*>', page)
    assert frames[0] == "1,0" and sorted(frames) == ["0,0", "0,1", "1,0", "1,1", "2,0", "2,1"]
    assert page.count('style="display:none"') == 5  # every frame but the default starts hidden
    controls = json.loads(re.search(r'data-controls="([^"]+)"', page)[1].replace("&quot;", '"'))
    assert controls == [{"name": "slope", "label": "slope", "kind": "slider", "values": ["1", "2", "3"], "start": 1},
                        {"name": "shift", "label": "shift", "kind": "menu", "values": ["0", "5"], "start": 0}]
    assert not plt.get_fignums(), "the explorer must close every figure it draws"


def test_explorer_output_has_a_widget_view_and_the_frames():
    bundle = small_explorer()._repr_mimebundle_()
    assert "model_id" in bundle["application/vnd.jupyter.widget-view+json"]
    assert bundle["text/html"].startswith('<div class="coursekit-explorer"')
    assert "6 frames" in bundle["text/plain"]


def test_explorer_redraws_when_a_control_changes():
    view = small_explorer().view()
    before = view.image.value
    view.changed("slope", 3)
    assert view.image.value != before and view.values["slope"] == 3
    assert int(view.image.width) == png_width(view.image.value)
    view.changed("shift", "not a number")  # a failing draw is reported, not raised into the kernel log
    assert "could not draw" in view.status.value
    assert "Traceback" in view.status.value and "TypeError" in view.status.value  # where it failed


def test_explorer_labels_name_the_controls_and_the_frames():
    explorer = Explorer(draw_line, controls={"slope": slider([1, 2], label="gradient"), "shift": menu([0, 5])},
                        frames={"slope": [1, 2]}, description="a line")
    page = explorer.frames_html()
    assert 'alt="a line: gradient 1"' in page and "shift = 0" in page
    assert explorer.view().widget.children[0].children[0].description == "gradient"


def test_switched_off_an_explorer_checks_its_definition_and_draws_nothing():
    from coursekit.plots import draw_figures

    drawn = []
    draw_figures(False)
    try:
        explorer = Explorer(lambda slope: drawn.append(slope), controls={"slope": slider([1, 2])},
                            frames={"slope": [1, 2]})
        assert drawn == []
        assert explorer._repr_mimebundle_() == {"text/plain": "[explorer not drawn: this run has FIGURES = False]"}
        with pytest.raises(ValueError, match="^frames"):
            Explorer(draw_line, controls={"slope": slider([1, 2])}, frames={"slope": [7]})
        with pytest.raises(ValueError, match="^on"):
            draw_figures("no")
    finally:
        draw_figures(True)


def test_explorer_response_times_cover_every_control():
    from booktools.benchmark import explorer_report, response_times

    times = response_times(small_explorer())
    assert set(times) == {"slope", "shift"}
    assert all(0 < first <= last for first, last in times.values())
    report = json.loads(explorer_report([small_explorer(), "not an explorer", 3]))
    assert [entry["frames"] for entry in report] == [6]


def test_progressive_draw_shows_the_run_while_it_trains_and_frames_take_the_end():
    import time

    def slow_states():
        for epoch in range(1, 6):
            time.sleep(0.03)
            yield epoch

    def draw(slope, shift=0):
        return progressive(slow_states(), lambda epoch: draw_line(slope * epoch, shift), seconds=0.05)

    figures = list(draw(1))
    assert 2 <= len(figures) <= 4 and figures[-1].axes[0].get_title() == "slope 5, shift 0"
    plt.close("all")
    explorer = Explorer(draw, controls={"slope": slider([1, 2, 3]), "shift": menu([0, 5])},
                        frames={"slope": [1, 2, 3], "shift": [0, 5]})
    assert len(explorer.pngs) == 6 and not plt.get_fignums()
    from booktools.benchmark import response_times

    first, last = response_times(explorer)["slope"]
    assert first < last
    view = explorer.view()
    view.changed("slope", 3)
    assert view.image.value == figure_png(draw_line(15, 0))
    with pytest.raises(ValueError, match="^states"):
        list(progressive(iter([]), draw_line))
    with pytest.raises(ValueError, match="^seconds"):
        list(progressive(iter([1]), draw_line, seconds=0))


@pytest.mark.parametrize("make, name", [
    (lambda: Explorer("draw", {"a": menu([1])}, {"a": [1]}), "draw"),
    (lambda: Explorer(draw_line, {}, {"slope": [1]}), "controls"),
    (lambda: Explorer(draw_line, {"slope": [1, 2]}, {"slope": [1]}), "controls['slope']"),
    (lambda: Explorer(draw_line, {"slope": slider([1, 2])}, {}), "frames"),
    (lambda: Explorer(draw_line, {"slope": slider([1, 2])}, {"shift": [0]}), "frames"),
    (lambda: Explorer(draw_line, {"slope": slider([1, 2])}, {"slope": [7]}), "frames['slope']"),
    (lambda: Explorer(draw_line, {"slope": slider([1, 2], default=2)}, {"slope": [1]}), "frames['slope']"),
    (lambda: slider([]), "values"),
    (lambda: slider([1, 1]), "values"),
    (lambda: menu(["a", "b"], default="c"), "default"),
    (lambda: menu(["a"], label=""), "label"),
    (lambda: png_width(b"GIF89a"), "png"),
])
def test_bad_explorer_definitions_raise_value_error_naming_them(make, name):
    with pytest.raises(ValueError) as raised:
        make()
    assert str(raised.value).startswith(name), raised.value


@pytest.mark.parametrize("texts, name", [
    ({"Baseline": "0.7"}, "Baseline"),
    ({"_hidden": "0.7"}, "_hidden"),
    ({"rate": 0.3}, "rate"),
    ({"flag": True}, "flag"),
    ({}, "texts"),
])
def test_quote_refuses_what_prose_cannot_show(texts, name):
    with pytest.raises(ValueError) as raised:
        quote(**texts)
    assert str(raised.value).startswith(name)


def test_quote_outside_ipython_sets_and_shows_nothing(capsys):
    from coursekit.prose import glue

    assert glue({"baseline": "0.7579"}) is False  # no kernel: nothing to set, nothing glued
    assert capsys.readouterr().out == ""


def test_quote_in_a_kernel_sets_the_name_and_glues_its_text():
    from IPython.core.displaypub import CapturingDisplayPublisher
    from IPython.core.interactiveshell import InteractiveShell

    from coursekit.prose import GLUE_PREFIX

    shell = InteractiveShell.instance()
    shell.display_pub = CapturingDisplayPublisher()
    try:
        quote(baseline="0.7579", runs=5)
        assert shell.user_ns["baseline"] == "0.7579" and shell.user_ns["runs"] == 5
        glued = {output["metadata"]["scrapbook"]["name"]: output["data"][GLUE_PREFIX + "text/plain"]
                 for output in shell.display_pub.outputs}
        assert glued == {"baseline": "'0.7579'", "runs": "5"}
    finally:
        InteractiveShell.clear_instance()


def test_progress_iterates_everything_and_prints_nothing(capsys):
    assert list(progress(range(4), "steps")) == [0, 1, 2, 3]
    assert list(progress(iter("ab"), "letters")) == ["a", "b"]
    assert capsys.readouterr().out == ""
    with pytest.raises(ValueError, match="^description"):
        progress([1], "")
    with pytest.raises(ValueError, match="^total"):
        progress([1], "steps", total=-1)


def test_growing_curve_trains_once_and_measures_on_the_way():
    trained = []
    curve = GrowingCurve([0], advance=lambda m, n: (trained.append(n), m.__setitem__(0, m[0] + n)),
                         measure=lambda m: m[0], step=10)
    assert curve.up_to(25) == [(0, 0), (10, 10), (20, 20), (25, 25)]
    assert curve.at(20) == 20 and trained == [10, 10, 5]  # read, not trained again
    assert curve.at(40) == 40 and trained == [10, 10, 5, 5, 10]
    assert [points[-1] for points in curve.growing(60)] == [(50, 50), (60, 60)]
    assert [points[-1] for points in curve.growing(45)] == [(40, 40)]  # already past: no training
    with pytest.raises(ValueError, match="^epochs 35"):
        curve.at(35)  # passed without being measured
    with pytest.raises(ValueError, match="^step"):
        GrowingCurve([0], advance=lambda m, n: None, measure=lambda m: 0, step=0)


def test_in_words_writes_small_counts_as_words():
    from coursekit.prose import in_words

    assert [in_words(n) for n in (0, 5, 12, 13, 24)] == ["zero", "five", "twelve", "13", "24"]
    with pytest.raises(ValueError, match="^count"):
        in_words(-1)
