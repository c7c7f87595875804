"""Fingerprints of the source course's printed output, so the tests can check the stored expected
tables against the source without the course specification at hand.

    python -m booktools.digests ../shared/course/course.json   # rewrite tests/expected/source-digests.json

For every lesson: how many whitespace-separated tokens the source printed, and the SHA-256 of those
tokens joined by single spaces. An expected table whose tokens hash to anything else differs from the
source: the lesson is wrong, not the table.
"""

import hashlib
import json
import sys
from pathlib import Path

from .lessons import project_root


def token_digest(text: str) -> str:
    return hashlib.sha256(" ".join(text.split()).encode("utf-8")).hexdigest()


def course_digests(course_json: Path) -> dict:
    lessons = json.loads(course_json.read_text(encoding="utf-8"))["lessons"]
    return {str(lesson["number"]): {"slug": lesson["slug"],
                                    "tokens": len(" ".join(lesson["outputs"]).split()),
                                    "sha256": token_digest(" ".join(lesson["outputs"]))}
            for lesson in lessons}


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    target = project_root() / "tests" / "expected" / "source-digests.json"
    target.write_text(json.dumps(course_digests(Path(argv[0])), indent=1) + "\n", encoding="utf-8")
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
