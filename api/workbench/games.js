// The games page: play a game of the catalogue (GET /v1/games) against the engine
// (POST /v1/games/move), solve a position (POST /v1/games/solve) and open its game tree in
// the trees page (POST /v1/games/tree). The legal moves and the end of the game come from the
// position's tree one ply deep, so the page never judges a position itself; it only writes the
// position after a move in the game's notation (docs/games.md), which the server then checks,
// and, once the server says who has won, finds the winner's k in a row to mark it.

import { $, post, showError, clearError, keepInUrl, stateFromUrl } from "./common.js";
import { fillParams, numberOr, paramInputs, readParams } from "./game-params.js";

const gameSelect = $("game");
const positionInput = $("position");
const board = $("board");
const moveList = $("move-list");

const PLAYERS = {
  tic_tac_toe: ["x", "o"],
  connect_four: ["first player (red)", "second player (yellow)"],
  hexapawn: ["White", "Black"],
};

// the players as the move history and the verdicts name them
const SHORT = {
  tic_tac_toe: ["x", "o"],
  connect_four: ["red", "yellow"],
  hexapawn: ["White", "Black"],
};

// how each game writes a move (docs/games.md), said above the move history
const MOVE_NOTATION = {
  tic_tac_toe: "row,column, counted from 1 at the top left",
  connect_four: "the column the disc is dropped in, from 1 at the left",
  hexapawn: "as in chess: b1-b2 a step, a2xb3 a capture",
  nim: "pile:objects taken, so 3:2 takes 2 from the third pile",
  pig: "roll, hold, or the face the die shows",
};

let catalogue = [];
let chosen = null; // the catalogue entry chosen in the form
let spec = null; // the catalogue entry of the game on the board
let params = {}; // its parameters as sent to the API (every one, defaults filled in)
let position = "";
let toMove = 0; // -1 while chance moves (a die in the air)
let legal = []; // the legal moves, in the game's order (chance: the die's faces)
let over = null; // the result once the game has ended
let winner = null; // the player who has won, once the game is over (null: a draw, or not over)
let history = []; // [position, move, mover] before each move, for taking back
let fromStart = true; // whether the history starts at the game's initial position
let selected = null; // hexapawn: the square a pawn is moved from
let analysed = null; // the answer of "Analyse every move" (or a proof) for this position
let stopAsked = false; // the Stop button pressed while the search deepens

const playerName = (player) => (PLAYERS[spec.name] || ["player 1", "player 2"])[player];
const shortName = (player) =>
  player === -1 ? "the die" : (SHORT[spec.name] || ["player 1", "player 2"])[player];
const loss = () => (spec.name === "pig" ? 0 : -1);
const count = (number) => number.toLocaleString("en");

// -- parameters --------------------------------------------------------------------------

function chooseGame(name) {
  chosen = catalogue.find((game) => game.name === name) || catalogue[0];
  gameSelect.value = chosen.name;
  $("game-description").textContent = chosen.description;
  $("notation").textContent = `Notation: ${chosen.notation}`;
  paramInputs($("param-inputs"), chosen, "params-error");
}

// -- errors: each beside the input its pointer names ----------------------------------------

function clearErrors() {
  clearError($("params-error"));
  clearError($("budget-error"), $("time-limit"));
  $("depth").removeAttribute("aria-invalid");
  clearError($("position-error"), positionInput);
  clearError($("move-error"), moveList);
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
  } else if (pointer === "/position") {
    showError($("position-error"), positionInput, problem);
  } else if (pointer === "/move") {
    showError($("move-error"), moveList, problem);
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
    [spec, params, position, toMove, over, winner] = [game, values, checked.position, -1, null, null];
    hideSolution();
    legal = Array.from({ length: values.die }, (_, face) => String(face + 1));
    return;
  }
  const answer = await (await post("/v1/games/tree", { ...body, position: checked.position })).json();
  [spec, params] = [game, values];
  position = answer.position;
  hideSolution(); // it was another position's
  toMove = answer.to_move;
  legal = (answer.tree.children || []).map((child) => child.move);
  winner = null;
  over = answer.tree.children ? null : result(Number(answer.tree.value));
}

// a solution shown is the position's it was asked for
function hideSolution() {
  $("solution").hidden = true;
  $("solution-estimate").hidden = true;
  $("probes").hidden = true;
  analysed = null;
}

