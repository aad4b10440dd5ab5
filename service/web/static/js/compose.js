// The form that writes a message, in a game's chat or to a player: Enter sends, Shift+Enter starts a new
// line. A message's length is counted as the server counts it, in characters (code points), not in the
// UTF-16 units a textarea's maxlength counts, in which an emoji takes two.

import { fill, h, notice, perform } from "./dom.js";

export const MAX_LENGTH = 500; // characters of a message, as the server takes them

/** A form writing `label` (its textarea's name) that hands the text to `send`, saying in `status` why it was refused;
 * emptied once sent. The count shows near the limit, and a text over it is not sent. */
export function messageForm(label, send, status, placeholder = null) {
  const text = h("textarea", { rows: 2, "aria-label": label, placeholder });
  const count = h("p", { class: "hint count", hidden: true });
  const counted = () => {
    const used = [...text.value].length;
    count.hidden = used <= MAX_LENGTH - 50;
    count.textContent = `${used} of ${MAX_LENGTH} characters`;
    return used;
  };
  text.addEventListener("input", counted);
  const submit = async (event) => {
    event.preventDefault();
    if (!text.value.trim()) return;
    if (counted() > MAX_LENGTH) fill(status, notice(`A message holds at most ${MAX_LENGTH} characters: shorten it.`, "error"));
    else if (await perform(status, () => send(text.value))) text.value = "";
    counted();
  };
  text.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) submit(event);
  });
  return h("form", { class: "chat-form", onsubmit: submit }, text, h("button", { type: "submit" }, "Send"), count);
}
