/**
 * Pattern matching (decision 14; RFC 9309 2.2.3).
 */
import type { ByteString } from "./bytes.js";

const STAR = 0x2a;
const DOLLAR = 0x24;

/**
 * A set of path offsets 0..length as a bitset: bit i is set when the part of the pattern read so
 * far can end at offset i. Bitsets keep the walk fast on the 16 KB lines and long paths that real
 * files and URLs contain (a word holds 32 offsets).
 */
class OffsetSet {
  readonly words: Uint32Array;

  constructor(readonly length: number) {
    this.words = new Uint32Array((length >>> 5) + 1);
  }

  has(offset: number): boolean {
    return (this.words[offset >>> 5] & (1 << (offset & 31))) !== 0;
  }

  add(offset: number): void {
    this.words[offset >>> 5] |= 1 << (offset & 31);
  }

  isEmpty(): boolean {
    return this.words.every((word) => word === 0);
  }

  /** The smallest offset in the set (the set is not empty). */
  first(): number {
    const index = this.words.findIndex((word) => word !== 0);
    return index * 32 + (31 - Math.clz32(this.words[index] & -this.words[index]));
  }
}

/** The offsets i + 1 for which path[i] is `byte`: where a literal byte can take the walk. */
function offsetsAfter(path: ByteString, byte: number): OffsetSet {
  const set = new OffsetSet(path.length);
  for (let i = 0; i < path.length; i++) if (path.charCodeAt(i) === byte) set.add(i + 1);
  return set;
}

/**
 * Does `pattern` match a prefix of `path`? `*` matches any run of bytes (none included); `$`
 * anchors the pattern to the end of the path, but only as its last byte (elsewhere it is an
 * ordinary byte); every other byte matches itself, case-sensitively.
 *
 * The walk reads the pattern once, left to right, and keeps the set of path offsets at which the
 * part of the pattern read so far can end. A literal byte moves every offset one on, keeping those
 * that land just after that byte in the path; `*` extends the set to every offset from the
 * smallest one to the end of the path. No backtracking: O(pattern x path / 32).
 */
export function patternMatches(path: ByteString, pattern: ByteString): boolean {
  let offsets = new OffsetSet(path.length);
  offsets.add(0);
  const landings = new Map<number, OffsetSet>();
  for (let k = 0; k < pattern.length; k++) {
    const code = pattern.charCodeAt(k);
    if (code === DOLLAR && k === pattern.length - 1) return offsets.has(path.length);
    if (code === STAR) {
      for (let offset = offsets.first() + 1; offset <= path.length; offset++) offsets.add(offset);
      continue;
    }
    let landing = landings.get(code);
    if (landing === undefined) {
      landing = offsetsAfter(path, code);
      landings.set(code, landing);
    }
    offsets = shiftedByOne(offsets, landing);
    if (offsets.isEmpty()) return false;
  }
  // The whole pattern was read and some prefix of the path matched it.
  return true;
}

/** {i + 1 : i in offsets} restricted to `landing`. */
function shiftedByOne(offsets: OffsetSet, landing: OffsetSet): OffsetSet {
  const next = new OffsetSet(offsets.length);
  let carry = 0;
  for (let w = 0; w < offsets.words.length; w++) {
    const word = offsets.words[w];
    next.words[w] = ((word << 1) | carry) & landing.words[w];
    carry = word >>> 31;
  }
  return next;
}
