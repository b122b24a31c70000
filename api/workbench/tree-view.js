// The tree drawing as a view: zoom (buttons and wheel) and pan (drag) through the SVG's
// viewBox, collapse and expand subtrees, and export the picture as PNG. The server stays
// the one source of layout: collapsing asks it for a new drawing (the render endpoint's
// `collapsed` and `expanded`), and a tree too big to draw at once is drawn by the server
// to the depth that fits (`max_nodes_drawn`), with a note saying so.

import { $, download, pngOf, post } from "./common.js";

// The most nodes the page draws at once. Measured with bench/workbench.py in headless
// chromium: a 2,000-node drawing (the server's SVG limit) is solved, sent and drawn in
// well under a second, so the page draws as much as the server lays out.
export const DRAW_LIMIT = 2000;

const ZOOM_STEP = 1.25;
const MAX_HEIGHT = 640; // pixels: a big tree is shown whole and zoomed into, not scrolled
const MIN_HEIGHT = 240; // pixels: room to zoom into a wide, flat tree
// Below this many screen pixels per drawing unit (12-pixel values under 5 pixels) texts
// are unreadable, and laying them out and painting them is most of the time a big tree
// takes to draw and to repaint at each step: they are hidden until the user zooms in.
const READABLE = 0.4;

// `place` puts a new drawing into the figure (the tree page annotates its nodes there)
export function treeView(drawing, onError, place = (text) => (drawing.innerHTML = text)) {
  const tools = $("view-tools");
  const note = $("view-note");
  const collapseButton = $("collapse-node");
  let body = null; // the last render request, without the view's options
  let collapsed = new Set();
  let expanded = new Set();
  let selected = null; // the node id focused or last clicked
  let full = null; // the whole drawing's viewBox [x, y, width, height]
  let box = null; // the viewBox shown
  let room = drawing.clientWidth; // kept by a ResizeObserver: reading it forces a layout
  let tall = 0; // the drawing's height on the page, in pixels

  const svg = () => drawing.querySelector("svg");

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

  function setBox(next) {
    box = next;
    svg()?.setAttribute("viewBox", box.map((v) => Math.round(v * 10) / 10).join(" "));
    detail();
  }

  // texts shown only where they can be read (see READABLE)
  function detail() {
    if (box === null || full === null) return;
    const shown = Math.min(room, full[2]);
    const pixels = Math.min(shown / box[2], tall / box[3]);
    const overview = pixels < READABLE;
    if (drawing.classList.contains("overview") !== overview) {
      drawing.classList.toggle("overview", overview);
      describe(svg());
    }
  }

  // zoom by `factor` (> 1: in) around the point (px, py) of the drawing, in its units
  function zoom(factor, px, py) {
    if (box === null) return;
    const [x, y, w, h] = box;
    const cx = px ?? x + w / 2;
    const cy = py ?? y + h / 2;
    const nw = w / factor;
    const nh = h / factor;
    setBox([cx - ((cx - x) * nw) / w, cy - ((cy - y) * nh) / h, nw, nh]);
  }

  // the drawing's units per screen pixel, and a screen point in the drawing's units
  function scale() {
    const rect = svg().getBoundingClientRect();
    return Math.max(box[2] / rect.width, box[3] / rect.height);
  }

  function toDrawing(event) {
    const rect = svg().getBoundingClientRect();
    const s = scale();
    // preserveAspectRatio's default centres the viewBox in the element
    const x = box[0] + (event.clientX - rect.left - (rect.width - box[2] / s) / 2) * s;
    const y = box[1] + (event.clientY - rect.top - (rect.height - box[3] / s) / 2) * s;
    return [x, y];
  }

  function describe(picture) {
    if (!picture) return;
    const nodes = Number(picture.dataset.nodes);
    const depth = picture.dataset.depthDrawn;
    const parts = [];
    if (depth !== undefined) {
      parts.push(
        `This tree has ${nodes.toLocaleString("en")} nodes, more than the page draws at once ` +
          `(${DRAW_LIMIT.toLocaleString("en")}): it is drawn to depth ${depth}, with the ` +
          `subtrees below collapsed (${picture.dataset.drawn} nodes drawn). Expand a subtree ` +
          "with its + button, or select a node and press Expand.",
      );
    }
    if (drawing.classList.contains("overview")) {
      parts.push("Values and names are too small to read at this size: zoom in to see them.");
    }
    note.textContent = parts.join(" ");
    note.hidden = parts.length === 0;
  }

  function nodeOf(id) {
    return drawing.querySelector(`[data-node-id="${CSS.escape(id)}"]`) ?? undefined;
  }

  function select(id) {
    selected = id;
    drawing.querySelector(".selected")?.classList.remove("selected");
    const node = id === null ? undefined : nodeOf(id);
    node?.classList.add("selected");
    const toggle = id === null ? null : drawing.querySelector(`[data-toggle="${CSS.escape(id)}"]`);
    collapseButton.disabled = toggle === null;
    collapseButton.textContent = node?.dataset.collapsed === "true" ? "Expand" : "Collapse";
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

  // a new drawing in the figure (after Solve or a collapse): fit it and wire it up
  function attach() {
    const picture = svg();
    if (!picture) {
      tools.hidden = true;
      return;
    }
    const [w, h] = ["width", "height"].map((name) => Number(picture.getAttribute(name)));
    full = [0, 0, w, h];
    picture.dataset.width = String(w);
    picture.dataset.height = String(h);
    picture.setAttribute("width", "100%");
    // as tall as the whole drawing is at the page's width, within bounds
    const fitted = (h * Math.min(room, w)) / w;
    tall = Math.round(Math.min(MAX_HEIGHT, h, Math.max(MIN_HEIGHT, fitted)));
    picture.setAttribute("height", String(tall));
    picture.style.maxWidth = `${w}px`;
    setBox([...full]);
    tools.hidden = false;
    describe(picture);
    select(selected !== null && nodeOf(selected) ? selected : null);
  }

  // runs before the new drawing is laid out, so texts too small to read never are
  new MutationObserver(attach).observe(drawing, { childList: true });
  new ResizeObserver(() => {
    room = drawing.clientWidth;
    detail();
  }).observe(drawing);

  // -- pointer, wheel and keyboard ----------------------------------------------------
  let drag = null;
  drawing.addEventListener("pointerdown", (event) => {
    if (!svg() || event.button !== 0) return;
    drag = { x: event.clientX, y: event.clientY, box: [...box], moved: false };
  });
  drawing.addEventListener("pointermove", (event) => {
    if (drag === null) return;
    const dx = event.clientX - drag.x;
    const dy = event.clientY - drag.y;
    if (!drag.moved && Math.hypot(dx, dy) < 4) return; // a click, not a drag
    if (!drag.moved) drawing.setPointerCapture(event.pointerId);
    drag.moved = true;
    const s = scale();
    setBox([drag.box[0] - dx * s, drag.box[1] - dy * s, drag.box[2], drag.box[3]]);
  });
  const endDrag = (event) => {
    if (drag?.moved) {
      drawing.releasePointerCapture(event.pointerId);
      drawing.dataset.dragged = "true"; // the click that ends a drag selects nothing
    }
    drag = null;
  };
  drawing.addEventListener("pointerup", endDrag);
  drawing.addEventListener("pointercancel", endDrag);
  drawing.addEventListener(
    "wheel",
    (event) => {
      if (!svg()) return;
      event.preventDefault();
      const [px, py] = toDrawing(event);
      zoom(event.deltaY < 0 ? ZOOM_STEP : 1 / ZOOM_STEP, px, py);
    },
    { passive: false },
  );
  drawing.addEventListener("click", (event) => {
    // the click that ends a drag, and a toggle's, are this view's alone (no editor opens)
    if (drawing.dataset.dragged === "true") {
      delete drawing.dataset.dragged;
      event.stopImmediatePropagation();
      return;
    }
    const button = event.target.closest("[data-toggle]");
    if (button) {
      event.stopImmediatePropagation();
      toggle(button.dataset.toggle);
      return;
    }
    const node = event.target.closest("[data-node-id]");
    select(node ? node.dataset.nodeId : null);
  });
  drawing.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    const button = event.target.closest("[data-toggle]");
    if (button) {
      event.preventDefault();
      event.stopImmediatePropagation();
      toggle(button.dataset.toggle);
    }
  });
  drawing.addEventListener("focusin", (event) => {
    const node = event.target.closest("[data-node-id]");
    if (node) select(node.dataset.nodeId);
  });

  $("zoom-in").addEventListener("click", () => zoom(ZOOM_STEP));
  $("zoom-out").addEventListener("click", () => zoom(1 / ZOOM_STEP));
  $("zoom-reset").addEventListener("click", () => full && setBox([...full]));
  collapseButton.addEventListener("click", () => selected !== null && toggle(selected));
  $("export-png").addEventListener("click", () => exportPng(svg(), full).catch(onError));

  // what an export draws: the tree as the page shows it (collapsed alike), no toggles
  function exportOptions() {
    const { toggles, ...drawn } = options();
    return drawn;
  }

  return { render, exportOptions };
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
