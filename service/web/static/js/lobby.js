// The lobby: games waiting for players, in play and finished, filtered by game and status and
// paged with the listing's `next`; a waiting game's free seat can be taken or given to an AI.

import * as api from "./api.js";
import { fill, h, notice } from "./dom.js";
import { describeSeats, freeSeats, gameTitle } from "./games.js";
import { statusWord } from "./inbox.js";
import { leaveSeat, seatBot, takeSeat } from "./seats.js";

const STATUSES = ["waiting", "active", "finished", "cancelled"];

export function drawLobby(section, types, held) {
  const me = api.player();
  const game = h("select", { id: "lobby-game", name: "game", "aria-label": "Lobby game" },
    h("option", { value: "" }, "All games"), types.map((type) => h("option", { value: type.name }, type.title)));
  const status = h("select", { id: "lobby-status", name: "status", "aria-label": "Lobby status" },
    STATUSES.map((value) => h("option", { value, selected: value === "waiting" }, statusWord(value))));
  const name = me ? null : h("input", { id: "lobby-name", name: "name", maxlength: 64, autocomplete: "nickname" });
  const list = h("ul", { class: "games", "aria-label": "Games" });
  const more = h("button", { type: "button", hidden: true }, "More games");
  const message = h("div", { class: "messages" });
  let next = null;

  let asked = 0; // only the answer to the latest question is shown, however the answers arrive
  const load = async (append) => {
    const question = ++asked;
    try {
      const page = await api.listGames({ status: status.value, game: game.value, cursor: append ? next : null });
      if (question !== asked) return;
      next = page.next;
      // the listing pages by a keyset cursor: no game comes round again on a later page
      const items = page.games.map(item);
      if (append) list.append(...items);
      else fill(list, items.length ? items : h("li", { class: "empty" }, "No such games."));
      more.hidden = next === null;
    } catch (problem) {
      fill(message, notice(problem.detail || problem.message, "error"));
    }
  };

  const act = async (work) => {
    fill(message);
    try {
      await work();
    } catch (problem) {
      fill(message, notice(problem.detail || problem.message, "error"));
    }
  };

  function item(summary) {
    const title = types.find((type) => type.name === summary.game);
    const free = freeSeats(summary);
    const controls = [];
    if (summary.status === "waiting") {
      const mine = held.has(summary.id) || api.seatToken(summary.id);
      if (mine) {
        controls.push(h("button", {
          type: "button",
          onclick: () => act(async () => { await leaveSeat(summary.id); held.delete(summary.id); await load(false); }),
        }, "Leave"));
      } else if (free.length) {
        controls.push(h("button", {
          type: "button",
          onclick: () => act(async () => {
            if (!me && !name.value.trim()) throw new Error("Give your name first (Play as).");
            await takeSeat(summary.id, name?.value.trim());
            location.assign(`/games/${encodeURIComponent(summary.id)}`);
          }),
        }, "Take a seat"));
      }
      if (free.length && title) {
        const level = h("select", { "aria-label": `AI level for ${summary.id}` },
          title.bots.map((bot) => h("option", { value: bot }, bot)));
        controls.push(h("span", { class: "bot-seat" }, level, h("button", {
          type: "button",
          onclick: () => act(async () => { await seatBot(summary.id, null, level.value); await load(false); }),
        }, "Seat an AI")));
      }
    }
    return h("li", {},
      h("a", { href: `/games/${encodeURIComponent(summary.id)}` }, gameTitle(summary.game), " ", h("span", { class: "id" }, summary.id)),
      " ", h("span", { class: `badge ${summary.status}` }, statusWord(summary.status)),
      h("div", { class: "seats" }, describeSeats(summary)),
      controls.length ? h("div", { class: "controls" }, controls) : null);
  }

  game.addEventListener("change", () => load(false));
  status.addEventListener("change", () => load(false));
  more.addEventListener("click", () => load(true));
  fill(section,
    h("h2", { id: "lobby-title" }, "Lobby"),
    h("div", { class: "filters" },
      h("label", {}, "Game ", game),
      h("label", {}, "Status ", status),
      name ? h("label", {}, "Play as ", name) : null),
    message, list, more);
  load(false);
}
