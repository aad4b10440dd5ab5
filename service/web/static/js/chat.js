// A game's chat at its table: the table's room, the spectators' room (for those who watch, and for the
// seats once the game is over) and a seat's private notes. New messages come live from the game's
// stream; those from others stay marked unread until the reader turns to the chat. Every word is
// drawn as text, never as HTML.

import * as api from "./api.js";
import { blockControl, forget, reportControl } from "./civility.js";
import { messageForm } from "./compose.js";
import { fill, h, notice, perform } from "./dom.js";

const ROOMS = { table: "Table", spectators: "Spectators" };
const CHATS = new WeakMap(); // a page's chat panel → its chat

const over = (view) => view.status === "finished" || view.status === "cancelled";
const readable = (view) => Object.keys(ROOMS).filter((room) => room === "table" || over(view) || (view.you === null && !!api.player()));
const reader = (chat) => chat.token || api.player()?.token; // a signed-in spectator reads as themselves, without whom they block
const writer = (chat, room) => (room === "table" ? (chat.view.you !== null && chat.token) : (chat.view.you === null && api.player()?.token));

/** Draw the chat of `view` into `panel` for the caller holding `token` (null: a spectator), anew
 * only when who reads it or which rooms they read changes. */
export function showChat(panel, view, token) {
  panel.hidden = !view.chat; // a game created with its chat off offers none
  if (!view.chat) return;
  const key = [view.id, token, view.you, over(view), api.player()?.token].join(" ");
  if (CHATS.get(panel)?.key === key) return;
  const chat = { key, view, token, panel, rooms: {}, unread: 0 };
  CHATS.set(panel, chat);
  chat.summary = h("summary", {}, "Chat");
  const details = h("details", { class: "chat", open: true }, chat.summary,
    readable(view).map((name) => room(chat, name).section), view.you !== null ? notes(chat) : null);
  for (const type of ["focusin", "pointerdown", "toggle"]) details.addEventListener(type, () => markRead(chat));
  details.addEventListener("forgotten", () => count(chat, details.querySelectorAll(".chat-log .unread").length));
  fill(panel, details);
  Object.values(chat.rooms).forEach((each) => load(chat, each)); // what was read stays
}

/** A message the game's stream brought, or (`hidden`) one the admin hid, which leaves the room. */
export function hearChat(panel, message, hidden) {
  const chat = CHATS.get(panel);
  const where = chat?.rooms[message.room];
  if (!where) return;
  if (hidden) return hide(chat, where, message.id);
  add(chat, where, message, true);
  where.heard = later(where.heard, message.id);
  if (where.following) where.last = later(where.last, message.id);
}

function hide(chat, where, id) {
  where.seen.add(id); // a page read still under way does not draw it again
  const line = where.log.querySelector(`li[data-id="${CSS.escape(id)}"]`);
  if (line?.classList.contains("unread")) count(chat, chat.unread - 1);
  line?.remove();
}

function room(chat, name) {
  const log = h("ol", { class: "chat-log", role: "log", tabindex: 0, "aria-label": `${ROOMS[name]} messages` });
  const token = writer(chat, name);
  const hint = name === "spectators" && chat.view.you === null ? "Sign in to write here." : null;
  const section = h("section", { class: "chat-room", dataset: { room: name } },
    h("h3", {}, ROOMS[name]), log, token ? form(chat, name) : hint && h("p", { class: "hint" }, hint));
  // `last`: the message read up to, by reads and by the stream once it is caught up (`following`); `heard`: the latest
  // message the stream open now brought; `hides`: the hide read up to; `opened`: the stream's openings counted
  chat.rooms[name] = { name, log, section, seen: new Set(), last: "0-0", heard: "0-0", hides: null, following: false,
    opened: 0, reading: Promise.resolve() };
  return chat.rooms[name];
}

/** Catch each room up on what a stream that (re)opens may have missed: the messages after the last one read and
 * the hides after the last one read, once the room's first reading is done. */
export function catchUpChat(panel) {
  const chat = CHATS.get(panel);
  for (const where of Object.values(chat?.rooms ?? {})) {
    const opened = ++where.opened;
    Object.assign(where, { following: false, heard: "0-0" }); // what this stream brings follows on from its opening
    load(chat, where).then(() => {
      if (where.opened !== opened) return; // opened again meanwhile: that opening's reading follows on
      Object.assign(where, { following: true, last: later(where.last, where.heard) });
    });
  }
}

