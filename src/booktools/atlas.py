"""The seed atlas: every claim of every lesson, measured over many seeds.

A lesson's conclusions are computed claims (`coursekit.claims`): with the course seed the reader reads
one sentence of each pair. The atlas executes every lesson again with seeds 1 to N (with
``FIGURES = False``: the same tables and claims, nothing drawn) and counts, for each claim, in how many
seeds its condition came out as with the course seed, so that the reader read the same sentence.
A conclusion *holds* with a seed when that seed's execution reaches it again.

    make atlas                     # seeds 1 to 10
    make atlas SEEDS=3
    python -m booktools.atlas --seeds 3 10 23     # only lessons 10 and 23

Each execution is one of the book's (`booktools.execute`): stock papermill, stamped with its inputs,
executed again only when the lesson, coursekit, the requirements, Python or the platform changed, side
by side on the machine's cores. The result is ``_build/atlas/atlas.json``: per lesson, the stamp of
the inputs it was measured from and each claim's outcome for the course seed and every seed. The book
shows it on its atlas page (``book/atlas.md``, the ``seed-atlas`` directive) and beside each claim of a
lesson page, unless the lesson changed since, in which case the page says that the atlas is out of date.
"""

import argparse
import io
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from coursekit.claims import SECOND_RUN_CLAIM, Claim

from .execute import (
    BOOK,
    Variant,
    environment_stamp,
    execute_lessons,
    executed_path,
    stored_stamp,
    text_stamp,
)
from .lessons import Lesson, find_lessons, project_root
from .outputs import recorded_claims

DEFAULT_SEEDS = 10
HOME = "atlas"  # under _build/
ROBUST_SHARE = 0.9
"""A conclusion is robust when it holds in at least this share of the seeds."""


def variant(seed: int, home: str = HOME) -> Variant:
    """The atlas's execution of a lesson with ``seed``: no figures, under ``_build/<home>/seed-<seed>``."""
    return Variant((("SEED", seed), ("FIGURES", False)), home=f"{home}/seed-{seed}")


def atlas_path(root: Path, home: str = HOME) -> Path:
    return root / "_build" / home / "atlas.json"


def execute(root: Path, seeds: list[int], selection=None, workers: int | None = None, home: str = HOME,
            report=None):
    """Execute what is stale of the book and of every seed, in one pool; the outcomes."""
    variants = (BOOK, *(variant(seed, home) for seed in seeds))
    return execute_lessons(root, selection, workers=workers, report=report, variants=variants)


def measure_lesson(root: Path, lesson: Lesson, seeds: list[int], environment: str, home: str = HOME) -> dict:
    """The lesson's claims over the course seed and ``seeds``, read from executions of its present
    inputs; ValueError naming what is missing or stale."""
    text = lesson.path.read_text(encoding="utf-8")
    runs = {}
    for seed, v in [(None, BOOK), *((seed, variant(seed, home)) for seed in seeds)]:
        path = executed_path(root, lesson, v)
        if stored_stamp(path) != text_stamp(text, environment, v):
            which = "the course seed" if seed is None else f"seed {seed}"
            raise ValueError(f"lesson {lesson.stem} has no execution of its present inputs with {which}")
        claims, problems = recorded_claims(path)
        if problems:
            raise ValueError(f"lesson {lesson.stem}: {'; '.join(problems)}")
        runs[seed] = claims
    course = runs.pop(None)
    claims = {}
    for name, entry in course.items():
        missing = [seed for seed, recorded in runs.items() if name not in recorded]
        if missing:
            raise ValueError(f"lesson {lesson.stem}: claim {name} is not recorded with seed {missing[0]}")
        claims[name] = {"says": entry["says"], "course": entry["holds"],
                        "held": [seed for seed in seeds if runs[seed][name]["holds"]]}
    return {"stamp": text_stamp(text, environment), "claims": claims}


def collect(root: Path, seeds: list[int], selection=None, home: str = HOME) -> dict:
    """The atlas of the lessons whose executions are all current (the others listed with the reason)."""
    environment = environment_stamp(root)
    atlas = {"seeds": list(seeds), "lessons": {}, "missing": {}}
    for lesson in find_lessons(root, selection):
        try:
            atlas["lessons"][lesson.stem] = measure_lesson(root, lesson, seeds, environment, home)
        except ValueError as error:
            atlas["missing"][lesson.stem] = str(error)
    return atlas


def load(root: Path, home: str = HOME) -> dict | None:
    """The atlas built last, or None when there is none."""
    path = atlas_path(root, home)
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else None


