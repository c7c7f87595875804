"""The book's Sphinx extension (loaded through ``sphinx.config.extensions`` in ``_config.yml``).

- **Prose numbers.** A lesson writes ``{eval}`name``` where its text quotes a computed number
  (`coursekit.prose.quote`). JupyterLab evaluates the name in the kernel; the HTML build has no kernel
  (the lessons are executed once, before the build), so here ``eval`` pastes the text that `quote`
  glued under the same name: myst-nb's own text-paste role, registered as ``eval``. (myst-nb's ``eval``
  needs its *inline* execution mode, which would execute every lesson inside Sphinx, one at a time.)
- **Explorers.** An explorer's HTML output carries its frames as ``data:`` images
  (`coursekit.explorer`); each page's frames are written out as image files of the site, and the
  small script and style that switch them are added to every page.
- **Offline maths.** MathJax is served from the site itself: the parts of MathJax 3.2.2 that TeX to
  HTML needs, taken from the ``sphinx-mathjax-offline`` package (the whole of it is 24 MB).
- **Notebook downloads.** Every lesson page offers its executed notebook in the theme's download menu,
  with the numbers of its prose already filled in for jupyterlab-myst, so that it opens readable.
- **The Course Wrap-Up.** The ``wrap-up`` directive builds the course's closing table from every
  lesson's execution in the book's cache (`booktools.wrapup`); the page is rebuilt when one changes.
- **The seed atlas.** Beside each claim a lesson page quotes (``{eval}`name``` of a recorded claim),
  a small badge says in how many of the atlas's seeds that conclusion held, with the 95% Wilson interval
  of that share ("held in 73 of 100 seeds, 64–81%"), and links to its row on the atlas page
  (``seed-atlas`` directive); when the lesson changed since the atlas was built, the badge says the
  atlas is out of date instead; without an atlas, nothing is added (`booktools.atlas`).
- **Rerun in the page.** Each lesson page gets a run panel after its parameters cell: the reader's
  seed (and other parameters) rerun the lesson's code in the browser, in Pyodide, and the page's
  printed tables, quoted numbers and claim sentences are replaced in place (``static/run.js``). Here
  the pasted texts and code cells are marked for it, each lesson's code is shipped as a small file
  and Pyodide's core is copied into ``_static/pyodide/`` (`booktools.browser`); a build without npm
  shows one line saying why there is no panel.
- **Pages follow their execution.** A lesson is executed again when coursekit or the pinned packages
  change, while its text stays the same; Sphinx rebuilds a page only when its source or a noted
  dependency is newer, so the executed notebook is noted as one.
"""

import base64
import hashlib
import importlib.util
import json
import re
import shutil
from pathlib import Path

import nbformat
from docutils import nodes
from docutils.statemachine import StringList
from jupyter_cache import get_cache
from myst_nb.core.read import read_myst_markdown_notebook
from myst_nb.ext.glue.roles import PasteTextRole  # internal to myst-nb: keep myst-nb pinned
from sphinx.errors import ExtensionError
from sphinx.util.docutils import SphinxDirective

from coursekit.explorer import EXPLORER_CLASS
from coursekit.plots import FIGURE_CLASS

from .. import browser
from ..outputs import glued_texts

STATIC = Path(__file__).parent / "static"
DATA_IMAGE = re.compile(r'src="data:image/png;base64,([A-Za-z0-9+/=]+)"')
IMAGES = "_images"
EVAL = re.compile(r"\{eval\}`([^`]+)`")
# What TeX input with HTML output needs: the combined component, its fonts, and the TeX extensions its
# autoloader may fetch for a macro the lessons use.
MATHJAX_PARTS = ("tex-chtml.js", "output/chtml/fonts/woff-v2", "input/tex/extensions")
MATHJAX_PATH = "mathjax/tex-chtml.js"  # relative to the site's _static/


# --- explorers -----------------------------------------------------------------------------------------

def write_frames(body: str, outdir: Path, pathto) -> str:
    """``body`` with every inline PNG written to ``_images/`` (named by its content) and linked there."""

    def to_file(match: re.Match) -> str:
        png = base64.b64decode(match[1])
        name = f"explorer-{hashlib.sha256(png).hexdigest()[:20]}.png"
        target = outdir / IMAGES / name
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(png)
        return f'src="{pathto(f"{IMAGES}/{name}", 1)}"'

    return DATA_IMAGE.sub(to_file, body)


# --- notebook downloads ----------------------------------------------------------------------------------

