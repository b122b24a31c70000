// Editing a tree in its JSON form: the node objects of docs/trees.md
// ({"kind", "value", "p", "player", "children", ...}). Nodes are found by the API's ids
// (the given id, else "<parent id>.<position>", the root "root"). Every walk is a loop
// over an explicit stack, so no tree is too deep for the page's own code.

// The tree as nested node objects: shorthand arrays and bare numbers become objects, the
// flat form {root, nodes} becomes nested objects keeping its ids. Under max^n (`tuples`)
// an array of numbers only is one leaf's utility list, as /v1/trees/maxn reads it.
//
// Each node object remembers the form it was written in (FORM): treeText writes a node back
// in that form while its fields allow it, so an edit keeps a shorthand tree shorthand.
export function nodeObjects(raw, tuples) {
  const source = isFlat(raw) ? nestFlat(raw) : raw;
  const root = { value: source };
  const stack = [[root, "value"]];
  while (stack.length) {
    const [holder, key] = stack.pop();
    const item = holder[key];
    const short = Array.isArray(item) || item === null || typeof item !== "object";
    if (Array.isArray(item)) {
      if (tuples && item.every((x) => !Array.isArray(x) && typeof x !== "object")) {
        holder[key] = { value: item };
      } else {
        holder[key] = { children: item.slice() };
      }
    } else if (item === null || typeof item !== "object") {
      holder[key] = { value: item };
    } else {
      holder[key] = { ...item };
      if (Array.isArray(item.children)) holder[key].children = item.children.slice();
    }
    const node = holder[key];
    FORM.set(node, short ? SHORT : OBJECT);
    (node.children || []).forEach((_, i) => stack.push([node.children, i]));
  }
  return root.value;
}

// the form a node object was written in: a bare number or array (SHORT), or an object
const FORM = new WeakMap();
const SHORT = "short";
const OBJECT = "object";

export function isFlat(raw) {
  return raw !== null && typeof raw === "object" && !Array.isArray(raw) && Array.isArray(raw.nodes);
}

// {root, nodes: [{id, children: [ids]}]} -> nested objects with the same ids
function nestFlat(flat) {
  const byId = new Map(flat.nodes.map((node) => [node.id, node]));
  const copy = (id) => {
    const node = { ...byId.get(id) };
    if (node.id === undefined) node.id = id;
    return node;
  };
  const root = copy(flat.root);
  const stack = [root];
  while (stack.length) {
    const node = stack.pop();
    if (!Array.isArray(node.children)) continue;
    node.children = node.children.map(copy);
    stack.push(...node.children);
  }
  return root;
}

// every node with its id, parent and position, root first
export function walk(tree) {
  const found = [];
  const stack = [{ node: tree, id: tree.id ?? "root", parent: null, parentId: null, index: -1 }];
  while (stack.length) {
    const entry = stack.pop();
    found.push(entry);
    const kids = entry.node.children || [];
    for (let i = kids.length - 1; i >= 0; i -= 1) {
      const kid = kids[i];
      const id = kid.id ?? `${entry.id}.${i}`;
      stack.push({ node: kid, id, parent: entry.node, parentId: entry.id, index: i });
    }
  }
  return found;
}

export function locate(tree, id) {
  return walk(tree).find((entry) => entry.id === id) || null;
}

// the number of utilities per leaf (0 when leaves hold single numbers)
export function utilityWidth(tree) {
  const leaf = walk(tree).find((entry) => Array.isArray(entry.node.value));
  return leaf ? leaf.node.value.length : 0;
}

const isLeaf = (node) => !Array.isArray(node.children) || node.children.length === 0;

function newLeaf(tree) {
  const width = utilityWidth(tree);
  return { value: width ? new Array(width).fill(0) : 0 };
}

