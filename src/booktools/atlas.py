"""The seed atlas: every claim of every lesson, measured over many seeds.

A lesson's conclusions are computed claims (`coursekit.claims`): with the course seed the reader reads
one sentence of each pair. The atlas executes every lesson again with seeds 1 to N (with
``FIGURES = False``: the same tables and claims, nothing drawn) and counts, for each claim, in how many
seeds its condition came out as with the course seed, so that the reader read the same sentence.
A conclusion *holds* with a seed when that seed's execution reaches it again. Every count comes with
its 95% Wilson interval (`wilson_interval`), and a conclusion's band (robust, holds in most seeds,
fragile, course seed in the minority) is read from that interval, never from the point share.

    make atlas                                    # seeds 1 to 10, on this machine
    make atlas SEEDS=1-100 SHARD=3/10             # the third of ten shards of seeds 1 to 100
    make atlas-merge                              # the shards' partial atlases into one atlas
    python -m booktools.atlas --seeds 1-4 10 23   # only lessons 10 and 23

**Shards.** The (lesson, seed) jobs of a run are split by `plan`, which depends only on the lessons,
the seeds, the number of shards and the lessons' last durations (read from the book's executions and
recorded in every partial atlas): of each lesson every K-th seed goes to the same shard (so each of
the K shards runs the same executions of every lesson, balanced whatever each lesson takes, and keeps
the same seeds from run to run), and the seeds left over when K does not divide their number go,
longest lesson first, to the shard with the least work. A shard executes its jobs only (not the
book's lessons) and writes ``_build/atlas/partials/shard-K-of-N.json``; `merge` checks that the
partials come from one split of one run, that they neither overlap nor leave a seed out and that
every lesson was measured from its present inputs, naming the shard at fault, and adds the course
seed's claims from the book's own executions. The whole atlas (no ``--shard``) is the one shard of a
single-shard split, merged the same way.

Each execution is one of the book's (`booktools.execute`): stock papermill, stamped with its inputs,
executed again only when the lesson, coursekit, the requirements, Python or the platform changed, side
by side on the machine's cores. The result is ``_build/atlas/atlas.json``: the seeds, when its
executions ran, and per lesson the stamp of the inputs it was measured from and each claim's outcome
for the course seed and every seed. The book shows it on its atlas page (``book/atlas.md``, the
``seed-atlas`` directive) and beside each claim of a lesson page, unless the lesson changed since, in
which case the page says that the atlas is out of date.
"""

import argparse
import hashlib
import io
import json
import math
import re
import sys
import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from statistics import NormalDist

import nbformat

from coursekit.claims import SECOND_RUN_CLAIM, Claim

from .execute import (
    BOOK,
    STAMP_KEY,
    Variant,
    environment_stamp,
    execute_lessons,
    executed_path,
    last_seconds,
    text_stamp,
)
from .lessons import Lesson, find_lessons, project_root
from .outputs import recorded_claims

DEFAULT_SEEDS = 10
HOME = "atlas"  # under _build/
PARTIALS = "partials"  # under _build/<home>/
CONFIDENCE = 0.95
Z = NormalDist().inv_cdf(0.5 + CONFIDENCE / 2)  # 1.959963...
ROBUST_SHARE = 0.8
"""A conclusion is robust when its interval's lower end is at least this share of the seeds."""


# --- counts and their intervals ---------------------------------------------------------------------------

def wilson_interval(successes: int, trials: int, z: float = Z) -> tuple[float, float]:
    """The Wilson score interval (95% for the default ``z``) of the share behind ``successes`` of
    ``trials``: the shares of all seeds that the count is consistent with.

    >>> low, high = wilson_interval(73, 100)
    >>> f"{low:.1%} to {high:.1%}"
    '63.6% to 80.7%'
    >>> wilson_interval(10, 10)[1], round(wilson_interval(10, 10)[0], 3)
    (1.0, 0.722)
    >>> wilson_interval(0, 10)[0], round(wilson_interval(0, 10)[1], 3)
    (0.0, 0.278)
    >>> wilson_interval(11, 10)
    Traceback (most recent call last):
    ...
    ValueError: successes must be a whole number from 0 to trials (10), got 11
    >>> wilson_interval(0, 0)
    Traceback (most recent call last):
    ...
    ValueError: trials must be a whole number of at least 1, got 0
    """
    if isinstance(trials, bool) or not isinstance(trials, int) or trials < 1:
        raise ValueError(f"trials must be a whole number of at least 1, got {trials!r}")
    if isinstance(successes, bool) or not isinstance(successes, int) or not 0 <= successes <= trials:
        raise ValueError(f"successes must be a whole number from 0 to trials ({trials}), got {successes!r}")
    if not (isinstance(z, (int, float)) and math.isfinite(z) and z > 0):
        raise ValueError(f"z must be a positive number, got {z!r}")
    share, spread = successes / trials, z * z / trials
    centre = (share + spread / 2) / (1 + spread)
    half = z * math.sqrt(share * (1 - share) / trials + spread / (4 * trials)) / (1 + spread)
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return low, high


