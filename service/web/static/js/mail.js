// The signed-in player's mail: an address, confirmed by the link mailed to it (that link opens this
// page, which confirms it), and what they get of each kind of mail, saved as soon as it is chosen.

import * as api from "./api.js";
import { fill, h, notice, perform, problemNotice } from "./dom.js";
import { clearErrors, field, refused } from "./forms.js";

const CONFIRM = "#confirm-mail=";
const ON_OFF = { on: "Yes", off: "No" };
const KINDS = [ // each kind of mail, what it is called here, and what may be chosen of it
  ["your_turn", "Your turn", { on: "At once", offline: "When I am not on Meeple", off: "Never" }],
  ["digest", "A daily digest of the games waiting for me", ON_OFF],
  ["reminder", "A reminder before my time runs out", ON_OFF],
  ["invitation", "Invitations to a game", ON_OFF],
  ["game_over", "When a game of mine is over", ON_OFF],
  ["mention", "When someone at my table writes @ and my name", ON_OFF],
  ["message", "A message from another player", ON_OFF],
];

/** A folded part with the player's mail settings, filled once the server answers (opened by a confirmation link). */
export function drawMail(me) {
  const address = h("input", { type: "email", name: "address", maxlength: 254, autocomplete: "email", spellcheck: "false" });
  const mail = {
    me, address,
    summary: h("summary", {}, "Mail"),
    status: h("p", { role: "status" }),
    remove: h("button", { type: "button", hidden: true }, "Remove address"),
    // a group, not a fieldset: Chromium lays out no fieldset filled while its <details> is closed
    choices: h("div", { role: "group", "aria-labelledby": "mail-kinds" }),
    message: h("div", { class: "messages" }),
  };
  mail.form = h("form", { novalidate: true, "aria-label": "Mail address" },
    field("address", "Address", address, "A link is mailed to it; nothing else is sent there until you open it."),
    h("div", { class: "buttons" }, h("button", { type: "submit", class: "primary" }, "Send confirmation link"), mail.remove));
  mail.details = h("details", { id: "mail" }, mail.summary, mail.status, mail.form,
    h("h3", { id: "mail-kinds" }, "What to mail me"), mail.choices, mail.message);
  mail.form.addEventListener("submit", (event) => {
    event.preventDefault();
    setAddress(mail);
  });
  mail.remove.addEventListener("click", () => removeAddress(mail));
  const token = location.hash.startsWith(CONFIRM) ? location.hash.slice(CONFIRM.length) : null;
  if (token !== null || location.hash === "#mail") mail.details.open = true;
  if (token !== null) history.replaceState(null, "", location.pathname + location.search); // out of the address bar
  load(mail, token);
  return mail.details;
}

/** Confirm the address with the link's `token`, if one came, else (or if it is refused) read the settings. */
async function load(mail, token) {
  if (token !== null && await perform(mail.message, async () => show(mail, await api.confirmMail(token)))) {
    fill(mail.message, notice("Address confirmed: Meeple mails you there as you choose below."));
    return;
  }
  try {
    show(mail, await api.mailSettings(mail.me.token));
  } catch (problem) {
    fill(mail.message, problemNotice(problem));
  }
}

function show(mail, settings) {
  const { address, confirmed, pending, kinds } = settings;
  fill(mail.summary, "Mail: ", address === null ? "none" : confirmed ? address : `${address} (not confirmed)`);
  const waiting = pending === null ? [] : [" ", h("strong", {}, pending), " is waiting for confirmation: open the link mailed to it."];
  fill(mail.status, address === null ? "No address: Meeple mails you nothing."
    : confirmed ? ["Mail goes to ", h("strong", {}, address), ".", ...waiting] : waiting.slice(1));
  mail.address.value = address || "";
  mail.remove.hidden = address === null;
  fill(mail.choices, KINDS.map(([kind, label, choices]) => {
    const select = h("select", { name: kind }, ...Object.entries(choices).map(([value, text]) =>
      h("option", { value, selected: kinds[kind] === value }, text)));
    select.addEventListener("change", () => choose(mail, kind, [select.value, `${label}: ${choices[select.value]}.`]));
    return field(`kinds.${kind}`, label, select);
  }));
}

async function setAddress(mail) {
  clearErrors(mail.form);
  fill(mail.message);
  try {
    show(mail, await api.setMailAddress(mail.address.value.trim(), mail.me.token));
  } catch (problem) {
    refused(problem, mail.form, mail.message);
    return;
  }
  fill(mail.message, notice(`A confirmation link is on its way to ${mail.address.value}.`));
}

async function removeAddress(mail) {
  if (!(await perform(mail.message, () => api.removeMailAddress(mail.me.token)))) return;
  show(mail, await api.mailSettings(mail.me.token));
  fill(mail.message, notice("Address removed: Meeple mails you nothing."));
  mail.address.focus();
}

async function choose(mail, kind, said) {
  if (await perform(mail.message, () => api.chooseMail({ [kind]: said[0] }, mail.me.token))) {
    fill(mail.message, notice(`Saved. ${said[1]}`));
  }
}
