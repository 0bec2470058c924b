// Rules with the same pattern match the same paths, so only the first of them in decision order
// can ever decide: generated and hand-merged files repeat patterns (across groups of one agent,
// or as allow and disallow of one path). The match plan indexes each pattern once.

import { firstOfEqual, STRING_BYTES } from "./byte-groups";
import { RuleField, RuleFlag, RuleTable } from "./table";

/**
 * Writes to `out` the ranks 0..count-1 of the table's selection whose pattern no smaller rank
 * has, ascending; returns how many there are. With `wildcardsOnly`, rules without `*` are all
 * kept: the tree files a repeated literal pattern at one node, where only the best rank counts.
 */
export function distinctRanks(table: RuleTable, count: u32, out: usize, wildcardsOnly: bool): u32 {
  // The patterns compared, in rank order, and their ranks.
  const strings = heap.alloc(max<usize>(<usize>count * STRING_BYTES, STRING_BYTES));
  const ranks = heap.alloc(max<usize>(<usize>count << 2, 4));
  const pool = table.pool.data;
  let compared: u32 = 0;
  for (let rank: u32 = 0; rank < count; rank++) {
    const rule = table.selectedRules.u32At(rank);
    if (wildcardsOnly && !(table.ruleField(rule, RuleField.FLAGS) & RuleFlag.WILDCARD)) continue;
    const string = strings + <usize>compared * STRING_BYTES;
    store<u32>(string, <u32>(pool + table.ruleField(rule, RuleField.PATTERN_START)));
    store<u32>(string, table.ruleField(rule, RuleField.PATTERN_LENGTH), 4);
    store<u32>(ranks + (<usize>compared << 2), rank);
    compared++;
  }
  const first = heap.alloc(max<usize>(<usize>compared << 2, 4));
  firstOfEqual(strings, compared, first);
  // Every rank not compared is kept; a compared one if it is the first with its pattern.
  let kept: u32 = 0;
  let c: u32 = 0;
  for (let rank: u32 = 0; rank < count; rank++) {
    if (c < compared && load<u32>(ranks + (<usize>c << 2)) == rank) {
      const isFirst = load<u32>(first + (<usize>c << 2)) == c;
      c++;
      if (!isFirst) continue;
    }
    store<u32>(out + (<usize>kept << 2), rank);
    kept++;
  }
  heap.free(first);
  heap.free(ranks);
  heap.free(strings);
  return kept;
}
