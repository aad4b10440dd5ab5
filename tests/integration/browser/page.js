// A seat's page: its events as they arrive (EventSource, opened with a stream ticket) and its own
// moves (fetch). When the stream drops, EventSource's own reconnect is refused (the ticket is
// used), so the page asks for a new ticket and reopens the stream after the last event it has.

const seat = { api: "", game: "", token: "", last: 0, version: 0, source: null };
const status = (text) => { document.getElementById("status").textContent = text; };

async function call(method, path, body, headers = {}) {
  const answer = await fetch(seat.api + path, {
    method,
    headers: { Authorization: `Bearer ${seat.token}`, ...(body ? { "Content-Type": "application/json" } : {}), ...headers },
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = answer.status === 204 ? null : await answer.json();
  if (!answer.ok) throw new Error(`${answer.status} ${data.code}: ${data.detail}`);
  return data;
}

async function follow() {
  const { url } = await call("POST", "/v1/stream-tickets", { stream: "game", game_id: seat.game });
  const source = new EventSource(`${seat.api}${url}&after=${seat.last}`);
  seat.source = source;
  source.onopen = () => status(`Following the game after version ${seat.last}.`);
  source.onmessage = (message) => {
    const event = JSON.parse(message.data);
    seat.last = seat.version = event.version;
    const item = document.createElement("li");
    item.value = event.version;
    item.textContent = `${event.version} ${event.type} by ${event.actor}`;
    document.getElementById("events").append(item);
  };
  source.addEventListener("end", () => { source.close(); status("The game is over."); });
  source.onerror = () => {
    if (source.readyState === EventSource.CLOSED && seat.source === source) {
      follow().catch((error) => status(`Stream lost: ${error.message}`));  // a new ticket, resuming where it was
    }
  };
}

async function play() {
  try {
    const legal = await call("GET", `/v1/games/${seat.game}/legal-commands`);
    const chosen = legal.commands.find((command) => command.type === "taki.draw") ?? legal.commands[0];
    if (!chosen) return status("Nothing to play: it is not this seat's turn.");
    const done = await call("POST", `/v1/games/${seat.game}/commands`, chosen, { "If-Match": `"${legal.version}"` });
    status(`Played ${chosen.type}: the game is at version ${done.version}.`);
  } catch (error) {
    status(`Refused: ${error.message}`);
  }
}

document.getElementById("connect").addEventListener("submit", (submitted) => {
  submitted.preventDefault();
  const form = new FormData(submitted.target);
  Object.assign(seat, { api: form.get("api").replace(/\/$/, ""), game: form.get("game"), token: form.get("token") });
  document.getElementById("play").disabled = false;
  follow().catch((error) => status(`Cannot follow the game: ${error.message}`));
});
document.getElementById("play").addEventListener("click", play);
