// Durations as people say them: entered as a number of days, hours or minutes, and shown in words
// ("2 days", "3 hours", "1 day 6 hours"). The API keeps seconds.

/** The units a duration is entered in, largest first, each with its seconds. */
export const ENTRY_UNITS = [["days", 86400], ["hours", 3600], ["minutes", 60]];

const UNITS = [["day", 86400], ["hour", 3600], ["minute", 60], ["second", 1]];

const counted = (count, unit) => `${count} ${unit}${count === 1 ? "" : "s"}`;

/** `seconds` in its largest unit and the next one: "2 days", "1 day 6 hours", "45 seconds". */
export function durationWords(seconds) {
  const index = Math.max(0, UNITS.findIndex(([, size]) => seconds >= size));
  const [unit, size] = UNITS[index];
  const whole = Math.floor(seconds / size);
  const words = [counted(whole, unit)];
  const next = UNITS[index + 1];
  const part = next ? Math.floor((seconds - whole * size) / next[1]) : 0;
  if (part) words.push(counted(part, next[0]));
  return words.join(" ");
}

/** `seconds` rounded to the smaller of the two units its words show: 47 h 59 min 50 s is "2 days". */
export function roughly(seconds) {
  const index = UNITS.findIndex(([, size]) => seconds >= size);
  const step = index === -1 || index + 1 === UNITS.length ? 1 : UNITS[index + 1][1];
  return Math.round(seconds / step) * step;
}

/** The largest entry unit that counts `seconds` whole, and the count: 172800 is [2, "days"]. */
export function inUnits(seconds) {
  const [unit, size] = ENTRY_UNITS.find(([, each]) => seconds % each === 0) ?? ENTRY_UNITS[ENTRY_UNITS.length - 1];
  return [seconds / size, unit];
}
