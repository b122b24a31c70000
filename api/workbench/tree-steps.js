// The step-through: a replay of the search from the trace the API returns (minimax,
// alpha-beta, expectimax with or without Star1, max^n). It never starts by itself. At step k the drawing shows what the search
// knows after its first k events, and nothing more:
// - before step 1 only the leaves' values (the problem) and the nodes' shapes (their kinds);
// - a node's value once the search has computed it (its `data-value`, with `data-bound`
//   "lower" or "upper" for a bound that a cut leaves), and before that what it knows so far:
//   "≥ 3" at a MAX node, "≤ 3" at a MIN node, a Star1 chance node's interval, a max^n
//   node's best tuple so far;
// - a node's pruned mark (its `data-state` word and grey look) from the step that cuts it;
// - the current node outlined, with its window on the drawing (`data-alpha`, `data-beta`
//   and a label "[3, +inf]") and the server's sentence for the step beside the drawing;
// - the best line (and ties) only at the last step, which then looks as the solved drawing.
// "Show the answer" shows the solved drawing as the server drew it at every step. The
// figure's class "replay" turns the solved drawing's colours off (tree-view.css); the
// server's drawing is kept (its states, classes and value texts) to be given back.

import { $ } from "./common.js";
import { nodeObjects, walk } from "./tree-editor.js";
import { extentOf } from "./tree-view.js";

const MARKS = ["pv", "pruned", "tie"]; // classes of the solved drawing the replay takes off
const LAST = { pv: "best", tie: "tie" }; // ... and gives back at the last step, as state words
const SVG = "http://www.w3.org/2000/svg";

let drawing = null;
let trace = [];
let step = -1; // the last event applied: -1 before step 1
let player = null;
let rename = (text) => text; // node ids in a sentence -> the names the drawing shows
let children = new Map(); // node id -> its children's ids, in the tree posted
let star1 = null; // Star1's [lo, hi] as fractions, for a chance node's interval
let solved = null; // node id -> the node as the server drew it (see `remember`)
let painted = new Map(); // node id -> the look last given to it
let known = new Map(); // what the search knows after the step shown (see `knownAfter`)
let final = new Map(); // ... and after the last step
let current = null; // the node element that carries the window
const windowLabel = document.createElementNS(SVG, "text");
windowLabel.setAttribute("class", "step-window");
windowLabel.dataset.testid = "step-window-label";

// how sentences name nodes: the page draws letters (A, B, ...) or ids
export function nameNodesWith(renamer) {
  rename = renamer;
}

// -- exact numbers (a Star1 chance node's interval) -------------------------------------

function gcd(a, b) {
  let [x, y] = [a < 0n ? -a : a, b];
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
}

function fraction(numerator, denominator) {
  const d = gcd(numerator, denominator) || 1n;
  return [numerator / d, denominator / d];
}

// a number as the API writes it ("-7/2", 3, 0.5) or as typed ("0.25"); null if not one
function parsed(text) {
  const source = String(text).trim();
  const ratio = /^(-?\d+)\/(\d+)$/.exec(source);
  if (ratio && ratio[2] !== "0") return fraction(BigInt(ratio[1]), BigInt(ratio[2]));
  const decimal = /^(-?)(\d+)(?:\.(\d+))?$/.exec(source);
  if (!decimal) return null;
  const digits = decimal[3] ?? "";
  const numerator = BigInt(decimal[2] + digits) * (decimal[1] ? -1n : 1n);
  return fraction(numerator, 10n ** BigInt(digits.length));
}

const plus = ([a, b], [c, d]) => fraction(a * d + c * b, b * d);
const times = ([a, b], [c, d]) => fraction(a * c, b * d);
const written = ([n, d]) => (d === 1n ? `${n}` : `${n}/${d}`);

// -- what the search knows --------------------------------------------------------------

const exactOf = (event, name) => event[`${name}_exact`] ?? event[name];

function valueText(event) {
  const value = exactOf(event, "value");
  return Array.isArray(value) ? `(${value.join(", ")})` : String(value);
}