// a finished game's value is the utility to the player who would move (docs/games.md)
function result(value) {
  if (value === 1) winner = toMove;
  else if (value === loss()) winner = 1 - toMove;
  return winner === null ? "A draw." : `${playerName(winner)} wins.`;
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
  $("analyse").disabled = spec.has_chance || over !== null;
  $("undo").disabled = history.length === 0;
  showHistory();
  selected = null;
  (DRAW[spec.name] || (() => board.replaceChildren()))();
  showMoveValues();
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

// the moves so far, numbered by ply, each with its player, in the game's notation
function showHistory() {
  const moves = movesSoFar();
  $("history-notation").textContent = `Moves are written ${MOVE_NOTATION[spec.name] || "in the game's notation"}.`;
  $("history-from").textContent = moves.fromStart ? "" : `From the position ${moves.from}:`;
  const items = moves.played.map(([move, mover], index) => {
    const item = document.createElement("li");
    const number = document.createElement("span");
    number.className = "ply";
    number.textContent = `${index + 1}.`;
    item.append(number, ` ${shortName(mover)} ${move}`);
    item.dataset.testid = `history-${index + 1}`;
    if (index === moves.played.length - 1) item.dataset.last = "true";
    return item;
  });
  $("history").replaceChildren(...items);
  $("history-box").hidden = items.length === 0;
}

// [move, mover] pairs and where they start; a connect-four position is its own history
function movesSoFar() {
  if (spec.name === "connect_four") {
    return { fromStart: true, played: [...position].map((column, index) => [column, index % 2]) };
  }
  const from = history.length > 0 ? history[0][0] : position;
  return { fromStart, from, played: history.map(([, move, mover]) => [move, mover]) };
}

// the last move made, as far as the page knows it (connect four: the position is its moves)
function lastMove() {
  if (history.length > 0) return history[history.length - 1][1];
  if (spec.name === "connect_four" && position.length > 0) return position[position.length - 1];
  return null;
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
  const [before, mover] = [position, toMove];
  const after = PLAY[spec.name](move);
  await load(after);
  history.push([before, move, mover]);
}

// a step of the engine's side: its move, or the die it rolls
async function engineStep() {
  if (toMove === -1) {
    const face = legal[Math.floor(Math.random() * legal.length)];
    showEngine(`The die shows ${face}.`);
    await play(face);
    return;
  }
  const time_limit = Number($("time-limit").value);
  const body = { game: spec.name, params, position };
  const answer = await deepen("/v1/games/move", body, `The engine's move for ${shortName(toMove)}`);
  const plies = answer.complete ? await pliesAfter(answer, time_limit) : null;
  const mover = answer.to_move;
  showEngine(
    `The engine (${shortName(mover)}) plays ${answer.move}. ${capital(verdict(answer, mover, plies))}.`,
    `${answer.complete ? "Searched to the end of every line" : `Searched ${answer.depth_completed} plies deep`}, ` +
      `${count(answer.stats.nodes)} positions; ${scale(answer, mover)}.`,
    answer.complete ? null : answer.depth_completed,
  );
  await play(answer.move);
}

// -- the search, depth by depth ---------------------------------------------------------------

// The server answers a request once, at its end; so the page deepens itself: one request per
// depth (1, 2, 3, ...), each searching afresh, each row shown as it comes. It stops at the
// engine's time budget (each request gets what is left of it), at the depth asked, when a depth
// reaches the end of every line (the value is then proven), or at Stop (once the request under
// way answers). The answer is the deepest finished one.
async function deepen(path, body, what) {
  const [budgetText, depthText] = [$("time-limit").value.trim(), $("depth").value.trim()];
  const budget = Number(budgetText);
  const limit = depthText === "" ? Infinity : Number(depthText);
  if (!(budget > 0) || budget > 30 || (!Number.isInteger(limit) && limit !== Infinity) || limit < 1) {
    // not a budget or a depth the page can count with: the server names what it refuses
    const refused = { ...body, time_limit: numberOr(budgetText) };
    if (depthText !== "") refused.depth = numberOr(depthText);
    return (await post(path, refused)).json();
  }
  const rows = $("deepening-rows");
  rows.replaceChildren();
  $("deepening").hidden = false;
  $("deepening-value").textContent = `Value for ${shortName(toMove)}`;
  $("deepening-what").textContent =
    `${what}, within ${budget} s${limit === Infinity ? "" : ` and ${limit} plies`}. Each row is one request ` +
    `that searched afresh to that depth (nothing is reused between rows): the value it found for ` +
    `${shortName(toMove)} (an estimate from the evaluation at the depth's cutoff, with its number, unless ` +
    `"proven"; "a forced win found": one within the depth, not yet proven the fastest), its ` +
    `best move, the positions it visited (nodes) and how fast, and the time since the search began. Stop ` +
    `takes effect when the request under way answers.`;
  const status = $("deepening-status");
  status.textContent = "Searching depth 1…";
  status.dataset.done = "false";
  stopAsked = false;
  $("stop").disabled = false;
  const started = performance.now();
  const elapsed = () => (performance.now() - started) / 1000;
  let last = null;
  let why = `the depth limit of ${limit} plies was reached`;
  try {
    for (let depth = 1; depth <= limit; depth += 1) {
      const left = budget - elapsed();
      if (left < 0.01) {
        why = `the time budget of ${budget} s ran out`;
        break;
      }
      const answer = await (await post(path, { ...body, depth, time_limit: Number(left.toFixed(3)) })).json();
      if (answer.depth_completed < depth && !answer.complete) {
        // the budget ran out inside this depth: the answer is the previous depth's again
        last ??= answer;
        why = `the time budget of ${budget} s ran out during depth ${depth}`;
        break;
      }
      last = answer;
      rows.append(deepeningRow(answer, elapsed()));
      if (answer.complete) {
        why = `depth ${answer.depth_completed} reached the end of every line: the value is proven`;
        break;
      }
      if (stopAsked) {
        why = "you pressed Stop";
        break;
      }
      status.textContent = `Searching depth ${depth + 1}…`;
    }
  } finally {
    $("stop").disabled = true;
  }
  status.textContent = `Done: ${why}.`;
  status.dataset.done = "true";
  if (last === null) throw { detail: `${why} before depth 1 was searched`, pointer: "/time_limit" };
  return last;
}

// one finished depth: its value in words, best move, nodes, nodes per second, time so far
function deepeningRow(answer, seconds) {
  const mover = answer.to_move === -1 ? 0 : answer.to_move;
  const best = answer.move ?? answer.best_moves.slice(0, 3).join(", ") + (answer.best_moves.length > 3 ? ", …" : "");
  const rate = answer.stats.seconds > 0 ? Math.round(answer.stats.nodes / answer.stats.seconds) : null;
  const cells = [
    String(answer.depth_completed),
    rowValue(answer, mover),
    best || "none",
    count(answer.stats.nodes),
    rate === null ? "–" : count(rate),
    `${seconds.toFixed(2)} s`,
  ];
  const row = document.createElement("tr");
  row.dataset.depth = String(answer.depth_completed);
  for (const text of cells) {
    const cell = document.createElement("td");
    cell.textContent = text;
    row.append(cell);
  }
  return row;
}

function rowValue(answer, mover) {
  if (spec.name === "pig") return `${percent(answer.value)} to win${answer.complete ? " (proven)" : ""}`;
  // the evaluation lies strictly between -1 and +1: a 1 is a forced end seen within the depth
  if (!answer.complete && Math.abs(answer.value) === 1) return `a forced ${answer.value === 1 ? "win" : "loss"} found`;
  if (!answer.complete) return `${leaning(answer.value, mover)} (${exact(answer, "value")})`;
  const plies = answer.plies_to_end ?? null;
  if (answer.value === 0) return "a draw (proven)";
  return `${answer.value === 1 ? "wins" : "loses"}${plies === null ? "" : ` in ${pliesText(plies)}`} (proven)`;
}

const pliesText = (plies) => `${plies} ${plies === 1 ? "ply" : "plies"}`;

// -- every move's exact value ---------------------------------------------------------------------

// a move's outcome for the player who makes it, in words ("wins in 5 plies")
function outcomeWords(outcome, short = false) {
  if (outcome.value === 0) return short ? "draw" : "draws";
  const verb = outcome.value === 1 ? "wins" : "loses";
  return short ? `${verb} in ${outcome.plies_to_end}` : `${verb} in ${pliesText(outcome.plies_to_end)}`;
}

// an outcome as a noun, for the probes' bounds ("a loss in 12 plies")
function outcomeNoun(outcome) {
  if (outcome.value === 0) return "a draw";
  return `${outcome.value === 1 ? "a win" : "a loss"} in ${pliesText(outcome.plies_to_end)}`;
}

// how good an outcome is for its mover: a win sooner, a loss later
const rank = (outcome) => (outcome.value === 0 ? 0 : outcome.value * (1000 - outcome.plies_to_end));

// the analysis of this position: each move with its outcome and whether it is a best one
function moveValues() {
  if (analysed === null || analysed.position !== position || !analysed.move_values) return null;
  const top = Math.max(...analysed.move_values.map(rank));
  return new Map(analysed.move_values.map((entry) => [entry.move, { ...entry, best: rank(entry) === top }]));
}

function showMoveValues() {
  const values = moveValues();
  $("move-values").hidden = values === null;
  if (values === null) return;
  const mover = shortName(toMove);
  $("move-values-outcome").textContent = `Outcome for ${mover}, who plays it`;
  $("move-values-note").textContent =
    `Solved to the end: what each legal move leads to with best play from both sides, in plies (single ` +
    `moves of either side, this one included). ★ marks the best moves: the fastest win, else a draw, else ` +
    `the slowest loss.`;
  const rows = legal
    .filter((move) => values.has(move))
    .map((move) => {
      const entry = values.get(move);
      const row = document.createElement("tr");
      row.dataset.testid = `move-value-${move}`;
      row.dataset.outcome = ["loss", "draw", "win"][entry.value + 1];
      const name = document.createElement("th");
      name.scope = "row";
      name.textContent = move;
      const words = document.createElement("td");
      words.textContent = outcomeWords(entry) + (entry.best ? " ★ best" : "");
      if (entry.best) row.dataset.best = "true";
      row.append(name, words);
      return row;
    });
  $("move-values-rows").replaceChildren(...rows);
}

// connect four: each column's outcome above it (a full column says so)
function columnValues(columns) {
  const values = moveValues();
  if (values === null) return null;
  const list = gridOf(columns, "grid values");
  list.setAttribute("role", "list");
  list.setAttribute("aria-label", `each column's exact value for ${shortName(toMove)}`);
  for (let column = 1; column <= columns; column += 1) {
    const entry = values.get(String(column));
    const item = document.createElement("span");
    item.setAttribute("role", "listitem");
    item.className = "value";
    item.dataset.testid = `column-value-${column}`;
    item.dataset.outcome = entry ? ["loss", "draw", "win"][entry.value + 1] : "full";
    const hidden = document.createElement("span");
    hidden.className = "visually-hidden";
    hidden.textContent = `column ${column}: `;
    item.append(hidden, entry ? outcomeWords(entry, true) : "full");
    if (entry?.best) {
      item.dataset.best = "true";
      item.prepend("★ ");
    }
    list.append(item);
  }
  return list;
}

// "Analyse every move": the position solved to the end, every move valued exactly
async function analyse() {
  const body = { game: spec.name, params, position, analyze: true };
  $("deepening").hidden = true;
  const answer = await (await post("/v1/games/solve", body)).json();
  showSolution(answer);
  analysed = answer;
  showProbes(answer);
}

// connect four solved to the end: what each probe on the score left the value between
function showProbes(answer) {
  const probes = answer.iterations.filter((iteration) => iteration.bounds);
  $("probes").hidden = probes.length === 0;
  $("probes-rows").replaceChildren(
    ...probes.map((probe, index) => {
      const { lower, upper } = probe.bounds;
      const same = lower.value === upper.value && lower.plies_to_end === upper.plies_to_end;
      const known = same ? `exactly ${outcomeNoun(lower)}` : `between ${outcomeNoun(lower)} and ${outcomeNoun(upper)}`;
      const row = document.createElement("tr");
      for (const text of [String(index + 1), `${known} for ${shortName(answer.to_move)}`, count(probe.nodes)]) {
        const cell = document.createElement("td");
        cell.textContent = text;
        row.append(cell);
      }
      return row;
    }),
  );
}

// a proven win or loss after the engine's move: how many plies it takes (the move's answer
// says only that it is proven; solving the position after it, within the same budget, says
// how far the end is). null when unknown.
async function pliesAfter(answer, time_limit) {
  if (spec.name === "pig" || Math.abs(answer.value) !== 1) return null;
  const body = { game: spec.name, params, position: answer.position_after, time_limit };
  const after = await (await post("/v1/games/solve", body)).json();
  return after.complete && after.plies_to_end !== null ? after.plies_to_end + 1 : null;
}

function showEngine(text, detail = "", cutoff = null) {
  const line = $("engine");
  line.textContent = text;
  $("engine-detail").textContent = detail;
  explainCutoff($("engine-estimate"), cutoff);
}

// -- values in words ------------------------------------------------------------------------

const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);

