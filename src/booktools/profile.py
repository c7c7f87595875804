"""Where a lesson's time goes: its code cells run in this process under cProfile, as the page's in-browser
run runs them (`booktools.pagerun`, ``FIGURES = False``: the tables and claims, no drawing), and the
functions that cost the most.

    python -m booktools.profile 05 13        # the three largest costs of each lesson, by own time
    python -m booktools.profile 05 --top 12  # more of them

For each lesson it prints the seconds of its cells under the profiler (which slows pure Python by
about a third), then the functions with the largest *own* time (the time spent in the function's own
lines, not in what it calls), each with its share of the total, its call count and where it is
defined: a lesson cell (``<lesson 05-... cell 12>``) or a module of ``coursekit``. The notebook floor
(kernel start and imports) is not in it: `booktools.benchmark` measures that apart.
"""

import argparse
import cProfile
import pstats
import sys
from dataclasses import dataclass
from pathlib import Path

from .browser import lesson_payload
from .execute import read_lesson
from .lessons import find_lessons, project_root
from .pagerun import LessonRun


@dataclass(frozen=True)
class Cost:
    where: str  # "file:line(function)"
    own_seconds: float
    share: float  # of the lesson's profiled total
    calls: int


def profile_lesson(root: Path, lesson) -> tuple[float, list[Cost], dict]:
    """Run the lesson's cells under cProfile; the total seconds, every function's cost (largest own time
    first) and the run's result (`LessonRun.result`)."""
    notebook = read_lesson(lesson)
    payload = lesson_payload(lesson.stem, lesson.number, notebook, root / "tests" / "expected")
    run = LessonRun(payload)
    profiler = cProfile.Profile()
    profiler.enable()
    try:
        result = run.run_all()
    finally:
        profiler.disable()
    if run.error:
        raise RuntimeError(f"{lesson.stem} failed under the profiler: {run.error['type']}: {run.error['message']}")
    stats = pstats.Stats(profiler)
    total = stats.total_tt
    costs = []
    for (filename, line, function), (_, calls, own, _, _) in stats.stats.items():
        short = filename if filename.startswith("<") else "/".join(Path(filename).parts[-2:])
        costs.append(Cost(f"{short}:{line}({function})", own, own / total if total else 0.0, calls))
    return total, sorted(costs, key=lambda cost: -cost.own_seconds), result


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("lessons", nargs="*", help="lesson numbers or slugs (default: all)")
    parser.add_argument("--top", type=int, default=3, help="how many functions to list per lesson")
    args = parser.parse_args(argv)
    root = project_root()
    for lesson in find_lessons(root, args.lessons or None):
        total, costs, _ = profile_lesson(root, lesson)
        print(f"{lesson.stem}: {total:.2f} s under the profiler")
        for cost in costs[:args.top]:
            print(f"  {cost.share:6.1%}  {cost.own_seconds:7.2f} s  {cost.calls:>10,} calls  {cost.where}")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
