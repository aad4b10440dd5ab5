// The form that creates a game, built from GET /v1/games/types: every option of the chosen game
// with its kind, range, default and description; who plays each seat (anyone, a player invited by
// name from those the creator has played with, whoever the creator sends the seat's link, or an AI
// level with its budget); the time control (per move, simple or Fischer, weekends) and its policy,
// the spectator delay, the lobby time, unlisted; sent with the signed-in player's token, which
// reserving a seat needs. The server judges the form: each 422 error is shown next to the field it
// names.

import * as api from "../api.js";
import { fill, h, problemNotice } from "../dom.js";
import { clearErrors, durationField, field, number, numeric, refused, showErrors } from "../forms.js";
import { optionFields } from "../options.js";
import { takeSeat } from "../seats.js";

const POLICIES = {
  skip: "skip: the game's own timeout move",
  auto: "auto: an AI plays the move",
  forfeit: "forfeit: the seat leaves the game",
};

function budgetFields(path, budget) {
  const iterations = number("", 1, 100000);
  const seconds = number("", 0.01, 30);
  iterations.placeholder = String(budget.iterations ?? "");
  seconds.placeholder = String(budget.seconds ?? "");
  return {
    element: h("div", { class: "budget" },
      field(`${path}.iterations`, "Budget: iterations", iterations),
      field(`${path}.seconds`, "Budget: seconds", seconds)),
    value() {
      const chosen = { iterations: numeric(iterations), seconds: numeric(seconds) };
      if (chosen.iterations === undefined && chosen.seconds === undefined) return undefined;
      return { iterations: chosen.iterations ?? null, seconds: chosen.seconds ?? null };
    },
  };
}

const NAMED = "invite:name", LINKED = "invite:link"; // no AI level is named so

/** Who plays one seat: anyone, or when someone signed in creates the game (an invitation needs a
 * sender) a player they name among those they have played with (`contacts`, a datalist's id) or
 * whoever they send the seat's link; or an AI level with its budget. */
function seatRow(type, seat, contacts) {
  const who = h("select", {},
    h("option", { value: "" }, "A person: anyone"),
    contacts ? [h("option", { value: NAMED }, "A player I invite by name"), h("option", { value: LINKED }, "Whoever I send a link")] : null,
    type.bots.map((level) => h("option", { value: level }, `AI: ${level}`)));
  const invitee = h("input", { autocomplete: "off", spellcheck: "false", list: contacts });
  const inviteeField = field(`reserved.${seat}`, "Player's name", invitee, "Someone you have played with; their name is offered as you type.");
  const extra = h("div", { class: "seat-extra" });
  let budget = null;
  const redraw = () => {
    budget = type.budgets[who.value] ? budgetFields(`seat.${seat}.budget`, type.budgets[who.value]) : null;
    fill(extra, who.value === NAMED ? inviteeField : budget?.element);
  };
  who.addEventListener("change", redraw);
  redraw();
  return {
    element: h("div", { class: "seat-row" }, field(`seat.${seat}`, `Seat ${seat + 1}`, who), extra),
    level: () => (type.bots.includes(who.value) ? who.value : null),
    reservation: () => (who.value === NAMED ? { seat, name: invitee.value.trim() } : who.value === LINKED ? { seat, link: true } : null),
    open: () => who.value === "",
    budget: () => budget?.value(),
  };
}

const CLOCKS = {
  per_move: "Per move: the same time for each move",
  simple: "Simple: the same time for each turn, unused time not kept",
  fischer: "Fischer: a bank of time, and more after each turn",
};
const TIME_LABELS = { fischer: "Time each seat starts with", simple: "Time for each turn", per_move: "Time for each move" };

