// The Djambi table: the 9×9 board as SVG, row 1 at the top as the rules' diagrams draw it, the
// armies and who moves; a move is composed square by square from the listed commands only - a
// piece, where it goes, then each follow-up (exit, place, report) the commands left still differ
// on - until one listed command is left, which is sent as it is. No rule is copied here.

import { countdown, h, svg } from "../dom.js";
import { ARMIES, armySwatch, pieceImage, pieceName } from "./djambi_pieces.js";

const COLUMNS = "ABCDEFGHI";
const MAZE = "E5";
const CELL = 40;
const EDGE = 18; // room for the coordinates
const STEPS = ["piece", "to", "exit", "place", "report"]; // in the order the notation writes a move

const ACTIONS = {
  "djambi.propose_draw": "Propose a draw",
  "djambi.accept_draw": "Accept the draw",
  "djambi.decline_draw": "Decline the draw",
};

const ENDINGS = {
  won: "the last chief standing",
  all_encircled: "every chief left was encircled at once",
  no_progress: "too many turns without a kill",
  no_legal_action: "nobody could move",
  abandoned: "nobody moved for a whole round",
  agreed: "drawn by agreement",
};

const STATUS = {
  player: (name) => `played by ${name}`,
  captured: (name) => `captured by ${name}`,
  orphaned: () => "orphaned: inert until a chief takes power",
  hostage: () => "hostage: nobody plays it",
  destroyed: () => "destroyed",
};

/** "blue militant" for a piece id such as blue.militant2. */
const pieceWords = (id) => id.replace(/\d+$/, "").replace(".", " ");

const listed = (seats, names) => seats.map((seat) => names[seat]).join(", ");

/** The words of an event for the log of recent moves and the replay. */
export function describe(event, names) {
  const p = event.payload || {};
  const who = names[p.seat];
  switch (event.type) {
    case "game_started": return `The game starts: ${p.players.join(", ")}${p.hostage ? `; ${p.hostage} is the hostage army` : ""}`;
    case "turn_started": return p.kind === "bonus" ? `${who} takes a bonus turn (in power)` : null;
    case "action_taken": return `${who}: ${p.move}${(p.kills || []).map((kill) => `, killing the ${pieceWords(kill.piece)} on ${kill.at}`).join("")}`;
    case "player_eliminated":
      if (p.reason === "resigned") return `${who} resigned`;
      return `${who} is out: chief ${p.reason}${p.by !== null && p.by !== undefined ? ` by ${names[p.by]}` : ""}`;
    case "army_control_changed":
      return p.to === null ? `The ${p.army} army is orphaned` : `${names[p.to]} takes the ${p.army} army`;
    case "turn_passed": return p.reason === "timeout" ? `${who}'s time ran out` : `${who} passes: no legal move`;
    case "draw_offered": return `${who} offers a draw`;
    case "draw_accepted": return `${who} accepts the draw`;
    case "draw_declined": return `${who} declines the draw`;
    case "draw_offer_lapsed": return "The draw offer lapsed";
    case "game_ended": return p.result === "win" ? `Game over: ${listed(p.winners, names)} won`
      : `Game over: a draw (${ENDINGS[p.reason] || p.reason})`;
    default: return `${who ?? "The game"}: ${event.type.replace(/_/g, " ")}`;
  }
}

/** Whose move it is, in one line. */
export function headline(view, names) {
  const table = view.table;
  const result = table.result;
  if (view.status === "finished" && result) {
    if (result.result === "draw") return `Game over: a draw between ${listed(result.winners, names)}`;
    return result.winners.includes(view.you) ? "You win!" : `Game over: ${listed(result.winners, names)} won`;
  }
  if (table.current === null) return "";
  if (table.current === view.you) return "Your turn";
  const bonus = table.turn_kind === "bonus" ? ", bonus turn" : "";
  return `Waiting for ${names[table.current]} (${table.players[table.current]}${bonus})`;
}

