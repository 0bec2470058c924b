// Byte masks: a 128-bit set of the bytes a path holds (bit = byte & 127), tested against the bytes
// a wildcard rule's literal segments need. A rule whose bytes are not all in the path cannot match,
// which rejects most candidates without a search.

import { Char } from "./chars";

/**
 * Writes the mask of the bytes a match of the pattern must contain (its literal bytes) to `at`
 * (two u64). Compiled patterns are ASCII; a path's other bytes only add bits.
 */
export function storeByteMask(pattern: usize, length: usize, at: usize): void {
  let low: u64 = 0;
  let high: u64 = 0;
  for (let i: usize = 0; i < length; i++) {
    const c = <u64>load<u8>(pattern + i);
    if (c == Char.STAR || (c == Char.DOLLAR && i == length - 1)) continue;
    const bit = (<u64>1) << (c & 63);
    if (c & 64) high |= bit;
    else low |= bit;
  }
  store<u64>(at, low);
  store<u64>(at, high, 8);
}

/** The mask of the current path (see computePathMask). */
let pathLow: u64 = 0;
let pathHigh: u64 = 0;
/** Whether pathLow/pathHigh belong to the current path. */
let pathMaskReady: bool = false;

/** Forgets the mask: the next test computes it for the new path. */
// @ts-ignore: decorator
@inline export function resetPathMask(): void {
  pathMaskReady = false;
}

function computePathMask(path: usize, length: usize): void {
  let low: u64 = 0;
  let high: u64 = 0;
  for (let i: usize = 0; i < length; i++) {
    const c = <u64>load<u8>(path + i);
    const bit = (<u64>1) << (c & 63);
    low |= c & 64 ? 0 : bit;
    high |= c & 64 ? bit : 0;
  }
  pathLow = low;
  pathHigh = high;
  pathMaskReady = true;
}

/** Whether the path holds every byte of the rule mask at `at` (computing the path's mask once). */
// @ts-ignore: decorator
@inline export function pathHasBytesOf(at: usize, path: usize, length: usize): bool {
  if (!pathMaskReady) computePathMask(path, length);
  return ((load<u64>(at) & ~pathLow) | (load<u64>(at, 8) & ~pathHigh)) == 0;
}
