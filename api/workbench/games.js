// The games page: play a game of the catalogue (GET /v1/games) against the engine
// (POST /v1/games/move), solve a position (POST /v1/games/solve) and open its game tree in
// the trees page (POST /v1/games/tree). The legal moves and the end of the game come from the
// position's tree one ply deep, so the page never judges a position itself; it only writes the
// position after a move in the game's notation (docs/games.md), which the server then checks.

import { $, post, showError, clearError, keepInUrl, stateFromUrl } from "./common.js";

const gameSelect = $("game");
const positionInput = $("position");
const board = $("board");
const moveList = $("move-list");

const PLAYERS = {
  tic_tac_toe: ["x", "o"],
  connect_four: ["first player (red)", "second player (yellow)"],
  hexapawn: ["White", "Black"],
};

let catalogue = [];
let chosen = null; // the catalogue entry chosen in the form
let spec = null; // the catalogue entry of the game on the board
let params = {}; // its parameters as sent to the API (every one, defaults filled in)
let position = "";
let toMove = 0; // -1 while chance moves (a die in the air)
let legal = []; // the legal moves, in the game's order (chance: the die's faces)
let over = null; // the result once the game has ended
let history = []; // [position, move] pairs before each move, for taking back
let selected = null; // hexapawn: the square a pawn is moved from

const playerName = (player) => (PLAYERS[spec.name] || ["player 1", "player 2"])[player];
const loss = () => (spec.name === "pig" ? 0 : -1);
const defaultOf = (name) => chosen.parameters.find((parameter) => parameter.name === name).default;
const numberOr = (text) => (/^-?\d+$/.test(text.trim()) ? Number(text) : text.trim());

// -- parameters --------------------------------------------------------------------------

function paramInputs() {
  const box = $("param-inputs");
  box.replaceChildren();
  for (const parameter of chosen.parameters) {
    const id = `param-${parameter.name}`;
    const label = document.createElement("label");
    label.htmlFor = id;
    const input = document.createElement("input");
    input.id = id;
    input.dataset.testid = id;
    input.dataset.param = parameter.name;
    input.setAttribute("aria-describedby", "params-error");
    input.title = parameter.description;
    if (parameter.kind === "boolean") {
      input.type = "checkbox";
      input.checked = parameter.default;
      label.className = "inline";
      label.append(input, ` ${parameter.name}: ${parameter.description}`);
      box.append(label);
      continue;
    }
    if (parameter.kind === "integer") {
      input.type = "number";
      input.step = "1";
      input.min = parameter.minimum;
      input.max = parameter.maximum;
      input.value = parameter.default;
      label.textContent = `${parameter.name} (${parameter.minimum} to ${parameter.maximum})`;
    } else {
      input.type = "text";
      input.size = 16;
      input.value = parameter.default.join(" ");
      label.textContent = `${parameter.name} (${parameter.min_length} to ${parameter.max_length} numbers, ${parameter.minimum} to ${parameter.maximum})`;
    }
    box.append(label, input);
  }
}

function readParams() {
  const read = {};
  for (const input of $("param-inputs").querySelectorAll("input")) {
    const name = input.dataset.param;
    if (input.type === "checkbox") read[name] = input.checked;
    else if (input.type === "text") read[name] = input.value.trim().split(/[\s,]+/).filter(Boolean).map(numberOr);
    else read[name] = input.value.trim() === "" ? defaultOf(name) : numberOr(input.value);
  }
  return read;
}

function fillParams(values) {
  for (const input of $("param-inputs").querySelectorAll("input")) {
    const value = values[input.dataset.param];
    if (value === undefined) continue;
    if (input.type === "checkbox") input.checked = Boolean(value);
    else input.value = Array.isArray(value) ? value.join(" ") : value;
  }
}

function chooseGame(name) {
  chosen = catalogue.find((game) => game.name === name) || catalogue[0];
  gameSelect.value = chosen.name;
  $("game-description").textContent = chosen.description;
  $("notation").textContent = `Notation: ${chosen.notation}`;
  paramInputs();
}