def readable_notebook(notebook: dict) -> dict:
    """The executed lesson as a download: each Markdown cell carries its {eval} results, as
    jupyterlab-myst stores them after running the cell, and no jupytext pairing information."""
    texts = glued_texts(notebook)
    for cell in notebook["cells"]:
        if cell["cell_type"] == "markdown":
            source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
            expressions = [{"expression": name, "result": {"status": "ok", "metadata": {},
                                                           "data": {"text/plain": texts[name]}}}
                           for name in EVAL.findall(source) if name in texts]
            if expressions:
                cell.setdefault("metadata", {})["user_expressions"] = expressions
    notebook.get("metadata", {}).pop("jupytext", None)
    return notebook


def executed_notebook(app, pagename: str) -> dict | None:
    """The page's notebook with the outputs it was built from, out of the book's execution cache
    (filled by booktools.execute or by the build's own execution alike); None for a plain page."""
    source = Path(app.env.doc2path(pagename))
    if source.suffix != ".md" or "code-cell" not in (text := source.read_text(encoding="utf-8")):
        return None
    try:
        _, merged = get_cache(str(Path(app.confdir) / app.config.nb_execution_cache_path)
                              ).merge_match_into_notebook(read_myst_markdown_notebook(text))
    except KeyError:
        return None
    return json.loads(nbformat.writes(merged))


def offer_notebook(app, pagename: str, context: dict) -> None:
    """Put the page's executed notebook in ``_sources/`` and into the theme's download menu."""
    notebook = executed_notebook(app, pagename)
    if notebook is None:
        return
    ship_lesson(app, pagename, notebook)
    target = Path(app.outdir) / "_sources" / f"{pagename}.ipynb"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(readable_notebook(notebook), indent=1, ensure_ascii=False) + "\n",
                      encoding="utf-8")
    context["ipynb_source"] = f"{pagename}.ipynb"


# --- accessibility: the theme's controls, scrolling blocks -----------------------------------------------

SIDEBAR_TOGGLE = re.compile(
    r'(<a class="[^"]*reference internal[^"]*" href="[^"]*">([^<]+)</a><details[^>]*>)<summary>')


def name_sidebar_toggles(html: str) -> str:
    """The theme draws each unit's expand control as a ``<summary>`` holding only an icon marked
    presentational, a nameless control for a screen reader: give it the unit's name."""
    return SIDEBAR_TOGGLE.sub(
        lambda match: f'{match[1]}<summary aria-label="Show or hide the lessons of {match[2].strip()}">', html)


SCROLLING_BLOCKS = ('<div class="highlight"><pre>', '<div class="pst-scrollable-table-container">')


def reach_blocks_by_keyboard(body: str) -> str:
    """Every code block, printed output and table, as written, is a keyboard stop (``tabindex="0"``): a
    block wider than the page scrolls, and a reader without a mouse must reach it to scroll it. The
    theme takes the stop away again from the blocks that do not scroll, but only once the page has
    loaded; until then (or without JavaScript) every scrolling block is already reachable."""
    for opening in SCROLLING_BLOCKS:
        body = body.replace(opening, opening[:-1] + ' tabindex="0">')
    return body


def label_theme_controls(app, exception) -> None:
    """Once the HTML is written, name the controls the theme draws without a name."""
    if exception is not None or app.builder.format != "html":
        return
    for page in Path(app.outdir).rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        labelled = name_sidebar_toggles(text)
        if labelled != text:
            page.write_text(labelled, encoding="utf-8")


# --- events ----------------------------------------------------------------------------------------------

def on_page_context(app, pagename, templatename, context, doctree) -> None:
    body = context.get("body")
    if body and (EXPLORER_CLASS in body or FIGURE_CLASS in body):
        body = write_frames(body, Path(app.outdir), context["pathto"])
    if body:
        context["body"] = reach_blocks_by_keyboard(body)
    if doctree is not None:
        offer_notebook(app, pagename, context)


def on_builder_inited(app) -> None:
    app.config.html_static_path.append(str(STATIC))
    app.config.mathjax_path = MATHJAX_PATH


def copy_mathjax(app, exception) -> None:
    """Copy MathJax's needed parts into the site's ``_static/mathjax/`` once the build succeeded."""
    if exception is not None or app.builder.format != "html":
        return
    source = Path(importlib.util.find_spec("sphinx-mathjax-offline").submodule_search_locations[0])
    source, target = source / "static" / "mathjax", Path(app.outdir) / "_static" / "mathjax"
    for part in MATHJAX_PARTS:
        if (source / part).is_dir():
            shutil.copytree(source / part, target / part, dirs_exist_ok=True)
        else:
            (target / part).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source / part, target / part)


