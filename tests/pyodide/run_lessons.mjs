// Run lessons in Pyodide under node, no browser: the node half of tests/test_browser_run.py.
//
//   node tests/pyodide/run_lessons.mjs RUNTIME_DIR PAYLOAD.json... [--set NAME=VALUE]...
//
// RUNTIME_DIR holds coursekit.zip and pagerun.py (booktools.browser.write_runtime); Pyodide is read
// from node_modules/pyodide. Each lesson runs with the runner of the page (engine.mjs), FIGURES =
// False and the given parameters; one JSON line per lesson is printed: {stem, result, seconds},
// after a first line {startup} with Pyodide's start-up seconds.
import { readFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const { loadPyodide } = await import(join(root, "node_modules", "pyodide", "pyodide.mjs"));
const { startPython, runLesson } = await import(
  join(root, "src", "booktools", "sphinxext", "static", "run", "engine.mjs"));

const args = process.argv.slice(2);
const overrides = {};
const payloads = [];
for (let i = 1; i < args.length; i += 1) {
  if (args[i] === "--set") {
    const [name, ...value] = args[(i += 1)].split("=");
    overrides[name] = value.join("=");
  } else {
    payloads.push(args[i]);
  }
}
const runtime = args[0];
let started = performance.now();
const py = await startPython(loadPyodide, {
  indexURL: join(root, "node_modules", "pyodide") + "/",
  readBytes: (name) => readFile(join(runtime, name)),
});
console.log(JSON.stringify({ startup: (performance.now() - started) / 1000 }));
for (const path of payloads) {
  const lesson = JSON.parse(await readFile(path, "utf-8"));
  started = performance.now();
  const result = runLesson(py, lesson, overrides);
  console.log(JSON.stringify({ stem: lesson.stem, result, seconds: (performance.now() - started) / 1000 }));
}
