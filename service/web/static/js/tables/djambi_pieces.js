// Djambi's pieces drawn as SVG: each kind its own shape and letter (rules §1), each army its colour
// and the colour's letter in words beside it, so that no piece is told by its colour alone.

import { svg } from "../dom.js";

export const ARMIES = { red: "R", blue: "B", yellow: "Y", green: "G" };

// the kind's letter as the rules write it, and its outline around (0, 0) within a 36-unit square
const KINDS = {
  chief: { letter: "C", shape: () => svg("polygon", { points: "-15,13 -15,-7 -8,1 0,-15 8,1 15,-7 15,13" }), y: 10 },
  assassin: { letter: "A", shape: () => svg("polygon", { points: "0,-16 16,13 -16,13" }), y: 10 },
  reporter: { letter: "R", shape: () => svg("rect", { x: -13, y: -13, width: 26, height: 26, rx: 3 }) },
  diplomat: { letter: "D", shape: () => svg("polygon", { points: "0,-16 16,0 0,16 -16,0" }) },
  necromobile: { letter: "N", shape: () => svg("polygon", { points: "-8,-14 8,-14 16,0 8,14 -8,14 -16,0" }) },
  militant: { letter: "M", shape: () => svg("circle", { r: 12 }) },
};

/** "red militant", or "corpse of red militant". */
export function pieceName(piece) {
  return `${piece.alive ? "" : "corpse of "}${piece.army} ${piece.kind}`;
}

/** A piece centred on (x, y): its kind's shape in its army's colour with the kind's letter; a
 * corpse as a grey tile marked X, edged in the colour of the army it came from. */
export function pieceImage(piece, x, y) {
  const at = { transform: `translate(${x} ${y})` };
  if (!piece.alive) {
    return svg("g", { ...at, class: `dj-corpse ${piece.army}` },
      svg("rect", { x: -14, y: -14, width: 28, height: 28, rx: 4 }),
      svg("text", { y: 6, "text-anchor": "middle" }, "X"));
  }
  const kind = KINDS[piece.kind];
  return svg("g", { ...at, class: `dj-piece ${piece.army}` }, kind.shape(),
    svg("text", { y: kind.y ?? 5, "text-anchor": "middle" }, kind.letter));
}

/** An army's colour as a small square with its letter, for the lists beside the board. */
export function armySwatch(army) {
  return svg("svg", { viewBox: "0 0 20 20", class: `dj-swatch ${army}`, "aria-hidden": "true" },
    svg("rect", { width: 20, height: 20, rx: 4 }),
    svg("text", { x: 10, y: 15, "text-anchor": "middle" }, ARMIES[army]));
}
