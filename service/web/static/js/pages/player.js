// The player page, /players/<id> (a registered player's id, or `ai:<level>`): each game's rating with
// its history drawn as a chart (each point carries its rating), games played, won and by place, the
// latest rated games linking to their replays, and head-to-head: the signed-in viewer's record against this
// player, and every opponent met in each game, most met first. Names are text.

import * as api from "../api.js";
import { button, fill, h, perform, problemNotice, svg } from "../dom.js";
import { gameTitle } from "../games.js";
import { playerLink, ratingText } from "../ratings.js";

const WIDTH = 600;
const HEIGHT = 180;
const PAD = 12;
const LEFT = 54; // room for the scale's numbers

export async function showPlayer(main, id) {
  document.title = "Player · Meeple";
  let page, recent, types;
  try {
    [page, recent, { types }] = await Promise.all([api.playerRatings(id), api.playerResults(id), api.gameTypes()]);
  } catch (problem) {
    fill(main, h("h1", {}, "Player"), problemNotice(problem));
    return;
  }
  document.title = `${page.name} · Meeple`;
  const title = (game) => gameTitle(types, game);
  fill(main, h("section", { class: "player", "aria-labelledby": "player-title" },
    h("h1", { id: "player-title" }, page.name),
    page.games.length ? page.games.map((each) => career(each, title(each.game))) : h("p", {}, "No rated game yet."),
    h("h2", {}, "Latest rated games"),
    recent.results.length ? h("ul", { class: "results" }, recent.results.map((result) => resultLine(result, title(result.game))))
      : h("p", {}, "None yet."),
    headToHead(id, page, title)));
}

/** One game's rating, places and chart, under the game's `title`. */
function career(each, title) {
  return h("section", { class: "career", "aria-labelledby": `career-${each.game}` },
    h("h2", { id: `career-${each.game}` }, title),
    h("p", {}, `Rating ${ratingText(each.rating)}${each.provisional ? " (provisional)" : ""} · ${each.games} rated games, ${each.won} won`),
    h("p", {}, `By place: ${each.places.map((count, place) => `${place + 1}${suffix(place + 1)} ${count}`).join(", ")}`),
    chart(each.history, title),
    each.history.length < each.history_total ? h("p", {}, `Latest ${each.history.length} of ${each.history_total} rated games`) : []);
}

const suffix = (place) => ({ 1: "st", 2: "nd", 3: "rd" })[place % 100 > 10 && place % 100 < 14 ? 0 : place % 10] ?? "th";

/** The rating after each game as a line of points, each point carrying its game and its exact rating. */
function chart(history, title) {
  const ratings = history.map((point) => point.rating);
  const low = ratings.reduce((least, rating) => Math.min(least, rating), 0);
  const high = ratings.reduce((most, rating) => Math.max(most, rating), low + 1);
  const x = (index) => LEFT + (history.length > 1 ? index * (WIDTH - LEFT - PAD) / (history.length - 1) : (WIDTH - LEFT - PAD) / 2);
  const y = (rating) => HEIGHT - PAD - (rating - low) * (HEIGHT - 2 * PAD) / (high - low);
  const first = ratingText(ratings[0]);
  const last = ratingText(ratings[ratings.length - 1]);
  return svg("svg", { class: "chart", viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: "img",
    "aria-label": `${title} rating after each of ${history.length} rated games: from ${first} to ${last}` },
  svg("line", { class: "zero", x1: LEFT, x2: WIDTH - PAD, y1: y(0), y2: y(0) }),
  [high, low].map((rating) => svg("text", { class: "scale", x: LEFT - 6, y: y(rating) + 4 }, ratingText(rating))),
  svg("polyline", { points: history.map((point, index) => `${x(index)},${y(point.rating)}`).join(" ") }),
  history.map((point, index) => svg("circle", {
    cx: x(index), cy: y(point.rating), r: 3, "data-rating": String(point.rating), "data-game-id": point.game_id,
  }, svg("title", {}, `${ratingText(point.rating)} after ${new Date(point.at).toLocaleDateString()}`))));
}

/** A rated game of `title`: its replay (none for an unlisted game), the day it ended, the place, and every seat by place. */
function resultLine(result, title) {
  const places = result.places.map((place, index) => [index ? " · " : "", `${index + 1}. `,
    place.map((seat, at) => [at ? ", " : "", playerLink(seat)])]);
  const line = `${title}, ${new Date(result.at).toLocaleDateString()}: place ${result.place}`;
  return h("li", {}, result.game_id === null ? line
    : h("a", { href: `/games/${encodeURIComponent(result.game_id)}/replay` }, line), " — ", places);
}

/** Head to head: the signed-in viewer against this player first, then each game's opponents, most met first. */
function headToHead(id, page, title) {
  const me = api.player();
  const mine = h("div", { "aria-live": "polite" });
  if (me && me.id !== id) {
    api.versus(me.id, id).then(({ games }) => fill(mine, h("h3", {}, `You against ${page.name}`), games.length
      ? h("ul", {}, games.map((each) => h("li", {}, `${title(each.game)}: ${record(each)}`))) : h("p", {}, "No rated game together yet.")),
    (problem) => fill(mine, problemNotice(problem)));
  }
  return h("section", { "aria-labelledby": "versus-title" }, h("h2", { id: "versus-title" }, "Head to head"), mine,
    page.games.map((each) => opponents(id, each.game, title(each.game))));
}

const record = (each) => `${each.played} together, ahead ${each.ahead}, behind ${each.behind}, tied ${each.tied}`;

/** The opponents met in `game`, a page at a time (a More button for the next; after a failure, "Try again" in its place). */
function opponents(id, game, title) {
  const list = h("ul", { class: "opponents" });
  const message = h("div");
  let after = 0;
  const more = button("More", () => read(), { hidden: true });
  const read = async () => {
    more.disabled = true;
    const done = await perform(message, async () => {
      const found = await api.opponents(id, game, after);
      list.append(...found.opponents.map((each) => h("li", {}, playerLink(each), `: ${record(each)}`)));
      after = found.next;
    });
    more.textContent = done ? "More" : "Try again";
    more.disabled = false;
    more.hidden = done && after === null;
  };
  read();
  return h("div", {}, h("h3", {}, title), list, message, more);
}