// what a value for `mover` means: a proven result, or which side the evaluation favours
function verdict(answer, mover, plies) {
  if (spec.name === "pig") {
    const chance = `${shortName(mover)}'s chance of winning is ${percent(answer.value)}`;
    if (answer.algorithm === "value_iteration") return `with best play, ${chance} (value iteration)`;
    if (answer.complete) return `proven: with best play, ${chance}`;
    return `an estimate from the evaluation at depth ${answer.depth_completed}: ${chance}`;
  }
  if (answer.complete && answer.best_moves?.length === 0) {
    if (answer.value === 0) return "the game is over: a draw";
    return `the game is over: ${shortName(answer.value === 1 ? mover : 1 - mover)} has won`;
  }
  if (answer.complete) {
    const within = plies === null || plies === undefined ? "" : ` in ${plies} ${plies === 1 ? "ply" : "plies"}`;
    if (answer.value === 1) return `proven: ${shortName(mover)} wins${within} with best play`;
    if (answer.value === -1) return `proven: ${shortName(1 - mover)} wins${within} with best play`;
    return "proven: a draw with best play from both sides";
  }
  return `an estimate from the evaluation at depth ${answer.depth_completed}: ${leaning(answer.value, mover)}`;
}

// an evaluation's score (strictly between -1, a loss, and +1, a win, for `mover`) in words
function leaning(value, mover) {
  const size = Math.abs(value);
  if (size < 0.005) return "about even";
  const side = shortName(value > 0 ? mover : 1 - mover);
  if (size < 0.1) return `slightly better for ${side}`;
  if (size < 0.35) return `better for ${side}`;
  return `clearly better for ${side}`;
}

