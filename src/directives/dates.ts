/**
 * Dates of `unavailable_after`. Google accepts "a widely adopted format including, but not limited
 * to RFC 822, RFC 850, and ISO 8601", and its own example is `25 Jun 2010 15:00:00 PST`. Accepted:
 *
 * - RFC 822 / RFC 1123 / RFC 9110 IMF-fixdate: `Wed, 03 Dec 2025 13:09:53 GMT` (weekday optional,
 *   seconds optional, 2- or 4-digit year, zone GMT/UT/UTC/Z, a US zone name, or ±hhmm);
 * - Google's form: `25 Jun 2010 15:00:00 PST` (RFC 822 without the weekday);
 * - RFC 850: `Wednesday, 03-Dec-25 13:09:53 GMT`;
 * - asctime: `Wed Dec  3 13:09:53 2025` (UTC);
 * - ISO 8601: `2025-12-03`, `2025-12-03T13:09:53`, with fractions and `Z` or ±hh:mm / ±hhmm / ±hh.
 *   A date alone is 00:00 UTC; a date-time without offset is read as UTC.
 *
 * Two-digit years: the year with those digits from 49 years before `now` to 50 after (RFC 9110
 * 5.6.7), `now` being when the value was received: the caller's, or the clock's.
 */
import { assertText, RobotsError } from "../errors.js";

/**
 * A time given as `now` (a Date, from another realm too, read with Date's own getter; or a number
 * of milliseconds), or the clock's when none is given; a typed error for anything else.
 */
export function timeOption(now: unknown): number {
  let time: unknown = now;
  if (now === undefined) time = Date.now();
  else if (typeof now === "object" && now !== null) {
    try {
      time = Date.prototype.getTime.call(now);
    } catch {
      time = undefined;
    }
  }
  if (typeof time !== "number" || !Number.isFinite(time)) {
    throw new RobotsError("ROBOTS_ERR_INVALID_OPTION", "now must be a valid Date or a number of milliseconds");
  }
  return time;
}

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const FULL_MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];
const WEEKDAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"];
const FULL_WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];

/** RFC 822 5.1 zones and the other US zone names (Alaska, Hawaii), in minutes east of UTC. */
const ZONES: Readonly<Record<string, number>> = {
  gmt: 0, ut: 0, utc: 0, z: 0,
  est: -300, edt: -240, cst: -360, cdt: -300, mst: -420, mdt: -360, pst: -480, pdt: -420,
  akst: -540, akdt: -480, hst: -600, hdt: -540,
};

/** A weekday name, abbreviated or in full, any case (the word before the comma of RFC dates). */
export function isWeekdayName(text: string): boolean {
  const lower = text.toLowerCase();
  return WEEKDAYS.includes(lower) || FULL_WEEKDAYS.includes(lower);
}

function monthIndex(name: string): number {
  const lower = name.toLowerCase();
  const short = MONTHS.indexOf(lower);
  return short >= 0 ? short : FULL_MONTHS.indexOf(lower);
}

/**
 * A year as written; a two-digit one as RFC 9110 5.6.7 reads RFC 850 dates: the year with those
 * digits within 50 years of `time`'s, never more than 50 ahead (in 2026, `76` is 2076 and `77` is
 * 1977; in 2095, `05` is 2105).
 */
function fullYear(digits: string, time: number): number {
  const year = Number(digits);
  if (digits.length !== 2) return year;
  const now = new Date(time).getUTCFullYear();
  const candidate = now - (now % 100) + year;
  if (candidate > now + 50) return candidate - 100;
  return candidate < now - 49 ? candidate + 100 : candidate;
}

/**
 * Milliseconds since the epoch for validated fields, or undefined when any is out of range. Hour
 * 24 is ISO 8601's end of the day (24:00:00, the next day's midnight) and allows nothing after it.
 */
