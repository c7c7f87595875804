"""Execute the lessons once, in parallel, and share the result between the tests and the HTML build.

Each lesson (a MyST Markdown notebook) is read exactly the way myst-nb reads it for the book, executed
with papermill, and stored:

- in the jupyter-cache of the book (``_build/.jupyter_cache``), keyed on the lesson's code cells, where
  ``jupyter-book build`` (``execute_notebooks: cache``) finds it and executes nothing itself. **This
  record is the truth**: it carries the lesson's *stamp* (`STAMP_KEY` in the record's data), and the
  book's Sphinx extension refuses to build a page whose record is missing or stamped for other inputs;
- as ``_build/executed/<unit>/NN-slug.ipynb``, an export of the same execution with the same stamp,
  whose stdout the tests compare with ``tests/expected/``.

The stamp is a hash of what an execution depends on: the lesson's text, every file of ``coursekit``
(sub-packages and data files included), ``requirements.txt``, the Python that runs the kernel, the
platform and its C library (a few chaotic cells move with the maths library), and the parameters. A
lesson is executed again only when its stamp changes; its text is read once per run, so an edit made
while it runs leaves it stale, never pasted under old outputs. Results reach the cache as each lesson
completes; an execution that fails removes the lesson's records from the cache, so that no page is
built from outputs its code no longer computes. Lessons run side by side, one kernel per core.

The tests also execute every lesson with another seed (`OTHER_SEED`, without figures), into
``_build/executed-SEED-<seed>/``, to check that a lesson follows the course's algorithm for any seed;
those notebooks never reach the book. The seed atlas (`booktools.atlas`) executes seeds 1 to N the
same way, under ``_build/atlas/``.

    python -m booktools.execute            # execute what is stale
    python -m booktools.execute --force    # execute everything
    python -m booktools.execute 01 05      # only these lessons (by number or slug)
    python -m booktools.execute --seed 7   # with SEED = 7 (no figures), into _build/executed-SEED-7/
"""

import argparse
import hashlib
import json
import multiprocessing
import os
import platform
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path

import nbformat
import papermill
from jupyter_cache import get_cache
from jupyter_cache.base import CacheBundleIn
from myst_nb.core.read import read_myst_markdown_notebook

from .lessons import Lesson, find_chapters, find_lessons, project_root

STAMP_KEY = "booktools_stamp"
# A cell that runs longer than this (seconds) has hung: the lesson fails instead of waiting for ever.
# The slowest cell of the book takes well under a minute.
CELL_TIMEOUT = 600


OTHER_SEED = 7
"""The seed the tests run every lesson with besides the course seed (any other value would do)."""


@dataclass(frozen=True)
class Variant:
    """The parameters a lesson is executed with: none (the book's own execution) or overrides; and the
    folder under ``_build`` its executions go to (named after the parameters unless given)."""

    parameters: tuple[tuple[str, object], ...] = ()
    home: str | None = None

    @property
    def folder(self) -> str:
        return self.home or "executed" + "".join(f"-{name}-{value}" for name, value in self.parameters)

    @property
    def for_book(self) -> bool:
        """Only the lesson as written, with its own parameters, is what the book shows."""
        return not self.parameters


BOOK = Variant()


def seed_variant(seed: int) -> Variant:
    """The lesson with another ``SEED`` and no figures (``FIGURES = False``: the same tables and claims,
    nothing drawn), into ``_build/executed-SEED-<seed>/``."""
    return Variant((("SEED", seed), ("FIGURES", False)), home=f"executed-SEED-{seed}")


@dataclass
class Outcome:
    lesson: Lesson
    executed: bool  # False when the stored result was still valid
    seconds: float
    error: str | None = None
    text: str | None = None  # the lesson's text as it was executed (read once)
    stamp: str | None = None
    variant: Variant = BOOK


def executed_path(root: Path, lesson: Lesson, variant: Variant = BOOK) -> Path:
    return root / "_build" / variant.folder / lesson.unit / f"{lesson.stem}.ipynb"


def cache_path(root: Path) -> Path:
    return root / "_build" / ".jupyter_cache"


