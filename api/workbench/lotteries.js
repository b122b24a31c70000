// The lottery page: evaluate a lottery under a utility and draw it (the server computes every
// answer and draws every picture), and check a set of choices for expected-utility
// consistency. The URL keeps the input, so a link reproduces the page.

import { $, clearError, download, keepInUrl, newestOnly, pngOf, post, readJson, showError, stateFromUrl } from "./common.js";

const lotteryInput = $("lottery-input");
const utilityInput = $("utility-input");
const utilityPreset = $("utility-preset");
const wealthInput = $("wealth");
const plotKind = $("plot-kind");
const curve = $("curve");
const branchRows = $("branches").tBodies[0];
const choiceLotteries = $("choice-lotteries");
const choicesInput = $("choices");
const increasing = $("increasing");

const PRESETS = {
  allais: {
    lotteries: `{
  "1A": [{"p": 1, "x": 1000000}],
  "1B": [{"p": "0.89", "x": 1000000}, {"p": "0.01", "x": 0}, {"p": "0.10", "x": 5000000}],
  "2A": [{"p": "0.11", "x": 1000000}, {"p": "0.89", "x": 0}],
  "2B": [{"p": "0.10", "x": 5000000}, {"p": "0.90", "x": 0}]
}`,
    choices: "1A > 1B\n2B > 2A",
  },
  aima: {
    lotteries: `{
  "A": [{"p": "0.8", "x": 4000}, {"p": "0.2", "x": 0}],
  "B": [{"p": 1, "x": 3000}],
  "C": [{"p": "0.2", "x": 4000}, {"p": "0.8", "x": 0}],
  "D": [{"p": "0.25", "x": 3000}, {"p": "0.75", "x": 0}]
}`,
    choices: "B > A\nC > D",
  },
};

const ATTITUDES = {
  risk_averse: ["risk averse", "CE < EMV: the sure amount is worth less than the average"],
  risk_neutral: ["risk neutral", "CE = EMV"],
  risk_seeking: ["risk seeking", "CE > EMV: the gamble is worth more than its average"],
};

let lastSvg = "";
let evaluated = false;
let checked = false;

// -- numbers: the exact form first, its decimal beside it ------------------------------

function decimal(number) {
  return Number.isInteger(number) ? String(number) : String(Number(number.toPrecision(12)));
}

function showNumber(valueId, approxId, result, name) {
  const number = result[name];
  const exact = result[`${name}_exact`];
  $(valueId).textContent = exact ?? decimal(number);
  $(approxId).textContent = exact === undefined ? "" : `≈ ${Number(number.toPrecision(6))}`;
}

// -- the lottery as JSON and as a table, kept in step ----------------------------------

// the branches of a simple lottery as text, or null for anything else (compound, malformed)
function simpleBranches(value) {
  if (!Array.isArray(value)) return null;
  const rows = [];
  for (const branch of value) {
    let p;
    let x;
    if (Array.isArray(branch) && branch.length === 2) {
      [p, x] = branch;
    } else if (branch !== null && typeof branch === "object" && Object.keys(branch).length === 2) {
      ({ p, x } = branch);
    } else {
      return null;
    }
    const plain = (v) => typeof v === "number" || typeof v === "string";
    if (!plain(p) || !plain(x)) return null;
    rows.push({ p: String(p), x: String(x) });
  }
  return rows;
}

// integers stay JSON numbers; anything else is sent as the string typed, read exactly there
function literal(text) {
  const trimmed = text.trim();
  return /^-?(0|[1-9]\d{0,14})$/.test(trimmed) ? trimmed : JSON.stringify(trimmed);
}

function currentRows() {
  return [...branchRows.rows].map((row) => ({
    p: row.querySelector('[data-field="p"]').value,
    x: row.querySelector('[data-field="x"]').value,
  }));
}

function textFromTable() {
  const branches = currentRows().map(({ p, x }) => `{"p": ${literal(p)}, "x": ${literal(x)}}`);
  lotteryInput.value = `[${branches.join(", ")}]`;
}

