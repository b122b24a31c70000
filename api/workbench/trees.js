// The Arbiter workbench's tree page: a page over the REST API. The server computes every
// answer and lays out every drawing; this module reads the input (JSON, or CS188 and .efg
// text converted by /v1/trees/import), sends it with the options of the chosen search,
// shows the answer, and keeps the URL in step with the input so that a link reproduces
// the page. Editing lives in tree-editor.js, the step-through in tree-steps.js.
//
// After every drawing the figure dispatches a "tree-drawn" event: modules that add to the
// drawing (zoom, collapse, PNG export) listen for it.

import {
  $,
  clearError,
  downloadDrawing,
  keepInUrl,
  newestOnly,
  post,
  readJson,
  showError,
  stateFromUrl,
} from "./common.js";
import { treeView } from "./tree-view.js"; // zoom, pan, collapse/expand, PNG export
import {
  addChild,
  isFlat,
  locate,
  nodeObjects,
  walk,
  removeNode,
  setKind,
  setProbability,
  setValue,
  treeText,
} from "./tree-editor.js";
import { SAMPLES } from "./tree-samples.js";
import { nameNodesWith, startSteps, stopPlaying, wireSteps } from "./tree-steps.js";

const form = $("tree-form");
const input = $("tree-input");
const format = $("tree-format");
const algorithm = $("algorithm");
const depth = $("depth");
const equality = $("equality");
const lowBound = $("bound-low");
const highBound = $("bound-high");
const tieBreak = $("tie-break");
const maxSum = $("max-sum");
const error = $("tree-error");
const optionsError = $("options-error");
const answer = $("answer");
const drawing = $("drawing");
const exports = $("exports");

// the tree last read from the input (a CS188 or .efg text read through the API)
let lastTree = null;

// -- reading the input ----------------------------------------------------------------

// a number as typed: JSON numbers as numbers, "7/2" or "0.1" as the API's exact strings
function exactOf(text) {
  const trimmed = text.trim();
  return /^-?\d+$/.test(trimmed) ? Number(trimmed) : trimmed;
}

// the tree the solvers take: the JSON as typed, or the text converted by the API
async function readTree() {
  if (format.value === "json") {
    const tree = readJson(input.value, "/tree", "the tree");
    // the drawing reads an array as a node: a max^n shorthand's utility lists become leaves
    return algorithm.value === "maxn" && !isFlat(tree) ? nodeObjects(tree, true) : tree;
  }
  const body = { format: format.value, text: input.value };
  if (format.value === "cs188") {
    if (algorithm.value === "maxn") {
      throw { detail: "a CS188 test is solved by minimax, alpha-beta or expectimax", pointer: "/algorithm" };
    }
    body.algorithm = algorithm.value;
  } else {
    body.mode = algorithm.value === "maxn" ? "maxn" : "zero_sum";
  }
  return (await (await post("/v1/trees/import", body)).json()).tree;
}

// the options of the chosen search only: the API refuses an option of another search
function searchOptions() {
  const body = {};
  if (depth.value !== "") body.depth = Number(depth.value);
  const chosen = algorithm.value;
  if (chosen === "alphabeta" || chosen === "expectimax") body.prune_on_equality = equality.checked;
  if (chosen === "expectimax") {
    const given = [lowBound.value.trim(), highBound.value.trim()];
    if (given.some((text) => text !== "")) {
      if (given.includes("")) {
        throw { detail: "Star1 needs both bounds, lo and hi (or neither)", pointer: "/bounds" };
      }
      body.bounds = given.map(exactOf);
    }
  }
  if (chosen === "maxn") {
    body.tie_break = tieBreak.value;
    if (maxSum.value.trim() !== "") body.max_sum = exactOf(maxSum.value);
  }
  return body;
}

// how the drawing names nodes (ids, letters or none) and whether it has a legend; a
// sentence of the page names a node as the drawing does
const nodeLabels = $("node-labels");
const legend = $("legend");
const NODE_ID = /\broot(?:\.\d+)*/g;

