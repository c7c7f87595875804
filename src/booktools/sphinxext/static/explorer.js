// Explorers on the HTML page of a lesson (coursekit.explorer): build the controls described in the
// explorer's data-controls, and show the frame (drawn when the lesson was executed) that they select.
// Native <select> and <input type=range> elements keep it usable from the keyboard.
"use strict";

function buildControl(spec) {
  const label = document.createElement("label");
  label.append(spec.label + " ");
  let input;
  if (spec.kind === "slider") {
    input = document.createElement("input");
    input.type = "range";
    input.min = "0";
    input.max = String(spec.values.length - 1);
    input.step = "1";
    input.value = String(spec.start);
    const readout = document.createElement("output");
    label.append(input, " ", readout);
  } else {
    input = document.createElement("select");
    spec.values.forEach((value, index) => input.add(new Option(value, String(index), false, index === spec.start)));
    label.append(input);
  }
  input.name = spec.name;
  return { label, input, spec };
}

function startExplorer(explorer) {
  const controls = JSON.parse(explorer.dataset.controls).map(buildControl);
  const bar = document.createElement("div");
  bar.className = "explorer-controls";
  bar.setAttribute("role", "group");
  bar.setAttribute("aria-label", "explorer controls");
  controls.forEach((control) => bar.append(control.label));
  explorer.prepend(bar);
  const frames = Array.from(explorer.querySelectorAll(".explorer-frames img[data-frame]"));
  // A polite live region: a screen reader hears the description of the frame a control switched to.
  const announcer = document.createElement("p");
  announcer.className = "explorer-announcer";
  announcer.setAttribute("aria-live", "polite");
  announcer.setAttribute("role", "status");
  explorer.append(announcer);
  function show(event) {
    const key = controls.map((control) => control.input.value).join(",");
    for (const frame of frames) {
      frame.style.display = frame.dataset.frame === key ? "" : "none";
      if (event && frame.dataset.frame === key) {
        announcer.textContent = frame.alt;
      }
    }
    for (const control of controls) {
      if (control.spec.kind === "slider") {
        control.label.querySelector("output").textContent = control.spec.values[Number(control.input.value)];
      }
    }
  }
  controls.forEach((control) => control.input.addEventListener("input", show));
  show();
}

document.addEventListener("DOMContentLoaded", () => {
  document.querySelectorAll(".coursekit-explorer[data-controls]").forEach(startExplorer);
});
