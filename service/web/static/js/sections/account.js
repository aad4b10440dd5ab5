// The signed-in player's account, below their inbox: a vacation, during which their clocks stand
// still, with the days left of their yearly allowance, and the time zone of their weekends; their mail (mail.js), and the webhooks their notifications are
// POSTed to (as signed JSON, or as a line for a Discord or Slack channel), with the log of every
// delivery attempt. A refusal shows the server's message next to the field it names.

import * as api from "../api.js";
import { button, fill, h, notice, perform, problemNotice } from "../dom.js";
import { clearErrors, field, refused, showErrors } from "../forms.js";
import { drawMail } from "../mail.js";

const DAY_MS = 86_400_000;
const LOGGED = 20; // delivery attempts shown, newest first

const KINDS = {
  your_turn: "Your turn", reminder: "Reminder", deadline_applied: "Deadline applied",
  game_over: "Game over", game_cancelled: "Game cancelled",
};

const FORMATS = { meeple: "JSON, signed (for a program)", discord: "Discord channel", slack: "Slack channel" };
const when = (ms) => new Date(ms).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
const stamp = (ms) => h("time", { datetime: new Date(ms).toISOString() }, when(ms));

/** A datetime-local input's value for a time in ms: the browser's local time, to the minute. */
function localValue(ms) {
  return new Date(ms - new Date(ms).getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

/** Draw the player's vacation and webhooks, then the page's `parts`, into `section`, each folded until opened. */
export async function drawAccount(section, me, ...parts) {
  const vacation = h("details", {});
  const webhooks = h("details", {});
  const title = h("h2", { id: "settings-title" }, "Vacation and webhooks");
  fill(section, title, vacation, drawMail(me), webhooks, ...parts);
  let answers;
  try {
    answers = await Promise.all([api.me(me.token), api.webhooks(me.token)]);
  } catch (problem) {
    fill(section, title, problemNotice(problem));
    return;
  }
  const [found, listed] = answers;
  drawVacation(vacation, me, found);
  drawWebhooks(webhooks, me, listed.webhooks);
}

const dayCount = (days) => `${days} vacation ${days === 1 ? "day" : "days"}`;

/** The player's time zone, and a button to take this device's when they differ. */
function drawTimeZone(me, zone) {
  const here = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const line = h("p", { class: "hint" });
  const show = (current) => fill(line, `Clocks that stop on weekends stop on yours, in ${current}. `,
    here && here !== current ? button(`Use ${here}`, async () => {
      if (await perform(line, () => api.setTimeZone(here, me.token))) show(here);
    }, { class: "link" }) : null);
  show(zone);
  return line;
}

function drawVacation(details, me, found) {
  const summary = h("summary", {});
  const status = h("p", { role: "status" });
  const until = h("input", { type: "datetime-local", name: "until" });
  const away = field("until", "Away until", until, "Your local time, within a year from now.");
  const save = h("button", { type: "submit", class: "primary" });
  const end = h("button", { type: "button" }, "End vacation now");
  const message = h("div", { class: "messages" });
  const form = h("form", { novalidate: true, "aria-label": "Vacation" }, away, h("div", { class: "buttons" }, save, end));
  fill(details, summary,
    h("p", { class: "hint" }, `While you are away, every clock of yours stands still (a per-move deadline waits up to `
      + `the days its game allows); other players see that you are away, not until when. You have `
      + `${dayCount(found.vacation_days_per_year)} a year: each day you are away spends one, and when a clock of yours `
      + "would run out, a day is spent for you."),
    status, form, message, drawTimeZone(me, found.time_zone));

  const show = ({ vacation_until: vacationUntil, vacation_days_left: left }) => {
    const on = vacationUntil !== null && vacationUntil > Date.now(); // an ended vacation may linger
    fill(summary, "Vacation: ", on ? ["away until ", stamp(vacationUntil)] : "not away", ` · ${dayCount(left)} left`);
    fill(status, on ? ["You are on vacation until ", stamp(vacationUntil), "."] : "You are not on vacation.",
      ` ${dayCount(left)} left this year.`);
    fill(save, on ? "Change the end" : "Go on vacation");
    end.hidden = !on;
    until.value = localValue(on ? vacationUntil : Date.now() + 7 * DAY_MS);
  };
  show(found);

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearErrors(form);
    fill(message);
    const chosen = new Date(until.value).getTime(); // a datetime-local value without an offset is local time
    if (Number.isNaN(chosen)) {
      showErrors(form, { until: ["Choose the day and time you are back."] }, message);
      return;
    }
    try {
      show(await api.startVacation(chosen, me.token));
    } catch (problem) {
      refused(problem, form, message);
    }
  });
  end.addEventListener("click", async () => {
    clearErrors(form);
    const ended = await perform(message, async () => {
      await api.endVacation(me.token);
      show(await api.me(me.token));
    });
    if (!ended) return;
    save.focus(); // the button pressed is gone
  });
}

