// Keeping it civil from any message: report it to the admin with a reason, or block its writer.
// Both the table's chat and the messages page put these beside each message of someone else.

import { button, fill, h, notice, perform } from "./dom.js";

/** A "Report" button that opens a short form asking why; `send(reason)` files the report. */
export function reportControl(send) {
  const place = h("span", { class: "civility" });
  const open = () => {
    const reason = h("input", { maxlength: 500, required: true, "aria-label": "Why report this message?", placeholder: "Why?" });
    const status = h("span", { class: "messages" });
    const submit = async (event) => {
      event.preventDefault();
      if (!reason.value.trim()) return;
      if (await perform(status, () => send(reason.value))) fill(place, notice("Reported to the admin."));
    };
    fill(place, h("form", { class: "report-form", onsubmit: submit }, reason,
      h("button", { type: "submit" }, "Send report"), status));
    reason.focus();
  };
  return fill(place, button("Report", open, { class: "link" }));
}

/** A "Block <name>" button; `act()` blocks them, then `done()` takes their words off the page. */
export function blockControl(name, act, done) {
  const status = h("span", { class: "messages" });
  const block = async () => {
    if (await perform(status, act)) done();
  };
  return h("span", { class: "civility" }, button(`Block ${name}`, block, { class: "link" }), status);
}
