"""Write a lesson's expected table from its executed notebook.

    python -m booktools.expected 02 05     # tests/expected/NN-slug.txt from _build/executed/

Only do this after checking the printed output against the source course, token for token
(``../shared/tools/seedcheck.py N _build/executed/<unit>/NN-slug.ipynb``): a stored table that differs
from the source hides a wrong lesson.
"""

import sys

from .execute import executed_path
from .lessons import find_lessons, project_root
from .outputs import printed_stdout


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    root = project_root()
    for lesson in find_lessons(root, argv or None):
        source = executed_path(root, lesson)
        if not source.exists():
            print(f"{lesson.stem}: not executed yet (python -m booktools.execute {lesson.number:02d})",
                  file=sys.stderr)
            return 1
        target = root / "tests" / "expected" / f"{lesson.stem}.txt"
        target.write_text(printed_stdout(source), encoding="utf-8")
        print(f"wrote {target.relative_to(root)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