def interval_words(successes: int, trials: int) -> str:
    """The interval in whole percent: ``"64–81%"`` for 73 of 100."""
    low, high = wilson_interval(successes, trials)
    return f"{100 * low:.0f}–{100 * high:.0f}%"


def count_words(successes: int, trials: int, noun: str = "seeds") -> str:
    """``"73 of 100 seeds, 64–81%"`` (``"1 of 1 seed, 21–100%"``)."""
    noun = noun.removesuffix("s") if trials == 1 else noun
    return f"{successes} of {trials} {noun}, {interval_words(successes, trials)}"


def band_of(successes: int, trials: int) -> str:
    """robust (the interval's lower end at least `ROBUST_SHARE`), most (the interval above one half, not
    all of it at `ROBUST_SHARE` or more), fragile (the interval holds one half: the seeds could go either
    way) or minority (the interval below one half)."""
    low, high = wilson_interval(successes, trials)
    if low >= ROBUST_SHARE:
        return "robust"
    if low > 0.5:
        return "most"
    return "fragile" if high >= 0.5 else "minority"


def robust_from(trials: int) -> int | None:
    """The fewest seeds of ``trials`` a conclusion must hold in to be robust (None: no count is enough)."""
    return next((k for k in range(trials + 1) if band_of(k, trials) == "robust"), None)


# --- seeds, shards and the split of the jobs ----------------------------------------------------------------

SEED_RANGE = re.compile(r"^(?P<first>\d+)(?:-(?P<last>\d+))?$")


def parse_seeds(text: str) -> list[int]:
    """``"10"``: seeds 1 to 10; ``"1-100"``, ``"5-8"``: that range. ValueError naming a bad value.

    >>> parse_seeds("3"), parse_seeds("5-8")
    ([1, 2, 3], [5, 6, 7, 8])
    >>> parse_seeds("8-5")
    Traceback (most recent call last):
    ...
    ValueError: seeds must be N (seeds 1 to N) or FIRST-LAST with 1 <= FIRST <= LAST, got '8-5'
    """
    match = SEED_RANGE.match(str(text).strip())
    first, last = (1, int(match["first"])) if match and match["last"] is None else (
        (int(match["first"]), int(match["last"])) if match else (0, 0))
    if not 1 <= first <= last:
        raise ValueError(f"seeds must be N (seeds 1 to N) or FIRST-LAST with 1 <= FIRST <= LAST, got {text!r}")
    return list(range(first, last + 1))


def seeds_words(seeds: list[int]) -> str:
    """``"seeds 1 to 100"`` for a range, else the seeds listed."""
    if len(seeds) == 1:
        return f"seed {seeds[0]}"
    if seeds == list(range(seeds[0], seeds[-1] + 1)):
        return f"seeds {seeds[0]} to {seeds[-1]}"
    return "seeds " + ", ".join(map(str, seeds))


@dataclass(frozen=True)
class Shard:
    """Shard ``index`` of ``count`` (from 1)."""

    index: int
    count: int

    def __post_init__(self):
        if not (isinstance(self.count, int) and isinstance(self.index, int) and 1 <= self.index <= self.count):
            raise ValueError(f"a shard is K/N with 1 <= K <= N, got {self.index}/{self.count}")

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"

    @property
    def file_name(self) -> str:
        return f"shard-{self.index}-of-{self.count}.json"


def parse_shard(text: str) -> Shard:
    """``"3/10"``: the third of ten shards. ValueError naming a bad value.

    >>> parse_shard("3/10")
    Shard(index=3, count=10)
    >>> parse_shard("11/10")
    Traceback (most recent call last):
    ...
    ValueError: a shard is K/N with 1 <= K <= N, got 11/10
    """
    match = re.fullmatch(r"(\d+)/(\d+)", str(text).strip())
    if not match:
        raise ValueError(f"a shard is K/N with 1 <= K <= N, got {text!r}")
    return Shard(int(match[1]), int(match[2]))


def durations(root: Path, lessons: list[Lesson]) -> dict[str, float]:
    """Each lesson's last duration for the book (seconds, to a tenth; 0 when it has none)."""
    return {lesson.stem: round(last_seconds(root, lesson), 1) for lesson in lessons}


