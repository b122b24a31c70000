// The practice page: a problem drawn from a seed by the server's generator, the student's
// answer typed beside the drawing (values) and clicked into it (pruned leaves), graded by
// the real grader. The key the generator sends is never shown: "Show solution" opens the
// trees page, which solves the tree and steps through it.

import { $, clearError, downloadDrawing, keepInUrl, newestOnly, post, showError, stateFromUrl } from "./common.js";
import { treeView } from "./tree-view.js";

const controls = {
  depth: $("depth"),
  low: $("branching-min"),
  high: $("branching-max"),
  chance: $("chance"),
  convention: $("convention"),
  least: $("least-pruned"),
  seed: $("seed"),
};
const drawing = $("drawing");
treeView(drawing); // the drawing fits its box, with zoom, fit and pan
const generateError = $("generate-error");
const answerError = $("answer-error");
const bestMove = $("best-move");

const KINDS = { max: "MAX", min: "MIN", chance: "chance" };
const PARTS = {
  value: "Value of the root",
  best_move: "Best move",
  nodes: "Node values",
  pruned_leaves: "Pruned leaves",
};

let current = null; // the generated problem, posted to /v1/grade with the page's questions
let marked = new Set(); // leaves the student marks as never evaluated
let nodes = []; // [{id, kind, element}] in search order (children left to right)
const generations = newestOnly(); // an answer to an older generate() is dropped

const isAlphaBeta = () => current !== null && current.type === "alphabeta";

// -- generating ----------------------------------------------------------------------

// an empty field is sent as null, so the server names it (e.g. /depth) rather than guessing
const integer = (input) => (input.value.trim() === "" ? null : Number(input.value));

function generatorBody() {
  const body = {
    type: controls.chance.checked ? "expectimax" : "alphabeta",
    depth: integer(controls.depth),
    branching: [integer(controls.low), integer(controls.high)],
    seed: integer(controls.seed),
  };
  if (!controls.chance.checked) {
    body.prune_on_equality = controls.convention.value === "aima";
    body.min_pruned_leaves = integer(controls.least);
  }
  return body;
}

// the settings as the page offers them (each input's own min and max), checked before
// posting so that each mistake is named at its own field: the server's own limits are
// wider, and one of them (the size of the tree) is blamed on the branching as a whole
const SETTINGS = [
  ["depth", "/depth"],
  ["low", "/branching/0"],
  ["high", "/branching/1"],
  ["least", "/min_pruned_leaves"],
  ["seed", "/seed"],
];

function checkSettings() {
  for (const [name, pointer] of SETTINGS) {
    const input = controls[name];
    if (input.disabled || (name === "seed" && input.value.trim() === "")) continue;
    const label = document.querySelector(`label[for="${input.id}"]`).textContent.replace(/\s*\(.*\)$/, "");
    const low = input.min === "" ? 0 : Number(input.min);
    const high = input.max === "" ? null : Number(input.max);
    const value = Number(input.value.trim());
    const whole = input.value.trim() !== "" && Number.isInteger(value);
    if (!whole || value < low || (high !== null && value > high)) {
      const range = high === null ? `${low} or more` : `from ${low} to ${high}`;
      throw { detail: `${label}: give a whole number ${range}`, pointer };
    }
  }
  if (Number(controls.low.value) > Number(controls.high.value)) {
    throw { detail: "Most children: give at least as many as Fewest children", pointer: "/branching/1" };
  }
}

// the generator's pointers, each to the control it concerns
function generatorControl(pointer) {
  if (pointer.startsWith("/branching/1")) return controls.high;
  if (pointer.startsWith("/branching/0")) return controls.low;
  if (pointer === "/branching") return controls.high; // [min, max] as a pair: the larger is set last
  const named = {
    "/depth": controls.depth,
    "/seed": controls.seed,
    "/min_pruned_leaves": controls.least,
    "/max_attempts": controls.least, // no draw met the constraints: ask for fewer pruned leaves
    "/prune_on_equality": controls.convention,
  };
  return named[pointer] || $("generate");
}

function settingsState() {
  return {
    depth: controls.depth.value,
    branching: [controls.low.value, controls.high.value],
    chance: controls.chance.checked,
    convention: controls.convention.value,
    least: controls.least.value,
    seed: controls.seed.value,
  };
}

function restoreSettings() {
  const state = stateFromUrl();
  if (state === null) return false;
  controls.depth.value = state.depth ?? controls.depth.value;
  const [low, high] = state.branching ?? [controls.low.value, controls.high.value];
  controls.low.value = low;
  controls.high.value = high;
  controls.chance.checked = state.chance ?? false;
  controls.convention.value = state.convention ?? "aima";
  controls.least.value = state.least ?? controls.least.value;
  controls.seed.value = state.seed ?? "";
  return true;
}

