// Byte masks: a 64-bit set of the bytes a path holds, tested against the bytes a wildcard rule's
// literal segments need. A rule whose bytes are not all in the path cannot match, which rejects
// most candidates without a search.
//
// A byte's bit is its low nibble plus a base chosen by its high nibble, so that one vector
// swizzle finds the bits of sixteen bytes: lower-case letters, digits and the ASCII punctuation of
// paths and queries (space to `?`) each have a bit of their own; upper-case letters, `@` and `_`
// share the bits of 0x60-0x7f, and other bytes share some too (a shared bit only lets more
// candidates through to the full match).
//
// A second 64-bit set holds the pairs of adjacent bytes, one hashed bit each. Bytes alone pass
// rules whose bytes a path has in another order (`/*/shop/red` on a path with `shop` and `red`
// apart); pairs reject most of those too. On the 512 KiB benchmark file, candidates that pass
// both masks and then fail the full match fell from 4.8 to 1.0 per URL. A 128-bit pair set
// rejected a little more but cost more than it saved; a 32-bit one cost half the compares below
// and let through enough more to make that file 4% slower.
//
// A path's sets are built sixteen bytes (or pairs) at a time in vectors (computePathMask), once
// per path and only when a candidate needs them (0.84 times per URL on the 512 KiB file, about 44
// ns each): a scalar loop over the same bits (a table load per byte, a multiply per pair) made
// that file 2.5% slower and the 50 KB one 4%.

import { Char } from "./chars";

/**
 * The base of each high nibble: `a`-`o` get bits 1-15, `p`-`z` 16-26, `0`-`9` 32-41, `:`-`?`
 * 42-47, space to `/` 48-63. One table for both readers: the path loop swizzles it as a vector,
 * rule masks read a byte of it.
 */
