// Byte rewriting of patterns and URL paths. Google escapes patterns only; RFC 9309 also
// normalises percent-encoding on both sides so that equivalent spellings compare equal.

import { Char, hexDigit, hexValue, isHexDigit, isUnreserved, toUpper } from "./chars";
import { findAuthorityEnd, findByte, findEitherByte } from "./scan";
import { Vec } from "./vec";

/**
 * Appends the compiled form of an allow/disallow value to `out` and returns its length.
 * Both profiles (Google's MaybeEscapePattern): `%xx` gets upper-case hex digits, bytes >= 0x80
 * become `%XX`. RFC 9309 2.2.2 additionally: `%XX` of an unreserved character is decoded, and a
 * `$` that is not the final anchor is a literal, written `%24` like the URL side writes it.
 */
export function compilePattern(src: usize, len: usize, rfc: bool, out: Vec): usize {
  const dst = out.reserve(len * 3);
  let j: usize = 0;
  for (let i: usize = 0; i < len; i++) {
    const c = <u32>load<u8>(src + i);
    if (c == Char.PERCENT && i + 2 < len && isHexDigit(load<u8>(src + i + 1)) && isHexDigit(load<u8>(src + i + 2))) {
      const hi = <u32>load<u8>(src + i + 1);
      const lo = <u32>load<u8>(src + i + 2);
      const value = (hexValue(hi) << 4) | hexValue(lo);
      if (rfc && isUnreserved(value)) {
        store<u8>(dst + j++, value);
      } else {
        store<u8>(dst + j++, Char.PERCENT);
        store<u8>(dst + j++, toUpper(hi));
        store<u8>(dst + j++, toUpper(lo));
      }
      i += 2;
    } else if (c >= 0x80) {
      store<u8>(dst + j++, Char.PERCENT);
      store<u8>(dst + j++, hexDigit(c >> 4));
      store<u8>(dst + j++, hexDigit(c & 15));
    } else if (rfc && c == Char.DOLLAR && i + 1 < len) {
      store<u8>(dst + j++, Char.PERCENT);
      store<u8>(dst + j++, 0x32);
      store<u8>(dst + j++, 0x34);
    } else {
      store<u8>(dst + j++, c);
    }
  }
  out.length += j;
  return j;
}

/**
 * RFC 9309 2.2.2: writes the normalised form of a URL path to `dst` (room for 3 * len bytes) and
 * returns its length: unreserved `%XX` decoded, other escapes upper-cased, bytes >= 0x80 encoded,
 * and the pattern operators `*` and `$` written as `%2A` and `%24` so that they match only the
 * escaped literal in a pattern. Malformed escapes are kept as they are.
 */
export function normalizePath(src: usize, len: usize, dst: usize): usize {
  let j: usize = 0;
  for (let i: usize = 0; i < len; i++) {
    const c = <u32>load<u8>(src + i);
    if (c == Char.PERCENT && i + 2 < len && isHexDigit(load<u8>(src + i + 1)) && isHexDigit(load<u8>(src + i + 2))) {
      const hi = <u32>load<u8>(src + i + 1);
      const lo = <u32>load<u8>(src + i + 2);
      const value = (hexValue(hi) << 4) | hexValue(lo);
      if (isUnreserved(value)) {
        store<u8>(dst + j++, value);
      } else {
        store<u8>(dst + j++, Char.PERCENT);
        store<u8>(dst + j++, toUpper(hi));
        store<u8>(dst + j++, toUpper(lo));
      }
      i += 2;
    } else if (c >= 0x80 || c == Char.STAR || c == Char.DOLLAR) {
      store<u8>(dst + j++, Char.PERCENT);
      store<u8>(dst + j++, hexDigit(c >> 4));
      store<u8>(dst + j++, hexDigit(c & 15));
    } else {
      store<u8>(dst + j++, c);
    }
  }
  return j;
}

/** Where the path of a URL lies; `pathNeedsSlash` says a `/` must be put in front (it began with `?` or `;`). */
export let pathStart: usize = 0;
export let pathEnd: usize = 0;
export let pathNeedsSlash: bool = false;

/**
 * Google's GetPathParamsQuery: finds the path, params and query of `url` (bytes [0, len)) and
 * sets pathStart/pathEnd/pathNeedsSlash. An empty range with no slash means the path is `/`.
 * One pass: the scheme's `://` counts only before the first `/`, `?` or `;`, so the scan for it
 * stops there; then the authority; then the fragment (and, in Google's C strings, a NUL).
 */
export function locatePath(url: usize, len: usize, stopAtNul: bool): void {
  // Initial two slashes are ignored (a scheme-relative URL).
  const searchStart: usize = len >= 2 && load<u8>(url) == Char.SLASH && load<u8>(url + 1) == Char.SLASH ? 2 : 0;
  pathStart = pathEnd = 0;
  pathNeedsSlash = false;
  let start = findAuthorityEnd(url, searchStart, len, true);
  // A `:` is the scheme's only if `//` follows; else it is an ordinary byte of the authority.
  while (start < len && load<u8>(url + start) == Char.COLON) {
    if (start + 2 < len && load<u8>(url + start + 1) == Char.SLASH && load<u8>(url + start + 2) == Char.SLASH) {
      start = findAuthorityEnd(url, start + 3, len, false);
      break;
    }
    start = findAuthorityEnd(url, start + 1, len, true);
  }
  // No path, or a fragment before it: the path is `/`.
  if (start >= len || load<u8>(url + start) == Char.HASH) return;
  pathStart = start;
  pathEnd = stopAtNul ? findEitherByte(url, start, len, Char.HASH, 0) : findByte(url, start, len, Char.HASH);
  pathNeedsSlash = load<u8>(url + start) != Char.SLASH;
}
