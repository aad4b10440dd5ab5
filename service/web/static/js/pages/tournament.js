// A tournament's page, /tournaments/<id>: its facts, time control and house rules, sign-up and withdrawal,
// AI entrants for its creator, the standings and rounds kept live by its stream, each table linking to its
// game and saying whether it is rated, and the rules it plays by. Names are text.

import * as api from "../api.js";
import { button, fill, h, perform, problemNotice } from "../dom.js";
import { gameTitle, pace } from "../games.js";
import { houseRules } from "../options.js";
import { entrantLink, factsLine } from "../tournaments.js";

export async function showTournament(main, id) {
  document.title = "Tournament · Meeple";
  let tournament, types;
  try {
    [tournament, { types }] = await Promise.all([api.tournament(id), api.gameTypes()]);
  } catch (problem) {
    fill(main, h("h1", {}, "Tournament"), problemNotice(problem));
    return;
  }
  const parts = { facts: h("p", {}), actions: h("div", { class: "actions" }), standings: h("div", {}), rounds: h("div", {}) };
  fill(main, h("section", { class: "tournament", "aria-labelledby": "tournament-title" },
    h("h1", { id: "tournament-title" }, tournament.name), parts.facts,
    h("p", {}, `Time control: ${pace(tournament)}`), houseRules(tournament, types), parts.actions,
    h("h2", {}, "Standings"), parts.standings, h("h2", {}, "Rounds"), parts.rounds,
    h("h2", {}, "Rules"), h("ul", { class: "rules" }, tournament.rules.map((rule) => h("li", {}, rule))),
    h("p", {}, h("a", { href: "/tournaments" }, "All tournaments"))));
  let acting = null;  // what the actions were drawn for: redrawn only when it changes, keeping focus and messages
  const draw = (now) => {
    if (isLater(tournament.version, now.version)) return;  // never an older state than the one shown
    tournament = now;
    document.title = `${now.name} · Meeple`;
    fill(parts.facts, `${factsLine(now, types)}${now.rounds ? ` · ${now.rounds} rounds` : ""}`);
    const basis = JSON.stringify([now.stage, now.entrants.map((each) => [each.id, each.withdrawn])]);
    if (basis !== acting) drawActions(parts.actions, now, types.find((type) => type.name === now.game).bots, draw);
    acting = basis;
    fill(parts.standings, standingsTable(now));
    fill(parts.rounds, now.paired.length ? now.paired.map((round) => roundList(now, round, gameTitle(types, now.game))) : h("p", {}, "Round 1 is paired at the start."));
  };
  draw(tournament);
  follow(id, draw);
}

/** Whether the version (a change's id, `<ms>-<n>`) `one` is later than `other`. */
const isLater = (one, other) => {
  const [[a, b], [c, d]] = [one, other].map((version) => version.split("-").map(Number));
  return a > c || (a === c && b > d);
};

/** Redraw the page with the whole tournament its stream sends, then with each change applied to what the
 *  stream sent (opened again for the whole when a change is not from it). A stream that closes before the
 *  end (the tournament may have ended meanwhile) is followed by one read of it, and opened again while it is not over. */
function follow(id, draw) {
  let base, stream, left = false;
  const open = () => {
    stream = new EventSource(`/v1/tournaments/${encodeURIComponent(id)}/stream`);
    stream.addEventListener("tournament", (message) => draw(base = JSON.parse(message.data)));
    stream.addEventListener("change", (message) => {
      const { since, paired = [], ...parts } = JSON.parse(message.data);
      if (since !== base?.version) return again();
      const rounds = [...base.paired];
      for (const round of paired) rounds[round.number - 1] = round;
      draw(base = { ...base, ...parts, paired: rounds });
    });
    stream.addEventListener("end", () => { left = true; stream.close(); });
    stream.addEventListener("error", async () => {
      if (stream.readyState !== EventSource.CLOSED) return;  // the browser reconnects by itself
      const now = await api.tournament(id).catch(() => null);
      if (now) draw(now);
      if (!left && !["finished", "cancelled"].includes(now?.stage)) setTimeout(() => left || open(), 3000);
    });
  };
  const again = () => { stream.close(); open(); };
  open();
  addEventListener("pagehide", () => { left = true; stream.close(); }, { once: true });
}

/** Sign up or withdraw (once confirmed) for the signed-in player; for the creator, entering an AI while
 *  signing up and withdrawing one. */