// what an update or a cut says of its node before the node returns
function soFar(event, kind) {
  const value = valueText(event);
  if (Array.isArray(event.value)) return `${value}…`; // max^n: the best tuple so far
  const bound = event.event === "cutoff" ? event.bound : undefined;
  if (kind === "max" || bound === "lower") return `≥ ${value}`;
  if (kind === "min" || bound === "upper") return `≤ ${value}`;
  if (kind !== "chance" || event.rest === undefined) return value;
  if (Number(event.rest) === 0) return value;
  // the sum of p * v so far, plus lo (hi) for the probability still unseen
  const [sum, rest] = [parsed(exactOf(event, "value")), parsed(exactOf(event, "rest"))];
  if (star1 === null || sum === null || rest === null) return `${value} + …`;
  const [low, high] = star1.map((end) => written(plus(sum, times(end, rest))));
  return `[${low}, ${high}]`;
}

// id -> {visited, pruned, text, value, bound, final} after the events 0..last
function knownAfter(last) {
  const facts = new Map();
  const of = (id) => {
    if (!facts.has(id)) facts.set(id, {});
    return facts.get(id);
  };
  for (let index = 0; index <= last; index += 1) {
    const event = trace[index];
    const node = of(event.node);
    node.visited = true;
    if (event.event === "evaluate" || event.event === "return") {
      node.final = true;
      node.value = valueText(event);
      node.bound = event.bound === "lower" || event.bound === "upper" ? event.bound : undefined;
      const sign = { lower: "≥ ", upper: "≤ " }[node.bound] ?? "";
      node.text = sign + node.value;
    } else if (event.event === "update" || event.event === "cutoff") {
      node.text = soFar(event, solved?.get(event.node)?.kind);
    }
    for (const cut of event.cut ?? []) {
      const below = [cut];
      while (below.length) {
        const id = below.pop();
        of(id).pruned = true;
        below.push(...(children.get(id) ?? []));
      }
    }
  }
  return facts;
}

// -- the drawing ------------------------------------------------------------------------

// the solved drawing as the server drew it, kept to be given back
function remember() {
  solved = new Map();
  painted = new Map();
  current = null;
  if (drawing === null) return;
  const kinds = ["max", "min", "chance", "player", "leaf"];
  for (const node of drawing.querySelectorAll("g[data-node-id]")) {
    const label = node.querySelector(":scope > text.value");
    const entry = {
      node,
      label,
      text: label?.textContent ?? "",
      state: node.dataset.state ?? "",
      marks: MARKS.filter((mark) => node.classList.contains(mark)),
      kind: kinds.find((kind) => node.classList.contains(kind)),
      edge: null,
      edgeMarks: [],
    };
    solved.set(node.dataset.nodeId, entry);
    painted.set(node.dataset.nodeId, { ...solvedLook(entry), value: undefined, bound: undefined });
  }
  for (const edge of drawing.querySelectorAll("line.edge[data-id]")) {
    const entry = solved.get(edge.dataset.id);
    if (entry === undefined) continue;
    entry.edge = edge;
    entry.edgeMarks = MARKS.filter((mark) => edge.classList.contains(mark));
  }
}

const answerShown = () => $("show-answer").checked;

function solvedLook(entry) {
  return { state: entry.state, text: entry.text, marks: entry.marks, edge: null, edgeMarks: entry.edgeMarks };
}

// what a node shows at the step shown (`last`: the last step, with the best line)
function lookOf(id, entry, replaying, last) {
  const facts = (replaying ? known : final).get(id);
  let look;
  if (!replaying) {
    look = solvedLook(entry);
  } else {
    const words = [];
    if (facts?.visited) words.push("visited");
    if (facts?.pruned) words.push("pruned");
    let text = "";
    if (facts?.final) text = entry.text || facts.text;
    else if (facts?.text !== undefined) text = facts.text;
    else if (entry.kind === "leaf") text = entry.text; // the problem's own values
    const marks = facts?.pruned ? ["pruned"] : [];
    const edgeMarks = [...marks];
    if (last) {
      marks.push(...entry.marks.filter((mark) => mark in LAST));
      edgeMarks.push(...entry.edgeMarks.filter((mark) => mark in LAST));
      words.push(...marks.filter((mark) => mark in LAST).map((mark) => LAST[mark]));
    }
    const edgeWords = words.filter((word) => word === "visited");
    edgeWords.push(...edgeMarks.map((mark) => LAST[mark] ?? mark));
    look = { state: words.join(" "), text, marks, edge: edgeWords.join(" "), edgeMarks };
  }
  look.value = facts?.value;
  look.bound = facts?.bound;
  return look;
}

