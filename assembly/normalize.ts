// Byte rewriting of patterns and URL paths. Google escapes patterns only; RFC 9309 also
// normalises percent-encoding on both sides so that equivalent spellings compare equal.

import { Char, hexDigit, hexValue, isHexDigit, isUnreserved, toUpper } from "./chars";
import { bytesEqual } from "./pattern";
import { copyIfPlain, findByte, findFirstOf, findFirstOf3, NOT_PLAIN } from "./scan";
import { Vec } from "./vec";

/**
 * Appends the compiled form of an allow/disallow value to `out` and returns its length.
 * Both profiles (Google's MaybeEscapePattern): `%xx` gets upper-case hex digits, bytes >= 0x80
 * become `%XX`. RFC 9309 2.2.2 additionally: `%XX` of an unreserved character is decoded, and a
 * `$` that is not the final anchor is a literal, written `%24` like the URL side writes it.
 */
export function compilePattern(src: usize, len: usize, rfc: bool, out: Vec): usize {
  // Most patterns are plain ASCII without escapes (or `$` for the RFC): copied as they are, in
  // the pass that checks them and finds their first `*`.
  const star = copyIfPlain(src, len, out.reserve(len + 16), Char.PERCENT, rfc ? Char.DOLLAR : Char.PERCENT, Char.PERCENT, Char.STAR);
  if (star != NOT_PLAIN) {
    out.length += len;
    compiledStar = star;
    return len;
  }
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
  compiledStar = findByte(dst, 0, j, Char.STAR);
  return j;
}

/** Where compilePattern's pattern has its first `*` (its length if none). */
export let compiledStar: usize = 0;

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

/**
 * The bytes from the start of a recent URL (in a batch of lines) up to and including the first
 * byte of its path, when that URL had a `scheme://authority` (0: none). URLs of a batch mostly
 * share their origin; one whose first bytes are these has its path at the same offset, because
 * locatePath's scan reads exactly those bytes (none of them an LF) to find it. Keyed by content
 * only, so it stays valid across batches and tables.
 */
const KNOWN_CAPACITY: usize = 64;
export let knownBytes: usize = heap.alloc(KNOWN_CAPACITY);
export let knownLength: u32 = 0;

function rememberAuthority(base: usize, start: usize, at: usize, limit: usize): void {
  knownLength = 0;
  if (at >= limit || at - start + 1 > KNOWN_CAPACITY) return;
  const c = <u32>load<u8>(base + at);
  if (c != Char.SLASH && c != Char.QUESTION && c != Char.SEMICOLON) return;
  memory.copy(knownBytes, base + start, at - start + 1);
  knownLength = <u32>(at - start + 1);
}

/** Where the path of a URL lies; `pathNeedsSlash` says a `/` must be put in front (it began with `?` or `;`). */
export let pathStart: usize = 0;
export let pathEnd: usize = 0;
export let pathNeedsSlash: bool = false;
/** With `inLine`: where the URL's line ends (its LF, or the limit). */
export let lineEnd: usize = 0;

/**
 * Google's GetPathParamsQuery: finds the path, params and query of the URL starting at `start` and
 * sets pathStart/pathEnd/pathNeedsSlash (absolute positions; an empty range without a slash flag
 * means the path is `/`). The URL ends at `limit`, or with `inLine` at the first LF before it
 * (then lineEnd says where), so a batch of lines needs no separate search for line ends.
 *
 * `://` marks a scheme only before the first `/`, `?` or `;`; a `#` before the path start gives
 * `/`; the fragment is dropped; `stopAtNul` (Google-specific: a C string) also ends the path at a
 * NUL byte.
 */
// @ts-ignore: decorator
@inline export function locatePath(base: usize, start: usize, limit: usize, stopAtNul: bool, inLine: bool): void {
  // Bytes that end a scan: the line end only in a line, a NUL only for Google (repeat to disable).
  const newline: u32 = inLine ? Char.LF : Char.HASH;
  const nul: u32 = stopAtNul ? 0 : Char.HASH;
  pathStart = pathEnd = 0;
  pathNeedsSlash = false;
  let at: usize;
  const known = <usize>knownLength;
  if (inLine && known != 0 && start + known <= limit && bytesEqual(base + start, knownBytes, known)) {
    // The same scheme and authority as a URL before (see rememberAuthority): the scan would read
    // exactly these bytes and stop at the same place.
    at = start + known - 1;
  } else {
    // Initial two slashes are ignored (a scheme-relative URL).
    const searchStart = start + 1 < limit && load<u8>(base + start) == Char.SLASH && load<u8>(base + start + 1) == Char.SLASH ? start + 2 : start;
    at = findFirstOf(base, searchStart, limit, Char.SLASH, Char.QUESTION, Char.SEMICOLON, Char.HASH, Char.COLON, newline);
    // A `:` is the scheme's only if `//` follows; else it is an ordinary byte of the authority.
    while (at < limit && load<u8>(base + at) == Char.COLON) {
      if (at + 2 < limit && load<u8>(base + at + 1) == Char.SLASH && load<u8>(base + at + 2) == Char.SLASH) {
        at = findFirstOf(base, at + 3, limit, Char.SLASH, Char.QUESTION, Char.SEMICOLON, Char.HASH, newline, newline);
        if (inLine) rememberAuthority(base, start, at, limit);
        break;
      }
      at = findFirstOf(base, at + 1, limit, Char.SLASH, Char.QUESTION, Char.SEMICOLON, Char.HASH, Char.COLON, newline);
    }
  }
  if (at >= limit || (inLine && load<u8>(base + at) == Char.LF)) {
    // No path: `/`.
    lineEnd = at;
    return;
  }
  if (load<u8>(base + at) == Char.HASH) {
    // A fragment before the path: `/`.
    lineEnd = inLine ? findByte(base, at, limit, Char.LF) : limit;
    return;
  }
  pathStart = at;
  pathNeedsSlash = load<u8>(base + at) != Char.SLASH;
  const end = findFirstOf3(base, at, limit, Char.HASH, nul, newline);
  pathEnd = end;
  if (!inLine) return;
  lineEnd = end < limit && load<u8>(base + end) != Char.LF ? findByte(base, end, limit, Char.LF) : end;
}
