"""The site works from its archive unpacked under any path: served from a sub-folder by a plain static
server, every link and asset of every page resolves. The publishing workflow runs the README's targets."""

import os
import re
import subprocess
import threading
import urllib.error
import urllib.parse
import urllib.request
import zipfile
from fnmatch import fnmatch
from functools import partial
from html.parser import HTMLParser
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

import pytest
import yaml
from conftest import ROOT

from booktools import atlas
from booktools.lessons import find_lessons
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


def workflow() -> dict:
    return yaml.safe_load((ROOT / ".github" / "workflows" / "book.yml").read_text(encoding="utf-8"))


def test_publishing_workflow_runs_the_readme_targets():
    flow = workflow()
    triggers = flow.get("on", flow.get(True))  # YAML 1.1 reads the key `on` as True
    assert {"push", "pull_request", "workflow_dispatch"} <= set(triggers)
    build = flow["jobs"]["build"]["steps"]
    commands = [step["run"].strip() for step in build if "run" in step]
    assert commands == ["make test", "make book"], commands
    for job in flow["jobs"].values():
        python = [step for step in job["steps"] if step.get("uses", "").startswith("actions/setup-python")]
        assert all(str(step["with"]["python-version"]) == "3.12" for step in python)
    uses = [step.get("uses", "") for job in flow["jobs"].values() for step in job["steps"]]
    assert any(u.startswith("actions/upload-pages-artifact") for u in uses)
    assert any(u.startswith("actions/deploy-pages") for u in uses)
    deploy = flow["jobs"]["deploy"]
    assert "pull_request" in deploy["if"] and deploy["permissions"] == {"pages": "write", "id-token": "write"}
    assert deploy["needs"] == "publish", "the deployed site is the one built with the merged atlas"
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "make test" in readme and "make book" in readme and "make atlas-merge" in readme
    cache = next(i for i, step in enumerate(build) if step.get("uses", "").startswith("actions/cache"))
    first_make = next(i for i, step in enumerate(build) if "run" in step)
    assert cache < first_make, "the executions must be restored before make test"
    paths = build[cache]["with"]["path"].split()
    assert {"_build/.jupyter_cache", "_build/executed", "_build/executed-SEED-7"} <= set(paths)
    assert build[cache]["with"]["restore-keys"], "without a prefix a changed lesson would find no cache"


def expand(text: str, values: dict[str, str]) -> str:
    """Each workflow expression ``${{ ... }}`` replaced by its value in ``values``; those that are the same
    in every job of a run (the runner, a hash of files) are left as written, any other is a KeyError."""

    def value(match: re.Match) -> str:
        same_everywhere = match[1].startswith(("runner.", "hashFiles("))
        return match[0] if same_everywhere and match[1] not in values else values[match[1]]

    return re.sub(r"\$\{\{\s*(.*?)\s*\}\}", value, text)


def make_command(target: str) -> list[str]:
    """What make runs for ``target`` (``make -n``: printed, not run): its last command, split."""
    done = subprocess.run(["make", "-n", "--no-print-directory", *target.split()[1:]], cwd=ROOT, env=MAKE_ALONE,
                          capture_output=True, text=True, check=True)
    return done.stdout.strip().splitlines()[-1].split()


