// The tree drawing as a view, shared by every page that draws a tree (the trees page, which
// /games opens, and /practice): a new drawing fits its figure, as wide as the page gives it;
// zoom (buttons, wheel, pinch, the keys + - 0) and pan (drag, Shift+arrow keys) move the
// SVG's viewBox, and a node asked for (the step-through's current one) is brought into
// view. On the trees page it also collapses and expands subtrees and exports the picture
// as PNG. The server stays the one source of layout: collapsing asks it for a new drawing
// (the render endpoint's `collapsed` and `expanded`), and a tree too big to draw at once is
// drawn by the server to the depth that fits (`max_nodes_drawn`), with a note saying so.
//
// The view builds its own tools (a row of buttons and a note) before the figure, and
// listens on the figure: a new <svg> put into it is fitted at once, and a "tree-reveal"
// event ({detail: {node}}) brings that node into view.

import { download, pngOf, post } from "./common.js";

// The most nodes the page draws at once. Measured with bench/workbench.py in headless
// chromium: a 2,000-node drawing (the server's SVG limit) is solved, sent and drawn in
// well under a second, so the page draws as much as the server lays out.
export const DRAW_LIMIT = 2000;

const ZOOM_STEP = 1.25;
const MAX_ZOOM = 8; // at most 8 times the drawing's own size
const MIN_HEIGHT = 240; // pixels: room to zoom into a wide, flat tree
const MAX_HEIGHT = 640; // pixels: a big tree is shown whole and zoomed into, not scrolled
const SCREEN_SHARE = 0.75; // ... and never taller than this share of the window (a phone)
const PAN_STEP = 0.15; // a Shift+arrow key moves the view by this share of its size
// Below this many screen pixels per drawing unit (12-pixel values under 5 pixels) texts
// are unreadable, and laying them out and painting them is most of the time a big tree
// takes to draw and to repaint at each step: they are hidden until the user zooms in.
const READABLE = 0.4;

const KEYS_HINT = "Drag to move, wheel or pinch to zoom; keys on the drawing: + and − zoom, 0 fits, Shift+arrows move.";

function button(id, text, title) {
  const element = document.createElement("button");
  element.type = "button";
  element.id = id;
  element.dataset.testid = id;
  element.textContent = text;
  if (title) element.title = title;
  return element;
}

// the tools' row and the note, put before the figure
function buildTools(figure, { collapsible, exportable }) {
  const tools = document.createElement("div");
  tools.className = "controls view-tools";
  tools.id = "view-tools";
  tools.setAttribute("role", "toolbar");
  tools.setAttribute("aria-label", "The drawing's view");
  tools.hidden = true;
  const zoomIn = button("zoom-in", "Zoom in", "Zoom in (+ on the drawing)");
  const zoomOut = button("zoom-out", "Zoom out", "Zoom out (− on the drawing)");
  const fit = button("zoom-reset", "Fit the whole tree", "The whole tree in view (0 on the drawing)");
  const scale = document.createElement("span");
  scale.className = "view-scale";
  scale.dataset.testid = "view-scale";
  scale.setAttribute("aria-live", "polite");
  tools.append(zoomIn, zoomOut, fit, scale);
  const parts = { tools, zoomIn, zoomOut, fit, scale, collapse: null, png: null };
  if (collapsible) {
    parts.collapse = button(
      "collapse-node",
      "Collapse",
      "Collapses or expands the subtree of the node focused or last clicked",
    );
    parts.collapse.disabled = true;
    tools.append(parts.collapse);
  }
  if (exportable) {
    parts.png = button("export-png", "Download PNG");
    tools.append(parts.png);
  }
  const hint = document.createElement("span");
  hint.className = "view-hint";
  hint.id = `${figure.id}-view-hint`;
  hint.textContent = KEYS_HINT;
  tools.append(hint);
  const note = document.createElement("p");
  note.id = "view-note";
  note.className = "view-note";
  note.dataset.testid = "view-note";
  note.setAttribute("role", "status");
  note.hidden = true;
  figure.before(tools, note);
  figure.classList.add("tree-frame");
  figure.tabIndex = 0;
  figure.setAttribute("aria-describedby", hint.id);
  return { ...parts, note };
}

