/**
 * Percent-encoding for callers that hold raw URLs. The engine compares URLs as they appear on the
 * wire (Google's parser requires escaped URLs); `encodeUrl` turns a raw URL, possibly with
 * non-ASCII characters or spaces, into that form without touching existing escapes.
 */
import { assertUrl } from "./options.js";

const HEX = "0123456789ABCDEF";

/**
 * Percent-encodes every byte of the URL's UTF-8 form that may not appear raw in a URL: bytes >= 0x80,
 * controls, space, `"`, `<`, `>`, `\`, `^`, backtick, `{`, `|`, `}`. `%` is kept (existing
 * escapes stay as they are), as is every reserved character.
 */
export function encodeUrl(url: string): string {
  assertUrl(url);
  let out = "";
  for (const byte of new TextEncoder().encode(url)) {
    out += mustEscape(byte) ? `%${HEX[byte >> 4]}${HEX[byte & 15]}` : String.fromCharCode(byte);
  }
  return out;
}

function mustEscape(byte: number): boolean {
  return byte <= 0x20 || byte >= 0x7f || '"<>\\^`{|}'.includes(String.fromCharCode(byte));
}
