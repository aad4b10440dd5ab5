// A finished game played back, /games/<id>/replay?version=N&seat=S: a slider over its versions,
// steps by event and by move (the events of one command), the table at each version as a
// spectator or any seat saw it, drawn read-only by the game's table module, and a fork from a
// move's end. A log file from an export plays back once the server has imported it as a game.

import * as api from "../api.js";
import { fill, h, notice } from "../dom.js";
import { gameTitle, seatNames } from "../games.js";
import { logDrop } from "../sections/log_drop.js";
import { TABLES } from "../tables/index.js";

const SHOWN = 12; // lines of a long move (an old log imported as one) written out: its last
const SLIDE_MS = 120; // a dragged slider reads the table once it rests this long
const STEPS = [["first", "First", "⇤"], ["previousMove", "Previous move", "«"], ["previousEvent", "Previous event", "‹"],
  ["nextEvent", "Next event", "›"], ["nextMove", "Next move", "»"], ["last", "Last", "⇥"]]; // the arrow leads back
const KEYS = { ArrowLeft: ["previousEvent", "previousMove"], ArrowRight: ["nextEvent", "nextMove"] }; // with Shift: a move

export function showReplay(main, id) {
  const page = {
    id, game: null, names: [], events: [], moves: [], moveAt: [-1], last: 0, version: 0, seat: null, asked: 0, timer: null,
    heading: h("h1", { id: "replay-title" }, "Replay"),
    origin: h("p", { class: "hint" }),
    headline: h("p", { class: "headline", hidden: true }),
    message: h("div", { class: "messages" }),
    controls: h("div", { class: "replay-controls", hidden: true }),
    move: h("section", { class: "replay-move", "aria-labelledby": "move-title", hidden: true }),
    board: h("div", { id: "table", class: "replay-table", "aria-busy": "true" }),
    slider: h("input", { type: "range", id: "replay-version", min: 0, max: 0, value: 0 }),
    position: h("output", { for: "replay-version" }),
    seen: h("select", { id: "replay-seat" }),
    fork: h("div", { class: "replay-fork" }),
  };
  page.steps = Object.fromEntries(STEPS.map(([name, words, arrow], index) => [name, h("button", {
    type: "button", "aria-label": words, onclick: () => step(page, name),
  }, index < 3 ? `${arrow}\u00a0${words}` : `${words}\u00a0${arrow}`)]));
  fill(main, h("section", { class: "replay", "aria-labelledby": "replay-title" },
    h("div", { class: "game-head" }, page.heading, h("a", { href: `/games/${encodeURIComponent(id)}` }, "The game's page")),
    page.origin, page.headline, page.message, page.controls, page.move, page.board, logDrop()));
  document.title = `Replay · ${id} · Meeple`;
  listen(page);
  load(page).catch((problem) => fail(page, problem));
}

function listen(page) {
  const { slider, seen } = page;
  slider.addEventListener("input", () => go(page, Number(slider.value), SLIDE_MS));
  seen.addEventListener("change", () => {
    page.seat = seen.value === "" ? null : Number(seen.value);
    go(page, page.version);
  });
  document.addEventListener("keydown", (event) => { // the slider and the select keep their own arrow keys
    const keys = KEYS[event.key];
    if (!keys || !page.game || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target.closest?.("input, select, textarea, [contenteditable]")) return;
    event.preventDefault();
    step(page, keys[event.shiftKey ? 1 : 0]);
  });
}

/** The version a step goes to from the version shown. */
function target(page, name) {
  const { version, last } = page;
  const ends = [0, ...page.moves.map((m) => m.last)];
  return {
    first: 0,
    previousMove: ends.filter((end) => end < version).pop() ?? 0,
    previousEvent: Math.max(0, version - 1),
    nextEvent: Math.min(last, version + 1),
    nextMove: ends.find((end) => end > version) ?? last,
    last,
  }[name];
}

function step(page, name) {
  if (page.steps[name].getAttribute("aria-disabled") !== "true") go(page, target(page, name));
}

function fail(page, problem) {
  fill(page.message, notice(problem.detail || problem.message, problem.status ? "error" : "info"));
  page.board.setAttribute("aria-busy", "false");
}

async function load(page) {
  const { id, heading } = page;
  const [game, { types }] = await Promise.all([api.game(id, null), api.gameTypes().catch(() => ({ types: [] }))]);
  heading.textContent = `Replay · ${gameTitle(types, game.game)} · ${id}`;
  document.title = `${heading.textContent} · Meeple`;
  if (game.status !== "finished") throw new Error("A game plays back once it is over; follow it on its page meanwhile.");
  await readMoves(page);
  Object.assign(page, { game, names: seatNames(game), last: game.version });
  if (game.imported) {
    page.origin.textContent = `Imported from a log file${game.original_id ? ` of game ${game.original_id}` : ""}${
      page.moves.length === 1 ? ", as one move: step through it event by event" : ""}.`;
  }
  drawControls(page);
  const asked = new URLSearchParams(location.search);
  const seat = Number.parseInt(asked.get("seat"), 10);
  page.seat = seat >= 0 && seat < game.seats.length ? seat : null;
  const version = Number.parseInt(asked.get("version"), 10);
  const dealt = page.moves[0]?.last ?? 0; // the table as dealt, unless the log is one move (an old import)
  go(page, version >= 0 ? Math.min(version, page.last) : dealt < page.last ? dealt : 0);
}