function clearGeneratorErrors() {
  for (const control of [...Object.values(controls), $("generate")]) {
    clearError(generateError, control);
  }
  setStale(false);
}

// settings refused while a problem is shown: the problem stays, dimmed, under a line saying
// it is the last one generated, until the settings are fixed
function setStale(stale) {
  $("problem").classList.toggle("stale", stale);
  $("stale-note").hidden = !stale;
}

function refuseSettings(problem) {
  const control = generatorControl(problem.pointer || "");
  showError(generateError, control, problem);
  if (control !== $("generate")) control.focus();
  setStale(!$("problem").hidden);
}

async function generate() {
  const latest = generations();
  clearGeneratorErrors();
  if (controls.seed.value.trim() === "") {
    // a seed the student can see and share: the same seed and settings give the same tree
    controls.seed.value = String(Math.floor(Math.random() * 1_000_000));
  }
  try {
    checkSettings();
  } catch (problem) {
    refuseSettings(problem); // (an answer still on its way was dropped above: latest())
    return;
  }
  keepInUrl(settingsState());
  const body = generatorBody();
  try {
    const generated = await (await post("/v1/problems/generate", body)).json();
    const problem = generated.problem;
    const request = { tree: problem.tree, root: problem.root, algorithm: "none", format: "svg" };
    const svg = await (await post("/v1/trees/render", request)).text();
    // a newer problem was asked for while this one was on its way (the page's own, say,
    // and then the student's): the newer one is shown, whichever answer comes last
    if (!latest()) return;
    current = problem;
    drawing.innerHTML = svg; // the server's own SVG: every text in it is escaped there
    setUp(body.seed);
  } catch (problem) {
    if (!latest()) return;
    refuseSettings(problem);
  }
}

// the problem without its answer, for a handout: drawn by the server with bare: true (the
// tree, its kinds and leaf values only), never from the page's drawing and its marks
async function exportProblem(format) {
  clearError($("export-error"), null);
  try {
    const body = { tree: current.tree, root: current.root, format, bare: true };
    await downloadDrawing(body, `practice-seed-${controls.seed.value}.${format === "tikz" ? "tex" : format}`);
  } catch (problem) {
    showError($("export-error"), null, problem);
  }
}

// -- the answer form -------------------------------------------------------------------

const path = (id) => id.split(".").slice(1).map(Number);

// depth-first, children left to right: the order the search visits them
function searchOrder(a, b) {
  const [x, y] = [path(a.id), path(b.id)];
  for (let i = 0; i < Math.min(x.length, y.length); i += 1) {
    if (x[i] !== y[i]) return x[i] - y[i];
  }
  return x.length - y.length;
}

function kindOf(element) {
  return ["max", "min", "chance", "leaf"].find((kind) => element.classList.contains(kind));
}

function statement(seed) {
  if (!isAlphaBeta()) {
    return (
      `Seed ${seed}: an expectimax problem. MAX (and MIN) nodes, the triangles, take their ` +
      "best child; chance nodes, the circles, average their outcomes weighted by the " +
      "probabilities on their edges. Give every node's value exactly (a fraction such as " +
      "19/3 where needed) and the best move at the root."
    );
  }
  const rule = current.prune_on_equality
    ? "pruning when alpha >= beta (AIMA)"
    : "pruning only when alpha > beta (CS188)";
  return (
    `Seed ${seed}: run alpha-beta from the MAX root, children left to right, ${rule}. ` +
    "Give the value the search returns at each node it visits (a node cut off early returns " +
    "the v it had when it stopped); leave empty the nodes it never reaches, and mark every " +
    "leaf it never evaluates."
  );
}

function nodeRow(node) {
  const row = document.createElement("div");
  row.className = "node-row";
  const label = document.createElement("label");
  const input = document.createElement("input");
  const error = document.createElement("span");
  input.id = `value-${node.id}`;
  input.dataset.nodeId = node.id;
  input.dataset.testid = `value-${node.id}`;
  input.type = "text";
  input.inputMode = "decimal";
  input.autocomplete = "off";
  input.setAttribute("aria-describedby", `${input.id}-error`);
  label.htmlFor = input.id;
  label.textContent = `${node.id} (${KINDS[node.kind]})`;
  error.id = `${input.id}-error`;
  error.className = "error";
  error.setAttribute("role", "alert");
  error.hidden = true;
  row.append(label, input, error);
  node.input = input;
  node.error = error;
  return row;
}

