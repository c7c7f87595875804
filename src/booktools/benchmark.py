"""What executing the book costs, against the course's own scripts (speed targets live here, not in tests).

    make bench                                  # every lesson, one after another
    python -m booktools.benchmark 01 05         # only these lessons
    python -m booktools.benchmark --make        # also make book / make test, cold and warm
    python -m booktools.benchmark --atlas       # only the seed atlas (10 seeds), cold and warm
    python -m booktools.benchmark --shard       # one shard of the published atlas (100 seeds, 10 shards)

Each lesson is executed alone with stock papermill in a scratch folder, and measured as a whole process
(papermill and its kernel, user + system CPU). The course's scripts were measured in the units of a
fixed pure-Python workload (``../shared/tools/calibrate.py``, run here right before and after each
lesson), so ``source-timings.json`` times that workload's seconds then give the source's CPU here now:
the ratio holds across machines and days, while seconds drift.

Per lesson the CPU is split into kernel start and imports (the process's CPU outside cells, plus cells
that only import), table cells, figure cells (a matplotlib image), and the explorer cell; then the
explorer's frames and its response time to a change of each control (to the first figure, and to the
finished one where the draw is progressive), measured headless through
`explorer_report` in an extra cell that the totals leave out (it finds the lesson's explorers in the
kernel's output history, ``Out``: an explorer is the last expression of its cell).
"""

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import nbformat

from coursekit.plots import FIGURE_CLASS

from .lessons import find_lessons, project_root

TARGET_LESSON, TARGET_BOOK = 1.8, 1.3
REPORT_CELL = "from booktools.benchmark import explorer_report\nprint(explorer_report(Out.values()))"


def response_times(explorer) -> dict[str, tuple[float, float]]:
    """For a change of each control of a `coursekit.explorer.Explorer` (to a value no frame has
    drawn): CPU seconds until the first figure is ready and until the last (the same unless the draw
    is progressive). CPU time is what a reader waits for on an idle core, whatever else the measuring
    machine is doing."""
    from coursekit.explorer import figure_png, figures_of

    defaults = {name: control.default for name, control in explorer.controls.items()}
    times = {}
    for name, control in explorer.controls.items():
        framed = explorer.frames.get(name, ())
        others = [v for v in control.values if v != control.default]
        if not others:
            continue
        value = ([v for v in others if v not in framed] or others)[0]
        started, first = time.process_time(), None
        for figure in figures_of(explorer.draw(**{**defaults, name: value})):
            figure_png(figure)
            first = time.process_time() - started if first is None else first
        times[name] = (first, time.process_time() - started)
    return times


def explorer_report(results) -> str:
    """For the benchmark, run inside the lesson's kernel: each explorer among ``results`` (the kernel's
    ``Out.values()``), its frames, the seconds they took and its response times, as JSON."""
    from coursekit.explorer import Explorer

    return json.dumps([{"frames": len(e.pngs), "frame_seconds": e.frame_seconds,
                        "responses": response_times(e)} for e in results if isinstance(e, Explorer)])


def shared_folder(root: Path, given: str | None) -> Path:
    folder = Path(given) if given else root.parent / "shared"
    if not (folder / "course" / "source-timings.json").exists():
        raise SystemExit(f"no course specification in {folder} (give --shared PATH): the benchmark "
                         "compares with the source's timings in course/source-timings.json")
    return folder


def calibrate(shared: Path) -> float:
    """Seconds of CPU of the calibration workload, right now."""
    done = subprocess.run([sys.executable, str(shared / "tools" / "calibrate.py")], capture_output=True,
                          text=True, check=True)
    return float(done.stdout.split()[-1])


def cell_kind(cell) -> str:
    """What a code cell spends its time on, read from its source and outputs."""
    mimes = {mime for output in cell.get("outputs", []) for mime in output.get("data", {})}
    if "application/vnd.jupyter.widget-view+json" in mimes and "text/html" in mimes:
        return "explorer"
    if "image/png" in mimes or any(FIGURE_CLASS in "".join(output.get("data", {}).get("text/html", ""))
                                   for output in cell.get("outputs", [])):
        return "figures"
    lines = [line for line in cell.source.splitlines() if line.strip() and not line.startswith("#")]
    if lines and all(line.startswith(("import ", "from ", " ", ")")) for line in lines):
        return "imports"
    return "tables"