def _digest_files(root: Path, paths) -> str:
    digest = hashlib.sha256()
    for path in sorted(paths):
        digest.update(str(path.relative_to(root)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def coursekit_files(root: Path) -> list[Path]:
    """Every file of the coursekit package: modules, sub-packages and data files (no bytecode)."""
    package = root / "src" / "coursekit"
    return [path for path in package.rglob("*")
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc"]


def platform_stamp() -> str:
    """The Python that runs the kernels and the platform under it (chaotic cells follow the C library)."""
    return "|".join((sys.version, sys.executable, platform.platform(), platform.machine(),
                     "-".join(platform.libc_ver())))


def environment_stamp(root: Path) -> str:
    """What every lesson depends on besides its own text: coursekit, the pinned packages, Python and
    the platform."""
    requirements = [root / "requirements.txt"] if (root / "requirements.txt").exists() else []
    return hashlib.sha256((_digest_files(root, coursekit_files(root)) + _digest_files(root, requirements)
                           + platform_stamp()).encode()).hexdigest()


def text_stamp(text: str, environment: str, variant: "Variant" = BOOK) -> str:
    return hashlib.sha256(text.encode("utf-8") + environment.encode()
                          + repr(variant.parameters).encode()).hexdigest()


def lesson_stamp(lesson: Lesson, environment: str, variant: Variant = BOOK) -> str:
    return text_stamp(lesson.path.read_text(encoding="utf-8"), environment, variant)


def read_lesson(lesson: Lesson, text: str | None = None) -> nbformat.NotebookNode:
    """The lesson as the notebook myst-nb builds from it (same cells, same metadata, same hash);
    from ``text`` when given (the lesson as it was read once)."""
    return read_myst_markdown_notebook(text if text is not None else lesson.path.read_text(encoding="utf-8"))


def stored_stamp(path: Path) -> str | None:
    if not path.exists():
        return None
    try:
        return nbformat.read(path, as_version=4).metadata.get(STAMP_KEY)
    except Exception:  # an unreadable file is simply stale
        return None


def run_papermill(lesson: Lesson, notebook, output: Path, parameters: dict | None = None,
                  cwd: Path | None = None) -> nbformat.NotebookNode:
    """Execute ``notebook`` with papermill, writing the result to ``output``; return the result."""
    output.parent.mkdir(parents=True, exist_ok=True)
    source = output.with_suffix(".input.ipynb")
    nbformat.write(notebook, source)
    try:
        papermill.execute_notebook(
            str(source), str(output), parameters=parameters or {}, kernel_name="python3",
            cwd=str(cwd or lesson.path.parent), progress_bar=False, log_output=False,
            execution_timeout=CELL_TIMEOUT)
    finally:
        source.unlink(missing_ok=True)
    return nbformat.read(output, as_version=4)


def book_cache(root: Path):
    return get_cache(str(cache_path(root)))


def store_in_book_cache(root: Path, lesson: Lesson, source_nb, executed_nb, stamp: str) -> None:
    """Put the outputs of ``executed_nb`` into the book's jupyter-cache under ``source_nb``'s hash,
    with the stamp of the inputs they were computed from."""
    code_in = [c for c in source_nb.cells if c.cell_type == "code"]
    code_out = [c for c in executed_nb.cells if c.cell_type == "code"]
    if len(code_in) != len(code_out):
        raise RuntimeError(f"{lesson.stem}: executed notebook has {len(code_out)} code cells, "
                           f"the lesson {len(code_in)}")
    bundle = nbformat.from_dict(json.loads(json.dumps(source_nb)))  # a deep, plain copy
    for cell, done in zip((c for c in bundle.cells if c.cell_type == "code"), code_out):
        cell.outputs = done.outputs
        cell.execution_count = done.get("execution_count")
    bundle.metadata.update({k: v for k, v in executed_nb.metadata.items() if k == "language_info"})
    book_cache(root).cache_notebook_bundle(
        CacheBundleIn(nb=bundle, uri=str(lesson.path),
                      data={"execution_seconds": executed_nb.metadata.get("booktools_seconds", 0),
                            STAMP_KEY: stamp}),
        check_validity=False, overwrite=True)


def cached_stamp(root: Path, lesson: Lesson, text: str) -> str | None:
    """The stamp of the cache record the book would use for the lesson's ``text``, or None."""
    try:
        record = book_cache(root).match_cache_notebook(read_lesson(lesson, text))
    except KeyError:
        return None
    return (record.data or {}).get(STAMP_KEY)


def drop_from_book_cache(root: Path, lesson: Lesson) -> int:
    """Remove every cache record of the lesson (any version of its text); how many were removed."""
    cache = book_cache(root)
    records = [record for record in cache.list_cache_records() if Path(record.uri) == lesson.path]
    for record in records:
        cache.remove_cache(record.pk)
    return len(records)


def stale_reason(root: Path, lesson: Lesson, environment: str | None = None) -> str | None:
    """Why the book cannot show the lesson's stored execution (None when it can): no record for its
    present code, or a record made from other inputs (its text, coursekit, packages, Python, platform)."""
    text = lesson.path.read_text(encoding="utf-8")
    stamp = cached_stamp(root, lesson, text)
    if stamp is None:
        return f"lesson {lesson.stem} has no execution of its present code in the book's cache"
    if stamp != text_stamp(text, environment or environment_stamp(root)):
        return (f"lesson {lesson.stem} was executed from other inputs than the present ones (its text, "
                f"coursekit, the requirements, Python or the platform changed since)")
    return None


def state_of(root: Path, lesson: Lesson, text: str, environment: str, variant: Variant = BOOK) -> str:
    """"current", "unsynced" (executed and exported, but not in the book's cache) or "stale"."""
    stamp = text_stamp(text, environment, variant)
    if stored_stamp(executed_path(root, lesson, variant)) != stamp:
        return "stale"
    if variant.for_book and cached_stamp(root, lesson, text) != stamp:
        return "unsynced"
    return "current"


def is_current(root: Path, lesson: Lesson, environment: str, variant: Variant = BOOK) -> bool:
    """Whether the lesson's stored execution was made from its present text and environment (for the
    book: both the exported notebook and the cache record the pages are built from)."""
    return state_of(root, lesson, lesson.path.read_text(encoding="utf-8"), environment, variant) == "current"


def execute_lesson(root: Path, lesson: Lesson, environment: str, variant: Variant = BOOK,
                   text: str | None = None) -> Outcome:
    """Execute one lesson into ``_build/<variant folder>/``, stamped with what it was made from.

    ``text`` is the lesson as read once by the caller (read here when not given): the stamp, the
    executed notebook and the cache record all come from it. Runs in a worker process; the book cache
    is filled by the parent (`sync_book_cache`), so that only one process writes the cache's database.
    """
    text = lesson.path.read_text(encoding="utf-8") if text is None else text
    stamp = text_stamp(text, environment, variant)
    output = executed_path(root, lesson, variant)
    started = time.perf_counter()
    try:
        done = run_papermill(lesson, read_lesson(lesson, text), output, parameters=dict(variant.parameters))
    except Exception as error:  # report, don't hide: the caller fails on it
        output.unlink(missing_ok=True)
        return Outcome(lesson, True, time.perf_counter() - started, error=str(error), text=text, stamp=stamp,
                       variant=variant)
    seconds = time.perf_counter() - started
    done.metadata[STAMP_KEY] = stamp
    done.metadata["booktools_seconds"] = round(seconds, 2)
    nbformat.write(done, output)
    return Outcome(lesson, executed=True, seconds=seconds, text=text, stamp=stamp, variant=variant)


def sync_book_cache(root: Path, outcome: Outcome) -> None:
    """Make the book's jupyter-cache hold the lesson's executed outputs under its stamp; after a
    failure, hold nothing of the lesson (a page must not show what its code no longer computes)."""
    if outcome.error is not None:
        drop_from_book_cache(root, outcome.lesson)
        return
    executed_nb = nbformat.read(executed_path(root, outcome.lesson), as_version=4)
    store_in_book_cache(root, outcome.lesson, read_lesson(outcome.lesson, outcome.text), executed_nb,
                        outcome.stamp)


def execute_lessons(root: Path | None = None, selection=None, force: bool = False,
                    workers: int | None = None, report=None, variant: Variant = BOOK,
                    variants: tuple[Variant, ...] | None = None,
                    only: set[tuple[str, Variant]] | None = None) -> list[Outcome]:
    """Execute the stale lessons side by side (``workers`` kernels, default one per core), with the
    lesson's own parameters or those of ``variant`` (or of each of ``variants``, all in one pool); each
    result of the book's own execution reaches the book's cache as soon as it completes. ``only``
    keeps those (lesson stem, variant) jobs (a shard of the seed atlas). The outcomes come variant by
    variant, in lesson order. Without a selection, the book's own execution also executes the chapters
    that are not lessons (`booktools.lessons.find_chapters`), first."""
    root = root or project_root()
    variants = tuple(variants) if variants else (variant,)
    lessons = find_lessons(root, selection)
    if selection is None and all(v.for_book for v in variants):
        lessons = find_chapters(root) + lessons  # the book's executed chapters, for the book only
    environment = environment_stamp(root)
    jobs = [(lesson, v) for v in variants for lesson in lessons if only is None or (lesson.stem, v) in only]
    texts = {lesson.stem: lesson.path.read_text(encoding="utf-8") for lesson in {lesson for lesson, _ in jobs}}
    states = {(lesson.stem, v): "stale" if force else state_of(root, lesson, texts[lesson.stem], environment, v)
              for lesson, v in jobs}
    outcomes = {}

    def finish(outcome: Outcome) -> None:
        key = (outcome.lesson.stem, outcome.variant)
        if outcome.variant.for_book and (outcome.executed or outcome.error is not None
                                         or states[key] == "unsynced"):
            sync_book_cache(root, outcome)
        if report:
            report(outcome)
        outcomes[key] = outcome

    stale = [(lesson, v) for lesson, v in jobs if states[lesson.stem, v] == "stale"]
    for lesson, v in jobs:
        if (lesson, v) not in stale:
            finish(Outcome(lesson, executed=False, seconds=0.0, text=texts[lesson.stem],
                           stamp=text_stamp(texts[lesson.stem], environment, v), variant=v))
    if stale:
        workers = workers or int(os.environ.get("LESSON_WORKERS", 0)) or os.cpu_count() or 1
        # the slowest lessons first (by their last execution for the book), so that no core idles at the end
        seconds = {lesson.stem: last_seconds(root, lesson) for lesson in {lesson for lesson, _ in stale}}
        stale.sort(key=lambda job: -seconds[job[0].stem])
        # One process per lesson at a time (kernels and their event loops stay out of each other's
        # way); "spawn" so that no worker inherits the threads of the calling process.
        with ProcessPoolExecutor(max_workers=max(1, min(workers, len(stale))),
                                 mp_context=multiprocessing.get_context("spawn")) as pool:
            futures = [pool.submit(execute_lesson, root, lesson, environment, v, texts[lesson.stem])
                       for lesson, v in stale]
            for future in as_completed(futures):
                finish(future.result())
    return [outcomes[lesson.stem, v] for lesson, v in jobs]


def last_seconds(root: Path, lesson: Lesson) -> float:
    """How long the lesson's last execution for the book took (0 when there is none)."""
    try:
        return float(nbformat.read(executed_path(root, lesson), as_version=4).metadata.get("booktools_seconds", 0))
    except (OSError, ValueError):
        return 0.0


def _report(outcome: Outcome) -> None:
    name = outcome.lesson.stem
    if outcome.error:
        print(f"FAILED   {name} after {outcome.seconds:.1f} s\n{outcome.error}", file=sys.stderr)
    elif outcome.executed:
        print(f"executed {name} in {outcome.seconds:.1f} s", flush=True)
    else:
        print(f"current  {name} (unchanged, not executed)", flush=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("lessons", nargs="*", help="lesson numbers or slugs (default: all)")
    parser.add_argument("--force", action="store_true", help="execute even unchanged lessons")
    parser.add_argument("--workers", type=int, default=None, help="kernels at once (default: cores)")
    parser.add_argument("--seed", type=int, default=None, help="execute with this SEED (never for the book)")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    variant = BOOK if args.seed is None else seed_variant(args.seed)
    outcomes = execute_lessons(selection=args.lessons or None, force=args.force, workers=args.workers,
                               report=_report, variant=variant)
    failed = [o for o in outcomes if o.error]
    ran = sum(o.executed for o in outcomes)
    print(f"{len(outcomes)} lessons, {ran} executed, {len(failed)} failed, "
          f"{time.perf_counter() - started:.1f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