/** How the time is counted: per move, simple or Fischer (with its increment and maximum), and weekends. */
function clockFields(time, vacation) {
  const system = h("select", {}, Object.entries(CLOCKS).map(([value, label]) => h("option", { value }, label)));
  const increment = durationField("turn_deadline.increment", "Added after each turn", 86400);
  const maximum = durationField("turn_deadline.maximum", "At most", null, "The most a clock may hold, up to a year; needed with an increment.");
  const weekends = h("input", { type: "checkbox" });
  const fischer = h("div", { class: "deadline-fields" }, increment.element, maximum.element);
  const sync = () => {
    fischer.hidden = system.value !== "fischer";
    vacation.hidden = system.value !== "per_move";
    time.element.querySelector("label").textContent = TIME_LABELS[system.value];
    time.element.querySelector("select").setAttribute("aria-label", `${TIME_LABELS[system.value]}: unit`);
  };
  system.addEventListener("change", sync);
  sync();
  return {
    elements: [field("turn_deadline.clock", "Clock", system), fischer,
      field("turn_deadline.weekends", "Clocks stop on weekends (in each player's time zone)", weekends)],
    value(chosen) {
      Object.assign(chosen, { clock: system.value, weekends: weekends.checked });
      if (system.value !== "per_move") delete chosen.vacation_days;
      if (system.value === "fischer") Object.assign(chosen, { increment: increment.seconds() ?? 0, maximum: maximum.seconds() ?? null });
      return chosen;
    },
  };
}

function deadlineFields(type) {
  const on = h("input", { type: "checkbox" });
  const time = durationField("turn_deadline.seconds", "Time for each move", 86400,
    "Up to a year: days for a play-by-post game, minutes for a live one. A vacation stops a player's clocks.");
  const policy = h("select", {}, Object.entries(POLICIES).map(([value, label]) => h("option", { value }, label)));
  const level = h("select", {}, type.bots.map((bot) => h("option", { value: bot }, bot)));
  const vacation = number(0, 0, 365);
  const levelField = field("turn_deadline.level", "AI level for auto", level);
  const budget = Object.keys(type.budgets).length ? budgetFields("turn_deadline.budget", Object.values(type.budgets)[0]) : null;
  const vacationField = field("turn_deadline.vacation_days", "Vacation days a player may add to each move", vacation);
  const clock = clockFields(time, vacationField);
  const details = h("div", { class: "deadline-fields" },
    clock.elements[0], time.element, ...clock.elements.slice(1),
    field("turn_deadline.policy", "When the time is up", policy),
    levelField, budget ? budget.element : null, vacationField);
  const sync = () => {
    details.hidden = !on.checked;
    levelField.hidden = policy.value !== "auto";
    if (budget) budget.element.hidden = policy.value !== "auto" || !type.budgets[level.value];
  };
  for (const control of [on, policy, level]) control.addEventListener("change", sync);
  sync();
  return {
    element: h("fieldset", { class: "group" }, h("legend", {}, "Time control"),
      field("turn_deadline", "Give each move a deadline", on), details),
    value() {
      if (!on.checked) return null;
      const chosen = clock.value({ seconds: time.seconds(), policy: policy.value, vacation_days: numeric(vacation) ?? 0 });
      if (policy.value === "auto") {
        chosen.level = level.value;
        if (budget && type.budgets[level.value] && budget.value()) chosen.budget = budget.value();
      }
      return chosen;
    },
  };
}

/** How many seats, and who plays each. */
function seatsFields(type, contacts) {
  const seats = number(type.min_seats, type.min_seats, type.max_seats);
  const rows = h("div", { class: "seat-rows" });
  let seatRows = [];
  const drawSeats = () => {
    const count = Math.max(0, Math.min(Number(seats.value) || 0, type.max_seats));
    seatRows = Array.from({ length: count }, (_, seat) => seatRows[seat] || seatRow(type, seat, contacts));
    fill(rows, seatRows.map((row) => row.element));
  };
  seats.addEventListener("input", drawSeats);
  drawSeats();
  return {
    element: h("fieldset", { class: "group", dataset: { field: "bots" } }, h("legend", {}, "Seats"),
      field("seats", `Number of seats`, seats, `${type.min_seats} to ${type.max_seats}.`),
      rows,
      h("p", { class: "error", hidden: true, dataset: { errorOf: "bots" } }),
      h("p", { class: "error", hidden: true, dataset: { errorOf: "reserved" } })),
    count: () => numeric(seats),
    read(chosen) {
      seatRows.forEach((row, seat) => {
        const level = row.level();
        if (level) chosen.bots.push({ seat, level, ...(row.budget() && { budget: row.budget() }) });
        else if (row.reservation()) chosen.reserved.push(row.reservation());
      });
    },
    mine: () => seatRows.findIndex((row) => row.open()), // the first seat anyone may take
  };
}