def plan(stems: list[str], seeds: list[int], count: int, seconds: dict[str, float]) -> dict[tuple[str, int], int]:
    """The shard (1 to ``count``) that executes each (lesson, seed) job.

    Of each lesson, the seed at place i among the first q * count seeds (q = len(seeds) // count) goes
    to shard i % count + 1: every count-th job, so that every shard runs q executions of every lesson
    (balanced whatever each lesson takes) and the same seeds from run to run. The seeds left over go,
    lesson by lesson from the longest (``seconds``: each lesson's last duration, the mean of the known
    ones where it is 0), each to the shard with the least of that work so far (the first of equal
    ones). The split depends on its arguments only, so that shards run apart agree on it.

    >>> split = plan(["a", "b"], [1, 2, 3], 2, {"a": 5.0, "b": 1.0})
    >>> [(job, split[job]) for job in sorted(split)]
    [(('a', 1), 1), (('a', 2), 2), (('a', 3), 1), (('b', 1), 1), (('b', 2), 2), (('b', 3), 2)]
    """
    if count < 1:
        raise ValueError(f"count must be at least 1, got {count}")
    known = [s for s in seconds.values() if s > 0]
    weight = {stem: seconds.get(stem, 0) or (sum(known) / len(known) if known else 1.0) for stem in stems}
    whole = len(seeds) // count * count
    split = {(stem, seed): i % count + 1 for stem in stems for i, seed in enumerate(seeds[:whole])}
    load = [0.0] * count
    for stem in sorted(stems, key=lambda stem: (-weight[stem], stems.index(stem))):
        for seed in seeds[whole:]:
            shard = min(range(count), key=lambda k: (load[k], k))
            split[stem, seed] = shard + 1
            load[shard] += weight[stem]
    return split


def plan_digest(split: dict[tuple[str, int], int]) -> str:
    return hashlib.sha256(json.dumps(sorted(split.items())).encode()).hexdigest()[:16]


# --- executing and measuring ------------------------------------------------------------------------------

def variant(seed: int, home: str = HOME) -> Variant:
    """The atlas's execution of a lesson with ``seed``: no figures, under ``_build/<home>/seed-<seed>``."""
    return Variant((("SEED", seed), ("FIGURES", False)), home=f"{home}/seed-{seed}")


def atlas_path(root: Path, home: str = HOME) -> Path:
    return root / "_build" / home / "atlas.json"


def partial_path(root: Path, shard: Shard, home: str = HOME) -> Path:
    return root / "_build" / home / PARTIALS / shard.file_name


def execute(root: Path, seeds: list[int], selection=None, workers: int | None = None, home: str = HOME,
            report=None, only: set[tuple[str, Variant]] | None = None, book: bool = True):
    """Execute what is stale of the book (unless ``book`` is False) and of every seed (of the ``only``
    jobs, when given), in one pool; the outcomes."""
    variants = (BOOK,) * book + tuple(variant(seed, home) for seed in seeds)
    jobs = None if only is None else only | ({(lesson.stem, BOOK) for lesson in find_lessons(root, selection)}
                                             if book else set())
    return execute_lessons(root, selection, workers=workers, report=report, variants=variants, only=jobs)


def read_execution(root: Path, lesson: Lesson, stamp: str, v: Variant, which: str) -> tuple[dict, str | None]:
    """The claims recorded by the lesson's execution ``v`` and when it ended; ValueError naming the
    lesson when there is no execution of its present inputs (``stamp``) or its claims are malformed."""
    path = executed_path(root, lesson, v)
    try:
        notebook = nbformat.read(path, as_version=4)
    except (OSError, ValueError):
        notebook = None
    if notebook is None or notebook.metadata.get(STAMP_KEY) != stamp:
        raise ValueError(f"lesson {lesson.stem} has no execution of its present inputs with {which}")
    claims, problems = recorded_claims(notebook)
    if problems:
        raise ValueError(f"lesson {lesson.stem}: {'; '.join(problems)}")
    return claims, notebook.metadata.get("papermill", {}).get("end_time")


def measure_seeds(root: Path, lesson: Lesson, seeds: list[int], environment: str, home: str = HOME) -> dict:
    """The lesson's claims with each of ``seeds``, from executions of its present inputs:
    ``{"stamp", "runs": {seed: {claim: holds}}, "executed": [first, last end time]}``; ValueError
    naming the lesson and the seed when one is missing or stale."""
    text = lesson.path.read_text(encoding="utf-8")
    runs, ends = {}, []
    for seed in seeds:
        v = variant(seed, home)
        claims, end = read_execution(root, lesson, text_stamp(text, environment, v), v, f"seed {seed}")
        runs[str(seed)] = {name: entry["holds"] for name, entry in claims.items()}
        ends += [end] if end else []
    return {"stamp": text_stamp(text, environment), "runs": runs, "executed": time_span(ends)}