function drawActions(place, tournament, levels, draw) {
  const me = api.player();
  const message = h("div", { "aria-live": "polite" });
  const entrants = tournament.entrants;
  const mine = entrants.find((each) => each.id === me?.id && each.withdrawn === null);
  const act = (work) => perform(message, async () => {
    await work();
    draw(await api.tournament(tournament.id));
  });
  const open = tournament.stage === "signing_up";
  const controls = [];
  if (!me && open) controls.push(h("a", { href: "/#sign-in" }, "Sign in to sign up"));
  if (me && open && !mine) controls.push(button("Sign up", () => act(() => api.enterTournament(tournament.id, {}, me.token))));
  const going = ["signing_up", "running"].includes(tournament.stage);
  if (mine && going) controls.push(button("Withdraw", () => withdraw(tournament, mine, act)));
  if (me?.id === tournament.creator && open) controls.push(aiControl(tournament, levels, act));
  const ais = entrants.filter((each) => each.level !== null && each.withdrawn === null);
  if (me?.id === tournament.creator && going && ais.length) controls.push(aiWithdrawal(tournament, ais, act));
  fill(place, h("p", {}, `${entrants.length} ${entrants.length === 1 ? "entrant" : "entrants"}`), controls.length ? h("div", { class: "buttons" }, controls) : null, message);
}

function aiControl(tournament, levels, act) {
  const level = h("select", { "aria-label": "AI level" }, levels.map((each) => h("option", { value: each }, each)));
  const add = () => act(() => api.enterTournament(tournament.id, { level: level.value }, api.player().token));
  return h("span", {}, level, " ", button("Enter an AI", add));  // kept together as the line wraps
}

/** Withdraw `entrant` once the player confirms it (after the start, their running games are forfeited). */
function withdraw(tournament, entrant, act) {
  const started = tournament.stage === "running" ? " Their running games are forfeited and they are paired no more." : "";
  if (confirm(`Withdraw ${entrant.name} from ${tournament.name}?${started}`)) {
    act(() => api.withdrawEntrant(tournament.id, entrant.id, api.player().token));
  }
}

function aiWithdrawal(tournament, ais, act) {
  const chosen = h("select", { "aria-label": "AI to withdraw" }, ais.map((each) => h("option", { value: each.id }, each.name)));
  return h("span", {}, chosen, " ", button("Withdraw the AI", () => withdraw(tournament, ais.find((each) => each.id === chosen.value), act)));
}

function standingsTable(tournament) {
  if (!tournament.standings.length) return h("p", {}, "Nobody has signed up yet.");
  const entrants = Object.fromEntries(tournament.entrants.map((each) => [each.id, each]));
  const header = [["#", "Place"], ["Entrant"], ["Pts", "Points"], ["Bh", "Buchholz"], ["1st", "First places"], ["Pl", "Played"]];
  return h("table", { class: "board standings", "aria-label": "Standings" },
    h("thead", {}, h("tr", {}, header.map(([short, long]) =>
      h("th", { scope: "col" }, long ? h("abbr", { title: long, "aria-label": long }, short) : short)))),
    h("tbody", {}, tournament.standings.map((row, index) => h("tr", {},
      h("td", {}, String(index + 1)),
      h("td", {}, entrantLink(entrants[row.entrant], row.name), withdrawn(entrants[row.entrant])),
      h("td", {}, String(row.points)), h("td", {}, String(row.buchholz)), h("td", {}, String(row.firsts)),
      h("td", {}, String(row.played))))));
}

const withdrawn = (entrant) => entrant.withdrawn === null ? null
  : ` (withdrawn after round ${entrant.withdrawn}${entrant.timed_out ? ", out of time" : ""})`;

/** A round's tables, each a link named for the game's `title`, with its places or its players and a badge
 *  when rated, and who sat out. */
function roundList(tournament, round, title) {
  const names = Object.fromEntries(tournament.entrants.map((each) => [each.id, each.name]));
  return h("section", { class: "round", "aria-label": `Round ${round.number}` }, h("h3", {}, `Round ${round.number}`),
    h("ul", {}, round.tables.map((table, index) => h("li", {},
      h("a", { href: `/games/${encodeURIComponent(table.game_id)}` }, `${title} table ${index + 1}`), ": ",
      table.places ? table.places.map((place) => place.map((each) => names[each]).join(" = ")).join(", then ")
        : `${table.entrants.map((each) => names[each]).join(", ")} (playing)`,
      table.rated ? [" ", h("span", { class: "badge rated" }, "Rated")] : null))),
    round.byes.length ? h("p", {}, `Sitting out: ${round.byes.map((each) => names[each]).join(", ")}`) : null);
}
