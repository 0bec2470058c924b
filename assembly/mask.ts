// Byte masks: a 64-bit set of the bytes a path holds, tested against the bytes a wildcard rule's
// literal segments need. A rule whose bytes are not all in the path cannot match, which rejects
// most candidates without a search.
//
// Bits come from a table rather than from `byte & 63`, so that the bytes URLs are made of do not
// share bits: lower-case letters, digits, the punctuation of paths and queries, and the upper-case
// hex digits of escapes each have their own; rarer bytes share the last one. Bytes >= 0x80 never
// occur in a compiled pattern (they are escaped) and have no bit. Per path byte: a load and an OR.
//
// A second 64-bit set holds the pairs of adjacent bytes, one hashed bit each. Bytes alone pass
// rules whose bytes a path has in another order (`/*/shop/red` on a path with `shop` and `red`
// apart); pairs reject most of those too. On the 512 KiB benchmark file, candidates that pass
// both masks and then fail the full match fell from 4.8 to 1.0 per URL. A 128-bit pair set
// rejected a little more but cost more than it saved.

import { Char } from "./chars";

const SHARED_BIT: u64 = 63;
/** Punctuation with a bit of its own (all but the last bit go to letters, digits and these). */
const OWN_BITS = "/-._?=&%+:;,~!$'()@ ";

/** The mask bit of each byte value, a u64 per byte. */
const bitOf: usize = buildBitTable();

function buildBitTable(): usize {
  const table = heap.alloc(256 << 3);
  memory.fill(table, 0, 256 << 3);
  for (let c: u32 = 0; c < 0x80; c++) store<u64>(table + (<usize>c << 3), (<u64>1) << SHARED_BIT);
  let next: u64 = 0;
  for (let c: u32 = 0x61; c <= 0x7a; c++) store<u64>(table + (<usize>c << 3), (<u64>1) << next++);
  for (let c: u32 = 0x30; c <= 0x39; c++) store<u64>(table + (<usize>c << 3), (<u64>1) << next++);
  for (let c: u32 = 0x41; c <= 0x46; c++) store<u64>(table + (<usize>c << 3), (<u64>1) << next++);
  for (let i = 0; i < OWN_BITS.length; i++) store<u64>(table + (<usize>OWN_BITS.charCodeAt(i) << 3), (<u64>1) << next++);
  assert(next <= SHARED_BIT);
  return table;
}

// @ts-ignore: decorator
@inline function bitFor(c: u32): u64 {
  return load<u64>(bitOf + (<usize>c << 3));
}

/** The pair-mask bit of two adjacent bytes read as a little-endian u16: the top six bits of a multiplicative hash. */
// @ts-ignore: decorator
@inline function pairBit(pair: u32): u64 {
  return (<u64>1) << <u64>((pair * 0x9e3779b1) >>> 26);
}

/**
 * Writes the masks a match of the pattern needs to `at`: the byte mask of its literal bytes (a
 * u64), then the pair mask of its adjacent literal bytes (a u64, one hashed bit per pair).
 */
export function storeRuleMasks(pattern: usize, length: usize, at: usize): void {
  let mask: u64 = 0;
  let pairs: u64 = 0;
  let previous: u32 = Char.STAR;
  for (let i: usize = 0; i < length; i++) {
    let c = <u32>load<u8>(pattern + i);
    if (c == Char.DOLLAR && i == length - 1) c = Char.STAR;
    if (c != Char.STAR) {
      mask |= bitFor(c);
      if (previous != Char.STAR) pairs |= pairBit(previous | (c << 8));
    }
    previous = c;
  }
  store<u64>(at, mask);
  store<u64>(at, pairs, 8);
}

/** The masks of the current path (see computePathMask). */
let pathMask: u64 = 0;
let pathPairs: u64 = 0;
/** Whether pathMask and pathPairs belong to the current path. */
let pathMaskReady: bool = false;

/** Forgets the mask: the next test computes it for the new path. */
// @ts-ignore: decorator
@inline export function resetPathMask(): void {
  pathMaskReady = false;
}

function computePathMask(path: usize, length: usize): void {
  let a: u64 = 0;
  let b: u64 = 0;
  let i: usize = 0;
  // Two chains of ORs, so that the loads overlap.
  while (i + 2 <= length) {
    a |= bitFor(<u32>load<u8>(path + i));
    b |= bitFor(<u32>load<u8>(path + i + 1));
    i += 2;
  }
  if (i < length) a |= bitFor(<u32>load<u8>(path + i));
  pathMask = a | b;
  // Three pairs per four-byte load, in two chains (corpus-0269 4% faster than a u16 load per pair).
  let pairs: u64 = 0;
  let more: u64 = 0;
  let j: usize = 0;
  for (; j + 4 <= length; j += 3) {
    const word = load<u32>(path + j);
    pairs |= pairBit(word & 0xffff) | pairBit((word >>> 8) & 0xffff);
    more |= pairBit(word >>> 16);
  }
  for (; j + 1 < length; j++) pairs |= pairBit(<u32>load<u16>(path + j));
  pathPairs = pairs | more;
  pathMaskReady = true;
}

/** Whether the path holds every byte and pair of the rule masks at `at` (computing the path's masks once). */
// @ts-ignore: decorator
@inline export function pathHoldsMasks(at: usize, path: usize, length: usize): bool {
  if (!pathMaskReady) computePathMask(path, length);
  return ((load<u64>(at) & ~pathMask) | (load<u64>(at, 8) & ~pathPairs)) == 0;
}
