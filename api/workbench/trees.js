// The Arbiter workbench: a page over the REST API. The server computes every answer and
// lays out every drawing; this module only sends the input, shows the answer, and keeps
// the URL in step with the input so that a link reproduces the page.

import { $, clearError, download, keepInUrl, post, readJson, showError, stateFromUrl } from "./common.js";
import { treeView } from "./tree-view.js"; // zoom, pan, collapse/expand, PNG export

const form = $("tree-form");
const input = $("tree-input");
const algorithm = $("algorithm");
const depth = $("depth");
const equality = $("equality");
const error = $("tree-error");
const answer = $("answer");
const drawing = $("drawing");
const exports = $("exports");

// the request every endpoint gets: the tree and the options that search takes
function request(format) {
  const body = { tree: readJson(input.value, "/tree", "the tree") };
  if (depth.value !== "") body.depth = Number(depth.value);
  if (["alphabeta", "expectimax"].includes(algorithm.value)) {
    body.prune_on_equality = equality.checked;
  }
  if (format !== undefined) {
    body.format = format;
    body.algorithm = algorithm.value;
  }
  return body;
}

const fail = (problem) => showError(error, input, problem);
const view = treeView(drawing, fail); // tree-view.js

// -- stepping through an alpha-beta trace (never started by itself) --------------------

let trace = [];
let step = -1;
let player = null;

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
  $("step-explanation").textContent = event.explanation;
  $("step-window").textContent = `alpha = ${event.alpha}, beta = ${event.beta}`;
  markCurrent(event.node);
}

function stopPlaying() {
  if (player !== null) clearInterval(player);
  player = null;
  $("step-play").textContent = "Play";
}

function startSteps(events, pruneOnEquality) {
  stopPlaying();
  trace = events || [];
  step = -1;
  $("steps").hidden = trace.length === 0;
  $("cut-rule").textContent = pruneOnEquality
    ? "prune when alpha >= beta (AIMA)"
    : "prune when alpha > beta (CS188)";
  showStep();
}

function show(value, exact) {
  if (exact !== undefined) return exact;
  return Array.isArray(value) ? `(${value.join(", ")})` : String(value);
}

async function solve() {
  clearError(error, input);
  let body;
  try {
    body = request();
  } catch (problem) {
    fail(problem);
    return;
  }
  remember();
  stopPlaying();
  try {
    const solved = await solveWithTrace(body);
    const svg = await view.render(request("svg")); // tree-view.js adds its drawing options
    $("result-value").textContent = show(solved.value, solved.value_exact);
    $("best-move").textContent = solved.best_move ? `by moving to ${solved.best_move}` : "";
    const pruned = solved.pruned_leaves || [];
    $("pruned-line").textContent = pruned.length
      ? `Leaves never evaluated (${pruned.length}): ${pruned.join(", ")}`
      : "";
    drawing.innerHTML = svg; // the server's own SVG: every text in it is escaped there
    answer.hidden = false;
    exports.hidden = false;
    startSteps(solved.trace, body.prune_on_equality !== false);
  } catch (problem) {
    fail(problem);
  }
}

// alpha-beta answers come with their trace, except for trees too large to trace
async function solveWithTrace(body) {
  if (algorithm.value !== "alphabeta") {
    return (await post(`/v1/trees/${algorithm.value}`, body)).json();
  }
  try {
    return await (await post("/v1/trees/alphabeta", { ...body, trace: true })).json();
  } catch (problem) {
    if (problem.pointer !== "/trace") throw problem;
    return (await post("/v1/trees/alphabeta", body)).json();
  }
}

async function exportAs(format, name, type) {
  try {
    const text = await (await post("/v1/trees/render", request(format))).text();
    download(name, text, type);
  } catch (problem) {
    fail(problem);
  }
}

// the input lives in the URL's fragment, so a copied link reproduces the page
function remember() {
  keepInUrl({
    tree: input.value,
    algorithm: algorithm.value,
    depth: depth.value,
    equality: equality.checked,
  });
}

function restoreFromUrl() {
  const state = stateFromUrl();
  if (state === null) return false;
  input.value = state.tree ?? input.value;
  algorithm.value = state.algorithm ?? algorithm.value;
  depth.value = state.depth ?? "";
  equality.checked = state.equality ?? true;
  return true;
}

function equalityApplies() {
  const applies = ["alphabeta", "expectimax"].includes(algorithm.value);
  equality.disabled = !applies;
  $("equality-label").style.opacity = applies ? "1" : "0.5";
}

form.addEventListener("submit", (event) => {
  event.preventDefault();
  solve();
});
algorithm.addEventListener("change", equalityApplies);
$("export-svg").addEventListener("click", () => exportAs("svg", "tree.svg", "image/svg+xml"));
$("export-tikz").addEventListener("click", () => exportAs("tikz", "tree.tex", "application/x-tex"));
$("copy-link").addEventListener("click", () => {
  remember();
  // the clipboard may be refused (an insecure origin); the address bar holds the link anyway
  navigator.clipboard?.writeText(location.href).catch(() => {});
});

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

if (restoreFromUrl()) solve();
equalityApplies();