export function addChild(tree, id) {
  const { node } = locate(tree, id);
  if (isLeaf(node)) {
    delete node.value;
    delete node.eval;
    if (node.kind === "leaf") delete node.kind;
    node.children = [];
  }
  const leaf = newLeaf(tree);
  // written as its siblings are (as its parent was, for a first child)
  FORM.set(leaf, FORM.get(node.children[0] ?? node) ?? OBJECT);
  // under stated probabilities a new outcome starts impossible, for the user to set
  if (node.kind === "chance" && node.children.some((kid) => kid.p !== undefined)) leaf.p = 0;
  node.children.push(leaf);
}

export function removeNode(tree, id) {
  const { parent, index } = locate(tree, id);
  if (parent === null) throw { detail: "the root cannot be removed", pointer: "" };
  parent.children.splice(index, 1);
  if (parent.kind === "chance") {
    // the stated probabilities no longer sum to 1: the outcomes left are equally likely
    for (const kid of parent.children) delete kid.p;
  }
  if (parent.children.length === 0) {
    delete parent.children;
    for (const field of ["kind", "player", "eval"]) delete parent[field];
    Object.assign(parent, newLeaf(tree));
  }
}

// a number as typed: JSON numbers as numbers, anything else ("7/2") as the API's string form
function numberOf(text) {
  const trimmed = text.trim();
  return /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(trimmed) ? Number(trimmed) : trimmed;
}

export function setValue(tree, id, text) {
  const { node } = locate(tree, id);
  node.value = utilityWidth(tree) || text.includes(",")
    ? text.split(",").map(numberOf)
    : numberOf(text);
}

export function setKind(tree, id, kind, player) {
  const { node } = locate(tree, id);
  if (node.kind === "chance" && kind !== "chance") {
    for (const kid of node.children || []) delete kid.p; // p only under chance nodes
  }
  node.kind = kind;
  if (kind === "player") node.player = Number(player || 0);
  else delete node.player;
}

// Set the probability of the edge into `id`; siblings without one share the rest equally,
// so the outcomes still sum to exactly 1.
export function setProbability(tree, id, text) {
  const { parent, node } = locate(tree, id);
  const p = rational(text);
  node.p = text.trim();
  const others = parent.children.filter((kid) => kid !== node && kid.p === undefined);
  if (others.length === 0) return;
  const [num, den] = [p[1] - p[0], p[1] * BigInt(others.length)];
  for (const kid of others) kid.p = ratioText(num, den);
}

// "0.25", "1/3" or "2" as [numerator, denominator] BigInts
function rational(text) {
  const trimmed = text.trim();
  const fraction = /^(\d+)\/(\d+)$/.exec(trimmed);
  if (fraction) return [BigInt(fraction[1]), BigInt(fraction[2])];
  const decimal = /^(\d*)(?:\.(\d+))?$/.exec(trimmed);
  if (!decimal || trimmed === "" || trimmed === ".") {
    throw { detail: `a probability is a number such as 0.25 or 1/3, got "${trimmed}"`, pointer: "" };
  }
  const digits = decimal[2] || "";
  return [BigInt((decimal[1] || "0") + digits), 10n ** BigInt(digits.length)];
}

function ratioText(num, den) {
  let [a, b] = [num < 0n ? -num : num, den];
  while (b !== 0n) [a, b] = [b, a % b];
  const divisor = a || 1n;
  const [n, d] = [num / divisor, den / divisor];
  return d === 1n ? String(n) : `${n}/${d}`;
}

// The tree as text, each node in the form it was written in while its fields allow it (a
// number or an array written as one stays one: a shorthand tree stays shorthand), on one
// line when it fits in WIDTH characters, else with its children one per line beneath it.
const WIDTH = 80;
const NODE_KEYS = new Set(["kind", "value", "children"]);

export function treeText(tree, tuples = false) {
  return layout(compact(tree, tuples));
}