/** The spectator delay, the lobby time, unlisted, and whether (and as whom) the creator sits. */
function tableFields(me) {
  const delay = number(0, 0, 1000);
  const lobby = durationField("lobby_seconds", "Lobby time", null, "How long the game waits for its players; empty: the server's 14 days.");
  const unlisted = h("input", { type: "checkbox" });
  const rated = h("select", {}, h("option", { value: "" }, "As its seats say"), h("option", { value: "true" }, "Rated"),
    h("option", { value: "false" }, "Not rated"));
  const sit = h("input", { type: "checkbox", checked: Boolean(me) });
  const name = h("input", { maxlength: 64, autocomplete: "nickname", value: me ? me.name : "" });
  if (me) name.readOnly = true;
  return {
    element: h("fieldset", { class: "group" }, h("legend", {}, "Table"),
      field("spectator_delay", "Spectator delay (moves)", delay, "How many moves behind spectators watch, 0 to 1000."),
      lobby.element,
      field("unlisted", "Unlisted: only people given its address find it", unlisted),
      field("rated", "Rated", rated, "Whether the result counts for ratings; as its seats say: rated when every seat is an AI's or kept for a registered player, no AI is given a budget and no AI level sits at two seats (such a game is never rated)."),
      field("sit", "Take a seat myself", sit),
      field("name", "Your name", name)),
    read(chosen) {
      chosen.spectator_delay = numeric(delay) ?? 0;
      if (lobby.seconds() !== undefined) chosen.lobby_seconds = lobby.seconds();
      chosen.unlisted = unlisted.checked;
      if (rated.value) chosen.rated = rated.value === "true";
    },
    sits: () => sit.checked,
    name: () => name.value.trim(),
  };
}

/** The fields of game `type` drawn into `body`; answers what reads them: the game to create, and the seat to take as whom. */
function drawGame(body, type, me) {
  const seats = seatsFields(type, me ? "contact-names" : null);
  const options = optionFields(type);
  const deadline = deadlineFields(type);
  const table = tableFields(me);
  fill(body, seats.element, options.element, deadline.element, table.element);
  return () => {
    const chosen = { game: type.name, seats: seats.count(), options: {}, bots: [], reserved: [] };
    options.read(chosen.options);
    seats.read(chosen);
    const turnDeadline = deadline.value();
    if (turnDeadline) chosen.turn_deadline = turnDeadline;
    table.read(chosen);
    const sit = table.sits() ? seats.mine() : null;
    if (me && sit !== null && sit >= 0) chosen.reserved.push({ seat: sit, player: me.id }); // kept for me: rated as its seats say
    return { chosen, sit, name: table.name() };
  };
}

export function drawCreateForm(section, types) {
  const me = api.player();
  const gameChoice = h("select", { name: "game" }, types.map((type) => h("option", { value: type.name }, type.title)));
  const body = h("div", {});
  const message = h("div", { class: "messages" });
  const contacts = h("datalist", { id: "contact-names" });
  if (me) api.contacts(me.token).then((found) => fill(contacts, [...new Set(found.contacts.map((contact) => contact.name))].map((name) => h("option", { value: name }))), () => {});
  const form = h("form", { novalidate: true, class: "create", "aria-labelledby": "create-title" },
    field("game", "Game", gameChoice), body, contacts,
    h("button", { type: "submit", class: "primary" }, "Create game"), message);
  let read = null;
  const change = () => {
    read = drawGame(body, types.find((found) => found.name === gameChoice.value), me);
  };
  gameChoice.addEventListener("change", change);
  change();
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    create(form, message, read(), me);
  });
  fill(section, h("h2", { id: "create-title" }, "New game"), form);
}

/** Create the game, take the creator's seat if asked, and open the game's page; a refusal shows at its fields. */
async function create(form, message, { chosen, sit, name }, me) {
  clearErrors(form);
  fill(message);
  if (sit !== null && sit >= 0 && !name) {
    showErrors(form, { name: ["Give your name to take a seat."] }, message);
    return;
  }
  let created;
  try {
    created = await api.createGame(chosen, me?.token); // the creator: reserving a seat for a player needs one
  } catch (problem) {
    refused(problem, form, message);
    return;
  }
  try {
    if (sit !== null && sit >= 0) await takeSeat(created.id, name, sit);
  } catch (problem) {
    fill(message, problemNotice(problem));
    return;
  }
  location.assign(`/games/${encodeURIComponent(created.id)}`);
}
