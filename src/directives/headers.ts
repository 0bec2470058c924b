/**
 * X-Robots-Tag values from the forms HTTP stacks hand them over in. Repeated headers arrive joined
 * with ", " from Node's `message.headers` and fetch's `Headers.get` (RFC 9110 5.3), as an array from
 * Node's `headersDistinct`, or as separate strings; the list reader copes with all of them.
 */
import { RobotsError } from "../errors.js";
import type { HeaderInput, HeadersLike } from "./types.js";

const HEADER_NAME = "x-robots-tag";

function invalid(what: string): RobotsError {
  return new RobotsError(
    "ROBOTS_ERR_INVALID_OPTION",
    `headers must be a string, an array of strings, a fetch Headers or a header record; got ${what}`,
  );
}

function isHeadersLike(value: object): value is HeadersLike {
  return typeof (value as { get?: unknown }).get === "function";
}

/** One header's value: a string or number, or an array of them (one per header line), not nested. */
function pushValue(values: string[], value: unknown, nested = false): void {
  if (value === undefined) return;
  if (typeof value === "string") values.push(value);
  else if (typeof value === "number") values.push(String(value));
  else if (Array.isArray(value) && !nested) for (const item of value) pushValue(values, item, true);
  else throw invalid(nested ? `an X-Robots-Tag array holding ${Array.isArray(value) ? "an array" : typeof value}` : `an X-Robots-Tag value of type ${typeof value}`);
}

/**
 * The X-Robots-Tag values of `headers`, one string per value as given (a string is one value; an
 * array holds one value per header line; a Headers object or record is searched case-insensitively).
 */
export function xRobotsTagValues(headers: HeaderInput | null | undefined): string[] {
  if (headers === undefined || headers === null) return [];
  if (typeof headers === "string") return [headers];
  if (typeof headers !== "object") throw invalid(typeof headers);
  const values: string[] = [];
  if (Array.isArray(headers)) {
    for (const value of headers) {
      if (typeof value !== "string") throw invalid(`an array holding ${typeof value}`);
      values.push(value);
    }
    return values;
  }
  if (isHeadersLike(headers)) {
    const value = headers.get(HEADER_NAME);
    if (value !== null && value !== undefined) pushValue(values, value);
    return values;
  }
  for (const [name, value] of Object.entries(headers)) {
    if (name.toLowerCase() === HEADER_NAME) pushValue(values, value);
  }
  return values;
}

/**
 * Splits a header line given as `Name: value`; returns the value when the name is X-Robots-Tag, in
 * any case and with spaces around it (a pasted line; RFC 9110 would refuse a space before the colon
 * in a message, but here it can only mean this header).
 */
export function xRobotsTagFromLine(line: string): string | undefined {
  const colon = line.indexOf(":");
  if (colon < 0 || line.slice(0, colon).trim().toLowerCase() !== HEADER_NAME) return undefined;
  return line.slice(colon + 1).trim();
}
