// The Bahama Taxi table: a function of the seat's view and its legal commands. The areas a listed
// move, step, stay or police placement names light up on the map, the other commands are buttons;
// a click sends one as it is, and a click that several commands share asks which in place.

import { taxiBoard } from "../api.js";
import { seatCivility } from "../civility.js";
import { askedTwice, button, h, seatClock } from "../dom.js";
import { areaName, cityMap } from "./bahama_taxi_map.js";

let city = null; // the board, read once from the API
let naming = { two: false, contraband: false }; // whether seats drive two cabs or smuggle: the game's options say

const nameFor = (options) => ({ two: options.cabs_per_player === 2, contraband: options.contraband });

/** A pawn's tag: the seat's number, and with two pawns a or b, or S(muggler) and P(olice). */
const tag = (seat, pawn) => `${seat + 1}${naming.contraband ? "SP"[pawn] : naming.two ? "ab"[pawn] : ""}`;

/** "ann's cab 1a", "ann's police", "ann". */
function pawnName(names, seat, pawn) {
  if (naming.contraband) return `${names[seat]}'s ${pawn ? "police" : "smuggler"}`;
  return naming.two ? `${names[seat]}'s cab ${tag(seat, pawn)}` : names[seat];
}

const trip = (c) => `${c.citizen} ${areaName(c.origin)} → ${c.destination ? areaName(c.destination) : "?"}${c.fare === null ? "" : ` (fare ${c.fare})`}`;
const spaced = (word) => word.replace(/_/g, " ");

/** The words of an event of a game with these `options`, for the log of recent moves. */
export function describe(event, names, options) {
  naming = nameFor(options);
  const p = event.payload || {};
  const who = p.seat === undefined ? "" : p.pawn === undefined ? names[p.seat] : pawnName(names, p.seat, p.pawn);
  const at = areaName;
  switch (event.type) {
    case "pawn_placed": return `${who} starts at ${at(p.area)}`;
    case "police_to_place": return `${who} places the police`;
    case "smuggler_arrested": return `${names[p.police_seat]}'s police arrested ${names[p.smuggler_seat]}'s smuggler at ${at(p.area)}${p.reward ? `: +${p.reward}` : ""}`;
    case "card_burned": return `${at(p.card)} was burned`;
    case "start_card_redrawn": return `${who} drew again: ${at(p.card)} was taken`;
    case "drop_off_choice": return `${who} chooses who gets out`;
    case "hand_dealt": return `${who} was dealt ${p.cards.length} cards`;
    case "passenger_rerouted": return `${who} rerouted ${p.passenger}: ${p.end} ${at(p.new_card)} instead of ${at(p.old_card)}`;
    case "citizen_appeared": return `${p.citizen} waits at ${at(p.origin)}${p.destination ? ` for ${at(p.destination)}` : ""}`;
    case "passenger_boarded_at_setup": return `${who} starts with ${p.citizen} for ${at(p.destination)}`;
    case "coin_flipped": return p.mode === "alternate" || p.result === "tails" ? "The pawns take turns about" : "Both pawns move each turn";
    case "passengers_transferred": return `${names[p.seat]} moved ${p.passengers.join(", ")} from cab ${tag(p.seat, p.from_pawn)} to ${tag(p.seat, p.to_pawn)}`;
    case "turn_skipped": return `${who} skips a turn: ${spaced(p.reason)}`;
    case "die_rolled": return `${who} rolled ${p.value}`;
    case "pawn_stepped": return `${who} stepped to ${at(p.to)}`;
    case "movement_ended": return p.reason === "done" ? null : `${who} ${p.reason === "blocked" ? "is blocked" : "stopped"}`;
    case "turn_skip_pending": return `${who} will skip a turn`;
    case "pawn_moved": return `${who} drove ${at(p.origin)} → ${at(p.to)}`;
    case "pawn_stayed": return `${who} stayed`;
    case "passenger_dropped_off": return `${who} dropped ${p.citizen} at ${at(p.area)}: +${p.fare}`;
    case "passenger_picked_up": return `${who} picked up ${p.citizen} at ${at(p.area)}${p.from_god ? " (from God)" : ""}`;
    case "destination_drawn": return `${p.citizen} is going to ${at(p.card)}`;
    case "player_forfeited": return `${who} left the game`;
    case "game_ended": return `The game is over: ${spaced(p.reason)}`;
    default: return null; // shuffles, turns starting and ending: nothing a player reads
  }
}

