// The TAKI table: a function of the seat's view and its legal commands. What is clickable comes
// from the listed commands only, and a click sends one of them as it is; a batch of several cards
// is offered only as the server's command checks accept it, card by card. No rule is copied here.

import { seatCivility } from "../civility.js";
import { askedTwice, deadlineTag, h, seatClock } from "../dom.js";
import { cardBack, cardImage, cardName, COLORS, parseCard, swatch } from "./taki_cards.js";

const PHASES = {
  normal: null,
  in_run: "A TAKI run is open",
  plus_follow_up: "Plus: the same seat plays again",
  king_follow_up: "King: the same seat plays any card",
  plus3_window: "+3: each seat may answer",
  finished: "Game over",
};

const ACTIONS = {
  "taki.draw": "Draw",
  "taki.close_taki": "Close the TAKI run",
  "taki.end_turn": "End turn",
  "taki.pass": "Pass",
  "taki.announce_last_card": "Say “Last card!”",
};

const titleCase = (text) => text.charAt(0).toUpperCase() + text.slice(1);

/** The words of an event for the log of recent moves. */
export function describe(event, names) {
  const p = event.payload || {};
  const who = p.seat !== undefined ? names[p.seat] : "";
  switch (event.type) {
    case "card_played": return `${who} played ${cardName(p.card)}${p.announce ? " and said “Last card!”" : ""}`;
    case "cards_drawn": return `${who} drew ${p.cards.length === 1 ? "a card" : `${p.cards.length} cards`}`;
    case "draw_shortfall": return `${who} drew ${p.missing} fewer: the piles ran out`;
    case "color_chosen": return `${who} chose ${p.color}`;
    case "taki_run_opened": return `${who} opened a TAKI run`;
    case "taki_run_closed": return `${who} closed the TAKI run`;
    case "taki_run_left_open": return `${who} left the TAKI run open`;
    case "player_skipped": return `${who} is skipped`;
    case "direction_changed": return "The direction changed";
    case "plus2_stacked": return `The +2 stack is ${p.total}`;
    case "plus2_stack_taken": return `${who} took the +2 stack (${p.amount})`;
    case "plus3_window_opened": return `${names[p.source]} played +3`;
    case "plus3_passed": return `${who} passed the +3`;
    case "plus3_broken": return `${who} broke the +3`;
    case "plus2_stack_cancelled": return `${who} cancelled the +2 stack`;
    case "plus3_cancelled": return `${who} cancelled the +3 with a King`;
    case "plus3_resolved": return "The +3 window closed";
    case "breaker_penalty": return `${who} drew for the breaker`;
    case "plus_follow_up": return `${who} plays again (Plus)`;
    case "king_follow_up": return `${who} plays again (King)`;
    case "last_card_announced": return `${who} said “Last card!”`;
    case "last_card_penalty": return `${who} forgot to say “Last card!”`;
    case "stage_completed": return `${who} completed stage ${p.stage}`;
    case "player_went_out": return `${who} went out (place ${p.place})`;
    case "player_forfeited": return `${who} left the game`;
    case "discard_reshuffled": return "The discard pile was shuffled into the draw pile";
    case "leading_card_turned": return `The game opens on ${cardName(p.card)}`;
    case "game_ended": return "The game is over";
    case "turn_started": case "deck_shuffled": case "hand_dealt": case "last_card_owed": case "last_card_lapsed":
      return null;
    default: return who ? `${who}: ${event.type.replace(/_/g, " ")}` : titleCase(event.type.replace(/_/g, " "));
  }
}

/** Who is at the table: each seat's name, cards, flags, whether it moves now and by when. */
function seats(view, names, moved) {
  const table = view.table;
  return h("ol", { class: "seats-table", "aria-label": "Seats" }, names.map((name, seat) => {
    const flags = [];
    if (view.to_move.includes(seat)) flags.push(h("span", { class: "flag move" }, "to move"));
    if (table.announced[seat]) flags.push(h("span", { class: "flag last" }, "Last card!"));
    if (table.run && table.run.owner === seat) flags.push(h("span", { class: "flag" }, "owns the run"));
    if (table.plus3 && table.plus3.awaiting.includes(seat)) flags.push(h("span", { class: "flag" }, "may answer +3"));
    if (table.out.includes(seat)) flags.push(h("span", { class: "flag" }, "out"));
    if (table.forfeited.includes(seat)) flags.push(h("span", { class: "flag" }, "left"));
    if (view.options.mode === "tournament" && table.stages.length) {
      flags.push(h("span", { class: "flag" }, `stage ${table.stages[seat]}`));
    }
    const size = table.hand_sizes[seat];
    return h("li", {
      class: [view.to_move.includes(seat) ? "to-move" : "", seat === view.you ? "you" : "", moved.has(seat) ? "moved" : ""].join(" "),
    },
    h("span", { class: "seat-name" }, name, seat === view.you ? " (you)" : ""),
    h("span", { class: "hand-size" }, `${size} ${size === 1 ? "card" : "cards"}`),
    flags, seatClock(view, seat), seatCivility(view, seat));
  }));
}

