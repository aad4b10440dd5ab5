// Form fields, and a refusal (a 422's `errors`, by field path) shown next to the fields it names.

import { fill, h, notice, problemNotice } from "./dom.js";
import { ENTRY_UNITS, inUnits } from "./durations.js";

const idFor = (path) => `f-${path.replace(/[^A-Za-z0-9]+/g, "-")}`;

/** A labelled field whose errors the server may name by `path` ("options.taki_close"). */
export function field(path, label, control, hint = null) {
  control.id = idFor(path);
  const error = h("p", { class: "error", id: `${control.id}-error`, hidden: true });
  const described = [hint ? `${control.id}-hint` : null, error.id].filter(Boolean).join(" ");
  control.setAttribute("aria-describedby", described);
  const checkbox = control.type === "checkbox";
  return h("div", { class: `field${checkbox ? " check" : ""}`, dataset: { field: path } },
    checkbox ? [control, h("label", { for: control.id }, label)] : [h("label", { for: control.id }, label), control],
    hint ? h("p", { class: "hint", id: `${control.id}-hint` }, hint) : null,
    error);
}

/** A number input starting at `value` (null: empty). */
export function number(value, min, max) {
  return h("input", { type: "number", inputmode: "numeric", value: value ?? "", min, max, step: "any" });
}

/** The value of a number input as the API reads it: a number, or the text as typed for the server to refuse. */
export function numeric(input) {
  const text = input.value.trim();
  if (text === "") return undefined;
  const value = Number(text);
  return Number.isNaN(value) ? text : value;
}

/** A duration's field: a number and its unit (days, hours, minutes), starting at `seconds` (null: empty); its
 * `seconds()` reads it as the API does, undefined when empty, the text as typed when it is no number. */
export function durationField(path, label, seconds, hint) {
  const [count, unit] = seconds === null ? ["", ENTRY_UNITS[0][0]] : inUnits(seconds);
  const number = h("input", { type: "number", inputmode: "decimal", step: "any", value: count });
  const units = h("select", { "aria-label": `${label}: unit` },
    ENTRY_UNITS.map(([name]) => h("option", { value: name, selected: name === unit }, name)));
  const element = field(path, label, number, hint);
  const pair = h("span", { class: "duration" });
  number.replaceWith(pair);
  pair.append(number, units);
  return {
    element,
    seconds() {
      const text = number.value.trim();
      const size = ENTRY_UNITS.find(([name]) => name === units.value)[1];
      return text === "" ? undefined : Number.isNaN(Number(text)) ? text : Math.round(Number(text) * size);
    },
  };
}

/** Each error of a 422 as a path and its messages: {"options": {"x": ["..."]}} → ["options.x", ["..."]]. */
function flatten(errors, path = []) {
  if (typeof errors === "string") return [[path.join("."), [errors]]];
  if (Array.isArray(errors)) {
    if (errors.every((entry) => typeof entry === "string")) return [[path.join("."), errors]];
    return errors.flatMap((entry, index) => flatten(entry, [...path, String(index)]));
  }
  return Object.entries(errors || {}).flatMap(([key, value]) => flatten(value, key === "_schema" ? path : [...path, key]));
}

/** Each error of `errors` under the field it names, the others in `message`; the keyboard goes to the first. */
export function showErrors(form, errors, message) {
  const unplaced = [];
  for (const [path, messages] of flatten(errors)) {
    const parts = path.split(".");
    let target = null;
    while (parts.length && !target) {
      const name = parts.join(".");
      target = form.querySelector(`[data-error-of="${CSS.escape(name)}"]`)
        || form.querySelector(`[data-field="${CSS.escape(name)}"] > .error`);
      parts.pop();
    }
    if (!target) {
      unplaced.push(...messages);
      continue;
    }
    target.textContent = [target.textContent, ...messages].filter(Boolean).join(" ");
    target.hidden = false;
    target.closest("details")?.setAttribute("open", "");
    target.closest(".field")?.querySelector("input, select")?.setAttribute("aria-invalid", "true");
  }
  if (unplaced.length) message.append(notice(unplaced.join(" "), "error"));
  form.querySelector("[aria-invalid=true]")?.focus();
}

/** A refused request: the server's detail in `message`, and its errors at the form's fields. */
export function refused(problem, form, message) {
  fill(message, problemNotice(problem));
  if (problem.errors) showErrors(form, problem.errors, message);
}

/** No field of the form says it was refused. */
export function clearErrors(form) {
  for (const error of form.querySelectorAll(".error")) {
    error.textContent = "";
    error.hidden = true;
  }
  for (const invalid of form.querySelectorAll("[aria-invalid]")) invalid.removeAttribute("aria-invalid");
}