// A node's centre and extent in the drawing's units, from its shape's attributes (no
// layout is read: a step asks for it after changing texts)
export function extentOf(node) {
  const shape = node.querySelector(":scope > :is(polygon, rect, circle, path)");
  const number = (name) => Number(shape?.getAttribute(name) ?? 0);
  let xs = [0];
  let ys = [0];
  if (shape?.tagName === "polygon") {
    const points = shape.getAttribute("points").trim().split(/[\s,]+/).map(Number);
    xs = points.filter((_, i) => i % 2 === 0);
    ys = points.filter((_, i) => i % 2 === 1);
  } else if (shape?.tagName === "rect") {
    xs = [number("x"), number("x") + number("width")];
    ys = [number("y"), number("y") + number("height")];
  } else if (shape?.tagName === "circle") {
    xs = [number("cx") - number("r"), number("cx") + number("r")];
    ys = [number("cy") - number("r"), number("cy") + number("r")];
  } else if (shape?.tagName === "path") {
    // a chance node's ellipse: "M left,y a half,r ..."
    const [left, y, half, r] = shape.getAttribute("d").match(/-?\d+(?:\.\d+)?/g).map(Number);
    xs = [left, left + 2 * half];
    ys = [y - r, y + r];
  }
  const [left, right] = [Math.min(...xs), Math.max(...xs)];
  const [top, bottom] = [Math.min(...ys), Math.max(...ys)];
  return { x: (left + right) / 2, y: (top + bottom) / 2, half: (right - left) / 2, top, bottom };
}

