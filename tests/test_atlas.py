"""The seed atlas: a small one (two lessons, four seeds) counts exactly the claims its executions recorded,
and the same atlas measured in two shards and merged is the same file; merging refuses partial atlases that
are stale, overlap or leave seeds out, naming the shard; every count carries its Wilson interval and the
bands are read from it, for any number of seeds; figures off change no table or claim; a lesson changed
since is stale, not shown with old counts; without an atlas the pages say nothing of it. The book built
by the tests shows whichever case holds."""

import copy
import doctest
import json
import math
import re
from html import unescape

import pytest
from conftest import ROOT

from booktools import atlas
from booktools.execute import BOOK, environment_stamp, executed_path, read_lesson, run_papermill, text_stamp
from booktools.lessons import find_lessons
from booktools.outputs import code_outputs, recorded_claims
from coursekit.claims import SECOND_RUN_CLAIM

SMALL = {"seeds": [1, 2, 3, 4], "lessons": ["10", "23"], "home": "atlas-of-the-tests"}
"""The two cheapest lessons of the book, both with claims that differ between seeds."""


@pytest.fixture(scope="module")
def small_atlas(executed_lessons):
    built = atlas.build(ROOT, SMALL["seeds"], SMALL["lessons"], home=SMALL["home"])
    assert not built["failed"] and not built["missing"], built
    return built


@pytest.fixture(scope="module")
def sharded(small_atlas):
    """The small atlas again, as two shards (executing nothing: the whole build's executions are
    current) merged; (the whole atlas.json, the merged one, {path: partial}, executions made)."""
    whole = atlas.atlas_path(ROOT, SMALL["home"]).read_text(encoding="utf-8")
    executed = []
    partials = {}
    for index in (1, 2):
        shard = atlas.Shard(index, 2)
        partials[atlas.partial_path(ROOT, shard, SMALL["home"])] = atlas.build_shard(
            ROOT, SMALL["seeds"], shard, SMALL["lessons"], home=SMALL["home"],
            report=lambda outcome: executed.append(outcome) if outcome.executed else None)
    atlas.merge_files(ROOT, list(partials), home=SMALL["home"])
    merged = atlas.atlas_path(ROOT, SMALL["home"]).read_text(encoding="utf-8")
    return whole, merged, partials, executed


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
    first, last = small_atlas["executed"]
    assert first <= last and last.startswith("20"), small_atlas["executed"]


def test_the_atlas_merged_from_two_shards_is_the_atlas_built_whole(sharded):
    whole, merged, partials, executed = sharded
    assert merged == whole
    assert executed == [], "the shards executed again what the whole build had executed"
    stems = [lesson.stem for lesson in find_lessons(ROOT, SMALL["lessons"])]
    measured = {}
    for partial in partials.values():
        jobs = {(stem, int(seed)) for stem, lesson in partial["lessons"].items() for seed in lesson["runs"]}
        assert jobs and not jobs & set(measured), "each shard measures its own jobs"
        measured.update(dict.fromkeys(jobs, partial["shard"][0]))
    assert set(measured) == {(stem, seed) for stem in stems for seed in SMALL["seeds"]}
    # every other seed of each lesson: the two shards hold two executions of every lesson each
    assert all(measured[stem, seed] == (seed - 1) % 2 + 1 for stem, seed in measured)


def stale(partial: dict, stem: str) -> dict:
    """``partial`` as if its shard had measured ``stem`` before the lesson was edited."""
    found = find_lessons(ROOT, [stem])[0]
    changed = copy.deepcopy(partial)
    changed["lessons"][found.stem]["stamp"] = text_stamp(found.path.read_text(encoding="utf-8") + "\nAn edit.\n",
                                                         environment_stamp(ROOT))
    return changed