/** The middle of the table: the draw pile, the discard pile's top card and the active colour. */
function centre(view, names, fresh) {
  const table = view.table;
  const top = table.discard[table.discard.length - 1];
  const active = table.active_color;
  const notes = [];
  const phase = PHASES[table.phase];
  if (phase) notes.push(phase);
  notes.push(`Direction: ${table.direction === 1 ? "seat order ↻" : "reverse order ↺"}`);
  if (table.plus2_stack) notes.push(`+2 stack: ${table.plus2_stack} cards to draw`);
  if (table.run) notes.push(`TAKI run in ${table.run.color}, by ${names[table.run.owner]}`);
  if (table.plus3) {
    const closes = (view.deadlines || []).filter((entry) => table.plus3.awaiting.includes(entry.seat))
      .reduce((soonest, entry) => (soonest && soonest.at <= entry.at ? soonest : entry), null);
    notes.push([`+3 by ${names[table.plus3.source]}; still to answer: ${table.plus3.awaiting.map((s) => names[s]).join(", ") || "nobody"}`,
      closes ? [" · ", deadlineTag(closes.at, closes.policy)] : null]);
  }
  return h("div", { class: "centre" },
    h("figure", { class: "pile" }, cardBack(), h("figcaption", {}, `Draw pile: ${table.draw_pile_size}`)),
    h("figure", { class: `pile discard${fresh ? " fresh" : ""}` },
      top ? cardImage(top, { color: active }) : null,
      h("figcaption", {}, top ? `Top: ${cardName(top)}` : "No discard")),
    h("div", { class: "facts" },
      active ? h("p", { class: "active-color" }, swatch(active), ` Active colour: ${active} (${COLORS[active].letter})`) : null,
      h("ul", { class: "notes" }, notes.map((note) => h("li", {}, note)))));
}

/** A colour to choose for a card, with its swatch and letter. */
const colourButton = (color, key, onclick) => h("button", { type: "button", class: "choice", dataset: { key }, onclick },
  swatch(color), titleCase(color));

/** Your hand as buttons: the playable ones marked; a card with several listed plays asks which in
 * place. While a batch is composed, the cards the server would accept next are marked instead. */
function hand(view, plays, ui, act, check) {
  const cards = view.table.hand || [];
  const batch = ui.batch;
  const choosing = !batch && ui.choosing && plays.has(ui.choosing) ? ui.choosing : null;
  ui.choosing = choosing;
  const buttons = cards.map((card) => {
    const listed = plays.get(card);
    const name = cardName(card);
    if (batch) {
      const place = batch.cards.indexOf(card);
      const next = batch.next?.get(card); // "plain", or "colour" for a card that asks one
      return h("li", {}, h("button", {
        type: "button",
        class: `card${next ? " playable" : ""}${place >= 0 ? " picked" : ""}${batch.coloring === card ? " choosing" : ""}`,
        disabled: !next,
        "aria-label": place >= 0 ? `${name}, card ${place + 1} of the batch` : next ? `Add ${name}` : `${name} (cannot follow)`,
        dataset: place >= 0 ? { key: `card:${card}`, place: place + 1 } : { key: `card:${card}` },
        onclick: () => (next === "colour" ? ui.redraw((batch.coloring = card), (ui.focus = "tint:0"))
          : extendBatch(view, ui, check, [...batch.cards, card], batch.colors)),
      }, cardImage(card, { title: false })));
    }
    return h("li", {},
      h("button", {
        type: "button",
        class: `card${listed ? " playable" : ""}${choosing === card ? " choosing" : ""}`,
        disabled: !listed,
        "aria-label": listed ? `Play ${name}` : `${name} (not playable now)`,
        "aria-expanded": listed && listed.length > 1 ? String(choosing === card) : null,
        dataset: { key: `card:${card}` },
        onclick: () => {
          if (listed.length === 1) act(listed[0]);
          else {
            ui.choosing = ui.choosing === card ? null : card;
            ui.focus = ui.choosing ? "choice:0" : `card:${card}`; // the keyboard goes on to the choices
            ui.redraw();
          }
        },
      }, cardImage(card, { title: false })));
  });
  const chooser = choosing ? h("div", { class: "chooser", role: "group", "aria-label": `Choose how to play ${cardName(choosing)}` },
    h("p", {}, `Play ${cardName(choosing)}:`),
    plays.get(choosing).map((command, index) => colourButton(command.color, `choice:${index}`, () => act(command))),
    h("button", {
      type: "button", class: "link", onclick: () => { ui.focus = `card:${choosing}`; ui.redraw((ui.choosing = null)); },
    }, "Cancel")) : null;
  const several = !batch && check && plays.size && cards.length > 1
    ? h("button", {
      type: "button", class: "link", dataset: { key: "batch:start" }, onclick: () => extendBatch(view, ui, check, [], {}),
    }, "Play several cards at once…")
    : null;
  return h("section", { class: "hand", "aria-label": "Your hand" },
    h("h2", {}, `Your hand (${cards.length})`),
    h("ul", { class: "cards", onkeydown: arrowKeys }, buttons), chooser, several, batch ? composer(view, ui, act, check) : null);
}