// the node objects as plain JSON values, shorthand where a node was written so and may be
function compact(tree, tuples) {
  const out = { value: null };
  const stack = [{ node: tree, holder: out, key: "value", parentKind: null, done: false }];
  while (stack.length) {
    const task = stack.pop();
    const { node } = task;
    const kind = node.kind ?? implied(task.parentKind);
    if (!task.done) {
      task.done = true;
      task.kind = kind;
      task.children = (node.children ?? []).slice();
      stack.push(task);
      task.children.forEach((kid, i) =>
        stack.push({ node: kid, holder: task.children, key: i, parentKind: kind, done: false }),
      );
      continue;
    }
    const fields = Object.keys(node).filter((name) => name !== "kind" || node.kind !== implied(task.parentKind));
    const plain = fields.every((name) => NODE_KEYS.has(name)) && !fields.includes("kind");
    const leaf = task.children.length === 0;
    const shortLeaf = tuples
      ? Array.isArray(node.value) && node.value.every((x) => typeof x === "number")
      : typeof node.value === "number";
    const short = FORM.get(node) === SHORT && plain;
    if (short && leaf && shortLeaf) task.holder[task.key] = node.value;
    else if (short && !leaf && !fields.includes("value")) task.holder[task.key] = task.children;
    else {
      // the fields in the order written, the children last (an edit appends what it sets)
      const { children, ...copy } = node;
      if (!leaf) copy.children = task.children;
      else if (children !== undefined) copy.children = children;
      task.holder[task.key] = copy;
    }
  }
  return out.value;
}

// the kind a node without one takes: the opposite of its parent's (the root: max)
function implied(parentKind) {
  if (parentKind === null) return "max";
  return { max: "min", min: "max" }[parentKind];
}

// One line per value that fits WIDTH; a longer array or node object opens its list on its
// own line and puts each item on a line of its own, indented.
function layout(value) {
  const lines = [];
  const stack = [{ value, indent: 0, after: "" }];
  while (stack.length) {
    const { value: item, indent, after, text } = stack.pop();
    const pad = " ".repeat(indent);
    if (text !== undefined) {
      lines.push(pad + text);
      continue;
    }
    const line = oneLine(item);
    const list = Array.isArray(item) ? item : item?.children;
    if (pad.length + line.length + after.length <= WIDTH || !Array.isArray(list) || list.length === 0) {
      lines.push(pad + line + after);
      continue;
    }
    let open = "[";
    let close = "]";
    if (!Array.isArray(item)) {
      const { children, ...rest } = item;
      const head = oneLine(rest);
      open = `${head.slice(0, -1)}${head === "{}" ? "" : ", "}"children": [`;
      close = "]}";
    }
    lines.push(pad + open);
    stack.push({ indent, text: close + after });
    if (list.every((x) => x === null || typeof x !== "object")) {
      // a long list of leaves: as many to a line as fit
      for (const row of rows(list.map((x) => JSON.stringify(x)), WIDTH - indent - 2).reverse()) {
        stack.push({ indent: indent + 2, text: row });
      }
      continue;
    }
    for (let i = list.length - 1; i >= 0; i -= 1) {
      stack.push({ value: list[i], indent: indent + 2, after: i < list.length - 1 ? "," : "" });
    }
  }
  return lines.join("\n");
}

// items joined by ", " into lines of at most `width` characters (each line but the last
// ending with its comma)
function rows(items, width) {
  const out = [];
  let line = "";
  for (const item of items) {
    if (line !== "" && line.length + item.length + 2 > width) {
      out.push(`${line},`);
      line = item;
    } else line = line === "" ? item : `${line}, ${item}`;
  }
  out.push(line);
  return out;
}

// a JSON value on one line, spaced as people write it: [3, 12, 8], {"value": 3}
function oneLine(value) {
  return JSON.stringify(value, null, 1)
    .replace(/([[{])\n\s*/g, "$1")
    .replace(/\n\s*([\]}])/g, "$1")
    .replace(/,\n\s*/g, ", ");
}
