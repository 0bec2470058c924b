// Decision order of rules: the first rule in this order that matches a path decides it
// (robots-txt.md 3: the longest pattern wins, allow wins ties, and among equals Google keeps
// the first line it met).

import { sortIndices } from "./sort";
import { RuleField, RuleFlag, RuleTable } from "./table";

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

/** Fills `table.order` with every rule index in decision order. */
export function sortRules(table: RuleTable): void {
  const count = table.ruleCount;
  sorting = table;
  const sorted = sortIndices(count, before);
  sorting = null;
  table.order.length = 0;
  table.order.pushBytes(sorted, <usize>count << 2);
  heap.free(sorted);
}
