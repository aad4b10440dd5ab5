// The Djambi table. A move is composed from the listed commands only: a piece, where it goes, then
// each follow-up the commands left differ on, until one is left, which is sent as it is.

import { seatCivility } from "../civility.js";
import { askedTwice, button, h, seatClock, svg } from "../dom.js";

const COLUMNS = "ABCDEFGHI";
const MAZE = "E5";
const CELL = 40;
const EDGE = 18; // room for the coordinates
const STEPS = ["piece", "to", "exit", "place", "report"]; // as the notation writes a move
const ASKS = { piece: "choose an outlined piece", to: "to where?", exit: "exit where?", place: "put the displaced piece where?", report: "kill whom?" };
const ACTIONS = { "djambi.propose_draw": "Propose a draw", "djambi.accept_draw": "Accept the draw", "djambi.decline_draw": "Decline the draw" };
const STATUS = { player: "played by", captured: "captured by", orphaned: "orphaned, inert", hostage: "hostage, nobody plays it", destroyed: "destroyed" };

const ARMIES = { red: "R", blue: "B", yellow: "Y", green: "G" };

// each kind's letter, its outline around (0, 0), and where its letter sits
const KINDS = {
  chief: ["C", "M-15 13V-7l7 8 8-16 8 16 7-8v20z", 10],
  assassin: ["A", "M0-16l16 29h-32z", 10],
  reporter: ["R", "M-13-13h26v26h-26z", 5],
  diplomat: ["D", "M0-16l16 16-16 16-16-16z", 5],
  necromobile: ["N", "M-8-14h16l8 14-8 14h-16l-8-14z", 5],
  militant: ["M", "M-12 0a12 12 0 1 0 24 0a12 12 0 1 0-24 0", 5],
};

/** "red militant", or "corpse of red militant". */
const pieceName = (piece) => `${piece.alive ? "" : "corpse of "}${piece.army} ${piece.kind}`;

/** A piece in its square: its kind's shape and letter in its army's colour; a corpse a tile marked X. */
function pieceImage(piece) {
  const [letter, outline, y] = piece.alive ? KINDS[piece.kind] : ["X", "M-14-14h28v28h-28z", 6];
  return svg("g", { transform: "translate(20 20)", class: `${piece.alive ? "dj-piece" : "dj-corpse"} ${piece.army}` },
    svg("path", { d: outline }), svg("text", { y }, letter));
}

/** An army's colour as a small square with its letter. */
function armySwatch(army) {
  return svg("svg", { viewBox: "0 0 20 20", class: `dj-swatch ${army}`, "aria-hidden": "true" },
    svg("rect", { width: 20, height: 20, rx: 4 }), svg("text", { x: 10, y: 15 }, ARMIES[army]));
}

const words = (reason) => reason.replace(/_/g, " ");
const listed = (seats, names) => seats.map((seat) => names[seat]).join(", ");

/** An event in words, for the recent moves and the replay. */
export function describe(event, names) {
  const p = event.payload || {};
  const who = names[p.seat];
  switch (event.type) {
    case "game_started": return `The game starts${p.hostage ? `; ${p.hostage} is the hostage army` : ""}`;
    case "turn_started": return p.kind === "bonus" ? `${who} takes a bonus turn (in power)` : null;
    case "action_taken":
      return `${who}: ${p.move}${(p.kills || []).map((kill) => `, killing the ${kill.piece.replace(/\d+$/, "").replace(".", " ")} on ${kill.at}`).join("")}`;
    case "player_eliminated":
      return p.reason === "resigned" ? `${who} resigned` : `${who} is out: chief ${p.reason}${p.by == null ? "" : ` by ${names[p.by]}`}`;
    case "army_control_changed": return p.to === null ? `The ${p.army} army is orphaned` : `${names[p.to]} takes the ${p.army} army`;
    case "turn_passed": return p.reason === "timeout" ? `${who}'s time ran out` : `${who} passes: no legal move`;
    case "draw_offered": case "draw_accepted": case "draw_declined": return `${who} ${event.type.slice(5)} a draw`;
    case "draw_offer_lapsed": return "The draw offer lapsed";
    case "game_ended": return `Game over: ${p.result === "win" ? `${listed(p.winners, names)} won` : `a draw (${words(p.reason)})`}`;
    default: return `${who ?? "The game"}: ${words(event.type)}`;
  }
}

