"""The seed atlas: a small one (two lessons, two seeds) counts exactly the claims its executions recorded;
figures off change no table or claim; a lesson changed since is stale, not shown with old counts; without
an atlas the pages say nothing of it. The book built by the tests shows whichever case holds."""

import json
import re
from html import unescape

import pytest
from conftest import ROOT

from booktools import atlas
from booktools.execute import BOOK, environment_stamp, executed_path, read_lesson, run_papermill, text_stamp
from booktools.lessons import find_lessons
from booktools.outputs import code_outputs, recorded_claims

SMALL = {"seeds": [1, 2], "lessons": ["10", "23"], "home": "atlas-of-the-tests"}
"""The two cheapest lessons of the book, both with claims that differ between seeds."""


@pytest.fixture(scope="module")
def small_atlas(executed_lessons):
    built = atlas.build(ROOT, SMALL["seeds"], SMALL["lessons"], home=SMALL["home"])
    assert not built["failed"] and not built["missing"], built
    return built


def test_a_small_atlas_counts_the_claims_its_executions_recorded(small_atlas):
    assert small_atlas["seeds"] == SMALL["seeds"]
    assert [stem[:2] for stem in small_atlas["lessons"]] == SMALL["lessons"]
    for stem, lesson in small_atlas["lessons"].items():
        found = find_lessons(ROOT, [stem])[0]
        course, _ = recorded_claims(executed_path(ROOT, found, BOOK))
        per_seed = {seed: recorded_claims(executed_path(ROOT, found, atlas.variant(seed, SMALL["home"])))[0]
                    for seed in SMALL["seeds"]}
        assert set(lesson["claims"]) == set(course) and len(course) >= 3
        for name, entry in lesson["claims"].items():
            assert entry["course"] == course[name]["holds"] and entry["says"] == course[name]["says"]
            assert entry["held"] == [seed for seed in SMALL["seeds"] if per_seed[seed][name]["holds"]]
    every = atlas.entries(small_atlas)
    kept = sum(e.kept for e in every)
    agreeing = sum(per == e.course for e in every
                   for per in (s in small_atlas["lessons"][e.stem]["claims"][e.name]["held"] for s in SMALL["seeds"]))
    assert kept == agreeing
    assert any(0 < e.held_true < len(SMALL["seeds"]) for e in every), "no claim differs between the seeds"
    assert json.loads(atlas.atlas_path(ROOT, SMALL["home"]).read_text()) == small_atlas


def test_the_atlas_executions_draw_nothing_and_keep_their_inputs(small_atlas):
    found = find_lessons(ROOT, ["10"])[0]
    path = executed_path(ROOT, found, atlas.variant(1, SMALL["home"]))
    mimes = {mime for output in code_outputs(path) for mime in output.get("data", {})}
    assert "image/png" not in mimes and "application/vnd.jupyter.widget-view+json" not in mimes
    texts = " ".join(output.get("data", {}).get("text/plain", "") for output in code_outputs(path))
    assert "[figure not drawn" in texts and "[explorer not drawn" in texts


def test_figures_off_change_no_table_or_claim(executed_lessons, tmp_path):
    lesson = find_lessons(ROOT, ["23"])[0]
    off = run_papermill(lesson, read_lesson(lesson), tmp_path / "off.ipynb", parameters={"FIGURES": False})
    on = executed_path(ROOT, lesson)

    def stdout(notebook):
        return "".join(o.get("text", "") for o in code_outputs(notebook) if o.get("name") == "stdout")

    assert stdout(off) == stdout(on) and stdout(off).strip()
    assert recorded_claims(off) == recorded_claims(on)


def test_a_lesson_changed_since_is_stale_and_left_out(small_atlas):
    found = find_lessons(ROOT, ["10"])[0]
    name = next(iter(small_atlas["lessons"][found.stem]["claims"]))
    current = text_stamp(found.path.read_text(encoding="utf-8"), environment_stamp(ROOT))
    entry = atlas.entry_of(small_atlas, found.stem, name, current)
    assert isinstance(entry, atlas.Entry) and entry.seeds == 2
    edited = text_stamp(found.path.read_text(encoding="utf-8") + "\nAn edit.\n", environment_stamp(ROOT))
    assert atlas.entry_of(small_atlas, found.stem, name, edited) == "stale"
    with pytest.raises(ValueError, match=f"^lesson {found.stem} has no execution of its present inputs"):
        atlas.measure_lesson(ROOT, found, SMALL["seeds"], environment_stamp(ROOT) + "changed", SMALL["home"])


def test_without_an_atlas_nothing_is_shown():
    assert atlas.entry_of(None, "10-convolution-operation", "fc_below_baseline", "any") is None
    assert atlas.load(ROOT, "no-such-atlas") is None
    assert "No atlas has been built" in atlas.page_markdown(None, {})


def test_the_page_lists_every_claim_with_its_counts(small_atlas):
    text = atlas.page_markdown(small_atlas, {})
    for e in atlas.entries(small_atlas):
        row = next(line for line in text.splitlines() if f'id="{e.anchor}"' in line)
        assert f"| {e.held_true} of 2 | {e.kept} of 2 |" in row
    assert text.count('<figure class="coursekit-figure">') == 1
    assert all(claim.says in text for claim in atlas.conclusions(small_atlas))


def test_the_built_book_shows_the_atlas_it_has(build_log):
    """With no atlas, no page mentions one; with one, each badge links to the row of its claim and says
    that row's count, or says the atlas is out of date."""
    built = atlas.load(ROOT)
    page = (ROOT / "_build" / "html" / "book" / "atlas.html").read_text(encoding="utf-8")
    badges = []
    for lesson in find_lessons(ROOT):
        html = (ROOT / "_build" / "html" / "book" / lesson.unit / f"{lesson.stem}.html").read_text(encoding="utf-8")
        badges += [(lesson, href, unescape(text)) for href, text in
                   re.findall(r'<a class="coursekit-atlas-badge[^"]*" href="([^"]*)"[^>]*>([^<]*)</a>', html)]
    if built is None:
        assert "No atlas has been built" in page and badges == []
        return
    environment = environment_stamp(ROOT)
    assert badges, "an atlas is built but no lesson page shows it"
    for lesson, href, text in badges:
        if text == "seed atlas out of date":
            assert built["lessons"][lesson.stem]["stamp"] != text_stamp(lesson.path.read_text(encoding="utf-8"),
                                                                        environment)
            continue
        anchor = href.partition("#")[2]
        entry = next(e for e in atlas.entries(built) if e.anchor == anchor)
        assert text == f"held in {entry.kept} of {entry.seeds} seeds" and f'id="{anchor}"' in page
