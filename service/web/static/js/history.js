// A game's history as its table shows it: the log (GET /v1/games/{id}/events) read from its end
// back, page by page, and up to the version the table shows; the events of one command are one
// move, which names who acted and why (an AI seat, a deadline), newest first, those since the
// viewing seat last moved under their own heading.

import * as api from "./api.js";
import { button, h } from "./dom.js";

const PAGE = 200; // events read at once
const MOST = 1000; // events the API gives at once
const SHOWN = 10; // earlier moves shown at first, and more at each "Show earlier moves"
const SOUGHT = 5; // pages read back at most for the viewing seat's last move
const LINES = 6; // lines of a move shown before the rest folds away (a long turn of dice)

/** The history of game `id`, nothing read yet. */
export const history = (id) => ({ id, token: undefined, events: [], from: null, to: 0, shown: SHOWN, reading: false });

/**
 * Read the log as `token` may up to `version`, the table's, the first time from a page before it
 * and back to `seat`'s last move. Answers the events to mark on the table: those new since the
 * last reading, or the last move's at the first.
 */
export async function catchUp(log, token, version, seat) {
  if (log.token !== token || version < log.to) Object.assign(log, history(log.id), { token }); // another reader: read afresh
  const first = log.from === null;
  if (first) log.from = log.to = Math.max(0, version - PAGE);
  const fresh = [];
  while (log.to < version) {
    const { events } = await api.events(log.id, log.to, token, Math.min(MOST, version - log.to));
    if (!events.length) break;
    fresh.push(...events);
    log.to = events.at(-1).version;
  }
  log.events.push(...fresh);
  for (let page = 0; first && seat !== null && log.from > 0 && page < SOUGHT && !moves(log).some(by(seat)); page++) {
    await earlier(log);
  }
  return first ? moves(log).at(-1)?.events ?? [] : fresh;
}

/** One more page of the log, before what is read. */
async function earlier(log) {
  const after = Math.max(0, log.from - PAGE);
  const { events } = await api.events(log.id, after, log.token, log.from - after);
  log.events.unshift(...events);
  log.from = after;
}

/** Show `SHOWN` more earlier moves, reading the log further back as they need. */
export async function more(log, seat, words) {
  if (log.reading) return;
  log.reading = true;
  try {
    log.shown += SHOWN;
    while (log.from > 0 && split(log, seat, words).earlier.length <= log.shown) await earlier(log);
  } finally {
    log.reading = false;
  }
}

/** The events read, a move per command, oldest first; the oldest dropped while the log before it is unread (it may be cut). */
function moves(log) {
  const found = [];
  for (const event of log.events) {
    const last = found.at(-1);
    if (last && last.command === event.command_id) last.events.push(event);
    else found.push({ command: event.command_id, actor: event.actor, events: [event] });
  }
  return log.from > 0 ? found.slice(1) : found;
}

const by = (seat) => (move) => move.actor === `seat:${seat}`;

/** The moves with words, newest first: those since `seat` last moved, and the earlier ones. */
function split(log, seat, words) {
  const told = moves(log).map((move) => ({ ...move, lines: move.events.map(words).filter(Boolean) }))
    .filter((move) => move.lines.length).reverse();
  const own = seat === null ? 0 : told.findIndex(by(seat));
  const cut = own < 0 ? told.length : own;
  return { since: told.slice(0, cut), earlier: told.slice(cut) };
}

/** Who acted, and why, where the move's own words may not say it; a fork's moves up to version `copied` were the
 * original's, and those up to `inherited` a game's the original copied in turn. */
function actorWords(move, names, { copied, inherited }) {
  const [kind, seat] = move.actor.split(":");
  const name = names[Number(seat)];
  const version = move.events[0].version;
  const fork = version <= inherited ? "Played in an earlier game"
    : version <= copied ? "Played in the original game" : "The fork's own deal";
  return { bot: `${name} (AI)`, deadline: `${name}'s time ran out`, system: "Setup", fork, import: "Imported" }[kind];
}

/** When a move was made: its time of day, and its date unless today. */
function when(time) {
  const at = new Date(time);
  const today = at.toDateString() === new Date().toDateString();
  return at.toLocaleString([], { ...(today ? {} : { month: "short", day: "numeric" }), hour: "2-digit", minute: "2-digit" });
}

function entry(move, names, newest, copies) {
  const who = actorWords(move, names, copies);
  const time = move.events.at(-1).time;
  const rest = move.lines.slice(LINES);
  return h("li", { class: newest ? "move last" : "move", dataset: { version: move.events.at(-1).version } },
    who ? h("strong", { class: "actor" }, `${who}: `) : null, move.lines.slice(0, LINES).join(" · "), " ",
    h("time", { class: "when", datetime: new Date(time).toISOString() }, when(time)),
    rest.length ? h("details", {}, h("summary", {}, `${rest.length} more`), rest.join(" · ")) : null);
}

/**
 * The list of moves as `seat` (null: a spectator) reads it, in the `names` of the seats,
 * `words(event)` each event's line; `onMore` asks for earlier moves; a fork's moves up to version
 * `copied` (all of them, when not given) are said to be its original's, and those up to version
 * `inherited` to be a game's before it (a fork of a fork).
 */
export function drawHistory(log, { seat, names, words, onMore, copied = Infinity, inherited = 0 }) {
  const copies = { copied, inherited };
  const { since, earlier } = split(log, seat, words);
  const shown = earlier.slice(0, log.shown).map((move, index) => entry(move, names, !since.length && index === 0, copies));
  const group = (title, list) => h("li", { class: "group" }, h("h3", {}, title), h("ol", { "aria-label": title }, list));
  const items = since.length
    ? [group("Since your last move", since.map((move, index) => entry(move, names, index === 0, copies))),
      shown.length ? group("Earlier", shown) : null]
    : shown;
  const further = log.from > 0 || earlier.length > log.shown;
  return [
    items.length ? h("ol", { class: "recent", "aria-label": "Recent moves" }, items) : h("p", { class: "hint" }, "No moves yet."),
    further ? button("Show earlier moves", onMore, { class: "link", dataset: { key: "history:more" } }) : null,
  ];
}
