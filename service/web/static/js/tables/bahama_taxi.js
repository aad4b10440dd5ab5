// The Bahama Taxi table: a function of the seat's view and its legal commands. The areas a listed
// move, step, stay or police placement names light up on the map; the other listed commands are
// buttons; a click sends one as it is, and a click that several commands share asks which in place.

import { taxiBoard } from "../api.js";
import { countdown, h } from "../dom.js";
import { areaName, cityMap } from "./bahama_taxi_map.js";

const SKIPS = {
  blocked: "hemmed in", timeout: "out of time", die_six: "a 6", empty_cab_on_four: "a 4 with an empty cab", skipped_by_five: "a 5 before it",
};
const ENDS = { no_citizens_waiting: "nobody is waiting any more", round_limit: "the last round is over", forfeit: "the others left" };

let city = null; // the board, read once from the API

// How pawns are named: the last table drawn tells whether seats drive two cabs or smuggle (events alone do not).
let naming = { two: false, contraband: false };

const pawnKinds = (view) => ({
  two: view.table.cabs.some((cab) => cab.pawn === 1 && cab.kind === "taxi"),
  contraband: view.table.cabs.some((cab) => cab.kind !== "taxi"),
});

/** A pawn's tag on the map: the seat's number, and with two pawns a or b, S(muggler) or P(olice). */
function tag(seat, pawn, kinds = naming) {
  return `${seat + 1}${kinds.contraband ? "SP"[pawn] : kinds.two ? "ab"[pawn] : ""}`;
}

/** "ann's cab 1a", "ann's police", "ann". */
function pawnName(names, seat, pawn, kinds = naming) {
  if (kinds.contraband) return `${names[seat]}'s ${pawn ? "police" : "smuggler"}`;
  return kinds.two ? `${names[seat]}'s cab ${tag(seat, pawn, kinds)}` : names[seat];
}

const trip = (citizen) => `${citizen.citizen} ${areaName(citizen.origin)} → ${citizen.destination ? areaName(citizen.destination) : "?"}${
  citizen.fare === null ? "" : ` (fare ${citizen.fare})`}`;

/** The words of an event for the log of recent moves. */
export function describe(event, names) {
  const p = event.payload || {};
  const who = p.seat === undefined ? "" : p.pawn === undefined ? names[p.seat] : pawnName(names, p.seat, p.pawn);
  switch (event.type) {
    case "pawn_placed": return `${who} starts at ${areaName(p.area)}`;
    case "police_to_place": return `${who} places the police`;
    case "smuggler_arrested": return `${names[p.police_seat]}'s police arrested ${names[p.smuggler_seat]}'s smuggler at ${areaName(p.area)}${p.reward ? `: +${p.reward}` : ""}`;
    case "card_burned": return `${areaName(p.card)} was burned`;
    case "start_card_redrawn": return `${who} drew again: ${areaName(p.card)} was taken`;
    case "drop_off_choice": return `${who} chooses who gets out`;
    case "hand_dealt": return `${who} was dealt ${p.cards.length} cards`;
    case "passenger_rerouted": return `${who} rerouted ${p.passenger}: ${p.end === "from" ? "from" : "to"} ${areaName(p.new_card)} instead of ${areaName(p.old_card)}`;
    case "citizen_appeared": return `${p.citizen} waits at ${areaName(p.origin)}${p.destination ? ` for ${areaName(p.destination)}` : ""}`;
    case "passenger_boarded_at_setup": return `${who} starts with ${p.citizen} for ${areaName(p.destination)}`;
    case "coin_flipped": return p.mode === "alternate" ? "Pawns take turns about" : "Both pawns move each turn";
    case "passengers_transferred": return `${names[p.seat]} moved ${p.passengers.join(", ")} from cab ${tag(p.seat, p.from_pawn)} to cab ${tag(p.seat, p.to_pawn)}`;
    case "turn_skipped": return `${who} skips: ${SKIPS[p.reason] || p.reason}`;
    case "die_rolled": return `${who} rolled ${p.value}`;
    case "pawn_stepped": return `${who} stepped to ${areaName(p.to)}`;
    case "movement_ended": return p.reason === "done" ? null : `${who} ${p.reason === "blocked" ? "is blocked" : "stopped"}`;
    case "turn_skip_pending": return `${who} will skip a turn`;
    case "pawn_moved": return `${who} drove ${areaName(p.origin)} → ${areaName(p.to)}`;
    case "pawn_stayed": return `${who} stayed`;
    case "passenger_dropped_off": return `${who} dropped ${p.citizen} at ${areaName(p.area)}: +${p.fare}`;
    case "passenger_picked_up": return `${who} picked up ${p.citizen} at ${areaName(p.area)}${p.from_god ? " (from God)" : ""}`;
    case "destination_drawn": return `${p.citizen} is going to ${areaName(p.card)}`;
    case "player_forfeited": return `${who} left the game`;
    case "game_ended": return `The game is over: ${ENDS[p.reason] || p.reason}`;
    default: return null; // shuffles, turn starts and ends: nothing a player reads
  }
}

