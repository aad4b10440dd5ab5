// A seat taken without registering lives in one browser, by its token: its table offers a link
// that carries the token in the address's fragment (#seat=<token>, which never reaches the
// server or its logs), and the link, opened in another browser, keeps the token there.

import * as api from "./api.js";
import { button, h } from "./dom.js";

const FRAGMENT = /^#seat=([^&]+)$/;

/** Keep the seat token a link brought for game `gameId`, and take it out of the address bar. */
export function claimSeatLink(gameId) {
  const found = FRAGMENT.exec(window.location.hash);
  if (!found) return;
  api.keepSeat(gameId, null, decodeURIComponent(found[1]));
  window.history.replaceState(window.history.state, "", window.location.pathname + window.location.search);
}

/** Offer in `box` the link to this seat when the page plays it by a token kept here and nobody is signed in;
 * `replaced()` hears that the seat has a new token, kept here. */
export function showSeatLink(box, gameId, view, token, replaced) {
  const anonymous = view.you !== null && !api.player() && token !== null && token === api.seatToken(gameId)?.token;
  const shown = anonymous && view.status !== "finished" && view.status !== "cancelled" ? token : "";
  if (box.dataset.token === shown) return; // drawn already: an open link stays open across redraws
  box.dataset.token = shown;
  box.replaceChildren(...(shown ? [seatLink(gameId, view.you, token, replaced)] : []));
  if (shown && box.dataset.open) box.firstChild.open = true; // a new link shows where the old one was
}

function seatLink(gameId, seat, token, replaced) {
  const url = `${window.location.origin}/games/${encodeURIComponent(gameId)}#seat=${encodeURIComponent(token)}`;
  const said = h("span", { role: "status" });
  const renew = async () => {
    try {
      api.keepSeat(gameId, seat, (await api.replaceSeatToken(gameId, seat, token)).token);
      said.closest(".seat-link").parentElement.dataset.open = "yes";
      replaced();
    } catch (problem) {
      said.textContent = problem.detail || problem.message;
    }
  };
  return h("details", { class: "seat-link" },
    h("summary", {}, "Use this seat on another device"),
    h("p", {}, "Whoever has this link plays this seat: open it in the other browser, and keep it to yourself."),
    linkField("seat-link", "Link to this seat", url),
    h("p", {}, "Shared it by mistake? ", button("Make a new link", renew), " and the old one, and every device it opened, plays no more. ", said));
}

/** A link to read and copy, labelled `label`, its field's id `id`. */
export function linkField(id, label, url) {
  const field = h("input", { id, type: "text", readonly: true, value: url, spellcheck: "false" });
  const said = h("span", { class: "seat-link-said", role: "status" });
  const copy = async () => {
    field.select();
    said.textContent = await navigator.clipboard.writeText(url).then(() => "Copied.", () => "Select the link and copy it.");
  };
  return [h("label", { for: id }, label), h("span", { class: "seat-link-row" }, field, button("Copy", copy), said)];
}
