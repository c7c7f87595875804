"""The pieces of the in-page run, in CPython: coursekit without IPython (its registry), the runner the
page's worker runs (booktools.pagerun), what the build ships (booktools.browser) and the loopback
server (booktools.serve)."""

import io
import json
import threading
import urllib.request
import zipfile

import pytest
from conftest import ROOT

from booktools import browser, pagerun
from booktools.serve import make_server
from coursekit import registry
from coursekit.claims import Claim, record
from coursekit.progress import progress
from coursekit.prose import quote


def payload(*sources, parameters_cell=0):
    return {"stem": "99-test", "number": 99, "parameters_cell": parameters_cell,
            "cells": [{"index": 2 * k + 1, "source": source} for k, source in enumerate(sources)]}


PARAMETERS = "SEED = 20260218  # the seed\nRUNS = 4  # runs\nFIGURES = True  # draw\n"
CHECK = ("from coursekit.checks import require_seed, require_int\n"
         "require_seed('SEED', SEED)\nrequire_int('RUNS', RUNS, minimum=2)\n")


def test_quotes_and_claims_reach_the_registry_without_ipython():
    registry.clear()
    quote(baseline="0.7540", runs=4)
    record(Claim("beats_baseline", 0.8 > 0.75, yes="It beats the baseline.", no="It does not."))
    assert registry.texts() == {"baseline": "0.7540", "runs": 4, "beats_baseline": "It beats the baseline."}
    assert registry.claims() == {"beats_baseline": {"holds": True, "says": "It beats the baseline."}}
    registry.clear()
    assert registry.texts() == {} and registry.claims() == {}


def test_progress_reports_to_the_registrys_listener_without_ipython():
    lines = []
    registry.listen_to_progress(lines.append)
    try:
        assert list(progress(range(3), "runs")) == [0, 1, 2]
    finally:
        registry.listen_to_progress(None)
    assert lines[0].startswith("runs: 0 of 3") and lines[-1] is None
    with pytest.raises(ValueError, match="listener"):
        registry.listen_to_progress("not a function")


def run(lesson, overrides=None):
    started = pagerun.LessonRun(lesson, overrides or {})
    return started, started.run_all()


def test_the_runner_injects_the_readers_parameters_after_the_parameters_cell():
    lesson = payload(PARAMETERS, CHECK, "print(SEED, RUNS, FIGURES)\nfrom coursekit.prose import quote\n"
                     "quote(seed=str(SEED))", parameters_cell=1)
    runner, result = run(lesson, {"SEED": " 7 "})
    assert result["error"] is None
    assert result["stdout"] == {"5": "7 4 False\n"} and runner.printed() == "7 4 False\n"
    assert result["texts"] == {"seed": "7"}


def test_a_bad_parameter_stops_the_run_in_the_lessons_check_cell():
    lesson = payload(PARAMETERS, CHECK, "print('never')", parameters_cell=1)
    _, result = run(lesson, {"SEED": "-3"})
    assert result["error"]["cell"] == 3 and result["error"]["type"] == "ValueError"
    assert "SEED" in result["error"]["message"] and "-3" in result["error"]["message"]
    assert result["stdout"] == {}
    _, result = run(lesson, {"RUNS": "four"})
    assert result["error"]["cell"] is None and "RUNS: 'four' is not a Python value" in result["error"]["message"]


def test_cells_are_readable_by_inspect_and_linecache_as_in_a_kernel():
    lesson = payload(PARAMETERS, "import inspect, linecache\n\nclass Node:\n    def grad(self):\n        return 1\n",
                     "def lines(f):\n    return len(inspect.getsource(f).splitlines())\n"
                     "print(lines(lines), len(linecache.getlines(Node.grad.__code__.co_filename)))\n"
                     "import dataclasses\n@dataclasses.dataclass\nclass Point:\n    x: int\nprint(Point(1))",
                     parameters_cell=1)
    _, result = run(lesson)
    assert result["error"] is None, result["error"]
    assert result["stdout"]["5"] == "2 5\nPoint(x=1)\n"


def test_a_run_starts_from_a_fresh_coursekit():
    import coursekit.plots as before

    lesson = payload(PARAMETERS, "from coursekit.plots import drawing, draw_figures\n"
                     "draw_figures(FIGURES)\nprint(drawing())", parameters_cell=1)
    _, result = run(lesson)
    import coursekit.plots as after

    assert result["stdout"]["3"] == "False\n" and after is not before
    assert after.drawing() is False
    after.draw_figures(True)


def test_the_parameters_cell_is_read_for_the_panel():
    assert browser.parameters(PARAMETERS + "RATES = (0.02, 0.05)  # tried\nPAIRS = [  # listed\n"
                              "    (4, 0.15),  # small\n    (8, 0.30),\n]  # by hand\n") == [
        {"name": "SEED", "value": "20260218", "comment": "the seed"},
        {"name": "RUNS", "value": "4", "comment": "runs"},
        {"name": "RATES", "value": "(0.02, 0.05)", "comment": "tried"},
        {"name": "PAIRS", "value": "[(4, 0.15), (8, 0.3)]", "comment": "by hand"}]


