// Every call to the API (/v1): the one place that knows its URLs, the tokens the browser keeps,
// and problem+json. Same origin, so no CORS; tokens travel in Authorization, never in cookies.

const PLAYER = "meeple.player"; // {id, name, token} of the signed-in player
const SEATS = "meeple.seats"; // {gameId: {seat, token}}: seat tokens answered by joins

/** A refused request: the server's problem+json, whose `detail` is shown as it is. */
export class Problem extends Error {
  constructor(status, body) {
    super(body.detail || body.title || `HTTP ${status}`);
    this.status = status;
    this.code = body.code;
    this.reason = body.reason;
    this.detail = body.detail || this.message;
    this.errors = body.errors || null;
  }
}

/** Forget the player, and tell the page, if the server no longer knows their token (revoked, here or
 * on another device); a 401 may also be a game's refusal of a token holding no seat there. */
async function confirmSignedIn(token) {
  const answer = await fetch("/v1/players/me", { headers: { Authorization: `Bearer ${token}` }, cache: "no-store" })
    .catch(() => null);
  if (answer?.status !== 401 || player()?.token !== token) return;
  forgetPlayer();
  dispatchEvent(new Event("meeple:signed-out"));
}

/** After a 401 to `token`: a seat token given to a device signed out since is forgotten, and the
 * player's own token checked as after its own 401. */
function refused(token, reason) {
  const own = player()?.token;
  if (reason === "device_signed_out") forgetSeatToken(token);
  if (own && (token === own || reason === "device_signed_out")) confirmSignedIn(own);
}

async function call(method, path, { token = null, body = undefined, raw = undefined, headers = {} } = {}) {
  const sent = { ...headers };
  if (token) sent.Authorization = `Bearer ${token}`;
  if (body !== undefined) sent["Content-Type"] = "application/json";
  const answer = await fetch(path, {
    method, headers: sent, body: raw ?? (body === undefined ? undefined : JSON.stringify(body)), cache: "no-store",
  });
  if (answer.status === 204) return null;
  const data = await answer.json().catch(() => ({ detail: `${answer.status} ${answer.statusText}` }));
  if (answer.status === 401 && token) refused(token, data.reason);
  if (!answer.ok) throw new Problem(answer.status, data);
  return data;
}

/** What this browser keeps under `key`, parsed, or null. */
export const kept = (key) => {
  try { return JSON.parse(localStorage.getItem(key) || "null"); } catch { return null; }
};

/** The signed-in player, or null. */
export const player = () => kept(PLAYER);

export function keepPlayer(found) {
  localStorage.setItem(PLAYER, JSON.stringify({ id: found.id, name: found.name, token: found.token }));
}

/** Sign out: forget the player token (and the seat tokens this browser was given). */
export function forgetPlayer() {
  localStorage.removeItem(PLAYER);
  localStorage.removeItem(SEATS);
}

/** The seat token this browser keeps for a game, or null. */
export const seatToken = (gameId) => (kept(SEATS) || {})[gameId] || null;

/** Forget the seat `token` holds, whichever game it is kept for. */
function forgetSeatToken(token) {
  const seats = kept(SEATS) || {};
  for (const [gameId, held] of Object.entries(seats)) if (held.token === token) delete seats[gameId];
  localStorage.setItem(SEATS, JSON.stringify(seats));
}

export function keepSeat(gameId, seat, token) {
  const seats = kept(SEATS) || {};
  if (token) seats[gameId] = { seat, token };
  else delete seats[gameId];
  localStorage.setItem(SEATS, JSON.stringify(seats));
}

/** The token to act in a game with: its seat token if this browser joined it, else the player's. */
export function tokenFor(gameId) {
  return seatToken(gameId)?.token || player()?.token || null;
}

const games = (id) => `/v1/games/${encodeURIComponent(id)}`;