/** Left and right arrows move between the hand's cards that may be pressed. */
function arrowKeys(event) {
  if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
  const enabled = [...event.currentTarget.querySelectorAll("button:not(:disabled)")];
  const at = enabled.indexOf(document.activeElement);
  if (at < 0) return;
  event.preventDefault();
  enabled[(at + (event.key === "ArrowRight" ? 1 : enabled.length - 1)) % enabled.length].focus();
}

const batchPlay = (cards, colors, extra = {}) => ({ type: "taki.play", cards, ...(Object.keys(colors).length ? { colors } : {}), ...extra });

/** Compose the batch `cards` (`colors`: the colour named for each card that needs one): ask the
 * server which card of the hand may follow them (a wild card is asked again with a colour), and
 * how the batch may be played as it stands (as it is, closing the run, saying "Last card!"). */
async function extendBatch(view, ui, check, cards, colors) {
  const batch = { version: view.version, cards, colors, next: null, finishes: null, coloring: null, problem: null };
  ui.batch = batch;
  ui.focus = "batch:status";
  ui.redraw();
  const rest = view.table.hand.filter((card) => !cards.includes(card));
  const last = view.table.hand.length - cards.length === 1 ? [{ announce_last_card: true }] : [];
  const endings = cards.length > 1 ? [{}, { close_taki: true }, ...last, ...last.map((extra) => ({ ...extra, close_taki: true }))] : [];
  const follows = async (card) => {
    if (await check(batchPlay([...cards, card], colors))) return "plain";
    return !parseCard(card).color && (await check(batchPlay([...cards, card], { ...colors, [card]: "red" }))) ? "colour" : null;
  };
  try {
    const [next, finishes] = await Promise.all([
      Promise.all(rest.map(async (card) => [card, await follows(card)])),
      Promise.all(endings.map(async (extra) => ((await check(batchPlay(cards, colors, extra))) ? batchPlay(cards, colors, extra) : null))),
    ]);
    batch.next = new Map(next.filter(([, how]) => how));
    batch.finishes = finishes.filter(Boolean);
  } catch (problem) {
    [batch.next, batch.finishes, batch.problem] = [new Map(), [], problem.detail || problem.message]; // nothing offered unchecked
  }
  if (ui.batch !== batch) return; // cancelled, or the game moved, meanwhile
  ui.focus = batch.next.size ? `card:${batch.next.keys().next().value}` : batch.finishes.length ? "finish:0" : "batch:cancel";
  ui.redraw();
}