const squareName = (column, row) => `${COLUMNS[column]}${row}`;
const valueOf = (command, field) => command[field] ?? null;

/** The commands that agree with every choice made so far. */
const matching = (plays, chosen) => plays.filter((command) => chosen.every(([field, value]) => valueOf(command, field) === value));

/** The next choice to ask: the piece, its destination, then the first follow-up the commands left differ on. */
function nextStep(candidates, chosen) {
  for (const field of STEPS) {
    if (chosen.some(([done]) => done === field)) continue;
    const values = [...new Set(candidates.map((command) => valueOf(command, field)))];
    if (field === "piece" || field === "to" || values.length > 1) return { field, values };
  }
  return null;
}

/** A square's place in the drawing order (row by row), for the keyboard's first stop. */
const order = (square) => Number(square[1]) * 9 + COLUMNS.indexOf(square[0]);

/** What a square holds, in words: "blue militant at C9", with its army's standing where it is not played. */
function pieceLabel(piece, armies) {
  const status = armies[piece.army];
  const aside = piece.alive && (status === "hostage" || status === "orphaned") ? ` (${status})` : "";
  return `${pieceName(piece)}${aside} at ${piece.square}`;
}

/** The choice a lit square makes, in words, for its button. */
function choiceLabel(field, square, piece, displaced) {
  const onto = piece ? `, onto ${pieceName(piece)}` : square === MAZE ? ", the maze" : "";
  switch (field) {
    case "to": return `Move to ${square}${onto}`;
    case "exit": return `Leave the maze to ${square}${onto}`;
    case "place": return `Put ${displaced} on ${square}`;
    default: return `Kill the ${pieceName(piece)} at ${square}`;
  }
}

/** The move as far as it is chosen, in the notation ("C9-D9 place …"), and what is asked next. */
function prompt(step, chosen, bySquare) {
  const get = (field) => chosen.find(([done]) => done === field)?.[1];
  const piece = get("piece");
  if (!piece) return "Your move: choose one of your outlined pieces.";
  const mover = bySquare.get(piece);
  const notation = [`${piece}-${get("to") ?? "…"}`, ...STEPS.slice(2).filter((field) => get(field) !== undefined)
    .map((field) => `${field} ${get(field) ?? "none"}`)].join(" ");
  const displaced = bySquare.get(get("to"));
  const asks = {
    to: `Where does the ${pieceName(mover)} go?`,
    exit: "Where does it leave the maze to?",
    place: `Where does the ${displaced ? pieceName(displaced) : "piece"} go?`,
    report: "Which neighbour does the reporter kill?",
  };
  return `${notation}: ${asks[step.field]} Choose a lit square.`;
}

/**
 * The table for `view` with its `legal` commands (null for a spectator or a replay); `act(command)`
 * sends a listed command; `ui` keeps the move being composed across redraws; `recent` are the
 * events since the last drawing, whose moves are marked on the board.
 */
