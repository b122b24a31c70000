// The MCTS page: run Monte Carlo tree search (POST /v1/games/solve with "algorithm": "mcts"
// and "events": every simulation) on a game of the catalogue, then step through each
// simulation's four phases on the tree as it grows. The page draws the tree itself from the
// events (node ids in creation order, the root 0): at a step it shows the nodes created so
// far and each node's visits and mean reward as back-propagation left them; the server's
// numbers are shown as it wrote them (exact strings where it gives them), and only the
// siblings' UCB1 values, which the events do not list, are computed here from the same
// visits and totals (the chosen child's value is the server's).

import { $, post, showError, clearError, keepInUrl, stateFromUrl, newestOnly } from "./common.js";
import { fillParams, paramInputs, readParams } from "./game-params.js";
import { treeView } from "./tree-view.js";

const PHASES = ["selection", "expansion", "playout", "backpropagation"];
const MOST = 500; // the API's cap on recorded simulations (MAX_EVENTS)
const SVG = "http://www.w3.org/2000/svg";
const SLOT = 76; // drawing units between two neighbouring leaves
const LEVEL = 120; // ... between two levels
const BELOW = 52; // a node's texts under it (its mean, its UCB1): its edges start past them
const RADIUS = 20;
const MARGIN = 40;

const gameSelect = $("game");
const figure = $("drawing");
const fresh = newestOnly();

let catalogue = [];
let chosen = null;
let answer = null; // the API's answer being replayed
let request = null; // what was asked, for the sentences (exploration)
let step = -1; // 4 * (simulation - 1) + phase; -1 before the first simulation
const view = treeView(figure);

// -- the form --------------------------------------------------------------------------

function chooseGame(name) {
  chosen = catalogue.find((game) => game.name === name) || catalogue[0];
  gameSelect.value = chosen.name;
  $("game-description").textContent = chosen.description;
  $("notation").textContent = `Notation: ${chosen.notation}`;
  $("position").value = chosen.initial_position;
  paramInputs($("param-inputs"), chosen, "form-error");
  $("params").hidden = chosen.parameters.length === 0;
}

// a number field as the API takes it: a whole number, or a number for exploration; the
// text itself otherwise, so the server names the field it refuses
function fieldValue(id, whole) {
  const text = $(id).value.trim();
  if (text === "") return null;
  const number = Number(text);
  if (!Number.isFinite(number) || (whole && !Number.isInteger(number))) return text;
  return number;
}

const FIELDS = { "/simulations": "simulations", "/seed": "seed", "/exploration": "exploration", "/position": "position" };

function report(problem) {
  const pointer = problem?.pointer || "";
  let control = null;
  if (pointer in FIELDS) control = $(FIELDS[pointer]);
  else if (pointer.startsWith("/params/")) control = $(`param-${pointer.split("/")[2]}`);
  else if (pointer === "/game") control = gameSelect;
  showError($("form-error"), control, problem);
}

function clearErrors() {
  clearError($("form-error"));
  for (const element of document.querySelectorAll("[aria-invalid]")) element.removeAttribute("aria-invalid");
}

async function run() {
  clearErrors();
  const simulations = fieldValue("simulations", true);
  const body = {
    game: chosen.name,
    params: readParams($("param-inputs"), chosen),
    position: $("position").value.trim() || null,
    algorithm: "mcts",
    simulations,
    seed: fieldValue("seed", true) ?? 0,
    exploration: fieldValue("exploration", false),
    events: Number.isInteger(simulations) && simulations >= 1 ? Math.min(simulations, MOST) : 1,
  };
  if (Number.isInteger(simulations) && simulations > MOST) {
    report({ detail: `The page replays at most ${MOST} simulations.`, pointer: "/simulations" });
    return;
  }
  const current = fresh();
  document.body.setAttribute("aria-busy", "true");
  try {
    const found = await (await post("/v1/games/solve", body)).json();
    if (!current()) return;
    answer = found;
    request = body;
    keepInUrl({ game: body.game, params: body.params, position: found.position, simulations, seed: body.seed, exploration: found.exploration });
    showSummary();
    $("replay").hidden = false;
    goTo(-1);
  } catch (problem) {
    if (current()) report(problem);
  } finally {
    if (current()) document.body.removeAttribute("aria-busy");
  }
}