// -- errors: each beside the input its pointer names ----------------------------------------

function clearErrors() {
  clearError($("params-error"));
  clearError($("budget-error"), $("time-limit"));
  $("depth").removeAttribute("aria-invalid");
  clearError($("position-error"), positionInput);
  clearError($("analysis-error"), $("tree-depth"));
  for (const input of $("param-inputs").querySelectorAll("input")) input.removeAttribute("aria-invalid");
}

function report(problem, analysis = false) {
  const pointer = (problem && problem.pointer) || "";
  if (pointer.startsWith("/params") || pointer === "/game") {
    const name = pointer.split("/")[2];
    showError($("params-error"), name ? $(`param-${name}`) : gameSelect, problem);
  } else if (pointer === "/time_limit") {
    showError($("budget-error"), $("time-limit"), problem);
  } else if (pointer === "/depth" && !analysis) {
    showError($("budget-error"), $("depth"), problem);
  } else if (pointer === "/position" || pointer === "/move") {
    showError($("position-error"), positionInput, problem);
  } else {
    showError($("analysis-error"), analysis ? $("tree-depth") : null, problem);
  }
}

// -- the position: validated by the server, its legal moves from a one-ply tree --------------

// `text` null: the initial position. The page's state changes only once the server accepts it.
async function load(text, game = spec, values = params) {
  clearErrors();
  const body = { game: game.name, params: values, depth: 1 };
  const ply = { ...body, algorithm: game.has_chance ? "expectimax" : "alphabeta" };
  // a one-ply search checks the position and writes the initial one, a die in the air too
  const checked = await (await post("/v1/games/solve", text === null ? ply : { ...ply, position: text })).json();
  if (checked.to_move === -1) {
    [spec, params, position, toMove, over] = [game, values, checked.position, -1, null];
    $("solution").hidden = true;
    legal = Array.from({ length: values.die }, (_, face) => String(face + 1));
    return;
  }
  const answer = await (await post("/v1/games/tree", { ...body, position: checked.position })).json();
  [spec, params] = [game, values];
  position = answer.position;
  $("solution").hidden = true; // it was another position's
  toMove = answer.to_move;
  legal = (answer.tree.children || []).map((child) => child.move);
  over = answer.tree.children ? null : result(Number(answer.tree.value));
}

// a finished game's value is the utility to the player who would move (docs/games.md)
function result(value) {
  if (value === 1) return `${playerName(toMove)} wins.`;
  if (value === loss()) return `${playerName(1 - toMove)} wins.`;
  return "A draw.";
}

function show() {
  if (spec === null) return;
  positionInput.value = position;
  showStatus();
  moveList.replaceChildren(...legal.map((move) => new Option(toMove === -1 ? `the die shows ${move}` : move, move)));
  const playing = over === null && legal.length > 0;
  moveList.disabled = !playing;
  $("play-move").disabled = !playing;
  $("engine-move").disabled = !playing;
  $("undo").disabled = history.length === 0;
  $("history").textContent = history.length
    ? `Moves: ${history.map(([, move]) => move).join(", ")}`
    : "";
  selected = null;
  (DRAW[spec.name] || (() => board.replaceChildren()))();
}

// who is to move or how the game ended; the page's state kept in the URL
function showStatus() {
  keepInUrl({ game: spec.name, params, position, engine: $("engine-side").value });
  if (over !== null) {
    $("status").textContent = `Game over: ${over}`;
  } else if (toMove === -1) {
    $("status").textContent = `The die is in the air (player ${pigSide() + 1}'s turn): roll it.`;
  } else {
    const who = String(toMove) === $("engine-side").value ? " (the engine)" : "";
    $("status").textContent = `${playerName(toMove)}${who} to move.`;
  }
}

// -- playing ------------------------------------------------------------------------------

