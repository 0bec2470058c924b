// Rules with the same pattern match the same paths, so only the first of them in decision order
// can ever decide: generated and hand-merged files repeat patterns (across groups of one agent,
// or as allow and disallow of one path). The match plan indexes each pattern once.

import { bytesEqual } from "./pattern";
import { RuleField, RuleFlag, RuleTable } from "./table";

/**
 * A hash of a pattern from its length and its first and last eight bytes, without a loop: rules
 * that share a long prefix differ at their end, and equal hashes are confirmed byte by byte.
 */
// @ts-ignore: decorator
@inline export function patternHash(pattern: usize, length: usize): u32 {
  let h: u64;
  if (length >= 8) {
    h = (load<u64>(pattern) * 0x9e3779b97f4a7c15) ^ load<u64>(pattern + length - 8);
  } else {
    h = 0;
    for (let i: usize = 0; i < length; i++) h = (h << 8) | <u64>load<u8>(pattern + i);
  }
  h = (h ^ <u64>length) * 0xff51afd7ed558ccd;
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