function branchInput(index, field, value, what) {
  const cell = document.createElement("td");
  const id = `branch-${index}-${field}`;
  const label = document.createElement("label");
  label.htmlFor = id;
  label.className = "visually-hidden";
  label.textContent = `${what} of branch ${index + 1}`;
  const input = document.createElement("input");
  Object.assign(input, { id, type: "text", value, spellcheck: false, autocomplete: "off" });
  input.dataset.field = field;
  input.dataset.testid = id;
  input.addEventListener("input", textFromTable);
  cell.append(label, input);
  return cell;
}

function drawRows(rows) {
  branchRows.replaceChildren(
    ...rows.map(({ p, x }, index) => {
      const row = document.createElement("tr");
      const remove = document.createElement("button");
      remove.type = "button";
      remove.textContent = "Remove";
      remove.setAttribute("aria-label", `Remove branch ${index + 1}`);
      remove.disabled = rows.length === 1;
      remove.addEventListener("click", () => {
        const kept = currentRows();
        kept.splice(index, 1);
        drawRows(kept);
        textFromTable();
        $("add-branch").focus();
      });
      const last = document.createElement("td");
      last.append(remove);
      row.append(
        branchInput(index, "p", p, "Probability"),
        branchInput(index, "x", x, "Outcome"),
        last,
      );
      return row;
    }),
  );
}

// a lottery typed as JSON shows in the table when it is simple; invalid JSON leaves the table
function tableFromText() {
  let value;
  try {
    value = JSON.parse(lotteryInput.value);
  } catch {
    return;
  }
  const rows = simpleBranches(value);
  $("branches").hidden = rows === null;
  $("add-branch").disabled = rows === null;
  $("branches-note").hidden = rows !== null;
  if (rows !== null) drawRows(rows);
}

function addBranch() {
  const rows = currentRows();
  rows.push({ p: "0", x: "0" });
  drawRows(rows);
  textFromTable();
  $(`branch-${rows.length - 1}-p`).focus();
}

// -- evaluating and drawing ------------------------------------------------------------

const ERROR_PLACES = [
  ["/utility", "utility-error", utilityInput],
  ["/parameters", "utility-error", utilityInput],
  ["/wealth", "wealth-error", wealthInput],
  ["", "lottery-error", lotteryInput],
];

function clearLotteryErrors() {
  for (const [, element, control] of ERROR_PLACES) clearError($(element), control);
  for (const input of branchRows.querySelectorAll("input")) input.removeAttribute("aria-invalid");
}

// the error goes beside the input its pointer names (a branch of the table too)
function showLotteryError(problem) {
  const pointer = problem.pointer || "";
  const [, element, control] = ERROR_PLACES.find(([prefix]) => pointer.startsWith(prefix));
  showError($(element), control, problem);
  const branch = pointer.match(/^\/lottery\/(\d+)\/([px])$/);
  if (branch) $(`branch-${branch[1]}-${branch[2]}`)?.setAttribute("aria-invalid", "true");
}

function lotteryRequest() {
  const body = { lottery: readJson(lotteryInput.value, "/lottery", "the lottery") };
  if (utilityInput.value.trim() !== "") body.utility = utilityInput.value;
  body.wealth = wealthInput.value.trim() === "" ? 0 : literalValue(wealthInput.value);
  return body;
}

function literalValue(text) {
  return JSON.parse(literal(text));
}

function showEvaluation(result) {
  showNumber("emv-value", "emv-approx", result, "emv");
  showNumber("eu-value", "eu-approx", result, "expected_utility");
  showNumber("ce-value", "ce-approx", result, "certainty_equivalent");
  showNumber("premium-value", "premium-approx", result, "risk_premium");
  const methods = {
    closed_form: "closed form: the utility's inverse at EU",
    root_finding: `found by Brent's method, to within ${result.tolerance}`,
    degenerate: "one outcome: it is its own certainty equivalent",
  };
  $("ce-method").textContent = `(${methods[result.method]})`;
  const [attitude, why] = ATTITUDES[result.attitude];
  $("attitude-value").textContent = attitude;
  $("attitude-why").textContent = `(${why})`;
  $("evaluation").hidden = false;
}

