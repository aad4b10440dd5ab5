// The home page: a visitor registers or signs in; a player sees their inbox first, then their
// vacation and webhooks. The lobby and the form that creates a game follow.

import * as api from "../api.js";
import { fill, h, notice, problemNotice } from "../dom.js";
import { drawAccount } from "../sections/account.js";
import { drawCreateForm } from "../sections/create.js";
import { drawDevices } from "../sections/devices.js";
import { drawInbox } from "../sections/inbox.js";
import { drawLobby } from "../sections/lobby.js";
import { logDrop } from "../sections/log_drop.js";
import { mailSignIn } from "../sections/mail_sign_in.js";

export async function showHome(main) {
  const me = api.player();
  document.title = me ? "Your games · Meeple" : "Meeple";
  const inbox = h("section", { id: "inbox", "aria-labelledby": "inbox-title" });
  const lobby = h("section", { id: "lobby", "aria-labelledby": "lobby-title" });
  const create = h("section", { id: "create", "aria-labelledby": "create-title" });
  const settings = me ? h("section", { id: "settings", class: "settings", "aria-labelledby": "settings-title" }) : null;
  const welcome = h("h1", { id: "sign-in-title" }, "Meeple");
  fill(main, me ? inbox : signIn(welcome), settings, lobby, create);
  if (me) drawAccount(settings, me, drawDevices(me));
  main.append(logDrop());
  let types;
  try {
    types = (await api.gameTypes()).types;
  } catch (problem) {
    fill(lobby, notice(problem.message, "error"));
    return;
  }
  welcome.textContent = `Play ${types.map((type) => type.title).join(", ").replace(/, ([^,]*)$/, " and $1")}`;
  const seats = me ? await drawInbox(inbox, me, types) : new Map();
  drawLobby(lobby, types, seats);
  drawCreateForm(create, types);
}

function signIn(welcome) {
  const section = h("section", { id: "sign-in", "aria-labelledby": "sign-in-title" }, welcome,
    h("p", {}, "Register with a name to keep your games in an inbox, or sign in with the player token you were given."));
  const message = h("div", { class: "messages" });
  /** A form of one field whose submission finds the player (`find(value)`), keeps them, and goes home. */
  const playerForm = (title, label, input, button, find) => {
    const form = h("form", { class: "card-form", novalidate: true, "aria-label": title },
      h("h2", {}, title), h("label", { for: input.id }, label), input, h("button", { type: "submit" }, button));
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      try {
        api.keepPlayer(await find(input.value.trim()));
        location.assign("/");
      } catch (problem) {
        fill(message, problemNotice(problem));
      }
    });
    return form;
  };
  const register = playerForm("New player", "Your name",
    h("input", { id: "register-name", name: "name", autocomplete: "nickname", required: true, maxlength: 64 }), "Register",
    (name) => api.register(name));
  const existing = playerForm("Returning player", "Player token",
    h("input", { id: "sign-in-token", name: "token", autocomplete: "off", spellcheck: "false" }), "Sign in",
    async (token) => ({ ...(await api.me(token)), token }));
  section.append(h("div", { class: "pair" }, register, existing, mailSignIn()), message);
  return section;
}
