"""Package the built site as one archive that works unpacked under any path of any static host.

    make site      # after make book: _build/site.zip, its size and page count

Sphinx links every page, image, script and stylesheet relatively and the book needs no server logic,
so the archive's folder can be served from ``https://host/`` or ``https://host/some/prefix/`` alike
(`tests/test_site.py` serves it from a sub-folder and follows every link).
"""

import re
import sys
import zipfile
from pathlib import Path

from .lessons import project_root

FOLDER = "deep-learning-measured"  # the one folder the archive unpacks into


def referenced_images(html: Path) -> set[str]:
    """Names of the files in ``_images/`` that some page of the site shows. Sphinx never cleans that
    folder, so frames of earlier builds stay there; the archive leaves them out."""
    names = set()
    for page in html.rglob("*.html"):
        names.update(re.findall(r'_images/([^"\'?#\s)]+)', page.read_text(encoding="utf-8", errors="replace")))
    return names


def make_archive(root: Path) -> tuple[Path, int, int]:
    """Zip ``_build/html`` into ``_build/site.zip``; return its path, size in bytes and page count."""
    html = root / "_build" / "html"
    if not (html / "index.html").exists():
        raise SystemExit("no built book in _build/html: run make book first")
    archive = root / "_build" / "site.zip"
    files = sorted(p for p in html.rglob("*") if p.is_file() and ".doctrees" not in p.parts
                   and not (p.parent.name == "_images" and p.name not in referenced_images(html)))
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zipped:
        for path in files:
            zipped.write(path, f"{FOLDER}/{path.relative_to(html)}")
    pages = sum(1 for p in files if p.suffix == ".html" and "_static" not in p.parts)
    return archive, archive.stat().st_size, pages


def main() -> int:
    root = project_root()
    archive, size, pages = make_archive(root)
    print(f"{archive.relative_to(root)}: {size / 1e6:.1f} MB, {pages} pages; unpack it anywhere and "
          f"serve the folder {FOLDER}/ as static files (open {FOLDER}/index.html)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