function setData(element, name, value) {
  if (value === undefined || value === null) element.removeAttribute(name);
  else element.setAttribute(name, value);
}

// give one node its look, touching only what changed (a step redraws a node or two)
function paint(id, entry, look) {
  const before = painted.get(id);
  const { node, label, edge } = entry;
  if (look.state !== before.state) node.dataset.state = look.state;
  if (look.text !== before.text && label !== null) label.textContent = look.text;
  if (look.value !== before.value) setData(node, "data-value", look.value);
  if (look.bound !== before.bound) setData(node, "data-bound", look.bound);
  if (look.marks.join() !== before.marks.join()) {
    for (const mark of MARKS) node.classList.toggle(mark, look.marks.includes(mark));
  }
  if (edge !== null && look.edge !== before.edge) setData(edge, "data-state", look.edge);
  if (edge !== null && look.edgeMarks.join() !== before.edgeMarks.join()) {
    for (const mark of MARKS) edge.classList.toggle(mark, look.edgeMarks.includes(mark));
  }
  painted.set(id, look);
}

// the window of the current node on the drawing, right of it (below a leaf, under its name)
function showWindow(event) {
  if (current !== null) {
    current.removeAttribute("data-alpha");
    current.removeAttribute("data-beta");
  }
  windowLabel.remove();
  current = event === undefined ? null : (solved.get(event.node)?.node ?? null);
  if (current === null || event.alpha === undefined) return;
  const [alpha, beta] = [exactOf(event, "alpha"), exactOf(event, "beta")];
  current.setAttribute("data-alpha", alpha);
  current.setAttribute("data-beta", beta);
  const end = (value) => (value === "inf" ? "+inf" : String(value));
  windowLabel.textContent = `[${end(alpha)}, ${end(beta)}]`;
  const { x, y, half, bottom } = extentOf(current);
  const leaf = current.classList.contains("leaf");
  windowLabel.setAttribute("x", (leaf ? x : x + half + 4).toFixed(1));
  windowLabel.setAttribute("y", (leaf ? bottom + 24 : y - 10).toFixed(1));
  windowLabel.setAttribute("text-anchor", leaf ? "middle" : "start");
  current.append(windowLabel);
}

// the drawing at the step shown: the replay, or the solved drawing when the answer is
// asked for
function paintDrawing() {
  if (drawing === null) return;
  // the page keeps what gives the answer away (the root's value, ...) until the last step
  const concealed = trace.length > 0 && !answerShown() && step < trace.length - 1;
  drawing.dispatchEvent(new CustomEvent("tree-replay", { detail: { concealed } }));
  if (solved === null) return;
  const event = trace[step];
  const replaying = trace.length > 0 && !answerShown();
  const last = step === trace.length - 1;
  drawing.classList.toggle("replay", replaying);
  for (const [id, entry] of solved) {
    const look = lookOf(id, entry, replaying, last);
    if (event !== undefined && event.node === id) {
      look.state = look.state ? `${look.state} current` : "current";
    }
    paint(id, entry, look);
  }
  showWindow(event);
}

// -- the controls -----------------------------------------------------------------------

// the search's state at an event: alpha-beta's window, a chance node's unseen probability,
// a max^n node's mover and best tuple so far
function stateOf(event) {
  const parts = [];
  if (event.alpha !== undefined) {
    parts.push(`alpha = ${exactOf(event, "alpha")}, beta = ${exactOf(event, "beta")}`);
  }
  if (event.rest !== undefined) parts.push(`unseen probability = ${exactOf(event, "rest")}`);
  const tuple = (values) => `(${values.join(", ")})`;
  if (event.player !== undefined) {
    const folded = ["update", "cutoff"].includes(event.event) && event.value;
    const best = folded ? `, best so far ${tuple(exactOf(event, "value"))}` : "";
    parts.push(`player ${event.player} to move${best}`);
  }
  if (event.held !== undefined) parts.push(`the parent holds ${tuple(exactOf(event, "held"))}`);
  return parts.join("; ");
}

