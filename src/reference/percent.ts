/**
 * Percent-encoding of patterns and paths (decisions 11, 12, 18).
 */
import type { ByteString } from "./bytes.js";

const PERCENT = 0x25;
const STAR = 0x2a;
const DOLLAR = 0x24;
const HEX_DIGITS = "0123456789ABCDEF";

export function isHexDigit(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x46) || (code >= 0x61 && code <= 0x66);
}

function hexValue(code: number): number {
  if (code <= 0x39) return code - 0x30;
  return (code | 0x20) - 0x61 + 10;
}

/** RFC 3986 unreserved characters: `A-Z a-z 0-9 - . _ ~`. */
export function isUnreserved(code: number): boolean {
  return (
    (code >= 0x41 && code <= 0x5a) ||
    (code >= 0x61 && code <= 0x7a) ||
    (code >= 0x30 && code <= 0x39) ||
    code === 0x2d ||
    code === 0x2e ||
    code === 0x5f ||
    code === 0x7e
  );
}

/** `%XX` with upper-case hex digits for one byte. */
export function percentEncodeByte(byte: number): string {
  return "%" + HEX_DIGITS[byte >> 4] + HEX_DIGITS[byte & 0x0f];
}

/** Whether `text` has a well-formed escape (`%` and two hex digits) at `i`. */
function escapeAt(text: ByteString, i: number): boolean {
  return text.charCodeAt(i) === PERCENT && isHexDigit(text.charCodeAt(i + 1)) && isHexDigit(text.charCodeAt(i + 2));
}

/**
 * Decision 11 (Google's `MaybeEscapePattern`, both profiles): read left to right, an escape
 * `%xx` gets upper-case hex digits and is passed over as a unit; a byte >= 0x80 becomes `%XX`;
 * every other byte is kept (so a space stays a space).
 */
export function escapePattern(value: ByteString): ByteString {
  let out = "";
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (escapeAt(value, i)) {
      out += "%" + value.slice(i + 1, i + 3).toUpperCase();
      i += 2;
    } else if (code >= 0x80) {
      out += percentEncodeByte(code);
    } else {
      out += value[i];
    }
  }
  return out;
}

/**
 * RFC 9309 2.2.2, decision 12: applied to an already escaped pattern. An escape of an unreserved
 * character is decoded; every other escape is kept (its hex is upper-case already). `*` stays an
 * operator, and so does a final `$`; a `$` anywhere else is a literal byte, written `%24` because
 * that is how the normalised URL spells a `$`.
 */
export function normalisePatternRfc9309(escaped: ByteString): ByteString {
  let out = "";
  for (let i = 0; i < escaped.length; i++) {
    const isLastByte = i === escaped.length - 1;
    if (escapeAt(escaped, i)) {
      out += decodeEscapeIfUnreserved(escaped, i);
      i += 2;
    } else if (escaped.charCodeAt(i) === DOLLAR && !isLastByte) {
      out += percentEncodeByte(DOLLAR);
    } else {
      out += escaped[i];
    }
  }
  return out;
}

/**
 * RFC 9309 2.2.2, decision 18: the URL path brought to the same form as a normalised pattern.
 * Escapes of unreserved characters are decoded, other escapes get upper-case hex, bytes >= 0x80
 * are encoded, and a literal `*` or `$` becomes `%2A` / `%24` so that it can only be matched by
 * a pattern that spells it `%2A` / `%24` (in a pattern, `*` and `$` are operators). Malformed
 * escapes (`%2`, `%zz`) and every other byte, NUL included, are kept.
 */
export function normalisePathRfc9309(path: ByteString): ByteString {
  let out = "";
  for (let i = 0; i < path.length; i++) {
    const code = path.charCodeAt(i);
    if (escapeAt(path, i)) {
      out += decodeEscapeIfUnreserved(path, i);
      i += 2;
    } else if (code >= 0x80 || code === STAR || code === DOLLAR) {
      out += percentEncodeByte(code);
    } else {
      out += path[i];
    }
  }
  return out;
}

/** The escape at `i`: its character if unreserved, else the escape with upper-case hex. */
function decodeEscapeIfUnreserved(text: ByteString, i: number): string {
  const byte = hexValue(text.charCodeAt(i + 1)) * 16 + hexValue(text.charCodeAt(i + 2));
  return isUnreserved(byte) ? String.fromCharCode(byte) : percentEncodeByte(byte);
}