export const register = (name) => call("POST", "/v1/players", { body: { name } });
export const me = (token) => call("GET", "/v1/players/me", { token });
export const inbox = (token) => call("GET", "/v1/players/me/inbox", { token });
export const startVacation = (until, token) => call("PUT", "/v1/players/me/vacation", { token, body: { until } });
export const endVacation = (token) => call("DELETE", "/v1/players/me/vacation", { token });
export const setTimeZone = (zone, token) => call("PUT", "/v1/players/me/time-zone", { token, body: { time_zone: zone } });
export const webhooks = (token) => call("GET", "/v1/players/me/webhooks", { token });
export const tokens = (token) => call("GET", "/v1/players/me/tokens", { token });
export const revokeToken = (id, token) => call("DELETE", `/v1/players/me/tokens/${encodeURIComponent(id)}`, { token });
export const askSignInLink = (address) => call("POST", "/v1/sign-in-links", { body: { address } });
export const signIn = (link, device) => call("POST", "/v1/sign-ins", { body: { link, device } });
export const addWebhook = (url, format, token) => call("POST", "/v1/players/me/webhooks", { token, body: { url, format } });
export const mailSettings = (token) => call("GET", "/v1/players/me/mail", { token });
export const setMailAddress = (address, token) => call("PUT", "/v1/players/me/mail/address", { token, body: { address } });
export const removeMailAddress = (token) => call("DELETE", "/v1/players/me/mail/address", { token });
export const chooseMail = (kinds, token) => call("PATCH", "/v1/players/me/mail/kinds", { token, body: kinds });
export const confirmMail = (token) => call("POST", "/v1/mail/confirmations", { body: { token } });
export const contacts = (token) => call("GET", "/v1/players/me/contacts", { token });
export const declineInvitation = (gameId, token) =>
  call("DELETE", `/v1/players/me/invitations/${encodeURIComponent(gameId)}`, { token });
export const removeWebhook = (id, token) => call("DELETE", `/v1/players/me/webhooks/${encodeURIComponent(id)}`, { token });
export const deliveries = (limit, token) => call("GET", `/v1/players/me/deliveries?limit=${limit}`, { token });
const talks = (other) => `/v1/players/me/conversations/${encodeURIComponent(other)}`;
export const conversations = (token) => call("GET", "/v1/players/me/conversations", { token });
export const conversation = (other, after, token) => call("GET", `${talks(other)}?after=${after}&limit=100`, { token });
export const write = (other, text, token) => call("POST", talks(other), { token, body: { text } });
export const reportMessage = (other, id, reason, token) =>
  call("POST", `${talks(other)}/messages/${id}/reports`, { token, body: { reason } });
export const reportPlayer = (other, reason, token) =>
  call("POST", `/v1/players/${encodeURIComponent(other)}/reports`, { token, body: { reason } });
export const block = (other, token) => call("PUT", `/v1/players/me/blocks/${encodeURIComponent(other)}`, { token });
export const reports = (token, after) => call("GET", `/v1/admin/reports${after ? `?after=${encodeURIComponent(after)}` : ""}`, { token });
export const decide = (id, hide, token) => call("POST", `/v1/admin/reports/${id}/decision`, { token, body: { hide } });
export const mute = (id, minutes, token) =>
  call("PUT", `/v1/admin/mutes/${encodeURIComponent(id)}`, { token, body: { minutes } });
export const muteWriter = ({ game_id, room, id }, minutes, token) => call("PUT",
  `/v1/admin/games/${encodeURIComponent(game_id)}/chat/${room}/messages/${encodeURIComponent(id)}/mute`, { token, body: { minutes } });
let types; // GET /v1/games/types, asked once a page load (again after a failure)
export const gameTypes = () => (types ??= call("GET", "/v1/games/types").catch((problem) => { types = null; throw problem; }));
export const leaderboard = (game, provisional, after) => call("GET", `/v1/ratings/${game}?provisional=${provisional}&after=${after}`);
const rated = (id) => `/v1/players/${encodeURIComponent(id)}`;
export const playerRatings = (id) => call("GET", `${rated(id)}/ratings`);
export const playerResults = (id) => call("GET", `${rated(id)}/results`);
export const versus = (id, other) => call("GET", `${rated(id)}/versus/${encodeURIComponent(other)}`);
export const opponents = (id, game, after) => call("GET", `${rated(id)}/opponents?game=${game}&after=${after}`);
export const taxiBoard = () => call("GET", "/v1/games/types/bahama_taxi/board");
export const createGame = (body, token = null) => call("POST", "/v1/games", { token, body });

export function listGames({ status, game, cursor } = {}) {
  const query = new URLSearchParams({ limit: "10" });
  if (status) query.set("status", status);
  if (game) query.set("game", game);
  if (cursor) query.set("cursor", String(cursor));
  return call("GET", `/v1/games?${query}`);
}

export const game = (id, token) => call("GET", games(id), { token });
export const legalCommands = (id, token) => call("GET", `${games(id)}/legal-commands`, { token });
export const join = (id, body, token) => call("POST", `${games(id)}/join`, { token, body });
export const inviteLinks = (id, token) => call("GET", `${games(id)}/invite-links`, { token });
export const leave = (id, token) => call("POST", `${games(id)}/leave`, { token });
export const events = (id, after, token, limit = 100) => call("GET", `${games(id)}/events?after=${after}&limit=${limit}`, { token });