function drawingOptions() {
  return { node_labels: nodeLabels.value, legend: legend.checked };
}

// the names of the drawing on the page, read once per drawing (a step renames its sentence)
let names = new Map();
let namesOf = null;

function named(text) {
  if (nodeLabels.value !== "letters") return text;
  const picture = drawing.querySelector("svg");
  if (picture !== namesOf) {
    namesOf = picture;
    names = new Map();
    for (const node of drawing.querySelectorAll("[data-node-id]")) {
      const name = node.querySelector(":scope > text.node-id")?.textContent;
      if (name) names.set(node.dataset.nodeId, name);
    }
  }
  return text.replace(NODE_ID, (id) => names.get(id) ?? id);
}
nameNodesWith(named);

// -- errors beside the input they concern ----------------------------------------------

const OPTION_CONTROLS = {
  "/bounds/1": highBound,
  "/bounds": lowBound,
  "/max_sum": maxSum,
  "/tie_break": tieBreak,
  "/depth": depth,
  "/prune_on_equality": equality,
  "/algorithm": algorithm,
};

function fail(problem) {
  const pointer = (problem && problem.pointer) || "";
  const option = Object.keys(OPTION_CONTROLS).find((prefix) => pointer.startsWith(prefix));
  if (option !== undefined) showError(optionsError, OPTION_CONTROLS[option], problem);
  else showError(error, input, problem);
}

// A refused input leaves the last drawing that solved on the page, dimmed under a note, and
// marks the node the error's pointer names in it; the answer and the step-through, which
// belong to that older tree, are put away. The next solved tree takes the dimming off.
function keepStale(problem) {
  answer.hidden = true;
  stopPlaying();
  $("steps").hidden = true;
  if (!drawing.querySelector("svg")) return;
  drawing.classList.add("stale");
  $("stale-note").hidden = false;
  const blamed = nodeBlamed((problem && problem.pointer) || "");
  for (const node of drawing.querySelectorAll("[data-node-id]")) {
    node.toggleAttribute("data-blamed", node.dataset.nodeId === blamed);
  }
}

function clearStale() {
  drawing.classList.remove("stale");
  $("stale-note").hidden = true;
}

// the id of the node a pointer into the JSON tree names (/tree/1/0, /tree/children/1/p,
// /tree/nodes/3/value), or null
function nodeBlamed(pointer) {
  if (format.value !== "json" || !pointer.startsWith("/tree/")) return null;
  let raw;
  try {
    raw = JSON.parse(input.value);
  } catch {
    return null;
  }
  const steps = pointer.slice("/tree/".length).split("/");
  if (isFlat(raw)) {
    const node = steps[0] === "nodes" ? raw.nodes[Number(steps[1])] : undefined;
    return typeof node?.id === "string" ? node.id : null;
  }
  const path = [];
  for (const step of steps) {
    if (step === "children") continue;
    if (!/^\d+$/.test(step)) break;
    path.push(Number(step));
  }
  let entry = walk(nodeObjects(raw, algorithm.value === "maxn"))[0];
  for (const index of path) {
    const kid = entry.node.children?.[index];
    if (kid === undefined) break;
    entry = { node: kid, id: kid.id ?? `${entry.id}.${index}` };
  }
  return entry.id;
}

// zoom, pan, collapse/expand and PNG export (tree-view.js); created before this module's
// own listeners on the drawing, so that a drag or a collapse toggle never opens the editor
const view = treeView(drawing, { onError: fail, place: draw, collapsible: true, exportable: true });

function clearErrors() {
  clearError(error, input);
  clearError(optionsError, null);
  for (const control of Object.values(OPTION_CONTROLS)) control.removeAttribute("aria-invalid");
}

// -- solving and drawing ---------------------------------------------------------------

function show(value, exact) {
  if (exact !== undefined) return Array.isArray(exact) ? `(${exact.join(", ")})` : exact;
  return Array.isArray(value) ? `(${value.join(", ")})` : String(value);
}