// -- the answer ------------------------------------------------------------------------

const exactOf = (entry, name) => entry[`${name}_exact`] ?? String(entry[name]);

function showSummary() {
  const chosenMove = answer.move === null
    ? "Chance moves at this position: no move is chosen; the outcomes' visits follow their probabilities."
    : `Chosen move: ${answer.move}, the most visited, with mean reward ${exactOf(answer, "reward")} ` +
      `(${answer.reward.toFixed(3)}) after ${answer.simulations} simulations.`;
  $("chosen").textContent = chosenMove;
  const rows = answer.root_moves.map((child) => {
    const row = document.createElement("tr");
    for (const text of [child.move, String(child.visits), `${exactOf(child, "mean")} (${child.mean.toFixed(3)})`]) {
      const cell = document.createElement("td");
      cell.textContent = text;
      row.append(cell);
    }
    if (child.move === answer.move) row.className = "chosen";
    return row;
  });
  $("root-moves").querySelector("tbody").replaceChildren(...rows);
  $("summary").hidden = false;
}

// -- what the search knows at a step -----------------------------------------------------

const lastStep = () => 4 * answer.events.length - 1;

// the tree after the first `done` simulations, and the simulation in progress's new node if
// `withNew`: nodes by id with their parent, move, player, visits, total and mean
function treeAt(done, withNew, updated) {
  const nodes = new Map();
  nodes.set(0, { id: 0, parent: null, move: "", player: answer.player, toMove: answer.to_move,
                 terminal: false, visits: 0, mean: null, meanText: "", total: 0, children: [] });
  const add = (expansion) => {
    const node = {
      id: expansion.node, parent: expansion.parent, move: expansion.move, player: expansion.player,
      toMove: expansion.to_move, terminal: expansion.terminal, visits: 0, mean: null, meanText: "",
      total: 0, children: [],
    };
    nodes.set(node.id, node);
    nodes.get(node.parent).children.push(node.id);
  };
  const update = (backup) => {
    const node = nodes.get(backup.node);
    node.visits = backup.visits;
    node.total = backup.total;
    node.mean = backup.mean;
    node.meanText = exactOf(backup, "mean");
  };
  for (const events of answer.events.slice(0, done)) {
    if (events.expansion !== null) add(events.expansion);
    for (const backup of events.backpropagation) update(backup);
  }
  const current = answer.events[done];
  if (current && withNew && current.expansion !== null) add(current.expansion);
  if (current && updated) for (const backup of current.backpropagation) update(backup);
  return nodes;
}

function ucb(child, parent) {
  const c = answer.exploration;
  return child.total / child.visits + c * Math.sqrt(Math.log(parent.visits) / child.visits);
}

const PLAYERS = { tic_tac_toe: ["x", "o"], connect_four: ["red", "yellow"], hexapawn: ["White", "Black"] };
const playerName = (player) => (PLAYERS[answer.game] ?? ["player 1", "player 2"])[player];

function rewardsText(rewards, exact) {
  const texts = exact ?? rewards.map(String);
  if (rewards[0] === rewards[1]) return `a draw: each player gets ${texts[0]}`;
  const winner = rewards[0] > rewards[1] ? 0 : 1;
  return `${playerName(winner)} wins: rewards ${playerName(0)} ${texts[0]}, ${playerName(1)} ${texts[1]}`;
}