# --- reading the atlas ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Entry:
    """One claim of one lesson, over the seeds."""

    stem: str
    name: str
    says: str  # the sentence the reader read (the course seed's)
    course: bool  # the condition with the course seed
    held_true: int  # seeds in which the condition was true
    seeds: int

    @property
    def kept(self) -> int:
        """Seeds whose execution reached the course seed's conclusion (the same sentence)."""
        return self.held_true if self.course else self.seeds - self.held_true

    @property
    def band(self) -> str:
        """robust (nearly every seed), fragile (at least half the seeds, not nearly all) or minority (the
        course seed reached a conclusion most seeds do not)."""
        if self.kept >= ROBUST_SHARE * self.seeds:
            return "robust"
        return "fragile" if 2 * self.kept >= self.seeds else "minority"

    @property
    def anchor(self) -> str:
        return f"atlas-{self.stem[:2]}-{self.name.replace('_', '-')}"


def entries(atlas: dict) -> list[Entry]:
    n = len(atlas["seeds"])
    return [Entry(stem, name, claim["says"], claim["course"], len(claim["held"]), n)
            for stem, lesson in atlas["lessons"].items() for name, claim in lesson["claims"].items()]


def entry_of(atlas: dict | None, stem: str, name: str, stamp: str) -> Entry | str | None:
    """What a lesson page shows beside claim ``name``: its `Entry`, ``"stale"`` when the lesson's inputs
    (``stamp``, `booktools.execute.text_stamp` of its present text) changed since the atlas was built,
    or None (no atlas, or a claim the atlas does not hold)."""
    if atlas is None or stem not in atlas["lessons"]:
        return None
    lesson = atlas["lessons"][stem]
    if lesson["stamp"] != stamp:
        return "stale"
    if name not in lesson["claims"]:
        return None
    return next(e for e in entries({"seeds": atlas["seeds"], "lessons": {stem: lesson}}) if e.name == name)


def second_run_counts(atlas: dict) -> dict[int, tuple[int, int]]:
    """Per seed: in how many of the lessons recording `SECOND_RUN_CLAIM` the second run moved the
    number more than the change studied, and how many record it (the wrap-up's count, per seed)."""
    claims = second_run_claims(atlas)
    return {seed: (sum(seed in claim["held"] for claim in claims), len(claims)) for seed in atlas["seeds"]}


def course_second_run_count(atlas: dict) -> tuple[int, int]:
    """The wrap-up's count with the course seed, over the same lessons."""
    claims = second_run_claims(atlas)
    return sum(claim["course"] for claim in claims), len(claims)


def second_run_claims(atlas: dict) -> list[dict]:
    """`SECOND_RUN_CLAIM` of every lesson that records it."""
    return [lesson["claims"][SECOND_RUN_CLAIM] for lesson in atlas["lessons"].values()
            if SECOND_RUN_CLAIM in lesson["claims"]]


def minority_counts(atlas: dict) -> dict[int, int]:
    """Per atlas seed: in how many claims fewer than half of the other seeds reached its conclusion, the
    others being the rest of the atlas's seeds and the course seed (as many as the course seed is
    compared with), so that the course seed's count has something to be compared with."""
    n, counts = len(atlas["seeds"]), {}
    for seed in atlas["seeds"]:
        counts[seed] = 0
        for lesson in atlas["lessons"].values():
            for claim in lesson["claims"].values():
                mine = seed in claim["held"]
                others = [other in claim["held"] for other in atlas["seeds"] if other != seed] + [claim["course"]]
                counts[seed] += 2 * sum(outcome == mine for outcome in others) < n
    return counts


def most_fragile(atlas: dict, count: int = 5) -> list[Entry]:
    """The conclusions kept in the fewest seeds (ties in course order)."""
    return sorted(entries(atlas), key=lambda e: e.kept)[:count]