function setUp(seed) {
  nodes = [...drawing.querySelectorAll("[data-node-id]")]
    .map((element) => ({ id: element.dataset.nodeId, kind: kindOf(element), element }))
    .sort(searchOrder);
  marked = new Set();
  const internal = nodes.filter((node) => node.kind !== "leaf");
  $("node-values").replaceChildren(...internal.map(nodeRow));
  $("values-hint").textContent = isAlphaBeta()
    ? "Leave a node empty when alpha-beta never reaches it."
    : "Integers, decimals or fractions (19/3).";
  const choices = internal.length ? nodes.filter((node) => path(node.id).length === 1) : [];
  const none = new Option("(choose a move)", "");
  bestMove.replaceChildren(none, ...choices.map((node) => new Option(node.id, node.id)));
  $("pruning").hidden = !isAlphaBeta();
  for (const node of nodes) {
    if (node.kind === "leaf") prepareLeaf(node);
    else node.element.addEventListener("click", () => node.input.focus());
  }
  $("statement").textContent = statement(seed);
  $("show-solution").href = solutionLink();
  showMarked();
  clearGrade();
  clearAnswerErrors();
  $("problem").hidden = false;
}

function prepareLeaf(node) {
  if (!isAlphaBeta()) return;
  const value = node.element.querySelector(".value");
  const element = node.element;
  element.setAttribute("tabindex", "0");
  element.setAttribute("role", "button");
  element.setAttribute("aria-pressed", "false");
  element.setAttribute(
    "aria-label",
    `leaf ${node.id}${value ? `, value ${value.textContent}` : ""}: mark as pruned`,
  );
  element.addEventListener("click", () => toggle(node));
  element.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    event.preventDefault(); // Space would scroll the page
    toggle(node);
  });
}

function toggle(node) {
  if (marked.has(node.id)) marked.delete(node.id);
  else marked.add(node.id);
  const on = marked.has(node.id);
  node.element.classList.toggle("marked", on);
  node.element.setAttribute("aria-pressed", String(on));
  showMarked();
}

function markedLeaves() {
  return nodes.filter((node) => marked.has(node.id)).map((node) => node.id);
}

function showMarked() {
  const leaves = markedLeaves();
  $("marked").textContent = leaves.length
    ? `Marked as pruned (${leaves.length}): ${leaves.join(", ")}`
    : "No leaf marked as pruned.";
}

// the link the trees page restores (its URL-hash state); it solves the tree on load
function solutionLink() {
  const state = {
    tree: JSON.stringify(current.tree),
    algorithm: current.type,
    depth: "",
    equality: current.prune_on_equality ?? true,
  };
  return `/#${encodeURIComponent(JSON.stringify(state))}`;
}

// -- checking ----------------------------------------------------------------------------

function studentAnswer() {
  const answer = { nodes: {} };
  for (const node of nodes) {
    const text = node.input ? node.input.value.trim() : "";
    if (text !== "") answer.nodes[node.id] = text;
  }
  if (answer.nodes.root !== undefined) answer.value = answer.nodes.root;
  if (bestMove.value !== "") answer.best_move = bestMove.value;
  if (isAlphaBeta()) answer.pruned_leaves = markedLeaves();
  return answer;
}

// every part is graded, answered or not, so that every attempt has the same maximum
function rubric() {
  const points = { value: 1, best_move: 1, nodes: 4 };
  if (isAlphaBeta()) points.pruned_leaves = 2;
  return { points };
}

// where a refused answer's pointer lands: the node's own input, else the part it names
function answerErrorFor(pointer) {
  const byNode = nodes.find((node) => node.input && pointer === `/answer/nodes/${node.id}`);
  if (byNode) return [byNode.error, byNode.input];
  const root = nodes.find((node) => node.id === "root");
  if (pointer === "/answer/value" && root) return [root.error, root.input];
  if (pointer.startsWith("/answer/best_move")) return [$("best-move-error"), bestMove];
  if (pointer.startsWith("/answer/pruned_leaves")) return [$("marked-error"), null];
  return [answerError, $("check")];
}

function clearAnswerErrors() {
  for (const node of nodes) if (node.input) clearError(node.error, node.input);
  clearError($("best-move-error"), bestMove);
  clearError($("marked-error"), null);
  clearError(answerError, $("check"));
}

async function check() {
  clearAnswerErrors();
  clearGrade(); // a stale score never stands beside a new answer
  // the page asks for the parts it has inputs for (the generated problem asks for the
  // principal variation too, which the page does not collect)
  const marks = rubric();
  const problem = { ...current, questions: Object.keys(marks.points) };
  const body = { problem, answer: studentAnswer(), rubric: marks };
  try {
    const grade = await (await post("/v1/grade", body)).json();
    showGrade(grade);
    // a part that cannot be read scores 0 with its own error; the rest is graded
    let first = null;
    for (const error of grade.errors || []) {
      const [element, control] = answerErrorFor(error.pointer);
      showError(element, control, { detail: error.message, pointer: error.pointer });
      first = first || control;
    }
    if (first) first.focus();
  } catch (problem) {
    clearGrade();
    const [element, control] = answerErrorFor(problem.pointer || "");
    showError(element, control, problem);
    if (control) control.focus();
  }
}

