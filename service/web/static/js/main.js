// The client's entry point: the account bar, then the page `location.pathname` names.

import * as api from "./api.js";
import { fill, h, tickCountdowns } from "./dom.js";
import { showHome } from "./home.js";
import { showReplay } from "./replay.js";
import { showGame } from "./table.js";

function drawAccount() {
  const bar = document.getElementById("account");
  const me = api.player();
  if (!me) {
    fill(bar, h("a", { href: "/#sign-in" }, "Sign in"));
    return;
  }
  const signOut = () => {
    api.forgetPlayer();
    location.assign("/");
  };
  fill(bar,
    h("span", { class: "who" }, "Signed in as ", h("strong", {}, me.name)),
    h("button", { type: "button", class: "link", onclick: signOut }, "Sign out"));
}

function route() {
  drawAccount();
  const main = document.getElementById("main");
  const game = location.pathname.match(/^\/games\/([^/]+)\/?$/);
  const replay = location.pathname.match(/^\/games\/([^/]+)\/replay\/?$/);
  if (game) showGame(main, decodeURIComponent(game[1]));
  else if (replay) showReplay(main, decodeURIComponent(replay[1]));
  else showHome(main);
}

setInterval(tickCountdowns, 1000);
route();
