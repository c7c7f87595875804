"""Shared fixtures: the project root, the lessons, and one parallel execution of them per session.

The lessons are executed once by `booktools.execute` (stale ones only, in parallel, one kernel per
core); the same executed notebooks and jupyter-cache entries then serve the HTML build.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from booktools.execute import BOOK, OTHER_SEED, execute_lessons, executed_path, seed_variant
from booktools.lessons import find_lessons

ROOT = Path(__file__).resolve().parent.parent
# LESSONS="02 05" restricts the lesson tests to those lessons (while working on them).
LESSONS = find_lessons(ROOT, os.environ.get("LESSONS", "").split() or None)


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT


OTHER = seed_variant(OTHER_SEED)


@pytest.fixture(scope="session")
def executions():
    """Execute every stale lesson, for the book and with the other seed, in one pool (one kernel per
    core, no core idle while the other finishes a variant); {(variant, stem): (path or None, error)}."""
    outcomes = execute_lessons(ROOT, selection=[lesson.stem for lesson in LESSONS], variants=(BOOK, OTHER),
                               report=lambda o: print(
        f"{o.lesson.stem} ({o.variant.folder}): {'executed in %.1f s' % o.seconds if o.executed else 'unchanged'}"
        + (f" FAILED\n{o.error}" if o.error else "")))
    return {(o.variant, o.lesson.stem): (None if o.error else executed_path(ROOT, o.lesson, o.variant), o.error)
            for o in outcomes}


@pytest.fixture(scope="session")
def executed_lessons(executions):
    """{lesson stem: (executed notebook path, error)} of the book's own execution."""
    return {stem: result for (variant, stem), result in executions.items() if variant == BOOK}


@pytest.fixture(scope="session")
def build_log(executed_lessons):
    """Build the HTML book (warnings are errors) from the lessons just executed; the build's log."""
    assert all(error is None for _, error in executed_lessons.values()), "a lesson failed to execute"
    # The book holds every lesson: those LESSONS left out must be current too (the build refuses a
    # lesson whose cache record is missing or stale).
    failed = [o.lesson.stem for o in execute_lessons(ROOT) if o.error]
    assert not failed, f"lessons failed to execute: {failed}"
    jupyter_book = Path(sys.executable).parent / "jupyter-book"
    done = subprocess.run([str(jupyter_book), "build", str(ROOT), "--warningiserror", "--nitpick",
                           "--keep-going"], cwd=ROOT, capture_output=True, text=True)
    log = done.stdout + done.stderr
    assert done.returncode == 0, f"the book did not build cleanly:\n{log[-4000:]}"
    return log


@pytest.fixture(scope="session")
def other_seed_lessons(executions):
    """{lesson stem: (executed notebook path, error)} with `OTHER_SEED` (no figures)."""
    return {stem: result for (variant, stem), result in executions.items() if variant == OTHER}
