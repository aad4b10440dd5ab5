// A game's own page, /games/<id>: its table for whoever opens it - a seat's player (with the seat's
// token, or the player's) or a spectator - following the game live through its event stream.
// Before the start it shows the seats, to take one, give one to an AI, or leave.

import * as api from "../api.js";
import { confirmed, showConfirmSetting } from "../confirm.js";
import { catchUpChat, hearChat, showChat } from "../chat.js";
import { seatCivility } from "../civility.js";
import { drawOrigin, finishedControls, lineage, playedIn } from "../copies.js";
import { fill, h, notice, perform } from "../dom.js";
import { gameTitle, rulesAddress, seatName, seatNames, statusWord } from "../games.js";
import { catchUp, drawHistory, history, more } from "../history.js";
import { claimInviteLink, invitedOffer, inviteLink, readInviteCodes } from "../invite_link.js";
import { houseRules } from "../options.js";
import { claimSeatLink, showSeatLink } from "../seat_link.js";
import { leaveSeat, seatBot, takeSeat } from "../seats.js";
import { follow, followChat } from "../stream.js";
import { TABLES } from "../tables/index.js";
import { showTurns } from "../turns.js";

const WAITING_REFRESH_MS = 4000;
const LIVE = { connecting: "Connecting…", live: "● Live", reconnecting: "Reconnecting…", ended: "" };

export function showGame(main, id) {
  const page = {
    id, view: null, legal: null, token: null, invitation: null, recent: [], log: history(id), ui: {}, stop: null, types: null,
    waitingTimer: null, pending: null, working: 0, running: false, again: false, sending: false,
    heading: h("h1", { id: "game-title" }, "Game"),
    rated: h("span", { class: "badge rated", hidden: true }, "Rated"),
    rules: h("a", { class: "rules-link" }, "Rules"),
    live: h("p", { class: "live", role: "status" }),
    headline: h("p", { class: "headline", role: "status", "aria-live": "polite" }),
    origin: h("p", { class: "origin", hidden: true }),
    message: h("div", { class: "messages" }),
    board: h("div", { id: "table", "aria-busy": "true" }),
    moves: h("div", { class: "moves" }),
    seatLink: h("div", { class: "seat-tools" }),
    confirmSetting: h("div", { class: "seat-tools" }),
    talk: h("div", { class: "talk" }),
  };
  claimSeatLink(id);
  claimInviteLink(id);
  fill(main, h("section", { class: "game", "aria-labelledby": "game-title" },
    h("div", { class: "game-head" }, page.heading, page.rated, page.rules, page.live), page.origin, page.headline, page.message, page.board, page.confirmSetting, page.seatLink, page.talk,
    h("section", { class: "log", "aria-label": "Recent moves" }, h("h2", {}, "Recent moves"), page.moves)));
  refresh(page);
}

function setLive(page, state) {
  page.live.textContent = LIVE[state] ?? "";
  page.live.className = `live ${state}`; // its colour (style.css)
}