const percent = (probability) => `about ${(100 * probability).toFixed(1)}%`;

// the number behind the words, with its scale
function scale(answer, mover) {
  const value = exact(answer, "value");
  if (spec.name === "pig") return `value ${value}, ${shortName(mover)}'s probability of winning`;
  return `value ${value} for ${shortName(mover)}, on a scale from -1 (a loss) through 0 (a draw) to +1 (a win)`;
}

// what an estimate is: the search stopped `depth` plies ahead and scored what it saw there
function explainCutoff(box, depth) {
  box.hidden = depth === null;
  if (depth === null) return;
  const evaluation = spec.evaluations[0];
  const summary = document.createElement("summary");
  summary.textContent = "What is an estimate from the evaluation?";
  const text = document.createElement("p");
  text.textContent =
    `The search looked ${depth} plies (single moves of either side) ahead. Lines that had not ` +
    `ended by then were not played out: the search stopped there, at its cutoff, and scored ` +
    `each position with the game's evaluation, a rule of thumb rather than a proof. ` +
    `This game's evaluation, ${evaluation.name}: ${evaluation.description} ` +
    `Its scores lie strictly between ${loss()} and +1, so a proven win or loss always counts for more.`;
  box.replaceChildren(summary, text);
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
// one action at a time: a click while the engine thinks is ignored, not queued; a game
// chosen meanwhile is set up once the action is done
let busy = false;
let pending = null;

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
  if (pending !== null) {
    const next = pending;
    pending = null;
    act(next);
  }
}

