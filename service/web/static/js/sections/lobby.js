// The lobby: games waiting for players, in play and finished, filtered by game and status and
// paged with the listing's `next`; a waiting game's free seat can be taken or given to an AI.

import * as api from "../api.js";
import { fill, h, perform, problemNotice } from "../dom.js";
import { describeSeats, freeSeats, gameTitle, pace, statusWord } from "../games.js";
import { leaveSeat, seatBot, takeSeat } from "../seats.js";

const STATUSES = ["waiting", "active", "finished", "cancelled"];

export function drawLobby(section, types, held) {
  const lobby = {
    types, held, me: api.player(), next: null, asked: 0,
    game: h("select", { id: "lobby-game", name: "game", "aria-label": "Lobby game" },
      h("option", { value: "" }, "All games"), types.map((type) => h("option", { value: type.name }, type.title))),
    status: h("select", { id: "lobby-status", name: "status", "aria-label": "Lobby status" },
      STATUSES.map((value) => h("option", { value, selected: value === "waiting" }, statusWord(value)))),
    list: h("ul", { class: "games", "aria-label": "Games" }),
    more: h("button", { type: "button", hidden: true }, "More games"),
    message: h("div", { class: "messages" }),
  };
  const { game, status, more } = lobby;
  lobby.name = lobby.me ? null : h("input", { id: "lobby-name", name: "name", maxlength: 64, autocomplete: "nickname" });
  game.addEventListener("change", () => load(lobby, false));
  status.addEventListener("change", () => load(lobby, false));
  more.addEventListener("click", () => load(lobby, true));
  fill(section,
    h("h2", { id: "lobby-title" }, "Lobby"),
    h("div", { class: "filters" },
      h("label", {}, "Game ", game),
      h("label", {}, "Status ", status),
      lobby.name ? h("label", {}, "Play as ", lobby.name) : null),
    lobby.message, lobby.list, more);
  load(lobby, false);
}

/** The first page of games, or (`append`) the next; only the answer to the latest question is shown. */
async function load(lobby, append) {
  const question = ++lobby.asked;
  const { list, more } = lobby;
  try {
    const page = await api.listGames({ status: lobby.status.value, game: lobby.game.value, cursor: append ? lobby.next : null });
    if (question !== lobby.asked) return;
    lobby.next = page.next;
    // the listing pages by a keyset cursor: no game comes round again on a later page
    const items = page.games.map((summary) => item(lobby, summary));
    if (append) list.append(...items);
    else fill(list, items.length ? items : h("li", { class: "empty" }, "No such games."));
    more.hidden = lobby.next === null;
  } catch (problem) {
    fill(lobby.message, problemNotice(problem));
  }
}

function item(lobby, summary) {
  const controls = summary.status === "waiting" ? seatControls(lobby, summary) : [];
  return h("li", {},
    h("a", { href: `/games/${encodeURIComponent(summary.id)}` },
      gameTitle(lobby.types, summary.game), " ", h("span", { class: "id" }, summary.id)),
    " ", h("span", { class: `badge ${summary.status}` }, statusWord(summary.status)),
    summary.rated ? [" ", h("span", { class: "badge rated" }, "Rated")] : null,
    pace(summary) ? [" ", h("span", { class: "pace" }, pace(summary))] : null,
    h("div", { class: "seats" }, describeSeats(summary)),
    controls.length ? h("div", { class: "controls" }, controls) : null);
}

/** A waiting game's controls: leave the seat held here, or take a free seat, or seat an AI there. */
function seatControls(lobby, summary) {
  const { id } = summary;
  const type = lobby.types.find((found) => found.name === summary.game);
  const free = freeSeats(summary).length;
  const controls = [];
  const button = (words, work) => h("button", { type: "button", onclick: () => perform(lobby.message, work) }, words);
  if (lobby.held.has(id) || api.seatToken(id)) {
    controls.push(button("Leave", async () => { await leaveSeat(id); lobby.held.delete(id); await load(lobby, false); }));
  } else if (free) {
    controls.push(button("Take a seat", async () => {
      const { me, name } = lobby;
      if (!me && !name.value.trim()) throw new Error("Give your name first (Play as).");
      await takeSeat(id, name?.value.trim());
      location.assign(`/games/${encodeURIComponent(id)}`);
    }));
  }
  if (free && type) {
    const level = h("select", { "aria-label": `AI level for ${id}` }, type.bots.map((bot) => h("option", { value: bot }, bot)));
    controls.push(h("span", { class: "bot-seat" }, level,
      button("Seat an AI", async () => { await seatBot(id, null, level.value); await load(lobby, false); })));
  }
  return controls;
}
