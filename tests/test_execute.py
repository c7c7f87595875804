"""One store of executed lessons: the book's cache holds, for each lesson, an execution of its present
inputs or nothing. Each way a page could show outputs its code no longer computes is reproduced here on a
small project of its own (one lesson of a few cells), and shown to be caught."""

from pathlib import Path

import nbformat
import pytest

from booktools import execute
from booktools.execute import (
    environment_stamp,
    execute_lessons,
    executed_path,
    is_current,
    stale_reason,
    state_of,
    sync_book_cache,
    text_stamp,
)
from booktools.lessons import find_lessons

LESSON = """---
jupytext:
  text_representation:
    extension: .md
    format_name: myst
kernelspec:
  display_name: Python 3 (ipykernel)
  language: python
  name: python3
---

# 1. A lesson

```{{code-cell}} ipython3
from pathlib import Path

value = Path("{package}", "value.txt").read_text().strip()
if value == "fail":
    raise RuntimeError("the package is broken")
print("value", value)
```
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A book of one lesson, whose printed value comes from a file of its own coursekit."""
    (tmp_path / "_toc.yml").write_text("format: jb-book\nroot: book/intro\n")
    package = tmp_path / "src" / "coursekit"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "value.txt").write_text("1\n")
    (tmp_path / "requirements.txt").write_text("nothing\n")
    lesson = tmp_path / "book" / "fundamentals" / "01-a-lesson.md"
    lesson.parent.mkdir(parents=True)
    lesson.write_text(LESSON.format(package=package.as_posix()))
    return tmp_path


def printed(project: Path) -> str:
    lesson = find_lessons(project)[0]
    notebook = nbformat.read(executed_path(project, lesson), as_version=4)
    return "".join(o.get("text", "") for c in notebook.cells for o in c.get("outputs", []))


def cached_outputs(project: Path) -> str | None:
    """What the book's pages would show: the stdout of the cache record matching the lesson's text."""
    lesson = find_lessons(project)[0]
    try:
        _, merged = execute.book_cache(project).merge_match_into_notebook(execute.read_lesson(lesson))
    except KeyError:
        return None
    return "".join(o.get("text", "") for c in merged.cells for o in c.get("outputs", []))


def test_the_export_and_the_cache_hold_one_execution(project):
    [outcome] = execute_lessons(project, workers=1)
    assert outcome.executed and outcome.error is None
    assert printed(project) == cached_outputs(project) == "value 1\n"
    assert stale_reason(project, find_lessons(project)[0]) is None
    [again] = execute_lessons(project, workers=1)
    assert not again.executed


def test_an_interrupted_sync_is_completed_on_the_next_run(project, monkeypatch):
    """Workers export their notebook; the parent stores it in the cache. An interruption between the
    two (Ctrl-C, an exception) left the export stamped and the cache old: the next run syncs it."""
    execute_lessons(project, workers=1)
    (project / "src" / "coursekit" / "value.txt").write_text("2\n")

    def interrupted(root, outcome):
        raise KeyboardInterrupt

    monkeypatch.setattr(execute, "sync_book_cache", interrupted)
    with pytest.raises(KeyboardInterrupt):
        execute_lessons(project, workers=1)
    monkeypatch.undo()
    lesson = find_lessons(project)[0]
    assert printed(project) == "value 2\n" and cached_outputs(project) == "value 1\n"
    assert state_of(project, lesson, lesson.path.read_text(), environment_stamp(project)) == "unsynced"
    assert "other inputs" in stale_reason(project, lesson)  # the book refuses the old record
    [outcome] = execute_lessons(project, workers=1)
    assert not outcome.executed, "a complete export is synced, not executed again"
    assert cached_outputs(project) == "value 2\n" and stale_reason(project, lesson) is None


def test_a_failed_execution_leaves_nothing_for_the_book(project):
    execute_lessons(project, workers=1)
    (project / "src" / "coursekit" / "value.txt").write_text("fail\n")
    [outcome] = execute_lessons(project, workers=1)
    assert outcome.error and "the package is broken" in outcome.error
    lesson = find_lessons(project)[0]
    assert cached_outputs(project) is None, "the old outputs would be published by a plain build"
    assert not executed_path(project, lesson).exists()
    assert "no execution of its present code" in stale_reason(project, lesson)


def test_an_edit_during_a_run_leaves_the_lesson_stale(project):
    """The text is read once: an edit after that is not marked current nor pasted under old outputs."""
    lesson = find_lessons(project)[0]
    environment = environment_stamp(project)
    text = lesson.path.read_text()
    outcome = execute.execute_lesson(project, lesson, environment, text=text)
    lesson.path.write_text(text.replace('print("value", value)', 'print("new", value)'))
    sync_book_cache(project, outcome)
    assert not is_current(project, lesson, environment)
    assert cached_outputs(project) is None, "the new code has no execution yet"
    assert "no execution of its present code" in stale_reason(project, lesson)
    execute_lessons(project, workers=1)
    assert cached_outputs(project) == printed(project) == "new 1\n"


@pytest.mark.parametrize("change", ["data file", "sub-package", "platform"])
def test_the_stamp_covers_every_input(project, monkeypatch, change):
    before = environment_stamp(project)
    package = project / "src" / "coursekit"
    if change == "data file":
        (package / "value.txt").write_text("1.0\n")
    elif change == "sub-package":
        (package / "sub").mkdir()
        (package / "sub" / "__init__.py").write_text("X = 1\n")
    else:
        monkeypatch.setattr(execute.platform, "libc_ver", lambda: ("glibc", "9.99"))
    assert environment_stamp(project) != before


def test_stamps_differ_by_text_and_parameters():
    assert text_stamp("a", "env") != text_stamp("b", "env")
    assert text_stamp("a", "env") != text_stamp("a", "env", execute.seed_variant(7))


def test_the_book_build_stops_on_a_stale_lesson(project, tmp_path):
    """The Sphinx extension asks `stale_reason` for every lesson page before it is read."""
    from sphinx.errors import ExtensionError

    from booktools.sphinxext import depend_on_execution

    class Env:
        def doc2path(self, docname):
            return str(project / f"{docname}.md")

        def note_dependency(self, path):
            self.noted = path

    class App:
        srcdir = str(project)
        env = Env()

    docname = "book/fundamentals/01-a-lesson"
    with pytest.raises(ExtensionError, match="lesson 01-a-lesson has no execution"):
        depend_on_execution(App(), docname, [""])
    execute_lessons(project, workers=1)
    app = App()
    depend_on_execution(app, docname, [""])
    assert app.env.noted.endswith("01-a-lesson.ipynb")
    (project / "src" / "coursekit" / "value.txt").write_text("3\n")
    with pytest.raises(ExtensionError, match="lesson 01-a-lesson was executed from other inputs"):
        depend_on_execution(App(), docname, [""])
