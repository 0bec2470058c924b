/** Typed readings of records that Google ignores but other crawlers honour. */
import { assertText } from "./errors.js";

/**
 * Digits with an optional fraction. Written so that no two parts can take the same digits: the
 * form `\d+\.?\d*` backtracked through every split of a long run of digits that ended in a
 * non-digit (80,000 digits: 2 s).
 */
const DECIMAL = /^(?:\d+(?:\.\d*)?|\.\d+)$/;

/**
 * A crawl-delay in seconds: a non-negative decimal number (`5`, `0.5`, `10.`, `.5`), else
 * undefined; `Infinity` for digits past a double's range (a site that asks for "never" gets it).
 */
export function parseCrawlDelay(value: string): number | undefined {
  assertText(value, "a crawl-delay value");
  return DECIMAL.test(value) ? Number(value) : undefined;
}

/** A request-rate `n/T` with an optional unit (`1/5`, `1/10s`, `3/1m`, `1/1h`): requests per `seconds`. */
export function parseRequestRate(value: string): { requests: number; seconds: number } | undefined {
  assertText(value, "a request-rate value");
  const match = /^(\d+)\s*\/\s*(\d+)\s*([smh]?)$/i.exec(value);
  if (match === null) return undefined;
  const unit = match[3].toLowerCase();
  const scale = unit === "m" ? 60 : unit === "h" ? 3600 : 1;
  return { requests: Number(match[1]), seconds: Number(match[2]) * scale };
}