function showPicture(svg) {
  lastSvg = svg.slice(svg.indexOf("<svg")); // the picture without its XML prolog
  curve.innerHTML = lastSvg; // the server's own SVG: matplotlib escapes every text in it
  curve.setAttribute(
    "aria-label",
    plotKind.value === "utility" ? "The utility curve of the lottery" : "The lottery's risk profile",
  );
  curve.hidden = false;
  $("picture-controls").hidden = false;
}

// an evaluation or picture asked for while an older one is on its way wins: the older
// answer is dropped as it comes in (a new kind of plot chosen during an evaluation, say)
const evaluations = newestOnly();
const pictures = newestOnly();

async function evaluate() {
  // (taken first: an input refused here also drops an older answer still on its way)
  const [latest, latestPicture] = [evaluations(), pictures()];
  clearLotteryErrors();
  let body;
  try {
    body = lotteryRequest();
  } catch (problem) {
    showLotteryError(problem);
    return;
  }
  evaluated = true;
  remember();
  const drawing = post("/v1/lotteries/plot", { ...body, kind: plotKind.value }).then((r) => r.text());
  drawing.catch(() => {}); // a refused picture is reported through the evaluation below
  try {
    const evaluation = await (await post("/v1/lotteries/evaluate", body)).json();
    if (!latest()) return;
    showEvaluation(evaluation);
    // (a picture asked for since, by a redraw, is the one shown, and its error the one told)
    const svg = await drawing.catch((problem) => {
      if (latestPicture()) throw problem;
      return null;
    });
    if (svg !== null && latestPicture()) showPicture(svg);
  } catch (problem) {
    if (!latest()) return;
    // no answer, so no picture of an earlier one either
    $("evaluation").hidden = true;
    curve.hidden = true;
    $("picture-controls").hidden = true;
    showLotteryError(problem);
  }
}

async function redraw() {
  remember();
  if (!evaluated) return;
  clearLotteryErrors();
  const latestPicture = pictures();
  try {
    const body = { ...lotteryRequest(), kind: plotKind.value };
    const svg = await (await post("/v1/lotteries/plot", body)).text();
    if (latestPicture()) showPicture(svg);
  } catch (problem) {
    if (latestPicture()) showLotteryError(problem);
  }
}

// -- downloads: the SVG as served, and a PNG drawn from it at twice its size -----------

function pictureName(extension) {
  return `${plotKind.value === "utility" ? "utility-curve" : "risk-profile"}.${extension}`;
}

async function exportPng() {
  download(pictureName("png"), await pngOf(lastSvg));
}

// -- EU consistency of choices ---------------------------------------------------------

const RELATION = /^(.+?)\s*(>=|<=|>|<|~)\s*(.+)$/;

// "1A > 1B" per line; blank lines skipped, each choice remembers its line for messages
function readChoices() {
  const choices = [];
  const lines = [];
  choicesInput.value.split("\n").forEach((line, number) => {
    if (line.trim() === "") return;
    const parts = line.trim().match(RELATION);
    if (parts === null) {
      const detail = `line ${number + 1} is not a choice such as "1A > 1B": ${line.trim()}`;
      throw { detail, pointer: `/choices/${choices.length}` };
    }
    choices.push([parts[1].trim(), parts[2], parts[3].trim()]);
    lines.push(number + 1);
  });
  return { choices, lines };
}

function showConsistencyError(problem, lines) {
  const pointer = problem.pointer || "";
  if (pointer.startsWith("/lotteries")) {
    showError($("choice-lotteries-error"), choiceLotteries, problem);
    return;
  }
  const index = pointer.match(/^\/choices\/(\d+)/);
  const line = index && lines ? lines[Number(index[1])] : undefined;
  const detail = line === undefined ? problem.detail : `${problem.detail} (line ${line})`;
  showError($("choices-error"), choicesInput, { ...problem, detail });
}

