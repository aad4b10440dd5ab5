// The signed-in player's devices: every token they hold (a browser, a phone, a program), with when
// it was last used, and a button that revokes it, once asked to confirm: that device is signed out at
// once. Revoking this browser's own token signs this browser out.

import * as api from "../api.js";
import { ask } from "../confirm.js";
import { fill, h, notice, perform, problemNotice } from "../dom.js";

const time = (ms) => h("time", { datetime: new Date(ms).toISOString() },
  new Date(ms).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" }));

/** A folded part listing the player's devices, filled once the server answers. */
export function drawDevices(me) {
  const devices = {
    me,
    summary: h("summary", {}, "Devices"),
    list: h("ul", { class: "devices", "aria-label": "Your devices" }),
    message: h("div", { class: "messages" }),
  };
  const details = h("details", { id: "devices" }, devices.summary,
    h("p", { class: "hint" }, "Each device or program signed in as you holds a token of its own. Revoke one you "
      + "lost or no longer use: it is signed out at once."),
    devices.list, devices.message);
  api.tokens(me.token).then(({ tokens }) => show(devices, tokens), (problem) => fill(devices.message, problemNotice(problem)));
  return details;
}

function show(devices, tokens) {
  fill(devices.summary, "Devices: ", String(tokens.length));
  fill(devices.list, tokens.map((token) => h("li", {},
    h("strong", {}, token.name), token.current ? " (this browser)" : "", " ",
    h("span", { class: "hint" }, token.last_used === null ? "never used" : ["last used ", time(token.last_used)],
      ", added ", time(token.created)),
    h("button", { type: "button", "aria-label": `${token.current ? "Sign out here: revoke" : "Revoke"} ${token.name}`,
      onclick: () => revoke(devices, tokens, token) },
      token.current ? "Sign out here" : "Revoke"))));
}

const question = (token) => (token.current
  ? "Sign out here? This browser's token is revoked: to come back, sign in by email or from another device."
  : `Revoke ${token.name}? That device is signed out at once.`);

async function revoke(devices, tokens, token) {
  if (!(await ask(question(token), token.current ? "Sign out" : "Revoke"))) return;
  if (!(await perform(devices.message, () => api.revokeToken(token.id, devices.me.token)))) return;
  if (token.current) {
    api.forgetPlayer();
    location.assign("/");
    return;
  }
  show(devices, tokens.filter((kept) => kept.id !== token.id));
  fill(devices.message, notice(`Revoked: ${token.name} is signed out.`));
  devices.summary.focus();
}
