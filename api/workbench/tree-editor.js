// Editing a tree in its JSON form: the node objects of docs/trees.md
// ({"kind", "value", "p", "player", "children", ...}). Nodes are found by the API's ids
// (the given id, else "<parent id>.<position>", the root "root"). Every walk is a loop
// over an explicit stack, so no tree is too deep for the page's own code.

// The tree as nested node objects: shorthand arrays and bare numbers become objects, the
// flat form {root, nodes} becomes nested objects keeping its ids. Under max^n (`tuples`)
// an array of numbers only is one leaf's utility list, as /v1/trees/maxn reads it.
export function nodeObjects(raw, tuples) {
  const source = isFlat(raw) ? nestFlat(raw) : raw;
  const root = { value: source };
  const stack = [[root, "value"]];
  while (stack.length) {
    const [holder, key] = stack.pop();
    const item = holder[key];
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
    (node.children || []).forEach((_, i) => stack.push([node.children, i]));
  }
  return root.value;
}

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

// The tree as text: indented JSON with each leaf (and each utility list) on one line.
export function treeText(tree) {
  return JSON.stringify(tree, null, 2)
    .replace(/\[[^[\]{}]*\]/g, (list) => list.replace(/\s+/g, " ").replace(/\[ /, "[").replace(/ \]/, "]"))
    .replace(/\{[^{}[\]]*(\[[^[\]{}]*\])?[^{}[\]]*\}/g, (leaf) =>
      leaf.replace(/\s+/g, " ").replace(/\{ /, "{").replace(/ \}/, "}"),
    );
}