const NIBBLE_BASE: usize = memory.data<u8>([0, 0, 48, 32, 0, 16, 0, 16, 0, 0, 0, 0, 0, 0, 0, 0], 16);
/** Byte k is 1 << k for k < 8 (a bit within a byte of a set), 0 after: a swizzle of bit indices makes one-bit masks. */
export const BIT_IN_BYTE = v128(1, 2, 4, 8, 16, 32, 64, -128, 0, 0, 0, 0, 0, 0, 0, 0);
/** Lane k holds k. */
const LANE_INDEX = v128(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
/** The pair hash: the top six bits of the low 16 bits of a product (a 16-bit vector multiply). */
const PAIR_MUL: u32 = 0x9e37;

/** A byte's bit in the byte set. */
// @ts-ignore: decorator
@inline function byteIndex(c: u32): u32 {
  return (<u32>load<u8>(NIBBLE_BASE + (c >> 4)) + (c & 15)) & 63;
}

/** The bit of two adjacent bytes, read as a little-endian u16, in the pair set. */
// @ts-ignore: decorator
@inline function pairIndex(pair: u32): u32 {
  return ((pair * PAIR_MUL) & 0xffff) >>> 10;
}

/**
 * Writes the masks a match of the pattern needs to `at`: the byte set of its literal bytes (a
 * u64), then the pair set of its adjacent literal bytes (a u64).
 */
export function storeRuleMasks(pattern: usize, length: usize, at: usize): void {
  let mask: u64 = 0;
  let pairs: u64 = 0;
  let previous: u32 = Char.STAR;
  for (let i: usize = 0; i < length; i++) {
    let c = <u32>load<u8>(pattern + i);
    if (c == Char.DOLLAR && i == length - 1) c = Char.STAR;
    if (c != Char.STAR) {
      mask |= (<u64>1) << <u64>byteIndex(c);
      if (previous != Char.STAR) pairs |= (<u64>1) << <u64>pairIndex(previous | (c << 8));
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
  // The vector loops read up to 17 bytes past the path.
  if (path + length + 17 <= (<usize>memory.size() << 16)) {
    pathMask = indexSet(path, length, false);
    pathPairs = length >= 2 ? indexSet(path, length - 1, true) : 0;
  } else {
    let mask: u64 = 0;
    let pairs: u64 = 0;
    for (let i: usize = 0; i < length; i++) mask |= (<u64>1) << <u64>byteIndex(<u32>load<u8>(path + i));
    for (let i: usize = 0; i + 1 < length; i++) pairs |= (<u64>1) << <u64>pairIndex(<u32>load<u16>(path + i));
    pathMask = mask;
    pathPairs = pairs;
  }
  pathMaskReady = true;
}

/**
 * The set of the bit indices (0-63) of the `count` bytes from `path`, or of the `count` pairs
 * from `path` when `pairs` (a constant: each call is its own loop). A u64 is eight bytes: each
 * index's byte (index >> 3) is found by eight compares, and its bit in that byte (index & 7) by
 * a swizzle; eight vectors gather the bits of each byte, reduced to one u64 at the end.
 */
// @ts-ignore: decorator
@inline function indexSet(path: usize, count: usize, pairs: bool): u64 {
  let s0 = i8x16.splat(0);
  let s1 = s0, s2 = s0, s3 = s0, s4 = s0, s5 = s0, s6 = s0, s7 = s0;
  // Sixteen at a time, the last sixteen ending at the last one (overlapping the block before: a
  // set does not mind repeats), so that only a count under sixteen has lanes to leave out. Those
  // get bit 7 in their bit index, for which BIT_IN_BYTE has no bit.
  const last = count > 16 ? count - 16 : 0;
  const leftOut = count >= 16 ? i8x16.splat(0) : v128.and(i8x16.ge_u(LANE_INDEX, i8x16.splat(<i8>count)), i8x16.splat(-128));
  for (let i: usize = 0; ; i += 16) {
    const at = min(i, last);
    const x = v128.load(path + at);
    const index = pairs ? pairIndices(x, v128.load(path + at, 1)) : byteIndices(x);
    const bit = i8x16.swizzle(BIT_IN_BYTE, v128.or(v128.and(index, i8x16.splat(7)), leftOut));
    const byte = i8x16.shr_u(index, 3);
    s0 = v128.or(s0, v128.and(i8x16.eq(byte, i8x16.splat(0)), bit));
    s1 = v128.or(s1, v128.and(i8x16.eq(byte, i8x16.splat(1)), bit));
    s2 = v128.or(s2, v128.and(i8x16.eq(byte, i8x16.splat(2)), bit));
    s3 = v128.or(s3, v128.and(i8x16.eq(byte, i8x16.splat(3)), bit));
    s4 = v128.or(s4, v128.and(i8x16.eq(byte, i8x16.splat(4)), bit));
    s5 = v128.or(s5, v128.and(i8x16.eq(byte, i8x16.splat(5)), bit));
    s6 = v128.or(s6, v128.and(i8x16.eq(byte, i8x16.splat(6)), bit));
    s7 = v128.or(s7, v128.and(i8x16.eq(byte, i8x16.splat(7)), bit));
    if (at == last) break;
  }
  return orLanes(s0, s1, s2, s3, s4, s5, s6, s7);
}

/** The byte-set index of each of sixteen bytes (see NIBBLE_BASE). */
// @ts-ignore: decorator
@inline function byteIndices(x: v128): v128 {
  const base = i8x16.swizzle(v128.load(NIBBLE_BASE), i8x16.shr_u(x, 4));
  return v128.and(i8x16.add(base, v128.and(x, i8x16.splat(15))), i8x16.splat(63));
}

/** The pair-set index of each of sixteen pairs: lane k of `x` and lane k of `next` (the bytes one further on). */
// @ts-ignore: decorator
@inline function pairIndices(x: v128, next: v128): v128 {
  const multiplier = i16x8.splat(<i16>PAIR_MUL);
  const low = i8x16.shuffle(x, next, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
  const high = i8x16.shuffle(x, next, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
  return i8x16.narrow_i16x8_u(i16x8.shr_u(i16x8.mul(low, multiplier), 10), i16x8.shr_u(i16x8.mul(high, multiplier), 10));
}

/** The u64 whose byte k is the OR of the sixteen lanes of s_k: halving shuffles, three levels. */
function orLanes(s0: v128, s1: v128, s2: v128, s3: v128, s4: v128, s5: v128, s6: v128, s7: v128): u64 {
  // Lanes 0-7 of each pair: the first's halves ORed; 8-15 the second's.
  const a = halves(s0, s1);
  const b = halves(s2, s3);
  const c = halves(s4, s5);
  const d = halves(s6, s7);
  // Four lanes each.
  const ab = v128.or(i8x16.shuffle(a, b, 0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27),
    i8x16.shuffle(a, b, 4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31));
  const cd = v128.or(i8x16.shuffle(c, d, 0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27),
    i8x16.shuffle(c, d, 4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31));
  // Two lanes each, then one.
  const e = v128.or(i8x16.shuffle(ab, cd, 0, 1, 4, 5, 8, 9, 12, 13, 16, 17, 20, 21, 24, 25, 28, 29),
    i8x16.shuffle(ab, cd, 2, 3, 6, 7, 10, 11, 14, 15, 18, 19, 22, 23, 26, 27, 30, 31));
  const f = v128.or(e, i8x16.shuffle(e, e, 1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14));
  return i64x2.extract_lane(i8x16.shuffle(f, f, 0, 2, 4, 6, 8, 10, 12, 14, 0, 2, 4, 6, 8, 10, 12, 14), 0);
}

/** Lanes 0-7: lanes 0-7 of `x` ORed with its lanes 8-15; lanes 8-15: the same for `y`. */
// @ts-ignore: decorator
@inline function halves(x: v128, y: v128): v128 {
  return v128.or(i8x16.shuffle(x, y, 0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23),
    i8x16.shuffle(x, y, 8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31));
}

/** Whether the path holds every byte and pair of the rule masks at `at` (computing the path's masks once). */
// @ts-ignore: decorator
@inline export function pathHoldsMasks(at: usize, path: usize, length: usize): bool {
  if (!pathMaskReady) computePathMask(path, length);
  return ((load<u64>(at) & ~pathMask) | (load<u64>(at, 8) & ~pathPairs)) == 0;
}
