// The page of games with information sets: a game as .efg text or the JSON form, solved by
// POST /v1/extensive/solve, its tree drawn from POST /v1/extensive/convert (to the JSON form)
// with the information sets as dashed links and the equilibrium's probabilities on the edges.
// Every text that comes from the game (labels, names, payoffs) goes in by textContent or as
// an SVG attribute; the one piece of markup inserted is the API's own plot, sanitised first.

import { $, clearError, newestOnly, post, readJson, showError } from "./common.js";
import { SAMPLES } from "./extensive-samples.js";

const SVG = "http://www.w3.org/2000/svg";
const MOST_DRAWN = 400; // nodes: a larger tree is solved, not drawn
const MOST_ROWS_OPEN = 40; // information sets of a player shown unfolded
const LEVEL = 170; // px between a node and its children, across
const ROW = 38; // px between two ends of the tree, down
const MARGIN = 24;
const RADIUS = 11;
const CFR_METHODS = new Set(["cfr", "cfr_plus"]);
const METHOD_NAMES = {
  sequence_lp: "the sequence-form LP", lemke: "Lemke's algorithm on the sequence form",
  subgame_perfect: "backward induction over the subgames", cfr: "CFR", cfr_plus: "CFR+",
};

const input = $("game-input");
const iterations = $("iterations");
const latest = newestOnly();

// -- input --------------------------------------------------------------------------------

for (const [name, sample] of Object.entries(SAMPLES)) {
  const option = document.createElement("option");
  option.value = name;
  option.textContent = sample.label;
  $("sample").append(option);
}

function chooseSample(name) {
  const sample = SAMPLES[name];
  if (!sample) return;
  markStale(true);
  $("sample").value = name;
  input.value = sample.text();
  $("method").value = sample.method;
  $("sample-note").textContent = sample.note;
  clearErrors();
}

// the game as the API takes it: {"efg": text} or {"game": the JSON form}; a whole request
// body pasted ({"game": ...} or {"efg": ...}) is taken as it is
function gameOf(text) {
  if (!text.trim().startsWith("{")) return { efg: text };
  const parsed = readJson(text, "/game", "The JSON form");
  if (parsed && typeof parsed === "object" && !("root" in parsed)) {
    if (typeof parsed.efg === "string") return { efg: parsed.efg };
    if ("game" in parsed) return { game: parsed.game };
  }
  return { game: parsed };
}

function clearErrors() {
  clearError($("game-error"), input);
  clearError($("iterations-error"), iterations);
}

// a refused game: the message beside the input it blames, no answer to an older game left
function report(problem) {
  $("results").hidden = true;
  if (problem && String(problem.pointer || "").startsWith("/iterations")) {
    showError($("iterations-error"), iterations, problem);
  } else {
    showError($("game-error"), input, problem);
  }
}

// -- solving ------------------------------------------------------------------------------

async function solve() {
  clearErrors();
  const stillNewest = latest();
  const method = $("method").value;
  const cfr = CFR_METHODS.has(method);
  let game;
  try {
    game = gameOf(input.value);
  } catch (problem) {
    report(problem);
    return;
  }
  const body = { ...game, method };
  if (cfr) {
    const count = Number(iterations.value);
    if (!Number.isInteger(count) || count < 1) {
      report({ detail: "the iterations are a whole number from 1", pointer: "/iterations" });
      return;
    }
    Object.assign(body, { iterations: count, plot: true });
  }
  $("busy").hidden = false;
  $("solve").disabled = true;
  try {
    const [solved, converted] = await Promise.allSettled([
      post("/v1/extensive/solve", body).then((r) => r.json()),
      post("/v1/extensive/convert", { ...game, to: "json" }).then((r) => r.json()),
    ]);
    if (!stillNewest()) return;
    if (solved.status === "rejected") {
      report(solved.reason);
      return;
    }
    show(solved.value, converted);
  } finally {
    if (stillNewest()) {
      $("busy").hidden = true;
      $("solve").disabled = false;
    }
  }
}

// -- the answer ---------------------------------------------------------------------------

// an exact "p/q" where the API gives one (docs/numbers.md), else the JSON number
const exactOne = (entry, name) => (entry[`${name}_exact`] ?? shortNumber(entry[name]));
const exactList = (entry, name) =>
  (entry[`${name}_exact`] ?? entry[name].map(shortNumber)).map(String);

