// The in-page run's Web Worker (a module worker, started by run.js): Python (Pyodide, from the site's
// own _static/pyodide/) runs a lesson's code cells here, off the page's thread, and reports back.
//
// Messages in:  {lesson, overrides}            the payload (_static/run/lessons/NN-slug.json) and the
//                                              reader's parameters as typed, {NAME: "value"}
// Messages out: {type: "starting"}             Python is loading (the first run only)
//               {type: "started", seconds}
//               {type: "cell", k, n, index}    cell k of n starts
//               {type: "progress", line}       the lesson's own progress line (or null)
//               {type: "done", result, seconds} result: {stdout, texts, claims, error, seconds}
//               {type: "failed", message}      the worker itself failed (not the lesson)
import { loadPyodide } from "../pyodide/pyodide.mjs";
import { runLesson, startPython } from "./engine.mjs";

const staticURL = new URL("../", import.meta.url);
let python = null;

async function readBytes(name) {
  const response = await fetch(new URL(`run/${name}`, staticURL));
  if (!response.ok) {
    throw new Error(`could not read ${name} from the site (${response.status})`);
  }
  return response.arrayBuffer();
}

self.onmessage = async ({ data }) => {
  try {
    if (python === null) {
      const started = performance.now();
      self.postMessage({ type: "starting" });
      python = await startPython(loadPyodide, { indexURL: new URL("pyodide/", staticURL).href, readBytes });
      self.postMessage({ type: "started", seconds: (performance.now() - started) / 1000 });
    }
    const started = performance.now();
    const result = runLesson(python, data.lesson, data.overrides, {
      onCell: (k, n, index) => self.postMessage({ type: "cell", k, n, index }),
      onProgress: (line) => self.postMessage({ type: "progress", line: line ?? null }),
    });
    self.postMessage({ type: "done", result, seconds: (performance.now() - started) / 1000 });
  } catch (error) {
    self.postMessage({ type: "failed", message: String(error && error.message ? error.message : error) });
  }
};