// the position after `move`, written in the game's notation; the server checks it on load
const PLAY = {
  tic_tac_toe(move) {
    const [row, column] = move.split(",").map(Number);
    const cells = [...position];
    const x = cells.filter((cell) => cell === "x").length;
    const o = cells.filter((cell) => cell === "o").length;
    cells[(row - 1) * params.columns + column - 1] = x === o ? "x" : "o";
    return cells.join("");
  },
  connect_four: (move) => position + move,
  hexapawn(move) {
    const [, fromFile, fromRank, toFile, toRank] = /^([a-h])(\d)[-x]([a-h])(\d)$/.exec(move);
    const [rows, side] = position.split(" ");
    const grid = rows.split("/").map((row) => [...row]);
    const at = (file, rank) => [grid.length - Number(rank), file.charCodeAt(0) - 97];
    const [fr, fc] = at(fromFile, fromRank);
    const [tr, tc] = at(toFile, toRank);
    grid[tr][tc] = grid[fr][fc];
    grid[fr][fc] = ".";
    return `${grid.map((row) => row.join("")).join("/")} ${side === "w" ? "b" : "w"}`;
  },
  nim(move) {
    const [piles, second] = nimPiles();
    const [pile, take] = move.split(":").map(Number);
    piles[pile - 1] -= take;
    return piles.join(" ") + (second ? "" : " / 2");
  },
  pig(move) {
    const [side, mine, theirs, turn] = position.split(" ").map(Number);
    const goal = params.goal;
    const other = 3 - side;
    if (move === "roll") return `${side} ${mine} ${theirs} ${turn} rolling`;
    if (move === "hold" || move === "1") {
      return `${other} ${theirs} ${move === "1" ? mine : mine + turn} 0`;
    }
    const total = turn + Number(move);
    // reaching the goal wins at once: the points are banked and the game is over
    return mine + total >= goal ? `${other} ${theirs} ${mine + total} 0` : `${side} ${mine} ${theirs} ${total}`;
  },
};

function nimPiles() {
  const [piles, second] = position.split(" / ");
  return [piles.split(" ").map(Number), second !== undefined];
}

const pigSide = () => Number(position.split(" ")[0]) - 1;

async function play(move) {
  // the legal moves are the server's (the one-ply tree); anything else is refused here
  if (!legal.includes(move)) {
    throw { detail: `${move} is not a legal move here: choose one of ${legal.join(", ")}`, pointer: "/move" };
  }
  const before = position;
  const after = PLAY[spec.name](move);
  await load(after);
  history.push([before, move]);
}

// a step of the engine's side: its move, or the die it rolls
async function engineStep() {
  if (toMove === -1) {
    const face = legal[Math.floor(Math.random() * legal.length)];
    $("engine").textContent = `The die shows ${face}.`;
    await play(face);
    return;
  }
  const body = { game: spec.name, params, position, time_limit: Number($("time-limit").value) };
  const depth = $("depth").value.trim();
  if (depth !== "") body.depth = numberOr(depth);
  const answer = await (await post("/v1/games/move", body)).json();
  $("engine").textContent =
    `The engine (${playerName(answer.to_move)}) plays ${answer.move}: value ${exact(answer, "value")} ` +
    `for it (${answer.complete ? "proven" : "an estimate"}), depth ${answer.depth_completed} completed, ` +
    `${answer.stats.nodes} nodes.`;
  await play(answer.move);
}

// the exact form (docs/numbers.md), unless an estimate's fraction runs to dozens of digits
function exact(answer, field) {
  const text = answer[`${field}_exact`] ?? String(answer[field]);
  if (text.length <= 24) return text;
  return `≈ ${answer[field].toPrecision(6)} (exactly a fraction of ${text.split("/")[1].length} digits below the line)`;
}

// whose turn it is: a die in the air belongs to the player who rolled it
const engineToMove = () =>
  over === null && String(toMove === -1 ? pigSide() : toMove) === $("engine-side").value;

// the engine answers while it is its turn (Pig: a turn of several rolls)
async function engineReplies() {
  for (let step = 0; step < 500 && engineToMove(); step += 1) await engineStep();
}

