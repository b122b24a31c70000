// The matrix-game page: a two-player game entered in an editable grid or pasted as the JSON
// that POST /v1/matrices/analyze takes (the two stay in step), answered by that endpoint.
// The server computes every answer and draws the picture; this module only shows them.

import { $, clearError, download, keepInUrl, newestOnly, pngOf, post, readJson, showError, stateFromUrl } from "./common.js";

// the parts the endpoint computes by default (analysis/equilibria/report.py), plus the plot
const DEFAULT_PARTS = [
  "best_responses",
  "pure_equilibria",
  "dominance",
  "equilibria",
  "zero_sum",
  "security_levels",
  "explanations",
];
const MAX_ENUMERATED = 15; // equilibria are enumerated up to this many strategies per player
const GAME_FIELDS = ["A", "B", "payoffs", "payoff_arrays", "zero_sum", "labels"];
const PLAYERS = ["row player", "column player"];

const EXAMPLES = [
  {
    name: "Prisoner's dilemma",
    body: {
      payoffs: [[[3, 3], [0, 5]], [[5, 0], [1, 1]]],
      labels: [["Cooperate", "Defect"], ["Cooperate", "Defect"]],
    },
  },
  {
    name: "Battle of the sexes",
    body: {
      payoffs: [[[2, 1], [0, 0]], [[0, 0], [1, 2]]],
      labels: [["Opera", "Football"], ["Opera", "Football"]],
    },
  },
  {
    name: "Matching pennies (zero-sum)",
    body: { A: [[1, -1], [-1, 1]], zero_sum: true, labels: [["Heads", "Tails"], ["Heads", "Tails"]] },
  },
  {
    name: "Rock-paper-scissors (zero-sum)",
    body: {
      A: [[0, -1, 1], [1, 0, -1], [-1, 1, 0]],
      zero_sum: true,
      labels: [["Rock", "Paper", "Scissors"], ["Rock", "Paper", "Scissors"]],
    },
  },
  {
    name: "Stag hunt",
    body: { payoffs: [[[4, 4], [0, 3]], [[3, 0], [3, 3]]], labels: [["Stag", "Hare"], ["Stag", "Hare"]] },
  },
  {
    name: "Chicken",
    body: {
      payoffs: [[[0, 0], [-1, 1]], [[1, -1], [-10, -10]]],
      labels: [["Swerve", "Straight"], ["Swerve", "Straight"]],
    },
  },
  {
    name: "Dominance solvable 2x3 (Gibbons, fig. 1.1.1)",
    body: {
      payoffs: [[[1, 0], [1, 2], [0, 1]], [[0, 3], [0, 1], [2, 0]]],
      labels: [["Up", "Down"], ["Left", "Middle", "Right"]],
    },
  },
  {
    name: "Zero-sum 2x3 (maxmin on the lower envelope)",
    body: { A: [[2, -1, 0], [-1, 1, 3]], zero_sum: true, labels: [["U", "D"], ["L", "M", "R"]] },
  },
];

const form = $("matrix-form");
const input = $("matrix-input");
const table = $("grid");
const gridError = $("grid-error");
const jsonError = $("matrix-error");
const gridNote = $("grid-note");
const zeroSum = $("zero-sum");
const plot = $("plot");

// the grid: strategy names and each cell's text ("a, b", or "a" when zero-sum); set at the end
let grid = null;
// fields of the pasted body the grid does not show (include, arithmetic, ...), kept as they are
let extra = {};
let svgText = "";

// -- numbers and the two forms of the game ---------------------------------------------

// a cell's number: a JSON number when it reads back as typed, else the text itself (the
// API reads "2/3" and "0.10" exactly, and names the cell when the text is no number)
function number(text) {
  const trimmed = text.trim();
  const value = Number(trimmed);
  return /^-?\d/.test(trimmed) && String(value) === trimmed ? value : trimmed;
}

const shown = (value) => (typeof value === "string" ? value : JSON.stringify(value));

function negated(text) {
  const trimmed = text.trim();
  if (trimmed === "0" || trimmed === "") return trimmed;
  return trimmed.startsWith("-") ? trimmed.slice(1) : `-${trimmed}`;
}

const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);
const isScalar = (value) => typeof value === "number" || typeof value === "string";

