"""What the site ships so that a reader can rerun a lesson in the page, in the browser, offline.

- **Pyodide** (CPython compiled to WebAssembly), pinned in ``package.json`` / ``package-lock.json`` and
  installed by ``npm ci`` (``make book``), copied from ``node_modules/pyodide`` into the site's
  ``_static/pyodide/``: its five core files and a licence notice (`PYODIDE_FILES`, `copy_pyodide`).
  No package wheel: the lessons need only the standard library and coursekit.
- **The lesson's code**: ``_static/run/coursekit.zip`` (the package), ``_static/run/pagerun.py`` (the
  runner, `booktools.pagerun`) and, per lesson, ``_static/run/lessons/NN-slug.json``: the code cells
  of its executed notebook, its parameters and what the page says about it (`lesson_payload`).
- The page's script (``sphinxext/static/run.js``) builds the run panel and a module Web Worker
  (``run/worker.mjs``) runs the cells with ``run/engine.mjs``, which the node test shares.

Without npm (no ``node_modules/pyodide``) the book still builds: each lesson page then shows one line
saying why it has no run panel (`unavailable_reason`).
"""

import ast
import io
import json
import shutil
import zipfile
from pathlib import Path

PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
"""Pyodide's core, as the page loads it (``loadPyodide`` with ``indexURL`` = ``_static/pyodide/``)."""

PANEL_CLASS = "coursekit-run"
CELL_CLASS = "coursekit-cell-"
"""A lesson page's code cell carries ``coursekit-cell-<index>`` (its index in the notebook)."""
QUOTE_CLASS = "coursekit-quote"
NAME_CLASS = "coursekit-quote-"
"""A pasted ``{eval}`` text (myst-nb's ``pasted-text`` span) sits in a span of classes
``coursekit-quote`` and ``coursekit-quote-<name>``."""

HIDDEN_PARAMETERS = ("FIGURES",)
"""Parameters the panel does not offer: the page cannot draw (`booktools.pagerun.ALWAYS`)."""

BLOCKING_MODULES = ("matplotlib", "IPython", "ipywidgets")
"""Packages a lesson must not import at the top level of a cell to run in the page (Pyodide ships
none of them; with ``FIGURES = False`` a lesson needs none)."""


def pyodide_folder(root: Path) -> Path:
    return root / "node_modules" / "pyodide"


def pyodide_version(root: Path) -> str | None:
    """The installed Pyodide's version, or None when it is not installed."""
    manifest = pyodide_folder(root) / "package.json"
    if not manifest.is_file():
        return None
    return json.loads(manifest.read_text(encoding="utf-8")).get("version")


def unavailable_reason(root: Path) -> str | None:
    """Why this build cannot offer the in-page run (None when it can): Pyodide is not installed."""
    missing = [name for name in PYODIDE_FILES if not (pyodide_folder(root) / name).is_file()]
    if not missing:
        return None
    return ("This page cannot rerun the lesson in your browser: the book was built without npm, which "
            "installs Pyodide (the Python that runs in the page); run make book where npm is installed.")


def licence_notice(version: str) -> str:
    """The notice kept beside Pyodide's files in the site: what they are and under which licences."""
    mpl = Path(__file__).parent / "licences" / "MPL-2.0.txt"  # the licence's text, as Debian ships it
    text = (f"Pyodide {version}: CPython compiled to WebAssembly, from the npm package 'pyodide' {version}\n"
            "(files: " + ", ".join(PYODIDE_FILES) + ").\n\n"
            "Pyodide is distributed under the Mozilla Public License 2.0 (MPL-2.0); its source code is at\n"
            "https://github.com/pyodide/pyodide (tag " + version + "). python_stdlib.zip and the interpreter\n"
            "in pyodide.asm.wasm are CPython, under the Python Software Foundation License Version 2\n"
            "(https://docs.python.org/3/license.html); the runtime is built with Emscripten (MIT and\n"
            "University of Illinois/NCSA licences).\n\n"
            "This book uses these files unmodified, to run its lessons' code in the reader's browser.\n")
    return text + "\n" + "=" * 78 + "\n\n" + mpl.read_text(encoding="utf-8")


def copy_pyodide(root: Path, static: Path) -> int:
    """Copy Pyodide's core into ``static/pyodide/`` with its licence notice; the bytes copied."""
    target = static / "pyodide"
    target.mkdir(parents=True, exist_ok=True)
    size = 0
    for name in PYODIDE_FILES:
        source = pyodide_folder(root) / name
        if not (target / name).is_file() or (target / name).stat().st_size != source.stat().st_size:
            shutil.copy2(source, target / name)
        size += source.stat().st_size
    notice = target / "LICENSE-pyodide.txt"
    notice.write_text(licence_notice(pyodide_version(root) or "unknown"), encoding="utf-8")
    return size + notice.stat().st_size


