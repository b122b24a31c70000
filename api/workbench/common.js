// What every workbench page shares: posting to the API, showing a problem+json error
// beside the input it concerns, downloads, and keeping the page's input in the URL.

export const $ = (id) => document.getElementById(id);

// POST a JSON body; a refused request throws {detail, pointer} from its problem+json
export async function post(path, body) {
  const response = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!response.ok) {
    const problem = await response.json();
    const first = (problem.errors || [])[0] || {};
    throw { detail: first.message || problem.detail || problem.title, pointer: first.pointer || "" };
  }
  return response;
}

// Answers shown in the order they were asked for: each call of the function returned starts
// a new round and gives back a test that stays true only while no later round has begun.
// A page checks it after every answer it awaits, so an older request answering late (the
// page's own first one, say, after the user's) is dropped instead of overwriting the newer.
export function newestOnly() {
  let round = 0;
  return () => {
    const mine = ++round;
    return () => mine === round;
  };
}

// JSON typed by the user, or a {detail, pointer} naming where it came from
export function readJson(text, pointer, what) {
  try {
    return JSON.parse(text);
  } catch (problem) {
    throw { detail: `${what} is not valid JSON: ${problem.message}`, pointer };
  }
}

// an error shown in `element`, marking `control` (the input it concerns) invalid
export function showError(element, control, problem) {
  const detail = problem && problem.detail ? problem.detail : String(problem);
  const where = problem && problem.pointer ? ` (at ${problem.pointer})` : "";
  element.textContent = `${detail}${where}`;
  element.hidden = false;
  if (control) control.setAttribute("aria-invalid", "true");
}

export function clearError(element, control) {
  element.hidden = true;
  element.textContent = "";
  if (control) control.removeAttribute("aria-invalid");
}

export function download(name, content, type) {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(content instanceof Blob ? content : new Blob([content], { type }));
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
}

// a tree drawn by the server (POST /v1/trees/render with `body`, its format "svg" or "tikz"),
// downloaded as `name`
export async function downloadDrawing(body, name) {
  const type = body.format === "tikz" ? "application/x-tex" : "image/svg+xml";
  download(name, await (await post("/v1/trees/render", body)).text(), type);
}

// the page's input lives in the URL's fragment, so a copied link reproduces the page
export function keepInUrl(state) {
  history.replaceState(null, "", `#${encodeURIComponent(JSON.stringify(state))}`);
}

export function stateFromUrl() {
  if (location.hash.length < 2) return null;
  try {
    return JSON.parse(decodeURIComponent(location.hash.slice(1)));
  } catch {
    return null;
  }
}

// an SVG document painted on white into a canvas `scale` times its size (`size`: the
// drawing's [width, height], default the image's own), as a PNG blob
export async function pngOf(svgText, scale = 2, size = null, tooLarge = "the picture is too large for a PNG") {
  const url = URL.createObjectURL(new Blob([svgText], { type: "image/svg+xml" }));
  try {
    const image = new Image();
    image.src = url;
    try {
      await image.decode();
    } catch {
      throw { detail: "the picture could not be drawn as PNG", pointer: "" };
    }
    const [width, height] = size ?? [image.naturalWidth, image.naturalHeight];
    const canvas = document.createElement("canvas");
    canvas.width = Math.round(scale * width);
    canvas.height = Math.round(scale * height);
    const context = canvas.getContext("2d");
    context.fillStyle = "white";
    context.fillRect(0, 0, canvas.width, canvas.height);
    context.drawImage(image, 0, 0, canvas.width, canvas.height);
    const png = await new Promise((resolve) => canvas.toBlob(resolve, "image/png"));
    if (png === null) throw { detail: tooLarge, pointer: "" };
    return png;
  } finally {
    URL.revokeObjectURL(url);
  }
}
