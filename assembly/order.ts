// Decision order of rules: the first rule in this order that matches a path decides it
// (robots-txt.md 3: the longest pattern wins, allow wins ties, and among equals Google keeps
// the first line it met).

import { RuleField, RuleFlag, RuleTable } from "./table";

/** True if rule `a` decides before rule `b`. */
// @ts-ignore: decorator
@inline function before(table: RuleTable, a: u32, b: u32): bool {
  const pa = table.ruleField(a, RuleField.PRIORITY);
  const pb = table.ruleField(b, RuleField.PRIORITY);
  if (pa != pb) return pa > pb;
  const allowA = table.ruleField(a, RuleField.FLAGS) & RuleFlag.ALLOW;
  const allowB = table.ruleField(b, RuleField.FLAGS) & RuleFlag.ALLOW;
  if (allowA != allowB) return allowA != 0;
  return table.ruleField(a, RuleField.LINE) < table.ruleField(b, RuleField.LINE);
}

/** Fills `table.order` with every rule index in decision order (a stable bottom-up merge sort). */
export function sortRules(table: RuleTable): void {
  const count = table.ruleCount;
  const bytes = <usize>count << 2;
  table.order.length = 0;
  let src = table.order.reserve(bytes);
  table.order.length = bytes;
  for (let i: u32 = 0; i < count; i++) store<u32>(src + (<usize>i << 2), i);
  if (count < 2) return;

  let dst = heap.alloc(bytes);
  const n = <usize>count;
  for (let width: usize = 1; width < n; width <<= 1) {
    for (let lo: usize = 0; lo < n; lo += width << 1) {
      const mid = min<usize>(lo + width, n);
      const hi = min<usize>(lo + (width << 1), n);
      let i = lo, j = mid, k = lo;
      while (i < mid && j < hi) {
        const a = load<u32>(src + (i << 2));
        const b = load<u32>(src + (j << 2));
        if (before(table, b, a)) {
          store<u32>(dst + (k << 2), b);
          j++;
        } else {
          store<u32>(dst + (k << 2), a);
          i++;
        }
        k++;
      }
      while (i < mid) store<u32>(dst + (k++ << 2), load<u32>(src + (i++ << 2)));
      while (j < hi) store<u32>(dst + (k++ << 2), load<u32>(src + (j++ << 2)));
    }
    const swap = src;
    src = dst;
    dst = swap;
  }
  if (src != table.order.data) {
    memory.copy(table.order.data, src, bytes);
    heap.free(src);
  } else {
    heap.free(dst);
  }
}