// the cut-off rule the step-through runs under, in words
function cutRule(body) {
  const loose = body.prune_on_equality !== false;
  const ab = loose ? "prune when alpha >= beta (AIMA)" : "prune when alpha > beta (CS188)";
  if (algorithm.value === "alphabeta") return ab;
  if (algorithm.value === "expectimax") {
    if (!body.bounds) return "no pruning: expectimax values every node";
    const [lo, hi] = body.bounds;
    return `${ab}; a chance node stops once, with lo = ${lo} or hi = ${hi} for its unseen outcomes, `
      + `its value is sure to be ${loose ? "<=" : "<"} alpha or ${loose ? ">=" : ">"} beta (Star1)`;
  }
  if (algorithm.value === "maxn") {
    if (body.max_sum === undefined) return "no pruning: max^n values every node";
    const test = body.tie_break === "rightmost" ? "<" : "<=";
    return `shallow pruning: skip a node's remaining moves once max_sum ${body.max_sum} minus its `
      + `mover's best ${test} what the parent's mover already holds`;
  }
  return "no pruning: minimax values every node";
}

// the page's section says it is busy from "Solve" until the answer and drawing are in
const section = $("tree-heading").closest("section");

// a solve started while an older one is still on its way (an option changed, an edit, the
// page's own first solve) wins: the older one's answers are dropped as they come in
const solves = newestOnly();

// true when this solve drew its tree
async function solve() {
  const latest = solves();
  section.setAttribute("aria-busy", "true");
  try {
    return await solveAndDraw(latest);
  } finally {
    if (latest()) section.setAttribute("aria-busy", "false");
  }
}

async function solveAndDraw(latest) {
  clearErrors();
  let body;
  try {
    const options = searchOptions();
    body = { tree: await readTree(), ...options };
  } catch (problem) {
    if (latest()) {
      fail(problem);
      keepStale(problem);
    }
    return false;
  }
  if (!latest()) return false;
  lastTree = body.tree;
  remember();
  stopPlaying();
  try {
    const solved = await solveWithTrace(body);
    if (!latest()) return; // (the view keeps the request it drew last, for collapsing)
    const picture = { ...body, ...drawingOptions(), format: "svg", algorithm: algorithm.value };
    const svg = await view.render(picture);
    if (!latest()) return;
    clearStale();
    draw(svg);
    $("result-value").textContent = show(solved.value, solved.value_exact);
    $("best-move").textContent = bestMove(solved);
    const pruned = solved.pruned_leaves || [];
    $("pruned-line").textContent = pruned.length
      ? `Leaves never evaluated (${pruned.length}): ${pruned.map(leafName).join(", ")}`
      : "";
    answer.hidden = false;
    exports.hidden = false;
    startSteps(solved.trace, cutRule(body), {
      tree: body.tree,
      tuples: algorithm.value === "maxn",
      bounds: body.bounds ?? null,
    });
  } catch (problem) {
    if (!latest()) return false;
    fail(problem);
    keepStale(problem);
    return false;
  }
  await showGraphTest(latest);
  return latest();
}

// the root's best move as the drawing shows it: by its label when it has one ("by the move
// Left (to B)"), else by the node it leads to
function bestMove(solved) {
  if (!solved.best_move) return "";
  const to = nodeLabels.value === "none" ? "" : named(solved.best_move);
  if (solved.best_move_label) return `by the move ${solved.best_move_label}${to && ` (to ${to})`}`;
  return `by moving to ${to || solved.best_move}`;
}

// a leaf as the drawing shows it: its name and its value ("I (4)", "root.1.1 (4)")
function leafName(id) {
  const value = drawing.querySelector(`[data-node-id="${CSS.escape(id)}"] > text.value`)?.textContent;
  const name = named(id);
  return value ? `${name} (${value})` : name;
}