// every action: errors shown beside their inputs, then the page redrawn
// one action at a time: a click while the engine thinks is ignored, not queued
let busy = false;

async function act(action, analysis = false) {
  if (busy) return;
  busy = true;
  document.body.setAttribute("aria-busy", "true");
  $("status").textContent = "Working…";
  clearErrors();
  const typed = positionInput.value;
  try {
    await action();
    show();
  } catch (problem) {
    if (spec === null) $("status").textContent = "";
    show();
    report(problem, analysis);
    // a refused position stays in the input, to be corrected
    if (problem && problem.pointer === "/position") positionInput.value = typed;
  } finally {
    busy = false;
    document.body.removeAttribute("aria-busy");
  }
}

const humanMove = (move) =>
  act(async () => {
    await play(move);
    await engineReplies();
  });

// -- the boards ---------------------------------------------------------------------------

function button(text, label, enabled, onClick) {
  const element = document.createElement("button");
  element.type = "button";
  element.textContent = text;
  element.setAttribute("aria-label", label);
  element.disabled = !enabled;
  element.addEventListener("click", onClick);
  return element;
}

const playable = (move) => over === null && legal.includes(move);

const DRAW = {
  tic_tac_toe() {
    const grid = document.createElement("div");
    grid.className = "grid";
    grid.style.gridTemplateColumns = `repeat(${params.columns}, 3rem)`;
    [...position].forEach((cell, index) => {
      const row = Math.floor(index / params.columns) + 1;
      const column = (index % params.columns) + 1;
      const move = `${row},${column}`;
      const mark = cell === "." ? "" : cell;
      const element = button(mark, `row ${row}, column ${column}: ${mark || "empty"}`, playable(move), () =>
        humanMove(move),
      );
      element.className = "cell";
      element.dataset.testid = `cell-${move}`;
      grid.append(element);
    });
    board.replaceChildren(grid);
  },

  connect_four() {
    const { columns, rows } = params;
    const drops = document.createElement("div");
    drops.className = "grid";
    drops.style.gridTemplateColumns = `repeat(${columns}, 2.5rem)`;
    const cells = Array.from({ length: rows }, () => Array(columns).fill(""));
    const heights = Array(columns).fill(0);
    [...position].forEach((digit, index) => {
      const column = Number(digit) - 1;
      cells[rows - 1 - heights[column]][column] = index % 2 === 0 ? "red" : "yellow";
      heights[column] += 1;
    });
    for (let column = 1; column <= columns; column += 1) {
      const move = String(column);
      const drop = button(`↓${column}`, `drop a disc in column ${column}`, playable(move), () => humanMove(move));
      drop.dataset.testid = `column-${column}`;
      drops.append(drop);
    }
    const grid = document.createElement("div");
    grid.className = "grid discs";
    grid.style.gridTemplateColumns = `repeat(${columns}, 2.5rem)`;
    grid.setAttribute("role", "img");
    grid.setAttribute("aria-label", `the board, ${position.length} discs`);
    cells.forEach((row, index) =>
      row.forEach((colour, column) => {
        const cell = document.createElement("span");
        cell.className = `disc ${colour}`;
        cell.dataset.testid = `disc-${rows - index},${column + 1}`;
        cell.dataset.colour = colour || "empty";
        grid.append(cell);
      }),
    );
    board.replaceChildren(drops, grid);
  },

  hexapawn() {
    const [rows, side] = position.split(" ");
    const grid = rows.split("/");
    const box = document.createElement("div");
    box.className = "grid";
    box.style.gridTemplateColumns = `repeat(${grid[0].length}, 3rem)`;
    const hint = document.createElement("p");
    hint.className = "hint";
    hint.textContent = "Click a pawn of the side to move, then the square it goes to.";
    grid.forEach((row, index) =>
      [...row].forEach((piece, column) => {
        const square = `${String.fromCharCode(97 + column)}${grid.length - index}`;
        const name = { w: "white pawn", b: "black pawn", ".": "empty" }[piece];
        const moves = legal.filter((move) => move.startsWith(square) || move.endsWith(square));
        const element = button(
          { w: "♙", b: "♟", ".": "" }[piece],
          `${square}: ${name}`,
          over === null && moves.length > 0,
          () => pickSquare(square, piece === side, element),
        );
        element.className = "cell";
        element.dataset.testid = `square-${square}`;
        box.append(element);
      }),
    );
    board.replaceChildren(box, hint);
  },

  nim() {
    const [piles] = nimPiles();
    const list = document.createElement("ul");
    list.className = "piles";
    piles.forEach((size, index) => {
      const item = document.createElement("li");
      item.textContent = `Pile ${index + 1}: ${"●".repeat(size)} (${size})`;
      list.append(item);
    });
    const controls = document.createElement("div");
    controls.className = "controls";
    const pileLabel = label("nim-pile", "Pile");
    const pile = document.createElement("select");
    pile.id = "nim-pile";
    piles.forEach((size, index) => pile.append(new Option(`${index + 1} (${size})`, String(index + 1))));
    const countLabel = label("nim-count", "Objects to take");
    const count = document.createElement("input");
    count.id = "nim-count";
    count.type = "number";
    count.min = "1";
    count.value = "1";
    const take = button("Take", "take the objects from the pile", over === null, () =>
      humanMove(`${pile.value}:${count.value.trim()}`),
    );
    take.dataset.testid = "nim-take";
    controls.append(pileLabel, pile, countLabel, count, take);
    board.replaceChildren(list, controls);
  },

  pig() {
    const [side, mine, theirs, turn] = position.split(" ").map(Number);
    const score = document.createElement("p");
    score.textContent = over
      ? `Final scores: player ${side} ${mine}, player ${3 - side} ${theirs} (goal ${params.goal}).`
      : `Player ${side}'s turn: ${mine} banked, turn total ${turn}; player ${3 - side} has ${theirs} ` +
        `(goal ${params.goal}).`;
    const controls = document.createElement("div");
    controls.className = "controls";
    if (toMove === -1) {
      const roll = button("Roll the die", "roll the die", over === null, () =>
        humanMove(legal[Math.floor(Math.random() * legal.length)]),
      );
      roll.dataset.testid = "pig-die";
      controls.append(roll);
    } else {
      for (const move of ["roll", "hold"]) {
        const element = button(move, move, playable(move), () => humanMove(move));
        element.dataset.testid = `pig-${move}`;
        controls.append(element);
      }
    }
    board.replaceChildren(score, controls);
  },
};

