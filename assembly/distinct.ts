// Rules with the same pattern match the same paths, so only the first of them in decision order
// can ever decide: generated and hand-merged files repeat patterns (across groups of one agent,
// or as allow and disallow of one path). The match plan indexes each pattern once.

import { bytesEqual } from "./pattern";
import { RuleField, RuleFlag, RuleTable } from "./table";

/**
 * A hash of every byte of a pattern, eight at a time (the last eight overlap the ones before when
 * the length is not a multiple of eight), and of its length. Generated rules often share their
 * first and last bytes and differ only in an id between them, and rules with equal hashes probe
 * past each other in an open-addressing set: a hash of some of the bytes would put such rules in
 * one run of slots, each probing past all the ones before it. Equal hashes are confirmed byte by
 * byte. Two multiplies per eight bytes: hashing every pattern of the 512 KiB benchmark file adds
 * no measurable time to its compile.
 */
// @ts-ignore: decorator
@inline export function patternHash(pattern: usize, length: usize): u32 {
  let h: u64 = <u64>length * 0x9e3779b97f4a7c15;
  if (length >= 8) {
    let at: usize = 0;
    while (at + 8 < length) {
      h = rotl<u64>(h ^ (load<u64>(pattern + at) * 0xc2b2ae3d27d4eb4f), 31) * 0x9e3779b97f4a7c15;
      at += 8;
    }
    h = rotl<u64>(h ^ (load<u64>(pattern + length - 8) * 0xc2b2ae3d27d4eb4f), 31) * 0x9e3779b97f4a7c15;
  } else {
    let tail: u64 = 0;
    for (let i: usize = 0; i < length; i++) tail = (tail << 8) | <u64>load<u8>(pattern + i);
    h = rotl<u64>(h ^ (tail * 0xc2b2ae3d27d4eb4f), 31) * 0x9e3779b97f4a7c15;
  }
  // Every bit of the last word reaches the low bits, which pick the slot.
  h = (h ^ (h >>> 33)) * 0xff51afd7ed558ccd;
  h = (h ^ (h >>> 33)) * 0xc4ceb9fe1a85ec53;
  return <u32>(h >>> 32) ^ <u32>h;
}

/**
 * Writes to `out` the ranks 0..count-1 of the table's selection whose pattern no smaller rank
 * has, ascending; returns how many there are. With `wildcardsOnly`, rules without `*` are all
 * kept: the tree files a repeated literal pattern at one node, where only the best rank counts.
 */
export function distinctRanks(table: RuleTable, count: u32, out: usize, wildcardsOnly: bool): u32 {
  let slots: u32 = 16;
  while (slots < count * 2) slots <<= 1;
  // Open addressing: per slot the pattern's hash and rank + 1 (0 for empty), so that a probe
  // reads another rule's pattern only when the hashes are equal.
  const set = heap.alloc(<usize>slots << 3);
  memory.fill(set, 0, <usize>slots << 3);
  const pool = table.pool.data;
  let kept: u32 = 0;
  for (let rank: u32 = 0; rank < count; rank++) {
    const rule = table.selectedRules.u32At(rank);
    if (wildcardsOnly && !(table.ruleField(rule, RuleField.FLAGS) & RuleFlag.WILDCARD)) {
      store<u32>(out + (<usize>kept << 2), rank);
      kept++;
      continue;
    }
    const pattern = pool + table.ruleField(rule, RuleField.PATTERN_START);
    const length = <usize>table.ruleField(rule, RuleField.PATTERN_LENGTH);
    const hash = patternHash(pattern, length);
    let slot = hash & (slots - 1);
    let repeated = false;
    while (true) {
      const entry = load<u32>(set + (<usize>slot << 3), 4);
      if (entry == 0) break;
      if (load<u32>(set + (<usize>slot << 3)) == hash) {
        const other = table.selectedRules.u32At(entry - 1);
        if (<usize>table.ruleField(other, RuleField.PATTERN_LENGTH) == length &&
          bytesEqual(pool + table.ruleField(other, RuleField.PATTERN_START), pattern, length)) {
          repeated = true;
          break;
        }
      }
      slot = (slot + 1) & (slots - 1);
    }
    if (repeated) continue;
    store<u32>(set + (<usize>slot << 3), hash);
    store<u32>(set + (<usize>slot << 3), rank + 1, 4);
    store<u32>(out + (<usize>kept << 2), rank);
    kept++;
  }
  heap.free(set);
  return kept;
}
