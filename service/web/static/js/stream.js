// Following a game live through its Server-Sent Events stream. EventSource cannot send
// Authorization, so a seat opens the stream with a one-use ticket; after a drop the page asks a
// new ticket and resumes after the last event it has (`&after=`), so that none is missed or twice.

import * as api from "./api.js";

const RETRY_MS = 1500;

/**
 * Follow game `id` after version `after`, as the seat of `token()` (null: a spectator).
 * `onEvent(event)` gets each event once, in order; `onState(state)` hears "connecting" (at
 * once), "live", "reconnecting" and "ended"; `onChat(message, hidden)` each chat message the stream brings
 * and each one the admin hides (`{id, room}`, hidden true); `onClock(clock)` each `clock` message
 * (the clocks and deadlines of `clock.version`, changed with no event).
 * Answers a function that stops following.
 */
export function follow(id, after, token, onEvent, onState, onChat = () => {}, onClock = () => {}) {
  let last = after;
  let source = null;
  let stopped = false;
  let timer = null;

  async function open() {
    timer = null;
    if (stopped) return;
    let url;
    try {
      url = await api.streamUrl(id, token());
    } catch {
      if (!stopped) onState("reconnecting");
      retry();
      return;
    }
    if (stopped) return;
    source = new EventSource(`${url}${url.includes("?") ? "&" : "?"}after=${last}`);
    source.onopen = () => onState("live");
    source.onmessage = (message) => {
      const event = JSON.parse(message.data);
      if (event.version <= last) return;
      last = event.version;
      onEvent(event);
    };
    listenChat(source, onChat);
    source.addEventListener("clock", (message) => onClock(JSON.parse(message.data)));
    source.addEventListener("end", () => {
      close();
      onState("ended");
    });
    source.onerror = () => {
      close();
      if (!stopped) {
        onState("reconnecting");
        retry();
      }
    };
  }

  function retry() {
    if (!stopped && timer === null) timer = setTimeout(open, RETRY_MS);
  }

  function close() {
    if (source) source.close();
    source = null;
  }

  onState("connecting");
  open();
  return () => {
    stopped = true;
    clearTimeout(timer);
    close();
  };
}

function listenChat(source, onChat) {
  source.addEventListener("chat", (message) => onChat(JSON.parse(message.data), false));
  source.addEventListener("chat_hidden", (message) => onChat(JSON.parse(message.data), true));
}

/**
 * Follow the player's inbox: `onChange()` hears its first message (the whole inbox), each change
 * of a game's turn, seat, invitation or end, each game that leaves it and each change of the count
 * of unread messages and of its invitations to tournaments; after a drop a new ticket opens it again. Answers a stop function.
 */
export function followInbox(token, onChange) {
  return keepOpen(() => api.inboxStreamUrl(token), (source) => {
    for (const kind of ["inbox", "game", "gone", "messages", "tournaments"]) source.addEventListener(kind, onChange);
  });
}

/**
 * Follow the chat of game `id` (a finished one's: its event stream has ended) as `token()` may read it:
 * `onChat(message, hidden)` as `follow` gives it, `onOpen()` each time it opens, for the page to read
 * what was said while it was not. Answers a stop function.
 */
export function followChat(id, token, onChat, onOpen) {
  return keepOpen(() => api.chatStreamUrl(id, token()), (source) => {
    source.onopen = onOpen;
    listenChat(source, onChat);
  });
}

/** An EventSource on `url()` (a new ticket's each time) that `listen(source)` sets up, opened again after a drop. */
function keepOpen(url, listen) {
  let source = null;
  let stopped = false;
  let timer = null;
  async function open() {
    timer = null;
    try {
      const address = await url();
      if (stopped) return;
      source = new EventSource(address);
    } catch {
      if (!stopped) timer = setTimeout(open, RETRY_MS * 4);
      return;
    }
    listen(source);
    source.onerror = () => {
      source.close();
      if (!stopped && timer === null) timer = setTimeout(open, RETRY_MS);
    };
  }
  open();
  return () => {
    stopped = true;
    clearTimeout(timer);
    source?.close();
  };
}
