"""Rerun one lesson with other parameters, with the stock tools, and print what it printed.

    make lesson N=01 ARGS="-p SEED 7 -p RUNS 10"
    python -m booktools.run 01 -p SEED 7 -p RUNS 10      # the same, from the project's .venv

The lesson's MyST source is converted to a notebook by jupytext, executed by the papermill command
line (its ``-p NAME VALUE`` options override the lesson's ``parameters`` cell), and the tables it
printed are shown. The executed notebook stays in ``_build/runs/`` for JupyterLab. A bad parameter
fails in the lesson's own check cell, with the ``ValueError`` naming it.
"""

import argparse
import re
import subprocess
import sys
from pathlib import Path

from .lessons import find_lessons, project_root
from .outputs import printed_stdout


def run_name(stem: str, parameters: list[tuple[str, str]]) -> str:
    """``01-slug-SEED-7`` for lesson ``01-slug`` run with ``SEED 7`` (safe as a file name)."""
    suffix = "".join(f"-{name}-{value}" for name, value in parameters)
    return re.sub(r"[^A-Za-z0-9._-]+", "_", stem + suffix)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Rerun one lesson with other parameters (stock papermill).")
    parser.add_argument("lesson", help="the lesson's number or slug, e.g. 01")
    parser.add_argument("-p", "--parameter", nargs=2, action="append", default=[], metavar=("NAME", "VALUE"),
                        help="a parameter and its value, as papermill's -p (repeatable)")
    args = parser.parse_args(argv)
    root = project_root()
    lesson = find_lessons(root, [args.lesson])[0]
    folder = root / "_build" / "runs"
    folder.mkdir(parents=True, exist_ok=True)
    name = run_name(lesson.stem, args.parameter)
    source, executed = folder / f"{name}.input.ipynb", folder / f"{name}.ipynb"
    bin_dir = Path(sys.executable).parent
    subprocess.run([str(bin_dir / "jupytext"), "--quiet", "--to", "ipynb", "--output", str(source),
                    str(lesson.path)], check=True)
    command = [str(bin_dir / "papermill"), str(source), str(executed), "--cwd", str(lesson.path.parent),
               "--kernel", "python3", "--no-progress-bar"]
    for parameter, value in args.parameter:
        command += ["-p", parameter, value]
    print("$ " + " ".join(command[:3] + command[3:]).replace(str(root) + "/", ""), flush=True)
    done = subprocess.run(command, capture_output=True, text=True)
    source.unlink(missing_ok=True)
    if executed.exists():
        print(printed_stdout(executed), end="")
    if done.returncode != 0:
        error = [line for line in done.stderr.splitlines() if "Error" in line]
        print("\n".join(error[-3:]) or done.stderr[-2000:], file=sys.stderr)
        print(f"{lesson.stem} failed; the notebook as far as it ran: {executed.relative_to(root)}", file=sys.stderr)
        return 1
    print(f"\nexecuted notebook: {executed.relative_to(root)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