function isMatrix(value, cell) {
  return (
    Array.isArray(value) &&
    value.length > 0 &&
    value.every((row) => Array.isArray(row) && row.length === value[0].length && row.length > 0) &&
    value.every((row) => row.every(cell))
  );
}

function names(given, count, prefix) {
  return Array.from({ length: count }, (_, k) =>
    Array.isArray(given) && typeof given[k] === "string" ? given[k] : `${prefix}${k + 1}`,
  );
}

// the grid showing a request body, or null when the grid cannot show it (not two players)
function gridFromBody(body) {
  if (!isObject(body)) return null;
  let cells;
  let sum = false;
  if (isMatrix(body.A, isScalar) && body.B === undefined && body.zero_sum === true) {
    sum = true;
    cells = body.A.map((row) => row.map(shown));
  } else if (isMatrix(body.A, isScalar) && isMatrix(body.B, isScalar)) {
    if (body.B.length !== body.A.length || body.B[0].length !== body.A[0].length) return null;
    cells = body.A.map((row, i) => row.map((a, j) => `${shown(a)}, ${shown(body.B[i][j])}`));
  } else if (
    body.A === undefined &&
    isMatrix(body.payoffs, (cell) => Array.isArray(cell) && cell.length === 2 && cell.every(isScalar))
  ) {
    cells = body.payoffs.map((row) => row.map((cell) => cell.map(shown).join(", ")));
  } else {
    return null;
  }
  const labels = Array.isArray(body.labels) ? body.labels : [];
  return {
    zeroSum: sum,
    rows: names(labels[0], cells.length, "R"),
    cols: names(labels[1], cells[0].length, "C"),
    cells,
  };
}

function bodyFromGrid() {
  const body = {};
  if (grid.zeroSum) {
    body.A = grid.cells.map((row) => row.map(number));
    body.zero_sum = true;
  } else {
    body.payoffs = grid.cells.map((row) => row.map((cell) => cell.split(",").map(number)));
  }
  body.labels = [[...grid.rows], [...grid.cols]];
  return { ...body, ...extra };
}

// one line per matrix row, so the JSON reads like the grid
function formatBody(body) {
  const lines = Object.entries(body).map(([key, value]) => {
    const matrix = ["A", "B", "payoffs"].includes(key) && Array.isArray(value);
    const text = matrix
      ? `[\n    ${value.map((row) => JSON.stringify(row)).join(",\n    ")}\n  ]`
      : JSON.stringify(value);
    return `  ${JSON.stringify(key)}: ${text}`;
  });
  return `{\n${lines.join(",\n")}\n}`;
}

// -- the grid --------------------------------------------------------------------------

function labelled(id, text, value, onInput, className) {
  const label = document.createElement("label");
  label.htmlFor = id;
  label.className = "visually-hidden";
  label.textContent = text;
  const field = document.createElement("input");
  field.type = "text";
  field.id = id;
  field.dataset.testid = id;
  field.className = className;
  field.value = value;
  field.spellcheck = false;
  field.addEventListener("input", () => {
    onInput(field.value);
    gridEdited();
  });
  return [label, field];
}

function renderGrid() {
  const head = document.createElement("tr");
  const corner = document.createElement("th");
  corner.textContent = "row \\ column";
  corner.scope = "col";
  head.append(corner);
  grid.cols.forEach((name, j) => {
    const cell = document.createElement("th");
    cell.scope = "col";
    cell.append(...labelled(`col-label-${j}`, `Name of column ${j + 1}`, name, (v) => (grid.cols[j] = v), "name"));
    head.append(cell);
  });
  table.tHead.replaceChildren(head);
  const rows = grid.cells.map((cells, i) => {
    const row = document.createElement("tr");
    const name = document.createElement("th");
    name.scope = "row";
    name.append(...labelled(`row-label-${i}`, `Name of row ${i + 1}`, grid.rows[i], (v) => (grid.rows[i] = v), "name"));
    row.append(name);
    cells.forEach((text, j) => {
      const cell = document.createElement("td");
      const what = grid.zeroSum
        ? `Row player's payoff in row ${i + 1}, column ${j + 1}`
        : `Payoffs in row ${i + 1}, column ${j + 1}: row player's, column player's`;
      cell.append(...labelled(`cell-${i}-${j}`, what, text, (v) => (grid.cells[i][j] = v), "payoff"));
      row.append(cell);
    });
    return row;
  });
  table.tBodies[0].replaceChildren(...rows);
  zeroSum.checked = grid.zeroSum;
  $("remove-row").disabled = grid.rows.length <= 1;
  $("remove-column").disabled = grid.cols.length <= 1;
}