/** Whose move it is, in one line. */
export function headline(view, names) {
  const { result, current, turn_kind: kind, players } = view.table;
  if (view.status === "finished" && result) {
    if (result.result === "draw") return `Game over: a draw between ${listed(result.winners, names)}`;
    return result.winners.includes(view.you) ? "You win!" : `Game over: ${listed(result.winners, names)} won`;
  }
  if (current === null) return "";
  if (current === view.you) return "Your turn";
  return `Waiting for ${names[current]} (${players[current]}${kind === "bonus" ? ", bonus turn" : ""})`;
}

const matching = (plays, chosen) => plays.filter((command) => chosen.every(([field, value]) => (command[field] ?? null) === value));

/** The next choice: the piece, its destination, then the first follow-up left to differ. */
function nextStep(candidates, chosen) {
  for (const field of STEPS) {
    if (chosen.some(([done]) => done === field)) continue;
    const values = [...new Set(candidates.map((command) => command[field] ?? null))];
    if (field === "piece" || field === "to" || values.length > 1) return { field, values };
  }
  return null;
}

/** A square's place in the drawing order, row by row. */
const order = (square) => Number(square[1]) * 9 + COLUMNS.indexOf(square[0]);

/** The choice a lit square makes, in words, for its button. */
function choiceLabel(field, square, piece) {
  const onto = piece ? `, onto ${pieceName(piece)}` : square === MAZE ? ", the maze" : "";
  if (field === "to") return `Move to ${square}${onto}`;
  if (field === "exit") return `Leave the maze to ${square}${onto}`;
  return field === "place" ? `Put the piece on ${square}` : `Kill the ${pieceName(piece)} at ${square}`;
}

/** The table for `view` and the seat's `legal` commands (null: a spectator or a replay), as taki.js's. */
export function drawTable(view, legal, { act, names, ui, recent }) {
  const table = view.table;
  const plays = legal ? legal.commands.filter((command) => command.type === "djambi.play") : [];
  for (const event of recent) if (event.type === "action_taken") ui.djambiLast = event.payload.moves;
  if (ui.djambi?.version !== view.version) ui.djambi = null; // the game moved on
  const chosen = ui.djambi?.chosen ?? [];
  const step = plays.length ? nextStep(matching(plays, chosen), chosen) : null;

  const redraw = (next, focus) => {
    ui.djambi = next.length ? { version: view.version, chosen: next } : null;
    ui.focus = focus;
    ui.redraw();
  };
  const choose = (field, value) => {
    const next = field === "piece" ? [[field, value]] : [...chosen, [field, value]];
    const left = matching(plays, next);
    if (field !== "piece" && left.length === 1) {
      ui.djambi = null;
      act(left[0]);
      return;
    }
    // the keyboard goes on to the first lit square, or to "Kill no one"
    const first = nextStep(left, next).values.filter(Boolean).sort((a, b) => order(a) - order(b))[0];
    redraw(next, first ? `sq:${first}` : "dj:none");
  };
  const back = () => redraw(chosen.slice(0, -1), `sq:${chosen[chosen.length - 1]?.[1] ?? chosen[0][1]}`);

  return h("div", { class: "djambi" },
    h("div", { class: "dj-main" },
      step && table.current === view.you && composer(step, chosen, back, choose, redraw),
      board(table, step, chosen, ui, choose, back, new Set(step?.field === "piece" || step?.field === "to" ? plays.map((c) => c.piece) : [])),
      h("p", { class: "hint" }, "C chief, A assassin, R reporter, D diplomat, N necromobile, M militant, X corpse; E5 the maze.")),
    h("div", { class: "dj-side" },
      table.result && h("section", { class: "result", "aria-label": "Result" },
        h("h2", {}, table.result.result === "win" ? `${listed(table.result.winners, names)} won` : "A draw"),
        h("p", {}, table.result.reason === "won" ? "The last chief standing." : `Ended: ${words(table.result.reason)}.`)),
      seats(view, names),
      facts(table, names),
      h("ul", { class: "dj-armies", "aria-label": "Armies" }, table.armies.map((army) => h("li", {}, armySwatch(army.color),
        `${army.color} (${ARMIES[army.color]}): ${STATUS[army.status]}${army.controller === null ? "" : ` ${names[army.controller]}`}`))),
      legal && actions(legal.commands, act, ui)));
}

