// The messages page: /messages lists the signed-in player's conversations (unread counted) and the
// players they have played with, each with Report and Block; /messages/<id> is one conversation, written
// to with Enter, each of the other's messages with a Report button and the other player with Report and
// Block; the other's new
// messages arrive while it is open (the inbox stream tells the unread count). Words are text.

import * as api from "../api.js";
import { playerControls, reportControl } from "../civility.js";
import { messageForm } from "../compose.js";
import { fill, h, problemNotice } from "../dom.js";
import { followInbox } from "../stream.js";

const link = (id) => `/messages/${encodeURIComponent(id)}`;

export async function showMessages(main, other) {
  document.title = "Messages · Meeple";
  const me = api.player();
  if (!me) {
    fill(main, h("h1", {}, "Messages"), h("p", {}, h("a", { href: "/#sign-in" }, "Sign in"), " to read your messages."));
    return;
  }
  try {
    if (other) await showConversation(main, me, other);
    else await showList(main, me);
  } catch (problem) {
    fill(main, h("h1", {}, "Messages"), problemNotice(problem), h("p", {}, h("a", { href: "/messages" }, "All messages")));
  }
}

async function showList(main, me) {
  const [{ conversations }, { contacts }] = await Promise.all([api.conversations(me.token), api.contacts(me.token)]);
  const talked = new Set(conversations.map((each) => each.player.id));
  fill(main, h("section", { "aria-labelledby": "messages-title" },
    h("h1", { id: "messages-title" }, "Messages"),
    conversations.length ? h("ul", { "aria-label": "Conversations" }, conversations.map(({ player, unread }) =>
      h("li", {}, h("a", { href: link(player.id) }, player.name), unread ? ` · ${unread} unread` : ""))) :
      h("p", {}, "No messages yet."),
    h("h2", {}, "Write to a player you have played with"),
    h("ul", { "aria-label": "Players you have played with" }, contacts.filter((each) => !talked.has(each.id))
      .map(contact))));
}

/** A player one has played with: a link to write to them, Report and Block (which takes them off the list). */
function contact(player) {
  const line = h("li", {}, h("a", { href: link(player.id) }, player.name), " ", playerControls(player, () => line.remove()));
  return line;
}

async function showConversation(main, me, other) {
  const first = await api.conversation(other, "0-0", me.token);
  const { player } = first;
  const talk = h("ol", { class: "talk", role: "log", tabindex: 0, "aria-label": `Messages with ${player.name}` });
  const status = h("div", { class: "messages" });
  const seen = new Set();
  const shown = (message) => {
    if (seen.has(message.id)) return;
    seen.add(message.id);
    const mine = message.author === me.id;
    talk.append(h("li", { class: mine ? "mine" : null, dataset: { id: message.id } },
      h("span", { class: "chat-name" }, `${mine ? me.name : player.name}: `), h("span", { class: "chat-text" }, message.text),
      mine ? null : reportControl((reason) => api.reportMessage(other, message.id, reason, me.token))));
    talk.scrollTop = talk.scrollHeight;
  };
  let last = "0-0";
  const pull = async (page = null) => { // the pages after the last read, the first one given or read
    for (;;) {
      page ??= await api.conversation(other, last, me.token);
      page.messages.forEach(shown);
      last = page.next ?? page.messages.at(-1)?.id ?? last;
      if (!page.next) return;
      page = null;
    }
  };
  await pull(first);
  followInbox(me.token, () => pull().catch(() => {})); // a new message changes the unread count it tells
  dispatchEvent(new Event("meeple:messages-read")); // the account bar counts the unread anew
  document.title = `Messages with ${player.name} · Meeple`;
  fill(main, h("section", { "aria-labelledby": "talk-title" },
    h("h1", { id: "talk-title" }, `Messages with ${player.name}`),
    h("p", {}, h("a", { href: "/messages" }, "All messages"), " ",
      playerControls(player, () => location.assign("/messages"))),
    talk, messageForm(`Message to ${player.name}`, async (text) => shown(await api.write(other, text, me.token)), status), status));
}


