// "Sign in by email" on the sign-in form: a player with a confirmed address asks for a link that
// signs in the device it is opened on. The answer is the same whether the address is known or not.

import * as api from "../api.js";
import { fill, h, notice } from "../dom.js";
import { clearErrors, field, refused } from "../forms.js";

export function mailSignIn() {
  const address = h("input", { type: "email", name: "address", autocomplete: "email", maxlength: 254, required: true });
  const message = h("div", { class: "messages" });
  const form = h("form", { class: "card-form", novalidate: true, "aria-label": "Sign in by email" },
    h("h2", {}, "Sign in by email"),
    field("address", "Your confirmed mail address", address, "We mail you a link that signs in the device you open it on."),
    h("button", { type: "submit" }, "Mail me a sign-in link"), message);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearErrors(form);
    const asked = address.value.trim();
    try {
      const { expires_in: seconds } = await api.askSignInLink(asked);
      fill(message, notice(`If ${asked} is a player's confirmed address, a sign-in link is on its way to it. `
        + `It works once, within ${Math.round(seconds / 60)} minutes.`));
    } catch (problem) {
      refused(problem, form, message);
    }
  });
  return form;
}
