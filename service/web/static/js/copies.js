// A game's copies as its table shows them: where the game was copied from (a fork's game and move,
// a rematch's game), and what a finished game offers: a rematch, its log to download, its replay.

import * as api from "./api.js";
import { fill, h, perform } from "./dom.js";

const gameLink = (id) => h("a", { href: `/games/${encodeURIComponent(id)}` }, id);
const replayAt = (id, version) => `/games/${encodeURIComponent(id)}/replay?version=${version}`;
const movesSeen = new Map(); // "<game>@<version>" → the promise of the move that version ends

/** "Forked from <game> at move N" or "Rematch of <game>" into `line`, hidden for a game copied from none it may name. */
export function drawOrigin(line, view) {
  const fork = view.forked_from;
  line.hidden = !fork && !view.rematch_of;
  if (!fork) {
    fill(line, view.rematch_of ? ["Rematch of ", gameLink(view.rematch_of)] : null);
    return;
  }
  const key = `${fork.game_id}@${fork.version}`;
  if (!movesSeen.has(key)) movesSeen.set(key, moveEndingAt(fork.game_id, fork.version).catch(() => null));
  movesSeen.get(key).then((move) => fill(line, "Forked from ", gameLink(fork.game_id), " at ",
    h("a", { href: replayAt(fork.game_id, fork.version) }, move === null ? `version ${fork.version}` : `move ${move}`)));
}

const LINEAGE = 6; // the games a fork's lineage is followed through, at most
const lineages = new Map(); // "<game>@<version>" → the promise of the forks a fork descends from

/** The origins a fork (its view's `forked_from`) descends from, nearest first: its own, then each
 * one's own, as far as the API names them to this browser's player. */
export function lineage(fork) {
  const key = `${fork.game_id}@${fork.version}`;
  if (!lineages.has(key)) lineages.set(key, ancestors(fork));
  return lineages.get(key);
}

async function ancestors(fork) {
  const levels = [fork];
  while (levels.length < LINEAGE) {
    const origin = await api.game(levels.at(-1).game_id, api.player()?.token).catch(() => null);
    if (!origin?.forked_from) break;
    levels.push(origin.forked_from);
  }
  return levels;
}

/** The origin of a fork's `lineage` whose players made the copied event at `version`: the farthest that played it. */
export function playedIn(levels, version) {
  let found;
  for (const level of levels) {
    if (version > level.version) break;
    found = level;
  }
  return found;
}

/** The number of the move (the opening counts as the first, as the replay counts) that ends at `version`. */
async function moveEndingAt(id, version) {
  let moves = 0, command = null;
  for (let after = 0; after < version;) {
    const { events } = await api.events(id, after, null, Math.min(1000, version - after));
    if (!events.length) break;
    for (const event of events) {
      if (event.command_id !== command) moves += 1;
      command = event.command_id;
    }
    after = events[events.length - 1].version;
  }
  return moves;
}

/** What a finished table offers: to its seats a rematch (or the one offered), to all its log and its replay. */
export function finishedControls(view, token) {
  const id = encodeURIComponent(view.id);
  const message = h("div", { class: "messages" });
  return h("section", { class: "finished", "aria-label": "After the game" },
    view.you === null ? null : rematchControl(view, token, message),
    h("a", { href: api.exportUrl(view.id), download: `${view.game}-${view.id}.jsonl` }, "Download the log"),
    h("a", { href: `/games/${id}/replay` }, "Replay this game, move by move"),
    message);
}

function rematchControl(view, token, message) {
  if (view.rematch) return h("span", { class: "rematch" }, "A rematch is offered: ", gameLink(view.rematch));
  const offer = () => perform(message, async () => {
    location.assign(`/games/${encodeURIComponent((await api.rematch(view.id, token)).id)}`);
  });
  return h("button", { type: "button", class: "primary", onclick: offer }, "Offer a rematch");
}
