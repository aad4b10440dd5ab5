// The leaderboard page, /ratings/<game>: those who finished a rated game of it lately, best first,
// each linking to their player page; the provisional ratings listed apart. Names are text.

import * as api from "../api.js";
import { button, fill, h, problemNotice } from "../dom.js";
import { gameTitle } from "../games.js";
import { playerLink, ratingText } from "../ratings.js";

export async function showLeaderboard(main, game) {
  const { types } = await api.gameTypes().catch(() => ({ types: [] }));
  const title = gameTitle(types, game);
  document.title = `${title} leaderboard · Meeple`;
  const about = h("p", {});
  const established = h("div", {});
  const provisional = h("div", {});
  fill(main, h("section", { "aria-labelledby": "board-title" },
    h("h1", { id: "board-title" }, `${title} leaderboard`),
    h("nav", { "aria-label": "Leaderboards", class: "boards" }, types.map(({ name, title: each }) =>
      h("a", { href: `/ratings/${name}`, ...(name === game ? { "aria-current": "page" } : {}) }, each))),
    about,
    established,
    h("h2", {}, "Provisional"),
    h("p", {}, "Ratings still uncertain: too few rated games yet."),
    provisional));
  const [page] = await Promise.all([drawPage(established, game, false, 0), drawPage(provisional, game, true, 0)]);
  if (page) about.textContent = `Rated games of the last ${page.days} days, ranked by rating: the skill shown with near certainty (mu − 3 sigma).`;
}

/** A page of the board into `place` (a More button for the next), as a table; the page, or nothing if refused. */
async function drawPage(place, game, provisional, after) {
  let page;
  try {
    page = await api.leaderboard(game, provisional, after);
  } catch (problem) {
    fill(place, problemNotice(problem));
    return;
  }
  const label = provisional ? "Provisional ratings" : "Ratings";
  const table = place.querySelector("table") ?? h("table", { class: "board", "aria-label": label },
    h("thead", {}, h("tr", {}, ["#", "Player", "Rating", "Games"].map((name) => h("th", { scope: "col" }, name)))), h("tbody", {}));
  if (!after) fill(place, page.total ? table : h("p", {}, "Nobody yet."));
  table.tBodies[0].append(...page.ratings.map((each) =>
    h("tr", {}, h("td", {}, String(each.rank)), h("td", {}, playerLink(each)), h("td", {}, ratingText(each.rating)),
      h("td", {}, String(each.games)))));
  place.querySelector("button")?.remove();
  if (page.next !== null) place.append(button("More", () => drawPage(place, game, provisional, page.next)));
  return page;
}