def test_blockers_are_top_level_imports_of_plotting_or_notebook_libraries():
    cells = [{"index": 4, "source": "import matplotlib.pyplot as plt\nfrom IPython.display import display"},
             {"index": 6, "source": "def draw():\n    import matplotlib.pyplot as plt\n    return plt.figure()"},
             {"index": 8, "source": "if True:\n    import ipywidgets\nimport math"}]
    assert browser.blockers(cells) == ["cell 4 imports IPython outside a function",
                                       "cell 4 imports matplotlib outside a function",
                                       "cell 8 imports ipywidgets outside a function"]


def test_without_pyodide_the_build_says_why(tmp_path):
    reason = browser.unavailable_reason(tmp_path)
    assert reason and "npm" in reason
    from booktools.sphinxext import run_panel

    class App:
        booktools_run_unavailable = reason

    class Lesson:
        stem = "06-optimization-algorithms"

    html = run_panel(App(), Lesson()).astext()
    assert reason in html and "data-lesson" not in html


def test_the_shipped_runtime_holds_coursekit_and_the_runner(tmp_path):
    size = browser.write_runtime(ROOT, tmp_path)
    names = zipfile.ZipFile(io.BytesIO((tmp_path / "run" / "coursekit.zip").read_bytes())).namelist()
    assert "coursekit/__init__.py" in names and "coursekit/registry.py" in names
    assert not [name for name in names if "__pycache__" in name or name.endswith(".pyc")]
    assert (tmp_path / "run" / "pagerun.py").read_text() == (ROOT / "src" / "booktools" / "pagerun.py").read_text()
    assert size < 500_000


def test_pyodide_is_pinned_with_integrity_hashes():
    package = json.loads((ROOT / "package.json").read_text())
    lock = json.loads((ROOT / "package-lock.json").read_text())
    version = package["dependencies"]["pyodide"]
    assert version[0].isdigit(), f"pyodide must be pinned to one version, got {version!r}"
    locked = lock["packages"]["node_modules/pyodide"]
    assert locked["version"] == version and locked["integrity"].startswith("sha512-")
    assert all(entry.get("integrity", "").startswith("sha512-") for name, entry in lock["packages"].items() if name)


def test_ci_and_the_workflow_install_node():
    ci = (ROOT / ".ci" / "run").read_text()
    assert "apt-get install -y -qq nodejs npm" in ci
    workflow = (ROOT / ".github" / "workflows" / "book.yml").read_text()
    assert workflow.index("actions/setup-node") < workflow.index("run: make test")
    makefile = (ROOT / "Makefile").read_text()
    assert "npm ci" in makefile and "book: lessons pyodide" in makefile and "test: $(STAMP) pyodide" in makefile


def test_the_server_listens_on_loopback_only_with_the_runs_types(tmp_path):
    with pytest.raises(ValueError, match="loopback"):
        make_server(tmp_path, 0, host="0.0.0.0")
    (tmp_path / "index.html").write_text("<p>book</p>")
    (tmp_path / "worker.mjs").write_text("export {};")
    (tmp_path / "core.wasm").write_bytes(b"\0asm")
    server = make_server(tmp_path, 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        base = f"http://127.0.0.1:{server.server_address[1]}/"
        types = {name: urllib.request.urlopen(base + name, timeout=10).headers["Content-Type"]
                 for name in ("worker.mjs", "core.wasm")}
    finally:
        server.shutdown()
        server.server_close()
    assert server.server_address[0] == "127.0.0.1"
    assert types == {"worker.mjs": "text/javascript", "core.wasm": "application/wasm"}


def test_a_shown_table_goes_to_the_registry_and_the_runner_reports_it_by_cell():
    lesson = payload(PARAMETERS, "from coursekit.tables import show_table\n"
                     "show_table(['batch', 'ms'], [[20, '0.31']])\nprint('printed')", parameters_cell=1)
    _, result = run(lesson)
    assert result["error"] is None
    assert result["displays"] == {"3": ["| batch | ms |\n|---:|---:|\n| 20 | 0.31 |"]}
    assert result["stdout"] == {"3": "printed\n"}


def test_pyodide_is_copied_with_its_licence_notice(tmp_path):
    assert browser.unavailable_reason(ROOT) is None, "Pyodide is not installed: run npm ci (make test does)"
    size = browser.copy_pyodide(ROOT, tmp_path)
    copied = sorted(path.name for path in (tmp_path / "pyodide").iterdir())
    assert copied == sorted([*browser.PYODIDE_FILES, "LICENSE-pyodide.txt"])
    notice = (tmp_path / "pyodide" / "LICENSE-pyodide.txt").read_text()
    version = json.loads((ROOT / "package.json").read_text())["dependencies"]["pyodide"]
    assert f"Pyodide {version}" in notice and "Mozilla Public License Version 2.0" in notice
    assert 10e6 < size < 20e6


def test_an_error_is_reported_from_the_lessons_own_frames():
    lesson = payload(PARAMETERS, "def fails():\n    return 1 / 0\n", "fails()", parameters_cell=1)
    _, result = run(lesson)
    error = result["error"]
    assert error["cell"] == 5 and error["type"] == "ZeroDivisionError"
    assert "<lesson 99-test cell 5>" in error["traceback"] and "<lesson 99-test cell 3>" in error["traceback"]
    assert "pagerun.py" not in error["traceback"] and "return 1 / 0" in error["traceback"]