function label(forId, text) {
  const element = document.createElement("label");
  element.htmlFor = forId;
  element.textContent = text;
  return element;
}

// hexapawn: the first click picks a pawn, the second the square it moves to
function pickSquare(square, own, element) {
  if (selected !== null) {
    const move = legal.find((candidate) => candidate.startsWith(selected) && candidate.endsWith(square));
    if (move) {
      humanMove(move);
      return;
    }
  }
  for (const other of board.querySelectorAll(".selected")) other.classList.remove("selected");
  selected = own ? square : null;
  if (own) element.classList.add("selected");
}

// -- analysis -----------------------------------------------------------------------------

async function solve() {
  const body = { game: spec.name, params, position };
  if (spec.has_chance) {
    body.algorithm = "value_iteration";
  } else {
    body.time_limit = Number($("time-limit").value);
    const depth = $("depth").value.trim();
    if (depth !== "") body.depth = numberOr(depth);
  }
  const answer = await (await post("/v1/games/solve", body)).json();
  const mover = answer.to_move === -1 ? playerName(0) : playerName(answer.to_move);
  const value = exact(answer, "value");
  const rows = [
    ["Value", `${value} for ${mover} (${verdict(answer)})`],
    ["Proven", proven(answer)],
    ["Best moves", answer.best_moves.join(", ") || "none: the game is over"],
    ["Principal variation", answer.principal_variation.join(" ") || "none"],
    ["Depth completed", String(answer.depth_completed)],
    ["Nodes", String(answer.stats.nodes)],
  ];
  if (answer.plies_to_end !== undefined && answer.plies_to_end !== null) {
    rows.splice(2, 0, ["Plies to the end", String(answer.plies_to_end)]);
  }
  const list = $("solution");
  list.replaceChildren();
  for (const [term, text] of rows) {
    const dt = document.createElement("dt");
    dt.textContent = term;
    const dd = document.createElement("dd");
    dd.textContent = text;
    dd.dataset.testid = `solution-${term.toLowerCase().replaceAll(" ", "-")}`;
    list.append(dt, dd);
  }
  list.hidden = false;
}