/** Every event of the game, and its moves: the versions of each command's events, and the move of each version. */
async function readMoves(page) {
  for (let after = 0; after !== null;) {
    const found = await api.events(page.id, after, null, 1000);
    page.events.push(...found.events);
    after = found.next;
  }
  for (const event of page.events) {
    const current = page.moves[page.moves.length - 1];
    if (current?.command === event.command_id) current.last = event.version;
    else page.moves.push({ command: event.command_id, first: event.version, last: event.version, actor: event.actor });
    page.moveAt[event.version] = page.moves.length - 1;
  }
}

function drawControls(page) {
  const { slider, seen, controls } = page;
  slider.max = String(page.last);
  fill(seen, h("option", { value: "" }, "spectator"), page.names.map((name, seat) => h("option", { value: seat }, `seat ${seat + 1} (${name})`)));
  fill(controls,
    h("div", { class: "replay-slider" }, h("label", { for: "replay-version" }, "Version"), slider, page.position),
    h("div", { class: "replay-steps", role: "group", "aria-label": "Steps" }, Object.values(page.steps)),
    h("div", { class: "replay-more" },
      h("span", { class: "replay-seen" }, h("label", { for: "replay-seat" }, "Seen by"), seen), page.fork),
    h("p", { class: "hint" }, "Keys: ← and → step an event, with Shift a move."));
  controls.hidden = page.move.hidden = false;
}

/** Show `version`: the controls and its move at once, its table once read (`wait` ms later). */
function go(page, version, wait = 0) {
  const { last, moves, moveAt, seat, slider, position } = page;
  const current = moves[moveAt[version]];
  page.version = version;
  history.replaceState(null, "", `${location.pathname}?version=${version}${seat === null ? "" : `&seat=${seat}`}`);
  slider.value = String(version);
  position.textContent = `Version ${version} of ${last} · ${current ? `move ${moveAt[version] + 1} of ${moves.length}` : "before the first move"}`;
  slider.setAttribute("aria-valuetext", position.textContent);
  for (const [name, button] of Object.entries(page.steps)) button.setAttribute("aria-disabled", String(target(page, name) === version));
  page.seen.value = seat === null ? "" : String(seat);
  drawMove(page, current);
  drawFork(page, current);
  const mine = ++page.asked;
  page.board.setAttribute("aria-busy", "true");
  clearTimeout(page.timer);
  page.timer = setTimeout(() => drawTable(page, mine).catch((problem) => mine === page.asked && fail(page, problem)), wait);
}

/** A fork is offered only where the server takes it: a move's end before the game is over. */
function drawFork(page, current) {
  const { version, last } = page;
  let why = null;
  if (!current) why = "A fork goes on from a move's end; step to one.";
  else if (version === last) why = "The game is over here: fork from an earlier move's end.";
  else if (current.last !== version) why = `Version ${version} falls inside a move: step to its end to fork.`;
  fill(page.fork, why ? h("p", { class: "hint" }, why) : [
    h("button", { type: "button", class: "primary", onclick: () => forkAt(page, version) }, "Fork from here"),
    h("p", { class: "hint" }, "A new game from here; its seats start free.")]);
}

/** The move the version falls in, in words, up to the version's own event. */
function drawMove(page, current) {
  const { version, names, move } = page;
  if (!current) {
    fill(move, h("h2", { id: "move-title" }, "Before the first move"));
    return;
  }
  const { describe } = TABLES[page.game.game];
  const lines = page.events.slice(current.first - 1, version).map((event) => {
    const now = event.version === version;
    const words = describe(event, names, page.game.options) || (now ? inWords(event, names) : null);
    return words && h("li", { class: now ? "now" : null, "aria-current": now ? "step" : null }, words);
  }).filter(Boolean);
  const [kind, seat] = current.actor.split(":");
  const by = { seat: names[seat], bot: names[seat], deadline: `${names[seat]}'s deadline`, import: "the imported log" }[kind];
  fill(move, h("h2", { id: "move-title" }, `Move ${page.moveAt[version] + 1}, by ${by ?? "the server"}`),
    h("ul", { class: "replay-words", "aria-label": "This move" }, lines.slice(-SHOWN)));
}

async function forkAt(page, version) {
  fill(page.message);
  try {
    location.assign(`/games/${encodeURIComponent((await api.fork(page.id, version)).id)}`);
  } catch (problem) {
    fail(page, problem);
  }
}

async function drawTable(page, mine) {
  const { version, seat, game, names, board, headline } = page;
  const view = await api.state(page.id, version, seat);
  if (mine !== page.asked) return; // a later step asked for another version meanwhile
  fill(page.message);
  headline.textContent = "";
  if (view.table) { // none before the first move
    // the move's events are highlighted, or in a long move (an old import) the version's own
    const { first } = page.moves[page.moveAt[version]];
    const recent = page.events.slice(version - first < SHOWN ? first - 1 : version - 1, version);
    const table = TABLES[game.game];
    headline.textContent = table.headline({ ...view, you: null }, names);
    fill(board, table.drawTable(view, null, { act: () => {}, names, ui: { redraw() {} }, recent }));
    showOnly(board);
  } else fill(board);
  headline.hidden = !headline.textContent;
  board.dataset.version = String(version);
  board.setAttribute("aria-busy", "false");
}

/** A seat's cards and the board's buttons under `board`, shown, never played. */
function showOnly(board) {
  for (const button of board.querySelectorAll("button")) {
    const shown = h("span", { class: button.className, dataset: { ...button.dataset } });
    shown.append(...button.childNodes);
    button.replaceWith(shown);
  }
}

/** An event in words when its table says none: its type, and the seat it names. */
function inWords(event, names) {
  const words = event.type.replace(/_/g, " ");
  const who = names[event.payload?.seat];
  return who ? `${who}: ${words}` : words.charAt(0).toUpperCase() + words.slice(1);
}