def depend_on_execution(app, docname, source):
    """A lesson page is built only from an execution of its present inputs: stop the build, naming the
    lesson, when the book's cache holds none (`booktools.execute.stale_reason`); note the executed
    notebook as a dependency of the page, so that a new execution rebuilds it."""
    from ..execute import executed_path, stale_reason

    lesson = lesson_of(app, docname) or chapter_of(app, docname)
    if lesson is None:
        return
    root = Path(app.srcdir)
    reason = stale_reason(root, lesson, environment_of(app))
    if reason:
        raise ExtensionError(f"{reason}: run `make book` (python -m booktools.execute) before building")
    executed = executed_path(root, lesson)
    if executed.is_file():
        app.env.note_dependency(str(executed))


# --- rerun in the page ------------------------------------------------------------------------------------

def run_unavailable(app) -> str | None:
    """Why this build offers no in-page run (`booktools.browser.unavailable_reason`), decided once."""
    if not hasattr(app, "booktools_run_unavailable"):
        app.booktools_run_unavailable = browser.unavailable_reason(Path(app.srcdir))
    return app.booktools_run_unavailable


def run_panel(app, lesson) -> nodes.raw:
    """The place of the run panel (built by ``run.js``), or the line saying why there is none."""
    reason = run_unavailable(app)
    if reason:
        html = f'<p class="{browser.PANEL_CLASS} {browser.PANEL_CLASS}-unavailable">{reason}</p>'
    else:
        html = (f'<div class="{browser.PANEL_CLASS}" data-lesson="{lesson.stem}" role="region" '
                f'aria-label="Rerun this lesson in your browser"></div>')
    return nodes.raw("", html, format="html")


def mark_lesson_cells(app, doctree, docname) -> None:
    """On a lesson page, give each code cell the class naming its index in the notebook, and put the
    run panel after the ``parameters`` cell."""
    lesson = lesson_of(app, docname)
    if lesson is None:
        return
    cells = list(doctree.findall(lambda node: isinstance(node, nodes.container)
                                 and node.get("nb_element") == "cell_code"))
    for cell in cells:
        cell["classes"].append(f"{browser.CELL_CLASS}{cell['cell_index']}")
    tagged = [cell for cell in cells if "parameters" in cell.get("cell_metadata", {}).get("tags", [])]
    if tagged:
        tagged[0].parent.insert(tagged[0].parent.index(tagged[0]) + 1, run_panel(app, lesson))


def ship_lesson(app, pagename: str, notebook: dict) -> None:
    """Write the lesson's code and parameters for the in-page run (`booktools.browser.lesson_payload`)."""
    lesson = lesson_of(app, pagename)
    if lesson is None or run_unavailable(app):
        return
    payload = browser.lesson_payload(lesson.stem, lesson.number, notebook,
                                     Path(app.srcdir) / "tests" / "expected")
    browser.write_payload(Path(app.outdir) / "_static", payload)


def ship_runtime(app, exception) -> None:
    """Copy Pyodide's core and write coursekit and the runner into the site, once the build succeeded."""
    if exception is not None or app.builder.format != "html" or run_unavailable(app):
        return
    static = Path(app.outdir) / "_static"
    browser.copy_pyodide(Path(app.srcdir), static)
    browser.write_runtime(Path(app.srcdir), static)


def reread_on_run_change(app, env, added, changed, removed):
    """Pyodide installed or gone since the last build: every lesson page's panel changes."""
    state = run_unavailable(app) or "available"
    if getattr(env, "booktools_run_state", None) == state:
        return []
    env.booktools_run_state = state
    return [docname for docname in env.found_docs if lesson_of(app, docname)]


# --- the seed atlas ---------------------------------------------------------------------------------------

ATLAS_DOC = "book/atlas"
BADGE_CLASS = "coursekit-atlas-badge"


def environment_of(app) -> str:
    """`booktools.execute.environment_stamp` of the book, computed once per build."""
    if not hasattr(app, "booktools_environment"):
        from ..execute import environment_stamp

        app.booktools_environment = environment_stamp(Path(app.srcdir))
    return app.booktools_environment


def page_stamp(app, lesson) -> str:
    """The stamp of the lesson's present inputs, computed once per page (a page quotes many claims)."""
    from ..execute import text_stamp

    stamps = app.__dict__.setdefault("booktools_page_stamps", {})
    if lesson.stem not in stamps:
        stamps[lesson.stem] = text_stamp(lesson.path.read_text(encoding="utf-8"), environment_of(app))
    return stamps[lesson.stem]