def conclusions(atlas: dict) -> list[Claim]:
    """What the atlas says about the course, as claims computed from it."""
    every = entries(atlas)
    n, total = len(atlas["seeds"]), len(every)
    robust = sum(e.band == "robust" for e in every)
    minority = [e for e in every if e.band == "minority"]
    counts = second_run_counts(atlas)
    k, lessons = course_second_run_count(atlas)
    majority = sum(2 * held > of for held, of in counts.values())
    others = list(minority_counts(atlas).values())
    seeds = "seed" if n == 1 else "seeds"
    return [
        Claim("atlas_mostly_robust", 2 * robust > total,
              yes=f"Most conclusions of the course are robust: {robust} of the {total} hold in at least "
                  f"{ROBUST_SHARE:.0%} of the {n} {seeds}.",
              no=f"Most conclusions of the course are not robust: only {robust} of the {total} hold in at "
                 f"least {ROBUST_SHARE:.0%} of the {n} {seeds}."),
        Claim("atlas_course_seed_typical", len(minority) <= max(others),
              yes=f"The course seed is a typical seed: it reached a conclusion that most seeds do not in "
                  f"{len(minority)} of the {total} claims, and each seed of the atlas did so in "
                  f"{min(others)} to {max(others)} (each counted against the other seeds and the course seed).",
              no=f"The course seed was lucky (or unlucky) more often than any seed of the atlas: in "
                 f"{len(minority)} of the {total} claims it reached a conclusion that most seeds do not, "
                 f"each seed of the atlas in {min(others)} to {max(others)}."),
        Claim("atlas_second_run_outweighs_in_most", 2 * majority > n,
              yes=f"The wrap-up's first count holds beyond the course seed: in {majority} of the {n} {seeds} "
                  f"the second run moved the number more than the change studied in most of the "
                  f"{lessons} lessons that compare the two (with the course seed, in {k}).",
              no=f"The wrap-up's first count does not carry over to most seeds: "
                 f"{f'in only {majority}' if majority else 'in none'} of the {n} {seeds} did the second run "
                 f"move the number more than the change studied in most of the {lessons} lessons that "
                 f"compare the two (with the course seed, in {k})."),
    ]


# --- the page -------------------------------------------------------------------------------------------

BAND_WORDS = {"robust": "robust", "fragile": "fragile", "minority": "course seed in the minority"}


def figure(atlas: dict, titles: dict[str, str]):
    """Lessons (rows) by their claims (columns), each cell shaded by the share of seeds that reached the
    course seed's conclusion; a matplotlib figure."""
    import matplotlib

    matplotlib.use("agg")
    import matplotlib.pyplot as plt
    from matplotlib.colors import ListedColormap

    stems = list(atlas["lessons"])
    by_lesson = {stem: [e for e in entries(atlas) if e.stem == stem] for stem in stems}
    width = max(len(row) for row in by_lesson.values())
    grid = [[(e.kept / e.seeds) for e in by_lesson[stem]] + [float("nan")] * (width - len(by_lesson[stem]))
            for stem in stems]
    fig, ax = plt.subplots(figsize=(1.6 + 0.42 * width, 0.9 + 0.3 * len(stems)))
    colours = plt.get_cmap("viridis")
    image = ax.imshow(grid, cmap=ListedColormap(colours(range(colours.N))), vmin=0, vmax=1, aspect="auto")
    ax.set_yticks(range(len(stems)), [f"{stem[:2]} {titles.get(stem, stem)[:28]}" for stem in stems], fontsize=8)
    ax.set_xticks(range(width), [str(i + 1) for i in range(width)], fontsize=8)
    ax.set_xlabel("claim of the lesson, in the order the lesson records them")
    bar = fig.colorbar(image, ax=ax, fraction=0.04, pad=0.02)
    bar.set_label("share of the seeds", fontsize=8)
    ax.set_title(f"Every claim of the course: the share of {len(atlas['seeds'])} seeds that reached the "
                 "course seed's conclusion", fontsize=9)
    fig.tight_layout()
    return fig


def png_of(fig) -> bytes:
    import matplotlib.pyplot as plt

    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", bbox_inches="tight", dpi=90)
    plt.close(fig)
    return buffer.getvalue()


def figure_description(atlas: dict) -> str:
    every = entries(atlas)
    bands = {band: sum(e.band == band for e in every) for band in BAND_WORDS}
    return (f"A grid of {len(atlas['lessons'])} lessons (rows) by their claims (columns), each cell shaded "
            f"from dark (no seed reached the conclusion the course seed reached) to bright yellow (every "
            f"seed did), over {len(atlas['seeds'])} seeds. Of the {len(every)} claims, {bands['robust']} are "
            f"robust, {bands['fragile']} fragile and in {bands['minority']} the course seed reached a "
            f"conclusion most seeds do not.")