/** Whose move it is, in one line. */
export function headline(view, names) {
  if (view.status === "finished" && view.result) {
    const first = view.result.ranking[0];
    return first.includes(view.you) ? "You win!" : `Game over: ${first.map((seat) => names[seat]).join(" and ")} won`;
  }
  if (view.to_move.includes(view.you)) return "Your turn";
  return `Waiting for ${view.to_move.map((seat) => names[seat]).join(", ")}`;
}

/** A listed command in words, for its button or its place on the map. */
function words(command, view, citizens) {
  const t = view.table;
  const own = (pawn) => (naming.contraband ? `the ${pawn ? "police" : "smuggler"} ` : naming.two ? `cab ${tag(t.current, pawn)} ` : "");
  const kind = command.type.split(".")[1];
  const who = (id) => (citizens.has(id) ? trip(citizens.get(id)) : id);
  switch (kind) {
    case "move": return `Drive ${own(command.pawn)}to ${areaName(command.to)}`;
    case "step": return `Step ${own(command.pawn)}to ${areaName(command.to)}${command.target ? `, heading for ${areaName(command.target)}` : ""}`;
    case "stay": return `Stay ${own(command.pawn)}at ${areaName(t.cabs.find((cab) => cab.seat === t.current && cab.pawn === command.pawn).area)}`;
    case "place_police": return `Police on ${areaName(command.area)}`;
    case "pick_up": return `Pick up ${command.citizens.map(who).join(" and ")}`;
    case "collect_from_god": return `Collect ${who(command.citizen)} (from God)`;
    case "drop_off": return `Let ${who(command.passenger)} out`;
    case "transfer": return `Move ${command.passengers.join(", ")} from cab ${tag(t.current, command.from_pawn)} to cab ${tag(t.current, command.to_pawn)}`;
    case "reroute": return `${command.passenger}: ${command.end === "from" ? "from" : "to"} ${areaName(command.card)} instead of ${
      areaName(citizens.get(command.passenger)?.[command.end === "from" ? "origin" : "destination"] || "?")}`;
    case "stop_moving": return "Stop here";
    case "end_turn": return "End turn";
    default: return kind.replace(/_/g, " ");
  }
}

/** The area a command is played on, for the commands the map offers. */
function areaOf(command, view) {
  const kind = command.type.split(".")[1];
  if (kind === "move" || kind === "step") return command.to;
  if (kind === "place_police") return command.area;
  if (kind === "stay") return view.table.cabs.find((cab) => cab.seat === view.table.current && cab.pawn === command.pawn)?.area;
  return null;
}

const deadline = ({ at }) => h("time", { class: "deadline", datetime: new Date(at).toISOString(), dataset: { deadline: at } }, countdown(at));

/** Each seat: its colour and number, name, income, cabs and their passengers, hand, flags. */
function seats(view, names) {
  const t = view.table;
  const due = new Map((view.deadlines || []).map((entry) => [entry.seat, entry]));
  return h("ol", { class: "seats-table bt-seats", "aria-label": "Seats" }, names.map((name, seat) => h("li", {
    class: [view.to_move.includes(seat) ? "to-move" : "", seat === view.you ? "you" : ""].join(" "),
  },
  h("span", { class: `bt-chip bt-s${seat}` }, seat + 1),
  h("span", { class: "seat-name" }, name, seat === view.you ? " (you)" : ""),
  h("span", { class: "bt-income" }, `income ${t.income[seat]}`),
  view.to_move.includes(seat) ? h("span", { class: "flag move" }, "to move") : null,
  t.hand_sizes.length ? h("span", { class: "hand-size" }, `${t.hand_sizes[seat]} cards`) : null,
  t.skip_pending.includes(seat) ? h("span", { class: "flag" }, "skips next turn") : null,
  t.forfeited.includes(seat) ? h("span", { class: "flag" }, "left") : null,
  due.has(seat) ? deadline(due.get(seat)) : null,
  t.cabs.filter((cab) => cab.seat === seat).map((cab) => h("p", { class: "bt-cab" },
    h("b", {}, `${naming.contraband ? (cab.pawn ? "Police" : "Smuggler") : "Cab"} ${tag(seat, cab.pawn)}`),
    ` at ${cab.area ? areaName(cab.area) : "–"}`, cab.kind === "police" ? null : `: ${cab.passengers.length ? cab.passengers.map(trip).join("; ") : "empty"}`)))));
}

