// The home page: a visitor registers or signs in; a player sees their inbox first, then their
// vacation and webhooks. The lobby and the form that creates a game follow.

import { drawAccount } from "./account.js";
import * as api from "./api.js";
import { drawCreateForm } from "./create.js";
import { fill, h, notice } from "./dom.js";
import { drawInbox } from "./inbox.js";
import { drawLobby } from "./lobby.js";
import { logDrop } from "./replay.js";

export async function showHome(main) {
  const me = api.player();
  document.title = me ? "Your games · Meeple" : "Meeple";
  const inbox = h("section", { id: "inbox", "aria-labelledby": "inbox-title" });
  const lobby = h("section", { id: "lobby", "aria-labelledby": "lobby-title" });
  const create = h("section", { id: "create", "aria-labelledby": "create-title" });
  const settings = me ? h("section", { id: "settings", class: "settings", "aria-labelledby": "settings-title" }) : null;
  fill(main, me ? inbox : signIn(), settings, lobby, create);
  if (me) drawAccount(settings, me);
  main.append(logDrop());
  let types;
  try {
    types = (await api.gameTypes()).types;
  } catch (problem) {
    fill(lobby, notice(problem.message, "error"));
    return;
  }
  const seats = me ? await drawInbox(inbox, me) : new Map();
  drawLobby(lobby, types, seats);
  drawCreateForm(create, types);
}

function signIn() {
  const section = h("section", { id: "sign-in", "aria-labelledby": "sign-in-title" },
    h("h1", { id: "sign-in-title" }, "Play TAKI, Djambi and Bahama Taxi"),
    h("p", {}, "Register with a name to keep your games in an inbox, or sign in with the player token you were given."));
  const message = h("div", { class: "messages" });

  const name = h("input", { id: "register-name", name: "name", autocomplete: "nickname", required: true, maxlength: 64 });
  const register = h("form", { class: "card-form", novalidate: true, "aria-label": "New player" },
    h("h2", {}, "New player"),
    h("label", { for: "register-name" }, "Your name"), name,
    h("button", { type: "submit" }, "Register"));
  register.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const found = await api.register(name.value.trim());
      api.keepPlayer(found);
      location.assign("/");
    } catch (problem) {
      fill(message, notice(problem.detail || problem.message, "error"));
    }
  });

  const token = h("input", { id: "sign-in-token", name: "token", autocomplete: "off", spellcheck: "false" });
  const existing = h("form", { class: "card-form", novalidate: true, "aria-label": "Returning player" },
    h("h2", {}, "Returning player"),
    h("label", { for: "sign-in-token" }, "Player token"), token,
    h("button", { type: "submit" }, "Sign in"));
  existing.addEventListener("submit", async (event) => {
    event.preventDefault();
    const pasted = token.value.trim();
    try {
      const found = await api.me(pasted);
      api.keepPlayer({ ...found, token: pasted });
      location.assign("/");
    } catch (problem) {
      fill(message, notice(problem.detail || problem.message, "error"));
    }
  });
  section.append(h("div", { class: "pair" }, register, existing), message);
  return section;
}
