// Explorers on the HTML page of a lesson: each control picks one of the frames drawn when the lesson
// was executed (coursekit.explorer). Native <select> and <input type=range> keep it keyboard-usable.
"use strict";

function startExplorer(explorer) {
  const inputs = Array.from(explorer.querySelectorAll(".explorer-controls select, .explorer-controls input"));
  const frames = Array.from(explorer.querySelectorAll(".explorer-frames img[data-frame]"));
  function show() {
    const key = inputs.map((input) => input.value).join(",");
    for (const frame of frames) {
      frame.hidden = frame.dataset.frame !== key;
    }
    for (const input of inputs) {
      if (input.type === "range") {
        input.nextElementSibling.textContent = JSON.parse(input.dataset.labels)[Number(input.value)];
      }
    }
  }
  for (const input of inputs) {
    input.addEventListener("input", show);
  }
  show();
}

document.addEventListener("DOMContentLoaded", () => {
  document.querySelectorAll(".coursekit-explorer").forEach(startExplorer);
});