def recorded_on_page(app, lesson) -> dict[str, dict]:
    """The claims the lesson's execution recorded (`booktools.outputs.recorded_claims`), read once per
    page: a page quotes many."""
    from ..execute import executed_path
    from ..outputs import recorded_claims

    entries = app.__dict__.setdefault("booktools_page_claims", {})
    if lesson.stem not in entries:
        executed = executed_path(Path(app.srcdir), lesson)
        entries[lesson.stem] = recorded_claims(executed)[0] if executed.is_file() else {}
    return entries[lesson.stem]


def page_claims(app, lesson) -> set[str]:
    """The names of the claims the lesson's execution recorded (a quoted number gets no atlas badge,
    whether the atlas is current or not)."""
    return set(recorded_on_page(app, lesson))


SURE_CLASS = "coursekit-sure"
SURE_SECTION = "how-sure-is-this"
"""The id of every lesson's "How sure is this?" section, where its table of comparisons stands."""


def sure_link(app, docname: str, name: str, pasted: list):
    """A measured result in its short form (a claim with a ``detail``, `coursekit.claims.measured`)
    becomes a link to the page's "How sure is this?" section, whose title (shown on hover) gives the
    yardsticks behind the verdict; anything else stays as pasted."""
    lesson = lesson_of(app, docname) or chapter_of(app, docname)
    entry = recorded_on_page(app, lesson).get(name) if lesson is not None else None
    if not entry or not entry.get("detail"):
        return pasted
    return [nodes.reference("", "", *pasted, refuri=f"#{SURE_SECTION}", reftitle=entry["detail"],
                            classes=[SURE_CLASS])]


def atlas_of(app) -> dict | None:
    """The atlas built last (`booktools.atlas`), read once per build; None when there is none."""
    if not hasattr(app, "booktools_atlas"):
        from .. import atlas

        app.booktools_atlas = atlas.load(Path(app.srcdir))
    return app.booktools_atlas


def lesson_of(app, docname: str):
    """The lesson a page shows, or None for a plain page."""
    from ..lessons import LESSON_NAME, Lesson

    folder, _, name = docname.removeprefix("book/").rpartition("/")
    match = LESSON_NAME.match(name + ".md")
    if not docname.startswith("book/") or not match:
        return None
    return Lesson(int(match["number"]), match["slug"], folder, Path(app.env.doc2path(docname)))


def chapter_of(app, docname: str):
    """The executed chapter (not a lesson) a page shows, or None (`booktools.lessons.find_chapters`)."""
    from ..lessons import find_chapters

    return next((chapter for chapter in find_chapters(Path(app.srcdir))
                 if docname == f"book/{chapter.slug}"), None)


def atlas_badge(app, docname: str, name: str):
    """The badge for claim ``name`` on page ``docname``: a link to its atlas row saying in how many seeds
    it held, or to the atlas page saying that the atlas is out of date; None without one."""
    from .. import atlas

    lesson = lesson_of(app, docname)
    if lesson is None or atlas_of(app) is None:
        return None
    entry = atlas.entry_of(atlas_of(app), lesson.stem, name, page_stamp(app, lesson), page_claims(app, lesson))
    if entry is None:
        return None
    if entry == "stale":
        text, anchor, title = "seed atlas out of date", "", ("This lesson changed since the seed atlas was "
                                                            "built: run make atlas to measure it again.")
    else:
        text, anchor = entry.held_words, entry.anchor
        low, high = entry.interval
        title = (f"This conclusion was reached again in {entry.kept} of the atlas's {entry.seeds} "
                 f"{'seed' if entry.seeds == 1 else 'seeds'}; the share of all seeds that reach it lies between "
                 f"{low:.0%} and {high:.0%} ({atlas.CONFIDENCE:.0%} Wilson interval): "
                 f"{atlas.BAND_WORDS[entry.band]}.")
    badge = nodes.reference("", "", nodes.Text(text), refuri="", classes=[BADGE_CLASS], reftitle=title)
    badge["booktools_anchor"] = anchor
    return badge


class EvalRole(PasteTextRole):
    """myst-nb's text paste, plus the atlas badge beside a recorded claim."""

    def run(self):
        pasted, messages = super().run()
        name = self.text.strip()
        # the page's in-browser run finds each pasted text by its name, in a span around myst-nb's
        pasted = [nodes.inline("", "", node, classes=[browser.QUOTE_CLASS, browser.NAME_CLASS + name])
                  if isinstance(node, nodes.inline) else node for node in pasted]
        env = self.document.settings.env
        if pasted:
            pasted = sure_link(env.app, env.docname, name, pasted)
        badge = atlas_badge(env.app, env.docname, name) if pasted else None
        if badge is not None:
            pasted = [*pasted, nodes.Text(" "), badge]
        return pasted, messages