function gridEdited() {
  input.value = formatBody(bodyFromGrid());
  clearErrors();
  markStale();
}

// the JSON was edited: show it in the grid when the grid can show it
function jsonEdited() {
  let body;
  try {
    body = JSON.parse(input.value);
  } catch {
    return; // still being typed; Solve says what is wrong
  }
  const shownGrid = gridFromBody(body);
  gridNote.hidden = shownGrid !== null;
  table.closest("fieldset").disabled = shownGrid === null;
  zeroSum.disabled = shownGrid === null;
  if (shownGrid === null) {
    gridNote.textContent =
      "The grid shows two-player games given as payoffs, A and B, or A with zero_sum; " +
      "this game is solved from the JSON.";
    return;
  }
  grid = shownGrid;
  extra = Object.fromEntries(Object.entries(body).filter(([key]) => !GAME_FIELDS.includes(key)));
  renderGrid();
}

function load(body) {
  input.value = formatBody(body);
  jsonEdited();
}

function resize(rows, cols) {
  const blank = grid.zeroSum ? "0" : "0, 0";
  grid.rows = names(grid.rows.slice(0, rows), rows, "R");
  grid.cols = names(grid.cols.slice(0, cols), cols, "C");
  grid.cells = Array.from({ length: rows }, (_, i) =>
    Array.from({ length: cols }, (_, j) => grid.cells[i]?.[j] ?? blank),
  );
  renderGrid();
  gridEdited();
}

function toggleZeroSum() {
  grid.zeroSum = zeroSum.checked;
  grid.cells = grid.cells.map((row) =>
    row.map((cell) => (grid.zeroSum ? cell.split(",")[0].trim() : `${cell.trim()}, ${negated(cell)}`)),
  );
  renderGrid();
  gridEdited();
}

// -- solving ---------------------------------------------------------------------------

// the shape of the posted game, or null when it cannot be read (the API will say why)
function shapeOf(body) {
  if (Array.isArray(body.A) && Array.isArray(body.A[0])) return [body.A.length, body.A[0].length];
  if (Array.isArray(body.payoffs) && Array.isArray(body.payoffs[0])) {
    const cell = body.payoffs[0][0];
    if (Array.isArray(cell) && cell.length === 2 && !Array.isArray(cell[0])) {
      return [body.payoffs.length, body.payoffs[0].length];
    }
  }
  return null;
}

// The cells of a payoffs array must each list one payoff per player. The API refuses a
// ragged array where it first differs from the first cell, which blames a good neighbour
// when the bad cell is the first ("2; x" is one entry, not two), so the page finds the cell
// that does not have as many entries as there are players (the array's dimensions) itself.
function checkCells(body) {
  if (!Array.isArray(body.payoffs)) return;
  let players = 0;
  for (let part = body.payoffs; Array.isArray(part) && Array.isArray(part[0]); part = part[0]) players += 1;
  if (players < 2) return; // not an array of cells: the API says what is wrong
  const walk = (part, pointer, depth) => {
    if (!Array.isArray(part)) return;
    if (depth < players) {
      part.forEach((inner, k) => walk(inner, `${pointer}/${k}`, depth + 1));
      return;
    }
    if (part.length === players) return;
    const entry = part.length === 1 && typeof part[0] === "string" ? `"${part[0]}" is` : `this cell has ${part.length} entr${part.length === 1 ? "y" : "ies"},`;
    const example = players === 2 ? ', as in "2, 1"' : "";
    const words =
      players === 2 && gridNote.hidden
        ? `${entry} not two payoffs: write the row player's, a comma, then the column player's${example}`
        : `${entry} not ${players} payoffs, one per player${example}`;
    throw { detail: words, pointer };
  };
  walk(body.payoffs, "/payoffs", 0);
}

