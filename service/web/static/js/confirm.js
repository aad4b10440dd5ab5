// "Confirm each move before sending": a setting of each player (of each seat token, for a seat
// taken without registering), kept in this browser; unset, it is on in games of a day or more per
// move. When on, a move waits for "Send" in a dialog before it goes to the server.

import * as api from "./api.js";
import { h } from "./dom.js";

const CHOICES = "meeple.confirm"; // {who: true|false}: the settings chosen at a table
const LONG_MOVE_SECONDS = 86400;

const read = () => api.kept(CHOICES) || {};

/** Whose setting a table reads: the signed-in player's, else the seat token's the page plays by. */
const whose = (token) => (api.player() ? `player:${api.player().id}` : `seat:${token}`);

/** Whether moves at this table wait for confirmation: the setting chosen, else the game's pace decides. */
export function confirming(view, token) {
  return read()[whose(token)] ?? ((view.turn_deadline?.seconds ?? 0) >= LONG_MOVE_SECONDS);
}

function choose(token, on) {
  localStorage.setItem(CHOICES, JSON.stringify({ ...read(), [whose(token)]: on }));
}

/** Offer in `box`, to a seat of a game in play, the switch of the setting. */
export function showConfirmSetting(box, view, token) {
  const shown = view.you !== null && view.status === "active" ? `${whose(token)}:${confirming(view, token)}` : "";
  if (box.dataset.shown === shown) return; // drawn already: the keyboard stays on the switch
  box.dataset.shown = shown;
  const toggle = h("input", { type: "checkbox", checked: confirming(view, token), onchange: (event) => {
    choose(token, event.target.checked);
    box.dataset.shown = `${whose(token)}:${event.target.checked}`;
  } });
  box.replaceChildren(...(shown ? [h("label", { class: "confirm-setting" }, toggle, " Confirm each move before sending")] : []));
}

/** Resolves whether the move may go: at once when the setting is off, else when "Send" is pressed. */
export function confirmed(view, token) {
  return confirming(view, token) ? ask("Send this move?", "Send") : Promise.resolve(true);
}

/** `question` in a modal dialog, focus on the button that says `yes`; Cancel or Escape answers false. */
export function ask(question, yes) {
  const accept = h("button", { value: "yes", autofocus: true }, yes);
  const dialog = h("dialog", { class: "ask", "aria-label": question },
    h("form", { method: "dialog" }, h("p", {}, question),
      h("div", { class: "buttons" }, accept, h("button", { value: "cancel" }, "Cancel"))));
  document.body.append(dialog);
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => {
      dialog.remove();
      resolve(dialog.returnValue === "yes");
    });
    dialog.showModal();
    accept.focus();
  });
}