// scores are decimals (the API's JSON numbers): two places at most, no trailing zeros
const score = (number) => String(Number(number.toFixed(2)));

const MARKS = ["wrong", "missed", "wrongly-marked"];

function clearGrade() {
  $("grade").hidden = true;
  for (const node of nodes) {
    node.element.classList.remove(...MARKS);
    if (node.input) node.input.removeAttribute("aria-invalid");
  }
}

function flag(id, mark) {
  const node = nodes.find((candidate) => candidate.id === id);
  if (node === undefined) return;
  node.element.classList.add(mark);
  if (node.input) node.input.setAttribute("aria-invalid", "true");
}

// what each part says is wrong, as [node, mark in the drawing, words]
function mistakes(items) {
  const found = [];
  const byField = Object.fromEntries(items.map((item) => [item.field, item]));
  const values = byField.nodes;
  if (values) {
    for (const id of values.wrong) found.push([id, "wrong", "wrong value"]);
    for (const id of values.extra) found.push([id, "wrong", "never reached, so it has no value"]);
    for (const id of values.missing) found.push([id, "wrong", "no value given"]);
  }
  const pruned = byField.pruned_leaves;
  if (pruned) {
    for (const id of pruned.missing) found.push([id, "missed", "pruned, but not marked"]);
    for (const id of pruned.extra) found.push([id, "wrongly-marked", "marked, but evaluated"]);
  }
  if (byField.best_move && !byField.best_move.correct) {
    const words = bestMove.value ? "not the best move at the root" : "no best move chosen";
    found.push([bestMove.value || "root", null, words]);
  }
  return found;
}

function showGrade(grade) {
  clearGrade();
  $("score").textContent = `${score(grade.score)} / ${score(grade.max_score)}`;
  const rows = grade.items.map((item) => {
    const row = document.createElement("tr");
    row.dataset.field = item.field;
    for (const text of [
      PARTS[item.field] || item.field,
      `${score(item.score)} / ${score(item.max_score)}`,
      item.feedback,
    ]) {
      const cell = document.createElement("td");
      cell.textContent = text;
      row.append(cell);
    }
    return row;
  });
  $("parts").tBodies[0].replaceChildren(...rows);
  const found = mistakes(grade.items);
  for (const [id, mark] of found) if (mark) flag(id, mark);
  const lines = found.map(([id, , words]) => {
    const line = document.createElement("li");
    line.dataset.nodeId = id;
    line.textContent = `${id}: ${words}`;
    return line;
  });
  if (lines.length === 0) {
    const line = document.createElement("li");
    line.textContent = "Nothing: every part is right.";
    lines.push(line);
  }
  $("wrong").replaceChildren(...lines);
  const departure = grade.diagnosis.find((item) => item.code === "first_departure");
  $("departure").textContent = departure ? `First departure: ${departure.message}` : "";
  const others = grade.diagnosis.filter((item) => item.code !== "first_departure");
  $("diagnosis").replaceChildren(
    ...others.map((item) => {
      const line = document.createElement("li");
      line.dataset.code = item.code;
      line.textContent = `${item.message} (${item.code})`;
      return line;
    }),
  );
  $("grade").hidden = false;
}

// -- wiring -----------------------------------------------------------------------------

function conventionApplies() {
  const applies = !controls.chance.checked;
  controls.convention.disabled = !applies;
  controls.least.disabled = !applies;
}

$("generate-form").addEventListener("submit", (event) => {
  event.preventDefault();
  generate();
});
$("answer-form").addEventListener("submit", (event) => {
  event.preventDefault();
  check();
});
$("clear-marks").addEventListener("click", () => {
  for (const node of nodes) {
    if (marked.has(node.id)) toggle(node);
  }
});
controls.chance.addEventListener("change", conventionApplies);
// fixing a refused setting clears its error (and the dimming of the last problem)
for (const control of Object.values(controls)) {
  control.addEventListener("input", () => {
    if (!generateError.hidden) clearGeneratorErrors();
  });
}
$("export-tikz").addEventListener("click", () => exportProblem("tikz"));
$("export-svg").addEventListener("click", () => exportProblem("svg"));

const restored = restoreSettings();
conventionApplies();
if (restored) generate();
