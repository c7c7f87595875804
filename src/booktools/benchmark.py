"""Time the slow parts of the book and print the figures (speed targets live here, not in the tests).

    python -m booktools.benchmark              # per-lesson times, then make test / make book cold and warm
    python -m booktools.benchmark --lessons    # only the per-lesson execution times

1. Each lesson alone, executed with papermill in a scratch folder (one kernel, nothing else running):
   its wall time and the peak resident memory of its kernel.
2. In fresh copies of the project (each with its own _build, sharing this .venv, which must have been
   set up by make): ``make book`` from
   nothing, then again with no change; ``make test`` from nothing (every lesson executed once, in
   parallel, then the book built from those results), then again with no change.
"""

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .execute import read_lesson, run_papermill
from .lessons import find_lessons, project_root


def time_lesson(lesson) -> tuple[float, float]:
    """Seconds and peak resident memory (MB) of one lesson executed alone, kernel included.

    The lesson runs in a child process of its own, so that the peak it reports is that lesson's.
    """
    done = subprocess.run([sys.executable, "-m", "booktools.benchmark", "--one", str(lesson.number)],
                          capture_output=True, text=True, check=True)
    seconds, peak = done.stdout.split()[-2:]
    return float(seconds), float(peak)


def run_one(number: str) -> None:
    """Execute one lesson into a scratch folder; print its seconds and the kernel's peak memory (MB)."""
    lesson = find_lessons(project_root(), [number])[0]
    with tempfile.TemporaryDirectory() as scratch:
        started = time.perf_counter()
        run_papermill(lesson, read_lesson(lesson), Path(scratch) / f"{lesson.stem}.ipynb")
        seconds = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024  # KB on Linux
    print(f"{seconds:.2f} {peak:.0f}")


def copy_project(root: Path, target: Path) -> None:
    """The tracked and untracked (not ignored) files of the project, without any build output."""
    listed = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"], cwd=root,
                            capture_output=True, text=True, check=True).stdout.split("\n")
    for name in filter(None, listed):
        source = root / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    os.symlink(root / ".venv", target / ".venv")


def timed(command: list[str], cwd: Path) -> float:
    started = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        print((done.stdout + done.stderr)[-3000:], file=sys.stderr)
        raise SystemExit(f"{' '.join(command)} failed after {seconds:.1f} s")
    return seconds


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Time the lessons and the make targets.")
    parser.add_argument("--lessons", action="store_true", help="only the per-lesson execution times")
    parser.add_argument("--one", help=argparse.SUPPRESS)  # internal: time one lesson in this process
    args = parser.parse_args(argv)
    if args.one:
        run_one(args.one)
        return 0
    root = project_root()
    lessons = find_lessons(root)
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} cores, {len(lessons)} lessons")
    total = 0.0
    for lesson in lessons:
        seconds, peak = time_lesson(lesson)
        total += seconds
        print(f"  {lesson.stem:<55} {seconds:7.1f} s   peak {peak:6.0f} MB", flush=True)
    print(f"  {'sum of the lessons executed one after another':<55} {total:7.1f} s")
    if args.lessons:
        return 0
    plans = (
        (("make book, cold (executes every lesson, builds the book)", ["make", "book"]),
         ("make book, warm (no change: executes nothing)", ["make", "book"])),
        (("make test, cold (executes every lesson, builds the book)", ["make", "test"]),
         ("make test, warm (no change: executes nothing)", ["make", "test"])),
    )
    for plan in plans:  # each plan in its own fresh copy of the project
        with tempfile.TemporaryDirectory() as copy:
            copy_project(root, Path(copy))
            for label, command in plan:
                print(f"  {label:<55} {timed(command, Path(copy)):7.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