function showStep() {
  const event = trace[step];
  $("step-count").textContent = `step ${step + 1} of ${trace.length}`;
  $("step-first").disabled = step < 0;
  $("step-prev").disabled = step < 0;
  $("step-next").disabled = step >= trace.length - 1;
  $("step-last").disabled = step >= trace.length - 1;
  known = knownAfter(step);
  paintDrawing();
  if (event === undefined) {
    $("step-explanation").textContent = "Press Next step to start.";
    $("step-window").textContent = "";
    return;
  }
  $("step-explanation").textContent = rename(event.explanation);
  $("step-window").textContent = stateOf(event);
  // the view (tree-view.js) moves a zoomed-in drawing to show the current node
  drawing.dispatchEvent(new CustomEvent("tree-reveal", { detail: { node: event.node } }));
}

function goTo(target) {
  step = Math.max(-1, Math.min(trace.length - 1, target));
  showStep();
}

// a step asked for by the keyboard or a button brings a drawing out of the window, or cut
// off by its bottom edge while the page could scroll it up, into it (the controls are
// beside it), e.g. the first ArrowRight after Solve; within the drawing, the view brings
// the current node into sight (see showStep)
function stepTo(target) {
  const box = drawing.getBoundingClientRect();
  const stage = drawing.closest(".stage");
  const below = box.bottom > innerHeight && (stage?.getBoundingClientRect().top ?? 0) > 0;
  if (below || box.top > innerHeight - 120 || box.bottom < 120) stage?.scrollIntoView({ block: "start" });
  goTo(target);
}

export function stopPlaying() {
  if (player !== null) clearInterval(player);
  player = null;
  $("step-play").textContent = "Play";
}

const sameTrace = (a, b) => a.length === b.length && JSON.stringify(a) === JSON.stringify(b);

// A new trace (or none: the step-through hides) with the cut-off rule it runs under, for
// the tree posted (`tree`, read as max^n's when `tuples`) and Star1's `bounds`. The same
// trace again (the drawing redrawn with other names) keeps the step.
export function startSteps(events, rule, { tree = null, tuples = false, bounds = null } = {}) {
  stopPlaying();
  const next = events || [];
  const kept = sameTrace(next, trace) ? step : -1;
  trace = next;
  children = new Map();
  if (tree !== null && trace.length > 0) {
    for (const entry of walk(nodeObjects(tree, tuples))) {
      if (entry.parentId !== null) {
        if (!children.has(entry.parentId)) children.set(entry.parentId, []);
        children.get(entry.parentId).push(entry.id);
      }
    }
  }
  const ends = bounds?.map(parsed) ?? null;
  star1 = ends !== null && ends.every((end) => end !== null) ? ends : null;
  final = knownAfter(trace.length - 1);
  $("steps").hidden = trace.length === 0;
  $("cut-rule").textContent = rule;
  goTo(kept);
}

// a key that steps, unless the keyboard is typing into a field or choosing in a list
function typing(target) {
  if (!(target instanceof Element)) return false;
  if (target.closest("textarea, select, [contenteditable]")) return true;
  const input = target.closest("input");
  return input !== null && !["checkbox", "radio", "button", "submit", "reset"].includes(input.type);
}

export function wireSteps(figure) {
  drawing = figure;
  // a new drawing (solved, renamed, collapsed or expanded) shows the step it is at
  figure.addEventListener("tree-drawn", () => {
    remember();
    known = knownAfter(step);
    paintDrawing();
  });
  $("show-answer").addEventListener("change", paintDrawing);
  $("step-next").addEventListener("click", () => stepTo(step + 1));
  $("step-prev").addEventListener("click", () => stepTo(step - 1));
  $("step-first").addEventListener("click", () => stepTo(-1));
  $("step-last").addEventListener("click", () => stepTo(trace.length - 1));
  $("step-play").addEventListener("click", () => {
    if (player !== null) {
      stopPlaying();
      return;
    }
    if (step >= trace.length - 1) goTo(-1);
    $("step-play").textContent = "Pause";
    player = setInterval(() => {
      if (step >= trace.length - 1) {
        stopPlaying();
        return;
      }
      goTo(step + 1);
    }, Number($("step-speed").value));
  });
  const keys = { ArrowRight: () => step + 1, ArrowLeft: () => step - 1, Home: () => -1, End: () => trace.length - 1 };
  document.addEventListener("keydown", (event) => {
    if (!(event.key in keys) || $("steps").hidden || trace.length === 0) return;
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey || typing(event.target)) return;
    event.preventDefault();
    stopPlaying();
    stepTo(keys[event.key]());
  });
}