/** The round, the piles, the limits, the die. */
function facts(view, names) {
  const t = view.table;
  const rounds = view.options.max_rounds;
  return h("ul", { class: "bt-facts", "aria-label": "The game" },
    h("li", {}, `Round ${t.round_no}${rounds ? ` of ${rounds}` : ""}, turn ${t.turn_no}`),
    h("li", {}, `Draw pile ${t.draw_pile_size}, discard pile ${t.discard.length}`),
    h("li", {}, `Pickups up to ${t.pickup_limit} aboard${t.supply_exhausted ? "; no more citizens to come" : ""}`),
    naming.two || naming.contraband ? h("li", {}, `Moving: ${pawnName(names, t.current, t.pawn)}`) : null,
    t.die === null ? null : h("li", { class: "bt-die" }, `Die ${t.die}, ${t.steps_left} ${t.steps_left === 1 ? "step" : "steps"} left${
      t.targets.length ? `, toward ${t.targets.map(areaName).join(" or ")}` : ""}`),
    t.dropoff_choice.length ? h("li", {}, `Who gets out: ${t.dropoff_choice.join(" or ")}`) : null);
}

/** A group of commands to choose from, in place, with a way back. */
function chooser(label, commands, view, citizens, act, back) {
  return h("div", { class: "chooser", role: "group", "aria-label": label }, h("p", {}, `${label}:`),
    commands.map((command, index) => h("button", {
      type: "button", class: "choice", dataset: { key: `choice:${index}` }, onclick: () => act(command),
    }, words(command, view, citizens))),
    h("button", { type: "button", class: "link", onclick: back }, "Cancel"));
}

/** The seat's hand: each card with the reroutes it may make; a card with several asks which. */
function hand(view, reroutes, citizens, act, ui) {
  const cards = view.table.hand;
  const choosing = ui.choosing?.startsWith("card:") && reroutes.has(ui.choosing.slice(5)) ? ui.choosing.slice(5) : null;
  return h("section", { class: "hand bt-hand", "aria-label": "Your hand" }, h("h2", {}, `Your hand (${cards.length})`),
    h("ul", { class: "cards" }, cards.map((card) => {
      const listed = reroutes.get(card);
      return h("li", {}, h("button", {
        type: "button", class: `bt-card bt-${card.split(".")[0].slice(-1)}`, disabled: !listed,
        "aria-label": listed ? `Reroute with ${areaName(card)}` : `${areaName(card)} (kept)`, dataset: { key: `card:${card}` },
        onclick: () => (listed.length === 1 ? act(listed[0]) : ui.redraw((ui.choosing = `card:${card}`), (ui.focus = "choice:0"))),
      }, areaName(card)));
    })),
    choosing ? chooser(`Reroute with ${areaName(choosing)}`, reroutes.get(choosing), view, citizens, act,
      () => ui.redraw((ui.choosing = null), (ui.focus = `card:${choosing}`))) : null);
}

/** The final incomes and ranking. */
function ranking(view, names) {
  const { ranking: places, incomes, reason } = view.table.result;
  return h("section", { class: "result", "aria-label": "Result" }, h("h2", {}, "Final ranking"),
    h("ol", {}, places.map((place, index) => h("li", {},
      `${place.map((seat) => names[seat]).join(" and ")} (income ${incomes[place[0]]})${index === 0 ? " wins" : ""}`))),
    h("p", { class: "hint" }, `Ended: ${ENDS[reason] || reason}.`));
}

/**
 * The table for `view` with its `legal` commands (null for a spectator); `act(command)` sends a
 * listed command; `ui` keeps the area or card asking for a choice across redraws; `recent` are the
 * events since the last drawing, whose drives are traced on the map.
 */
export function drawTable(view, legal, { act, names, ui, recent }) {
  if (city) return table(city, view, legal, act, names, ui, recent);
  const slot = h("div", { class: "bahama-taxi", "aria-busy": "true" }, h("p", { class: "hint" }, "Unfolding the city map…"));
  taxiBoard().then((board) => slot.replaceWith(table((city = board), view, legal, act, names, ui, recent)),
    (problem) => slot.replaceChildren(h("p", { class: "notice error", role: "alert" }, problem.detail || problem.message)));
  return slot;
}

