// The page a mailed sign-in link opens, /sign-in#link=<secret>. The secret rides in the fragment,
// which the browser never sends, so it reaches no log and no Referer; the page takes it out of the
// address bar at once, and POSTs it with a name for this device for a token of the device's own.

import * as api from "../api.js";
import { fill, h } from "../dom.js";
import { clearErrors, field, refused } from "../forms.js";

/** A name for this device that the player may keep: its system, as the browser tells it. */
function deviceName() {
  const system = navigator.userAgentData?.platform || /Android|iPhone|iPad|Windows|Mac|Linux/.exec(navigator.userAgent)?.[0];
  return system ? `Browser on ${system}` : "Browser";
}

export function showSignIn(main) {
  const secret = new URLSearchParams(location.hash.slice(1)).get("link");
  history.replaceState(null, "", location.pathname); // the secret leaves the address bar and the history
  document.title = "Sign in · Meeple";
  const title = h("h1", { id: "sign-in-title" }, "Sign in on this device");
  const again = h("p", {}, h("a", { href: "/#sign-in" }, "Ask for a new sign-in link"));
  if (!secret) {
    fill(main, h("section", { "aria-labelledby": "sign-in-title" }, title,
      h("p", {}, "This address holds no sign-in link: open the link from the mail as it is."), again));
    return;
  }
  const device = h("input", { name: "device", value: deviceName(), maxlength: 64, autocomplete: "off", required: true });
  const message = h("div", { class: "messages" });
  const form = h("form", { class: "card-form", novalidate: true, "aria-label": "Sign in on this device" },
    field("device", "Name this device", device, "Your list of devices shows it by this name; you may revoke it there."),
    h("button", { type: "submit", class: "primary" }, "Sign in"));
  fill(main, h("section", { "aria-labelledby": "sign-in-title" }, title, form, message));
  device.focus();
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearErrors(form);
    try {
      api.keepPlayer(await api.signIn(secret, device.value.trim()));
      location.assign("/");
    } catch (problem) {
      refused(problem, form, message);
      if (problem.status === 410) message.append(again);
    }
  });
}