function shortNumber(value) {
  if (value === null || value === undefined) return "";
  if (Number.isInteger(value)) return String(value);
  if (Math.abs(value) < 0.001) return value.toExponential(1); // 1.0e-5, not 0.00001000
  return String(Number(value.toPrecision(4)));
}

function element(tag, text, className) {
  const made = document.createElement(tag);
  if (text !== undefined) made.textContent = text;
  if (className) made.className = className;
  return made;
}

// the answer shown belongs to an older input until Solve is pressed again
function markStale(stale) {
  $("results").classList.toggle("stale", stale);
  $("stale-note").hidden = !stale;
}

function show(answer, converted) {
  $("results").hidden = false;
  markStale(false);
  const exact = answer.exact;
  const sets = answer.strategies.reduce((n, player) => n + player.infosets.length, 0);
  let summary = `Solved by ${METHOD_NAMES[answer.method] || answer.method}, ` +
    `${exact ? "exactly" : "in floating point"}. ${answer.players.length} players, ${sets} information sets.`;
  if (answer.cfr) {
    const run = answer.cfr;
    const why = { iterations: "", target: " (target reached)", time_limit: " (stopped at the time limit)" };
    summary += ` ${METHOD_NAMES[answer.method]} ran ${run.iterations} iterations in ` +
      `${run.seconds.toFixed(2)} s${why[run.stopped] || ""}.`;
  }
  $("summary").textContent = summary;
  const value = answer.value === null ? null : exactOne(answer, "value");
  $("value").textContent = value === null ? "none" : value;
  $("value-note").textContent = value === null
    ? ` (the game is not zero-sum); the payoffs are (${exactList(answer, "payoffs").join(", ")})`
    : exact ? "" : " (approximate: CFR's average strategy)";
  showCertificate(answer, value);
  showStrategies(answer);
  showPlot(answer);
  showTree(answer, converted);
}

function showCertificate(answer, value) {
  const certificate = answer.certificate;
  const items = certificate.players.map((row) => {
    const payoff = exactOne(row, "payoff");
    const best = exactOne(row, "best_response");
    const same = answer.exact && payoff === best;
    return element("li", `${row.player} gets ${payoff}; the best reply to the other ` +
      `${answer.players.length > 2 ? "players'" : "player's"} strategy would get ${best}` +
      (same ? ": no more." : "."), "certificate-row");
  });
  $("certificate").replaceChildren(...items);
  const nashConv = exactOne(certificate, "nash_conv");
  let verdict;
  if (certificate.nash_conv === 0) {
    verdict = "NashConv is 0: no player gains by deviating, so these strategies are an equilibrium";
    verdict += value === null ? "." : `, and each side's best-response value equals ${value}: ` +
      `the value of the game, proved exactly.`;
  } else {
    const exploit = certificate.exploitability === null ? ""
      : ` (exploitability ${exactOne(certificate, "exploitability")})`;
    verdict = `NashConv is ${nashConv}${exploit}: what best responses would gain in total. ` +
      (answer.exact ? "" : "The strategies are an approximate equilibrium, as close as that.");
  }
  $("certificate-verdict").textContent = verdict;
  const check = answer.sequential_rationality;
  $("sequential").hidden = !check;
  if (!check) return;
  const flagged = check.flagged.map((set) => `"${set.infoset}" (${set.player}, gain ${exactOne(set, "gain")})`);
  $("sequential").textContent = check.sequentially_rational
    ? `Sequentially rational: a best reply at each of the ${check.infosets} information sets ` +
      `(${check.unreached} never reached), against consistent beliefs.`
    : `Not sequentially rational at ${flagged.length} set${flagged.length === 1 ? "" : "s"} the ` +
      `play never reaches: ${flagged.join("; ")}.`;
}

function probabilityTexts(set, exact) {
  return exact ? exactList(set, "probabilities") : set.probabilities.map(shortNumber);
}