def time_span(times) -> list[str] | None:
    """The first and the last of ISO times (None when there are none)."""
    times = sorted((t for t in times if t), key=datetime.fromisoformat)
    return [times[0], times[-1]] if times else None


def measure_partial(root: Path, seeds: list[int], shard: Shard, selection=None, home: str = HOME,
                    failed=()) -> dict:
    """The partial atlas of ``shard``: the claims of each of its jobs, with what every shard of the run
    must agree on (the seeds, the lessons, their durations, the split)."""
    lessons = find_lessons(root, selection)
    seconds = durations(root, lessons)
    split = plan([lesson.stem for lesson in lessons], seeds, shard.count, seconds)
    environment = environment_stamp(root)
    partial = {"shard": [shard.index, shard.count], "seeds": list(seeds),
               "lessons_of_run": [lesson.stem for lesson in lessons], "durations": seconds,
               "plan": plan_digest(split), "lessons": {}, "missing": {}, "failed": sorted(failed)}
    for lesson in lessons:
        mine = [seed for seed in seeds if split[lesson.stem, seed] == shard.index]
        if not mine:
            continue
        try:
            partial["lessons"][lesson.stem] = measure_seeds(root, lesson, mine, environment, home)
        except ValueError as error:
            partial["missing"][lesson.stem] = str(error)
    partial["executed"] = time_span(t for lesson in partial["lessons"].values() for t in lesson["executed"] or ())
    return partial


def build_shard(root: Path, seeds: list[int], shard: Shard, selection=None, workers: int | None = None,
                home: str = HOME, report=None) -> dict:
    """Execute what is stale of the shard's jobs (not the book's), measure them, write the partial atlas
    ``_build/<home>/partials/shard-K-of-N.json``; the partial atlas."""
    lessons = find_lessons(root, selection)
    split = plan([lesson.stem for lesson in lessons], seeds, shard.count, durations(root, lessons))
    only = {(stem, variant(seed, home)) for (stem, seed), k in split.items() if k == shard.index}
    outcomes = execute(root, seeds, selection, workers, home, report, only=only, book=False) if only else []
    partial = measure_partial(root, seeds, shard, selection, home,
                              failed=[f"{o.lesson.stem} ({o.variant.folder})" for o in outcomes if o.error])
    write_json(partial_path(root, shard, home), partial)
    return partial


def write_json(path: Path, data: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1, sort_keys=True), encoding="utf-8")


# --- merging partial atlases --------------------------------------------------------------------------------

PARTIAL_KEYS = {"shard", "seeds", "lessons_of_run", "durations", "plan", "lessons", "missing", "failed", "executed"}


