// A seat reserved for whoever has its link: the game's creator reads the link on the table, seated
// or not (/games/<id>#invite=<code>; the code rides in the fragment, which never reaches the server or its
// logs), and whoever opens it takes the seat as a registered player, registering on the spot if
// nobody is signed in. The server seats one person by a link; a wrong or used one it refuses.

import * as api from "./api.js";
import { button, h } from "./dom.js";
import { linkField } from "./seat_link.js";

const FRAGMENT = /^#invite=([A-Za-z0-9_-]+)$/;
const KEPT = "meeple.invite."; // + game id: the code a link brought, for this tab
const typed = new Map(); // game id → the name typed so far (the waiting table is drawn anew every few seconds)
const notMine = new Set(); // games whose links the signed-in player may not read

/** Keep the code a link brought for game `gameId` in this tab, and take it out of the address bar. */
export function claimInviteLink(gameId) {
  const found = FRAGMENT.exec(window.location.hash);
  if (!found) return;
  sessionStorage.setItem(KEPT + gameId, found[1]);
  window.history.replaceState(window.history.state, "", window.location.pathname + window.location.search);
}

/** Give each seat of the waiting game `view` waiting for a link its code, when the signed-in player
 * created the game and holds no seat in it (a seat's view names the codes to its creator already). */
export async function readInviteCodes(view) {
  const me = api.player();
  const waiting = view.status === "waiting" && view.seats.some((seat) => seat.waits_for?.kind === "link");
  if (!me || view.you !== null || !waiting || notMine.has(view.id)) return;
  try {
    for (const { seat, code } of (await api.inviteLinks(view.id, me.token)).links) view.seats[seat].invite_code = code;
  } catch (problem) {
    if (problem.status === 403) notMine.add(view.id); // someone else's game: not asked again
  }
}

/** The link of `seat` of game `view` to send, when the API tells its code (to the game's creator only). */
export function inviteLink(view, seat) {
  if (!seat.invite_code) return null;
  const url = `${window.location.origin}/games/${encodeURIComponent(view.id)}#invite=${seat.invite_code}`;
  return h("div", { class: "invite-link" }, linkField(`invite-link-${seat.seat}`, "Its link: send it to whoever you invite", url));
}

/** What takes the seat a link brought to this tab, for whoever holds no seat of the waiting game `view`;
 * `guard(work)` runs the taking, saying why if it is refused. */
export function invitedOffer(view, guard) {
  const code = sessionStorage.getItem(KEPT + view.id);
  if (!code || view.you !== null || view.status !== "waiting" || !view.seats.some((seat) => seat.waits_for?.kind === "link")) {
    return null;
  }
  const me = api.player();
  const name = me ? null : h("input", { id: "invite-name", maxlength: 64, autocomplete: "nickname", value: typed.get(view.id) ?? "",
    dataset: { key: "invite-name" }, oninput: (event) => typed.set(view.id, event.target.value) });
  return h("section", { class: "invited", "aria-labelledby": "invited-title" },
    h("h2", { id: "invited-title" }, "You are invited"),
    h("p", {}, me ? `This link holds a seat for you, ${me.name}.`
      : "This link holds a seat for you. Choose the name you will play under: it registers you as a player on this server."),
    name ? h("label", { for: "invite-name" }, "Your player name") : null, name, " ",
    button(me ? "Take the seat" : "Register and take the seat", () => guard(() => take(view.id, code, name)),
      { class: "primary", dataset: { key: "invite-take" } }));
}

/** Take the seat of `code`, as the signed-in player or as one registered now under the name in `name`. */
async function take(gameId, code, name) {
  let me = api.player();
  if (!me) {
    if (!name.value.trim()) throw new Error("Give your player name first.");
    me = await api.register(name.value.trim());
    api.keepPlayer(me);
  }
  try {
    const joined = await api.join(gameId, { name: me.name, invite: code }, me.token);
    api.keepSeat(gameId, joined.seat, joined.token);
  } catch (problem) {
    if (problem.reason === "invite_unknown") sessionStorage.removeItem(KEPT + gameId); // it will never open a seat
    throw problem;
  }
  sessionStorage.removeItem(KEPT + gameId);
  if (name) window.location.reload(); // signed in now: the account bar says so
}
