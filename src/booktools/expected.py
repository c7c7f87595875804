"""Write a lesson's expected table from its executed notebook.

    python -m booktools.expected 02 05     # tests/expected/NN-slug.txt from _build/executed/

Only do this after checking the printed output against the source course, token for token
(``../shared/tools/seedcheck.py N _build/executed/<unit>/NN-slug.ipynb``): a stored table that differs
from the source hides a wrong lesson.

Platform-sensitive tokens (``tests/expected/platform-sensitive.json``) must hold the *source's* values,
which this machine may not print: they are carried over from the table already stored. A lesson stored
for the first time gets what it printed there, with a warning to set them by hand.
"""

import sys

from .execute import executed_path
from .lessons import find_lessons, project_root
from .outputs import printed_stdout, replace_tokens, sensitive_tokens


def keep_sensitive_tokens(printed: str, stored: str, sensitive: set[int]) -> str:
    """``printed`` with its sensitive tokens replaced by those of ``stored`` (same token count)."""
    old = stored.split()
    if len(old) != len(printed.split()):
        raise ValueError("stored must have as many tokens as printed to carry sensitive tokens over")
    return replace_tokens(printed, sensitive, lambda i: old[i])


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
        text = printed_stdout(source)
        sensitive = sensitive_tokens(target.parent, lesson.number)
        if sensitive and target.exists():
            text = keep_sensitive_tokens(text, target.read_text(encoding="utf-8"), sensitive)
        elif sensitive:
            print(f"{lesson.stem}: set its platform-sensitive tokens to the source's values by hand",
                  file=sys.stderr)
        target.write_text(text, encoding="utf-8")
        print(f"wrote {target.relative_to(root)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