/** The board: a square is a button where it is a choice, else an image of what stands on it. */
function board(table, step, chosen, ui, choose, back, movable) {
  const bySquare = new Map(table.pieces.map((piece) => [piece.square, piece]));
  const status = Object.fromEntries(table.armies.map((army) => [army.color, army.status]));
  const selected = chosen[0]?.[1];
  const lit = new Set(step && step.field !== "piece" ? step.values.filter(Boolean) : []);
  const last = new Set((ui.djambiLast || []).flatMap((move) => [move.origin, move.to]));
  const handlers = new Map();
  const cells = [];
  for (let i = 0; i < 81; i += 1) {
    const [column, row] = [i % 9, Math.floor(i / 9) + 1];
    const square = `${COLUMNS[column]}${row}`;
    const piece = bySquare.get(square);
    const aside = piece?.alive && ["hostage", "orphaned"].includes(status[piece.army]) ? ` (${status[piece.army]})` : "";
    let label = piece ? `${pieceName(piece)}${aside} at ${square}` : null;
    let handler = null;
    if (lit.has(square)) {
      label = choiceLabel(step.field, square, piece);
      handler = () => choose(step.field, square);
    } else if (movable.has(square)) handler = square === selected ? back : () => choose("piece", square);
    if (handler) handlers.set(`sq:${square}`, handler);
    const classes = [(row + column) % 2 ? "dark" : "light", square === MAZE && "maze", last.has(square) && "last",
      lit.has(square) && "lit", movable.has(square) && "movable", square === selected && "selected"];
    cells.push(svg("g", {
      class: `dj-sq ${classes.filter(Boolean).join(" ")}`, transform: `translate(${EDGE + column * CELL} ${EDGE + (row - 1) * CELL})`,
      "data-key": `sq:${square}`, role: handler ? "button" : piece && "img", tabindex: handler && 0,
      "aria-label": label, "aria-pressed": movable.has(square) && String(square === selected),
    },
    svg("rect", { width: CELL, height: CELL, class: "dj-cell" }),
    square === MAZE && svg("path", { d: "M4 4h32v32H4zM10 10h20v20H10z", class: "dj-maze" }),
    piece && pieceImage(piece),
    lit.has(square) && svg("circle", piece ? { cx: 7, cy: 7, r: 5, class: "dj-dot" } : { cx: 20, cy: 20, r: 7, class: "dj-dot" }),
    svg("rect", { x: 2, y: 2, width: 36, height: 36, rx: 3, class: "dj-ring" })));
  }
  const size = EDGE + 9 * CELL + 2;
  const drawing = svg("svg", { viewBox: `0 0 ${size} ${size}`, class: "dj-board", role: "group", "aria-label": "Board, row 1 at the top" },
    [...COLUMNS].map((letter, i) => [svg("text", { x: EDGE + i * CELL + 20, y: EDGE - 5, class: "dj-coord" }, letter),
      svg("text", { x: EDGE / 2, y: EDGE + i * CELL + 24, class: "dj-coord" }, i + 1)]),
    cells);
  const press = (event) => {
    const handler = handlers.get(event.target.closest?.("[data-key]")?.dataset.key);
    if (handler) handler(event.preventDefault());
  };
  drawing.addEventListener("click", press);
  drawing.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") press(event);
    else if (event.key === "Escape" && chosen.length) back();
  });
  return drawing;
}

