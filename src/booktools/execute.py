"""Execute the lessons once, in parallel, and share the result between the tests and the HTML build.

Each lesson (a MyST Markdown notebook) is read exactly the way myst-nb reads it for the book, executed
with papermill, and stored in two places:

- ``_build/executed/<unit>/NN-slug.ipynb``: the executed notebook, whose stdout the tests compare with
  ``tests/expected/``;
- the jupyter-cache of the book (``_build/.jupyter_cache``), keyed on the lesson's code cells, where
  ``jupyter-book build`` (``execute_notebooks: cache``) finds it and executes nothing itself.

A lesson is executed again only when its *stamp* changes: a hash of the lesson's text, the source of
``coursekit``, ``requirements.txt``, the Python version and the parameters it runs with. Lessons run
side by side, one kernel per core.

The tests also execute every lesson with another seed (`OTHER_SEED`), into
``_build/executed-SEED-<seed>/``, to check that a lesson follows the course's algorithm for any seed;
those notebooks never reach the book.

    python -m booktools.execute            # execute what is stale
    python -m booktools.execute --force    # execute everything
    python -m booktools.execute 01 05      # only these lessons (by number or slug)
    python -m booktools.execute --seed 7   # with SEED = 7, into _build/executed-SEED-7/
"""

import argparse
import hashlib
import json
import os
import sys
import time
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import nbformat
import papermill
from jupyter_cache import get_cache
from jupyter_cache.base import CacheBundleIn
from myst_nb.core.read import read_myst_markdown_notebook

from .lessons import Lesson, find_lessons, project_root

STAMP_KEY = "booktools_stamp"
# A cell that runs longer than this (seconds) has hung: the lesson fails instead of waiting for ever.
# The slowest cell of the book takes well under a minute.
CELL_TIMEOUT = 600


OTHER_SEED = 7
"""The seed the tests run every lesson with besides the course seed (any other value would do)."""


@dataclass(frozen=True)
class Variant:
    """The parameters a lesson is executed with: none (the book's own execution) or overrides."""

    parameters: tuple[tuple[str, object], ...] = ()

    @property
    def folder(self) -> str:
        return "executed" + "".join(f"-{name}-{value}" for name, value in self.parameters)

    @property
    def for_book(self) -> bool:
        """Only the lesson as written, with its own parameters, is what the book shows."""
        return not self.parameters


BOOK = Variant()


def seed_variant(seed: int) -> Variant:
    return Variant((("SEED", seed),))


@dataclass
class Outcome:
    lesson: Lesson
    executed: bool  # False when the stored result was still valid
    seconds: float
    error: str | None = None


def executed_path(root: Path, lesson: Lesson, variant: Variant = BOOK) -> Path:
    return root / "_build" / variant.folder / lesson.unit / f"{lesson.stem}.ipynb"


def cache_path(root: Path) -> Path:
    return root / "_build" / ".jupyter_cache"


