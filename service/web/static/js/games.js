// What every page says about a game, whichever game it is: its title, its status, its pace and its seats.

import { durationWords } from "./durations.js";

/** The title the server gives game `name` among its `types` (GET /v1/games/types), else the name. */
export const gameTitle = (types, name) => types.find((type) => type.name === name)?.title ?? name;

export function statusWord(status) {
  return { waiting: "Waiting for players", active: "In play", finished: "Finished", cancelled: "Cancelled" }[status] || status;
}

/** The time control of a game or a tournament in words ("2 days per move", "3 days + 1 day a turn, at most
 * 5 days", "1 day per turn, weekends off", "1 day per move, vacation adds up to 3 days"), or null when moves have no deadline. */
export function pace(game) {
  const control = game.turn_deadline;
  if (!control) return null;
  const time = durationWords(control.seconds);
  const words = [control.clock === "fischer" ? `${time} + ${durationWords(control.increment)} a turn`
    : `${time} per ${control.clock === "simple" ? "turn" : "move"}`];
  if (control.maximum) words.push(`at most ${durationWords(control.maximum)}`);
  if (control.weekends) words.push("weekends off");
  if (control.vacation_days) words.push(`vacation adds up to ${durationWords(control.vacation_days * 86400)}`);
  return words.join(", ");
}

/** A seat's name as people read it: the player's name (an AI's is its level), whom a reserved seat waits for, or "free". */
export function seatName(seat) {
  if (seat.name) return seat.name;
  if (seat.waits_for?.kind === "link") return "reserved for whoever has its link";
  if (seat.waits_for?.name) return `reserved for ${seat.waits_for.name}`;
  if (seat.reserved) return "reserved";
  return "free";
}

/** Every seat's name, told apart where two are alike ("greedy bot 2", "greedy bot 3"). */
export function seatNames(game) {
  const names = game.seats.map(seatName);
  return names.map((name, seat) => (names.filter((other) => other === name).length > 1 ? `${name} ${seat + 1}` : name));
}

/** "ann · greedy bot · free" */
export function describeSeats(game) {
  return game.seats.map(seatName).join(" · ");
}

export const freeSeats = (game) => game.seats.filter((seat) => seat.name === null);

/** The address of `game`'s rules page, at `section` ("§11.8") when given. */
export const rulesAddress = (game, section = "") => `/rules/${game}${section && `#s${section.slice(1)}`}`;