function showStrategies(answer) {
  const tables = answer.strategies.map((player) => {
    const table = element("table", undefined, "answer-table strategy");
    table.dataset.player = player.player;
    table.append(element("caption", player.player));
    const head = element("tr");
    for (const title of ["information set", "probabilities", "reached"]) {
      const cell = element("th", title);
      cell.scope = "col";
      head.append(cell);
    }
    table.append(element("thead"));
    table.tHead.append(head);
    const body = element("tbody");
    for (const set of player.infosets) {
      const row = element("tr");
      row.dataset.testid = "strategy-row";
      row.dataset.infoset = set.infoset;
      const name = element("th", set.infoset);
      name.scope = "row";
      const probabilities = probabilityTexts(set, answer.exact);
      const mix = set.actions.map((action, k) => `${action} ${probabilities[k]}`).join(", ");
      row.append(name, element("td", mix, "mix"), element("td", set.reached ? "yes" : "not reached"));
      body.append(row);
    }
    table.append(body);
    const holder = element("div", undefined, "table-scroll");
    holder.append(table);
    if (player.infosets.length <= MOST_ROWS_OPEN) return holder;
    // a long table (Leduc: 468 sets a player) folded under one line until asked for
    const fold = element("details");
    fold.append(element("summary", `${player.player}: ${player.infosets.length} information sets`), holder);
    return fold;
  });
  $("strategies").replaceChildren(...tables);
}

// The plot is the API's own SVG (games/figures.py, matplotlib with the texts escaped); it is
// parsed as SVG, never as HTML, and anything that could run or load is removed before it is
// placed in the page.
function showPlot(answer) {
  const box = $("plot-box");
  box.hidden = !answer.plot;
  $("plot").replaceChildren();
  if (!answer.plot) return;
  const parsed = new DOMParser().parseFromString(answer.plot, "image/svg+xml");
  const root = parsed.documentElement;
  if (root.namespaceURI !== SVG || parsed.querySelector("parsererror")) {
    box.hidden = true;
    return;
  }
  // matplotlib's tick marks are <use> of its own #ids: links within the figure stay
  for (const unsafe of root.querySelectorAll("script, foreignObject, iframe, object, embed")) unsafe.remove();
  for (const node of [root, ...root.querySelectorAll("*")]) {
    for (const attribute of [...node.attributes]) {
      const name = attribute.name.toLowerCase();
      const link = name === "href" || name.endsWith(":href");
      if (name.startsWith("on") || (link && !attribute.value.startsWith("#"))) node.removeAttribute(attribute.name);
    }
  }
  root.setAttribute("role", "img");
  root.setAttribute("aria-labelledby", "plot-reading");
  $("plot").append(document.importNode(root, true));
  const measure = answer.certificate.exploitability === null ? "NashConv" : "Exploitability";
  $("plot-reading").textContent = `${measure} of the average strategy after each recorded ` +
    `iteration, on a log scale: how much best responses would gain against it. It falls toward 0 ` +
    `as the average approaches an equilibrium.`;
}

// -- the tree -----------------------------------------------------------------------------

// the game's nodes in prefix order: {kind, player, infoset, branches: [{label, chance, child}],
// payoffs, depth, parent}
function flatten(root) {
  const nodes = [];
  const stack = [{ raw: root, parent: -1, depth: 0, branch: null }];
  while (stack.length > 0) {
    const { raw, parent, depth, branch } = stack.pop();
    const id = nodes.length;
    const node = { id, parent, depth, branch, children: [] };
    if ("payoffs" in raw) {
      Object.assign(node, { kind: "terminal", payoffs: raw.payoffs.map(String) });
    } else if ("chance" in raw) {
      Object.assign(node, { kind: "chance", branches: raw.chance.map(([label, p]) => ({ label, chance: String(p) })) });
    } else {
      Object.assign(node, { kind: "decision", player: raw.player, infoset: raw.infoset,
                            branches: raw.actions.map(([label]) => ({ label })) });
    }
    node.name = raw.name || "";
    if (parent >= 0) nodes[parent].children[branch] = id;
    nodes.push(node);
    const children = "chance" in raw ? raw.chance.map((entry) => entry[2])
      : "actions" in raw ? raw.actions.map((entry) => entry[1]) : [];
    for (let k = children.length - 1; k >= 0; k -= 1) {
      stack.push({ raw: children[k], parent: id, depth: depth + 1, branch: k });
    }
  }
  return nodes;
}

// each decision node's behaviour probabilities: found by the set's name where the player
// has one set of that name; else by order, a player's sets coming in the answer in the order
// they first appear in the tree (prefix order), as in the JSON form (which writes a repeated
// name with " #2")
function attachStrategies(nodes, answer) {
  const seen = new Map();
  const counts = answer.strategies.map(() => 0);
  for (const node of nodes) {
    if (node.kind !== "decision") continue;
    const key = `${node.player}\u0000${node.infoset}`;
    if (!seen.has(key)) {
      const sets = answer.strategies[node.player].infosets;
      const named = sets.filter((set) => set.infoset === node.infoset);
      seen.set(key, named.length === 1 ? named[0] : sets[counts[node.player]]);
      counts[node.player] += 1;
    }
    node.strategy = seen.get(key);
  }
}