function draw(svg) {
  drawing.innerHTML = svg; // the server's own SVG: every text in it is escaped there
  for (const node of drawing.querySelectorAll("[data-node-id]")) {
    node.setAttribute("tabindex", "0");
    node.setAttribute("role", "button");
    node.setAttribute("aria-label", `node ${node.dataset.nodeId}: edit`);
  }
  markSelected();
  drawing.dispatchEvent(new CustomEvent("tree-drawn"));
}

// every search that has a trace answers with it, except for trees too large to trace
async function solveWithTrace(body) {
  const path = `/v1/trees/${algorithm.value}`;
  try {
    return await (await post(path, { ...body, trace: true })).json();
  } catch (problem) {
    if (problem.pointer !== "/trace") throw problem;
    return (await post(path, body)).json();
  }
}

// a CS188 test also runs as the autograder's agent does: its action and generated states
async function showGraphTest(latest) {
  if (!latest()) return;
  const line = $("cs188-answer");
  line.textContent = "";
  if (format.value !== "cs188" || algorithm.value === "maxn" || answer.hidden) return;
  try {
    const run = await (await post("/v1/trees/cs188", { text: input.value, algorithm: algorithm.value })).json();
    if (!latest()) return;
    line.textContent = `CS188 ${run.algorithm} agent: action ${run.action}, value `
      + `${run.value_exact ?? run.value}; generated states: ${run.generated_text}`;
  } catch (problem) {
    if (latest()) fail(problem);
  }
}

// the drawing as the page shows it (collapsed alike); `bare`: the problem alone, for a
// handout (the server hides every value but the leaves' and ignores the search's options
// but the depth)
async function exportAs(kind, name, bare = false) {
  try {
    const body = { tree: await readTree(), ...searchOptions() };
    const shown = { ...view.exportOptions(), ...drawingOptions() };
    const picture = { ...body, ...shown, format: kind, algorithm: algorithm.value };
    await downloadDrawing(bare ? { ...picture, bare: true } : picture, name);
  } catch (problem) {
    fail(problem);
  }
}

// -- click-to-edit ---------------------------------------------------------------------

let selected = null;

function markSelected() {
  for (const node of drawing.querySelectorAll("[data-node-id]")) {
    if (node.dataset.nodeId === selected) node.setAttribute("data-selected", "");
    else node.removeAttribute("data-selected");
  }
  if (selected !== null && !drawing.querySelector(`[data-node-id="${CSS.escape(selected)}"]`)) {
    closeEditor();
  }
}

// The tree being edited, as node objects. A CS188 or .efg text is edited as the JSON it
// was read into: the input switches to JSON at the first edit (`editing`).
function editedTree(editing) {
  const tuples = algorithm.value === "maxn";
  if (format.value === "json") return nodeObjects(readJson(input.value, "/tree", "the tree"), tuples);
  if (lastTree === null) throw { detail: "solve the tree once before editing it", pointer: "/tree" };
  if (editing) {
    format.value = "json";
    $("editor-note").textContent = "The tree is now edited as JSON (converted from the text you gave).";
  }
  return nodeObjects(lastTree, tuples);
}

function openEditor(id) {
  let entry;
  try {
    entry = locate(editedTree(false), id);
  } catch (problem) {
    fail(problem);
    return;
  }
  if (entry === null) return;
  selected = id;
  markSelected();
  const { node, parent } = entry;
  const leaf = !Array.isArray(node.children) || node.children.length === 0;
  const drawn = drawing.querySelector(`[data-node-id="${CSS.escape(id)}"]`);
  const drawnKind = ["max", "min", "chance", "player"].find((k) => drawn?.classList.contains(k));
  $("editor-node").textContent = id;
  $("editor-value").disabled = !leaf;
  $("editor-value").value = leaf ? [node.value].flat().join(", ") : "";
  $("editor-kind").disabled = leaf;
  $("editor-kind").value = node.kind ?? drawnKind ?? "max";
  $("editor-kind").dataset.shown = $("editor-kind").value;
  $("editor-player").disabled = leaf;
  $("editor-player").value = node.player ?? "";
  $("editor-player").dataset.shown = $("editor-player").value;
  const underChance = parent !== null && (parent.kind === "chance" || parentDrawnChance(id));
  $("editor-p").disabled = !underChance;
  $("editor-p").value = underChance ? String(node.p ?? "") : "";
  $("editor-remove").disabled = parent === null;
  $("editor").hidden = false;
}

