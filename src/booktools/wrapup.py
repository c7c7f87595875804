"""The Course Wrap-Up: one table of every lesson's baseline, network's number and second run.

The source course closes with that table and two conclusions drawn from it. The book builds the table
from what each lesson's execution recorded, never from typed numbers: every lesson quotes
``baseline``, ``network_number``, ``second_run`` and ``sampling_error`` (`coursekit.prose.quote`) and,
where it studied a change of capacity or architecture, records the claim
`coursekit.claims.SECOND_RUN_CLAIM` (did the second run move the number more than that change?).
With the course seed the table is the source's; built from the executions of another seed, it is
that seed's.

The book's page ``book/wrap-up.md`` shows it through the ``wrap-up`` directive of
`booktools.sphinxext`, from the same executions as the lesson pages;
``python -m booktools.wrapup [FOLDER]`` prints it from a folder of executed lessons
(``_build/executed`` by default, ``_build/executed-SEED-7`` for the tests' other seed).
"""

import argparse
import json
import re
from dataclasses import dataclass
from pathlib import Path

from coursekit.claims import SECOND_RUN_CLAIM, Claim, claims_record
from coursekit.prose import in_words
from coursekit.references import linear_model_hits

from .lessons import Lesson, find_lessons, project_root
from .outputs import parameter, quoted_texts, recorded_claims

ROW_NAMES = ("baseline", "network_number", "second_run", "sampling_error")
"""What every lesson quotes for its row of the wrap-up."""

DATA_SETS = {
    **dict.fromkeys(range(1, 10), "subscriber table"),
    **dict.fromkeys(range(10, 13), "coverage grids"),
    **dict.fromkeys(range(13, 15), "reading sequences"),
    **dict.fromkeys(range(15, 17), "step sequences"),
    **dict.fromkeys(range(17, 19), "event codes"),
    19: "step sequences (reconstruction error)",
    **dict.fromkeys(range(20, 25), "subscriber table"),
}
"""The fictional data set each lesson reads its number from (lesson 19's number is an error: smaller
is better)."""


@dataclass(frozen=True)
class Row:
    lesson: Lesson
    title: str
    baseline: str
    network: str
    second_run: str
    sampling_error: str
    closing: dict | None  # the recorded SECOND_RUN_CLAIM, {"holds": ..., "says": ...}, or None
    test_size: int | None = None  # the size of the test set, where the lesson quotes it
    seed: int | None = None  # the SEED the lesson ran with

    @property
    def data_set(self) -> str:
        return DATA_SETS[self.lesson.number]


def title_of(lesson: Lesson) -> str:
    match = re.search(r"^# (?:\d+\. )?(.+)$", lesson.path.read_text(encoding="utf-8"), flags=re.M)
    return match[1].strip() if match else lesson.slug


def row_of(lesson: Lesson, notebook: dict) -> Row:
    """The lesson's row, from its executed notebook; ValueError naming the lesson and what is missing."""
    texts = {name: str(value) for name, value in quoted_texts(notebook).items()}
    missing = [name for name in ROW_NAMES if name not in texts]
    if missing:
        raise ValueError(f"lesson {lesson.stem} quotes no {', '.join(missing)}: the Course Wrap-Up reads "
                         f"{', '.join(ROW_NAMES)} from every lesson's execution")
    quoted_size = texts.get("test_size")
    return Row(lesson, title_of(lesson), *(texts[name] for name in ROW_NAMES),
               recorded_claims(notebook)[0].get(SECOND_RUN_CLAIM),
               int(quoted_size) if quoted_size is not None else None, parameter(notebook, "SEED"))


def subscriber_test_size(rows: list[Row]) -> int:
    """The subscriber test set's size with this seed, as the first subscriber-table lesson quotes it."""
    sizes = [row.test_size for row in rows if row.data_set == "subscriber table" and row.test_size]
    if not sizes:
        raise ValueError("no subscriber-table lesson quotes test_size: the comparison lines need it")
    return sizes[0]


def rows_from_folder(root: Path, folder: str = "executed") -> list[Row]:
    """Every lesson's row from the executed notebooks under ``root/_build/<folder>``."""
    rows = []
    for lesson in find_lessons(root):
        path = root / "_build" / folder / lesson.unit / f"{lesson.stem}.ipynb"
        if not path.exists():
            raise ValueError(f"lesson {lesson.stem} has no execution in _build/{folder}: execute it first")
        rows.append(row_of(lesson, json.loads(path.read_text(encoding="utf-8"))))
    return rows


def _number(text: str) -> float:
    return float(re.match(r"[+-]?\d+(\.\d+)?", text.strip())[0])


def seed_of(rows: list[Row]) -> int:
    """The one seed every row's lesson ran with; ValueError when they differ or none says."""
    seeds = {row.seed for row in rows}
    if len(seeds) != 1 or None in seeds:
        raise ValueError(f"the wrap-up's rows must come from one seed's executions, got seeds "
                         f"{sorted(map(str, seeds))}")
    return seeds.pop()


def linear_model_number(rows: list[Row]) -> float:
    """The linear model's test accuracy *on this seed's test set* (`coursekit.references.linear_model_hits`):
    the line the subscriber-table networks are compared with; ValueError if its test set is not the rows'."""
    hits = linear_model_hits(seed_of(rows))
    test_size = subscriber_test_size(rows)
    if len(hits) != test_size:
        raise ValueError(f"the linear model was counted on {len(hits)} rows, the lessons on {test_size}")
    return sum(hits) / test_size