def page_markdown(atlas: dict | None, titles: dict[str, str], link=lambda stem: stem) -> str:
    """The atlas page's computed part as MyST Markdown (a note when no atlas has been built)."""
    if atlas is None or not atlas["lessons"]:
        return ("No atlas has been built for this copy of the book. Run `make atlas` (seeds 1 to 10) or "
                "`make atlas SEEDS=3`, then `make book`, and this page lists every claim of the course "
                "with the number of seeds in which it holds.\n")
    from coursekit.plots import figure_html

    n, every = len(atlas["seeds"]), entries(atlas)
    bands = {band: [e for e in every if e.band == band] for band in BAND_WORDS}
    k, lessons = course_second_run_count(atlas)
    counts = second_run_counts(atlas)
    lines = [f"Built from {len(atlas['lessons'])} lessons and seeds {atlas['seeds'][0]} to {atlas['seeds'][-1]} "
             f"({n} executions of each lesson besides the course seed's): {len(every)} claims, of which "
             f"{len(bands['robust'])} are robust (the course seed's conclusion reached in at least "
             f"{ROBUST_SHARE:.0%} of the seeds), {len(bands['fragile'])} fragile (in at least half of them, "
             f"not nearly all) and {len(bands['minority'])} where the course seed reached a conclusion most seeds do "
             f"not.", ""]
    lines += [f"- {claim.says}" for claim in conclusions(atlas)]
    if atlas["missing"]:
        lines += ["", "Left out (no current execution): " + ", ".join(sorted(atlas["missing"])) + "."]
    png = png_of(figure(atlas, titles))
    lines += ["", "```{raw} html", figure_html(png, figure_description(atlas)), "```", ""]
    lines += ["## The wrap-up's count, seed by seed", "",
              f"With the course seed, the second run moved the number more than the change studied in {k} "
              f"of the {lessons} lessons that compare the two. Over the atlas's seeds:", "",
              "| Lessons where the second run moved more | Seeds |", "|---:|---:|"]
    for value in sorted({held for held, _ in counts.values()}):
        seeds = [seed for seed, (held, _) in counts.items() if held == value]
        lines.append(f"| {value} of {lessons} | {len(seeds)} ({', '.join(map(str, seeds))}) |")
    fragile = most_fragile(atlas)
    lines += ["", "## The most fragile conclusions", "",
              "The conclusions the fewest seeds reached again, as the reader read them with the course seed:",
              ""]
    lines += [f"{i}. {e.stem[:2]} `{e.name}`: held in {e.kept} of {n} seeds. {e.says}"
              for i, e in enumerate(fragile, start=1)]
    lines += ["", "## Every claim, lesson by lesson", ""]
    for stem in atlas["lessons"]:
        lines += [f"**{stem[:2]}. {link(stem)}**", "",
                  "| Claim | As the reader read it | Condition, course seed | True in | Held in | |",
                  "|---|---|---|---:|---:|---|"]
        for e in (e for e in every if e.stem == stem):
            says = e.says.replace("|", "\\|")
            lines.append(f'| <span id="{e.anchor}"></span>`{e.name}` | {says} | {str(e.course).lower()} | '
                         f"{e.held_true} of {n} | {e.kept} of {n} | {BAND_WORDS[e.band]} |")
        lines.append("")
    return "\n".join(lines) + "\n"


# --- the command ----------------------------------------------------------------------------------------

def build(root: Path, seeds: list[int], selection=None, workers: int | None = None, home: str = HOME,
          report=None) -> dict:
    """Execute what is stale, collect the claims, write ``_build/<home>/atlas.json``; the atlas."""
    outcomes = execute(root, seeds, selection, workers, home, report)
    failed = [o for o in outcomes if o.error]
    atlas = collect(root, seeds, selection, home)
    atlas["failed"] = [f"{o.lesson.stem} ({o.variant.folder})" for o in failed]
    path = atlas_path(root, home)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(atlas, indent=1, sort_keys=True), encoding="utf-8")
    return atlas


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=DEFAULT_SEEDS, help="seeds 1 to N (default 10)")
    parser.add_argument("--workers", type=int, default=None, help="kernels at once (default: cores)")
    parser.add_argument("lessons", nargs="*", help="lesson numbers or slugs (default: all)")
    args = parser.parse_args(argv)
    if args.seeds < 1:
        parser.error(f"--seeds must be at least 1, got {args.seeds}")
    started = time.perf_counter()
    counter = {"executed": 0}

    def report(outcome) -> None:
        if outcome.error:
            print(f"FAILED   {outcome.lesson.stem} ({outcome.variant.folder})\n{outcome.error}", file=sys.stderr)
        elif outcome.executed:
            counter["executed"] += 1
            print(f"executed {outcome.lesson.stem} ({outcome.variant.folder}) in {outcome.seconds:.1f} s",
                  flush=True)

    root = project_root()
    atlas = build(root, list(range(1, args.seeds + 1)), args.lessons or None, args.workers, report=report)
    total = sum(len(lesson["claims"]) for lesson in atlas["lessons"].values())
    print(f"atlas of {len(atlas['lessons'])} lessons, {total} claims, seeds 1-{args.seeds}: "
          f"{counter['executed']} executions, {time.perf_counter() - started:.1f} s -> "
          f"{atlas_path(root).relative_to(root)}")
    for stem, reason in atlas["missing"].items():
        print(f"left out {stem}: {reason}", file=sys.stderr)
    return 1 if atlas["failed"] or atlas["missing"] else 0


if __name__ == "__main__":
    sys.exit(main())
