// Stepping through a search's trace (alpha-beta, expectimax, Star1, max^n), never started
// by itself: the current node highlighted in the drawing, the window or bounds in force
// shown, and the server's one-sentence explanation of each step.

import { $ } from "./common.js";

let drawing = null;
let trace = [];
let step = -1;
let player = null;
let rename = (text) => text; // node ids in a sentence -> the names the drawing shows

// how sentences name nodes: the page draws letters (A, B, ...) or ids
export function nameNodesWith(renamer) {
  rename = renamer;
}

// the search's state at an event: alpha-beta's window, a chance node's unseen probability,
// a max^n node's mover and best tuple so far
function stateOf(event) {
  const parts = [];
  if (event.alpha !== undefined) {
    const alpha = event.alpha_exact ?? event.alpha;
    const beta = event.beta_exact ?? event.beta;
    parts.push(`alpha = ${alpha}, beta = ${beta}`);
  }
  if (event.rest !== undefined) parts.push(`unseen probability = ${event.rest_exact ?? event.rest}`);
  const tuple = (values) => `(${values.join(", ")})`;
  if (event.player !== undefined) {
    const folded = ["update", "cutoff"].includes(event.event) && event.value;
    const best = folded ? `, best so far ${tuple(event.value_exact ?? event.value)}` : "";
    parts.push(`player ${event.player} to move${best}`);
  }
  if (event.held !== undefined) parts.push(`the parent holds ${tuple(event.held_exact ?? event.held)}`);
  return parts.join("; ");
}

function markCurrent(nodeId) {
  for (const node of drawing.querySelectorAll("[data-node-id]")) {
    const words = (node.dataset.state || "").split(" ").filter((w) => w && w !== "current");
    if (node.dataset.nodeId === nodeId) words.push("current");
    node.dataset.state = words.join(" ");
  }
}

function showStep() {
  const event = trace[step];
  $("step-count").textContent = `step ${step + 1} of ${trace.length}`;
  $("step-prev").disabled = step <= 0;
  $("step-next").disabled = step >= trace.length - 1;
  if (event === undefined) {
    $("step-explanation").textContent = "Press Next step to start.";
    $("step-window").textContent = "";
    markCurrent(null);
    return;
  }
  $("step-explanation").textContent = rename(event.explanation);
  $("step-window").textContent = stateOf(event);
  markCurrent(event.node);
}

export function stopPlaying() {
  if (player !== null) clearInterval(player);
  player = null;
  $("step-play").textContent = "Play";
}

// a new trace (or none: the step-through hides) with the cut-off rule it runs under
export function startSteps(events, rule) {
  stopPlaying();
  trace = events || [];
  step = -1;
  $("steps").hidden = trace.length === 0;
  $("cut-rule").textContent = rule;
  showStep();
}

export function wireSteps(figure) {
  drawing = figure;
  $("step-next").addEventListener("click", () => {
    if (step < trace.length - 1) step += 1;
    showStep();
  });
  $("step-prev").addEventListener("click", () => {
    if (step > 0) step -= 1;
    showStep();
  });
  $("step-play").addEventListener("click", () => {
    if (player !== null) {
      stopPlaying();
      return;
    }
    $("step-play").textContent = "Pause";
    player = setInterval(() => {
      if (step >= trace.length - 1) {
        stopPlaying();
        return;
      }
      step += 1;
      showStep();
    }, Number($("step-speed").value));
  });
}
