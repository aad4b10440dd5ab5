// What the rating pages share: a rating as people read it, a link to a player's page.

import { h } from "./dom.js";

export const ratingText = (rating) => rating.toFixed(1);

/** A link to the page of a rated identity ({player, name, ai}), an AI level marked as one. */
export const playerLink = ({ player, name }) => h("a", { href: `/players/${encodeURIComponent(player)}` }, name,
  player.startsWith("ai:") ? [" ", h("span", { class: "badge ai" }, "bot")] : null);
