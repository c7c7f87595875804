"""What rerunning a lesson in its page costs: the browser's seconds against CPython's (``make bench``).

    python -m booktools.browserbench            # every lesson (after make book)
    python -m booktools.browserbench 06 13      # only these

For each lesson the built site is served on loopback and opened in headless Chromium (Playwright, the
accessibility audit's browser); Run is pressed with the course's parameters and the page reports
Pyodide's start-up seconds and the lesson's cells' seconds (`booktools.pagerun`, run by the page's
worker). The same cells are then run by the same runner in CPython, in a fresh process. Goals: the
cells at most `TARGET_RATIO` times CPython's, start-up at most `TARGET_STARTUP` seconds. The site size
the in-page run adds (Pyodide's core, coursekit and the lessons' code) is reported too. The report is
also written to ``_build/bench/browser.json``.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

from .browser import site_size, unavailable_reason
from .lessons import find_lessons, project_root
from .serve import make_server

TARGET_RATIO, TARGET_STARTUP = 2.0, 6.0
LAUNCH_ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-component-update",
               "--disable-default-apps", "--disable-sync", "--no-first-run"]
CPYTHON_RUN = """
import json, sys, time
from booktools.pagerun import LessonRun
lesson = json.load(open(sys.argv[1], encoding="utf-8"))
run = LessonRun(lesson, {})
result = run.run_all()
print(json.dumps({"seconds": result["seconds"], "error": result["error"]}))
"""


def cpython_seconds(payload: Path) -> float:
    """The lesson's cells' seconds in CPython, by the page's runner, in a fresh process."""
    done = subprocess.run([sys.executable, "-c", CPYTHON_RUN, str(payload)], capture_output=True, text=True,
                          check=True)
    record = json.loads(done.stdout.splitlines()[-1])
    if record["error"]:
        raise RuntimeError(f"{payload.stem} failed in CPython: {record['error']['message']}")
    return record["seconds"]


def browser_seconds(browser, site: str, lesson, timeout: float = 600) -> tuple[float, float, str]:
    """(start-up seconds, cells' seconds, final state) of one rerun with the course's parameters."""
    context = browser.new_context()
    page = context.new_page()
    try:
        page.goto(f"{site}book/{lesson.unit}/{lesson.stem}.html", wait_until="load")
        panel = page.locator(f".coursekit-run[data-lesson='{lesson.stem}'][data-state]")
        panel.wait_for(timeout=20_000)
        if panel.get_attribute("data-state") != "ready":
            return 0.0, 0.0, "not offered: " + (panel.text_content() or "").strip()[:300]
        panel.locator("button[type=submit]").click()
        page.wait_for_function(
            f"""() => ['done', 'error', 'failed'].includes(
                document.querySelector(".coursekit-run[data-lesson='{lesson.stem}']").dataset.state)""",
            timeout=timeout * 1000)
        state = panel.get_attribute("data-state")
        if state != "done":
            return 0.0, 0.0, state + ": " + (panel.locator(".coursekit-run-error").text_content() or "")[:200]
        return float(panel.get_attribute("data-startup")), float(panel.get_attribute("data-seconds")), state
    finally:
        context.close()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("lessons", nargs="*", help="lesson numbers or slugs (default: all)")
    args = parser.parse_args(argv)
    root = project_root()
    html = root / "_build" / "html"
    reason = unavailable_reason(root)
    if reason or not (html / "_static" / "pyodide").is_dir():
        print(f"browser benchmark: no in-page run in the built site ({reason or 'run make book first'})")
        return 1
    chromium = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        print("browser benchmark: no Chromium found (install Debian's chromium or set CHROMIUM)")
        return 1
    from playwright.sync_api import sync_playwright

    server = make_server(html, 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    site = f"http://127.0.0.1:{server.server_address[1]}/"
    rows = []
    print(f"{'lesson':<52} {'start-up':>8} {'browser':>8} {'CPython':>8} {'ratio':>6}  goal")
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium, args=LAUNCH_ARGS)
            for lesson in find_lessons(root, args.lessons or None):
                startup, seconds, state = browser_seconds(browser, site, lesson)
                if state != "done":
                    print(f"{lesson.stem:<52} {state}")
                    rows.append({"lesson": lesson.stem, "state": state})
                    continue
                cpython = cpython_seconds(html / "_static" / "run" / "lessons" / f"{lesson.stem}.json")
                ratio = seconds / cpython if cpython else float("inf")
                met = ratio <= TARGET_RATIO and startup <= TARGET_STARTUP
                print(f"{lesson.stem:<52} {startup:7.1f}s {seconds:7.1f}s {cpython:7.1f}s {ratio:5.2f}x  "
                      f"{'met' if met else 'MISSED'}", flush=True)
                rows.append({"lesson": lesson.stem, "state": state, "startup": startup, "browser": seconds,
                             "cpython": cpython, "ratio": ratio, "met": met})
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    sizes = site_size(html)
    done = [row for row in rows if row["state"] == "done"]
    if done:
        browser_total, cpython_total = sum(r["browser"] for r in done), sum(r["cpython"] for r in done)
        print(f"{len(done)} lessons: browser {browser_total:.1f} s, CPython {cpython_total:.1f} s "
              f"({browser_total / cpython_total:.2f}x); start-up {min(r['startup'] for r in done):.1f}-"
              f"{max(r['startup'] for r in done):.1f} s (goals: {TARGET_RATIO}x, {TARGET_STARTUP} s)")
    print(f"site size added: Pyodide {sizes['pyodide'] / 1e6:.1f} MB, coursekit, runner and lessons' code "
          f"{sizes['run'] / 1e3:.0f} kB; {len(rows) - len(done)} lessons not run in the browser")
    report = root / "_build" / "bench" / "browser.json"
    report.parent.mkdir(parents=True, exist_ok=True)
    report.write_text(json.dumps({"lessons": rows, "site_bytes": sizes}, indent=1) + "\n", encoding="utf-8")
    return 0 if done and all(row.get("met") for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