// an action that must not be lost (another game, a link): run after the one under way
function actSoon(action) {
  if (busy) pending = action;
  else act(action);
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

// a grid of `columns` tracks that shrink together to fit a narrow screen
function gridOf(columns, className = "grid") {
  const grid = document.createElement("div");
  grid.className = className;
  grid.style.setProperty("--columns", String(columns));
  return grid;
}

// the cells of every k in a row of `mark` on `cells` (rows of marks): "row,column" from 0
function winningCells(cells, mark, k) {
  const found = new Set();
  const at = (row, column) => cells[row]?.[column];
  for (let row = 0; row < cells.length; row += 1) {
    for (let column = 0; column < cells[row].length; column += 1) {
      for (const [down, across] of [[0, 1], [1, 0], [1, 1], [1, -1]]) {
        const line = Array.from({ length: k }, (_, step) => [row + step * down, column + step * across]);
        if (line.every(([r, c]) => at(r, c) === mark)) for (const [r, c] of line) found.add(`${r},${c}`);
      }
    }
  }
  return found;
}

// the marks a cell carries: the last move, a cell of the winning line (and their words)
function mark(element, last, winning) {
  const words = [];
  if (last) {
    element.dataset.last = "true";
    words.push("the last move");
  }
  if (winning) {
    element.dataset.winning = "true";
    words.push("in the winning line");
  }
  return words.length ? `, ${words.join(", ")}` : "";
}

const DRAW = {
  tic_tac_toe() {
    const { rows, columns, k } = params;
    const cells = Array.from({ length: rows }, (_, row) => [...position.slice(row * columns, (row + 1) * columns)]);
    const line = winner === null ? new Set() : winningCells(cells, "xo"[winner], k);
    const last = lastMove();
    const grid = gridOf(columns, "grid marks");
    cells.forEach((marks, row) =>
      marks.forEach((cell, column) => {
        const move = `${row + 1},${column + 1}`;
        const shown = cell === "." ? "" : cell;
        const element = button(shown, "", playable(move), () => humanMove(move));
        const marked = mark(element, move === last, line.has(`${row},${column}`));
        element.setAttribute("aria-label", `row ${row + 1}, column ${column + 1}: ${shown || "empty"}${marked}`);
        element.className = "cell";
        element.dataset.testid = `cell-${move}`;
        grid.append(element);
      }),
    );
    board.replaceChildren(grid);
  },

  connect_four() {
    const { columns, rows, k } = params;
    const cells = Array.from({ length: rows }, () => Array(columns).fill(""));
    const heights = Array(columns).fill(0);
    let lastCell = null;
    [...position].forEach((digit, index) => {
      const column = Number(digit) - 1;
      lastCell = `${rows - 1 - heights[column]},${column}`;
      cells[rows - 1 - heights[column]][column] = index % 2 === 0 ? "red" : "yellow";
      heights[column] += 1;
    });
    const line = winner === null ? new Set() : winningCells(cells, ["red", "yellow"][winner], k);
    const drops = gridOf(columns, "grid drops");
    for (let column = 1; column <= columns; column += 1) {
      const move = String(column);
      const drop = button(`↓${column}`, `drop a disc in column ${column}`, playable(move), () => humanMove(move));
      drop.dataset.testid = `column-${column}`;
      drops.append(drop);
    }
    const grid = gridOf(columns, "grid discs");
    grid.setAttribute("role", "img");
    const words = [`the board, ${position.length} discs`];
    if (lastCell !== null) words.push(`the last disc in column ${position.at(-1)}`);
    if (line.size > 0) words.push(`${["red", "yellow"][winner]} has ${k} in a row`);
    grid.setAttribute("aria-label", words.join("; "));
    cells.forEach((row, index) =>
      row.forEach((colour, column) => {
        const cell = document.createElement("span");
        cell.className = `disc ${colour}`;
        cell.dataset.testid = `disc-${rows - index},${column + 1}`;
        cell.dataset.colour = colour || "empty";
        mark(cell, `${index},${column}` === lastCell, line.has(`${index},${column}`));
        grid.append(cell);
      }),
    );
    const values = columnValues(columns);
    board.replaceChildren(...(values === null ? [] : [values]), drops, grid);
  },

  hexapawn() {
    const [rows, side] = position.split(" ");
    const grid = rows.split("/");
    const box = gridOf(grid[0].length, "grid squares");
    const hint = document.createElement("p");
    hint.className = "hint";
    hint.textContent = "Click a pawn of the side to move, then the square it goes to.";
    const last = lastMove();
    grid.forEach((row, index) =>
      [...row].forEach((piece, column) => {
        const square = `${String.fromCharCode(97 + column)}${grid.length - index}`;
        const name = { w: "white pawn", b: "black pawn", ".": "empty" }[piece];
        const moves = legal.filter((move) => move.startsWith(square) || move.endsWith(square));
        const element = button(
          { w: "♙", b: "♟", ".": "" }[piece],
          "",
          over === null && moves.length > 0,
          () => pickSquare(square, piece === side, element),
        );
        // the last move's two squares: where the pawn came from and where it went
        const marked = last !== null && (last.startsWith(square) || last.endsWith(square));
        element.setAttribute("aria-label", `${square}: ${name}${mark(element, marked, false)}`);
        element.className = "cell";
        element.dataset.testid = `square-${square}`;
        box.append(element);
      }),
    );
    board.replaceChildren(box, hint);
  },

  nim() {
    const [piles] = nimPiles();
    const last = lastMove();
    const [lastPile, taken] = last === null ? [0, 0] : last.split(":").map(Number);
    const list = document.createElement("ul");
    list.className = "piles";
    piles.forEach((size, index) => {
      const item = document.createElement("li");
      item.textContent = `Pile ${index + 1}: ${"●".repeat(size)} (${size})`;
      if (index + 1 === lastPile) {
        item.dataset.last = "true";
        item.append(`, ${taken} just taken`);
      }
      list.append(item);
    });
    const controls = document.createElement("div");
    controls.className = "controls";
    const pileLabel = label("nim-pile", "Pile");
    const pile = document.createElement("select");
    pile.id = "nim-pile";
    piles.forEach((size, index) => pile.append(new Option(`${index + 1} (${size})`, String(index + 1))));
    const countLabel = label("nim-count", "Objects to take");
    const taking = document.createElement("input");
    taking.id = "nim-count";
    taking.type = "number";
    taking.min = "1";
    taking.value = "1";
    const take = button("Take", "take the objects from the pile", over === null, () =>
      humanMove(`${pile.value}:${taking.value.trim()}`),
    );
    take.dataset.testid = "nim-take";
    controls.append(pileLabel, pile, countLabel, taking, take);
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
  let answer;
  if (spec.has_chance) {
    $("deepening").hidden = true;
    answer = await (await post("/v1/games/solve", { ...body, algorithm: "value_iteration" })).json();
  } else {
    answer = await deepen("/v1/games/solve", body, "Solving the position");
  }
  showSolution(answer);
  // proven within the budget: the position is small enough to value every move to the end
  if (answer.complete && !spec.has_chance && answer.best_moves.length > 0) {
    analysed = await (await post("/v1/games/solve", { ...body, analyze: true })).json();
    showProbes(analysed);
  }
}

// a solution as a list of terms
function showSolution(answer) {
  const player = answer.to_move === -1 ? 0 : answer.to_move;
  const rows = [
    ["Verdict", capital(verdict(answer, player, answer.plies_to_end))],
    ["Value", `${exact(answer, "value")} for ${playerName(player)} (${valueKind(answer)})`],
    ["Proven", proven(answer)],
    ["Best moves", answer.best_moves.join(", ") || "none: the game is over"],
    ["Principal variation", line(answer.principal_variation, answer.to_move) || "none"],
    ["Depth completed", String(answer.depth_completed)],
    ["Nodes", count(answer.stats.nodes)],
  ];
  if (answer.plies_to_end !== undefined && answer.plies_to_end !== null) {
    rows.splice(3, 0, ["Plies to the end", String(answer.plies_to_end)]);
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
  explainCutoff($("solution-estimate"), answer.complete || spec.has_chance ? null : answer.depth_completed);
}

// a line of play, each move with its player (players alternate; a die breaks the pattern)
function line(moves, first) {
  if (spec.has_chance) return moves.join(" → ");
  return moves.map((move, index) => `${shortName((first + index) % 2)} ${move}`).join(" → ");
}

function proven(answer) {
  if (answer.complete) return "yes: searched to the end of every line";
  if (answer.algorithm === "value_iteration") {
    return `no: value iteration, ${answer.sweeps} sweeps, every value within ${answer.tolerance_exact}`;
  }
  return `no: an estimate from a search ${answer.depth_completed} plies deep`;
}

function valueKind(answer) {
  if (spec.name === "pig") return "a probability of winning";
  if (!answer.complete) return "an estimate";
  if (answer.value === 1) return "a win";
  if (answer.value === -1) return "a loss";
  return "a draw";
}

// the trees page restores its input from the URL's fragment and solves the tree on load;
// it opens in a new tab, opened at the click (later, a browser would take it for a pop-up)
async function openTree() {
  const tab = window.open("", "_blank");
  if (tab !== null) {
    tab.opener = null;
    tab.document.title = "Arbiter · the game tree";
    tab.document.body.textContent = "Unfolding the game tree…";
  }
  let text;
  try {
    const depth = numberOr($("tree-depth").value);
    const answer = await (await post("/v1/games/tree", { game: spec.name, params, position, depth })).json();
    text = JSON.stringify(answer.tree);
    $("tree-note").textContent = treeNote(answer);
  } catch (problem) {
    tab?.close();
    throw problem;
  }
  const state = {
    tree: text,
    algorithm: text.includes('"chance"') ? "expectimax" : "alphabeta",
    depth: "",
    equality: true,
  };
  const address = new URL(`/#${encodeURIComponent(JSON.stringify(state))}`, location.href).href;
  if (tab !== null) {
    tab.location.replace(address);
  } else {
    // pop-ups refused: a link to follow instead
    const link = $("tree-link");
    link.href = address;
    link.hidden = false;
  }
}

// what the opened tree's numbers are: MAX is the player to move here, and a leaf where the
// game goes on carries the evaluation, not a result
function treeNote(answer) {
  const max = shortName(answer.to_move);
  const results = spec.name === "pig" ? "1 (a win) or 0 (a loss)" : "+1, 0 or -1 (a win, a draw, a loss)";
  const opened = `The tree opened in a new tab: ${count(answer.nodes)} nodes, ${answer.depth} plies deep; ${max}, to move here, is MAX at its root, and every value is from ${max}'s side.`;
  const finished = answer.leaves - answer.cutoff_leaves;
  const ended = finished > 0 ? ` ${count(finished)} leaves are finished games, worth ${results}.` : "";
  if (answer.cutoff_leaves === 0) return `${opened}${ended}`;
  return (
    `${opened}${ended} The other ${count(answer.cutoff_leaves)} leaves are where the unfolding stopped with the game still ` +
    `going on: each carries the evaluation ${answer.evaluation} of that position, ${estimateScale(max)}, ` +
    `not a result.`
  );
}

const estimateScale = (player) =>
  spec.name === "pig"
    ? `a guess at ${player}'s chance of winning, strictly between 0 and 1`
    : `a guess strictly between -1 and +1: above 0 it favours ${player}, below 0 the other side`;

// -- wiring -------------------------------------------------------------------------------

async function newGame() {
  await load(null, chosen, readParams($("param-inputs"), chosen));
  history = [];
  fromStart = true;
  showEngine("");
  hideSolution();
  $("tree-note").textContent = ""; // another game's tree
  $("tree-link").hidden = true;
  await engineReplies();
}

$("setup-form").addEventListener("submit", (event) => {
  event.preventDefault();
  act(newGame);
});
// another game: its initial position at once (after the engine's move, if it is thinking)
gameSelect.addEventListener("change", () => {
  chooseGame(gameSelect.value);
  actSoon(newGame);
});
$("position-form").addEventListener("submit", (event) => {
  event.preventDefault();
  act(async () => {
    await load(positionInput.value.trim(), chosen, readParams($("param-inputs"), chosen));
    history = [];
    fromStart = atStart();
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
$("analyse").addEventListener("click", () => act(analyse, true));
// not through act: it is pressed while the search is under way
$("stop").addEventListener("click", () => {
  stopAsked = true;
  $("deepening-status").textContent = "Stopping once the request under way answers…";
});
$("open-tree").addEventListener("click", () => {
  $("tree-link").hidden = true;
  $("tree-note").textContent = "";
  act(openTree, true);
});
$("engine-side").addEventListener("change", () => spec && showStatus());

// whether the game on the board is at its start: the catalogue's initial position, which is
// the defaults' (other parameters: not known here, so a set position is taken as no start)
function atStart() {
  const defaults = Object.fromEntries(spec.parameters.map((parameter) => [parameter.name, parameter.default]));
  return position === spec.initial_position && JSON.stringify(params) === JSON.stringify(defaults);
}

// the page's state from its link (a game, its parameters, a position): false if none
function restore() {
  const saved = stateFromUrl();
  if (saved === null) return false;
  chooseGame(saved.game);
  fillParams($("param-inputs"), saved.params ?? {});
  if (saved.engine !== undefined) $("engine-side").value = saved.engine;
  const [game, values] = [chosen, readParams($("param-inputs"), chosen)];
  actSoon(async () => {
    await load(saved.position ?? null, game, values);
    history = [];
    fromStart = atStart();
  });
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