MAKE_ALONE = {name: value for name, value in os.environ.items() if name not in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS")}
"""The environment of a make run on its own (not as a sub-make of the make test running the tests)."""


def test_the_workflow_measures_the_atlas_in_shards_that_cover_every_job_once():
    """The atlas job's matrix, expanded as GitHub expands it (the seed count a push gets, each shard and
    the matrix's size), runs make atlas with a seed range and a shard that the atlas reads; together the
    shards hold every (lesson, seed) job exactly once, each its own share; each caches its executions
    before measuring and uploads its partial atlas after."""
    flow = workflow()
    dispatch = flow.get("on", flow.get(True))["workflow_dispatch"]["inputs"]["seeds"]
    assert dispatch["default"] == 100 and dispatch["type"] == "number"
    job = flow["jobs"]["atlas"]
    assert "pull_request" in job["if"] and job["strategy"]["fail-fast"] is False
    shards = job["strategy"]["matrix"]["shard"]
    assert shards == list(range(1, len(shards) + 1)) and len(shards) > 1
    steps = job["steps"]
    runs = [i for i, step in enumerate(steps) if "run" in step]
    assert len(runs) == 1, "one command per shard"
    cache = next(i for i, step in enumerate(steps) if step.get("uses", "").startswith("actions/cache"))
    upload = next(i for i, step in enumerate(steps) if step.get("uses", "").startswith("actions/upload-artifact"))
    assert cache < runs[0] < upload
    assert steps[cache]["with"]["path"].strip() == "_build/atlas"
    assert steps[upload]["with"]["path"].rstrip("/") == "_build/atlas/partials"
    lessons = [lesson.stem for lesson in find_lessons(ROOT)]
    given = {}
    for seeds_input in ("", "30"):  # a push (no input: 100 seeds), a dispatch with 30
        keys, owners = set(), {}
        for shard in shards:
            values = {"inputs.seeds || 100": seeds_input or "100", "matrix.shard": str(shard),
                      "strategy.job-total": str(len(shards))}
            keys.add(expand(steps[cache]["with"]["key"], values))
            assert expand(steps[upload]["with"]["name"], values) == f"atlas-shard-{shard}"
            argv = make_command(expand(steps[runs[0]]["run"], values))
            assert argv[1:4] == ["-m", "booktools.atlas", "--seeds"], argv
            seeds, part = atlas.parse_seeds(argv[4]), atlas.parse_shard(argv[argv.index("--shard") + 1])
            assert seeds == list(range(1, int(seeds_input or 100) + 1))
            assert (part.index, part.count) == (shard, len(shards))
            split = atlas.plan(lessons, seeds, part.count, {stem: 10.0 for stem in lessons})
            for job_key, owner in split.items():
                if owner == part.index:
                    assert job_key not in owners, f"{job_key} in shard {owners.get(job_key)} and {shard}"
                    owners[job_key] = shard
        assert set(owners) == {(stem, seed) for stem in lessons for seed in seeds}, "a job in no shard"
        assert len(keys) == len(shards), "each shard caches its own executions"
        given[seeds_input] = len(owners)
    assert given == {"": 100 * len(lessons), "30": 30 * len(lessons)}


def test_the_workflow_merges_the_shards_and_publishes_the_book_built_from_them():
    flow = workflow()
    publish = flow["jobs"]["publish"]
    assert "pull_request" in publish["if"] and set(publish["needs"]) == {"build", "atlas"}
    steps = publish["steps"]
    runs = [step["run"].strip() for step in steps if "run" in step]
    assert runs == ["make atlas-merge", "make book"], runs
    index = {name: next(i for i, step in enumerate(steps) if step.get("uses", "").startswith(name) or
                        step.get("run", "").strip() == name)
             for name in ("actions/cache", "actions/download-artifact", "make atlas-merge", "make book",
                          "actions/upload-pages-artifact")}
    assert list(index.values()) == sorted(index.values()), f"steps out of order: {index}"
    download = steps[index["actions/download-artifact"]]["with"]
    upload = next(step for step in flow["jobs"]["atlas"]["steps"] if step.get("uses", "").startswith(
        "actions/upload-artifact"))["with"]["name"]
    assert fnmatch(expand(upload, {"matrix.shard": "7"}), download["pattern"]) and download["merge-multiple"]
    assert download["path"].rstrip("/") == "_build/atlas/partials"
    build_cache = next(step for step in flow["jobs"]["build"]["steps"] if step.get("uses", "").startswith(
        "actions/cache"))["with"]
    restore = steps[index["actions/cache"]]["with"]
    assert restore["key"] == build_cache["key"] and restore["path"] == build_cache["path"], \
        "the book is published from the build job's executions"
    argv = make_command("make atlas-merge")
    assert argv[1:4] == ["-m", "booktools.atlas", "--merge"], argv
    made = subprocess.run(["make", "-n", "-p", "--no-print-directory", "atlas-merge"], cwd=ROOT, env=MAKE_ALONE,
                          capture_output=True, text=True).stdout
    assert re.search(r"^PARTIALS \??= \$\(wildcard _build/atlas/partials/\*\.json\)$", made, re.M), \
        "make atlas-merge reads the partials where the download puts them"
    assert re.search(r"^atlas-merge: .*\blessons\b", made, re.M), "the merge needs the book's executions"


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
