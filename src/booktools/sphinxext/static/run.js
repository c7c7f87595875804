// Rerun a lesson in the page (booktools.browser): the reader types a seed (and other parameters),
// presses Run, and Python (Pyodide, served by the site itself) runs the lesson's code cells in a Web
// Worker (run/worker.mjs). The page then shows the reader's run: each printed table, each quoted number
// and each claim sentence is replaced in place; figures and explorer frames say they are the published
// run's. "Back to the published run" puts the page back as it was built.
"use strict";

(() => {
  const STATIC = new URL(".", document.currentScript.src); // the site's _static/
  const SITE = new URL("../", STATIC);
  const QUOTE = "coursekit-quote";
  const NAME = "coursekit-quote-";

  function element(tag, attributes = {}, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attributes)) {
      if (key === "text") node.textContent = value;
      else node.setAttribute(key, value);
    }
    node.append(...children);
    return node;
  }

  function say(panel, ...parts) {
    panel.replaceChildren(element("p", { class: "coursekit-run-title" }, "Rerun this lesson in your browser"),
      ...parts);
  }

  // Under file:// a browser refuses the module Worker (its origin is null): explain, give the command.
  function explainFilePage(panel) {
    const page = decodeURI(location.pathname.slice(decodeURI(SITE.pathname).length) || "index.html");
    say(panel, element("p", {
      text: "Rerunning the lesson here needs the site to be served over http: a browser does not start " +
        "the page's Python from a page opened as a file. In the project folder run ",
    }, element("code", { text: "make serve" }), " and open ",
    element("code", { text: `http://127.0.0.1:8000/${page}` }), "."));
    panel.dataset.state = "file";
  }

  function parameterField(parameter, id) {
    const input = element("input", {
      id, name: parameter.name, value: parameter.value, spellcheck: "false", autocomplete: "off",
      class: "coursekit-run-input",
    });
    const hint = parameter.comment ? element("span", { class: "coursekit-run-hint", text: parameter.comment }) : "";
    return { input, row: element("div", { class: "coursekit-run-field" },
      element("label", { for: id }, element("code", { text: parameter.name })), input, hint) };
  }

  function start(panel, lesson) {
    if (lesson.blockers.length) {
      say(panel, element("p", {
        text: "This lesson cannot run in the page yet: its code needs a plotting or notebook library " +
          `that the page's Python does not have (${lesson.blockers.join("; ")}).`,
      }));
      panel.dataset.state = "blocked";
      return;
    }
    const stem = lesson.stem;
    const fields = lesson.parameters.map((parameter, k) => parameterField(parameter, `${stem}-run-${k}`));
    const seed = fields.find((field) => field.input.name === "SEED");
    const others = fields.filter((field) => field !== seed);
    const run = element("button", { type: "submit", class: "coursekit-run-button", text: "Run" });
    const stop = element("button", { type: "button", class: "coursekit-run-button", text: "Stop" });
    const back = element("button", { type: "button", class: "coursekit-run-button", text: "Back to the published run" });
    stop.hidden = true;
    back.hidden = true;
    const more = element("details", { class: "coursekit-run-more" },
      element("summary", { text: "More parameters (the lesson's budget and settings)" }),
      ...others.map((field) => field.row));
    const form = element("form", { class: "coursekit-run-form" }, seed ? seed.row : "", more,
      element("div", { class: "coursekit-run-buttons" }, run, stop, back));
    const status = element("p", { class: "coursekit-run-status", role: "status", "aria-live": "polite" });
    const error = element("pre", { class: "coursekit-run-error", role: "alert" });
    error.hidden = true;
    const parts = [element("p", {
      text: "Type a seed and press Run: Python runs this lesson's code here in your browser (nothing is " +
        "sent anywhere), and the tables, the numbers in the text and the conclusions change to your run's. " +
        "The figures stay those of the published run.",
    }), form, status, error];
    if (lesson.sensitive) {
      parts.push(element("p", {
        class: "coursekit-run-sensitive",
        text: `In the browser a few printed values may differ from Python on Linux with the same seed: ${lesson.sensitive}. ` +
          "The browser's maths library (WebAssembly) can round tanh, exp and log differently in the last bit, " +
          "so those values, and any sentence computed from them, may read differently.",
      }));
    }
    say(panel, ...parts);
    panel.dataset.state = "ready";

    let worker = null;
    let timer = null;
    let shown = null; // the page's state before the first applied run, to go back to
    const state = { phase: "", started: 0, cell: "", progress: "" };

    function tick() {
      const seconds = ((performance.now() - state.started) / 1000).toFixed(1);
      const line = state.phase === "cells" ? `Cell ${state.cell}, ${seconds} s` : `${state.phase}, ${seconds} s`;
      status.textContent = state.progress ? `${line} (${state.progress})` : line;
    }

    function finish() {
      clearInterval(timer);
      run.disabled = false;
      stop.hidden = true;
    }

    function overrides() {
      const chosen = {};
      for (const [k, field] of fields.entries()) {
        const typed = field.input.value.trim();
        if (typed !== lesson.parameters[k].value) chosen[field.input.name] = typed;
      }
      return chosen;
    }

    function describe(chosen) {
      const names = Object.keys(chosen);
      if (!names.length) return "the published parameters";
      return names.map((name) => `${name} = ${chosen[name]}`).join(", ") + " (the other parameters as published)";
    }

    function onMessage(chosen) {
      return ({ data }) => {
        if (data.type === "starting") {
          state.phase = "Starting Python in the page (a few seconds, the first time)";
        } else if (data.type === "started") {
          panel.dataset.startup = data.seconds.toFixed(2); // for make bench and the tests
        } else if (data.type === "cell") {
          state.phase = "cells";
          state.cell = `${data.k} of ${data.n}`;
          state.progress = "";
        } else if (data.type === "progress") {
          state.progress = data.line || "";
        } else if (data.type === "done") {
          finish();
          const result = data.result;
          panel.dataset.seconds = data.seconds.toFixed(2);
          panel.dataset.state = result.error ? "error" : "done";
          if (result.error) {
            error.textContent = `${result.error.type}: ${result.error.message}`;
            error.hidden = false;
            status.textContent = (result.error.cell === null
              ? "The parameters could not be read"
              : `The lesson stopped with an error in its cell ${result.error.cell}`) +
              `; the page is unchanged${shown ? " (it still shows your previous run)" : ""}.`;
            return;
          }
          shown = shown || remember();
          apply(result);
          back.hidden = false;
          status.textContent = `The page now shows your run: ${describe(chosen)}, computed here in ` +
            `${data.seconds.toFixed(1)} s. Tables, numbers and conclusions are your run's; figures are the published run's.`;
        } else if (data.type === "failed") {
          finish();
          panel.dataset.state = "failed";
          error.textContent = data.message;
          error.hidden = false;
          status.textContent = "Python could not run in this page; the page is unchanged.";
        }
      };
    }

    form.addEventListener("submit", (event) => {
      event.preventDefault();
      error.hidden = true;
      const chosen = overrides();
      if (!worker) {
        worker = new Worker(new URL("run/worker.mjs", STATIC), { type: "module" });
        worker.onerror = (problem) => {
          finish();
          panel.dataset.state = "failed";
          error.textContent = problem.message || "the page's Python worker could not start";
          error.hidden = false;
          status.textContent = "Python could not start in this page; the page is unchanged.";
          worker = null;
        };
      }
      worker.onmessage = onMessage(chosen);
      Object.assign(state, { phase: "Starting", started: performance.now(), cell: "", progress: "" });
      panel.dataset.state = "running";
      run.disabled = true;
      stop.hidden = false;
      timer = setInterval(tick, 250);
      tick();
      worker.postMessage({ lesson, overrides: chosen });
    });

    stop.addEventListener("click", () => {
      worker.terminate(); // Python cannot be interrupted from here: the worker goes, the next Run starts anew
      worker = null;
      panel.dataset.state = "stopped";
      const where = state.phase === "cells" ? `at cell ${state.cell}` : "while Python was starting";
      finish();
      status.textContent = `Stopped ${where}; the page is unchanged${shown ? " (it still shows your previous run)" : ""}.`;
    });

    back.addEventListener("click", () => {
      restore(shown);
      shown = null;
      panel.dataset.state = "published";
      back.hidden = true;
      status.textContent = "The page shows the published run again.";
    });

    // What the page showed as built: every pasted text, every printed block, to put back.
    function remember() {
      return {
        quotes: Array.from(document.querySelectorAll(`.${QUOTE}`), (node) => [node, node.innerHTML]),
        blocks: Array.from(document.querySelectorAll(
          "[class*='coursekit-cell-'] .cell_output .output.stream pre, [class*='coursekit-cell-'] .cell_output > :not(.output)"),
        (node) => [node, node.innerHTML]),
      };
    }

    function restore(saved) {
      document.querySelectorAll("a.coursekit-sure[data-published]").forEach((link) => {
        link.title = link.dataset.published;
      });
      for (const [node, html] of [...saved.quotes, ...saved.blocks]) {
        node.innerHTML = html;
        node.classList.remove("coursekit-run-value");
        node.style.whiteSpace = "";
      }
      document.querySelectorAll(".coursekit-run-added").forEach((node) => node.remove());
      document.querySelectorAll(".coursekit-run-published").forEach((node) => node.classList.remove("coursekit-run-published"));
    }

    function apply(result) {
      for (const node of document.querySelectorAll(`.${QUOTE}`)) {
        const name = Array.from(node.classList).find((c) => c.startsWith(NAME)).slice(NAME.length);
        if (name in result.texts) {
          (node.querySelector(".pasted-text") || node).textContent = result.texts[name];
          node.classList.add("coursekit-run-value");
        }
        // a short measured result's hover text: the yardsticks of the reader's run
        const link = node.closest("a.coursekit-sure");
        const claim = result.claims && result.claims[name];
        if (link && claim && claim.detail) {
          if (!link.dataset.published) link.dataset.published = link.title;
          link.title = claim.detail;
        }
      }
      for (const cell of lesson.cells) {
        const container = document.querySelector(`.coursekit-cell-${cell.index}`);
        const printed = result.stdout[String(cell.index)] || "";
        if (!container) continue;
        let block = container.querySelector(".cell_output .output.stream pre");
        if (!block && printed) { // the published run printed nothing here: add a block like myst-nb's
          let output = container.querySelector(".cell_output");
          if (!output) {
            output = element("div", { class: "cell_output docutils container coursekit-run-added" });
            container.append(output);
          }
          block = element("pre", { tabindex: "0" }); // a keyboard stop, as the published blocks are
          output.append(element("div", { class: "output stream highlight-myst-ansi notranslate coursekit-run-added" },
            element("div", { class: "highlight" }, block)));
        }
        if (block) {
          block.textContent = printed;
          block.classList.add("coursekit-run-value");
        }
      }
      for (const [index, shown] of Object.entries(result.displays || {})) {
        const output = document.querySelector(`.coursekit-cell-${index} .cell_output`);
        if (!output) continue;
        const blocks = Array.from(output.children).filter((child) => !child.classList.contains("output"));
        shown.forEach((markdown, k) => {
          if (blocks[k]) showTable(blocks[k], markdown);
        });
      }
      const published = lesson.parameters.find((p) => p.name === "SEED");
      for (const figure of document.querySelectorAll(".coursekit-figure, .coursekit-explorer")) {
        if (figure.classList.contains("coursekit-run-published")) continue;
        figure.classList.add("coursekit-run-published");
        figure.before(element("p", {
          class: "coursekit-run-figure-note coursekit-run-added",
          text: `Drawn for the published run (SEED = ${published ? published.value : "as published"}), not ` +
            "for yours: the page does not redraw figures.",
        }));
      }
    }
  }

  // A Markdown table a cell showed (coursekit.tables.show_table): the page keeps its headings (they may
  // hold maths) and takes the run's rows, each cell styled as the published one of its column; where
  // the page shows the table as text, the text.
  function showTable(block, markdown) {
    const rows = markdown.trim().split("\n").map((row) => row.trim().replace(/^\||\|$/g, "").split("|")
      .map((cell) => cell.trim()));
    const body = rows.slice(2);
    const table = block.matches("table") ? block : block.querySelector("table");
    const tbody = table && table.querySelector("tbody");
    const model = tbody && tbody.querySelector("tr");
    if (model && body.every((cells) => cells.length === model.children.length)) {
      tbody.replaceChildren(...body.map((cells) => {
        const row = model.cloneNode(false);
        row.append(...cells.map((text, j) => {
          const cell = model.children[j].cloneNode(false);
          cell.textContent = text;
          return cell;
        }));
        return row;
      }));
    } else {
      block.textContent = markdown;
      block.style.whiteSpace = "pre-wrap";
    }
    block.classList.add("coursekit-run-value");
  }

  async function open(panel) {
    if (location.protocol === "file:") {
      explainFilePage(panel);
      return;
    }
    try {
      const response = await fetch(new URL(`run/lessons/${panel.dataset.lesson}.json`, STATIC));
      if (!response.ok) throw new Error(`${response.status}`);
      start(panel, await response.json());
    } catch (problem) {
      say(panel, element("p", { text: `The lesson's code could not be read from the site (${problem.message}).` }));
      panel.dataset.state = "unreadable";
    }
  }

  document.addEventListener("DOMContentLoaded", () => {
    document.querySelectorAll(".coursekit-run[data-lesson]").forEach(open);
  });
})();