function table(board, view, legal, act, names, ui, recent) {
  const t = view.table;
  naming = pawnKinds(view);
  const commands = (legal?.commands || []).filter((command) => command.type !== "bahama_taxi.forfeit");
  const forfeit = (legal?.commands || []).find((command) => command.type === "bahama_taxi.forfeit");
  const citizens = new Map([...t.waiting, ...t.cabs.flatMap((cab) => cab.passengers)].map((citizen) => [citizen.citizen, citizen]));
  const onMap = new Map();
  const reroutes = new Map();
  const buttons = [];
  for (const command of commands) {
    const area = areaOf(command, view);
    if (area) onMap.set(area, [...(onMap.get(area) || []), command]);
    else if (command.type === "bahama_taxi.reroute") reroutes.set(command.card, [...(reroutes.get(command.card) || []), command]);
    else buttons.push(command);
  }
  const picked = ui.choosing?.startsWith("area:") && onMap.get(ui.choosing.slice(5))?.length > 1 ? ui.choosing.slice(5) : null;
  const waiting = new Map();
  for (const citizen of t.waiting) {
    const at = [citizen.origin_area, ...(view.options.mirror_board && citizen.destination_area ? [citizen.destination_area] : [])];
    for (const area of at) waiting.set(area, [...(waiting.get(area) || []), `${trip(citizen)} waits`]);
  }
  const reader = view.you ?? t.current;
  const marked = new Set(t.cabs.filter((cab) => cab.seat === reader).flatMap((cab) => cab.passengers.map((citizen) => citizen.to_area)));
  const open = new Map([...onMap].map(([area, listed]) => [area, {
    label: [listed.length === 1 ? words(listed[0], view, citizens) : `${areaName(area)}: ${listed.length} choices`,
      ...(waiting.get(area) || []), marked.has(area) ? "a passenger of yours gets out here" : null].filter(Boolean).join("; "),
    choose: () => (listed.length === 1 ? act(listed[0]) : ui.redraw((ui.choosing = `area:${area}`), (ui.focus = "choice:0"))),
  }]));
  const pawns = t.cabs.map((cab) => ({
    area: cab.area, seat: cab.seat, kind: cab.kind, tag: tag(cab.seat, cab.pawn),
    name: `${pawnName(names, cab.seat, cab.pawn)}${naming.two || naming.contraband ? "" : "'s cab"}, ${cab.passengers.length} aboard`,
  }));
  const trails = recent.filter((event) => event.type === "pawn_moved" || event.type === "pawn_stepped")
    .map((event) => [event.payload.origin, event.payload.to]);
  return h("div", { class: `bahama-taxi${naming.contraband ? " bt-contraband" : ""}` },
    seats(view, names),
    facts(view, names),
    t.result ? ranking(view, names) : null,
    h("figure", { class: "bt-city" }, cityMap(board, { open, pawns, waiting, marked, trails, picked }),
      h("figcaption", { class: "hint" }, onMap.size ? "The lit areas may be chosen." : "Spades at the top, hearts right, clubs below, diamonds left.")),
    picked ? chooser(`Choose for ${areaName(picked)}`, onMap.get(picked), view, citizens, act,
      () => ui.redraw((ui.choosing = null), (ui.focus = `area:${picked}`))) : null,
    buttons.length || forfeit ? h("section", { class: "actions", "aria-label": "Actions" }, h("div", { class: "buttons" },
      buttons.map((command, index) => h("button", { type: "button", dataset: { key: `action:${index}` }, onclick: () => act(command) },
        words(command, view, citizens))),
      forfeit ? (ui.confirmLeave
        ? h("span", { class: "confirm" }, "Leave for good? ", h("button", { type: "button", class: "danger", onclick: () => act(forfeit) }, "Yes, leave"),
          h("button", { type: "button", class: "link", onclick: () => ui.redraw((ui.confirmLeave = false)) }, "No"))
        : h("button", { type: "button", class: "link", onclick: () => ui.redraw((ui.confirmLeave = true)) }, "Leave the game…")) : null)) : null,
    t.hand ? hand(view, reroutes, citizens, act, ui) : null,
    h("section", { class: "bt-waiting", "aria-label": "Waiting citizens" }, h("h2", {}, `Waiting (${t.waiting.length})`),
      h("ul", {}, t.waiting.map((citizen) => h("li", {}, trip(citizen))))));
}