function parentDrawnChance(id) {
  const parentId = id.includes(".") ? id.slice(0, id.lastIndexOf(".")) : null;
  const drawn = parentId && drawing.querySelector(`[data-node-id="${CSS.escape(parentId)}"]`);
  return Boolean(drawn && drawn.classList.contains("chance"));
}

function closeEditor() {
  selected = null;
  $("editor").hidden = true;
  for (const node of drawing.querySelectorAll("[data-selected]")) node.removeAttribute("data-selected");
}

// Apply one edit to the JSON, write it back to the input, and redraw; the editor stays on
// the node (on its parent after a removal: the ids of later siblings move up by one).
async function edit(change, then = "node") {
  clearErrors();
  const id = selected;
  let tree;
  let next = id;
  try {
    tree = editedTree(true);
    if (then === "parent") next = locate(tree, id).parentId;
    change(tree, id);
  } catch (problem) {
    fail(problem);
    return;
  }
  input.value = treeText(tree, algorithm.value === "maxn");
  selected = next;
  await solve();
  if (locate(tree, next) !== null) openEditor(next);
  // removing a child of the root leaves the editor on the root, whose Remove is disabled
  if (then === "parent" && $("editor-remove").disabled) $("editor-add-child").focus();
}

function applyFields(tree, id) {
  const { node, parent } = locate(tree, id);
  const leaf = !Array.isArray(node.children) || node.children.length === 0;
  if (leaf && $("editor-value").value.trim() !== "") setValue(tree, id, $("editor-value").value);
  if (!leaf) {
    // only what the user changed: an unchanged kind stays implicit (alternating levels)
    const [kind, player] = [$("editor-kind"), $("editor-player")];
    if (kind.value !== kind.dataset.shown || player.value !== player.dataset.shown) {
      setKind(tree, id, player.value !== player.dataset.shown ? "player" : kind.value, player.value);
    }
  }
  const p = $("editor-p").value.trim();
  if (!$("editor-p").disabled && parent !== null && p !== "" && p !== String(node.p ?? "")) {
    setProbability(tree, id, p);
  }
}

drawing.addEventListener("click", (event) => {
  const node = event.target.closest("[data-node-id]");
  if (node) openEditor(node.dataset.nodeId);
});
drawing.addEventListener("keydown", (event) => {
  const node = event.target.closest("[data-node-id]");
  if (!node || (event.key !== "Enter" && event.key !== " ")) return;
  event.preventDefault();
  openEditor(node.dataset.nodeId);
  if (!$("editor").hidden) $("editor-add-child").focus();
});
$("editor-add-child").addEventListener("click", () => edit(addChild));
$("editor-remove").addEventListener("click", () => edit(removeNode, "parent"));
$("editor-close").addEventListener("click", closeEditor);
// Escape closes the editor and takes the keyboard back to the node it was editing
$("editor").addEventListener("keydown", (event) => {
  if (event.key !== "Escape" || selected === null) return;
  const node = drawing.querySelector(`[data-node-id="${CSS.escape(selected)}"]`);
  closeEditor();
  node?.focus();
});
$("editor-form").addEventListener("submit", (event) => {
  event.preventDefault();
  edit(applyFields);
});

// -- samples, options, URL state -------------------------------------------------------

for (const [name, sample] of Object.entries(SAMPLES)) {
  const option = document.createElement("option");
  option.value = name;
  option.textContent = sample.title;
  $("tree-sample").append(option);
}

