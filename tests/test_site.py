"""The site works from its archive unpacked under any path: served from a sub-folder by a plain static
server, every link and asset of every page resolves. The publishing workflow runs the README's targets."""

import re
import threading
import urllib.error
import urllib.parse
import urllib.request
import zipfile
from functools import partial
from html.parser import HTMLParser
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

import pytest
import yaml
from conftest import ROOT

from booktools.site import FOLDER, make_archive

PREFIX = "some/prefix"


class LinkCollector(HTMLParser):
    def __init__(self):
        super().__init__()
        self.urls = []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name in ("href", "src") and value:
                self.urls.append(value)


def is_internal(url: str) -> bool:
    return not re.match(r"^([a-z][a-z0-9+.-]*:|//|#)", url)


class QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def served_site(build_log, tmp_path_factory):
    archive, size, pages = make_archive(ROOT)
    assert pages > 20 and size > 0
    folder = tmp_path_factory.mktemp("host")
    with zipfile.ZipFile(archive) as zipped:
        zipped.extractall(folder / PREFIX)
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(QuietHandler, directory=str(folder)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/{PREFIX}/{FOLDER}/", folder / PREFIX / FOLDER
    server.shutdown()


def test_every_internal_link_and_asset_resolves_under_a_prefix(served_site):
    base, folder = served_site
    pages = sorted(p for p in folder.rglob("*.html") if "_static" not in p.parts)  # not the theme's macros
    seen, missing = set(), []
    for page in pages:
        page_url = urllib.parse.urljoin(base, str(page.relative_to(folder)))
        collector = LinkCollector()
        collector.feed(page.read_text(encoding="utf-8"))
        for url in filter(is_internal, collector.urls):
            target = urllib.parse.urljoin(page_url, url).split("#")[0]
            if target in seen:
                continue
            seen.add(target)
            if not target.startswith(base):
                missing.append(f"{page.relative_to(folder)}: {url} leaves the site's folder")
                continue
            try:
                urllib.request.urlopen(urllib.request.Request(target, method="HEAD"), timeout=10).close()
            except urllib.error.HTTPError as error:
                missing.append(f"{page.relative_to(folder)}: {url} -> {error.code}")
    assert len(seen) > 100, f"only {len(seen)} internal links found"
    assert not missing, f"{len(missing)} broken links under /{PREFIX}/:\n" + "\n".join(missing[:20])


def test_publishing_workflow_runs_the_readme_targets():
    workflow = yaml.safe_load((ROOT / ".github" / "workflows" / "book.yml").read_text(encoding="utf-8"))
    triggers = workflow.get("on", workflow.get(True))  # YAML 1.1 reads the key `on` as True
    assert {"push", "pull_request"} <= set(triggers)
    build = workflow["jobs"]["build"]["steps"]
    commands = [step["run"].strip() for step in build if "run" in step]
    assert commands == ["make test", "make atlas", "make book"], commands
    python = next(step for step in build if step.get("uses", "").startswith("actions/setup-python"))
    assert str(python["with"]["python-version"]) == "3.12"
    uses = [step.get("uses", "") for job in workflow["jobs"].values() for step in job["steps"]]
    assert any(u.startswith("actions/upload-pages-artifact") for u in uses)
    assert any(u.startswith("actions/deploy-pages") for u in uses)
    deploy = workflow["jobs"]["deploy"]
    assert "pull_request" in deploy["if"] and deploy["permissions"] == {"pages": "write", "id-token": "write"}
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "make test" in readme and "make book" in readme
    cache = next(i for i, step in enumerate(build) if step.get("uses", "").startswith("actions/cache"))
    first_make = next(i for i, step in enumerate(build) if "run" in step)
    assert cache < first_make, "the executions must be restored before make test"
    paths = build[cache]["with"]["path"].split()
    assert {"_build/.jupyter_cache", "_build/executed", "_build/executed-SEED-7", "_build/atlas"} <= set(paths)
    assert build[cache]["with"]["restore-keys"], "without a prefix a changed lesson would find no cache"
    runs = [step.get("run", "") for step in build]
    atlas, book = runs.index("make atlas"), runs.index("make book")
    assert first_make < atlas < book, "the published book is built after the seed atlas"
    assert "pull_request" in build[atlas]["if"], "the atlas is built for pushes (the published book)"


def test_the_archive_leaves_out_images_no_page_shows(build_log):
    """Sphinx never cleans _build/html/_images: frames of earlier builds must not be shipped."""
    stale = ROOT / "_build" / "html" / "_images" / "explorer-0000000000stale.png"
    stale.write_bytes(b"not a frame of this build")
    try:
        archive, _, _ = make_archive(ROOT)
        with zipfile.ZipFile(archive) as zipped:
            names = zipped.namelist()
        assert f"{FOLDER}/_images/{stale.name}" not in names
        assert any(name.startswith(f"{FOLDER}/_images/explorer-") for name in names)
    finally:
        stale.unlink()