/** Whose move it is, in one line. */
export function headline(view, names) {
  const seats = (list) => list.map((seat) => names[seat]).join(" and ");
  if (view.status === "finished" && view.result) {
    const first = view.result.ranking[0];
    return first.includes(view.you) ? "You win!" : `Game over: ${seats(first)} won`;
  }
  return view.to_move.includes(view.you) ? "Your turn" : `Waiting for ${seats(view.to_move)}`;
}

const cabOf = (t, pawn) => t.cabs.find((cab) => cab.seat === t.current && cab.pawn === pawn);

/** A listed command in words, for its button or its area on the map. */
function words(c, t, citizens) {
  const own = naming.contraband ? `the ${c.pawn ? "police" : "smuggler"} ` : naming.two ? `cab ${tag(t.current, c.pawn)} ` : "";
  const who = (id) => (citizens.has(id) ? trip(citizens.get(id)) : id);
  switch (c.type.split(".")[1]) {
    case "move": return `Drive ${own}to ${areaName(c.to)}`;
    case "step": return `Step ${own}to ${areaName(c.to)}${c.target ? `, heading for ${areaName(c.target)}` : ""}`;
    case "stay": return `Stay ${own}at ${areaName(cabOf(t, c.pawn).area)}`;
    case "place_police": return `Police on ${areaName(c.area)}`;
    case "pick_up": return `Pick up ${c.citizens.map(who).join(" and ")}`;
    case "collect_from_god": return `Collect ${who(c.citizen)} (from God)`;
    case "drop_off": return `Let ${who(c.passenger)} out`;
    case "transfer": return `Move ${c.passengers.join(", ")} from cab ${tag(t.current, c.from_pawn)} to ${tag(t.current, c.to_pawn)}`;
    case "reroute": return `${c.passenger}: ${c.end} ${areaName(c.card)} instead of ${areaName(citizens.get(c.passenger)?.[c.end === "from" ? "origin" : "destination"] || "?")}`;
    default: return { stop_moving: "Stop here", end_turn: "End turn" }[c.type.split(".")[1]] || spaced(c.type);
  }
}

/** Each seat: its colour and number, name, income, pawns and their passengers, hand, flags, time. */
function seats(view, names) {
  const t = view.table;
  const flag = (on, text) => (on ? h("span", { class: "flag" }, text) : null);
  return h("ol", { class: "seats-table", "aria-label": "Seats" }, names.map((name, seat) => h("li", {
    class: [view.to_move.includes(seat) ? "to-move" : "", seat === view.you ? "you" : ""].join(" "),
  },
  h("span", { class: `bt-chip bt-s${seat}` }, seat + 1),
  h("span", { class: "seat-name" }, name, seat === view.you ? " (you)" : ""),
  h("b", {}, `income ${t.income[seat]}`),
  view.to_move.includes(seat) ? h("span", { class: "flag move" }, "to move") : null,
  t.hand_sizes.length ? h("span", { class: "hand-size" }, `${t.hand_sizes[seat]} cards`) : null,
  flag(t.skip_pending.includes(seat), "skips next turn"), flag(t.forfeited.includes(seat), "left"),
  seatClock(view, seat), seatCivility(view, seat),
  t.cabs.filter((cab) => cab.seat === seat).map((cab) => h("p", { class: "bt-cab" },
    h("b", {}, `${naming.contraband ? (cab.pawn ? "Police" : "Smuggler") : "Cab"} ${tag(seat, cab.pawn)}`),
    ` at ${cab.area ? areaName(cab.area) : "–"}`, cab.kind === "police" ? null : `: ${cab.passengers.map(trip).join("; ") || "empty"}`)))));
}

