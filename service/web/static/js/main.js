// The client's entry point: the account bar, then the page `location.pathname` names.

import * as api from "./api.js";
import { fill, h, notice, tickCountdowns } from "./dom.js";
import { showAdmin } from "./pages/admin.js";
import { showGame } from "./pages/game.js";
import { showHome } from "./pages/home.js";
import { showMessages } from "./pages/messages.js";
import { showPlayer } from "./pages/player.js";
import { showLeaderboard } from "./pages/ratings.js";
import { showReplay } from "./pages/replay.js";
import { showSignIn } from "./pages/sign_in.js";
import { showTournament } from "./pages/tournament.js";
import { showNewTournament, showTournaments } from "./pages/tournaments.js";

/** The links to the pages every visitor may read: the leaderboards and the tournaments. */
const everyones = () => [h("a", { href: "/ratings/taki" }, "Leaderboards"), h("a", { href: "/tournaments" }, "Tournaments")];

function drawAccount() {
  const bar = document.getElementById("account");
  const me = api.player();
  if (!me) {
    fill(bar, everyones(), h("a", { href: "/#sign-in" }, "Sign in"));
    return;
  }
  const signOut = () => {
    api.forgetPlayer();
    location.assign("/");
  };
  const messages = h("a", { href: "/messages" }, "Messages");
  const ratings = h("a", { href: `/players/${encodeURIComponent(me.id)}` }, "My ratings");
  api.conversations(me.token).then(({ unread }) => { if (unread) messages.textContent = `Messages (${unread} unread)`; }, () => {});
  fill(bar,
    h("span", { class: "who" }, "Signed in as ", h("strong", {}, me.name)), messages, ratings, everyones(),
    h("button", { type: "button", class: "link", onclick: signOut }, "Sign out"));
}

/** The game id a path segment names, or null when its %-escapes are not UTF-8 (`%E0%A4%A`). */
function decoded(segment) {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null; // a URIError: no game has such an id
  }
}

function showNotAGame(main) {
  document.title = "Not a game · Meeple";
  fill(main, h("section", { "aria-labelledby": "not-a-game" },
    h("h1", { id: "not-a-game" }, "Not a game"),
    h("p", {}, "This address names no game: its game id is not valid text."),
    h("p", {}, h("a", { href: "/" }, "Back to the lobby"))));
}

function route() {
  drawAccount();
  const main = document.getElementById("main");
  const game = location.pathname.match(/^\/games\/([^/]+)\/?$/);
  const replay = location.pathname.match(/^\/games\/([^/]+)\/replay\/?$/);
  const talk = location.pathname.match(/^\/messages(?:\/([^/]+))?\/?$/);
  const board = location.pathname.match(/^\/ratings\/([a-z_]+)\/?$/);
  const rated = location.pathname.match(/^\/players\/([^/]+)\/?$/);
  const cup = location.pathname.match(/^\/tournaments\/([^/]+)\/?$/);
  const id = decoded((game || replay || [])[1] ?? "");
  if ((game || replay) && id === null) showNotAGame(main);
  else if (game) showGame(main, id);
  else if (replay) showReplay(main, id);
  else if (location.pathname === "/sign-in") showSignIn(main);
  else if (talk) showMessages(main, talk[1] ? decoded(talk[1]) : null);
  else if (location.pathname === "/admin") showAdmin(main);
  else if (board) showLeaderboard(main, board[1]);
  else if (rated && decoded(rated[1]) !== null) showPlayer(main, decoded(rated[1]));
  else if (location.pathname === "/tournaments") showTournaments(main);
  else if (location.pathname === "/tournaments/new") showNewTournament(main);
  else if (cup && decoded(cup[1]) !== null) showTournament(main, decoded(cup[1]));
  else showHome(main);
}

setInterval(tickCountdowns, 1000);
addEventListener("meeple:messages-read", drawAccount);
addEventListener("meeple:signed-out", () => {
  route();
  document.getElementById("main").prepend(notice("You are signed out: this browser's token was revoked.", "error"));
});
route();