def coursekit_zip(root: Path) -> bytes:
    """The coursekit package as a zip (``coursekit/...``), as the page unpacks it into Pyodide."""
    package = root / "src" / "coursekit"
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(package.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
                info = zipfile.ZipInfo(str(path.relative_to(package.parent)), date_time=(2026, 1, 1, 0, 0, 0))
                archive.writestr(info, path.read_bytes(), zipfile.ZIP_DEFLATED)
    return buffer.getvalue()


def write_runtime(root: Path, static: Path) -> int:
    """``static/run/coursekit.zip`` and ``static/run/pagerun.py``; the bytes written."""
    target = static / "run"
    target.mkdir(parents=True, exist_ok=True)
    (target / "coursekit.zip").write_bytes(coursekit_zip(root))
    shutil.copy2(Path(__file__).with_name("pagerun.py"), target / "pagerun.py")
    return (target / "coursekit.zip").stat().st_size + (target / "pagerun.py").stat().st_size


# --- a lesson's payload ------------------------------------------------------------------------------------

def cell_source(cell) -> str:
    source = cell["source"]
    return "".join(source) if isinstance(source, list) else source


def code_cells(notebook: dict) -> list[dict]:
    """``{"index", "source"}`` of every code cell, ``index`` counting all the notebook's cells (as
    myst-nb numbers the cells of the page)."""
    return [{"index": index, "source": cell_source(cell)}
            for index, cell in enumerate(notebook["cells"]) if cell["cell_type"] == "code"]


def parameters_cell(notebook: dict) -> int:
    """The index of the cell tagged ``parameters`` (papermill's), which every lesson has."""
    for index, cell in enumerate(notebook["cells"]):
        if cell["cell_type"] == "code" and "parameters" in cell.get("metadata", {}).get("tags", []):
            return index
    raise ValueError("the lesson has no cell tagged 'parameters'")


def parameters(source: str) -> list[dict]:
    """The parameters the panel offers: ``{"name", "value", "comment"}`` for each ``NAME = value`` of
    the parameters cell: its value as written when that fits on one line (else the value's repr, one
    line without the comments inside it), its trailing comment as the field's hint."""
    lines = source.splitlines()
    found = []
    for node in ast.parse(source).body:
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)):
            continue
        name = node.targets[0].id
        if name in HIDDEN_PARAMETERS:
            continue
        value = ast.get_source_segment(source, node.value)
        if "\n" in value or "#" in value:
            value = repr(ast.literal_eval(node.value))
        tail = lines[node.end_lineno - 1][node.end_col_offset:]
        comment = tail.split("#", 1)[1].strip() if "#" in tail else ""
        found.append({"name": name, "value": value, "comment": comment})
    return found


def _top_level(node: ast.AST):
    """The statements of a cell that run when the cell runs (not those inside a def or a class)."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        yield child
        yield from _top_level(child)


def blockers(cells: list[dict]) -> list[str]:
    """Why the lesson's code cannot run in the page as it is: a cell that imports matplotlib, IPython
    or ipywidgets outside a function (with ``FIGURES = False`` a lesson must need none of them)."""
    found = []
    for cell in cells:
        try:
            tree = ast.parse(cell["source"])
        except SyntaxError as error:
            found.append(f"cell {cell['index']} is not Python ({error.msg})")
            continue
        modules = set()
        for node in _top_level(tree):
            if isinstance(node, ast.Import):
                modules.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module:
                modules.add(node.module.split(".")[0])
        for module in sorted(modules & set(BLOCKING_MODULES)):
            found.append(f"cell {cell['index']} imports {module} outside a function")
    return found


def sensitive_note(expected_dir: Path, number: int) -> str | None:
    """What the lesson page says of the lesson's chaotic cells, from the book's platform-sensitive list
    (``tests/expected/platform-sensitive.json``, its ``page`` words), or None when it has none."""
    path = expected_dir / "platform-sensitive.json"
    if not path.is_file():
        return None
    entry = json.loads(path.read_text(encoding="utf-8"))["lessons"].get(str(number))
    return entry.get("page", entry["why"]) if entry and entry.get("kind") == "platform" else None


def lesson_payload(stem: str, number: int, notebook: dict, expected_dir: Path) -> dict:
    """Everything the page and its worker need to rerun a lesson (``_static/run/lessons/<stem>.json``)."""
    cells = code_cells(notebook)
    index = parameters_cell(notebook)
    source = next(cell["source"] for cell in cells if cell["index"] == index)
    return {"stem": stem, "number": number, "cells": cells, "parameters_cell": index,
            "parameters": parameters(source), "sensitive": sensitive_note(expected_dir, number),
            "blockers": blockers(cells)}


def write_payload(static: Path, payload: dict) -> Path:
    target = static / "run" / "lessons" / f"{payload['stem']}.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
    if not target.is_file() or target.read_text(encoding="utf-8") != text:
        target.write_text(text, encoding="utf-8")
    return target


def site_size(html: Path) -> dict[str, int]:
    """Bytes the in-page run adds to the built site: Pyodide's files, and coursekit with the lessons' code."""
    def total(folder: Path) -> int:
        return sum(path.stat().st_size for path in folder.rglob("*") if path.is_file()) if folder.is_dir() else 0

    static = html / "_static"
    scripts = sum((static / name).stat().st_size for name in ("run.js", "run.css") if (static / name).is_file())
    return {"pyodide": total(static / "pyodide"), "run": total(static / "run") + scripts}