/** The round, the piles, the limits, the pawn moving, the die. */
function facts(view, names) {
  const t = view.table;
  return h("p", { class: "bt-facts" }, [`Round ${t.round_no}${view.options.max_rounds ? ` of ${view.options.max_rounds}` : ""}, turn ${t.turn_no}`,
    `draw pile ${t.draw_pile_size}, discard pile ${t.discard.length}`,
    `pickups up to ${t.pickup_limit} aboard${t.supply_exhausted ? ", no more citizens to come" : ""}`,
    naming.two || naming.contraband ? `moving: ${pawnName(names, t.current, t.pawn)}` : null,
    t.dropoff_choice.length ? `who gets out: ${t.dropoff_choice.join(" or ")}` : null].filter(Boolean).join(" · "),
  t.die === null ? null : h("b", {}, ` · Die ${t.die}, steps left ${t.steps_left}${t.targets.length ? `, toward ${t.targets.map(areaName).join(" or ")}` : ""}`));
}

/** Commands to choose from in place, and the way back. */
function chooser(label, commands, t, citizens, act, back) {
  return h("div", { class: "chooser", role: "group", "aria-label": label }, h("p", {}, `${label}:`),
    commands.map((command, index) => h("button", {
      type: "button", class: "choice", dataset: { key: `choice:${index}` }, onclick: () => act(command),
    }, words(command, t, citizens))),
    h("button", { type: "button", class: "link", onclick: back }, "Cancel"));
}

/** The seat's hand: the cards that may reroute a passenger are buttons; one with several reroutes asks which. */
function hand(t, reroutes, citizens, act, ui) {
  const choosing = reroutes.has(ui.choosing) ? ui.choosing : null;
  const ask = (card, focus) => () => ui.redraw((ui.choosing = card), (ui.focus = focus));
  return h("section", { class: "hand", "aria-label": "Your hand" }, h("h2", {}, `Your hand (${t.hand.length})`),
    h("ul", { class: "cards" }, t.hand.map((card) => {
      const listed = reroutes.get(`card:${card}`);
      return h("li", {}, h("button", {
        type: "button", class: `bt-card bt-${card.split(".")[0].slice(-1)}`, disabled: !listed,
        "aria-label": listed ? `Reroute with ${areaName(card)}` : `${areaName(card)} (kept)`, dataset: { key: `card:${card}` },
        onclick: () => (listed.length === 1 ? act(listed[0]) : ask(`card:${card}`, "choice:0")()),
      }, areaName(card)));
    })),
    choosing ? chooser(`Reroute with ${areaName(choosing.slice(5))}`, reroutes.get(choosing), t, citizens, act, ask(null, choosing)) : null);
}

/** The table, as tables/taki.js draws its own; the city is read once, the first time. */
export function drawTable(view, legal, { act, names, ui, recent }) {
  if (city) return table(city, view, legal, act, names, ui, recent);
  const slot = h("div", { class: "bahama-taxi", "aria-busy": "true" }, h("p", { class: "hint" }, "Unfolding the city map…"));
  taxiBoard().then((board) => slot.replaceWith(table((city = board), view, legal, act, names, ui, recent)),
    (problem) => slot.replaceChildren(h("p", { class: "notice error", role: "alert" }, problem.detail || problem.message)));
  return slot;
}