function loadSample() {
  const sample = SAMPLES[$("tree-sample").value];
  format.value = sample.format;
  input.value = sample.text;
  algorithm.value = sample.algorithm;
  [lowBound.value, highBound.value] = sample.bounds ?? ["", ""];
  maxSum.value = sample.maxSum ?? "";
  depth.value = "";
  $("editor-note").textContent = "";
  closeEditor();
  optionsApply();
  solveInView();
}

// the input lives in the URL's fragment, so a copied link reproduces the page
function remember() {
  keepInUrl({
    tree: input.value,
    format: format.value,
    algorithm: algorithm.value,
    depth: depth.value,
    equality: equality.checked,
    bounds: [lowBound.value, highBound.value],
    tie_break: tieBreak.value,
    max_sum: maxSum.value,
    node_labels: nodeLabels.value,
    legend: legend.checked,
    answer: $("show-answer").checked,
  });
}

function restoreFromUrl() {
  const state = stateFromUrl();
  if (state === null) return false;
  input.value = state.tree ?? input.value;
  format.value = state.format ?? "json";
  algorithm.value = state.algorithm ?? algorithm.value;
  depth.value = state.depth ?? "";
  equality.checked = state.equality ?? true;
  [lowBound.value, highBound.value] = state.bounds ?? ["", ""];
  tieBreak.value = state.tie_break ?? "leftmost";
  maxSum.value = state.max_sum ?? "";
  nodeLabels.value = state.node_labels ?? "ids";
  legend.checked = state.legend ?? true;
  // a link from another page (practice's solution) shows the solved tree at once
  $("show-answer").checked = state.answer ?? true;
  return true;
}

// only the options of the chosen search are enabled
function optionsApply() {
  const chosen = algorithm.value;
  const pruning = chosen === "alphabeta" || chosen === "expectimax";
  equality.disabled = !pruning;
  $("equality-label").style.opacity = pruning ? "1" : "0.5";
  $("star1-options").disabled = chosen !== "expectimax";
  $("maxn-options").disabled = chosen !== "maxn";
}

// Solve (or a sample) brings the drawing and the step-through into view together: above
// them the form would leave the drawing below the fold of a laptop's screen
async function solveInView() {
  if (!(await solve())) return;
  const stage = document.querySelector(".stage");
  const box = stage.getBoundingClientRect();
  if (box.top < 0 || box.top > innerHeight * 0.25) stage.scrollIntoView({ block: "start" });
}

form.addEventListener("submit", (event) => {
  event.preventDefault();
  solveInView();
});
algorithm.addEventListener("change", optionsApply);
// a drawing option redraws a solved tree at once
for (const control of [nodeLabels, legend]) {
  control.addEventListener("change", () => answer.hidden || solve());
}
$("load-sample").addEventListener("click", loadSample);
$("export-svg").addEventListener("click", () => exportAs("svg", "tree.svg"));
$("export-tikz").addEventListener("click", () => exportAs("tikz", "tree.tex"));
$("export-bare-svg").addEventListener("click", () => exportAs("svg", "problem.svg", true));
$("export-bare-tikz").addEventListener("click", () => exportAs("tikz", "problem.tex", true));
$("copy-link").addEventListener("click", () => {
  remember();
  // the clipboard may be refused (an insecure origin); the address bar holds the link anyway
  navigator.clipboard?.writeText(location.href).catch(() => {});
});
wireSteps(drawing);
// during the step-through's replay the answer (value, best move, pruned leaves, the CS188
// agent's run) waits for the last step or for "show the answer"
const answerLines = $("answer-lines");
drawing.addEventListener("tree-replay", (event) => {
  const { concealed } = event.detail;
  if (answerLines.hidden === concealed) return; // a step that changes nothing here
  answerLines.hidden = concealed;
  $("answer-later").hidden = !concealed;
});
$("show-answer").addEventListener("change", remember);

optionsApply();
if (restoreFromUrl()) {
  optionsApply();
  solve();
}