def merge(root: Path, partials: dict[str, dict]) -> dict:
    """One atlas from the partial atlases of a run (``{name: partial}``, name saying where each came
    from): ValueError naming the shard and what is wrong when they come from different runs or splits,
    overlap, leave a seed out, or measured a lesson from other inputs than its present ones. The
    course seed's claims come from the book's own executions."""
    if not partials:
        raise ValueError("no partial atlases to merge (make atlas SEEDS=... SHARD=K/N writes them)")
    label = {name: f"shard {p['shard'][0]}/{p['shard'][1]} ({name})" for name, p in partials.items()}
    (first_name, first), *others = partials.items()
    for name, p in others:
        for key in ("seeds", "lessons_of_run"):
            if p[key] != first[key]:
                raise ValueError(f"{label[name]} measured {describe(key, p[key])}, {label[first_name]} "
                                 f"{describe(key, first[key])}: they are shards of different runs")
        if p["shard"][1] != first["shard"][1]:
            raise ValueError(f"{label[name]} is one of {p['shard'][1]} shards, {label[first_name]} one of "
                             f"{first['shard'][1]}: they are shards of different splits")
        if p["durations"] != first["durations"]:
            stem = next(s for s in p["durations"] if p["durations"][s] != first["durations"].get(s))
            raise ValueError(f"{label[name]} split the jobs by other lesson durations than {label[first_name]} "
                             f"({stem}: {p['durations'][stem]} s against {first['durations'].get(stem)} s): run "
                             "every shard from the same checkout and the same executions of the book")
    seeds, stems, count = first["seeds"], first["lessons_of_run"], first["shard"][1]
    split = plan(stems, seeds, count, first["durations"])
    by_index = {}
    for name, p in partials.items():
        if p["plan"] != plan_digest(split):
            raise ValueError(f"{label[name]} was split by another plan than the one its seeds, lessons and "
                             "durations give: it was written by another version of booktools.atlas")
        if p["shard"][0] in by_index:
            raise ValueError(f"{label[name]} and {label[by_index[p['shard'][0]]]} are the same shard: "
                             "they overlap")
        by_index[p["shard"][0]] = name
    absent = [index for index in range(1, count + 1) if index not in by_index]
    if absent:
        left = sorted({seed for (stem, seed), k in split.items() if k in absent})
        raise ValueError(f"the partial atlases leave seeds out: no partial of shard "
                         f"{', '.join(f'{k}/{count}' for k in absent)} (its jobs include {seeds_words(left)})")
    environment = environment_stamp(root)
    lessons = {lesson.stem: lesson for lesson in find_lessons(root)}
    gone = [stem for stem in stems if stem not in lessons]
    if gone:
        raise ValueError(f"the partial atlases measured lessons the book no longer has: {', '.join(gone)}")
    atlas = {"seeds": list(seeds), "lessons": {}, "missing": {}, "failed": sorted(
        {f for p in partials.values() for f in p["failed"]}),
        "executed": time_span(t for p in partials.values() for t in p["executed"] or ())}
    for stem in stems:
        measured = {}
        for name, p in partials.items():
            if stem in p["missing"]:
                atlas["missing"].setdefault(stem, f"{label[name]}: {p['missing'][stem]}")
                continue
            if stem not in p["lessons"]:
                continue
            entry = p["lessons"][stem]
            present = text_stamp(lessons[stem].path.read_text(encoding="utf-8"), environment)
            if entry["stamp"] != present:
                raise ValueError(f"{label[name]} measured lesson {stem} from other inputs than its present "
                                 "ones (the lesson, coursekit, the requirements, Python or the platform changed "
                                 f"since): the shard is stale, run shard {p['shard'][0]}/{count} again")
            planned = {seed for seed in seeds if split[stem, seed] == p["shard"][0]}
            got = {int(seed) for seed in entry["runs"]}
            if got != planned:
                raise ValueError(f"{label[name]} measured lesson {stem} with {seeds_words(sorted(got))}, its share "
                                 f"of the split is {seeds_words(sorted(planned))}")
            measured.update({int(seed): run for seed, run in entry["runs"].items()})
        if stem in atlas["missing"]:
            continue
        left = [seed for seed in seeds if seed not in measured]
        if left:
            raise ValueError(f"the partial atlases leave seeds out: lesson {stem} has no run with {seeds_words(left)}")
        try:
            atlas["lessons"][stem] = course_claims(root, lessons[stem], environment, measured, seeds)
        except ValueError as error:
            atlas["missing"][stem] = str(error)
    return atlas


def describe(key: str, value: list) -> str:
    return seeds_words(value) if key == "seeds" else "lessons " + ", ".join(stem[:2] for stem in value)


def course_claims(root: Path, lesson: Lesson, environment: str, runs: dict[int, dict], seeds: list[int]) -> dict:
    """The atlas's entry of a lesson: each claim the book's execution recorded (its sentence and its
    condition with the course seed) and the seeds in which its condition was true."""
    text = lesson.path.read_text(encoding="utf-8")
    course, _ = read_execution(root, lesson, text_stamp(text, environment), BOOK, "the course seed")
    claims = {}
    for name, entry in course.items():
        missing = [seed for seed in seeds if name not in runs[seed]]
        if missing:
            raise ValueError(f"lesson {lesson.stem}: claim {name} is not recorded with seed {missing[0]}")
        claims[name] = {"says": entry["says"], "course": entry["holds"],
                        "held": [seed for seed in seeds if runs[seed][name]]}
    return {"stamp": text_stamp(text, environment), "claims": claims}


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
    def interval(self) -> tuple[float, float]:
        """The Wilson interval of the share of seeds that reach the course seed's conclusion."""
        return wilson_interval(self.kept, self.seeds)

    @property
    def band(self) -> str:
        """`band_of` the seeds that kept the conclusion: robust, most, fragile or minority."""
        return band_of(self.kept, self.seeds)

    @property
    def held_words(self) -> str:
        """``"held in 73 of 100 seeds, 64–81%"``: the badge beside the claim on its lesson page."""
        return f"held in {count_words(self.kept, self.seeds)}"

    @property
    def anchor(self) -> str:
        return f"atlas-{self.stem[:2]}-{self.name.replace('_', '-')}"


def entries(atlas: dict) -> list[Entry]:
    n = len(atlas["seeds"])
    return [Entry(stem, name, claim["says"], claim["course"], len(claim["held"]), n)
            for stem, lesson in atlas["lessons"].items() for name, claim in lesson["claims"].items()]