function describe(events, phase, nodes) {
  const simulation = events.simulation;
  if (phase === "selection") {
    if (events.selection.length === 0) {
      return "Selection: the root still has a move without a child, so selection stops at the root.";
    }
    let parent = 0;
    const steps = events.selection.map((s) => {
      const visits = nodes.get(parent).visits; // N: the parent's visits before this simulation
      parent = s.node;
      return s.ucb === null
        ? `chance draws ${s.move} (probability ${exactOf(s, "probability")})`
        : `${s.move} (#${s.node}, UCB1 ${s.ucb.toFixed(3)} = ${s.mean.toFixed(3)} + ` +
          `${answer.exploration.toFixed(3)} · √(ln ${visits} / ${s.visits}))`;
    });
    const end = events.selection.at(-1).node;
    const last = nodes.get(end);
    const why = last.terminal
      ? "the game is over there"
      : events.expansion === null
        ? "the tree is full"
        : "it has a move without a child";
    return `Selection (simulation ${simulation}): from the root, the child of greatest UCB1 at each ` +
      `node: ${steps.join(", then ")}. It stops at #${end}: ${why}.`;
  }
  if (phase === "expansion") {
    const grown = events.expansion;
    if (grown === null) return "Expansion: nothing to add (the game is over at the selected node, or the tree is full).";
    const by = grown.probability === null ? `the move ${grown.move} by ${playerName(grown.player)}` :
      `the outcome ${grown.move} (probability ${exactOf(grown, "probability")})`;
    return `Expansion: #${grown.node} is added under #${grown.parent}: ${by}, position ${grown.position}.`;
  }
  if (phase === "playout") {
    const moves = events.playout.moves;
    const line = moves.length === 0 ? "no moves: the game is already over" :
      `${moves.length} random move${moves.length === 1 ? "" : "s"} (${moves.join(" ")})`;
    return `Playout: ${line}, ending at ${events.playout.position}, ${rewardsText(events.playout.rewards, events.playout.rewards_exact)}.`;
  }
  const updates = events.backpropagation.map(
    (b) => `#${b.node} gets ${exactOf(b, "reward")} for ${playerName(b.player)}: ${b.visits} ` +
      `visit${b.visits === 1 ? "" : "s"}, mean ${exactOf(b, "mean")}`,
  );
  return "Back-propagation: each node of the path gains a visit and the reward of the player who " +
    `moved into it: ${updates.join("; ")}.`;
}

// -- drawing ---------------------------------------------------------------------------

function element(name, attributes, text) {
  const made = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) made.setAttribute(key, String(value));
  if (text !== undefined) made.textContent = text;
  return made;
}

// leaves side by side in creation order, each parent over the middle of its children
function layout(nodes) {
  const places = new Map();
  let slot = 0;
  let deepest = 0;
  const place = (id, depth) => {
    const node = nodes.get(id);
    deepest = Math.max(deepest, depth);
    if (node.children.length === 0) {
      places.set(id, { x: MARGIN + slot * SLOT + RADIUS, y: MARGIN + 14 + depth * LEVEL });
      slot += 1;
      return;
    }
    for (const child of node.children) place(child, depth + 1);
    const first = places.get(node.children[0]);
    const last = places.get(node.children.at(-1));
    places.set(id, { x: (first.x + last.x) / 2, y: MARGIN + 14 + depth * LEVEL });
  };
  place(0, 0);
  return { places, width: 2 * MARGIN + Math.max(1, slot) * SLOT, depth: deepest };
}