function table(board, view, legal, act, names, ui, recent) {
  const t = view.table;
  naming = nameFor(view.options);
  const citizens = new Map([...t.waiting, ...t.cabs.flatMap((cab) => cab.passengers)].map((c) => [c.citizen, c]));
  const add = (map, key, command) => map.set(key, [...(map.get(key) || []), command]);
  const [onMap, reroutes, buttons] = [new Map(), new Map(), []];
  let forfeit = null;
  for (const c of legal?.commands || []) {
    const kind = c.type.split(".")[1];
    const area = { move: c.to, step: c.to, place_police: c.area, stay: kind === "stay" && cabOf(t, c.pawn).area }[kind];
    if (area) add(onMap, area, c);
    else if (kind === "reroute") add(reroutes, `card:${c.card}`, c);
    else if (kind === "forfeit") forfeit = c;
    else buttons.push(c);
  }
  const picked = onMap.get(ui.choosing?.slice(5))?.length > 1 && ui.choosing.startsWith("area:") ? ui.choosing.slice(5) : null;
  const waiting = new Map();
  for (const c of t.waiting) {
    for (const area of view.options.mirror_board ? [c.origin_area, c.destination_area] : [c.origin_area]) add(waiting, area, `${trip(c)} waits`);
  }
  const marked = new Set(t.cabs.filter((cab) => cab.seat === (view.you ?? t.current)).flatMap((cab) => cab.passengers.map((c) => c.to_area)));
  const open = new Map([...onMap].map(([area, listed]) => [area, {
    label: [listed.length === 1 ? words(listed[0], t, citizens) : `${areaName(area)}: ${listed.length} choices`,
      ...(waiting.get(area) || []), marked.has(area) ? "a passenger of yours gets out here" : null].filter(Boolean).join("; "),
    choose: () => (listed.length === 1 ? act(listed[0]) : ui.redraw((ui.choosing = `area:${area}`), (ui.focus = "choice:0"))),
  }]));
  const pawns = t.cabs.map((cab) => ({
    area: cab.area, seat: cab.seat, kind: cab.kind, tag: tag(cab.seat, cab.pawn),
    name: `${pawnName(names, cab.seat, cab.pawn)}${naming.two || naming.contraband ? "" : "'s cab"}, ${cab.passengers.length} aboard`,
  }));
  const trails = recent.filter((event) => event.type === "pawn_moved" || event.type === "pawn_stepped").map(({ payload }) => [payload.origin, payload.to]);
  return h("div", { class: `bahama-taxi${naming.contraband ? " bt-contraband" : ""}` },
    seats(view, names),
    facts(view, names),
    t.result ? h("section", { class: "result", "aria-label": "Result" }, h("h2", {}, "Final ranking"),
      h("ol", {}, t.result.ranking.map((place) => h("li", {}, `${place.map((seat) => names[seat]).join(" and ")}: ${t.result.incomes[place[0]]}`))),
      h("p", { class: "hint" }, `Ended: ${spaced(t.result.reason)}.`)) : null,
    h("figure", { class: "bt-city" }, cityMap(board, { open, pawns, waiting, marked, trails, picked }),
      h("figcaption", { class: "hint" }, onMap.size ? "Lit areas may be chosen." : "Spades top, hearts right, clubs below, diamonds left.")),
    picked ? chooser(`Choose for ${areaName(picked)}`, onMap.get(picked), t, citizens, act,
      () => ui.redraw((ui.choosing = null), (ui.focus = `area:${picked}`))) : null,
    buttons.length || forfeit ? h("section", { class: "actions", "aria-label": "Actions" }, h("div", { class: "buttons" },
      buttons.map((c, index) => button(words(c, t, citizens), () => act(c), { dataset: { key: `action:${index}` } })),
      forfeit ? askedTwice(ui, act, forfeit, { ask: "Leave the game…", question: "Leave for good?", yes: "Yes, leave" }) : null)) : null,
    t.hand ? hand(t, reroutes, citizens, act, ui) : null,
    h("section", { class: "bt-waiting", "aria-label": "Waiting citizens" }, h("h2", {}, `Waiting (${t.waiting.length})`),
      h("ul", {}, t.waiting.map((c) => h("li", {}, trip(c))))));
}