def link_badges(app, doctree, docname) -> None:
    """Point each atlas badge at its row of the atlas page, relative to the page it is on."""
    for badge in doctree.findall(lambda node: isinstance(node, nodes.reference) and BADGE_CLASS in node["classes"]):
        anchor = badge.get("booktools_anchor", "")
        badge["refuri"] = app.builder.get_relative_uri(docname, ATLAS_DOC) + (f"#{anchor}" if anchor else "")


def atlas_digest(root: Path) -> str:
    from .. import atlas

    path = atlas.atlas_path(root)
    return hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else "none"


def reread_on_new_atlas(app, env, added, changed, removed):
    """A new atlas (or none where there was one) changes every lesson page's badges and the atlas page."""
    digest = atlas_digest(Path(app.srcdir))
    if getattr(env, "booktools_atlas_digest", None) == digest:
        return []
    env.booktools_atlas_digest = digest
    return [docname for docname in env.found_docs if docname == ATLAS_DOC or lesson_of(app, docname)]


class SeedAtlasDirective(SphinxDirective):
    """``seed-atlas``: every claim of the course over the atlas's seeds (`booktools.atlas.page_markdown`)."""

    def run(self):
        from .. import atlas
        from ..lessons import find_lessons
        from ..wrapup import title_of

        app = self.env.app
        lessons = {lesson.stem: lesson for lesson in find_lessons(Path(app.srcdir))}
        titles = {stem: title_of(lesson) for stem, lesson in lessons.items()}
        text = atlas.page_markdown(atlas_of(app), titles, link=lambda stem: (
            f"{{doc}}`{titles[stem]} </book/{lessons[stem].unit}/{stem}>`"))
        container = nodes.container(classes=["coursekit-atlas"])
        self.state.nested_parse(StringList(text.splitlines()), self.content_offset, container)
        return container.children


# --- the Course Wrap-Up ----------------------------------------------------------------------------------

class WrapUpDirective(SphinxDirective):
    """``wrap-up``: the table of every lesson's baseline, network's number, second run and sampling
    error, and the course's closing claims, read from the lessons' executions (`booktools.wrapup`)."""

    def run(self):
        from .. import wrapup
        from ..lessons import find_lessons

        app, rows = self.env.app, []
        for lesson in find_lessons(Path(app.srcdir)):
            docname = f"book/{lesson.unit}/{lesson.stem}"
            notebook = executed_notebook(app, docname)
            if notebook is None:
                raise self.error(f"wrap-up: lesson {lesson.stem} has no execution in the book's cache "
                                 "(run make book)")
            try:
                rows.append(wrapup.row_of(lesson, notebook))
            except ValueError as error:
                raise self.error(f"wrap-up: {error}") from error
            executed = Path(app.srcdir) / "_build" / "executed" / lesson.unit / f"{lesson.stem}.ipynb"
            if executed.is_file():
                self.env.note_dependency(str(executed))
        text = wrapup.markdown(rows, link=lambda row: (
            f"{{doc}}`{row.title} </book/{row.lesson.unit}/{row.lesson.stem}>`"))
        container = nodes.container(classes=["coursekit-wrap-up"])
        self.state.nested_parse(StringList(text.splitlines()), self.content_offset, container)
        return container.children


def setup(app):
    app.add_directive("wrap-up", WrapUpDirective)
    app.add_directive("seed-atlas", SeedAtlasDirective)
    app.add_role("eval", EvalRole(), override=True)
    app.connect("env-get-outdated", reread_on_new_atlas)
    app.connect("env-get-outdated", reread_on_run_change)
    app.connect("doctree-resolved", link_badges)
    app.connect("doctree-resolved", mark_lesson_cells)
    app.connect("source-read", depend_on_execution)
    app.connect("builder-inited", on_builder_inited)
    app.add_js_file("explorer.js")
    app.add_css_file("explorer.css")
    app.add_js_file("run.js")
    app.add_css_file("run.css")
    app.connect("html-page-context", on_page_context)  # before the theme builds its download menu (501)
    app.connect("build-finished", copy_mathjax)
    app.connect("build-finished", ship_runtime)
    app.connect("build-finished", label_theme_controls)
    # env_version 2: pages read before their executed notebook was a dependency are all read again;
    # 3: pages read before their pasted texts and code cells were marked for the in-page run;
    # 4: pages read when a stale atlas put its marker beside quoted numbers as well as claims;
    # 5: pages written when a code block was a keyboard stop only once the theme's script had run;
    # 6: the same for tables; 7: pages read before a short measured result linked its yardsticks
    return {"version": "1", "env_version": 7, "parallel_read_safe": True, "parallel_write_safe": True}