/** The move so far in the notation and what is asked next; "Kill no one", Back and Cancel. */
function composer(step, chosen, back, choose, redraw) {
  const done = Object.fromEntries(chosen);
  const notation = done.piece ? [`${done.piece}-${done.to ?? "…"}`,
    ...STEPS.slice(2).filter((field) => field in done).map((field) => `${field} ${done[field] ?? "none"}`)].join(" ") : "Your move";
  return h("div", { class: "chooser dj-composer", role: "group", "aria-label": "Your move" },
    h("p", { role: "status" }, `${notation}: ${ASKS[step.field]}${step.field === "piece" ? "." : " Choose a lit square."}`),
    step.field === "report" && step.values.includes(null) && button("Kill no one", () => choose("report", null), { dataset: { key: "dj:none" } }),
    chosen.length > 0 && [button("Back", back), button("Cancel", () => redraw([], `sq:${done.piece}`), { class: "link" })]);
}

/** Each seat: its colour, name, whether it moves, is in power or out, and its time to act. */
function seats(view, names) {
  const table = view.table;
  return h("ol", { class: "seats-table dj-seats", "aria-label": "Seats" }, table.players.map((color, seat) => {
    return h("li", { class: table.current === seat ? "to-move" : "" },
      armySwatch(color), h("span", { class: "seat-name" }, `${names[seat]} (${color})${seat === view.you ? " · you" : ""}`),
      table.current === seat && h("span", { class: "flag move" }, table.turn_kind === "bonus" ? "to move (bonus turn)" : "to move"),
      table.in_power === seat && h("span", { class: "flag" }, "in power"),
      !table.remaining.includes(seat) && h("span", { class: "flag" }, "out"),
      seatClock(view, seat), seatCivility(view, seat));
  }));
}

/** Who is in power, the order of play, the counter toward a draw, the draw offer. */
function facts(table, names) {
  const ruler = table.in_power;
  const hostage = table.armies.find((army) => army.status === "hostage");
  return h("ul", { class: "dj-facts", "aria-label": "Turn and power" },
    h("li", {}, `In power: ${ruler === null ? "nobody (no chief in the maze)" : `${names[ruler]} (${table.players[ruler]})`}`),
    !table.result && h("li", {}, `Order of play: ${table.remaining.map((seat) => `${table.players[seat]} ${names[seat]}`).join(" → ")}`,
      ruler === null ? "" : `, ${names[ruler]} also after each other turn`, hostage ? `; ${hostage.color} is the hostage army` : ""),
    table.no_progress_limit > 0 && h("li", {}, `Turns without a kill: ${table.quiet_turns} of ${table.no_progress_limit}, then a draw`),
    table.draw_offer && h("li", {}, `Draw offered, accepted by ${listed(table.draw_offer, names)}`));
}

/** The draw offer's buttons, and resigning, asked twice. */
function actions(commands, act, ui) {
  const resign = commands.find((command) => command.type === "djambi.resign");
  const buttons = commands.filter((command) => ACTIONS[command.type]).map((command) => button(ACTIONS[command.type], () => act(command)));
  const leave = resign && askedTwice(ui, act, resign,
    { ask: "Resign…", question: "Resign for good? Your chief dies where it stands.", yes: "Yes, resign" });
  return (buttons.length > 0 || leave) && h("section", { class: "actions", "aria-label": "Actions" },
    buttons.length > 0 && h("div", { class: "buttons" }, buttons), leave);
}