def _digest_files(paths) -> str:
    digest = hashlib.sha256()
    for path in sorted(paths):
        digest.update(str(path.name).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def environment_stamp(root: Path) -> str:
    """What every lesson depends on besides its own text: coursekit, the pinned packages, Python."""
    coursekit = sorted((root / "src" / "coursekit").glob("*.py"))
    requirements = [root / "requirements.txt"] if (root / "requirements.txt").exists() else []
    return hashlib.sha256(
        (_digest_files(coursekit) + _digest_files(requirements) + sys.version).encode()).hexdigest()


def lesson_stamp(lesson: Lesson, environment: str, variant: Variant = BOOK) -> str:
    return hashlib.sha256(lesson.path.read_bytes() + environment.encode()
                          + repr(variant.parameters).encode()).hexdigest()


def read_lesson(lesson: Lesson) -> nbformat.NotebookNode:
    """The lesson as the notebook myst-nb builds from it (same cells, same metadata, same hash)."""
    return read_myst_markdown_notebook(lesson.path.read_text(encoding="utf-8"))


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


def store_in_book_cache(root: Path, lesson: Lesson, source_nb, executed_nb) -> None:
    """Put the outputs of ``executed_nb`` into the book's jupyter-cache under ``source_nb``'s hash."""
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
    get_cache(str(cache_path(root))).cache_notebook_bundle(
        CacheBundleIn(nb=bundle, uri=str(lesson.path),
                      data={"execution_seconds": executed_nb.metadata.get("booktools_seconds", 0)}),
        check_validity=False, overwrite=True)


def is_current(root: Path, lesson: Lesson, environment: str, variant: Variant = BOOK) -> bool:
    """Whether the lesson's stored executed notebook was made from its present text and environment."""
    return stored_stamp(executed_path(root, lesson, variant)) == lesson_stamp(lesson, environment, variant)


def execute_lesson(root: Path, lesson: Lesson, environment: str, variant: Variant = BOOK) -> Outcome:
    """Execute one lesson into ``_build/<variant folder>/``, stamped with what it was made from.

    Runs in a worker process; the book cache is filled afterwards by the parent (`sync_book_cache`),
    so that only one process ever writes the cache's database.
    """
    output = executed_path(root, lesson, variant)
    started = time.perf_counter()
    try:
        done = run_papermill(lesson, read_lesson(lesson), output, parameters=dict(variant.parameters))
    except Exception as error:  # report, don't hide: the caller fails on it
        output.unlink(missing_ok=True)
        return Outcome(lesson, True, time.perf_counter() - started, error=str(error))
    seconds = time.perf_counter() - started
    done.metadata[STAMP_KEY] = lesson_stamp(lesson, environment, variant)
    done.metadata["booktools_seconds"] = round(seconds, 2)
    nbformat.write(done, output)
    return Outcome(lesson, executed=True, seconds=seconds)


def sync_book_cache(root: Path, outcome: Outcome) -> None:
    """Make the book's jupyter-cache hold the lesson's executed outputs (replacing older ones)."""
    source_nb = read_lesson(outcome.lesson)
    if not outcome.executed:
        try:
            get_cache(str(cache_path(root))).match_cache_notebook(source_nb)
            return  # already there, from the same execution
        except KeyError:
            pass
    executed_nb = nbformat.read(executed_path(root, outcome.lesson), as_version=4)
    store_in_book_cache(root, outcome.lesson, source_nb, executed_nb)


def execute_lessons(root: Path | None = None, selection=None, force: bool = False,
                    workers: int | None = None, report=None, variant: Variant = BOOK) -> list[Outcome]:
    """Execute the stale lessons side by side (``workers`` kernels, default one per core)."""
    root = root or project_root()
    lessons = find_lessons(root, selection)
    environment = environment_stamp(root)
    stale = [lesson for lesson in lessons if force or not is_current(root, lesson, environment, variant)]
    outcomes = {}

    def finish(outcome: Outcome) -> None:
        if outcome.error is None and variant.for_book:
            sync_book_cache(root, outcome)
        if report:
            report(outcome)
        outcomes[outcome.lesson.stem] = outcome

    for lesson in lessons:
        if lesson not in stale:
            finish(Outcome(lesson, executed=False, seconds=0.0))
    if stale:
        workers = workers or int(os.environ.get("LESSON_WORKERS", 0)) or os.cpu_count() or 1
        # One process per lesson at a time (kernels and their event loops stay out of each other's
        # way); "spawn" so that no worker inherits the threads of the calling process.
        with ProcessPoolExecutor(max_workers=max(1, min(workers, len(stale))),
                                 mp_context=multiprocessing.get_context("spawn")) as pool:
            for future in [pool.submit(execute_lesson, root, lesson, environment, variant) for lesson in stale]:
                finish(future.result())
    return [outcomes[lesson.stem] for lesson in lessons]


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