def measure_lesson(lesson) -> dict:
    """Execute one lesson in a scratch folder; its process CPU, the split by cell kind, the explorer."""
    from .execute import read_lesson

    with tempfile.TemporaryDirectory() as scratch:
        notebook = read_lesson(lesson)
        notebook.cells.append(nbformat.v4.new_code_cell(REPORT_CELL))
        source, output = Path(scratch) / "in.ipynb", Path(scratch) / "out.ipynb"
        nbformat.write(notebook, source)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        subprocess.run([str(Path(sys.executable).parent / "papermill"), str(source), str(output),
                        "--cwd", str(lesson.path.parent), "--kernel", "python3", "--no-progress-bar",
                        "--log-level", "ERROR"], check=True, capture_output=True)
        wall = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        executed = nbformat.read(output, as_version=4)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    code = [cell for cell in executed.cells if cell.cell_type == "code"]
    report_cell = code.pop()
    report_seconds = report_cell.metadata.get("papermill", {}).get("duration") or 0.0
    split = {"imports": 0.0, "tables": 0.0, "figures": 0.0, "explorer": 0.0}
    for cell in code:
        split[cell_kind(cell)] += cell.metadata.get("papermill", {}).get("duration") or 0.0
    cpu -= report_seconds
    split["imports"] += max(0.0, cpu - sum(split.values()))  # kernel start, papermill, the rest
    printed = "".join(o.get("text", "") for o in report_cell.outputs if o.get("name") == "stdout")
    explorers = json.loads(printed.strip().splitlines()[-1]) if printed.strip() else []
    return {"cpu": cpu, "wall": wall, "split": split, "explorers": explorers,
            "peak_mb": after.ru_maxrss / 1024}


def print_lessons(results: dict, source_seconds: dict) -> None:
    print(f"\n{'lesson':<44}{'CPU s':>7}{'source':>8}{'ratio':>7}  {'start':>6}{'tables':>7}"
          f"{'figures':>8}{'explorer':>9}{'fig+exp':>8}  {'frames':>6}  slowest control")
    for stem, r in results.items():
        s = r["split"]
        ratio = r["cpu"] / source_seconds[stem]
        share = (s["figures"] + s["explorer"]) / r["cpu"]
        frames = sum(e["frames"] for e in r["explorers"])
        responses = {name: first for e in r["explorers"] for name, (first, _) in e["responses"].items()}
        slowest = max(responses.items(), key=lambda item: item[1]) if responses else ("-", 0.0)
        flag = " <- over 1.8x" if ratio > TARGET_LESSON else ""
        print(f"{stem[:43]:<44}{r['cpu']:>7.1f}{source_seconds[stem]:>8.1f}{ratio:>7.2f}  "
              f"{s['imports']:>6.1f}{s['tables']:>7.1f}{s['figures']:>8.1f}{s['explorer']:>9.1f}"
              f"{share:>8.0%}  {frames:>6}  {slowest[0]} {slowest[1]:.2f} s{flag}")
    total, source = sum(r["cpu"] for r in results.values()), sum(source_seconds[s] for s in results)
    print(f"{'all of the above':<44}{total:>7.1f}{source:>8.1f}{total / source:>7.2f}"
          f"{'  (target ' + str(TARGET_BOOK) + ')':>12}")
    print("\nexplorer response per control, CPU s to the first figure (to the finished one, where it is"
          " drawn progressively):")
    for stem, r in results.items():
        print(f"  {stem[:2]} " + ", ".join(
            f"{n} {first:.2f}" + (f" ({last:.2f})" if last - first > 0.01 else "")
            for e in r["explorers"] for n, (first, last) in e["responses"].items()))
    print("peak memory per lesson (MB): " + ", ".join(f"{stem[:2]} {r['peak_mb']:.0f}" for stem, r in results.items()))


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


def time_make_targets(root: Path) -> None:
    for target in ("book", "test"):  # each in a fresh copy of the project: cold, then warm
        with tempfile.TemporaryDirectory() as copy:
            copy_project(root, Path(copy))
            for state in ("cold", "warm"):
                print(f"  make {target}, {state:<5} {timed(['make', target], Path(copy)):7.1f} s", flush=True)


ATLAS_TARGET_COLD, ATLAS_TARGET_WARM = 8.0, 30.0  # times one cold execution of the book; seconds


def time_atlas(root: Path, seeds: str = "10") -> dict:
    """In a fresh copy of the project: one cold execution of the book, then the seed atlas of ``seeds``
    (N or FIRST-LAST) cold (its own executions; the book's are current by then) and warm (nothing changed)."""
    from .atlas import parse_seeds, seeds_words

    python = str(root / ".venv" / "bin" / "python")
    words = seeds_words(parse_seeds(seeds))
    with tempfile.TemporaryDirectory() as copy:
        copy_project(root, Path(copy))
        book = timed([python, "-m", "booktools.execute"], Path(copy))
        cold = timed([python, "-m", "booktools.atlas", "--seeds", seeds], Path(copy))
        warm = timed([python, "-m", "booktools.atlas", "--seeds", seeds], Path(copy))
    print(f"  one cold execution of the book {book:7.1f} s")
    print(f"  seed atlas, {words}, cold  {cold:7.1f} s = {cold / book:.1f}x the book "
          f"(target {ATLAS_TARGET_COLD:.0f}x{' - over' if cold > ATLAS_TARGET_COLD * book else ''})")
    print(f"  seed atlas, {words}, warm  {warm:7.1f} s (target {ATLAS_TARGET_WARM:.0f} s"
          f"{' - over' if warm > ATLAS_TARGET_WARM else ''})", flush=True)
    return {"book": book, "cold": cold, "warm": warm}


