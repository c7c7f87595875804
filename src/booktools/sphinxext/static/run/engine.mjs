// The in-page run's engine, shared by the page's Web Worker (worker.mjs) and the node test
// (tests/pyodide/run_lessons.mjs): start Pyodide with coursekit and the runner (booktools.pagerun),
// then run a lesson's code cells one at a time with the reader's parameters.

const LIBRARY = "/home/pyodide/booklib";

// Plain bytes (Pyodide refuses node's Buffer, a subclass of Uint8Array)
const bytes = (data) => (ArrayBuffer.isView(data)
  ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength).slice() : new Uint8Array(data));

// Start Pyodide from `indexURL` (its core files), with coursekit.zip and pagerun.py, read by
// `readBytes(name)` (a Uint8Array or ArrayBuffer for "coursekit.zip" and "pagerun.py").
export async function startPython(loadPyodide, { indexURL, readBytes }) {
  const py = await loadPyodide({ indexURL, stdout: () => {}, stderr: () => {} });
  const [archive, runner] = await Promise.all([readBytes("coursekit.zip"), readBytes("pagerun.py")]);
  py.FS.mkdirTree(LIBRARY);
  py.unpackArchive(bytes(archive), "zip", { extractDir: LIBRARY });
  py.FS.writeFile(`${LIBRARY}/pagerun.py`, bytes(runner));
  py.runPython(`import sys\nsys.path.insert(0, ${JSON.stringify(LIBRARY)})`);
  return py;
}

// Run `lesson` (its payload: booktools.browser.lesson_payload) with `overrides` ({NAME: "value as
// typed"}). `onCell(k, n, index)` is called before each cell, `onProgress(line or null)` with the
// lesson's own progress lines. Returns the runner's result: {stdout, texts, claims, error, seconds}.
export function runLesson(py, lesson, overrides, { onCell = () => {}, onProgress = () => {} } = {}) {
  const pagerun = py.pyimport("pagerun");
  const run = pagerun.LessonRun.from_json(JSON.stringify(lesson), JSON.stringify(overrides));
  try {
    run.listen(onProgress);
    const cells = lesson.cells.map((cell) => cell.index);
    for (let k = 0; k < cells.length && !run.failed; k += 1) {
      onCell(k + 1, cells.length, cells[k]);
      run.run_cell(cells[k]).destroy();
    }
    run.listen();
    return JSON.parse(run.result_json());
  } finally {
    run.destroy();
    pagerun.destroy();
  }
}