def test_merging_refuses_stale_overlapping_or_missing_shards_naming_them(sharded, capsys):
    _, _, partials, _ = sharded
    (path1, first), (path2, second) = partials.items()
    name = find_lessons(ROOT, ["23"])[0].stem
    with pytest.raises(ValueError, match=rf"^shard 2/2 \(b\) measured lesson {name} from other inputs than its "
                                         r"present ones .* run shard 2/2 again$"):
        atlas.merge(ROOT, {"a": first, "b": stale(second, "23")})
    with pytest.raises(ValueError, match=r"^shard 1/2 \(again\) and shard 1/2 \(a\) are the same shard: they overlap$"):
        atlas.merge(ROOT, {"a": first, "b": second, "again": first})
    with pytest.raises(ValueError, match=r"^the partial atlases leave seeds out: no partial of shard 2/2 "
                                         r"\(its jobs include seeds 2, 4\)$"):
        atlas.merge(ROOT, {"a": first})
    grown = copy.deepcopy(second)
    grown["lessons"][name]["runs"]["1"] = first["lessons"][name]["runs"]["1"]
    with pytest.raises(ValueError, match=rf"^shard 2/2 \(b\) measured lesson {name} with seeds 1, 2, 4, its share "
                                         r"of the split is seeds 2, 4$"):
        atlas.merge(ROOT, {"a": first, "b": grown})
    other_run = copy.deepcopy(second)
    other_run["seeds"] = [1, 2, 3, 4, 5]
    with pytest.raises(ValueError, match=r"^shard 2/2 \(b\) measured seeds 1 to 5, shard 1/2 \(a\) seeds 1 to 4: "
                                         r"they are shards of different runs$"):
        atlas.merge(ROOT, {"a": first, "b": other_run})
    slower = copy.deepcopy(second)
    slower["durations"][name] += 1.0
    with pytest.raises(ValueError, match=rf"^shard 2/2 \(b\) split the jobs by other lesson durations than "
                                         rf"shard 1/2 \(a\) \({name}: "):
        atlas.merge(ROOT, {"a": first, "b": slower})
    assert atlas.main(["--merge", str(path1)]) == 1
    assert "cannot merge the partial atlases: the partial atlases leave seeds out: no partial of shard 2/2" in \
        capsys.readouterr().err
    assert path2.is_file()


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
    assert isinstance(entry, atlas.Entry) and entry.seeds == len(SMALL["seeds"])
    edited = text_stamp(found.path.read_text(encoding="utf-8") + "\nAn edit.\n", environment_stamp(ROOT))
    assert atlas.entry_of(small_atlas, found.stem, name, edited) == "stale"
    # the marker stands beside the lesson's claims only, not beside a quoted number
    assert atlas.entry_of(small_atlas, found.stem, "network_number", edited) is None
    assert atlas.entry_of(small_atlas, found.stem, "a_new_claim", edited, {name, "a_new_claim"}) == "stale"
    assert atlas.entry_of(small_atlas, found.stem, name, edited, {"a_new_claim"}) is None
    with pytest.raises(ValueError, match=f"^lesson {found.stem} has no execution of its present inputs with seed 1$"):
        atlas.measure_seeds(ROOT, found, SMALL["seeds"], environment_stamp(ROOT) + "changed", SMALL["home"])


def test_without_an_atlas_nothing_is_shown():
    assert atlas.entry_of(None, "10-convolution-operation", "fc_below_baseline", "any") is None
    assert atlas.load(ROOT, "no-such-atlas") is None
    assert "No atlas has been built" in atlas.page_markdown(None, {})


def test_the_page_lists_every_claim_with_its_counts(small_atlas):
    text = atlas.page_markdown(small_atlas, {})
    n = len(SMALL["seeds"])
    for e in atlas.entries(small_atlas):
        row = next(line for line in text.splitlines() if f'id="{e.anchor}"' in line)
        true_in, held_in = (f"{k} of {n} seeds, {atlas.interval_words(k, n)}" for k in (e.held_true, e.kept))
        assert f"| {true_in} | {held_in} | {atlas.BAND_WORDS[e.band]} |" in row
    assert f"{n} seeds (seeds 1 to {n}: {n} executions of each lesson" in text
    assert "executed on " in text or "executed from " in text
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
        assert text == entry.held_words == f"held in {atlas.count_words(entry.kept, entry.seeds)}"
        assert f'id="{anchor}"' in page


