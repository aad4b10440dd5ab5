// Telling players their turn has come when they are not looking: the tab's title, and a browser
// notification (the Notification API) while the page is in the background, once they have asked
// for notifications with a button - never on load, since a browser asks only after a gesture.

import { fill, h } from "./dom.js";

let waited = null; // the ids of the games that waited on the player when last shown; null before the first

/** Title the tab `title`; a game among `waiting` (ids) that did not wait before is notified if the page is hidden. */
export function showTurns(title, waiting) {
  document.title = `${title} · Meeple`;
  const fresh = waited === null ? [] : waiting.filter((id) => !waited.has(id));
  waited = new Set(waiting);
  if (fresh.length && document.visibilityState === "hidden" && notifying() === "granted") {
    const body = fresh.length === 1 ? "A game waits on you." : `${fresh.length} games wait on you.`;
    const shown = new Notification("Meeple: your turn", { body, tag: "meeple-turn" });
    shown.addEventListener("click", () => {
      window.focus();
      shown.close();
    });
  }
}

/** Whether this browser notifies: "granted", "denied", "default" (not asked yet) or null (it cannot). */
const notifying = () => ("Notification" in window ? Notification.permission : null);

const WORDS = {
  granted: "You are notified when it is your turn while a Meeple page is open.",
  denied: "Notifications are blocked for this site in your browser's settings.",
};

/** The button that asks for notifications, or what the browser answered; null where it cannot notify. */
export function notifyControl() {
  if (notifying() === null) return null;
  const control = h("p", { class: "notify" });
  const show = () => fill(control, WORDS[notifying()] ?? h("button", { type: "button", onclick: ask }, "Notify me when it is my turn"));
  const ask = async () => {
    await Notification.requestPermission();
    show();
  };
  show();
  return control;
}
