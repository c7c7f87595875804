"""Stress the explorers under stock nbclient: execute each lesson's explorer cell many times, count hangs.

    make stress                              # every lesson, 20 times each
    python -m booktools.stress 01 04 -n 50   # these lessons, 50 times each

Explorers used to be built on an ipywidgets Output widget, and nbclient's capture of Output widgets can
deadlock a cell (jupyter/nbclient#312): the kernel idles and the executor waits for ever. The book's
explorer (`coursekit.explorer`) never uses one. This proves it the hard way: a kernel runs the lesson
up to its explorer once, then executes the explorer cell again and again with stock nbclient, each time
with a timeout; a timeout is a hang. Not part of `make test` (it takes a while): run it after changing
the explorer helper.
"""

import argparse
import multiprocessing
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from nbclient import NotebookClient
from nbclient.exceptions import CellTimeoutError

from .execute import read_lesson
from .lessons import find_lessons, project_root

CELL_TIMEOUT = 120  # seconds; an explorer cell takes a few


def is_explorer_cell(cell) -> bool:
    return cell.cell_type == "code" and "Explorer(" in cell.source


def stress_lesson(lesson, repeats: int) -> tuple[str, int, int, float]:
    """(lesson, executions, hangs, mean seconds of one explorer execution)."""
    notebook = read_lesson(lesson)
    client = NotebookClient(notebook, timeout=CELL_TIMEOUT, kernel_name="python3",
                            resources={"metadata": {"path": str(lesson.path.parent)}})
    explorers = [i for i, cell in enumerate(notebook.cells) if is_explorer_cell(cell)]
    if not explorers:
        raise SystemExit(f"{lesson.stem} has no explorer cell")
    hangs, seconds, runs = 0, 0.0, 0
    with client.setup_kernel():
        for index, cell in enumerate(notebook.cells[:explorers[-1] + 1]):
            if cell.cell_type == "code":
                client.execute_cell(cell, index)
        for _ in range(repeats):
            for index in explorers:
                started = time.perf_counter()
                try:
                    client.execute_cell(notebook.cells[index], index)
                except CellTimeoutError:
                    hangs += 1
                    client.km.interrupt_kernel()
                seconds += time.perf_counter() - started
                runs += 1
    return lesson.stem, runs, hangs, seconds / runs


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("lessons", nargs="*", help="lesson numbers or slugs (default: all)")
    parser.add_argument("-n", "--repeats", type=int, default=20, help="executions of each explorer cell")
    parser.add_argument("--workers", type=int, default=2, help="lessons at once")
    args = parser.parse_args(argv)
    lessons = find_lessons(project_root(), args.lessons or None)
    total_runs = total_hangs = 0
    with ProcessPoolExecutor(args.workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        for stem, runs, hangs, mean in pool.map(stress_lesson, lessons, [args.repeats] * len(lessons)):
            total_runs, total_hangs = total_runs + runs, total_hangs + hangs
            print(f"{stem:<55} {runs:4d} executions, {hangs} hangs, {mean:5.2f} s each", flush=True)
    print(f"explorer cells executed {total_runs} times with stock nbclient (timeout {CELL_TIMEOUT} s): "
          f"hangs: {total_hangs}")
    return 1 if total_hangs else 0


if __name__ == "__main__":
    sys.exit(main())
