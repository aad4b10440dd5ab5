// The admin's page, /admin: signed in with the server's admin token (kept for this tab only), the
// queue of reported messages and players, oldest first, a hundred a page, each with its reason, where a message
// was written and its text (as text); the admin hides the message, dismisses the report or mutes the writer for a
// day (a player, or the guest's seat that wrote in a game), or the reported player.

import * as api from "../api.js";
import { button, fill, h, perform } from "../dom.js";

const KEY = "meeple.admin"; // the admin token, in sessionStorage: gone with the tab
const DAY = 24 * 60;

export function showAdmin(main) {
  document.title = "Reports · Meeple";
  const token = sessionStorage.getItem(KEY);
  if (token) showQueue(main, token);
  else askToken(main);
}

function askToken(main) {
  const input = h("input", { type: "password", id: "admin-token", autocomplete: "off", required: true });
  const submit = (event) => {
    event.preventDefault();
    sessionStorage.setItem(KEY, input.value.trim());
    showAdmin(main);
  };
  fill(main, h("h1", {}, "Reports"), h("form", { class: "card-form", onsubmit: submit, "aria-label": "Admin sign-in" },
    h("label", { for: "admin-token" }, "Admin token"), input, h("button", { type: "submit", class: "primary" }, "Sign in as admin")));
}

async function showQueue(main, token, after = null) {
  const status = h("div", { class: "messages" });
  const queue = h("ul", { class: "talk", "aria-label": "Reported messages" });
  const signOut = () => {
    sessionStorage.removeItem(KEY);
    showAdmin(main);
  };
  fill(main, h("h1", {}, "Reports"), h("p", {}, button("Sign out as admin", signOut, { class: "link" })), status, queue);
  const ok = await perform(status, async () => {
    const { reports, next } = await api.reports(token, after);
    fill(queue, reports.length ? reports.map((report) => item(report, token, () => showQueue(main, token, after))) :
      h("li", {}, "No report waits."));
    if (next) main.append(h("p", {}, button("Later reports", () => showQueue(main, token, next))));
  });
  if (!ok) queue.append(h("li", {}, button("Use another token", signOut)));
}

function item(report, token, again) {
  const status = h("span", { class: "messages" });
  const act = (work) => async () => {
    if (await perform(status, work)) again();
  };
  const dismiss = button("Dismiss", act(() => api.decide(report.id, false, token)));
  const reason = h("p", {}, "Reported: ", h("span", { class: "chat-text" }, report.reason));
  const { message, player } = report;
  if (player) {
    return h("li", { class: "report", dataset: { id: report.id } }, h("p", {}, "The player ", h("bdi", {}, player.name), " was reported."),
      reason, h("p", {}, dismiss, " ", button(["Mute ", h("bdi", {}, player.name), " for a day"], act(() => api.mute(player.id, DAY, token)))),
      status);
  }
  const where = message.place === "game" ?
    [h("a", { href: `/games/${encodeURIComponent(message.game_id)}` }, "a game"), `, ${message.room}`] : "a private message";
  const mute = message.place === "game" ? () => api.muteWriter(message, DAY, token) : () => api.mute(message.author, DAY, token);
  return h("li", { class: "report", dataset: { id: report.id } },
    h("p", {}, h("bdi", {}, message.name), " wrote, in ", where, ":"), // a name in any script keeps the sentence in order
    h("p", { class: "chat-text" }, message.text),
    reason,
    h("p", {}, button("Hide message", act(() => api.decide(report.id, true, token))), " ", dismiss, " ",
      button(["Mute ", h("bdi", {}, message.name), " for a day"], act(mute))),
    status);
}
