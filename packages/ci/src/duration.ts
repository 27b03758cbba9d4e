/**
 * Durations as 8.x reads `artifacts:expire_in` (the `chronic_duration` gem with
 * `raise_exceptions` on): numbers followed by units (`1 week`, `3 mins 4 sec`, `2h20min`,
 * `1 day and 2 hours`), or `hh:mm:ss`. A unit without a number counts one; a number without a unit
 * counts seconds. Unknown words, and a total of zero, are not durations. (The gem's number words,
 * `one week`, are not read.)
 */
const UNITS: Readonly<Record<string, number>> = {
  seconds: 1,
  minutes: 60,
  hours: 3600,
  days: 86_400,
  weeks: 604_800,
  months: 2_592_000,
  years: 31_557_600,
};

const UNIT_WORDS: Readonly<Record<string, keyof typeof UNITS>> = {
  seconds: "seconds",
  second: "seconds",
  secs: "seconds",
  sec: "seconds",
  s: "seconds",
  minutes: "minutes",
  minute: "minutes",
  mins: "minutes",
  min: "minutes",
  m: "minutes",
  hours: "hours",
  hour: "hours",
  hrs: "hours",
  hr: "hours",
  h: "hours",
  days: "days",
  day: "days",
  dy: "days",
  d: "days",
  weeks: "weeks",
  week: "weeks",
  wks: "weeks",
  wk: "weeks",
  w: "weeks",
  months: "months",
  month: "months",
  mo: "months",
  mos: "months",
  years: "years",
  year: "years",
  yrs: "years",
  yr: "years",
  y: "years",
};

const JOIN_WORDS = new Set(["and", "with", "plus"]);
const NUMBER = /[0-9]*\.?[0-9]+/;
const NUMBERS = /[0-9]*\.?[0-9]+/g;
const CLOCK = /[0-9]*\.?[0-9]+(?::[0-9]*\.?[0-9]+)+/;
/** The units of `hh:mm:ss`, from the right (weeks are skipped, as the gem does). */
const CLOCK_UNITS = ["seconds", "minutes", "hours", "days", "months", "years"];

/** The number of seconds `text` stands for, or null when it is not a duration 8.x accepts. */
export function durationSeconds(text: string): number | null {
  const clock = fromClock(text.toLowerCase());
  if (clock === null) return null;
  const words = clock
    .replace(NUMBERS, (n) => ` ${n} `)
    .split(/\s+/)
    .filter(Boolean);
  const tokens: string[] = [];
  for (const word of words) {
    if (NUMBER.test(word)) {
      tokens.push(word);
      continue;
    }
    const stripped = word.replace(/^,/, "").replace(/,$/, "");
    const unit = UNIT_WORDS[stripped];
    if (unit) tokens.push(unit);
    else if (!JOIN_WORDS.has(stripped)) return null;
  }
  if (tokens[0] !== undefined && tokens[0] in UNITS) tokens.unshift("1");
  let seconds = 0;
  tokens.forEach((token, index) => {
    if (!NUMBER.test(token)) return;
    const unit = tokens[index + 1] ?? "seconds";
    seconds += Number(token.match(NUMBER)![0]) * (UNITS[unit] ?? 0);
  });
  return seconds === 0 || !Number.isFinite(seconds) ? null : seconds;
}

/** `1:30:00` as `1 hours 30 minutes 00 seconds`; null past years; other text as it is. */
function fromClock(text: string): string | null {
  const compact = text.replaceAll(" ", "");
  if (!CLOCK.test(compact)) return text;
  const parts = compact.split(":").reverse();
  if (parts.length > CLOCK_UNITS.length) return null;
  return parts
    .map((part, index) => `${part} ${CLOCK_UNITS[index]}`)
    .reverse()
    .join(" ");
}