/** Read the room page by page after where it was read up to, and the hides since, after any reading under way. */
function load(chat, where) {
  where.reading = where.reading.then(() => readOn(chat, where)).catch(() => {});
  return where.reading;
}

async function readOn(chat, where) {
  let page;
  do {
    page = await api.chat(chat.view.id, where.name, where.last, reader(chat), where.hides);
    page.hidden.forEach((id) => hide(chat, where, id));
    page.messages.forEach((message) => add(chat, where, message, false));
    where.last = page.next ?? page.messages.at(-1)?.id ?? where.last;
    where.hides = page.hides;
  } while (page.next);
}

const order = (id) => id.split("-").map(Number);
const before = (a, b) => order(a)[0] < order(b)[0] || (order(a)[0] === order(b)[0] && order(a)[1] < order(b)[1]);
const later = (a, b) => (before(a, b) ? b : a);

/** Put a message in its place in the room's log, once; one from someone else heard live is unread. */
function add(chat, where, message, live) {
  if (where.seen.has(message.id)) return;
  where.seen.add(message.id);
  const mine = isMine(chat, message);
  const reading = chat.panel.contains(document.activeElement) && document.hasFocus(); // in the chat now
  const unread = live && !mine && !reading;
  const who = message.seat === null ? message.name : `${message.name} (seat ${message.seat + 1})`;
  const line = h("li", { class: unread ? "unread" : null, dataset: { id: message.id, player: message.player_id ?? "" } },
    h("span", { class: "chat-name" }, `${who}: `), h("span", { class: "chat-text" }, message.text),
    mine ? null : civility(chat, where, message), unread ? h("span", { class: "chat-new" }, " new") : null);
  const next = [...where.log.children].find((other) => before(message.id, other.dataset.id));
  where.log.insertBefore(line, next ?? null);
  where.log.scrollTop = where.log.scrollHeight;
  if (unread) count(chat, chat.unread + 1);
}

/** Whether the reader wrote `message`: by its author's player when it has one (a seat's earlier holder is another
 * player), else, for a reader who is no player, by the seat it was written from. */
function isMine(chat, message) {
  const me = api.player();
  if (message.player_id !== null) return message.player_id === me?.id;
  return message.seat !== null && message.seat === chat.view.you && !me;
}

/** Report and block beside someone else's message, for a reader with a token (block: a signed-in player). */
function civility(chat, where, message) {
  const me = api.player();
  const token = reader(chat);
  if (!token) return null;
  const report = reportControl((reason) => api.reportChat(chat.view.id, where.name, message.id, reason, token));
  const blocks = me && message.player_id && message.player_id !== me.id;
  return [report, blocks ? blockControl(message.name, () => api.block(message.player_id, me.token), () => forget(message.player_id)) : null];
}

function count(chat, unread) {
  chat.unread = unread;
  chat.summary.textContent = unread ? `Chat · ${unread} unread` : "Chat";
}

function markRead(chat) {
  if (!chat.unread || !chat.summary.parentElement.open) return;
  chat.panel.querySelectorAll(".chat-log .unread").forEach((line) => {
    line.classList.remove("unread");
    line.querySelector(".chat-new")?.remove();
  });
  count(chat, 0);
}

/** The form that writes in a room. */
function form(chat, name) {
  const room = ROOMS[name].toLowerCase();
  const message = h("div", { class: "messages" });
  const send = async (text) => add(chat, chat.rooms[name], await api.say(chat.view.id, name, text, writer(chat, name)), false);
  const written = messageForm(`Message to ${room}`, send, message, `Write to the ${room}…`);
  written.append(message);
  return written;
}

/** The seat's private notes: read when drawn, saved by their button. */
function notes(chat) {
  const { view, token } = chat;
  const text = h("textarea", { rows: 3, maxlength: 10000, id: "seat-notes" });
  const status = h("div", { class: "messages" });
  api.notes(view.id, view.you, token).then((kept) => { text.value = kept.text; }, () => {});
  const save = async (event) => {
    event.preventDefault();
    if (await perform(status, () => api.keepNotes(view.id, view.you, text.value, token))) fill(status, notice("Notes saved."));
  };
  return h("details", { class: "notes" }, h("summary", {}, "My notes"),
    h("form", { onsubmit: save }, h("label", { for: "seat-notes" }, "Only you read these notes"), text,
      h("button", { type: "submit" }, "Save notes"), status));
}