/** The view, read with the token that holds a seat here, else as a spectator. */
async function readView({ id, token: held }) {
  const seat = api.seatToken(id)?.token || null;
  const tried = [...new Set([held, seat, api.player()?.token].filter(Boolean)), null];
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
async function invitation(id, view) {
  const me = api.player();
  if (!me || view.you !== null || view.status !== "waiting" || !view.seats.some((seat) => seat.reserved && seat.name === null)) {
    return null;
  }
  const entry = (await api.inbox(me.token)).games.find((held) => held.game.id === id);
  return entry?.invitation ?? null;
}

/** Busy while a command or a read is under way: a test (or a screen reader) waits for the table to settle. */
function busy(page, change) {
  page.working += change;
  page.board.setAttribute("aria-busy", String(page.working > 0));
}

async function refresh(page) {
  if (page.running) {
    page.again = true; // the read under way may be older than what is asked now: it reads once more
    return;
  }
  page.running = true;
  busy(page, +1);
  try {
    do {
      page.again = false;
      await readAndDraw(page);
    } while (page.again);
  } catch (problem) {
    fill(page.message, notice(problem.status === 404 ? "No such game." : problem.detail || problem.message, "error"));
  } finally {
    page.running = false;
    busy(page, -1);
  }
}

/** Read the view, and a seat's legal commands, and draw them; a move between the two reads asks again. */
async function readAndDraw(page) {
  page.types ??= (await api.gameTypes()).types;
  const { view, token } = await readView(page);
  page.invitation = await invitation(page.id, view);
  await readInviteCodes(view);
  let legal = null;
  if (view.you !== null && view.status === "active") {
    legal = await api.legalCommands(page.id, token);
    if (legal.version !== view.version) {
      page.again = true; // a move came between the two reads
      return;
    }
  }
  const tokenChanged = token !== page.token;
  const recent = await catchUp(page.log, token, view.version, view.you); // the moves up to the version drawn, no further
  Object.assign(page, { view, legal, token, recent });
  draw(page);
  if (tokenChanged || page.stop === null) listen(page);
}

function soon(page) {
  clearTimeout(page.pending);
  page.pending = setTimeout(() => refresh(page), 50);
}

function listen(page) {
  if (page.stop) page.stop();
  page.stop = null;
  const { view } = page;
  // a signed-in spectator watches as their player, whose blocks the stream's chat applies
  const reader = () => page.token || api.player()?.token;
  const hear = (message, hidden) => hearChat(page.talk, message, hidden);
  if (view.status === "finished" || view.status === "cancelled") {
    setLive(page, "ended");
    // a finished table talks on: its chat has a stream of its own
    if (view.status === "finished" && view.chat) page.stop = followChat(page.id, reader, hear, () => catchUpChat(page.talk));
    return;
  }
  page.stop = follow(page.id, view.version, reader, (event) => {
    if (event.version > page.view.version) soon(page); // the table and its moves are read together
  }, (state) => {
    setLive(page, state);
    if (state === "live") catchUpChat(page.talk); // what was said before the stream (re)opened
    if (state !== "ended") return;
    page.stop = null; // the stream closed itself; the refresh listens to the finished game's chat
    soon(page);
  }, hear, (clock) => retimed(page, clock));
}

/** The clocks and deadlines of a `clock` message drawn, if of the version shown; one that comes while a read
 * is under way has the page read again, as the read may have been answered before the clocks moved. */
function retimed(page, { version, clocks, deadlines }) {
  if (page.running) page.again = true;
  if (version !== page.view.version || page.running) return;
  Object.assign(page.view, { clocks, deadlines });
  draw(page);
}

/** Where the keyboard was, by the `data-key` of the element it was on. */
const focusedKey = (page) => page.ui.focus || document.activeElement?.dataset?.key;

function refocus(page, key) {
  if (key) page.board.querySelector(`[data-key="${CSS.escape(key)}"]`)?.focus();
}

async function act(page, command) {
  if (page.sending) return; // a second click (on a board's square too, which is no <button>) sends nothing more
  page.sending = true;
  const { version } = page.legal; // the move is sent for the table it was chosen on, however long it is asked
  if (!(await confirmed(page.view, page.token))) {
    page.sending = false;
    return;
  }
  Object.assign(page.ui, { choosing: null, batch: null, confirmLeave: false });
  busy(page, +1);
  const focused = focusedKey(page);
  page.board.inert = true;
  await perform(page.message, () => api.command(page.id, page.token, command, version));
  await refresh(page);
  page.board.inert = false;
  page.sending = false;
  refocus(page, focused);
  busy(page, -1);
}

function draw(page) {
  const { view, board } = page;
  board.dataset.version = view.version; // the version drawn, for whoever waits for the page to catch up
  const names = seatNames(view);
  const title = gameTitle(page.types, view.game);
  page.heading.textContent = `${title} · ${view.id}`;
  page.rated.hidden = !view.rated;
  page.rules.href = rulesAddress(view.game);
  drawOrigin(page.origin, view);
  followLineage(page);
  showSeatLink(page.seatLink, page.id, view, page.token, () => refresh(page));
  showConfirmSetting(page.confirmSetting, view, page.token);
  showChat(page.talk, view, page.token);
  const focused = focusedKey(page);
  page.ui.focus = null;
  const recent = page.recent.splice(0);
  drawLog(page, names);
  const line = view.status === "waiting" || view.status === "cancelled" ? drawWaiting(page) : drawPlay(page, names, recent);
  page.headline.textContent = line;
  showTurns([line, title, view.id].filter(Boolean).join(" · "), view.status === "active" && view.to_move.includes(view.you) ? [view.id] : []);
  refocus(page, focused);
}

/** The names of the seats of `origin` (a game a fork descends from) that played its copied moves, or,
 * where the API names none (a fork of an unlisted game, to a spectator), the seats' numbers. */
function originNames(view, origin) {
  const names = origin?.names?.length ? origin.names : view.seats.map((seat) => `Seat ${seat.seat + 1}`);
  return seatNames({ seats: names.map((name) => ({ name })) });
}

/** Learn, once, the games a fork descends from, and tell its copied moves again in their players' names. */
function followLineage(page) {
  const fork = page.view.forked_from;
  const key = fork ? `${fork.game_id}@${fork.version}` : null;
  if (page.lineageOf === key) return;
  page.lineageOf = key;
  page.lineage = fork ? [fork] : [];
  if (!fork) return;
  lineage(fork).then((levels) => {
    if (page.lineageOf !== key) return;
    page.lineage = levels;
    drawLog(page, seatNames(page.view));
  });
}

/** The game's moves as the seat reads them, from the log up to the version drawn; a fork's copied
 * moves in the names of the players of the game each was played in. */
function drawLog(page, names) {
  const { view, log } = page;
  const levels = page.lineage ?? [];
  const copied = (event) => event.actor === "fork" && event.version <= (view.forked_from?.version ?? Infinity); // not the deal anew
  const words = (event) => TABLES[view.game].describe(event,
    copied(event) ? originNames(view, playedIn(levels, event.version)) : names, view.options);
  const onMore = async () => {
    await perform(page.message, () => more(log, view.you, words));
    drawLog(page, names);
    page.moves.querySelector("[data-key='history:more']")?.focus();
  };
  const inherited = levels.length > 1 ? Math.min(levels[0].version, levels[1].version) : 0;
  fill(page.moves, drawHistory(log, { seat: view.you, names, words, onMore, copied: view.forked_from?.version, inherited }));
}

/** A game before its start, or cancelled: its seats. Answers the headline. */
function drawWaiting(page) {
  const { view } = page;
  fill(page.board, waiting(page));
  clearTimeout(page.waitingTimer);
  if (view.status === "waiting") page.waitingTimer = setTimeout(() => soon(page), WAITING_REFRESH_MS); // joins are no events
  return statusWord(view.status);
}

/** A game in play or over: its table, drawn by the game's table module. Answers the headline. */
function drawPlay(page, names, recent) {
  const { view, id } = page;
  const table = TABLES[view.game];
  page.ui.redraw = () => draw(page);
  const check = (command) => api.accepts(id, page.token, command);
  const context = { act: (command) => act(page, command), check, names, ui: page.ui, recent };
  fill(page.board,
    view.you === null && view.status === "active"
      ? h("p", { class: "watching" }, `You are watching${view.spectator_delay ? `, ${view.spectator_delay} moves behind` : ""}.`)
      : null,
    table.drawTable(view, page.legal, context),
    houseRules(view, page.types),
    view.status === "finished" ? finishedControls(view, page.token) : null);
  return table.headline(view, names);
}

/** A game before its start: its seats, each to take, give to an AI, or leave. */
function waiting(page) {
  const { view } = page;
  const mine = view.you;
  const name = api.player() ? null : h("input", { id: "join-name", maxlength: 64, autocomplete: "nickname" });
  const seatsList = h("ol", { class: "waiting-seats", "aria-label": "Seats" }, view.seats.map((seat) =>
    h("li", {}, h("span", { class: "seat-name" }, `Seat ${seat.seat + 1}: ${seatName(seat)}`,
      seat.seat === mine ? " (you)" : ""), seatControls(page, seat, name), inviteLink(view, seat), seatCivility(view, seat.seat))));
  return h("div", { class: "waiting" },
    invitedOffer(view, (work) => guarded(page, work)),
    view.status === "waiting" ? h("p", {}, "The game starts when every seat is taken. Share this page's address to invite people.") : null,
    name && mine === null && view.seats.some((seat) => seat.name === null && !seat.reserved) ? h("label", {}, "Your name ", name) : null,
    seatsList);
}

/** What can be done with `seat` of a waiting game: take it, seat an AI there, leave it. */
function seatControls(page, seat, name) {
  const { view } = page;
  const mine = view.you;
  const controls = [];
  if (view.status === "waiting" && seat.name === null) {
    if (mine === null && (!seat.reserved || seat.reserved_for === api.player()?.id || seat.seat === page.invitation)) {
      controls.push(h("button", { type: "button", onclick: () => join(page, seat.seat, name) }, `Take seat ${seat.seat + 1}`));
    }
    if (!seat.reserved) controls.push(botControl(page, seat.seat));
  }
  if (seat.seat === mine && view.status === "waiting") {
    controls.push(h("button", { type: "button", onclick: () => leave(page) }, "Leave"));
  }
  return controls;
}

function botControl(page, seat) {
  const level = h("select", { "aria-label": `AI level for seat ${seat + 1}` },
    (page.types.find((type) => type.name === page.view.game)?.bots || []).map((bot) => h("option", { value: bot }, bot)));
  return h("span", { class: "bot-seat" }, level,
    h("button", { type: "button", onclick: () => guarded(page, () => seatBot(page.id, seat, level.value)) }, "Seat an AI"));
}

async function guarded(page, work) {
  await perform(page.message, work);
  await refresh(page);
}

const join = (page, seat, name) => guarded(page, async () => {
  if (name && !name.value.trim()) throw new Error("Give your name first.");
  await takeSeat(page.id, name?.value.trim(), seat);
  page.token = null;
});

const leave = (page) => guarded(page, async () => {
  await leaveSeat(page.id);
  page.token = null;
});