def conclusions(rows: list[Row]) -> list[Claim]:
    """The course's closing claims, computed from the rows: how often the second run outweighed the
    change a lesson studied, and where unit 1's networks stand against the linear model retrained on the
    rows' seed and counted on the same test set."""
    compared = [row for row in rows if row.closing is not None]
    outweighed = [row for row in compared if row.closing["holds"]]
    k, n = len(outweighed), len(compared)
    linear = linear_model_number(rows)
    unit1 = [row for row in rows if row.lesson.unit == "fundamentals"]
    unit1_runs = [_number(value) for row in unit1 for value in (row.network, row.second_run)]
    highest = max(unit1_runs)
    reached = sum(run >= linear for run in unit1_runs)
    return [
        Claim("second_run_outweighs_in_most", k > n - k,
              yes=f"In {k} of the {n} lessons that set the change they studied beside the second run, the "
                  f"second run moved the network's number more than the change did.",
              no=f"In {k} of the {n} lessons that set the change they studied beside the second run, the "
                 f"second run moved the network's number more than the change did: not in most of them."),
        Claim("fundamentals_below_linear_model", highest < linear,
              yes=f"No run of the {in_words(len(unit1))} lessons of unit 1 reached the linear model's "
                  f"{linear:.4f}: the highest of the {len(unit1_runs)} runs (network's number and second run "
                  f"of each lesson) is {highest:.4f}.",
              no=lambda: f"{reached} of the {len(unit1_runs)} runs of the {in_words(len(unit1))} lessons "
                         f"of unit 1 (network's number and second run of each) reached the linear model's "
                         f"{linear:.4f}; the highest is {highest:.4f}."),
    ]


def figure(rows: list[Row]):
    """Every lesson's row as a picture: the baseline, the network's number with one standard error as
    a bar, and the second run, one panel per data set's kind of number (accuracies; lesson 19's error)."""
    import matplotlib

    matplotlib.use("agg")
    import matplotlib.pyplot as plt

    accuracy_rows = [row for row in rows if row.lesson.number != 19]
    error_rows = [row for row in rows if row.lesson.number == 19]
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 5.2), gridspec_kw={"width_ratios": [len(accuracy_rows), 2.5]})
    for ax, shown, label in ((left, accuracy_rows, "test accuracy (larger is better)"),
                             (right, error_rows, "reconstruction error (smaller is better)")):
        xs = range(len(shown))
        ax.errorbar(xs, [_number(r.network) for r in shown], yerr=[_number(r.sampling_error) for r in shown],
                    fmt="o", color="C0", capsize=3, label="network's number ± one standard error")
        ax.scatter(xs, [_number(r.second_run) for r in shown], marker="x", color="C3", zorder=3, label="second run")
        ax.scatter(xs, [_number(r.baseline) for r in shown], marker="_", s=220, color="0.3", zorder=3,
                   label="baseline")
        ax.set_xticks(list(xs), [f"{r.lesson.number:02d}" for r in shown], fontsize=8)
        ax.set_xlabel("lesson")
        ax.set_ylabel(label)
        ax.grid(axis="y", color="0.9")
    left.legend(fontsize=8, loc="lower left")
    left.set_title("Every lesson's network against its baseline and its second run", fontsize=10)
    fig.tight_layout()
    return fig


def figure_description(rows: list[Row]) -> str:
    """The figure in words, from the rows' numbers."""
    accuracy_rows = [row for row in rows if row.lesson.number != 19]
    below = [row.lesson.number for row in accuracy_rows if _number(row.network) < _number(row.baseline)]
    wider = [row.lesson.number for row in accuracy_rows
             if abs(_number(row.network) - _number(row.second_run)) > _number(row.sampling_error)]
    lowest = min(accuracy_rows, key=lambda r: _number(r.network) - _number(r.baseline))
    highest = max(accuracy_rows, key=lambda r: _number(r.network) - _number(r.baseline))
    def lessons(numbers):
        return "no lesson" if not numbers else ("lesson " if len(numbers) == 1 else "lessons ") + ", ".join(
            f"{n:02d}" for n in numbers)
    return (f"Left: for each of the {len(accuracy_rows)} lessons measured by accuracy, the network's number as "
            f"a dot with a bar of one standard error, the second run as a cross and the baseline as a dash. "
            f"The network's number lies below its baseline in {lessons(below)}; it is furthest above it in "
            f"lesson {highest.lesson.number:02d} ({highest.network} against {highest.baseline}) and lowest "
            f"against it in lesson {lowest.lesson.number:02d} ({lowest.network} against {lowest.baseline}). "
            f"The second run lies more than one standard error from the network's number in "
            f"{lessons(wider)}. Right: lesson 19's reconstruction error, where smaller is better.")


def markdown(rows: list[Row], link=lambda row: row.title) -> str:
    """The wrap-up as MyST Markdown: the table, its figure, then the closing claims' sentences."""
    from coursekit.plots import figure_html

    from .atlas import png_of

    lines = ["| Lesson | Baseline | Network's number | Second run | Sampling error | Data set |",
             "|---|---:|---:|---:|---:|---|"]
    for row in rows:
        lines.append(f"| {row.lesson.number:02d}. {link(row)} | {row.baseline} | {row.network} | "
                     f"{row.second_run} | {row.sampling_error} | {row.data_set} |")
    lines += ["", "```{raw} html", figure_html(png_of(figure(rows)), figure_description(rows)), "```", ""]
    recorded = claims_record(conclusions(rows))
    lines += ["", *(f"- {entry['says']}" for entry in recorded.values())]
    compared = [row for row in rows if row.closing is not None]
    lines += ["", "The closing claim of each lesson that compared a change with the second run:", ""]
    lines += [f"- {row.lesson.number:02d}. {row.closing['says']}" for row in compared]
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", default="executed", help="a folder under _build/")
    args = parser.parse_args(argv)
    root = project_root()
    print(markdown(rows_from_folder(root, args.folder)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
