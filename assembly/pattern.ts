// Pattern matching: `*` matches any run of bytes, a final `$` anchors at the end of the path.

import { Char } from "./chars";
import { findByte } from "./scan";
import { RuleField, RuleFlag, RuleTable } from "./table";
import { Vec } from "./vec";

/** Segments at least this long are searched with Knuth-Morris-Pratt, so a hostile pattern stays linear. */
const KMP_MIN_SEGMENT: usize = 16;

/** Scratch space for KMP failure links; grows for long segments (releaseLongSearch). */
let failureScratch: Vec = Vec.create(256);

/** Gives back the room a long segment's failure links took (see Vec.releaseRoom). */
export function releaseLongSearch(): void {
  failureScratch.releaseRoom(256);
}

/** Whether n bytes at a and b are equal (eight at a time). */
// @ts-ignore: decorator
@inline export function bytesEqual(a: usize, b: usize, n: usize): bool {
  let i: usize = 0;
  while (i + 8 <= n) {
    if (load<u64>(a + i) != load<u64>(b + i)) return false;
    i += 8;
  }
  while (i < n) {
    if (load<u8>(a + i) != load<u8>(b + i)) return false;
    i++;
  }
  return true;
}

/** Index of the first occurrence of needle in haystack[from, to), or -1. */
function indexOf(hay: usize, from: usize, to: usize, needle: usize, needleLength: usize): isize {
  if (needleLength == 0) return <isize>from;
  if (to - from < needleLength) return -1;
  if (needleLength >= KMP_MIN_SEGMENT) return indexOfKmp(hay, from, to, needle, needleLength);
  if (needleLength == 1) {
    const at = findByte(hay, from, to, <u32>load<u8>(needle));
    return at < to ? <isize>at : -1;
  }
  // Sixteen start positions at a time: those where the needle's first two bytes are, each then
  // compared in full. Starts past `last` are masked off (loads may read beyond `to`, never
  // beyond memory).
  const last = to - needleLength;
  const first = i8x16.splat(<i8>load<u8>(needle));
  const second = i8x16.splat(<i8>load<u8>(needle, 1));
  let i = from;
  while (i <= last && hay + i + 17 <= (<usize>memory.size() << 16)) {
    let hits = i8x16.bitmask(v128.and(i8x16.eq(v128.load(hay + i), first), i8x16.eq(v128.load(hay + i + 1), second)));
    if (last - i < 15) hits &= (<u32>1 << <u32>(last - i + 1)) - 1;
    while (hits != 0) {
      const at = i + <usize>ctz(hits);
      if (bytesEqual(hay + at + 2, needle + 2, needleLength - 2)) return <isize>at;
      hits &= hits - 1;
    }
    i += 16;
  }
  const head = load<u8>(needle);
  for (; i <= last; i++) {
    if (load<u8>(hay + i) != head) continue;
    if (bytesEqual(hay + i + 1, needle + 1, needleLength - 1)) return <isize>i;
  }
  return -1;
}

/** Knuth-Morris-Pratt search: O(hay + needle) whatever the bytes. */
function indexOfKmp(hay: usize, from: usize, to: usize, needle: usize, needleLength: usize): isize {
  failureScratch.length = 0;
  const fail = failureScratch.reserve(needleLength << 2);
  store<u32>(fail, 0);
  let k: usize = 0;
  for (let i: usize = 1; i < needleLength; i++) {
    const c = load<u8>(needle + i);
    while (k > 0 && load<u8>(needle + k) != c) k = load<u32>(fail + ((k - 1) << 2));
    if (load<u8>(needle + k) == c) k++;
    store<u32>(fail + (i << 2), <u32>k);
  }
  let q: usize = 0;
  for (let i = from; i < to; i++) {
    const c = load<u8>(hay + i);
    while (q > 0 && load<u8>(needle + q) != c) q = load<u32>(fail + ((q - 1) << 2));
    if (load<u8>(needle + q) == c) q++;
    if (q == needleLength) return <isize>(i + 1 - needleLength);
  }
  return -1;
}

/**
 * Whether `pattern` matches a prefix of `path`, knowing its literal prefix already matched.
 * The pattern is split at `*` into literal segments; each is taken at its leftmost occurrence,
 * which is optimal for `*`-only patterns, so there is no backtracking. A final `$` pins the last
 * segment to the end of the path.
 */
export function matchesAfterPrefix(path: usize, pathLength: usize, pattern: usize, patternLength: usize, prefix: usize, anchored: bool): bool {
  const end = anchored ? patternLength - 1 : patternLength;
  if (prefix == end) return !anchored || pathLength == prefix;
  // Skip the `*` after the prefix.
  return segmentsFit(path, prefix, pathLength, pattern, prefix + 1, end, anchored);
}

/**
 * Whether the literal segments of pattern[from, to) (split at `*`, as if a `*` came before the
 * first) occur in order in path[start, end), each at its leftmost place after the one before;
 * with `anchored`, the last one ends at `end`. An empty list fits anywhere.
 */
export function segmentsFit(path: usize, start: usize, end: usize, pattern: usize, from: usize, to: usize, anchored: bool): bool {
  let pos = start;
  let at = from;
  while (true) {
    let star = at;
    while (star < to && load<u8>(pattern + star) != Char.STAR) star++;
    const segmentLength = star - at;
    if (star >= to) {
      if (!anchored) return indexOf(path, pos, end, pattern + at, segmentLength) >= 0;
      return end - pos >= segmentLength && bytesEqual(path + end - segmentLength, pattern + at, segmentLength);
    }
    const found = indexOf(path, pos, end, pattern + at, segmentLength);
    if (found < 0) return false;
    pos = <usize>found + segmentLength;
    at = star + 1;
  }
  return false;
}

/** Whether a rule's pattern matches the path. */
export function ruleMatches(table: RuleTable, rule: u32, path: usize, pathLength: usize, checkPrefix: bool = true): bool {
  const prefix = <usize>table.ruleField(rule, RuleField.PREFIX_LENGTH);
  if (prefix > pathLength) return false;
  const pattern = table.pool.data + table.ruleField(rule, RuleField.PATTERN_START);
  // The match plan's tree walk has already compared the prefix of the rules it files at a node.
  if (checkPrefix && !bytesEqual(path, pattern, prefix)) return false;
  const flags = table.ruleField(rule, RuleField.FLAGS);
  if ((flags & (RuleFlag.WILDCARD | RuleFlag.ANCHORED)) == 0) return true;
  const patternLength = <usize>table.ruleField(rule, RuleField.PATTERN_LENGTH);
  return matchesAfterPrefix(path, pathLength, pattern, patternLength, prefix, (flags & RuleFlag.ANCHORED) != 0);
}