function layout(nodes) {
  let slot = 0;
  let deepest = 0;
  for (let id = nodes.length - 1; id >= 0; id -= 1) nodes[id].y = null;
  // leaves one row each, in prefix order; a parent beside the middle of its children
  const order = [];
  const stack = [0];
  while (stack.length > 0) {
    const id = stack.pop();
    order.push(id);
    const node = nodes[id];
    for (let k = node.children.length - 1; k >= 0; k -= 1) stack.push(node.children[k]);
  }
  for (const id of order) {
    const node = nodes[id];
    node.x = MARGIN + RADIUS + node.depth * LEVEL;
    deepest = Math.max(deepest, node.depth);
    if (node.children.length === 0) {
      node.y = MARGIN + 10 + slot * ROW;
      slot += 1;
    }
  }
  for (let k = order.length - 1; k >= 0; k -= 1) {
    const node = nodes[order[k]];
    if (node.children.length > 0) {
      node.y = (nodes[node.children[0]].y + nodes[node.children.at(-1)].y) / 2;
    }
  }
  return { rows: slot, deepest };
}

function svgElement(name, attributes, text) {
  const made = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) made.setAttribute(key, String(value));
  if (text !== undefined) made.textContent = text;
  return made;
}

function showTree(answer, converted) {
  const box = $("tree");
  box.replaceChildren();
  if (converted.status === "rejected") {
    const reason = converted.reason || {};
    $("tree-note").textContent = reason.pointer === "/to"
      ? "The tree is too deep to draw here; the strategies are in the tables below."
      : `The tree is not drawn: ${reason.detail || reason}`;
    return;
  }
  const { game, nodes: count } = converted.value;
  if (count > MOST_DRAWN) {
    $("tree-note").textContent = `The tree has ${count} nodes, too many to draw here (the page ` +
      `draws up to ${MOST_DRAWN}); the strategies are in the tables below.`;
    return;
  }
  const nodes = flatten(game.root);
  attachStrategies(nodes, answer);
  box.append(drawTree(nodes, answer, game.players));
  $("tree-note").textContent = "Circles: decision nodes, numbered by player, each under its " +
    "information set's name; diamonds: chance; squares: ends, with the payoffs. Dashed links join " +
    "the nodes of one information set; each edge gives its action and probability, thick where " +
    `it is played${answer.exact ? "" : " (with probability 0.005 or more)"}.`;
}

function drawTree(nodes, answer, players) {
  const { rows, deepest } = layout(nodes);
  const widest = Math.max(...nodes.filter((n) => n.kind === "terminal").map((n) => n.payoffs.join(", ").length));
  const width = 2 * MARGIN + 2 * RADIUS + deepest * LEVEL + 12 + 7 * widest;
  const height = 2 * MARGIN + rows * ROW;
  const svg = svgElement("svg", { width, height, viewBox: `0 0 ${width} ${height}`, role: "img",
    "aria-label": `The game tree: ${nodes.length} nodes, information sets as dashed links` });
  const edges = svgElement("g", { class: "edges" });
  const links = svgElement("g", { class: "infoset-links" });
  const drawn = svgElement("g", { class: "nodes" });
  const labels = svgElement("g", { class: "labels" });
  for (const node of nodes) {
    for (const [k, childId] of node.children.entries()) {
      const child = nodes[childId];
      const { text, played } = edgeText(node, k, answer.exact);
      edges.append(svgElement("line", { x1: node.x + RADIUS, y1: node.y, x2: child.x - RADIUS, y2: child.y,
                                        class: played ? "edge played" : "edge" }));
      const label = svgElement("text", { ...labelPlace(node.x + RADIUS, node.y, child.x - RADIUS, child.y),
                                         class: played ? "edge-label played" : "edge-label" });
      label.append(svgElement("tspan", { class: "action" }, node.branches[k].label));
      if (text !== "") label.append(svgElement("tspan", { class: "probability", dx: 4 }, text));
      labels.append(label);
    }
    drawn.append(nodeGroup(node, players));
  }
  for (const link of infosetLinks(nodes, players)) links.append(link);
  svg.append(edges, links, drawn, labels);
  return svg;
}

