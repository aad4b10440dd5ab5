// The signed-in player's inbox: games where it is their turn first (each deadline counting down),
// then invitations to tournaments (each linking to its page), then invitations to games, then the
// rest; each invitation says who sent it, with a Decline button and one to block the sender (which
// declines it too); each game links to its table, and a rematch to the game it is the rematch of. It
// follows the player's inbox stream.

import * as api from "../api.js";
import { blockControl } from "../civility.js";
import { deadlineTag, fill, h, notice, problemNotice } from "../dom.js";
import { describeSeats, gameTitle, pace, statusWord } from "../games.js";
import { followInbox } from "../stream.js";
import { notifyControl, showTurns } from "../turns.js";

/** Draw the inbox into `section`, its games titled as `types` say; answers the seats the player holds, by game id. */
export async function drawInbox(section, me, types) {
  const held = new Map();
  const blocks = new Map(); // "game <id>" or "tournament <id>" → its sender's block control, kept across redraws (an open "Block …?" too)
  const list = h("ul", { class: "games", "aria-label": "Your games" });
  fill(section,
    h("h1", { id: "inbox-title" }, "Your games"),
    notifyControl(),
    h("details", { class: "token" },
      h("summary", {}, "Your player token"),
      h("p", {}, "Anyone holding it can play as you. Paste it to sign in on another device, or, with a "
        + "confirmed mail address, use “Sign in by email” there: that device then gets a token of its own, "
        + "which you can revoke alone."),
      h("code", {}, me.token)),
    list);
  const draw = async () => {
    let entries, tournaments;
    try {
      ({ games: entries, tournaments } = await api.inbox(me.token));
    } catch (problem) { // a 401 signs this browser out (api.js)
      fill(list, h("li", {}, notice(problem.message, "error")));
      return;
    }
    for (const entry of entries) if (entry.seat !== null) held.set(entry.game.id, entry.seat);
    const waiting = entries.filter((entry) => entry.your_turn).map((entry) => entry.game.id);
    showTurns(waiting.length ? `(${waiting.length}) Your games` : "Your games", waiting);
    const blocking = kept(blocks, [...entries.map((entry) => `game ${entry.game.id}`),
      ...tournaments.map((each) => `tournament ${each.tournament.id}`)]);
    const games = entries.map((entry) => item(entry, decline, types, blocking)), turns = waiting.length;  // your turn first
    fill(list, entries.length + tournaments.length ? [...games.slice(0, turns),
      ...tournaments.map((each) => tournamentInvitation(each, decline, blocking)), ...games.slice(turns)]
      : h("li", { class: "empty" }, "No games yet: join one below or create one."));
  };
  const decline = async (id, entry, refuse = api.declineInvitation) => {
    try {
      await refuse(id, me.token);
    } catch (problem) {
      entry.append(problemNotice(problem));
      return;
    }
    await draw();
  };
  await draw();
  followInbox(me.token, draw); // each game whose turn changes or that ends is read again, live
  return held;
}

/** An invitation to a tournament: its link, who sent it, a Decline button and one to block the sender. */
function tournamentInvitation({ tournament, invited_by: sender }, decline, blocking) {
  const button = h("button", { type: "button", "aria-label": `Decline the invitation to tournament ${tournament.name}`,
    onclick: (event) => decline(tournament.id, event.currentTarget.closest("li"), api.declineTournament) }, "Decline");
  return h("li", {}, h("a", { href: `/tournaments/${encodeURIComponent(tournament.id)}` }, tournament.name), " ",
    h("span", { class: "badge invite" }, `Invited to a tournament${sender ? ` by ${sender.name}` : ""}`), " ", button,
    sender && blocking(`tournament ${tournament.id}`, sender));
}

/** A function answering the control to block the sender of the invitation `key` names, which declines it too (a click
 * on the Decline button beside it): the one `blocks` kept from the draw before, if any; `blocks` keeps those of `keys`. */
function kept(blocks, keys) {
  for (const key of blocks.keys()) if (!keys.includes(key)) blocks.delete(key);
  return (key, sender) => {
    if (!blocks.has(key)) {
      const control = blockControl(sender.name, () => api.block(sender.id, api.player().token),
        () => control.closest("li")?.querySelector("button[aria-label^='Decline']")?.click());
      blocks.set(key, control);
    }
    return blocks.get(key);
  };
}

function item(entry, decline, types, blocking) {
  const { game } = entry;
  let state, declining = null;
  if (entry.your_turn) {
    state = h("span", { class: "badge turn" }, "Your turn");
  } else if (entry.invitation !== null && entry.seat === null) {
    const from = entry.invited_by ? ` by ${entry.invited_by.name}` : "";
    state = h("span", { class: "badge invite" }, `Invited to seat ${entry.invitation + 1}${from}`);
    const button = h("button", { type: "button", "aria-label": `Decline the invitation to game ${game.id}`,
      onclick: (event) => decline(game.id, event.currentTarget.closest("li")) }, "Decline");
    declining = [button, entry.invited_by && blocking(`game ${game.id}`, entry.invited_by)];
  } else {
    state = h("span", { class: `badge ${game.status}` }, statusWord(game.status));
  }
  const deadline = entry.deadline === null ? null : deadlineTag(entry.deadline);
  return h("li", { class: entry.your_turn ? "your-turn" : "" },
    h("a", { href: `/games/${encodeURIComponent(game.id)}` }, gameTitle(types, game.game), " ", h("span", { class: "id" }, game.id)),
    " ", state, deadline ? [" ", deadline] : null, pace(game) ? [" ", h("span", { class: "pace" }, pace(game))] : null,
    declining ? [" ", declining] : null,
    game.rematch_of ? h("div", { class: "rematch-of" }, "Rematch of ",
      h("a", { href: `/games/${encodeURIComponent(game.rematch_of)}` }, game.rematch_of)) : null,
    h("div", { class: "seats" }, describeSeats(game)));
}
