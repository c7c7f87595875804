"""Finding the lessons of the book: ``book/<unit>/NN-slug.md``, NN from 01 to 24."""

import re
from dataclasses import dataclass
from pathlib import Path

LESSON_NAME = re.compile(r"^(?P<number>[0-2]\d)-(?P<slug>[a-z0-9-]+)\.md$")


@dataclass(frozen=True)
class Lesson:
    number: int
    slug: str
    unit: str  # the folder under book/: fundamentals, architectures or practice
    path: Path

    @property
    def stem(self) -> str:
        """``NN-slug``: the name of the lesson's expected table and executed notebook."""
        return f"{self.number:02d}-{self.slug}"


CHAPTERS = ("measuring",)
"""The book's executed pages that are not lessons (``book/<slug>.md``): the chapter on measuring."""


def find_chapters(root: Path) -> list[Lesson]:
    """The executed chapters that are not lessons, as `Lesson` records numbered 0 (unit: none, so they
    are executed into ``_build/executed/00-<slug>.ipynb``); the tests and the atlas read lessons only."""
    return [Lesson(0, slug, "", root / "book" / f"{slug}.md") for slug in CHAPTERS
            if (root / "book" / f"{slug}.md").is_file()]


def project_root() -> Path:
    """The folder holding ``_toc.yml``: from the working directory upwards, else from this file."""
    for start in (Path.cwd(), Path(__file__).resolve()):
        for folder in (start, *start.parents):
            if (folder / "_toc.yml").exists() and (folder / "book").is_dir():
                return folder
    raise FileNotFoundError("no book project (a folder with _toc.yml and book/) above the working directory")


def find_lessons(root: Path, selection=None) -> list[Lesson]:
    """All lessons under ``root/book``, in course order; ``selection`` keeps numbers or slugs given."""
    lessons = []
    for path in sorted((root / "book").glob("*/*.md")):
        match = LESSON_NAME.match(path.name)
        if match:
            lessons.append(Lesson(int(match["number"]), match["slug"], path.parent.name, path))
    lessons.sort(key=lambda lesson: lesson.number)
    if selection:
        wanted = {str(s).lstrip("0") or "0" for s in selection} | {str(s) for s in selection}
        lessons = [each for each in lessons
                   if str(each.number) in wanted or each.slug in wanted or each.stem in wanted]
        if not lessons:
            raise ValueError(f"selection matches no lesson: {selection!r}")
    return lessons
