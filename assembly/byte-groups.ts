// Grouping byte strings by their bytes, for the rules that share a pattern (distinct.ts) and the
// wildcard rules that share a literal prefix (plan.ts). A hash set does it in one pass. But the
// strings come from a robots.txt, which a site writes, and a hash of fixed constants lets a site
// choose strings that fall in one run of slots: it tries strings offline until their slot bits
// match (2^16 tries a string for a 512 KiB file, seconds of CPU), and then each string of its file
// probes past all the ones before it, n²/2 probes. 20,000 such rules took 116 ms to the first URL
// against 3.7 ms for as many others. So the set has a budget of probes, a few per string, that no
// file of ordinary strings comes near; past it, the set is given up and the strings are sorted
// instead, n log n compares whatever their bytes.

import { bytesEqual } from "./pattern";
import { sortIndices } from "./sort";

/** Groupings given up for a sort since the engine started: for tests (index.ts floodCount). */
export let groupsSorted: u32 = 0;

/** A string to group, as the caller lists it: its address (u32) and length (u32). */
export const STRING_BYTES: usize = 8;

/**
 * Probes a string may take on average before the set is given up: with the set at most half
 * full, strings take about 1.2 (the benchmark files' patterns and prefixes 1.21 to 1.23; at most
 * 1.86 in any of the corpus's 374 files).
 */
const PROBES_PER_STRING: u32 = 8;

/**
 * A hash of every byte of a string, eight at a time (the last eight overlap the ones before when
 * the length is not a multiple of eight), and of its length. Generated rules often share their
 * first and last bytes and differ only in an id between them: a hash of some of the bytes would
 * put such strings in one run of slots. Two multiplies per eight bytes: hashing every pattern of
 * the 512 KiB benchmark file adds no measurable time to its compile.
 */
// @ts-ignore: decorator
@inline export function bytesHash(bytes: usize, length: usize): u32 {
  let h: u64 = <u64>length * 0x9e3779b97f4a7c15;
  if (length >= 8) {
    let at: usize = 0;
    while (at + 8 < length) {
      h = rotl<u64>(h ^ (load<u64>(bytes + at) * 0xc2b2ae3d27d4eb4f), 31) * 0x9e3779b97f4a7c15;
      at += 8;
    }
    h = rotl<u64>(h ^ (load<u64>(bytes + length - 8) * 0xc2b2ae3d27d4eb4f), 31) * 0x9e3779b97f4a7c15;
  } else {
    let tail: u64 = 0;
    for (let i: usize = 0; i < length; i++) tail = (tail << 8) | <u64>load<u8>(bytes + i);
    h = rotl<u64>(h ^ (tail * 0xc2b2ae3d27d4eb4f), 31) * 0x9e3779b97f4a7c15;
  }
  // Every bit of the last word reaches the low bits, which pick the slot.
  h = (h ^ (h >>> 33)) * 0xff51afd7ed558ccd;
  h = (h ^ (h >>> 33)) * 0xc4ceb9fe1a85ec53;
  return <u32>(h >>> 32) ^ <u32>h;
}

// @ts-ignore: decorator
@inline function stringAt(strings: usize, i: u32): usize {
  return <usize>load<u32>(strings + <usize>i * STRING_BYTES);
}

// @ts-ignore: decorator
@inline function lengthAt(strings: usize, i: u32): usize {
  return <usize>load<u32>(strings + <usize>i * STRING_BYTES, 4);
}

// @ts-ignore: decorator
@inline function sameString(strings: usize, a: u32, b: u32): bool {
  const length = lengthAt(strings, a);
  return length == lengthAt(strings, b) && bytesEqual(stringAt(strings, a), stringAt(strings, b), length);
}

/**
 * For each of the `count` strings listed at `strings` (STRING_BYTES each), writes to `first` (a
 * u32 per string) the index of the first string with the same bytes: its own index if no string
 * before it has them.
 */
export function firstOfEqual(strings: usize, count: u32, first: usize): void {
  let slots: u32 = 16;
  while (slots < count * 2) slots <<= 1;
  // Open addressing: per slot the string's hash and index + 1 (0 for empty), so that a probe
  // compares another string's bytes only when the hashes are equal.
  const set = heap.alloc(<usize>slots << 3);
  memory.fill(set, 0, <usize>slots << 3);
  let budget = <u64>count * PROBES_PER_STRING + 64;
  for (let i: u32 = 0; i < count; i++) {
    const hash = bytesHash(stringAt(strings, i), lengthAt(strings, i));
    let slot = hash & (slots - 1);
    while (true) {
      const entry = load<u32>(set + (<usize>slot << 3), 4);
      if (entry == 0) {
        store<u32>(set + (<usize>slot << 3), hash);
        store<u32>(set + (<usize>slot << 3), i + 1, 4);
        store<u32>(first + (<usize>i << 2), i);
        break;
      }
      if (load<u32>(set + (<usize>slot << 3)) == hash && sameString(strings, entry - 1, i)) {
        store<u32>(first + (<usize>i << 2), entry - 1);
        break;
      }
      if (--budget == 0) {
        groupsSorted++;
        heap.free(set);
        firstOfEqualBySort(strings, count, first);
        return;
      }
      slot = (slot + 1) & (slots - 1);
    }
  }
  heap.free(set);
}

/** The strings sortIndices compares (it takes no context). */
let sortedStrings: usize = 0;

/** Whether string a sorts before string b: byte order, a prefix first. */
function stringBefore(a: u32, b: u32): bool {
  const x = stringAt(sortedStrings, a);
  const y = stringAt(sortedStrings, b);
  const xLength = lengthAt(sortedStrings, a);
  const yLength = lengthAt(sortedStrings, b);
  const common = min(xLength, yLength);
  let i: usize = 0;
  while (i + 8 <= common && load<u64>(x + i) == load<u64>(y + i)) i += 8;
  for (; i < common; i++) {
    const p = load<u8>(x + i);
    const q = load<u8>(y + i);
    if (p != q) return p < q;
  }
  return xLength < yLength;
}

/**
 * firstOfEqual by sorting: a stable sort keeps equal strings in index order, so the first of each
 * run of equal strings is the first of them in the list.
 */
function firstOfEqualBySort(strings: usize, count: u32, first: usize): void {
  sortedStrings = strings;
  const sorted = sortIndices(count, stringBefore);
  sortedStrings = 0;
  let head: u32 = 0;
  for (let k: u32 = 0; k < count; k++) {
    const i = load<u32>(sorted + (<usize>k << 2));
    if (k == 0 || !sameString(strings, head, i)) head = i;
    store<u32>(first + (<usize>i << 2), head);
  }
  heap.free(sorted);
}