export function drawTable(view, legal, { act, names, ui, recent }) {
  const table = view.table;
  const plays = legal ? legal.commands.filter((command) => command.type === "djambi.play") : [];
  for (const event of recent) if (event.type === "action_taken") ui.djambiLast = event.payload.moves;
  if (ui.djambi && (ui.djambi.version !== view.version || !legal)) ui.djambi = null; // the game moved on
  const chosen = ui.djambi?.chosen ?? [];
  const candidates = matching(plays, chosen);
  const step = plays.length ? nextStep(candidates, chosen) : null;
  const bySquare = new Map(table.pieces.map((piece) => [piece.square, piece]));
  const armies = Object.fromEntries(table.armies.map((army) => [army.color, army.status]));

  const redraw = (next, focus) => {
    ui.djambi = next.length ? { version: view.version, chosen: next } : null;
    ui.focus = focus;
    ui.redraw();
  };
  const choose = (field, value) => {
    const next = [...chosen, [field, value]];
    const left = matching(plays, next);
    if (field !== "piece" && left.length === 1) {
      ui.djambi = null;
      act(left[0]);
      return;
    }
    const following = nextStep(left, next);
    const first = following.values.filter(Boolean).sort((a, b) => order(a) - order(b))[0];
    redraw(next, first ? `sq:${first}` : "dj:none");
  };
  const back = () => {
    const last = chosen[chosen.length - 1];
    redraw(chosen.slice(0, -1), last ? `sq:${last[1] ?? chosen[0][1]}` : null);
  };

  const moving = step && (step.field === "piece" || step.field === "to");
  const movable = new Set(moving ? plays.map((command) => command.piece) : []);
  const selected = chosen.find(([field]) => field === "piece")?.[1];
  const lit = new Set(step && step.field !== "piece" ? step.values.filter(Boolean) : []);
  const displaced = bySquare.get(chosen.find(([field]) => field === "to")?.[1]);
  const last = new Set((ui.djambiLast || []).flatMap((move) => [move.origin, move.to]));
  const handlers = new Map();

  const cells = [];
  for (let row = 1; row <= 9; row += 1) {
    for (let column = 0; column < 9; column += 1) {
      const square = squareName(column, row);
      const piece = bySquare.get(square);
      const x = EDGE + column * CELL;
      const y = EDGE + (row - 1) * CELL;
      let label = piece ? pieceLabel(piece, armies) : null;
      let handler = null;
      if (lit.has(square)) {
        label = choiceLabel(step.field, square, piece, displaced ? `the ${pieceName(displaced)}` : "the piece");
        handler = () => choose(step.field, square);
      } else if (movable.has(square)) {
        handler = square === selected ? back : () => redraw([["piece", square]], `sq:${square}`);
      }
      const key = `sq:${square}`;
      if (handler) handlers.set(key, handler);
      const classes = ["dj-sq", (row + column) % 2 ? "dark" : "light", square === MAZE ? "maze" : "", last.has(square) ? "last" : "",
        lit.has(square) ? "lit" : "", movable.has(square) ? "movable" : "", square === selected ? "selected" : ""];
      cells.push(svg("g", {
        class: classes.filter(Boolean).join(" "),
        "data-key": key,
        role: handler ? "button" : piece ? "img" : null,
        tabindex: handler ? 0 : null,
        "aria-label": label,
        "aria-pressed": movable.has(square) ? String(square === selected) : null,
      },
      svg("rect", { x, y, width: CELL, height: CELL, class: "dj-cell" }),
      square === MAZE ? [4, 10].map((inset) => svg("rect", {
        x: x + inset, y: y + inset, width: CELL - 2 * inset, height: CELL - 2 * inset, class: "dj-maze-line",
      })) : null,
      piece ? pieceImage(piece, x + CELL / 2, y + CELL / 2) : null,
      lit.has(square) && !piece ? svg("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: 7, class: "dj-dot" }) : null,
      svg("rect", { x: x + 2, y: y + 2, width: CELL - 4, height: CELL - 4, rx: 3, class: "dj-ring" })));
    }
  }
  const coordinates = [...COLUMNS].map((letter, column) => svg("text", {
    x: EDGE + column * CELL + CELL / 2, y: EDGE - 5, "text-anchor": "middle", class: "dj-coord",
  }, letter)).concat([1, 2, 3, 4, 5, 6, 7, 8, 9].map((row) => svg("text", {
    x: EDGE / 2, y: EDGE + (row - 1) * CELL + CELL / 2 + 4, "text-anchor": "middle", class: "dj-coord",
  }, row)));
  const size = EDGE + 9 * CELL + 2;
  const board = svg("svg", {
    viewBox: `0 0 ${size} ${size}`, class: "dj-board", role: "group",
    "aria-label": "Board: columns A to I, row 1 at the top; E5 is the maze",
  }, coordinates, cells);
  const press = (event) => {
    const target = event.target.closest?.("[data-key]");
    const handler = target && handlers.get(target.dataset.key);
    if (!handler) return;
    event.preventDefault();
    handler();
  };
  board.addEventListener("click", press);
  board.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") press(event);
    else if (event.key === "Escape" && chosen.length) back();
    else arrowKeys(event);
  });

  return h("div", { class: "djambi" },
    h("div", { class: "dj-main" },
      step && table.current === view.you ? composer(step, chosen, bySquare, back, choose, redraw) : null,
      board, legend(table, bySquare)),
    h("div", { class: "dj-side" },
      table.result ? result(table.result, names) : null,
      seats(view, names, armies),
      facts(view, names),
      armyList(table, names),
      legal ? actions(legal.commands, act, ui) : null));
}