// where an edge's label goes: 60% of the way along, where siblings' edges have spread; on
// the outer side of a shallow edge (above one that rises, below one that falls), left of a
// steep one
function labelPlace(x1, y1, x2, y2) {
  const [x, y] = [x1 + 0.6 * (x2 - x1), y1 + 0.6 * (y2 - y1)];
  if (Math.abs(y2 - y1) > 1.5 * (x2 - x1)) return { x: x - 5, y: y + 4, "text-anchor": "end" };
  return { x, y: y2 > y1 ? y + 14 : y - 6, "text-anchor": "middle" };
}

// an edge's probability: the chance node's, or the solution's behaviour probability
function edgeText(node, k, exact) {
  if (node.kind === "chance") return { text: node.branches[k].chance, played: node.branches[k].chance !== "0" };
  const set = node.strategy;
  if (!set) return { text: "", played: false };
  const text = probabilityTexts(set, exact)[k];
  const p = set.probabilities[k];
  return { text, played: exact ? p > 0 : p >= 0.005 };
}

function nodeGroup(node, players) {
  const group = svgElement("g", { class: `node ${node.kind}`, "data-node": node.id });
  const { x, y } = node;
  if (node.kind === "terminal") {
    group.append(svgElement("title", {}, `End: payoffs ${node.payoffs.join(", ")}`));
    group.append(svgElement("rect", { x: x - 5, y: y - 5, width: 10, height: 10 }));
    group.append(svgElement("text", { x: x + 10, y: y + 4, class: "payoffs" }, node.payoffs.join(", ")));
  } else if (node.kind === "chance") {
    group.append(svgElement("title", {}, `Chance${node.name ? `: ${node.name}` : ""}`));
    const r = RADIUS;
    group.append(svgElement("polygon", { points: `${x - r},${y} ${x},${y - r} ${x + r},${y} ${x},${y + r}` }));
  } else {
    group.classList.add(`player-${Math.min(node.player, 3)}`);
    group.append(svgElement("title", {}, `${players[node.player]} moves; information set "${node.infoset}"`));
    group.append(svgElement("circle", { cx: x, cy: y, r: RADIUS }));
    group.append(svgElement("text", { x, y: y + 4, "text-anchor": "middle", class: "mover" }, node.player + 1));
    group.append(svgElement("text", { x, y: y - RADIUS - 5, "text-anchor": "middle", class: "infoset-name" },
                            node.infoset));
  }
  return group;
}

// one dashed link between each two nodes of an information set that are next to each other
// down the page, bowed to the left so it passes beside the nodes between them
function infosetLinks(nodes, players) {
  const sets = new Map();
  for (const node of nodes) {
    if (node.kind !== "decision") continue;
    const key = `${node.player}\u0000${node.infoset}`;
    if (!sets.has(key)) sets.set(key, []);
    sets.get(key).push(node);
  }
  const links = [];
  for (const members of sets.values()) {
    members.sort((a, b) => a.y - b.y);
    for (let k = 1; k < members.length; k += 1) {
      const [a, b] = [members[k - 1], members[k]];
      const bow = Math.min(LEVEL * 0.6, 14 + 0.15 * Math.abs(b.y - a.y));
      const middle = [(a.x + b.x) / 2 - bow, (a.y + b.y) / 2];
      const path = svgElement("path", {
        d: `M ${a.x - RADIUS * 0.7} ${a.y + RADIUS * 0.7} Q ${middle[0]} ${middle[1]} ${b.x - RADIUS * 0.7} ${b.y - RADIUS * 0.7}`,
        class: `infoset-link player-${Math.min(a.player, 3)}`,
        "data-infoset": a.infoset,
        "data-player": players[a.player],
      });
      path.append(svgElement("title", {}, `${players[a.player]} cannot tell these nodes apart: information set "${a.infoset}"`));
      links.push(path);
    }
  }
  return links;
}

// -- start --------------------------------------------------------------------------------

$("sample").addEventListener("change", (event) => chooseSample(event.target.value));
$("extensive-form").addEventListener("submit", (event) => {
  event.preventDefault();
  solve();
});
input.addEventListener("input", () => {
  clearError($("game-error"), input);
  markStale(true);
});
iterations.addEventListener("input", () => {
  clearError($("iterations-error"), iterations);
  markStale(true);
});
$("method").addEventListener("change", () => markStale(true));
chooseSample("kuhn");