def time_shard(root: Path, seeds: int = 100, shards: int = 10) -> dict:
    """The time of one shard of the published atlas (seeds 1 to ``seeds`` in ``shards`` shards), from a
    measured one: in a fresh copy of the project, shard 1 of ``shards`` of seeds 1 to ``shards``, cold
    (its executions) and warm (nothing to execute: start, plan, reading the claims). That shard holds one
    execution of every lesson; a shard of the published split holds ``seeds // shards`` of every lesson
    (`booktools.atlas.plan`), so it takes about warm + seeds // shards * (cold - warm)."""
    if seeds % shards:
        raise ValueError(f"seeds ({seeds}) must be a multiple of shards ({shards}) for this extrapolation")
    python = str(root / ".venv" / "bin" / "python")
    command = [python, "-m", "booktools.atlas", "--seeds", str(shards), "--shard", f"1/{shards}"]
    with tempfile.TemporaryDirectory() as copy:
        copy_project(root, Path(copy))
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        cold = timed(command, Path(copy))
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        warm = timed(command, Path(copy))
        partial = json.loads((Path(copy) / "_build" / "atlas" / "partials" / f"shard-1-of-{shards}.json").read_text())
    jobs = sum(len(lesson["runs"]) for lesson in partial["lessons"].values())
    per_lesson = seeds // shards
    estimate = warm + per_lesson * (cold - warm)
    workers = int(os.environ.get("LESSON_WORKERS", 0)) or os.cpu_count()
    print(f"  measured: shard 1/{shards} of seeds 1 to {shards} ({jobs} executions, one of each lesson), "
          f"{workers} kernels at once: cold {cold:7.1f} s, warm {warm:5.1f} s")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    print(f"  extrapolated: a shard of seeds 1 to {seeds} in {shards} shards ({per_lesson * jobs} executions, "
          f"{per_lesson} of each lesson) ~ {warm:.1f} + {per_lesson} x {cold - warm:.1f} s = {estimate:7.1f} s "
          f"({estimate / 60:.0f} min) on {workers} cores; all {shards} shards one after another "
          f"~ {shards * estimate / 3600:.1f} h", flush=True)
    print(f"  by CPU: the measured shard took {cpu:.0f} s of CPU ({cpu / jobs:.1f} s an execution), so a shard "
          f"of the published split needs {per_lesson * cpu:.0f} s of CPU: {per_lesson * cpu / workers / 60:.0f} min "
          f"on {workers} idle cores at best (the wall-clock estimate above includes this machine's load and the "
          "wait for the last, longest execution)", flush=True)
    return {"cold": cold, "warm": warm, "jobs": jobs, "estimate": estimate, "cpu": cpu}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("lessons", nargs="*", help="lesson numbers or slugs (default: all)")
    parser.add_argument("--shared", help="the course specification folder (default: ../shared)")
    parser.add_argument("--make", action="store_true", help="also time make book and make test")
    parser.add_argument("--atlas", nargs="?", const="10", default=None, metavar="SEEDS",
                        help="only time the seed atlas (default seeds 1 to 10; N or FIRST-LAST), cold and "
                             "warm, against the book")
    parser.add_argument("--shard", nargs="?", const="100/10", default=None, metavar="SEEDS/SHARDS",
                        help="only time one shard of the atlas of seeds 1 to SEEDS in SHARDS shards "
                             "(default 100/10), extrapolated from a measured shard of seeds 1 to SHARDS")
    args = parser.parse_args(argv)
    root = project_root()
    if args.atlas is not None:
        print(f"Python {sys.version.split()[0]}, {os.cpu_count()} cores: the seed atlas", flush=True)
        time_atlas(root, args.atlas)
        return 0
    if args.shard is not None:
        seeds, _, shards = args.shard.partition("/")
        print(f"Python {sys.version.split()[0]}, {os.cpu_count()} cores: one shard of the seed atlas", flush=True)
        time_shard(root, int(seeds), int(shards or 10))
        return 0
    shared = shared_folder(root, args.shared)
    units = json.loads((shared / "course" / "source-timings.json").read_text())["lessons"]
    lessons = find_lessons(root, args.lessons or None)
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} cores, {len(lessons)} lessons", flush=True)
    # As the source was measured: the calibration right before and right after each lesson, their mean
    # its unit (the machine's speed drifts by 20% within minutes; one unit for the whole run would not
    # follow it). Each calibration after a lesson is the one before the next.
    before, results, source, seen = calibrate(shared), {}, {}, []
    for lesson in lessons:
        results[lesson.stem] = measure_lesson(lesson)
        after = calibrate(shared)
        source[lesson.stem] = units[str(lesson.number)] * (before + after) / 2
        seen.append(after)
        print(f"  {lesson.stem:<55} {results[lesson.stem]['cpu']:6.1f} s CPU, calibration "
              f"{before:.3f}-{after:.3f} s", flush=True)
        before = after
    print(f"calibration workload {min(seen):.3f}-{max(seen):.3f} s CPU over the run "
          "(source-timings.json is in its units)")
    print_lessons(results, source)
    if args.make:
        time_make_targets(root)
    return 0


if __name__ == "__main__":
    sys.exit(main())
