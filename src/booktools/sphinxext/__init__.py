"""The book's Sphinx extension (loaded through ``sphinx.extra_extensions`` in ``_config.yml``).

- **Prose numbers.** A lesson writes ``{eval}`name``` where its text quotes a computed number
  (`coursekit.prose.quote`). JupyterLab evaluates the name in the kernel; the HTML build has no kernel
  (the lessons are executed once, before the build), so here ``eval`` pastes the text that `quote`
  glued under the same name: myst-nb's own text-paste role, registered as ``eval``. (myst-nb's ``eval``
  needs its *inline* execution mode, which would execute every lesson inside Sphinx, one at a time.)
- **Explorers.** An explorer's HTML output carries its frames as ``data:`` images
  (`coursekit.explorer`); each page's frames are written out as image files of the site, and the
  small script and style that switch them are added to every page.
"""

import base64
import hashlib
import re
from pathlib import Path

from myst_nb.ext.glue.roles import PasteTextRole  # internal to myst-nb: keep myst-nb pinned

STATIC = Path(__file__).parent / "static"
DATA_IMAGE = re.compile(r'src="data:image/png;base64,([A-Za-z0-9+/=]+)"')
IMAGES = "_images"


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


def on_page_context(app, pagename, templatename, context, doctree) -> None:
    body = context.get("body")
    if body and "coursekit-explorer" in body:
        context["body"] = write_frames(body, Path(app.outdir), context["pathto"])


def add_static_path(app) -> None:
    app.config.html_static_path.append(str(STATIC))


def setup(app):
    app.add_role("eval", PasteTextRole(), override=True)
    app.connect("builder-inited", add_static_path)
    app.add_js_file("explorer.js")
    app.add_css_file("explorer.css")
    app.connect("html-page-context", on_page_context)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
