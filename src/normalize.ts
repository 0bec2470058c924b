/**
 * Percent-encoding for callers that hold raw URLs. The engine compares URLs as they appear on the
 * wire (Google's parser requires escaped URLs); `encodeUrl` turns a raw URL, possibly with
 * non-ASCII characters or spaces, into the form a browser or crawler requests, without touching
 * existing escapes.
 */
import { assertUrl } from "./options.js";

const HEX = "0123456789ABCDEF";

/**
 * What the WHATWG URL standard percent-encodes in each part of an http(s) URL, besides controls,
 * space and bytes >= 0x7F (its "C0 control percent-encode set"): what crawlers built on a URL
 * parser send. The rest stays raw (`|`, `^`, and `{}` in a query), as patterns keep it raw.
 */
const PART_ESCAPES = {
  path: '"<>`{}',
  query: "\"<>'",
  fragment: '"<>`',
} as const;

type UrlPart = keyof typeof PART_ESCAPES;

const QUESTION = 0x3f;
const HASH = 0x23;

/**
 * Percent-encodes the bytes of the URL's UTF-8 form that the WHATWG URL standard encodes in the
 * part they are in: the path (up to the first `?` or `#`; the scheme and host before it count as path), the query (up to the first `#`) or the
 * fragment. Nothing else changes: `%` is kept (existing escapes stay as they are), and unlike a URL
 * parser it does not resolve `.` segments, turn `\` into `/`, lower-case the host or drop tabs.
 */
export function encodeUrl(url: string): string {
  assertUrl(url);
  let part: UrlPart = "path";
  let out = "";
  for (const byte of new TextEncoder().encode(url)) {
    out += mustEscape(byte, part) ? `%${HEX[byte >> 4]}${HEX[byte & 15]}` : String.fromCharCode(byte);
    if (byte === HASH && part !== "fragment") part = "fragment";
    else if (byte === QUESTION && part === "path") part = "query";
  }
  return out;
}

function mustEscape(byte: number, part: UrlPart): boolean {
  return byte <= 0x20 || byte >= 0x7f || PART_ESCAPES[part].includes(String.fromCharCode(byte));
}