// unless the body names its parts, ask for the default ones, the picture where there is one
// and the correlated equilibria when the box is ticked
function withParts(body) {
  if (body.include !== undefined) return body;
  const shape = shapeOf(body);
  const correlated = $("correlated").checked ? ["correlated_equilibria"] : [];
  if (correlated.length === 0 && (shape === null || !shape.includes(2))) return body;
  // a game the page cannot size (more players, say) gets no mixed equilibria asked by name
  const enumerated = shape !== null && Math.max(...shape) <= MAX_ENUMERATED;
  const parts = DEFAULT_PARTS.filter(
    (part) => enumerated || !["equilibria", "explanations"].includes(part),
  );
  const picture = shape !== null && shape.includes(2) ? ["plot"] : [];
  return { ...body, include: [...parts, ...picture, ...correlated] };
}

function clearErrors() {
  clearError(gridError, null);
  clearError(jsonError, input);
  for (const field of table.querySelectorAll("[aria-invalid]")) {
    field.removeAttribute("aria-invalid");
    field.removeAttribute("aria-describedby");
  }
}

// the grid control a pointer names: a cell, a strategy name, or null
function controlAt(pointer) {
  const cell = pointer.match(/^\/(?:payoffs|A|B)\/(\d+)\/(\d+)(?:\/|$)/);
  if (cell) return $(`cell-${cell[1]}-${cell[2]}`);
  const name = pointer.match(/^\/labels\/([01])\/(\d+)$/);
  if (name) return $(`${name[1] === "0" ? "row" : "col"}-label-${name[2]}`);
  return null;
}

// the analysis of an older game never stands under an error
function clearResults() {
  $("results").hidden = true;
  $("results").classList.remove("stale");
  $("stale-note").hidden = true;
  for (const list of [$("equilibria").tBodies[0], $("indifference"), $("dominance-steps"), $("security"), $("correlated-table").tBodies[0], $("notes")]) {
    list.replaceChildren();
  }
  plot.replaceChildren();
  svgText = "";
}

// an edit makes the analysis shown out of date until Solve: dimmed, and said so
function markStale() {
  if ($("results").hidden) return;
  $("results").classList.add("stale");
  $("stale-note").hidden = false;
}

function fail(problem) {
  clearResults();
  const pointer = (problem && problem.pointer) || "";
  const inGrid = gridNote.hidden && /^\/(payoffs|A|B|labels|zero_sum)(\/|$)/.test(pointer);
  if (!inGrid) {
    showError(jsonError, input, problem);
    return;
  }
  const control = controlAt(pointer);
  showError(gridError, control, problem);
  if (control) {
    control.setAttribute("aria-describedby", "grid-error");
    control.focus();
  }
}

// a game solved while an older one is still on its way wins: the older answer is dropped
const solves = newestOnly();

async function solve() {
  const latest = solves(); // (first: an input refused here also drops an older answer)
  clearErrors();
  let body;
  try {
    body = readJson(input.value, "", "the request body");
    if (!isObject(body)) throw { detail: "the request body must be a JSON object", pointer: "" };
    checkCells(body);
  } catch (problem) {
    fail(problem);
    return;
  }
  remember();
  try {
    const report = await (await post("/v1/matrices/analyze", withParts(body))).json();
    if (latest()) show(report);
  } catch (problem) {
    if (latest()) fail(problem);
  }
}

// -- the answer ------------------------------------------------------------------------

function element(tag, text, className) {
  const made = document.createElement(tag);
  if (text !== undefined) made.textContent = text;
  if (className) made.className = className;
  return made;
}

// exact strings where the API gives them (docs/numbers.md), else the JSON numbers
const exactList = (entry, name) => (entry[`${name}_exact`] ?? entry[name]).map(String);
const exactOne = (entry, name) => String(entry[`${name}_exact`] ?? entry[name]);

function mixText(probabilities, labels) {
  const terms = probabilities
    .map((p, k) => [p, labels[k]])
    .filter(([p]) => p !== "0")
    .map(([p, label]) => (p === "1" ? label : `${p} ${label}`));
  return terms.join(" + ");
}

function strategyCell(probabilities, labels) {
  const cell = element("td");
  cell.append(element("span", `(${probabilities.join(", ")})`, "vector"), " ");
  cell.append(element("span", mixText(probabilities, labels), "mix"));
  return cell;
}

// the order the equilibria are listed in, said on the page: pure ones first, then by how
// many strategies are played (the supports' sizes), then by the rows played, then the
// columns, in the grid's order; an equilibrium's number is its place in this list
const ORDER_WORDS =
  "Listed pure equilibria first, then mixed ones by how many strategies they mix; " +
  "ties in the order of the rows, then the columns.";