/** The arrow keys move to the nearest control in their direction on the board. */
function arrowKeys(event) {
  const delta = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[event.key];
  const from = event.target.closest?.("[data-key]");
  if (!delta || !from) return;
  const at = (element) => [COLUMNS.indexOf(element.dataset.key[3]), Number(element.dataset.key[4])];
  const [x0, y0] = at(from);
  let best = null;
  let bestScore = Infinity;
  for (const element of event.currentTarget.querySelectorAll('[role="button"]')) {
    const [x, y] = at(element);
    const along = (x - x0) * delta[0] + (y - y0) * delta[1];
    const score = along + 3 * (Math.abs((x - x0) * delta[1]) + Math.abs((y - y0) * delta[0]));
    if (along > 0 && score < bestScore) [best, bestScore] = [element, score];
  }
  if (best) {
    event.preventDefault();
    best.focus();
  }
}

/** The move being composed: what is asked, going back a step, a reporter's "no one", cancelling. */
function composer(step, chosen, bySquare, back, choose, redraw) {
  return h("div", { class: "chooser dj-composer", role: "group", "aria-label": "Your move" },
    h("p", { role: "status" }, prompt(step, chosen, bySquare)),
    step.field === "report" && step.values.includes(null)
      ? h("button", { type: "button", dataset: { key: "dj:none" }, onclick: () => choose("report", null) }, "Kill no one") : null,
    chosen.length ? h("button", { type: "button", dataset: { key: "dj:back" }, onclick: back }, "Back") : null,
    chosen.length ? h("button", { type: "button", class: "link", onclick: () => redraw([], `sq:${chosen[0][1]}`) }, "Cancel") : null);
}

/** A line under the board: what the marks mean, and what stands on the maze. */
function legend(table, bySquare) {
  const maze = bySquare.get(MAZE);
  return h("p", { class: "hint dj-legend" },
    `E5, the maze (concentric squares): ${maze ? `the ${pieceName(maze)}` : "empty"}. `,
    "Shapes and letters: C chief (crown), A assassin (triangle), R reporter (square), D diplomat (diamond), ",
    "N necromobile (hexagon), M militant (circle); X a corpse. The last move is shaded.");
}

const POLICIES = { skip: "then the turn is passed", auto: "then the AI plays it", forfeit: "then the seat leaves the game" };

/** Who plays: each seat's colour, name, whether it moves now or is in power or out, and by when. */
function seats(view, names, armies) {
  const table = view.table;
  const due = new Map((view.deadlines || []).map((entry) => [entry.seat, entry]));
  return h("ol", { class: "seats-table dj-seats", "aria-label": "Seats" }, table.players.map((color, seat) => {
    const flags = [];
    const out = !table.remaining.includes(seat);
    if (table.current === seat) flags.push(h("span", { class: "flag move" }, table.turn_kind === "bonus" ? "to move (bonus turn)" : "to move"));
    if (table.in_power === seat) flags.push(h("span", { class: "flag power" }, "in power"));
    if (out) flags.push(h("span", { class: "flag" }, "out"));
    if (table.draw_offer?.includes(seat)) flags.push(h("span", { class: "flag" }, "accepts a draw"));
    const captured = table.armies.filter((army) => army.controller === seat && armies[army.color] === "captured").map((army) => army.color);
    const entry = due.get(seat);
    return h("li", { class: [table.current === seat ? "to-move" : "", out ? "out" : ""].join(" ") },
      armySwatch(color), h("span", { class: "seat-name" }, `${names[seat]} (${color})`, seat === view.you ? " · you" : ""),
      flags, captured.length ? h("span", { class: "hint" }, `also moves ${captured.join(", ")}`) : null,
      entry ? h("time", { class: "deadline", title: POLICIES[entry.policy], dataset: { deadline: entry.at } }, countdown(entry.at)) : null);
  }));
}