/** The game at a past version as a seat saw it (any seat once it is over), or a spectator for seat null. */
export function state(id, version, seat = null) {
  return call("GET", `${games(id)}/states/${version}${seat === null ? "" : `?seat=${seat}`}`);
}

/** A new game that opens with a finished game's events up to `version` (a move's end), its seats free. */
export const fork = (id, version) => call("POST", `${games(id)}/fork`, { body: { version } });

/** The rematch of a finished game, asked by one of its seats (the one offered before, if any). */
export const rematch = (id, token) => call("POST", `${games(id)}/rematch`, { token });

/** Where a finished game's log downloads from (JSON Lines, as an import takes it). */
export const exportUrl = (id) => `${games(id)}/export`;
export const chat = (id, room, after, token, hidesAfter) =>
  call("GET", `${games(id)}/chat/${room}?after=${after}&limit=100${hidesAfter ? `&hides_after=${hidesAfter}` : ""}`, { token });
export const say = (id, room, text, token) => call("POST", `${games(id)}/chat/${room}`, { token, body: { text } });
export const reportChat = (id, room, message, reason, token) =>
  call("POST", `${games(id)}/chat/${room}/messages/${message}/reports`, { token, body: { reason } });
export const notes = (id, seat, token) => call("GET", `${games(id)}/seats/${seat}/notes`, { token });
export const keepNotes = (id, seat, text, token) => call("PUT", `${games(id)}/seats/${seat}/notes`, { token, body: { text } });
/** A new token for the seat `token` holds, which then acts no more. */
export const replaceSeatToken = (id, seat, token) => call("POST", `${games(id)}/seats/${seat}/token`, { token });

/** A new finished, read-only game from a log file (the JSON Lines an export gives), sent as it is. */
export const importLog = (file) => call("POST", "/v1/games/import", { raw: file, headers: { "Content-Type": "application/x-ndjson" } });

/** Send a listed command as it is, at the version it was listed for (a 412 if someone moved first). */
export function command(id, token, body, version) {
  return call("POST", `${games(id)}/commands`, { token, body, headers: { "If-Match": `"${version}"` } });
}

/** Whether the rules would accept a command now, nothing applied: resolves true, or false with the refusal. */
export async function accepts(id, token, body) {
  try {
    await call("POST", `${games(id)}/command-checks`, { token, body });
    return true;
  } catch (problem) {
    if (problem instanceof Problem && (problem.status === 409 || problem.status === 422)) return false;
    throw problem;
  }
}

/** The URL of the game's stream for a token's seat: a one-use ticket stands in for the token. */
export async function streamUrl(id, token) {
  if (!token) return `${games(id)}/stream`;
  const ticket = await call("POST", "/v1/stream-tickets", { token, body: { stream: "game", game_id: id } });
  return ticket.url;
}

/** The URL of the game's chat stream, opened for a token with a one-use ticket of the game's stream. */
export async function chatStreamUrl(id, token) {
  if (!token) return `${games(id)}/chat-stream`;
  const ticket = await call("POST", "/v1/stream-tickets", { token, body: { stream: "game", game_id: id } });
  return `${games(id)}/chat-stream?ticket=${ticket.ticket}`;
}

/** The URL of the player's inbox stream, opened with a one-use ticket. */
export async function inboxStreamUrl(token) {
  const ticket = await call("POST", "/v1/stream-tickets", { token, body: { stream: "inbox" } });
  return ticket.url;
}

const tournamentPath = (id) => `/v1/tournaments/${encodeURIComponent(id)}`;
/** A page of the listed tournaments of `stage` ("open" or "ended"), 20 after the `cursor` a page gave (none: the first,
 * the player's own first). */
export const tournaments = (token, stage, cursor) =>
  call("GET", `/v1/tournaments?stage=${stage}&limit=20${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, { token });
export const tournament = (id) => call("GET", tournamentPath(id));
export const createTournament = (body, token) => call("POST", "/v1/tournaments", { token, body });
export const enterTournament = (id, body, token) => call("POST", `${tournamentPath(id)}/entrants`, { token, body });
export const withdrawEntrant = (id, entrant, token) =>
  call("DELETE", `${tournamentPath(id)}/entrants/${encodeURIComponent(entrant)}`, { token });
export const declineTournament = (id, token) =>
  call("DELETE", `/v1/players/me/tournament-invitations/${encodeURIComponent(id)}`, { token });