function draw(nodes, marks) {
  const { places, width, depth } = layout(nodes);
  const playout = marks.playout;
  const height = 2 * MARGIN + 28 + (depth + (playout ? 1 : 0)) * LEVEL + 20;
  const svg = element("svg", { width, height, viewBox: `0 0 ${width} ${height}`, role: "img",
                               "aria-label": `The search tree: ${nodes.size} nodes` });
  const edges = element("g", { class: "edges" });
  const labels = element("g", { class: "labels" });
  const drawn = element("g", { class: "nodes" });
  for (const node of nodes.values()) {
    const { x, y } = places.get(node.id);
    if (node.parent !== null) {
      const from = places.get(node.parent);
      const onPath = marks.path.has(node.id) && marks.path.has(node.parent);
      edges.append(element("line", { x1: from.x, y1: from.y + BELOW, x2: x, y2: y - RADIUS,
                                     class: onPath ? "edge path" : "edge" }));
      const at = 0.6; // the move's label 60% of the way down, where siblings' labels spread
      labels.append(element("text", { x: from.x + at * (x - from.x), y: from.y + BELOW + at * (y - RADIUS - from.y - BELOW) + 4,
                                      class: "edge-label", "text-anchor": "middle" }, node.move));
    }
    const states = [];
    if (marks.path.has(node.id)) states.push("path");
    if (marks.added === node.id) states.push("new");
    if (marks.updated.has(node.id)) states.push("updated");
    const kind = node.terminal ? "end" : node.toMove === -1 ? "chance" : "decision";
    const group = element("g", { "data-node-id": node.id, class: `node player-${node.player} ${kind}`,
                                 "data-state": states.join(" ") });
    const title = element("title", {}, `#${node.id}: ${node.visits} visits, mean ${node.meanText || "none yet"}`);
    group.append(title);
    group.append(kind === "end"
      ? element("rect", { x: x - RADIUS, y: y - RADIUS, width: 2 * RADIUS, height: 2 * RADIUS, rx: 4 })
      : element("circle", { cx: x, cy: y, r: RADIUS }));
    group.append(element("text", { x, y: y + 4, class: "visits", "text-anchor": "middle" }, `n=${node.visits}`));
    group.append(element("text", { x: x - RADIUS - 3, y: y - RADIUS + 2, class: "node-id", "text-anchor": "end" },
                         `#${node.id}`));
    group.append(element("text", { x, y: y + RADIUS + 14, class: "mean", "text-anchor": "middle" },
                         node.meanText || "·"));
    if (marks.ucb.has(node.id)) {
      const { value, chosen: picked } = marks.ucb.get(node.id);
      group.append(element("text", { x, y: y + RADIUS + 28, class: picked ? "ucb chosen" : "ucb",
                                     "text-anchor": "middle" }, `UCB ${value.toFixed(2)}`));
    }
    drawn.append(group);
  }
  if (playout) {
    const { x, y } = places.get(playout.from);
    const end = y + LEVEL;
    edges.append(element("line", { x1: x, y1: y + BELOW, x2: x, y2: end - 12, class: "playout" }));
    const text = playout.rewards[0] === playout.rewards[1] ? "draw" : `${playerName(playout.rewards[0] > playout.rewards[1] ? 0 : 1)} wins`;
    const group = element("g", { class: "playout-end", "data-testid": "mcts-playout-end" });
    group.append(element("rect", { x: x - 36, y: end - 12, width: 72, height: 24, rx: 3 }));
    group.append(element("text", { x, y: end + 4, "text-anchor": "middle" }, text));
    labels.append(element("text", { x: x + 8, y: y + BELOW + (LEVEL - BELOW) / 2, class: "playout-label" },
                          `${playout.moves} move${playout.moves === 1 ? "" : "s"}`));
    drawn.append(group);
  }
  svg.append(edges, drawn, labels);
  return svg;
}

// -- stepping --------------------------------------------------------------------------

