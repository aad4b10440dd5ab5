// Taking a seat, giving one to the server's AI, and leaving before the start: the joins and
// leaves of the lobby and of a waiting game's page.

import * as api from "./api.js";

/** Take a seat (the lowest free one, or `seat`) as the signed-in player or under `name`; the seat's token is kept. */
export async function takeSeat(gameId, name, seat = null) {
  const me = api.player();
  const body = { name: me ? me.name : name };
  if (seat !== null) body.seat = seat;
  const joined = await api.join(gameId, body, me?.token);
  api.keepSeat(gameId, joined.seat, joined.token);
  return joined;
}

/** Give a free seat to the server's AI at `level`. */
export function seatBot(gameId, seat, level) {
  const body = { name: `${level} bot`, bot: level };
  if (seat !== null) body.seat = seat;
  return api.join(gameId, body);
}

/** Give up this browser's seat before the game starts. */
export async function leaveSeat(gameId) {
  const left = await api.leave(gameId, api.tokenFor(gameId));
  api.keepSeat(gameId, null, null);
  return left;
}
