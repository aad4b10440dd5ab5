// The tournaments page, /tournaments: the open ones and, apart, those that ended (the signed-in player's own first), and the form
// that creates one (/tournaments/new), with the chosen game's options. Names are text.

import * as api from "../api.js";
import { button, fill, h, perform, problemNotice } from "../dom.js";
import { clearErrors, durationField, field, refused } from "../forms.js";
import { optionFields } from "../options.js";
import { FORMATS, factsLine } from "../tournaments.js";

export async function showTournaments(main) {
  document.title = "Tournaments · Meeple";
  const me = api.player();
  const lists = h("div", {});
  fill(main, h("section", { "aria-labelledby": "tournaments-title" },
    h("h1", { id: "tournaments-title" }, "Tournaments"),
    me ? h("p", {}, h("a", { href: "/tournaments/new" }, "Create a tournament")) : h("p", {}, "Sign in to create one or sign up."),
    lists));
  try {
    const { types } = await api.gameTypes();
    fill(lists, stageList("open", "Open", "No tournament is open.", me, types),
      stageList("ended", "Ended", "None has ended yet.", me, types));
  } catch (problem) {
    fill(lists, problemNotice(problem));
  }
}

/** The listed tournaments of `stage` under `title`, a page at a time: a More button for the next (after a
 * failure, "Try again" in its place) keeps the keyboard, and once the last page is in hands it to its first new line. */
function stageList(stage, title, none, me, types) {
  const list = h("ul", { class: "tournaments" });
  const empty = h("p", { hidden: true }, none);
  const message = h("div");
  const shown = new Set(); // what is drawn already: a page read again after a failure draws nothing twice
  let cursor = null; // the next page's: none for the first
  const more = button("More", () => read(), { hidden: true });
  const read = async () => {
    const focused = document.activeElement === more; // disabled, it lets go of the keyboard: given back below
    more.disabled = true;
    let first = null;
    const done = await perform(message, async () => {
      const found = await api.tournaments(me?.token, stage, cursor);
      const fresh = found.tournaments.filter((each) => !shown.has(each.id) && shown.add(each.id));
      list.append(...fresh.map((each) => listed(each, me, types)));
      first = list.children[list.children.length - fresh.length];
      cursor = found.next;
    });
    more.textContent = done ? "More" : "Try again";
    more.disabled = false;
    more.hidden = done && cursor === null;
    empty.hidden = !done || list.children.length > 0;
    if (focused) (more.hidden ? first?.querySelector("a") : more)?.focus();
  };
  read();
  return h("section", { "aria-labelledby": `${stage}-title` }, h("h2", { id: `${stage}-title` }, title), list, empty, message, more);
}

/** A tournament's line: its link and facts, and for an invitation to one signing up, a button that declines it. */
function listed(each, me, types) {
  const line = h("li", {}, h("a", { href: `/tournaments/${encodeURIComponent(each.id)}` }, each.name), " · ", factsLine(each, types));
  if (!each.invited || each.stage !== "signing_up") return line;
  const message = h("span", { "aria-live": "polite" });
  const decline = () => perform(message, async () => {
    await api.declineTournament(each.id, me.token);
    line.remove();
  });
  line.append(" · you are invited ", button(`Decline ${each.name}`, decline, { class: "link" }), message);
  return line;
}

export async function showNewTournament(main) {
  document.title = "New tournament · Meeple";
  const me = api.player();
  if (!me) {
    fill(main, h("h1", {}, "New tournament"), h("p", {}, "Sign in to create a tournament."));
    return;
  }
  const { types } = await api.gameTypes();
  const game = h("select", { name: "game" }, types.map((type) => h("option", { value: type.name }, type.title)));
  const seats = h("input", { type: "number", name: "seats", min: 2, max: 10, value: 2 });
  const format = h("select", { name: "format" }, Object.entries(FORMATS).map(([value, text]) => h("option", { value }, text)));
  const rounds = h("input", { type: "number", name: "rounds", min: 1, max: 20, value: 3 });
  const roundsField = field("rounds", "Rounds", rounds, "A Swiss's; a round robin plays as many as its entrants need.");
  const clock = durationField("turn_deadline.seconds", "Time for each move", 86400, "Out of time: that seat forfeits its game.");
  const starts = h("input", { type: "datetime-local", name: "starts", required: true });
  const unlisted = h("input", { type: "checkbox", name: "unlisted" });
  const invited = h("input", { type: "text", name: "invited_names", autocomplete: "off" });
  const message = h("div", { "aria-live": "polite" });
  const rules = h("div", {});
  let options;
  const drawOptions = () => fill(rules, (options = optionFields(types.find((each) => each.name === game.value))).element);
  const form = h("form", { class: "card-form", novalidate: true, "aria-label": "New tournament" },
    field("name", "Name", h("input", { type: "text", name: "name", maxlength: 64, required: true })),
    field("game", "Game", game), field("seats", "Seats at each table", seats), rules, field("format", "Format", format),
    roundsField, clock.element, field("starts", "Sign-up closes and round 1 starts", starts),
    field("unlisted", "Unlisted: only those with its link see it", unlisted),
    field("invited_names", "Invite (names of players you have played with, comma-separated)", invited),
    h("button", { type: "submit" }, "Create"), message);
  const fit = () => {
    const type = types.find((each) => each.name === game.value);
    Object.assign(seats, { min: type.min_seats, max: type.max_seats });
    seats.value = Math.min(Math.max(Number(seats.value), type.min_seats), type.max_seats);
    roundsField.hidden = format.value !== "swiss";
  };
  game.addEventListener("change", fit);
  game.addEventListener("change", drawOptions);
  drawOptions();
  format.addEventListener("change", fit);
  fit();
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearErrors(form);
    const body = {
      name: form.elements.name.value, game: game.value, seats: Number(seats.value), format: format.value,
      rounds: format.value === "swiss" ? Number(rounds.value) : null, unlisted: unlisted.checked,
      starts: new Date(starts.value).getTime() || 0, turn_deadline: { seconds: clock.seconds(), policy: "forfeit" },
      invited_names: invited.value.split(",").map((name) => name.trim()).filter(Boolean), options: {},
    };
    options.read(body.options);
    try {
      const created = await api.createTournament(body, me.token);
      location.assign(`/tournaments/${encodeURIComponent(created.id)}`);
    } catch (problem) {
      refused(problem, form, message);
    }
  });
  fill(main, h("section", { "aria-labelledby": "new-tournament" }, h("h1", { id: "new-tournament" }, "New tournament"), form,
    h("p", {}, button("Back to the tournaments", () => location.assign("/tournaments"), { class: "link" }))));
}
