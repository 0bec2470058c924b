// Selections a table keeps besides its current one, so that a crawler asking for two or three
// agents in turn (Googlebot, then Googlebot-Image, for each URL) does not rebuild a match plan at
// every change: the plan of a large file costs milliseconds, a URL a fraction of a microsecond.
//
// A selection is its group flags, its rules in decision order and its plan (0 until a URL needed
// one). The table's current selection lives in its own fields; up to KEPT_SELECTIONS earlier ones
// live in one block, most recently used first. They are keyed by their group flags, not by the
// agents asked for: agents that fall to the same groups share one selection.

import { MatchPlan } from "./plan";
import { RuleTable } from "./table";
import { Vec } from "./vec";

/** How many earlier selections a table keeps (each with the plan it grew, freed with the table). */
export const KEPT_SELECTIONS: usize = 3;

/** A kept selection: its selectedGroups Vec, its selectedRules Vec, its plan (0: none). */
const enum Kept {
  GROUPS = 0,
  RULES = 4,
  PLAN = 8,
  BYTES = 12,
}

// @ts-ignore: decorator
@inline function entryAt(table: RuleTable, index: usize): usize {
  return table.keptSelections + index * Kept.BYTES;
}

/**
 * Keeps the table's current selection at the front, the kept ones before place `vacated` one place
 * back (over the selection at `vacated`, which the caller has taken out).
 */
function keepCurrentAtFront(table: RuleTable, vacated: usize): void {
  memory.copy(entryAt(table, 1), entryAt(table, 0), vacated * Kept.BYTES);
  const front = entryAt(table, 0);
  store<usize>(front, changetype<usize>(table.selectedGroups), Kept.GROUPS);
  store<usize>(front, changetype<usize>(table.selectedRules), Kept.RULES);
  store<usize>(front, changetype<usize>(table.plan), Kept.PLAN);
}

/**
 * Makes the kept selection whose group flags equal the `count` bytes at `groups` current, and
 * keeps the current one at the front; false if no kept selection has those groups.
 */
export function resumeKept(table: RuleTable, groups: usize, count: usize): bool {
  if (table.keptSelections == 0) return false;
  for (let i: usize = 0; i < KEPT_SELECTIONS; i++) {
    const entry = entryAt(table, i);
    const kept = load<usize>(entry, Kept.GROUPS);
    if (kept == 0) return false;
    if (memory.compare(changetype<Vec>(kept).data, groups, count) != 0) continue;
    const rules = load<usize>(entry, Kept.RULES);
    const plan = load<usize>(entry, Kept.PLAN);
    keepCurrentAtFront(table, i);
    table.selectedGroups = changetype<Vec>(kept);
    table.selectedRules = changetype<Vec>(rules);
    table.plan = changetype<MatchPlan | null>(plan);
    return true;
  }
  return false;
}

/**
 * Keeps the current selection at the front (the least recently used one is freed when all places
 * are taken, or its arrays reused) and gives the table empty arrays for a new one, with no plan.
 */
export function keepCurrent(table: RuleTable): void {
  if (table.keptSelections == 0) {
    table.keptSelections = heap.alloc(KEPT_SELECTIONS * Kept.BYTES);
    memory.fill(table.keptSelections, 0, KEPT_SELECTIONS * Kept.BYTES);
  }
  const last = entryAt(table, KEPT_SELECTIONS - 1);
  const lastGroups = load<usize>(last, Kept.GROUPS);
  let groups: Vec;
  let rules: Vec;
  if (lastGroups != 0) {
    // The least recently used selection gives its arrays to the new one.
    groups = changetype<Vec>(lastGroups);
    rules = changetype<Vec>(load<usize>(last, Kept.RULES));
    const plan = load<usize>(last, Kept.PLAN);
    if (plan != 0) changetype<MatchPlan>(plan).free();
  } else {
    groups = Vec.create(16);
    rules = Vec.create(64);
  }
  keepCurrentAtFront(table, KEPT_SELECTIONS - 1);
  table.selectedGroups = groups;
  table.selectedRules = rules;
  table.plan = null;
}

/** Bytes of linear memory the kept selections hold. */
export function keptBytes(table: RuleTable): usize {
  if (table.keptSelections == 0) return 0;
  let total = KEPT_SELECTIONS * Kept.BYTES;
  for (let i: usize = 0; i < KEPT_SELECTIONS; i++) {
    const entry = entryAt(table, i);
    const groups = load<usize>(entry, Kept.GROUPS);
    if (groups == 0) break;
    total += changetype<Vec>(groups).capacity + changetype<Vec>(load<usize>(entry, Kept.RULES)).capacity;
    const plan = load<usize>(entry, Kept.PLAN);
    if (plan != 0) total += changetype<MatchPlan>(plan).bytes();
  }
  return total;
}

/** Frees the kept selections (with the table). */
export function freeKept(table: RuleTable): void {
  if (table.keptSelections == 0) return;
  for (let i: usize = 0; i < KEPT_SELECTIONS; i++) {
    const entry = entryAt(table, i);
    const groups = load<usize>(entry, Kept.GROUPS);
    if (groups == 0) break;
    changetype<Vec>(groups).free();
    changetype<Vec>(load<usize>(entry, Kept.RULES)).free();
    const plan = load<usize>(entry, Kept.PLAN);
    if (plan != 0) changetype<MatchPlan>(plan).free();
  }
  heap.free(table.keptSelections);
  table.keptSelections = 0;
}