// The view of `figure`. Options: `onError(problem)` for a failed redraw or export;
// `place(svgText)` puts a redrawn tree into the figure (the trees page annotates its nodes
// there); `collapsible` adds collapsing and expanding subtrees (which redraws through the
// render endpoint), `exportable` the PNG download.
export function treeView(
  figure,
  { onError = () => {}, place = (text) => (figure.innerHTML = text), collapsible = false, exportable = false } = {},
) {
  const parts = buildTools(figure, { collapsible, exportable });
  const { tools, note } = parts;
  let body = null; // the last render request, without the view's options
  let collapsed = new Set();
  let expanded = new Set();
  let selected = null; // the node id focused or last clicked
  let full = null; // the whole drawing's viewBox [x, y, width, height]
  let box = null; // the viewBox shown
  let room = figure.clientWidth; // kept by a ResizeObserver: reading it forces a layout
  let tall = 0; // the drawing's height on the page, in pixels

  const svg = () => figure.querySelector(":scope > svg");

  function options() {
    return {
      toggles: true,
      max_nodes_drawn: DRAW_LIMIT,
      collapsed: [...collapsed],
      expanded: [...expanded],
    };
  }

  // the drawing of a newly solved tree: nothing collapsed but what does not fit
  async function render(request) {
    body = request;
    collapsed = new Set();
    expanded = new Set();
    selected = null;
    return (await post("/v1/trees/render", { ...body, ...options() })).text();
  }

  async function redraw() {
    try {
      place(await (await post("/v1/trees/render", { ...body, ...options() })).text());
    } catch (problem) {
      onError(problem);
    }
  }

  // screen pixels per drawing unit at the view shown (the SVG is `shown` by `tall` pixels)
  function pixelsPerUnit() {
    if (box === null || full === null) return 1;
    const shown = Math.min(room, full[2]);
    return Math.min(shown / box[2], tall / box[3]);
  }

  function setBox(next) {
    box = next;
    svg()?.setAttribute("viewBox", box.map((v) => Math.round(v * 10) / 10).join(" "));
    detail();
  }

  // texts shown only where they can be read (see READABLE); the scale said in the tools
  function detail() {
    if (box === null || full === null) return;
    const pixels = pixelsPerUnit();
    parts.scale.textContent = `${Math.round(pixels * 100)}%`;
    const overview = pixels < READABLE;
    if (figure.classList.contains("overview") !== overview) {
      figure.classList.toggle("overview", overview);
      describe(svg());
    }
  }

  // zoom by `factor` (> 1: in) around the point (px, py) of the drawing, in its units
  function zoom(factor, px, py) {
    if (box === null) return;
    const [x, y, w, h] = box;
    // no closer than MAX_ZOOM times the drawing's own size, no farther than a quarter of
    // the fitted size
    const now = pixelsPerUnit();
    const fitted = Math.min(Math.min(room, full[2]) / full[2], tall / full[3]);
    const limited = Math.max(fitted / 4, Math.min(MAX_ZOOM, now * factor)) / now;
    const cx = px ?? x + w / 2;
    const cy = py ?? y + h / 2;
    const nw = w / limited;
    const nh = h / limited;
    setBox([cx - ((cx - x) * nw) / w, cy - ((cy - y) * nh) / h, nw, nh]);
  }

  function fit() {
    if (full !== null) setBox([...full]);
  }

  // the drawing's units per screen pixel, and a screen point in the drawing's units
  function scale() {
    const rect = svg().getBoundingClientRect();
    return Math.max(box[2] / rect.width, box[3] / rect.height);
  }

  function toDrawing(clientX, clientY) {
    const rect = svg().getBoundingClientRect();
    const s = scale();
    // preserveAspectRatio's default centres the viewBox in the element
    const x = box[0] + (clientX - rect.left - (rect.width - box[2] / s) / 2) * s;
    const y = box[1] + (clientY - rect.top - (rect.height - box[3] / s) / 2) * s;
    return [x, y];
  }

  // the node `id` in view: the view moves (at the same zoom) to centre it if it is out
  function reveal(id) {
    if (box === null || id === undefined || id === null) return;
    const node = nodeOf(id);
    if (node === undefined) return;
    const { x, y, half, top, bottom } = extentOf(node);
    const [bx, by, bw, bh] = box;
    const margin = Math.min(bw, bh) * 0.05;
    const inside =
      x - half >= bx + margin && x + half <= bx + bw - margin && top >= by + margin && bottom <= by + bh - margin;
    if (!inside) setBox([x - bw / 2, y - bh / 2, bw, bh]);
  }

  function describe(picture) {
    if (!picture) return;
    const nodes = Number(picture.dataset.nodes);
    const depth = picture.dataset.depthDrawn;
    const said = [];
    if (depth !== undefined) {
      said.push(
        `This tree has ${nodes.toLocaleString("en")} nodes, more than the page draws at once ` +
          `(${DRAW_LIMIT.toLocaleString("en")}): it is drawn to depth ${depth}, with the ` +
          `subtrees below collapsed (${picture.dataset.drawn} nodes drawn). Expand a subtree ` +
          "with its + button, or select a node and press Expand.",
      );
    }
    if (figure.classList.contains("overview")) {
      said.push("Values and names are too small to read at this size: zoom in to see them.");
    }
    note.textContent = said.join(" ");
    note.hidden = said.length === 0;
  }

  function nodeOf(id) {
    return figure.querySelector(`[data-node-id="${CSS.escape(id)}"]`) ?? undefined;
  }

  function select(id) {
    if (!collapsible) return;
    selected = id;
    figure.querySelector(".selected")?.classList.remove("selected");
    const node = id === null ? undefined : nodeOf(id);
    node?.classList.add("selected");
    const toggle = id === null ? null : figure.querySelector(`[data-toggle="${CSS.escape(id)}"]`);
    parts.collapse.disabled = toggle === null;
    parts.collapse.textContent = node?.dataset.collapsed === "true" ? "Expand" : "Collapse";
  }

  function toggle(id) {
    if (nodeOf(id)?.dataset.collapsed === "true") {
      collapsed.delete(id);
      expanded.add(id);
    } else {
      collapsed.add(id);
      expanded.delete(id);
    }
    selected = id;
    redraw();
  }

  // the drawing's height on the page: as tall as the whole drawing is at the figure's
  // width, within bounds (and within the window, so a phone can scroll past it)
  function size(picture) {
    const [, , w, h] = full;
    const fitted = (h * Math.min(room, w)) / w;
    const highest = Math.max(MIN_HEIGHT, Math.min(MAX_HEIGHT, innerHeight * SCREEN_SHARE));
    tall = Math.round(Math.min(highest, h, Math.max(MIN_HEIGHT, fitted)));
    picture.setAttribute("height", String(tall));
  }

  // a new drawing in the figure (after Solve, Generate or a collapse): fit it, wire it up
  function attach() {
    const picture = svg();
    if (!picture) {
      tools.hidden = true;
      full = null;
      box = null;
      return;
    }
    if (picture.dataset.width !== undefined) return; // already fitted
    const [w, h] = ["width", "height"].map((name) => Number(picture.getAttribute(name)));
    full = [0, 0, w, h];
    picture.dataset.width = String(w);
    picture.dataset.height = String(h);
    picture.setAttribute("width", "100%");
    picture.style.maxWidth = `${w}px`;
    size(picture);
    setBox([...full]);
    tools.hidden = false;
    describe(picture);
    select(selected !== null && nodeOf(selected) ? selected : null);
  }

  // runs before the new drawing is laid out, so texts too small to read never are
  new MutationObserver(attach).observe(figure, { childList: true });
  new ResizeObserver(() => {
    if (room === figure.clientWidth) return;
    room = figure.clientWidth;
    const picture = svg();
    if (picture && full !== null) size(picture);
    detail();
  }).observe(figure);
  figure.addEventListener("tree-reveal", (event) => reveal(event.detail?.node));

  // -- pointer, wheel, pinch and keyboard ---------------------------------------------
  const pointers = new Map(); // pointer id -> its last [clientX, clientY]
  let drag = null;
  let pinch = null;
  let dragged = false; // the click that ends a drag selects nothing, marks nothing

  const spread = () => {
    const [a, b] = [...pointers.values()];
    return { distance: Math.hypot(a[0] - b[0], a[1] - b[1]), centre: [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2] };
  };

  figure.addEventListener("pointerdown", (event) => {
    if (!svg() || box === null || (event.pointerType === "mouse" && event.button !== 0)) return;
    dragged = false;
    pointers.set(event.pointerId, [event.clientX, event.clientY]);
    if (pointers.size === 2) {
      drag = null;
      pinch = { ...spread(), box: [...box] };
      for (const id of pointers.keys()) figure.setPointerCapture(id);
    } else if (pointers.size === 1) {
      drag = { x: event.clientX, y: event.clientY, box: [...box], moved: false };
    }
  });
  figure.addEventListener("pointermove", (event) => {
    if (!pointers.has(event.pointerId)) return;
    pointers.set(event.pointerId, [event.clientX, event.clientY]);
    if (pinch !== null && pointers.size === 2) {
      const now = spread();
      box = [...pinch.box];
      const [px, py] = toDrawing(...pinch.centre);
      zoom(now.distance / pinch.distance, px, py);
      dragged = true;
      return;
    }
    if (drag === null) return;
    const dx = event.clientX - drag.x;
    const dy = event.clientY - drag.y;
    if (!drag.moved && Math.hypot(dx, dy) < 4) return; // a click, not a drag
    if (!drag.moved) figure.setPointerCapture(event.pointerId);
    drag.moved = true;
    const s = scale();
    setBox([drag.box[0] - dx * s, drag.box[1] - dy * s, drag.box[2], drag.box[3]]);
  });
  const endPointer = (event) => {
    if (!pointers.has(event.pointerId)) return;
    pointers.delete(event.pointerId);
    if (drag?.moved || pinch !== null) dragged = true;
    if (figure.hasPointerCapture(event.pointerId)) figure.releasePointerCapture(event.pointerId);
    if (pointers.size < 2) pinch = null;
    drag = null;
  };
  figure.addEventListener("pointerup", endPointer);
  figure.addEventListener("pointercancel", endPointer);
  figure.addEventListener(
    "wheel",
    (event) => {
      if (!svg() || box === null) return;
      event.preventDefault();
      const [px, py] = toDrawing(event.clientX, event.clientY);
      zoom(event.deltaY < 0 ? ZOOM_STEP : 1 / ZOOM_STEP, px, py);
    },
    { passive: false },
  );
  // the click that ends a drag or a pinch is this view's alone: caught before any node's
  // own listener (the practice page's marks) or the page's (the trees page's editor)
  figure.addEventListener(
    "click",
    (event) => {
      if (!dragged) return;
      dragged = false;
      event.stopPropagation();
      event.preventDefault();
    },
    { capture: true },
  );
  figure.addEventListener("click", (event) => {
    const toggleButton = collapsible ? event.target.closest("[data-toggle]") : null;
    if (toggleButton) {
      event.stopImmediatePropagation(); // a toggle's click opens no editor
      toggle(toggleButton.dataset.toggle);
      return;
    }
    const node = event.target.closest("[data-node-id]");
    select(node ? node.dataset.nodeId : null);
  });
  const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  figure.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const toggleButton = collapsible ? event.target.closest("[data-toggle]") : null;
    if (toggleButton && (event.key === "Enter" || event.key === " ")) {
      event.preventDefault();
      event.stopImmediatePropagation();
      toggle(toggleButton.dataset.toggle);
      return;
    }
    if (box === null) return;
    let done = true;
    if (event.key === "+" || event.key === "=") zoom(ZOOM_STEP);
    else if (event.key === "-" || event.key === "_") zoom(1 / ZOOM_STEP);
    else if (event.key === "0") fit();
    else if (event.shiftKey && event.key in moves) {
      const [dx, dy] = moves[event.key];
      setBox([box[0] + dx * box[2] * PAN_STEP, box[1] + dy * box[3] * PAN_STEP, box[2], box[3]]);
    } else done = false;
    if (done) {
      event.preventDefault();
      event.stopPropagation();
    }
  });
  figure.addEventListener("focusin", (event) => {
    const node = event.target.closest("[data-node-id]");
    if (node) {
      select(node.dataset.nodeId);
      reveal(node.dataset.nodeId); // a node reached with Tab is brought into view
    }
  });

  parts.zoomIn.addEventListener("click", () => zoom(ZOOM_STEP));
  parts.zoomOut.addEventListener("click", () => zoom(1 / ZOOM_STEP));
  parts.fit.addEventListener("click", fit);
  parts.collapse?.addEventListener("click", () => selected !== null && toggle(selected));
  parts.png?.addEventListener("click", () => exportPng(svg(), full).catch(onError));

  // what an export draws: the tree as the page shows it (collapsed alike), no toggles
  function exportOptions() {
    const { toggles, ...drawn } = options();
    return drawn;
  }

  return { render, exportOptions, reveal, fit };
}

// The largest side of a canvas every browser paints (Chrome's limit is 32,767 pixels).
const CANVAS_SIDE = 16384;

// The whole drawing (not the zoomed view, without the collapse buttons) painted into a
// canvas at twice its size (less for a drawing so wide that twice would not fit a canvas),
// downloaded as tree.png.
export async function exportPng(picture, full) {
  if (!picture || !full) return;
  const copy = picture.cloneNode(true);
  copy.querySelector(".toggles")?.remove();
  for (const node of copy.querySelectorAll(".selected")) node.classList.remove("selected");
  const [, , width, height] = full;
  copy.setAttribute("viewBox", full.join(" "));
  copy.setAttribute("width", String(width));
  copy.setAttribute("height", String(height));
  copy.removeAttribute("style");
  const scale = Math.min(2, CANVAS_SIDE / width, CANVAS_SIDE / height);
  const text = new XMLSerializer().serializeToString(copy);
  const tooLarge = "the drawing is too large for a PNG: collapse some subtrees";
  download("tree.png", await pngOf(text, scale, [width, height], tooLarge), "image/png");
}
