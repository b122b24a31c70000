// A catalogue game's parameters as form inputs (GET /v1/games lists each one's kind, range
// and default), shared by the pages that set up a game: /games and /mcts. Each input carries
// its parameter's name (data-param) and the test id "param-<name>".

// a whole number as a number; anything else as typed, so the server names what it refuses
export const numberOr = (text) => (/^-?\d+$/.test(text.trim()) ? Number(text) : text.trim());

// one input per parameter of `game` in `box`, each described by the element `describedBy`
export function paramInputs(box, game, describedBy) {
  box.replaceChildren();
  for (const parameter of game.parameters) {
    const id = `param-${parameter.name}`;
    const label = document.createElement("label");
    label.htmlFor = id;
    const input = document.createElement("input");
    input.id = id;
    input.dataset.testid = id;
    input.dataset.param = parameter.name;
    input.setAttribute("aria-describedby", describedBy);
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

// the values of the inputs in `box` as the API takes them (an empty number: its default)
export function readParams(box, game) {
  const defaultOf = (name) => game.parameters.find((parameter) => parameter.name === name).default;
  const read = {};
  for (const input of box.querySelectorAll("input")) {
    const name = input.dataset.param;
    if (input.type === "checkbox") read[name] = input.checked;
    else if (input.type === "text") read[name] = input.value.trim().split(/[\s,]+/).filter(Boolean).map(numberOr);
    else read[name] = input.value.trim() === "" ? defaultOf(name) : numberOr(input.value);
  }
  return read;
}

// the inputs in `box` set to `values` (by parameter name; those not given keep theirs)
export function fillParams(box, values) {
  for (const input of box.querySelectorAll("input")) {
    const value = values[input.dataset.param];
    if (value === undefined) continue;
    if (input.type === "checkbox") input.checked = Boolean(value);
    else input.value = Array.isArray(value) ? value.join(" ") : value;
  }
}