const support = (probabilities) =>
  probabilities.flatMap((p, k) => (p === "0" || p === 0 ? [] : [k]));

function compareLists(x, y) {
  for (let k = 0; k < Math.min(x.length, y.length); k += 1) if (x[k] !== y[k]) return x[k] - y[k];
  return x.length - y.length;
}

// indices into report.equilibria in the order shown
function listingOrder(equilibria) {
  const keys = equilibria.map((e) => [support(exactList(e, "row")), support(exactList(e, "col"))]);
  const size = ([row, col]) => row.length + col.length;
  return equilibria
    .map((_, k) => k)
    .sort((a, b) => {
      const [x, y] = [keys[a], keys[b]];
      return size(x) - size(y) || compareLists(x[0], y[0]) || compareLists(x[1], y[1]) || a - b;
    });
}

// number shown for each of report.equilibria (1-based, as listed)
let shownNumber = [];

function showEquilibria(report) {
  const body = $("equilibria").tBodies[0];
  const rows = [];
  const labels = report.labels;
  const headings = $("equilibria").tHead.rows[0].cells;
  headings[2].textContent = report.players > 2 ? "player 1" : "row player";
  headings[3].textContent = report.players > 2 ? `players 2 to ${report.players}` : "column player";
  if (Array.isArray(report.equilibria)) {
    const order = listingOrder(report.equilibria);
    shownNumber = [];
    order.forEach((original, place) => (shownNumber[original] = place + 1));
    order.forEach((original, index) => {
      const e = report.equilibria[original];
      const row = exactList(e, "row");
      const col = exactList(e, "col");
      const pure = [...row, ...col].every((p) => p === "0" || p === "1");
      const line = element("tr");
      line.dataset.testid = "equilibrium";
      line.append(element("td", String(index + 1)), element("td", pure ? "pure" : "mixed"));
      line.append(strategyCell(row, labels[0]), strategyCell(col, labels[1]));
      line.append(element("td", exactList(e, "payoffs").join(", "), "payoffs"));
      rows.push(line);
    });
    const count = report.equilibria.length;
    const arithmetic = report.equilibria_arithmetic === "exact" ? "exact" : "floating point";
    let summary = `${count} extreme equilibri${count === 1 ? "um" : "a"} (${arithmetic}).`;
    if (count > 1) summary += ` ${ORDER_WORDS}`;
    for (const component of report.components || []) {
      if (component.continuum) {
        const members = component.equilibria
          .map((k) => shownNumber[k])
          .sort((a, b) => a - b)
          .map((n) => `#${n}`)
          .join(", ");
        summary += ` Degenerate game: ${members} lie in a continuum of equilibria (every mix of extreme strategies in one subset is an equilibrium).`;
      }
    }
    $("equilibria-summary").textContent = summary;
  } else {
    const pure = [...(report.pure_equilibria || [])].sort((a, b) => compareLists(a.profile, b.profile));
    pure.forEach((e, index) => {
      const line = element("tr");
      line.dataset.testid = "equilibrium";
      line.append(element("td", String(index + 1)), element("td", "pure"));
      line.append(element("td", e.labels[0]), element("td", e.labels.slice(1).join(", ")));
      line.append(element("td", exactList(e, "payoffs").join(", "), "payoffs"));
      rows.push(line);
    });
    $("equilibria-summary").textContent =
      `${rows.length} pure equilibri${rows.length === 1 ? "um" : "a"}, listed in the order of the strategies ` +
      `(player 1's first); mixed equilibria are computed for two-player games of at most ${MAX_ENUMERATED} strategies per player.`;
  }
  body.replaceChildren(...rows);
  const value = $("zero-sum-value");
  value.hidden = !report.zero_sum;
  if (report.zero_sum) {
    const z = report.zero_sum;
    value.textContent =
      `Zero-sum: the value of the game is ${exactOne(z, "value")}; the row player guarantees it with ` +
      `${mixText(exactList(z, "row_strategy"), labels[0])}, the column player holds the row player ` +
      `to it with ${mixText(exactList(z, "col_strategy"), labels[1])}.`;
  }
}