def entry_of(atlas: dict | None, stem: str, name: str, stamp: str, claims=None) -> Entry | str | None:
    """What a lesson page shows beside the pasted text ``name``: its `Entry`, ``"stale"`` when the lesson's
    inputs (``stamp``, `booktools.execute.text_stamp` of its present text) changed since the atlas was
    built and ``name`` is one of the lesson's present ``claims`` (the names its execution recorded; the
    atlas's own when not given), or None (no atlas, a quoted number rather than a claim, or a claim the
    atlas does not hold)."""
    if atlas is None or stem not in atlas["lessons"]:
        return None
    lesson = atlas["lessons"][stem]
    if lesson["stamp"] != stamp:
        return "stale" if name in (lesson["claims"] if claims is None else claims) else None
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
    """Per atlas seed: in how many claims the others clearly did not reach its conclusion (the interval
    of the share agreeing with it below one half, as for the course seed's minority band), the others
    being the rest of the atlas's seeds and the course seed (as many as the course seed is compared
    with), so that the course seed's count has something to be compared with."""
    n, counts = len(atlas["seeds"]), {}
    claims = [(set(claim["held"]), claim["course"]) for lesson in atlas["lessons"].values()
              for claim in lesson["claims"].values()]
    for seed in atlas["seeds"]:
        counts[seed] = 0
        for held, course in claims:
            mine, true_elsewhere = seed in held, len(held) - (seed in held) + course
            agreeing = true_elsewhere if mine else n - true_elsewhere
            counts[seed] += band_of(agreeing, n) == "minority"
    return counts


def most_fragile(atlas: dict, count: int = 5) -> list[Entry]:
    """The conclusions kept in the fewest seeds (ties in course order)."""
    return sorted(entries(atlas), key=lambda e: e.kept)[:count]


def plural(count: int, noun: str) -> str:
    """``"1 lesson"``, ``"24 lessons"``."""
    return f"{count} {noun if count == 1 else noun + 's'}"


def comparing(lessons: int) -> str:
    """``"9 lessons that compare the two"`` (the change studied and the second run)."""
    return f"{plural(lessons, 'lesson')} that {'compares' if lessons == 1 else 'compare'} the two"


def of_the(count: int, total: int, what: str) -> str:
    """``"3 of the 40 claims"``, ``"none of the 40 claims"``."""
    return f"{count or 'none'} of the {total} {what}"


def conclusions(atlas: dict) -> list[Claim]:
    """What the atlas says about the course, as claims computed from it."""
    every = entries(atlas)
    n, total = len(atlas["seeds"]), len(every)
    robust = sum(e.band == "robust" for e in every)
    minority = [e for e in every if e.band == "minority"]
    counts = second_run_counts(atlas)
    k, lessons = course_second_run_count(atlas)
    majority = sum(2 * held > of for held, of in counts.values())
    low, _ = wilson_interval(majority, n)
    others = list(minority_counts(atlas).values())
    seeds = "seed" if n == 1 else "seeds"
    robust_words = f"robust (their interval at or above {ROBUST_SHARE:.0%} of the {n} {seeds})"
    return [
        Claim("atlas_mostly_robust", 2 * robust > total,
              yes=f"Most conclusions of the course are robust: {of_the(robust, total, 'claims')} are "
                  f"{robust_words}.",
              no=f"Most conclusions of the course are not shown to be robust: {of_the(robust, total, 'claims')} "
                 f"are {robust_words}."),
        Claim("atlas_course_seed_typical", len(minority) <= max(others),
              yes=f"The course seed is a typical seed: it reached a conclusion that the seeds clearly do not "
                  f"reach in {of_the(len(minority), total, 'claims')}, and each seed of the atlas did so in "
                  f"{min(others)} to {max(others)} (each counted against the other seeds and the course seed).",
              no=f"The course seed was lucky (or unlucky) more often than any seed of the atlas: in "
                 f"{of_the(len(minority), total, 'claims')} it reached a conclusion that the seeds clearly do "
                 f"not reach, each seed of the atlas in {min(others)} to {max(others)}."),
        Claim("atlas_second_run_outweighs_in_most", low > 0.5,
              yes=f"The wrap-up's first count holds beyond the course seed: with the course seed the second run "
                  f"moved the number more than the change studied in {k} of the {comparing(lessons)}, and it "
                  f"did so in most of them in {count_words(majority, n)}.",
              no=f"The wrap-up's first count is not shown to carry over to most seeds: with the course seed the "
                 f"second run moved the number more than the change studied in {k} of the {comparing(lessons)}, "
                 f"and it did so in most of them in {count_words(majority, n)}."),
    ]


# --- the page -------------------------------------------------------------------------------------------

BAND_WORDS = {"robust": "robust", "most": "holds in most seeds", "fragile": "fragile",
              "minority": "course seed in the minority"}


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


def band_counts(atlas: dict) -> dict[str, int]:
    every = entries(atlas)
    return {band: sum(e.band == band for e in every) for band in BAND_WORDS}


def bands_words(atlas: dict) -> str:
    """``"12 robust, 30 that hold in most seeds, 20 fragile and 3 with the course seed in the minority"``."""
    bands = band_counts(atlas)
    return (f"{bands['robust']} robust, {bands['most']} that hold in most seeds, {bands['fragile']} fragile "
            f"and {bands['minority']} with the course seed in the minority")