function drawWebhooks(details, me, listed) {
  const url = h("input", { type: "url", name: "url", maxlength: 2048, autocomplete: "off", spellcheck: "false",
    placeholder: "https://example.com/meeple" });
  const hooks = {
    me, url, listed,
    summary: h("summary", {}),
    list: h("ul", { class: "hooks", "aria-label": "Your webhooks" }),
    message: h("div", { class: "messages" }),
    secret: h("section", { class: "secret", tabindex: "-1", "aria-labelledby": "secret-title", hidden: true }),
    log: h("ol", { class: "deliveries", "aria-label": "Latest deliveries" }),
  };
  hooks.format = h("select", { name: "format" }, Object.entries(FORMATS).map(([value, text]) => h("option", { value }, text)));
  const address = field("url", "Webhook URL", url, "A public http(s) address, or a Discord or Slack channel's "
    + "incoming webhook; each notification is POSTed to it.");
  const form = h("form", { novalidate: true, "aria-label": "Add a webhook" }, address,
    field("format", "What to send", hooks.format, "A chat's channel hears a line with the game's link."),
    h("button", { type: "submit", class: "primary" }, "Add webhook"));
  const refresh = h("button", { type: "button" }, "Refresh");
  fill(details, hooks.summary,
    h("p", { class: "hint" }, "Your turn, reminders, deadlines applied, games over and cancelled: each notification "
      + "is POSTed to every webhook here."),
    hooks.list, form, hooks.message, hooks.secret,
    h("div", { class: "log-head" }, h("h3", {}, "Latest deliveries"), refresh),
    h("p", { class: "hint" }, "Every attempt, newest first. One not answered 2xx is tried again a few times, "
      + "a little later each time."),
    hooks.log);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    addHook(hooks, form);
  });
  refresh.addEventListener("click", () => readLog(hooks));
  drawHooks(hooks);
  readLog(hooks);
}

function drawHooks(hooks) {
  const { listed } = hooks;
  fill(hooks.summary, "Webhooks: ", listed.length ? String(listed.length) : "none");
  fill(hooks.list, listed.length ? listed.map((hook) => h("li", {},
    h("code", {}, hook.url), " ", h("span", { class: "hint" }, FORMATS[hook.format], ", added ", stamp(hook.created)),
    h("button", { type: "button", "aria-label": `Remove webhook ${hook.url}`, onclick: () => removeHook(hooks, hook) }, "Remove")))
    : h("li", { class: "empty" }, "No webhooks yet."));
}

async function addHook(hooks, form) {
  const { url, message, secret } = hooks;
  clearErrors(form);
  fill(message);
  secret.hidden = true;
  let added;
  try {
    added = await api.addWebhook(url.value.trim(), hooks.format.value, hooks.me.token);
  } catch (problem) {
    refused(problem, form, message);
    return;
  }
  hooks.listed = [...hooks.listed, { id: added.id, url: added.url, format: added.format, created: added.created }];
  drawHooks(hooks);
  url.value = "";
  if (added.format === "meeple") showSecret(secret, added, url);
  else fill(message, notice(`Added: the channel will hear whose move it is, with the game's link.`));
}

async function removeHook(hooks, hook) {
  const { message } = hooks;
  if (!(await perform(message, () => api.removeWebhook(hook.id, hooks.me.token)))) return;
  hooks.listed = hooks.listed.filter((kept) => kept.id !== hook.id);
  drawHooks(hooks);
  fill(message, notice(`Removed: nothing more is sent to ${hook.url}.`));
  hooks.url.focus();
}

async function readLog(hooks) {
  const { log } = hooks;
  log.setAttribute("aria-busy", "true");
  try {
    const { deliveries } = await api.deliveries(LOGGED, hooks.me.token);
    const known = new Map(hooks.listed.map((hook) => [hook.id, hook.url]));
    fill(log, deliveries.length ? deliveries.map((entry) => attempt(entry, known))
      : h("li", { class: "empty" }, "No delivery attempts yet."));
  } catch (problem) {
    fill(log, h("li", {}, problemNotice(problem)));
  }
  log.setAttribute("aria-busy", "false");
}

/** The new webhook's signing secret, which the server tells once, and how a receiver checks it. */
function showSecret(secret, added, next) {
  const done = h("button", { type: "button" }, "I have copied it");
  done.addEventListener("click", () => {
    fill(secret);
    secret.hidden = true;
    next.focus();
  });
  fill(secret,
    h("h3", { id: "secret-title" }, "Signing secret for ", h("code", {}, added.url)),
    h("p", {}, h("strong", {}, "Copy it now: it will not be shown again.")),
    h("code", { class: "secret-value" }, added.secret),
    h("p", {}, "Each delivery carries a header ", h("code", {}, "Meeple-Signature: t=<unix time>,v1=<signature>"),
      ", the signature being the hex HMAC-SHA256 of “<t>.<body>” keyed with this secret: recompute it, "
      + "and refuse an old t."),
    done);
  secret.hidden = false;
  secret.focus();
}

/** One delivery attempt: when, what about, to which webhook, and how it went (a mark beside the colour). */
function attempt(entry, urls) {
  const [text, kind] = outcome(entry);
  const to = urls.get(entry.webhook);
  return h("li", {},
    h("div", {}, stamp(entry.at), " · ", h("strong", {}, KINDS[entry.kind] || entry.kind), " · ",
      h("a", { href: `/games/${encodeURIComponent(entry.game_id)}` }, "game ", entry.game_id)),
    h("div", { class: "to" }, "to ", to ? h("code", {}, to) : `webhook ${entry.webhook} (removed)`),
    h("div", { class: `outcome ${kind}` }, text));
}

function outcome({ status, error }) {
  if (error === null) return [`✓ Delivered: answered HTTP ${status}`, "ok"];
  if (error === "status") return [`✗ Not delivered: answered HTTP ${status}`, "bad"];
  if (error === "address_refused") return ["✗ Not sent: its host has no public address", "bad"];
  if (error === "invalid_url") return ["✗ Not sent: the URL is not valid", "bad"];
  return [`✗ Not reached: ${error}`, "bad"];
}
