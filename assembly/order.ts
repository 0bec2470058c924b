// Decision order of rules: the first rule in this order that matches a path decides it
// (robots-txt.md 3: the longest pattern wins, allow wins ties, and among equals Google keeps
// the first line it met).

import { sortIndices } from "./sort";
import { RuleField, RuleFlag, RuleTable } from "./table";

/**
 * Priorities up to this bound are ordered by a counting sort (linear: compile time is a per-site
 * cost). Longer patterns only occur in the rfc9309 profile, which has no line limit; those files
 * fall back to the comparison sort.
 */
const COUNTING_SORT_MAX_PRIORITY: u32 = 1 << 16;

/** The table being sorted (the comparator cannot capture it). */
let sorting: RuleTable | null = null;

/** True if rule `a` decides before rule `b`. */
function before(a: u32, b: u32): bool {
  const table = changetype<RuleTable>(sorting);
  const pa = table.ruleField(a, RuleField.PRIORITY);
  const pb = table.ruleField(b, RuleField.PRIORITY);
  if (pa != pb) return pa > pb;
  const allowA = table.ruleField(a, RuleField.FLAGS) & RuleFlag.ALLOW;
  const allowB = table.ruleField(b, RuleField.FLAGS) & RuleFlag.ALLOW;
  if (allowA != allowB) return allowA != 0;
  return table.ruleField(a, RuleField.LINE) < table.ruleField(b, RuleField.LINE);
}

/**
 * Counting-sort key of a rule: smaller decides first. Rules are stored in line order (an
 * index.html twin right after its rule, on the same line), so a stable sort by this key is the
 * order `before` defines.
 */
// @ts-ignore: decorator
@inline function orderKey(table: RuleTable, rule: u32, maxPriority: u32): u32 {
  const allow = table.ruleField(rule, RuleField.FLAGS) & RuleFlag.ALLOW;
  return ((maxPriority - table.ruleField(rule, RuleField.PRIORITY)) << 1) | (allow ^ 1);
}

/** Fills `table.order` with every rule index in decision order. */
export function sortRules(table: RuleTable): void {
  const count = table.ruleCount;
  table.order.length = 0;
  let maxPriority: u32 = 0;
  for (let rule: u32 = 0; rule < count; rule++) maxPriority = max(maxPriority, table.ruleField(rule, RuleField.PRIORITY));
  if (maxPriority > COUNTING_SORT_MAX_PRIORITY) {
    sorting = table;
    const sorted = sortIndices(count, before);
    sorting = null;
    table.order.pushBytes(sorted, <usize>count << 2);
    heap.free(sorted);
    return;
  }
  // Stable counting sort: count keys, turn counts into starts, place rules in index order.
  const keys = (maxPriority + 1) << 1;
  const starts = heap.alloc(<usize>(keys + 1) << 2);
  memory.fill(starts, 0, <usize>(keys + 1) << 2);
  for (let rule: u32 = 0; rule < count; rule++) {
    const at = starts + ((<usize>orderKey(table, rule, maxPriority) + 1) << 2);
    store<u32>(at, load<u32>(at) + 1);
  }
  for (let key: u32 = 1; key <= keys; key++) {
    store<u32>(starts + (<usize>key << 2), load<u32>(starts + (<usize>key << 2)) + load<u32>(starts + (<usize>(key - 1) << 2)));
  }
  const order = table.order.reserve(<usize>count << 2);
  table.order.length = <usize>count << 2;
  for (let rule: u32 = 0; rule < count; rule++) {
    const at = starts + (<usize>orderKey(table, rule, maxPriority) << 2);
    const slot = load<u32>(at);
    store<u32>(order + (<usize>slot << 2), rule);
    store<u32>(at, slot + 1);
  }
  heap.free(starts);
}