function showIndifference(report) {
  const box = $("indifference");
  const blocks = [];
  const equilibria = report.equilibria || [];
  listingOrder(equilibria).forEach((index) => {
    const e = equilibria[index];
    if (!e.explanation || e.explanation.length === 0) return;
    const block = element("div", undefined, "explanation");
    block.append(element("h4", `Equilibrium #${shownNumber[index]}`));
    for (const part of e.explanation) {
      block.append(element("p", part.words));
      const equations = element("p", undefined, "equations");
      equations.append("Indifference: ");
      part.equations_text.forEach((text, k) => {
        if (k > 0) equations.append("; ");
        equations.append(element("code", text));
      });
      equations.append(", so ", element("code", part.solution_text), ".");
      block.append(equations);
    }
    blocks.push(block);
  });
  box.replaceChildren(...blocks);
  $("indifference-box").hidden = blocks.length === 0;
}

function showDominance(report) {
  const steps = report.dominance ? report.dominance.steps : [];
  $("dominance-steps").replaceChildren(...steps.map((step) => element("li", step.explanation)));
  const result = $("dominance-result");
  if (!report.dominance) {
    result.textContent = "Not computed.";
    return;
  }
  const left = report.dominance.reduced.labels;
  const kind = report.dominance.weak ? "weakly or strictly" : "strictly";
  if (steps.length === 0) {
    result.textContent = `No strategy is ${kind} dominated, by a pure or a mixed strategy.`;
  } else if (left.every((alive) => alive.length === 1)) {
    result.textContent = `Dominance solvable: only (${left.map((alive) => alive[0]).join(", ")}) survives.`;
  } else {
    result.textContent =
      "Surviving strategies: " + left.map((alive, p) => `${PLAYERS[p] ?? `player ${p + 1}`}: ${alive.join(", ")}`).join("; ") + ".";
  }
}

function showSecurity(report) {
  const items = (report.security_levels || []).map((level) => {
    const who = PLAYERS[level.player] ?? `player ${level.player + 1}`;
    let text = `${who}: ${exactOne(level, "pure")} with a pure strategy (${level.pure_strategies.join(", ")})`;
    if (level.mixed !== null) {
      const mix = mixText(exactList(level, "strategy"), report.labels[level.player]);
      text += `, ${exactOne(level, "mixed")} with a mixed one (${mix})`;
    }
    return element("li", `${text}.`);
  });
  $("security").replaceChildren(...items);
}

// one row per welfare-extreme (coarse) correlated equilibrium, numbers exact where the API
// gives them
const CORRELATED_ROWS = [
  ["correlated, highest total", (c) => c.max_welfare],
  ["correlated, lowest total", (c) => c.min_welfare],
  ["coarse, highest total", (c) => c.coarse.max_welfare],
  ["coarse, lowest total", (c) => c.coarse.min_welfare],
];

function bindingText(report, constraint) {
  const who = PLAYERS[constraint.player] ?? `player ${constraint.player + 1}`;
  return constraint.recommended === null
    ? `${who}: ${constraint.deviation_label} regardless`
    : `${who} told ${constraint.recommended_label}: ${constraint.deviation_label}`;
}

function showCorrelated(report) {
  const found = report.correlated_equilibria;
  $("correlated-box").hidden = !found;
  if (!found) return;
  const rows = CORRELATED_ROWS.map(([name, pick]) => {
    const answer = pick(found);
    const row = element("tr");
    row.dataset.testid = "correlated-row";
    row.append(element("th", name + (answer.exact ? "" : " (floating point)")));
    row.lastChild.scope = "row";
    const cells = answer.distribution.map((entry) => `${exactOne(entry, "probability")} (${entry.labels.join(", ")})`);
    row.append(element("td", cells.join(" + "), "distribution"));
    row.append(element("td", exactList(answer, "payoffs").join(", "), "payoffs"));
    row.append(element("td", exactOne(answer, "welfare"), "welfare"));
    row.append(element("td", answer.binding.map((b) => bindingText(report, b)).join("; ") || "none", "binding"));
    return row;
  });
  $("correlated-table").tBodies[0].replaceChildren(...rows);
}

