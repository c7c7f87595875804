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
from coursekit.prose import counted, in_words
from coursekit.references import DECISION_TREE_HITS, LINEAR_MODEL_HITS

from .lessons import Lesson, find_lessons, project_root
from .outputs import quoted_texts, recorded_claims

ROW_NAMES = ("baseline", "network_number", "second_run", "sampling_error")
"""What every lesson quotes for its row of the wrap-up."""

DATA_SETS = {
    **dict.fromkeys(range(1, 10), "subscriber table"),
    **dict.fromkeys(range(10, 13), "coverage grids"),
    **dict.fromkeys(range(13, 17), "sequences"),
    **dict.fromkeys(range(17, 19), "event codes"),
    19: "sequences (reconstruction error)",
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
               int(quoted_size) if quoted_size is not None else None)


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


def conclusions(rows: list[Row], test_size: int | None = None) -> list[Claim]:
    """The course's closing claims, computed from the rows (``test_size``: the subscriber test set's
    size with this seed, for the comparison lines of the Supervised Learning course; by default the
    size the rows quote)."""
    test_size = test_size or subscriber_test_size(rows)
    compared = [row for row in rows if row.closing is not None]
    outweighed = [row for row in compared if row.closing["holds"]]
    k, n = len(outweighed), len(compared)
    # the lines at the four decimals the rows are quoted with, so that a run of exactly 202 hits reaches
    # the linear model's line
    linear, tree = round(LINEAR_MODEL_HITS / test_size, 4), round(DECISION_TREE_HITS / test_size, 4)
    unit1 = [row for row in rows if row.lesson.unit == "fundamentals"]
    unit1_runs = [_number(value) for row in unit1 for value in (row.network, row.second_run)]
    at_tree = sum(f"{_number(row.network):.4f}" == f"{tree:.4f}" for row in unit1)
    subscriber_rows = [row for row in rows if row.data_set == "subscriber table"]
    beats = [row for row in subscriber_rows
             if _number(row.network) - linear > max(abs(_number(row.network) - _number(row.second_run)),
                                                    _number(row.sampling_error))]
    return [
        Claim("second_run_outweighs_in_most", k > n - k,
              yes=f"In {k} of the {n} lessons that set a change of capacity or architecture beside the "
                  f"second run, the second run moved the number more than the change did.",
              no=f"In only {k} of the {n} lessons that set a change of capacity or architecture beside "
                 f"the second run did the second run move the number more than the change did."),
        Claim("fundamentals_below_linear_model", max(unit1_runs) < linear,
              yes=f"In the {in_words(len(unit1))} lessons of unit 1 no run reached the linear model's "
                  f"{linear:.4f}: the highest of the {len(unit1_runs)} runs (network and second run) is "
                  f"{max(unit1_runs):.4f}, and in {counted(at_tree, 'lesson')} the network's number is "
                  f"exactly the decision tree's {tree:.4f}.",
              no=f"In the {in_words(len(unit1))} lessons of unit 1 the highest of the {len(unit1_runs)} runs "
                 f"(network and second run), {max(unit1_runs):.4f}, reaches the linear model's "
                 f"{linear:.4f}; in {counted(at_tree, 'lesson')} the network's number is exactly the "
                 f"decision tree's {tree:.4f}."),
        Claim("networks_beat_linear_model", bool(beats),
              yes=f"{counted(len(beats), 'lesson')} of the subscriber table put the network above the "
                  f"linear model's {linear:.4f} by more than both its second-run difference and its "
                  f"sampling error: {', '.join(row.lesson.stem[:2] for row in beats)}.",
              no=f"No lesson on the subscriber table puts the network above the linear model's "
                 f"{linear:.4f} by more than both its second-run difference and its sampling error: on "
                 f"this tabular data the deep networks did not beat the earlier models measurably."),
    ]


def markdown(rows: list[Row], test_size: int | None = None, link=lambda row: row.title) -> str:
    """The wrap-up as MyST Markdown: the table, then the closing claims' sentences."""
    lines = ["| Lesson | Baseline | Network's number | Second run | Sampling error | Data set |",
             "|---|---:|---:|---:|---:|---|"]
    for row in rows:
        lines.append(f"| {row.lesson.number:02d}. {link(row)} | {row.baseline} | {row.network} | "
                     f"{row.second_run} | {row.sampling_error} | {row.data_set} |")
    recorded = claims_record(conclusions(rows, test_size))
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