function proven(answer) {
  if (answer.complete) return "yes: searched to the end of every line";
  if (answer.algorithm === "value_iteration") {
    return `no: value iteration, ${answer.sweeps} sweeps, every value within ${answer.tolerance_exact}`;
  }
  return `no: an estimate from a search ${answer.depth_completed} plies deep`;
}

function verdict(answer) {
  if (spec.name === "pig") return "a probability of winning";
  if (!answer.complete) return "an estimate";
  if (answer.value === 1) return "a win";
  if (answer.value === -1) return "a loss";
  return "a draw";
}

// the trees page restores its input from the URL's fragment and solves the tree on load
async function openTree() {
  const depth = numberOr($("tree-depth").value);
  const answer = await (await post("/v1/games/tree", { game: spec.name, params, position, depth })).json();
  const text = JSON.stringify(answer.tree);
  const state = {
    tree: text,
    algorithm: text.includes('"chance"') ? "expectimax" : "alphabeta",
    depth: "",
    equality: true,
  };
  location.assign(`/#${encodeURIComponent(JSON.stringify(state))}`);
}

// -- wiring -------------------------------------------------------------------------------

async function newGame() {
  await load(null, chosen, readParams());
  history = [];
  $("engine").textContent = "";
  $("solution").hidden = true;
  await engineReplies();
}

$("setup-form").addEventListener("submit", (event) => {
  event.preventDefault();
  act(newGame);
});
gameSelect.addEventListener("change", () => chooseGame(gameSelect.value));
$("position-form").addEventListener("submit", (event) => {
  event.preventDefault();
  act(async () => {
    await load(positionInput.value.trim(), chosen, readParams());
    history = [];
  });
});
$("play-move").addEventListener("click", () => humanMove(moveList.value));
$("engine-move").addEventListener("click", () => act(engineStep));
// back to the last position where a person was to move (the engine's replies go too)
$("undo").addEventListener("click", () =>
  act(async () => {
    do {
      const [before] = history.pop();
      await load(before);
    } while (history.length > 0 && engineToMove());
  }),
);
$("solve").addEventListener("click", () => act(solve, true));
$("open-tree").addEventListener("click", () => act(openTree, true));
$("engine-side").addEventListener("change", () => spec && showStatus());

// the page's state from its link (a game, its parameters, a position): false if none
function restore() {
  const saved = stateFromUrl();
  if (saved === null) return false;
  chooseGame(saved.game);
  fillParams(saved.params ?? {});
  if (saved.engine !== undefined) $("engine-side").value = saved.engine;
  history = [];
  act(() => load(saved.position ?? null, chosen, readParams()));
  return true;
}

async function start() {
  try {
    const response = await fetch("/v1/games");
    if (!response.ok) throw new Error(`the server answered ${response.status}`);
    catalogue = (await response.json()).games;
  } catch (problem) {
    const detail = `The catalogue of games could not be loaded (${problem.message}); reload the page.`;
    showError($("params-error"), gameSelect, { detail, pointer: "" });
    return;
  }
  gameSelect.replaceChildren(...catalogue.map((game) => new Option(game.title, game.name)));
  if (!restore()) {
    chooseGame(catalogue[0].name);
    act(newGame);
  }
  // a link pasted over this page's (only the fragment changes) loads its position too
  window.addEventListener("hashchange", restore);
}

start();
