// What the tournament pages share: a tournament's facts in words, and an entrant's link to its player page.

import { h } from "./dom.js";
import { gameTitle } from "./games.js";

export const FORMATS = { round_robin: "Round robin", swiss: "Swiss" };
const STAGES = { signing_up: "signing up", running: "under way", finished: "finished", cancelled: "cancelled" };

/** When a tournament starts, in the browser's own time. */
export const startWords = (ms) => new Date(ms).toLocaleString([], { dateStyle: "medium", timeStyle: "short" });

/** "Swiss of Djambi, 4 seats a table · starts … · signing up", the game's title as `types` give it. */
export function factsLine(each, types) {
  const game = gameTitle(types, each.game);
  return `${FORMATS[each.format]} of ${game}, ${each.seats} seats a table · starts ${startWords(each.starts)} · ${STAGES[each.stage]}`;
}

/** An entrant's name linking to its player page: a registered player's, or its AI level's. */
export function entrantLink(entrant, name) {
  const id = entrant.level ? `ai:${entrant.level}` : entrant.id;
  return h("a", { href: `/players/${encodeURIComponent(id)}` }, name);
}