function showPlot(report) {
  svgText = report.plot || "";
  $("plot-box").hidden = svgText === "";
  plot.innerHTML = svgText; // the server's own SVG: matplotlib escapes every text in it
  if (svgText === "") return;
  const [rows, cols] = report.labels;
  $("plot-reading").textContent = plot.querySelector("#row-best-response")
    ? `Best-response diagram: across, p, the probability that the row player plays ${rows[0]}; up, q, ` +
      `the probability that the column player plays ${cols[0]}. The wide blue staircase is the row ` +
      `player's best response to each q, the orange one the column player's to each p; each jumps ` +
      `where that player is indifferent, and they cross exactly at the equilibria (red dots).`
    : `Payoff lines: each line is one pure strategy of the opponent, its payoff as the two-strategy ` +
      `player's probability t goes from 0 to 1. The thick grey line is the envelope (the best the ` +
      `opponent can do, or the worst it can inflict in a zero-sum game); the red dashed lines mark ` +
      `the equilibrium mixes, where the envelope changes line.`;
}

// the API's notes name its fields (docs/matrices.md); the page says the same in words, and
// leaves out what it shows elsewhere (a game that is not zero-sum has no value line)
function noteText(note) {
  if (note.startsWith("zero_sum is null")) return null;
  const skipped = note.match(/^equilibria skipped: more than (\d+) strategies per player/);
  if (skipped) {
    return `Mixed equilibria are not listed: they are enumerated for at most ${skipped[1]} strategies ` +
      'per player (add "lemke_howson" to "include" in the JSON to find one equilibrium).';
  }
  if (note.startsWith("equilibria skipped: mixed equilibria are computed for two players only")) {
    return "Only the pure equilibria are listed: mixed equilibria are computed for games of two players only.";
  }
  const mixed = note.match(/^dominance by mixed strategies not searched: more than (\d+) strategies/);
  if (mixed) {
    return `Dominance by mixed strategies was not searched (more than ${mixed[1]} strategies per ` +
      'player); add "mixed_dominance": true to the JSON to search it.';
  }
  if (note.startsWith("best_responses skipped")) return null; // the page does not list them
  return note;
}

function show(report) {
  showEquilibria(report);
  showIndifference(report);
  showDominance(report);
  showSecurity(report);
  showPlot(report);
  showCorrelated(report);
  $("notes").replaceChildren(...(report.notes || []).map(noteText).filter(Boolean).map((note) => element("li", note)));
  $("results").classList.remove("stale");
  $("stale-note").hidden = true;
  $("results").hidden = false;
}

// -- export and the link ---------------------------------------------------------------

async function exportPng() {
  try {
    download("game.png", await pngOf(svgText), "image/png"); // twice the SVG's size: sharp on a handout
  } catch (problem) {
    showError(jsonError, null, problem);
  }
}

function remember() {
  keepInUrl({ game: input.value });
}

function restoreFromUrl() {
  const state = stateFromUrl();
  if (state === null || typeof state.game !== "string") return false;
  input.value = state.game;
  jsonEdited();
  return true;
}

// -- wiring ----------------------------------------------------------------------------

const examples = $("example");
EXAMPLES.forEach((example, index) => {
  const option = element("option", example.name);
  option.value = String(index);
  examples.append(option);
});
examples.addEventListener("change", () => {
  if (examples.value === "") return;
  load(EXAMPLES[Number(examples.value)].body);
  solve();
});
form.addEventListener("submit", (event) => {
  event.preventDefault();
  solve();
});
input.addEventListener("input", () => {
  clearErrors();
  markStale();
  jsonEdited();
});
zeroSum.addEventListener("change", toggleZeroSum);
$("add-row").addEventListener("click", () => resize(grid.rows.length + 1, grid.cols.length));
$("remove-row").addEventListener("click", () => resize(grid.rows.length - 1, grid.cols.length));
$("add-column").addEventListener("click", () => resize(grid.rows.length, grid.cols.length + 1));
$("remove-column").addEventListener("click", () => resize(grid.rows.length, grid.cols.length - 1));
$("export-svg").addEventListener("click", () => download("game.svg", svgText, "image/svg+xml"));
$("export-png").addEventListener("click", exportPng);
$("copy-link").addEventListener("click", () => {
  remember();
  // the clipboard may be refused (an insecure origin); the address bar holds the link anyway
  navigator.clipboard?.writeText(location.href).catch(() => {});
});

if (restoreFromUrl()) {
  solve();
} else {
  load(EXAMPLES[0].body);
}
