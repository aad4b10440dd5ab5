// Keeping it civil from any message or player: report it, or them, to the admin with a reason, or block
// the player, once asked whether to. The table's chat and the messages page put these beside each message
// of someone else; a table's seats, the players one has played with and a conversation beside each player.

import * as api from "./api.js";

import { button, fill, h, notice, perform } from "./dom.js";

/** A "Report" button (`label`) that opens a short form asking why; `send(reason)` files the report. */
export function reportControl(send, label = "Report", asked = "Why report this message?") {
  const place = h("span", { class: "civility" });
  const open = () => {
    const reason = h("input", { maxlength: 500, required: true, "aria-label": asked, placeholder: "Why?" });
    const status = h("span", { class: "messages" });
    const submit = async (event) => {
      event.preventDefault();
      if (!reason.value.trim()) return;
      if (await perform(status, () => send(reason.value))) fill(place, notice("Reported to the admin."));
    };
    fill(place, h("form", { class: "report-form", onsubmit: submit }, reason,
      h("button", { type: "submit" }, "Send report"), status));
    reason.focus();
  };
  return fill(place, button(label, open, { class: "link" }));
}

/** A "Block <name>" button that asks first; `act()` blocks them, then `done()` takes their words off the page. */
export function blockControl(name, act, done) {
  const place = h("span", { class: "civility" });
  const status = h("span", { class: "messages" });
  const block = async () => {
    if (!await perform(status, act)) return;
    fill(place, notice(`You block ${name}.`));
    done();
  };
  const ask = () => {
    fill(place, h("span", { role: "group", "aria-label": `Block ${name}?` }, `Block ${name}? `,
      button(`Yes, block ${name}`, block), " ", button("Cancel", () => offer().querySelector("button").focus(), { class: "link" }),
      status));
    place.querySelector("button").focus();
  };
  const offer = () => fill(place, button(`Block ${name}`, ask, { class: "link" }));
  return offer();
}

/** Report and Block beside another registered player (`{id, name}`) for the signed-in player, or nothing;
 * `done()` follows the block (by default their words leave the page's chat). */
export function playerControls(player, done = () => forget(player.id)) {
  const me = api.player();
  if (!me || !player.id || player.id === me.id) return null;
  return [reportControl((reason) => api.reportPlayer(player.id, reason, me.token), `Report ${player.name}`,
    `Why report ${player.name}?`), blockControl(player.name, () => api.block(player.id, me.token), done)];
}

const seated = new Map(); // "<reader> <player>" → the controls beside that player's seat, kept across redraws

/** Report and Block beside the player holding `seat` of the game `view`, unless it is free, an AI's, a guest's or the
 * reader's. The same controls come back at each redraw of the table, so a report being written is not lost, nor its focus. */
export function seatCivility(view, seat) {
  const { player, name } = view.seats[seat] ?? {};
  if (!player) return null;
  const key = `${api.player()?.id} ${player}`;
  if (!seated.has(key)) seated.set(key, playerControls({ id: player, name }));
  const controls = seated.get(key);
  const active = document.activeElement;
  if (controls?.some((place) => place.contains(active))) requestAnimationFrame(() => active.isConnected && active.focus());
  return controls;
}

/** Take the words of the player `id` off the page's chat, telling its log (its unread count follows). */
export const forget = (id) => document.querySelectorAll(`.chat-log li[data-player="${CSS.escape(id)}"]`).forEach((line) => {
  const log = line.parentElement;
  line.remove();
  log.dispatchEvent(new Event("forgotten", { bubbles: true }));
});