function showConsistency(result) {
  $("consistency-verdict").textContent = result.consistent
    ? "Consistent: an expected-utility function explains every choice."
    : "Inconsistent: no expected-utility function explains these choices.";
  $("argument-box").hidden = result.consistent;
  $("witness-box").hidden = !result.consistent;
  $("argument").textContent = result.consistent ? "" : result.certificate.explanation;
  const witness = result.witness || {};
  const exact = result.witness_exact || {};
  $("witness-rows").replaceChildren(
    ...Object.keys(witness).map((prize) => {
      const row = document.createElement("tr");
      for (const text of [prize, exact[prize] ?? decimal(witness[prize])]) {
        const cell = document.createElement("td");
        cell.textContent = text;
        row.append(cell);
      }
      return row;
    }),
  );
  $("consistency").hidden = false;
}

// a consistency check asked for while an older one is on its way wins, as evaluations do
const checks = newestOnly();

async function check() {
  const latest = checks();
  clearError($("choice-lotteries-error"), choiceLotteries);
  clearError($("choices-error"), choicesInput);
  let body;
  let lines;
  try {
    const read = readChoices();
    lines = read.lines;
    body = {
      lotteries: readJson(choiceLotteries.value, "/lotteries", "the lotteries"),
      choices: read.choices,
      increasing: increasing.checked,
    };
  } catch (problem) {
    showConsistencyError(problem, lines);
    return;
  }
  checked = true;
  remember();
  try {
    const consistency = await (await post("/v1/lotteries/eu-consistency", body)).json();
    if (latest()) showConsistency(consistency);
  } catch (problem) {
    if (!latest()) return;
    $("consistency").hidden = true;
    showConsistencyError(problem, lines);
  }
}

function usePreset(name) {
  const preset = PRESETS[name];
  if (preset === undefined) return;
  choiceLotteries.value = preset.lotteries;
  choicesInput.value = preset.choices;
}

// -- the URL keeps the input ------------------------------------------------------------

function remember() {
  keepInUrl({
    lottery: lotteryInput.value,
    utility: utilityInput.value,
    wealth: wealthInput.value,
    kind: plotKind.value,
    lotteries: choiceLotteries.value,
    choices: choicesInput.value,
    increasing: increasing.checked,
    evaluated,
    checked,
  });
}

function matchPreset() {
  const known = [...utilityPreset.options].some((option) => option.value === utilityInput.value);
  utilityPreset.value = known ? utilityInput.value : "";
}

function restore() {
  const state = stateFromUrl();
  if (state === null) {
    $("consistency-preset").value = "allais";
    usePreset("allais");
    return;
  }
  lotteryInput.value = state.lottery ?? lotteryInput.value;
  utilityInput.value = state.utility ?? utilityInput.value;
  wealthInput.value = state.wealth ?? wealthInput.value;
  plotKind.value = state.kind ?? "utility";
  choiceLotteries.value = state.lotteries ?? "";
  choicesInput.value = state.choices ?? "";
  increasing.checked = state.increasing ?? false;
  if (state.evaluated) evaluate();
  if (state.checked) check();
}

$("lottery-form").addEventListener("submit", (event) => {
  event.preventDefault();
  evaluate();
});
$("consistency-form").addEventListener("submit", (event) => {
  event.preventDefault();
  check();
});
lotteryInput.addEventListener("input", tableFromText);
$("add-branch").addEventListener("click", addBranch);
utilityPreset.addEventListener("change", () => {
  if (utilityPreset.value !== "") utilityInput.value = utilityPreset.value;
});
utilityInput.addEventListener("input", matchPreset);
$("consistency-preset").addEventListener("change", (event) => usePreset(event.target.value));
plotKind.addEventListener("change", redraw);
$("export-svg").addEventListener("click", () => download(pictureName("svg"), lastSvg, "image/svg+xml"));
$("export-png").addEventListener("click", () => exportPng().catch((problem) => showLotteryError(problem)));
$("copy-link").addEventListener("click", () => {
  remember();
  // the clipboard may be refused (an insecure origin); the address bar holds the link anyway
  navigator.clipboard?.writeText(location.href).catch(() => {});
});

restore();
tableFromText();
matchPreset();
