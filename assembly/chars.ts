// Byte classes used by the parser and the matcher. Every predicate is ASCII-only on purpose:
// robots.txt keys, agent tokens and percent escapes are ASCII; other bytes pass through as data.

export const enum Char {
  TAB = 0x09,
  LF = 0x0a,
  VT = 0x0b,
  FF = 0x0c,
  CR = 0x0d,
  SPACE = 0x20,
  HASH = 0x23,
  DOLLAR = 0x24,
  PERCENT = 0x25,
  STAR = 0x2a,
  MINUS = 0x2d,
  DOT = 0x2e,
  SLASH = 0x2f,
  DIGIT_0 = 0x30,
  COLON = 0x3a,
  SEMICOLON = 0x3b,
  QUESTION = 0x3f,
  UNDERSCORE = 0x5f,
  TILDE = 0x7e,
}

/** Whitespace trimmed around keys and values: absl::StripAsciiWhitespace (space, \t, \v, \f; \n and \r never reach a line). */
// @ts-ignore: decorator
@inline export function isTrimmable(c: u32): bool {
  return c == Char.SPACE || c - Char.TAB < 5;
}

/** Whitespace that may stand in for a missing colon: only space and tab (Google-specific). */
// @ts-ignore: decorator
@inline export function isBlank(c: u32): bool {
  return c == Char.SPACE || c == Char.TAB;
}

// @ts-ignore: decorator
@inline export function isAlpha(c: u32): bool {
  return (c | 0x20) - 0x61 < 26;
}

/** Bytes a user-agent token may hold: [a-zA-Z_-]. */
// @ts-ignore: decorator
@inline export function isAgentChar(c: u32): bool {
  return isAlpha(c) || c == Char.MINUS || c == Char.UNDERSCORE;
}

// @ts-ignore: decorator
@inline export function toLower(c: u32): u32 {
  return c - 0x41 < 26 ? c | 0x20 : c;
}

// @ts-ignore: decorator
@inline export function toUpper(c: u32): u32 {
  return c - 0x61 < 26 ? c & 0xdf : c;
}

// @ts-ignore: decorator
@inline export function isHexDigit(c: u32): bool {
  return c - 0x30 < 10 || (c | 0x20) - 0x61 < 6;
}

/** Value of a hex digit already known to be one. */
// @ts-ignore: decorator
@inline export function hexValue(c: u32): u32 {
  return c - 0x30 < 10 ? c - 0x30 : (c | 0x20) - 0x61 + 10;
}

/** Upper-case hex digit for a nibble. */
// @ts-ignore: decorator
@inline export function hexDigit(nibble: u32): u32 {
  return nibble < 10 ? nibble + 0x30 : nibble + 0x37;
}

/** RFC 3986 unreserved characters: A-Z a-z 0-9 - . _ ~ (RFC 9309 2.2.2 decodes only these). */
// @ts-ignore: decorator
@inline export function isUnreserved(c: u32): bool {
  return isAlpha(c) || c - 0x30 < 10 || c == Char.MINUS || c == Char.DOT || c == Char.UNDERSCORE || c == Char.TILDE;
}

/** ASCII case-insensitive comparison of `len` bytes at `a` with the lower-case literal at `lower`. */
export function startsWithLower(a: usize, aLen: usize, lower: string): bool {
  const n = <usize>lower.length;
  if (aLen < n) return false;
  for (let i: usize = 0; i < n; i++) {
    if (toLower(load<u8>(a + i)) != <u32>lower.charCodeAt(<i32>i)) return false;
  }
  return true;
}

/** Exact ASCII case-insensitive equality with a lower-case literal. */
export function equalsLower(a: usize, aLen: usize, lower: string): bool {
  return aLen == <usize>lower.length && startsWithLower(a, aLen, lower);
}