function show() {
  const phases = $("phases").querySelectorAll("li");
  if (step < 0) {
    const nodes = treeAt(0, false, false);
    figure.replaceChildren(draw(nodes, { path: new Set(), updated: new Set(), ucb: new Map(), added: null, playout: null }));
    $("step-count").textContent = `Before the first simulation (${answer.events.length} to replay).`;
    $("step-explanation").textContent =
      "The tree holds the root alone. Press Next (or →) to run the first simulation's selection.";
    for (const item of phases) item.removeAttribute("aria-current");
    updateButtons();
    return;
  }
  const index = Math.floor(step / 4);
  const phase = PHASES[step % 4];
  const events = answer.events[index];
  const grown = phase !== "selection";
  const nodes = treeAt(index, grown, phase === "backpropagation");
  const path = new Set([0, ...events.selection.map((s) => s.node)]);
  if (grown && events.expansion !== null) path.add(events.expansion.node);
  const marks = { path, updated: new Set(), ucb: new Map(), added: null, playout: null };
  if (phase === "selection") {
    // every child of a node the path leaves by UCB1, with its value before this simulation
    let at = 0;
    for (const s of events.selection) {
      const parent = nodes.get(at);
      if (s.ucb !== null) {
        for (const id of parent.children) {
          const value = id === s.node ? s.ucb : ucb(nodes.get(id), parent);
          marks.ucb.set(id, { value, chosen: id === s.node });
        }
      }
      at = s.node;
    }
  }
  if (grown && events.expansion !== null) marks.added = events.expansion.node;
  if (phase === "playout") {
    const from = events.expansion?.node ?? events.selection.at(-1)?.node ?? 0;
    marks.playout = { from, moves: events.playout.moves.length, rewards: events.playout.rewards };
  }
  if (phase === "backpropagation") marks.updated = new Set(events.backpropagation.map((b) => b.node));
  figure.replaceChildren(draw(nodes, marks));
  const focus = marks.added ?? events.selection.at(-1)?.node ?? 0;
  figure.dispatchEvent(new CustomEvent("tree-reveal", { detail: { node: String(focus) } }));
  $("step-count").textContent = `Simulation ${events.simulation} of ${answer.events.length}: ${phase === "backpropagation" ? "back-propagation" : phase}.`;
  $("step-explanation").textContent = describe(events, phase, nodes);
  phases.forEach((item, i) => (i === step % 4 ? item.setAttribute("aria-current", "step") : item.removeAttribute("aria-current")));
  updateButtons();
}

function updateButtons() {
  $("step-first").disabled = $("step-prev").disabled = step < 0;
  $("step-last").disabled = $("step-next").disabled = step >= lastStep();
}

function goTo(target) {
  if (answer === null) return;
  step = Math.max(-1, Math.min(lastStep(), target));
  show();
}

// a key that steps, unless the keyboard is typing into a field or choosing in a list
function typing(target) {
  if (!(target instanceof Element)) return false;
  if (target.closest("textarea, select, [contenteditable]")) return true;
  const input = target.closest("input");
  return input !== null && !["checkbox", "radio", "button", "submit", "reset"].includes(input.type);
}

const KEYS = { ArrowRight: () => step + 1, ArrowLeft: () => step - 1, Home: () => -1, End: () => lastStep() };

document.addEventListener("keydown", (event) => {
  if (!(event.key in KEYS) || answer === null || $("replay").hidden) return;
  if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey || typing(event.target)) return;
  event.preventDefault();
  goTo(KEYS[event.key]());
});
$("step-next").addEventListener("click", () => goTo(step + 1));
$("step-prev").addEventListener("click", () => goTo(step - 1));
$("step-first").addEventListener("click", () => goTo(-1));
$("step-last").addEventListener("click", () => goTo(lastStep()));
$("mcts-form").addEventListener("submit", (event) => {
  event.preventDefault();
  run();
});
gameSelect.addEventListener("change", () => chooseGame(gameSelect.value));

// -- start: the catalogue, then the search the URL names (or tic-tac-toe's first move) ---

async function start() {
  document.body.setAttribute("aria-busy", "true");
  const response = await fetch("/v1/games");
  catalogue = (await response.json()).games;
  for (const game of catalogue) gameSelect.append(new Option(game.title, game.name));
  const saved = stateFromUrl();
  chooseGame(saved?.game ?? "tic_tac_toe");
  if (saved) {
    fillParams($("param-inputs"), saved.params ?? {});
    if (saved.position) $("position").value = saved.position;
    for (const name of ["simulations", "seed", "exploration"]) {
      if (saved[name] !== undefined && saved[name] !== null) $(name).value = saved[name];
    }
  }
  await run();
}

start();