def test_the_wilson_interval_and_its_examples():
    """Its doctests pass, and each end solves the score test's equation (k/n - p)^2 = z^2 p (1 - p) / n."""
    assert doctest.testmod(atlas).failed == 0
    for k, n in [(73, 100), (1, 10), (9, 10), (5, 5), (0, 3), (50, 100), (1, 1)]:
        low, high = atlas.wilson_interval(k, n)
        assert 0 <= low <= k / n <= high <= 1
        for end in (low, high):
            if end not in (0.0, 1.0) or 0 < k < n:
                assert math.isclose((k / n - end) ** 2, atlas.Z ** 2 * end * (1 - end) / n, abs_tol=1e-12)
    assert atlas.interval_words(73, 100) == "64–81%"
    for bad in [(-1, 10), (3, 2), (1, 0), (1.0, 2), (True, 2)]:
        with pytest.raises(ValueError, match="must be a whole number"):
            atlas.wilson_interval(*bad)


def synthetic_atlas(n: int) -> dict:
    """An atlas of n seeds with one claim kept in each possible number of seeds, and the second-run claim."""
    seeds = list(range(1, n + 1))
    claims = {f"kept_{k}": {"says": f"Kept in {k}.", "course": True, "held": seeds[:k]} for k in range(n + 1)}
    claims[SECOND_RUN_CLAIM] = {"says": "The second run moved more.", "course": False, "held": seeds[: n // 3]}
    return {"seeds": seeds, "lessons": {"10-any": {"stamp": "s", "claims": claims}}, "missing": {},
            "failed": [], "executed": ["2026-01-02T03:04:05+00:00", "2026-01-03T03:04:05+00:00"]}


@pytest.mark.parametrize("n", [1, 3, 10, 30, 100])
def test_the_page_and_badges_are_right_for_any_number_of_seeds(n):
    built = synthetic_atlas(n)
    text = atlas.page_markdown(built, {})
    seeds = "seed" if n == 1 else "seeds"
    for e in atlas.entries(built):
        low, high = e.interval
        band = ("robust" if low >= atlas.ROBUST_SHARE else "most" if low > 0.5 else
                "fragile" if low <= 0.5 <= high else "minority")
        assert e.band == band
        assert e.held_words == f"held in {e.kept} of {n} {seeds}, {100 * low:.0f}–{100 * high:.0f}%"
        row = next(line for line in text.splitlines() if f'id="{e.anchor}"' in line)
        assert row.endswith(f"| {e.kept} of {n} {seeds}, {atlas.interval_words(e.kept, n)} | "
                            f"{atlas.BAND_WORDS[e.band]} |")
    least = atlas.robust_from(n)
    robust = [e.kept for e in atlas.entries(built) if e.band == "robust"]
    assert robust == ([] if least is None else list(range(least, n + 1)))
    if least is None:
        assert f"with {n} {seeds} no count is enough: even {n} of {n} {seeds}" in text
    else:
        assert f"with {n} {seeds}: held in at least {least} of them" in text
    assert f"Built from 1 lesson and {n} {seeds} (" in text
    assert "executed from 2026-01-02 to 2026-01-03 (UTC)" in text
    assert not re.search(r"\bonly 0\b|\b1 (seeds|lessons|executions)\b", text)
    assert all(claim.says in text for claim in atlas.conclusions(built))


def test_the_split_depends_only_on_its_inputs_and_balances_the_shards():
    lessons = [f"{i:02d}-lesson" for i in range(1, 25)]
    seconds = {stem: float(i % 7 + 1) for i, stem in enumerate(lessons)}
    for seeds, count in [(100, 10), (25, 10), (7, 3), (3, 10), (4, 1)]:
        split = atlas.plan(lessons, list(range(1, seeds + 1)), count, seconds)
        assert split == atlas.plan(list(lessons), list(range(1, seeds + 1)), count, dict(reversed(seconds.items())))
        assert set(split) == {(stem, seed) for stem in lessons for seed in range(1, seeds + 1)}
        load = [sum(seconds[stem] for (stem, _), k in split.items() if k == shard) for shard in range(1, count + 1)]
        assert max(load) - min(load) <= max(seconds.values()), (seeds, count, load)
    # a hundred seeds in ten shards: ten executions of every lesson each, whatever the durations
    split = atlas.plan(lessons, list(range(1, 101)), 10, seconds)
    assert all(sum(split[stem, seed] == k for seed in range(1, 101)) == 10 for stem in lessons for k in range(1, 11))
    assert split == atlas.plan(lessons, list(range(1, 101)), 10, {stem: 1.0 for stem in lessons})