function utcTime(year: number, month: number, day: number, hour: number, minute: number, second: number, millisecond: number, offsetMinutes: number): number | undefined {
  const endOfDay = hour === 24 && minute === 0 && second === 0 && millisecond === 0;
  if (month < 0 || month > 11 || day < 1 || (hour > 23 && !endOfDay) || minute > 59 || second > 59) return undefined;
  // setUTCFullYear, not Date.UTC, which reads years 0 to 99 as 1900 to 1999 (leap years differ).
  const lastDay = new Date(0);
  lastDay.setUTCFullYear(year, month + 1, 0);
  const daysInMonth = lastDay.getUTCDate();
  if (day > daysInMonth) return undefined;
  const date = new Date(0);
  date.setUTCFullYear(year, month, day); // years below 100 are not shifted to 19xx
  date.setUTCHours(hour, minute, second, millisecond);
  const time = date.getTime() - offsetMinutes * 60_000;
  // Past ±8.64e15 ms (about ±275,760 years) a Date is invalid (NaN), which compares false with
  // every date: such a year is no date, as a malformed one.
  return Math.abs(time) <= MAX_DATE_MS ? time : undefined;
}

/** The largest distance from the epoch a Date can hold (ECMAScript 21.4.1.1). */
const MAX_DATE_MS = 8.64e15;

function zoneOffset(zone: string | undefined): number | undefined {
  if (zone === undefined) return 0;
  const numeric = /^([+-])(\d{2}):?(\d{2})?$/.exec(zone);
  if (numeric) {
    const hours = Number(numeric[2]);
    const minutes = Number(numeric[3] ?? 0);
    if (hours > 23 || minutes > 59) return undefined;
    return (numeric[1] === "-" ? -1 : 1) * (hours * 60 + minutes);
  }
  return ZONES[zone.toLowerCase()];
}

/**
 * ISO 8601 extended format (`2025-12-03T13:09:53.5+05:00`); the time to the hour, minute or second;
 * the year in four digits or expanded to six with a sign (`+010000`), as toISOString writes it.
 */
const ISO = /^(\d{4}|[+-]\d{6})-(\d{2})-(\d{2})(?:[Tt ](\d{2})(?::(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?\s*([Zz]|[+-]\d{2}(?::?\d{2})?)?)?$/;
/** ISO 8601 basic format (`20251203`, `20251203T130953Z`, `20251203T1309+0500`). */
const ISO_BASIC = /^(\d{4})(\d{2})(\d{2})(?:[Tt](\d{2})(?:(\d{2})(?:(\d{2})(?:[.,](\d{1,9}))?)?)?\s*([Zz]|[+-]\d{2}(?:\d{2})?)?)?$/;
const RFC = /^(?:([A-Za-z]+)(?:,\s*|\s+))?(\d{1,2})(?:\s+|-)([A-Za-z]+)(?:\s+|-)(\d{4}|\d{2})\s+(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s*([A-Za-z]+|[+-]\d{4}))?$/;
const ASCTIME = /^([A-Za-z]{3})\s+([A-Za-z]{3})\s+(\d{1,2})\s+(\d{2}):(\d{2}):(\d{2})\s+(\d{4})$/;

/**
 * Parses an `unavailable_after` value; undefined when it is not a valid date in an accepted form.
 * `now` (default: the clock) is when the value was received, which a two-digit year is read near.
 */
export function parseDirectiveDate(text: string, now?: Date | number): Date | undefined {
  assertText(text, "a date");
  const received = timeOption(now);
  const value = text.trim();
  let time: number | undefined;
  let match = ISO.exec(value) ?? ISO_BASIC.exec(value);
  if (match) {
    const [, year, month, day, hour, minute, second, fraction, zone] = match;
    const offset = zoneOffset(zone);
    if (offset === undefined) return undefined;
    const millisecond = fraction === undefined ? 0 : Math.floor(Number(`0.${fraction}`) * 1000);
    time = utcTime(Number(year), Number(month) - 1, Number(day), Number(hour ?? 0), Number(minute ?? 0), Number(second ?? 0), millisecond, offset);
  } else if ((match = RFC.exec(value))) {
    const [, weekday, day, month, year, hour, minute, second, zone] = match;
    if (weekday !== undefined && !isWeekdayName(weekday)) return undefined;
    const offset = zoneOffset(zone);
    if (offset === undefined) return undefined;
    time = utcTime(fullYear(year!, received), monthIndex(month!), Number(day), Number(hour), Number(minute), Number(second ?? 0), 0, offset);
  } else if ((match = ASCTIME.exec(value))) {
    const [, weekday, month, day, hour, minute, second, year] = match;
    if (!isWeekdayName(weekday!)) return undefined;
    time = utcTime(Number(year), monthIndex(month!), Number(day), Number(hour), Number(minute), Number(second), 0, 0);
  }
  return time === undefined ? undefined : new Date(time);
}