def figure_description(atlas: dict) -> str:
    return (f"A grid of {plural(len(atlas['lessons']), 'lesson')} (rows) by their claims (columns), each cell "
            f"shaded from dark (no seed reached the conclusion the course seed reached) to bright yellow (every "
            f"seed did), over {plural(len(atlas['seeds']), 'seed')}. Of the {len(entries(atlas))} claims, "
            f"{bands_words(atlas)}.")


def when_words(atlas: dict) -> str:
    """When the atlas's executions ran: ``"on 2026-12-03 (UTC)"`` or ``"from 2026-11-30 to 2026-12-03 (UTC)"``."""
    span = atlas.get("executed")
    if not span:
        return "at times not recorded"
    first, last = (datetime.fromisoformat(t).date().isoformat() for t in span)
    return f"on {first} (UTC)" if first == last else f"from {first} to {last} (UTC)"


def rule_words(n: int) -> str:
    """How the bands are read from the intervals, and what ``n`` seeds allow."""
    seeds = "seed" if n == 1 else "seeds"
    least = robust_from(n)
    enough = (f"with {n} {seeds}: held in at least {least} of them" if least is not None else
              f"with {n} {seeds} no count is enough: even {count_words(n, n)}, reaches below {ROBUST_SHARE:.0%}")
    return (f"Each count of seeds comes with its {CONFIDENCE:.0%} Wilson interval: the shares of all seeds "
            f"that the count is consistent with. A conclusion is **robust** when the whole interval lies at or "
            f"above {ROBUST_SHARE:.0%} ({enough}); it **holds in most seeds** when the interval lies above one "
            f"half without being robust; it is **fragile** when the interval holds one half (the seeds could "
            f"go either way); and **the course seed is in the minority** when the interval lies below one half.")


def page_markdown(atlas: dict | None, titles: dict[str, str], link=lambda stem: stem) -> str:
    """The atlas page's computed part as MyST Markdown (a note when no atlas has been built)."""
    if atlas is None or not atlas["lessons"]:
        return ("No atlas has been built for this copy of the book. Run `make atlas` (seeds 1 to 10) or "
                "`make atlas SEEDS=3`, then `make book`, and this page lists every claim of the course "
                "with the number of seeds in which it holds.\n")
    from coursekit.plots import figure_html

    n, every = len(atlas["seeds"]), entries(atlas)
    k, lessons = course_second_run_count(atlas)
    counts = second_run_counts(atlas)
    lines = [f"Built from {plural(len(atlas['lessons']), 'lesson')} and {plural(n, 'seed')} "
             f"({seeds_words(atlas['seeds'])}: {plural(n, 'execution')} of each lesson "
             f"besides the course seed's), executed {when_words(atlas)}: {len(every)} claims, of which "
             f"{bands_words(atlas)}.", "", rule_words(n), ""]
    lines += [f"- {claim.says}" for claim in conclusions(atlas)]
    if atlas["missing"]:
        lines += ["", "Left out (no current execution): " + ", ".join(sorted(atlas["missing"])) + "."]
    png = png_of(figure(atlas, titles))
    lines += ["", "```{raw} html", figure_html(png, figure_description(atlas)), "```", ""]
    lines += ["## The wrap-up's count, seed by seed", "",
              f"With the course seed, the second run moved the number more than the change studied in {k} "
              f"of the {comparing(lessons)}. Over the atlas's seeds:", "",
              "| Lessons where the second run moved more | Seeds |", "|---:|---:|"]
    for value in sorted({held for held, _ in counts.values()}):
        seeds = [seed for seed, (held, _) in counts.items() if held == value]
        lines.append(f"| {value} of {lessons} | {count_words(len(seeds), n)} ({', '.join(map(str, seeds))}) |")
    fragile = most_fragile(atlas)
    lines += ["", "## The most fragile conclusions", "",
              "The conclusions the fewest seeds reached again, as the reader read them with the course seed:",
              ""]
    lines += [f"{i}. {e.stem[:2]} `{e.name}`: {e.held_words}. {e.says}" for i, e in enumerate(fragile, start=1)]
    lines += ["", "## Every claim, lesson by lesson", ""]
    for stem in atlas["lessons"]:
        lines += [f"**{stem[:2]}. {link(stem)}**", "",
                  "| Claim | As the reader read it | Condition, course seed | True in | Held in | |",
                  "|---|---|---|---:|---:|---|"]
        for e in (e for e in every if e.stem == stem):
            says = e.says.replace("|", "\\|")
            lines.append(f'| <span id="{e.anchor}"></span>`{e.name}` | {says} | {str(e.course).lower()} | '
                         f"{count_words(e.held_true, n, 'seeds')} | {count_words(e.kept, n, 'seeds')} | "
                         f"{BAND_WORDS[e.band]} |")
        lines.append("")
    return "\n".join(lines) + "\n"


