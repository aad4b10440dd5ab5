// TAKI cards drawn as SVG: the colour, and beside it the colour's letter in two corners, and the
// figure in the middle with its word, so that no card is told by its colour alone.

import { svg } from "../dom.js";

export const COLORS = {
  red: { letter: "R", name: "red" },
  blue: { letter: "B", name: "blue" },
  green: { letter: "G", name: "green" },
  yellow: { letter: "Y", name: "yellow" },
};

const FIGURES = {
  stop: { mark: "STOP", word: "Stop", small: true },
  plus2: { mark: "+2", word: "Plus 2" },
  change_direction: { mark: "⇄", word: "Change direction", caption: "DIR" },
  plus: { mark: "+", word: "Plus" },
  taki: { mark: "TAKI", word: "TAKI", small: true },
  super_taki: { mark: "TAKI", word: "SuperTaki", small: true, caption: "SUPER" },
  king: { mark: "♚", word: "King", caption: "KING" },
  plus3: { mark: "+3", word: "Plus 3" },
  plus3_breaker: { mark: "-3", word: "Plus 3 breaker", caption: "BREAK" },
  change_color: { mark: "◆", word: "Change colour", caption: "COLOR" },
};

/** A card id (`red.5.1`, `none.king.2`) as its colour (null for a wild card) and figure. */
export function parseCard(id) {
  const [color, figure] = id.split(".");
  return { color: color === "none" ? null : color, figure };
}

/** A card as people say it: "red 5", "blue Stop", "King". */
export function cardName(id) {
  const { color, figure } = parseCard(id);
  const word = FIGURES[figure]?.word ?? figure;
  return color ? `${COLORS[color].name} ${word}` : word;
}

/** The card as an SVG image (60 × 90); `color` paints a wild card in the colour it was given. */
export function cardImage(id, { color: chosen = null, title = true } = {}) {
  const { color, figure } = parseCard(id);
  const known = FIGURES[figure] ?? { mark: figure, word: figure };
  const paint = color ?? "wild";
  const letter = color ? COLORS[color].letter : chosen ? COLORS[chosen].letter : "W";
  const image = svg("svg", { viewBox: "0 0 60 90", class: `card-image ${paint}`, role: "img", "aria-label": cardName(id) },
    title ? svg("title", {}, cardName(id)) : null,
    svg("rect", { x: 1, y: 1, width: 58, height: 88, rx: 7, class: "card-edge" }),
    svg("rect", { x: 5, y: 5, width: 50, height: 80, rx: 5, class: `card-face ${paint}` }),
    color ? null : wildBand(chosen),
    svg("ellipse", { cx: 30, cy: 45, rx: 21, ry: 28, class: "card-oval" }),
    svg("text", { x: 30, y: known.small ? 50 : 55, class: `card-mark${known.small ? " small" : ""}`, "text-anchor": "middle" }, known.mark),
    known.caption ? svg("text", { x: 30, y: 66, class: "card-caption", "text-anchor": "middle" }, known.caption) : null,
    svg("text", { x: 10, y: 18, class: "card-letter" }, letter),
    svg("text", { x: 50, y: 81, class: "card-letter", "text-anchor": "end" }, letter));
  return image;
}

/** A wild card's four colour corners, or the one colour it was given. */
function wildBand(chosen) {
  if (chosen) return svg("rect", { x: 5, y: 5, width: 50, height: 80, rx: 5, class: `card-face ${chosen} chosen` });
  return svg("g", {},
    svg("rect", { x: 5, y: 5, width: 25, height: 40, class: "card-face red" }),
    svg("rect", { x: 30, y: 5, width: 25, height: 40, class: "card-face blue" }),
    svg("rect", { x: 5, y: 45, width: 25, height: 40, class: "card-face green" }),
    svg("rect", { x: 30, y: 45, width: 25, height: 40, class: "card-face yellow" }));
}

/** The back of a card, for the draw pile. */
export function cardBack() {
  return svg("svg", { viewBox: "0 0 60 90", class: "card-image back", "aria-hidden": "true" },
    svg("rect", { x: 1, y: 1, width: 58, height: 88, rx: 7, class: "card-edge" }),
    svg("rect", { x: 5, y: 5, width: 50, height: 80, rx: 5, class: "card-back" }),
    svg("text", { x: 30, y: 50, class: "card-mark small back-mark", "text-anchor": "middle" }, "TAKI"));
}

/** A colour swatch with its letter: the active colour, a colour to choose. */
export function swatch(color) {
  return svg("svg", { viewBox: "0 0 24 24", class: "swatch", "aria-hidden": "true" },
    svg("circle", { cx: 12, cy: 12, r: 11, class: `card-face ${color}` }),
    svg("text", { x: 12, y: 16.5, class: "swatch-letter", "text-anchor": "middle" }, COLORS[color].letter));
}
