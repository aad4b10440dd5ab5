// Bahama Taxi's city as SVG: each area where the published board draws it (the API serves the
// board), the roads between neighbours, the pawns in their seats' colours with their tags, the
// waiting citizens. An area that a listed command names is a button; the table says what it does.

import { svg } from "../dom.js";

const UNIT = 20; // SVG units per grid unit of the board, where an area is one unit across
const CELL = UNIT / 2; // half the side of the square each area answers touches in; no two overlap
const SUITS = { S: "♠", H: "♥", C: "♣", D: "♦" };

/**
 * A coordinate of the board spread from its centre lines so that downtown has room: the aces'
 * ±0.375 go to ±0.5 and every other coordinate half a unit outward, which keeps each area's
 * square clear of its neighbours' and the map narrow enough to touch on a phone.
 */
const spread = (value) => Math.sign(value) * (Math.abs(value) < 1 ? 0.5 : Math.abs(value) + 0.5);

/** "10♥" for the area 10H, or for its card 10H.2. */
export function areaName(card) {
  const area = card.split(".")[0];
  return area.slice(0, -1) + SUITS[area.slice(-1)];
}

const activate = (choose) => (event) => {
  if (event.type === "click" || event.key === "Enter" || event.key === " ") {
    event.preventDefault();
    choose();
  }
};

/**
 * The map. `open`: area → {label, choose} for the areas a click chooses; `pawns`: {area, seat, tag,
 * kind, name}; `waiting`: area → the words of the citizens waiting there; `marked`: areas where a
 * passenger of the reader's is bound; `trails`: [from, to] just driven; `picked`: the area asking.
 */
export function cityMap(board, { open, pawns, waiting, marked, trails, picked }) {
  const spot = (area) => board.positions[area].map((value) => spread(value) * UNIT);
  const xs = board.areas.map((area) => spot(area)[0]);
  const ys = board.areas.map((area) => spot(area)[1]);
  const left = Math.min(...xs) - 12; // half an area's square and a little
  const top = Math.min(...ys) - 12;
  const downtown = new Set(board.downtown);
  const line = (a, b, kind) => {
    const [[x1, y1], [x2, y2]] = [spot(a), spot(b)];
    return svg("line", { class: kind, x1, y1, x2, y2 });
  };
  const areas = board.areas.map((area) => {
    const [x, y] = spot(area);
    const here = open.get(area);
    const words = [areaName(area), ...(waiting.get(area) || [])].join("; ");
    const group = svg("g", {
      class: `bt-area bt-${area.slice(-1)}${downtown.has(area) ? " bt-downtown" : ""}${here ? " bt-open" : ""}${marked.has(area) ? " bt-marked" : ""}${picked === area ? " bt-picked" : ""}`,
      role: here ? "button" : null,
      tabindex: here ? 0 : null,
      "aria-label": here ? here.label : null,
      "data-key": here ? `area:${area}` : null,
    },
    here ? null : svg("title", {}, words),
    svg("rect", { class: "bt-cell", x: x - CELL, y: y - CELL, width: 2 * CELL, height: 2 * CELL }),
    svg("circle", { cx: x, cy: y, r: area[0] === "A" ? 7 : 9 }), // the aces are drawn smaller, as on the board
    svg("text", { x, y: y + 2.5, class: "bt-name" }, areaName(area)),
    waiting.has(area) ? [
      svg("circle", { class: "bt-citizen", cx: x + 6.2, cy: y + 6.2, r: 3.6 }),
      svg("text", { class: "bt-count", x: x + 6.2, y: y + 7.9 }, waiting.get(area).length),
    ] : null);
    if (here) {
      group.addEventListener("click", activate(here.choose));
      group.addEventListener("keydown", activate(here.choose));
    }
    return group;
  });
  const shared = new Set(); // two pawns on one area (an arrest): the second's tag is below the name
  const tokens = pawns.filter((pawn) => pawn.area).map(({ area, seat, tag, kind, name }) => {
    const [x, centre] = spot(area);
    const y = shared.has(area) ? centre + 2.6 : centre - CELL + 0.4; // each tag inside its area's square
    shared.add(area);
    const wide = 5 + tag.length * 3;
    return svg("g", { class: `bt-pawn bt-s${seat} bt-${kind}` },
      svg("title", {}, name),
      svg("rect", { x: x - wide / 2, y, width: wide, height: 7.2, rx: kind === "police" ? 0 : 2.5 }),
      svg("text", { x, y: y + 5.7 }, tag));
  });
  return svg("svg", {
    class: "bt-map", role: "group", "aria-label": "The city",
    viewBox: `${left} ${top} ${Math.max(...xs) + 12 - left} ${Math.max(...ys) + 12 - top}`,
  },
  board.edges.map(([a, b]) => line(a, b, "bt-road")),
  trails.map(([a, b]) => line(a, b, "bt-trail")),
  areas, tokens);
}