# --- the command ----------------------------------------------------------------------------------------

def build(root: Path, seeds: list[int], selection=None, workers: int | None = None, home: str = HOME,
          report=None) -> dict:
    """The whole atlas on this machine: execute what is stale of the book and of every seed, measure
    it as the one shard of a single-shard split, merge it, write ``_build/<home>/atlas.json``."""
    outcomes = execute(root, seeds, selection, workers, home, report)
    partial = measure_partial(root, seeds, Shard(1, 1), selection, home,
                              failed=[f"{o.lesson.stem} ({o.variant.folder})" for o in outcomes if o.error])
    atlas = merge(root, {"this machine": partial})
    write_json(atlas_path(root, home), atlas)
    return atlas


def merge_files(root: Path, paths: list[Path], home: str = HOME) -> dict:
    """Merge the partial atlases in ``paths`` (`merge`), write ``_build/<home>/atlas.json``; the atlas."""
    partials = {}
    for path in paths:
        try:
            partial = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise ValueError(f"{path} cannot be read as a partial atlas: {error}") from error
        if not isinstance(partial, dict) or not PARTIAL_KEYS <= set(partial):
            raise ValueError(f"{path} is not a partial atlas (make atlas SEEDS=... SHARD=K/N writes them)")
        partials[str(path)] = partial
    atlas = merge(root, partials)
    write_json(atlas_path(root, home), atlas)
    return atlas


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default=str(DEFAULT_SEEDS),
                        help="N (seeds 1 to N) or FIRST-LAST (default 10)")
    parser.add_argument("--shard", default=None, help="K/N: measure only the K-th of N shards (a partial atlas)")
    parser.add_argument("--merge", nargs="*", default=None, metavar="PARTIAL",
                        help="merge these partial atlases into the atlas")
    parser.add_argument("--workers", type=int, default=None, help="kernels at once (default: cores)")
    parser.add_argument("lessons", nargs="*", help="lesson numbers or slugs (default: all)")
    args = parser.parse_args(argv)
    root = project_root()
    if args.merge is not None:
        if args.lessons or args.shard:
            parser.error("--merge takes partial atlases only (their lessons and seeds are in them)")
        try:
            atlas = merge_files(root, [Path(p) for p in args.merge])
        except ValueError as error:
            print(f"cannot merge the partial atlases: {error}", file=sys.stderr)
            return 1
        return summary(root, atlas, f"merged from {len(args.merge)} partial atlases")
    try:
        seeds = parse_seeds(args.seeds)
        shard = parse_shard(args.shard) if args.shard else None
    except ValueError as error:
        parser.error(str(error))
    started = time.perf_counter()
    counter = {"executed": 0}

    def report(outcome) -> None:
        if outcome.error:
            print(f"FAILED   {outcome.lesson.stem} ({outcome.variant.folder})\n{outcome.error}", file=sys.stderr)
        elif outcome.executed:
            counter["executed"] += 1
            print(f"executed {outcome.lesson.stem} ({outcome.variant.folder}) in {outcome.seconds:.1f} s",
                  flush=True)

    if shard is not None:
        partial = build_shard(root, seeds, shard, args.lessons or None, args.workers, report=report)
        jobs = sum(len(lesson["runs"]) for lesson in partial["lessons"].values())
        print(f"shard {shard} of {seeds_words(seeds)}: {jobs} jobs measured, {counter['executed']} executed, "
              f"{time.perf_counter() - started:.1f} s -> {partial_path(root, shard).relative_to(root)}")
        return exit_status(partial)
    atlas = build(root, seeds, args.lessons or None, args.workers, report=report)
    return summary(root, atlas, f"{counter['executed']} executions, {time.perf_counter() - started:.1f} s")


def summary(root: Path, atlas: dict, how: str) -> int:
    total = sum(len(lesson["claims"]) for lesson in atlas["lessons"].values())
    print(f"atlas of {len(atlas['lessons'])} lessons, {total} claims, {seeds_words(atlas['seeds'])}: {how} -> "
          f"{atlas_path(root).relative_to(root)}")
    return exit_status(atlas)


def exit_status(atlas: dict) -> int:
    """Say which lessons an atlas (whole or partial) left out; 1 when any failed or was left out."""
    for stem, reason in atlas["missing"].items():
        print(f"left out {stem}: {reason}", file=sys.stderr)
    return 1 if atlas["failed"] or atlas["missing"] else 0


if __name__ == "__main__":
    sys.exit(main())
