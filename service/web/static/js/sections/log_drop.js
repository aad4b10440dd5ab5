// "Replay a log file": a drop zone that is also a file input. The file (a finished game's export,
// JSON Lines) is sent as it is; the server imports it as a new game, whose replay opens.

import * as api from "../api.js";
import { fill, h, notice } from "../dom.js";

export function logDrop() {
  const input = h("input", { type: "file", id: "log-file", accept: ".jsonl,.ndjson,.json,.txt", "aria-describedby": "log-file-hint" });
  const message = h("div", { class: "messages" });
  const zone = h("div", { class: "drop-zone" }, h("label", { for: "log-file" }, "Log file"), input,
    h("p", { class: "hint", id: "log-file-hint" }, "Drop a finished game's log here (the .jsonl file its export gives), or choose it."));
  const send = (file) => sendLog(file, input, message);
  input.addEventListener("change", () => send(input.files[0]));
  for (const type of ["dragover", "dragleave", "drop"]) {
    zone.addEventListener(type, (event) => {
      event.preventDefault();
      zone.classList.toggle("dragging", type === "dragover");
      if (type === "drop") send(event.dataTransfer.files[0]);
    });
  }
  return h("section", { id: "log-drop", "aria-labelledby": "log-drop-title" },
    h("h2", { id: "log-drop-title" }, "Replay a log file"), zone, message);
}

async function sendLog(file, input, message) {
  if (!file) return;
  fill(message, notice(`Reading ${file.name}…`));
  try {
    location.assign(`/games/${encodeURIComponent((await api.importLog(file)).id)}/replay`);
  } catch (problem) {
    fill(message, notice(problem.detail || `The file could not be sent (${problem.message}).`, "error"));
    input.value = ""; // the same file, mended, may be chosen again
  }
}