/** The turn, the power, the order of play and the counters. */
function facts(view, names) {
  const table = view.table;
  const ruler = table.in_power;
  const rotation = table.remaining.map((seat) => `${table.players[seat]} ${names[seat]}`).join(" → ");
  const hostage = table.armies.find((army) => army.status === "hostage");
  return h("ul", { class: "dj-facts", "aria-label": "Turn and power" },
    h("li", {}, `Turn ${table.turn_no}${table.turn_kind === "bonus" ? " (a bonus turn)" : ""}`),
    h("li", {}, ruler === null ? "In power: nobody (no chief in the maze)"
      : `In power: ${names[ruler]} (${table.players[ruler]}), whose chief holds the maze`),
    h("li", {}, `Order of play: ${rotation}, then round again${hostage ? `; the ${hostage.color} army is the hostage and never moves` : ""}`),
    ruler === null ? null : h("li", {}, `${names[ruler]} plays after every other player's turn while in power`),
    table.no_progress_limit
      ? h("li", {}, `Turns without a kill: ${table.quiet_turns} of ${table.no_progress_limit} (then a draw)`) : null,
    table.draw_offer ? h("li", {}, `A draw is offered; accepted by ${listed(table.draw_offer, names)}`) : null);
}

/** The four armies: whose each is, or that it is captured, orphaned, the hostage or destroyed. */
function armyList(table, names) {
  return h("ul", { class: "dj-armies", "aria-label": "Armies" }, table.armies.map((army) => {
    const living = table.pieces.filter((piece) => piece.army === army.color && piece.alive).length;
    const by = army.controller === null ? "" : names[army.controller];
    return h("li", { class: army.status }, armySwatch(army.color),
      `${army.color} (${ARMIES[army.color]}): ${STATUS[army.status](by)}`,
      army.status === "destroyed" ? "" : `, ${living} ${living === 1 ? "piece" : "pieces"} alive`);
  }));
}

function result(outcome, names) {
  const who = listed(outcome.winners, names);
  return h("section", { class: "result", "aria-label": "Result" },
    h("h2", {}, outcome.result === "win" ? `${who} won` : `A draw between ${who}`),
    h("p", { class: "hint" }, `Ended: ${ENDINGS[outcome.reason] || outcome.reason}.`));
}

/** The seat's listed commands besides moves: the draw offer's, and resigning (asked twice). */
function actions(commands, act, ui) {
  const resign = commands.find((command) => command.type === "djambi.resign");
  const buttons = commands.filter((command) => ACTIONS[command.type]).map((command) => h("button", {
    type: "button", dataset: { key: `action:${command.type}` }, onclick: () => act(command),
  }, ACTIONS[command.type]));
  let leave = null;
  if (resign) {
    leave = ui.confirmLeave
      ? h("span", { class: "confirm" }, "Resign for good? Your chief dies where it stands. ",
        h("button", { type: "button", class: "danger", onclick: () => act(resign) }, "Yes, resign"),
        h("button", { type: "button", class: "link", onclick: () => ui.redraw((ui.confirmLeave = false)) }, "No"))
      : h("button", { type: "button", class: "link", onclick: () => ui.redraw((ui.confirmLeave = true)) }, "Resign…");
  }
  if (!buttons.length && !leave) return null;
  return h("section", { class: "actions", "aria-label": "Actions" },
    buttons.length ? h("div", { class: "buttons" }, buttons) : null, leave ? h("div", { class: "leave" }, leave) : null);
}