/** The batch being composed: its cards in order, a wild card's colour, the ways to play it, undo and cancel. */
function composer(view, ui, act, check) {
  const { cards, colors, next, finishes, coloring, problem } = ui.batch;
  const status = problem ? `The server could not be asked: ${problem}` : next === null ? "Checking which cards may follow…"
    : next.size ? "The marked cards may follow." : "No card may follow.";
  return h("div", { class: "chooser batch-composer", role: "group", "aria-label": "Several cards at once", "aria-busy": String(next === null) },
    h("p", {}, cards.length ? ["Batch: ", cards.map((card) => cardName(card) + (colors[card] ? ` (${colors[card]})` : "")).join(", then ")]
      : "Pick the cards in the order to play them."),
    h("p", { class: problem ? "error" : "hint", tabindex: -1, dataset: { key: "batch:status" } }, status),
    coloring ? h("p", { role: "group", "aria-label": `Colour for ${cardName(coloring)}` }, `${cardName(coloring)} in: `,
      Object.keys(COLORS).map((color, index) => colourButton(color, `tint:${index}`,
        () => extendBatch(view, ui, check, [...cards, coloring], { ...colors, [coloring]: color })))) : null,
    (finishes || []).map((command, index) => h("button", {
      type: "button", class: "choice", dataset: { key: `finish:${index}` }, onclick: () => act(command),
    }, `Play these ${cards.length}${command.close_taki ? " and close the run" : ""}${command.announce_last_card ? " and say “Last card!”" : ""}`)),
    cards.length ? h("button", {
      type: "button", class: "link", dataset: { key: "batch:undo" },
      onclick: () => extendBatch(view, ui, check, cards.slice(0, -1),
        Object.fromEntries(Object.entries(colors).filter(([card]) => card !== cards.at(-1)))),
    }, "Take back the last card") : null,
    h("button", {
      type: "button", class: "link", dataset: { key: "batch:cancel" }, onclick: () => { ui.focus = "batch:start"; ui.redraw((ui.batch = null)); },
    }, "Cancel"));
}

/** The seat's other listed commands as buttons: draw, close the run, end the turn, pass, announce; leaving. */
function actions(commands, act, ui) {
  const buttons = [];
  let forfeit = null;
  for (const command of commands) {
    if (command.type === "taki.forfeit") forfeit = command;
    else if (command.type !== "taki.play") {
      buttons.push(h("button", { type: "button", dataset: { key: `action:${command.type}` }, onclick: () => act(command) },
        ACTIONS[command.type] || command.type));
    }
  }
  return h("section", { class: "actions", "aria-label": "Actions" },
    buttons.length ? h("div", { class: "buttons" }, buttons) : null,
    forfeit ? h("div", { class: "leave" },
      askedTwice(ui, act, forfeit, { ask: "Leave the game…", question: "Leave for good?", yes: "Yes, leave the game" })) : null);
}

function ranking(view, names) {
  const result = view.result;
  const hands = view.table.hands;
  return h("section", { class: "result", "aria-label": "Result" },
    h("h2", {}, "Final ranking"),
    h("ol", {}, result.ranking.map((place, index) => h("li", {},
      place.map((seat) => names[seat]).join(" and "),
      result.scores ? ` (${place.map((seat) => result.scores[seat]).join(", ")} points)` : "",
      index === 0 ? " wins" : ""))),
    h("p", { class: "hint" }, `Ended: ${result.reason.replace(/_/g, " ")}.`),
    hands ? h("div", { class: "final-hands" }, names.map((name, seat) => (seat === view.you || !hands[seat].length ? null
      : h("div", { class: "final-hand" }, h("h3", {}, `${name}'s cards`),
        h("ul", { class: "cards small", "aria-label": `${name}'s cards` },
          hands[seat].map((card) => h("li", {}, cardImage(card)))))))) : null);
}

/** Whose move it is, in one line. */
export function headline(view, names) {
  if (view.status === "finished" && view.result) {
    const winners = view.result.ranking[0].map((seat) => names[seat]).join(" and ");
    return view.result.ranking[0].includes(view.you) ? "You win!" : `Game over: ${winners} won`;
  }
  if (view.to_move.includes(view.you)) return "Your turn";
  return `Waiting for ${view.to_move.map((seat) => names[seat]).join(", ")}`;
}

/**
 * The table for `view` with its `legal` commands (null for a spectator); `act(command)` sends a
 * listed command, `check(command)` asks whether the server would accept one; `ui` keeps the
 * page's own choices (a card being played, a batch being composed) across redraws;
 * `recent` are the events since the last drawing, highlighted.
 */
export function drawTable(view, legal, { act, check, names, ui, recent }) {
  const commands = legal ? legal.commands : [];
  if (ui.batch && (ui.batch.version !== view.version || !legal)) ui.batch = null; // the game moved on
  const plays = new Map();
  for (const command of commands) {
    if (command.type === "taki.play" && command.card) plays.set(command.card, [...(plays.get(command.card) || []), command]);
  }
  const moved = new Set(recent.filter((event) => event.type !== "turn_started" && event.payload?.seat !== undefined)
    .map((event) => event.payload.seat));
  const fresh = recent.some((event) => event.type === "card_played");
  return h("div", { class: "taki" },
    seats(view, names, moved),
    centre(view, names, fresh),
    view.result ? ranking(view, names) : null,
    view.you !== null && view.table.hand ? hand(view, plays, ui, act, legal && check) : null,
    legal && commands.length ? actions(commands, act, ui) : null);
}
