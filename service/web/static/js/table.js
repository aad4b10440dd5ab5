// A game's own page, /games/<id>: its table for whoever opens it - a seat's player (with the seat's
// token, or the player's) or a spectator - following the game live through its event stream.
// Before the start it shows the seats, to take one, give one to an AI, or leave.

import * as api from "./api.js";
import { fill, h, notice } from "./dom.js";
import { gameTitle, seatName, seatNames } from "./games.js";
import { statusWord } from "./inbox.js";
import { leaveSeat, seatBot, takeSeat } from "./seats.js";
import { follow } from "./stream.js";
import { TABLES } from "./tables/index.js";

const WAITING_REFRESH_MS = 4000;
const RECENT = 8; // moves kept in the log of recent moves

export function showGame(main, id) {
  const page = {
    id, view: null, legal: null, token: null, recent: [], log: [], ui: {}, stop: null, types: null, waitingTimer: null, problem: null, live: "",
  };
  const heading = h("h1", { id: "game-title" }, "Game");
  const live = h("p", { class: "live", role: "status" });
  const headline = h("p", { class: "headline", role: "status", "aria-live": "polite" });
  const message = h("div", { class: "messages" });
  const board = h("div", { id: "table", "aria-busy": "true" });
  const log = h("ul", { class: "recent", "aria-label": "Recent moves" });
  fill(main, h("section", { class: "game", "aria-labelledby": "game-title" },
    h("div", { class: "game-head" }, heading, live), headline, message, board,
    h("section", { class: "log", "aria-label": "Recent moves" }, h("h2", {}, "Recent moves"), log)));

  const setLive = (state) => {
    page.live = state;
    live.textContent = { connecting: "Connecting…", live: "● Live", reconnecting: "Reconnecting…", ended: "" }[state] ?? "";
    live.className = `live ${state}`; // its colour (style.css)
  };

  /** The view, read with the token that holds a seat here, else as a spectator. */
  async function readView() {
    const seat = api.seatToken(id)?.token || null;
    const tried = [...new Set([page.token, seat, api.player()?.token].filter(Boolean)), null];
    for (const token of tried) {
      try {
        const view = await api.game(id, token);
        return { view, token };
      } catch (problem) {
        if (problem.status !== 401 || token === null) throw problem;
        if (token === seat) api.keepSeat(id, null, null); // a seat given up, or a game of another server
      }
    }
    throw new Error("unreachable");
  }

  /** The seat of this waiting game reserved for the signed-in player, read from their inbox: a
   * seat's invitee is named only to them and to the game's creator, and a spectator's read names
   * nobody. */
  async function invitation(view) {
    const me = api.player();
    if (!me || view.you !== null || view.status !== "waiting" || !view.seats.some((seat) => seat.reserved && seat.name === null)) {
      return null;
    }
    const entry = (await api.inbox(me.token)).games.find((held) => held.game.id === id);
    return entry?.invitation ?? null;
  }

  // busy while a command or a read is under way: a test (or a screen reader) waits for the table to settle
  let working = 0;
  const busy = (change) => {
    working += change;
    board.setAttribute("aria-busy", String(working > 0));
  };

  let running = false;
  let again = false;
  async function refresh() {
    if (running) {
      again = true; // the read under way may be older than what is asked now: it reads once more
      return;
    }
    running = true;
    busy(+1);
    try {
      do {
        again = false;
        page.types ??= (await api.gameTypes()).types;
        const { view, token } = await readView();
        page.invitation = await invitation(view);
        let legal = null;
        if (view.you !== null && view.status === "active") {
          legal = await api.legalCommands(id, token);
          if (legal.version !== view.version) {
            again = true; // a move came between the two reads
            continue;
          }
        }
        const tokenChanged = token !== page.token;
        Object.assign(page, { view, legal, token });
        draw();
        if (tokenChanged || page.stop === null) listen();
      } while (again);
    } catch (problem) {
      fill(message, notice(problem.status === 404 ? "No such game." : problem.detail || problem.message, "error"));
    } finally {
      running = false;
      busy(-1);
    }
  }

  let pending = null;
  const soon = () => {
    clearTimeout(pending);
    pending = setTimeout(refresh, 50);
  };

  function listen() {
    if (page.stop) page.stop();
    page.stop = null;
    const { view } = page;
    if (view.status === "finished" || view.status === "cancelled") {
      setLive("ended");
      return;
    }
    page.stop = follow(id, view.version, () => page.token, (event) => {
      page.recent.push(event);
      if (event.version > page.view.version) soon();
    }, (state) => {
      setLive(state);
      if (state === "ended") soon();
    });
  }

  let sending = false;
  async function act(command) {
    if (sending) return; // a second click (on a board's square too, which is no <button>) sends nothing more
    sending = true;
    fill(message);
    page.ui.choosing = null;
    page.ui.batch = null;
    page.ui.confirmLeave = false;
    busy(+1);
    const focused = page.ui.focus || document.activeElement?.dataset?.key; // where the keyboard was
    board.inert = true;
    try {
      await api.command(id, page.token, command, page.legal.version);
    } catch (problem) {
      fill(message, notice(problem.detail || problem.message, "error"));
    }
    await refresh();
    board.inert = false;
    sending = false;
    if (focused) board.querySelector(`[data-key="${CSS.escape(focused)}"]`)?.focus();
    busy(-1);
  }

  function draw() {
    const { view, legal } = page;
    board.dataset.version = view.version; // the version drawn, for whoever waits for the page to catch up
    const names = seatNames(view);
    const title = gameTitle(view.game);
    heading.textContent = `${title} · ${view.id}`;
    const focused = page.ui.focus || document.activeElement?.dataset?.key;
    page.ui.focus = null;
    const recent = page.recent.splice(0);
    const table = TABLES[view.game];
    for (const event of recent) {
      const words = table.describe(event, names, view.options);
      if (words) page.log.unshift(words);
    }
    page.log.length = Math.min(page.log.length, RECENT);
    fill(log, page.log.map((words, index) => h("li", { class: index === 0 ? "last" : "" }, words)));
    if (view.status === "waiting" || view.status === "cancelled") {
      headline.textContent = statusWord(view.status);
      document.title = `${title} · ${statusWord(view.status)} · Meeple`;
      fill(board, waiting(view));
      clearTimeout(page.waitingTimer);
      if (view.status === "waiting") page.waitingTimer = setTimeout(soon, WAITING_REFRESH_MS); // joins are no events
    } else {
      const line = table.headline(view, names);
      headline.textContent = line;
      document.title = `${title} · ${line} · Meeple`;
      page.ui.redraw = () => draw();
      fill(board,
        view.you === null && view.status === "active"
          ? h("p", { class: "watching" }, `You are watching${view.spectator_delay ? `, ${view.spectator_delay} moves behind` : ""}.`)
          : null,
        table.drawTable(view, legal, { act, check: (command) => api.accepts(id, page.token, command), names, ui: page.ui, recent }),
        houseRules(view, page.types),
        view.status === "finished"
          ? h("p", { class: "replay-link" }, h("a", { href: `/games/${encodeURIComponent(id)}/replay` }, "Replay this game, move by move"))
          : null);
    }
    if (focused) board.querySelector(`[data-key="${CSS.escape(focused)}"]`)?.focus();
  }

  /** A game before its start: its seats, each to take, give to an AI, or leave. */
  function waiting(view) {
    const mine = view.you;
    const me = api.player();
    const name = me ? null : h("input", { id: "join-name", maxlength: 64, autocomplete: "nickname" });
    const seatsList = h("ol", { class: "waiting-seats", "aria-label": "Seats" }, view.seats.map((seat) => {
      const controls = [];
      if (view.status === "waiting" && seat.name === null) {
        if (mine === null && (!seat.reserved || seat.reserved_for === me?.id || seat.seat === page.invitation)) {
          controls.push(h("button", { type: "button", onclick: () => join(seat.seat, name) }, `Take seat ${seat.seat + 1}`));
        }
        if (!seat.reserved) controls.push(botControl(view, seat.seat));
      }
      if (seat.seat === mine && view.status === "waiting") {
        controls.push(h("button", { type: "button", onclick: () => leave() }, "Leave"));
      }
      return h("li", {}, h("span", { class: "seat-name" }, `Seat ${seat.seat + 1}: ${seatName(seat)}`,
        seat.seat === mine ? " (you)" : ""), controls);
    }));
    return h("div", { class: "waiting" },
      view.status === "waiting" ? h("p", {}, "The game starts when every seat is taken. Share this page's address to invite people.") : null,
      name && mine === null ? h("label", {}, "Your name ", name) : null,
      seatsList);
  }

  function botControl(view, seat) {
    const level = h("select", { "aria-label": `AI level for seat ${seat + 1}` },
      (page.types.find((type) => type.name === view.game)?.bots || []).map((bot) => h("option", { value: bot }, bot)));
    return h("span", { class: "bot-seat" }, level,
      h("button", { type: "button", onclick: () => guarded(() => seatBot(id, seat, level.value)) }, "Seat an AI"));
  }

  async function guarded(work) {
    fill(message);
    try {
      await work();
    } catch (problem) {
      fill(message, notice(problem.detail || problem.message, "error"));
    }
    await refresh();
  }

  const join = (seat, name) => guarded(async () => {
    if (name && !name.value.trim()) throw new Error("Give your name first.");
    await takeSeat(id, name?.value.trim(), seat);
    page.token = null;
  });
  const leave = () => guarded(async () => {
    await leaveSeat(id);
    page.token = null;
  });

  refresh();
}

/** The options this game was made with that differ from the standard game's, in the words the
 * server lists its options with: every seat and spectator knows the house rules. */
function houseRules(view, types) {
  const options = types.find((type) => type.name === view.game)?.options || [];
  const changed = options.filter((option) => JSON.stringify(view.options[option.name]) !== JSON.stringify(option.default));
  if (!changed.length) return h("p", { class: "house-rules" }, "Standard rules.");
  return h("details", { class: "house-rules" },
    h("summary", {}, `House rules: ${changed.length} ${changed.length === 1 ? "option differs" : "options differ"} from the standard game`),
    h("ul", {}, changed.map((option) => h("li", { dataset: { option: option.name } },
      `${option.description}: `, h("strong", {}, optionWords(view.options[option.name]))))));
}

const optionWords = (value) => (value === true ? "yes" : value === false ? "no" : String(value).replace(/_/g, " "));
