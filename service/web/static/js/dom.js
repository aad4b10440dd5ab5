// Building the DOM: elements from a tag, attributes and children, so that no page holds HTML strings.

import { durationWords, roughly } from "./durations.js";

/** An element: `h("button", {class: "x", onclick: f}, "Draw")`; null and false children are skipped. */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith("on")) element.addEventListener(name.slice(2), value);
    else if (name === "dataset") Object.assign(element.dataset, value);
    else element.setAttribute(name, value === true ? "" : String(value));
  }
  append(element, children);
  return element;
}

const SVG = "http://www.w3.org/2000/svg";

/** An SVG element, attributes and children as `h` takes them. */
export function svg(tag, attributes = {}, ...children) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes || {})) {
    if (value !== null && value !== undefined && value !== false) element.setAttribute(name, String(value));
  }
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Put `children` in place of what `element` holds. */
export function fill(element, ...children) {
  element.replaceChildren();
  append(element, children);
  return element;
}

/** A message line for a problem or a success: role status (polite) or alert. */
export function notice(text, kind = "info") {
  return h("p", { class: `notice ${kind}`, role: kind === "error" ? "alert" : "status" }, text);
}

/** A refused request's notice: the server's detail, else the error's own message. */
export const problemNotice = (problem) => notice(problem.detail || problem.message, "error");

/** Do `work` with `message` emptied, there saying why if it is refused; answers whether it was done. */
export async function perform(message, work) {
  fill(message);
  try {
    await work();
    return true;
  } catch (problem) {
    fill(message, problemNotice(problem));
    return false;
  }
}

/** "2 days left", "3 hours 2 minutes left", "45 seconds left", "time is up" for a time in milliseconds since the epoch. */
export function countdown(at, now = Date.now()) {
  const left = Math.round((at - now) / 1000);
  return left <= 0 ? "time is up" : `${durationWords(roughly(left))} left`;
}

/** A button that does `onclick`: `button("Draw", draw, {class: "link"})`. */
export const button = (text, onclick, attributes = {}) => h("button", { type: "button", onclick, ...attributes }, text);

/** A link that asks before it leaves the game for good: `ask` opens the `question`, whose `yes`
 * sends `command` by `act`; `ui.confirmLeave` keeps the question open across redraws. */
export function askedTwice(ui, act, command, { ask, question, yes }) {
  const open = (asked) => () => ui.redraw((ui.confirmLeave = asked));
  return ui.confirmLeave
    ? h("span", { class: "confirm" }, `${question} `, button(yes, () => act(command), { class: "danger" }),
      button("No", open(false), { class: "link" }))
    : button(ask, open(true), { class: "link" });
}

const THEN = { skip: "then the turn is skipped", auto: "then the AI plays it", forfeit: "then the seat leaves the game" };

/** A time to act at `at` (ms since the epoch), counting down until `stops` if given (a clock's weekend
 * begins); `policy` (a view's deadline's) says what happens then. */
export function deadlineTag(at, policy = null, kind = "deadline", stops = null) {
  const dataset = stops === null ? { deadline: at } : { deadline: at, stops };
  return h("time", { class: kind, datetime: new Date(at).toISOString(), title: THEN[policy] ?? null, dataset },
    countdown(at, counted(dataset)));
}

/** The moment a countdown's `dataset` stands at: now, or when its clock stopped. */
const counted = (dataset) => Math.min(Date.now(), Number(dataset.stops ?? Infinity));

/** A view's deadlines by seat: {seat, at, policy}. */
const deadlinesBySeat = (view) => new Map((view.deadlines || []).map((entry) => [entry.seat, entry]));

const STOPPED = { vacation: "on vacation", weekend: "weekend" };
const ENDS = new WeakMap(); // a running clock of a view → when it runs out by this browser's clock, fixed as first drawn

/** The seat's clock in a view with a time control, counting down while it runs ("2 days left",
 * "3 hours left · on vacation", or the time it keeps, "5 days"); else its deadline, if any. */
export function seatClock(view, seat) {
  const clock = view.clocks?.[seat];
  if (!clock) {
    const due = deadlinesBySeat(view).get(seat);
    return due && due.at !== null ? deadlineTag(due.at, due.policy) : null;
  }
  const words = durationWords(roughly(Math.round(clock.remaining / 1000)));
  if (clock.running) {
    if (!ENDS.has(clock)) ENDS.set(clock, Date.now() + clock.remaining); // a redraw of the same view counts on
    return deadlineTag(ENDS.get(clock), view.turn_deadline.policy, "deadline clock", clock.stops_at ?? null);
  }
  const waiting = view.to_move.includes(seat);
  return h("span", { class: `clock${waiting ? " stopped" : ""}` }, waiting ? `${words} left · ${STOPPED[clock.paused] ?? "stopped"}` : words);
}

/** Live countdowns: every `time[data-deadline]` under the document is rewritten each second. */
export function tickCountdowns() {
  for (const element of document.querySelectorAll("[data-deadline]")) {
    element.textContent = countdown(Number(element.dataset.deadline), counted(element.dataset));
  }
}
