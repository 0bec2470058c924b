// The walk's shortcuts (walk.ts): a table that lets a path resume the walk where an earlier path with
// the same first bytes left it.

import { NO_RANK } from "./table";

/**
 * The walk's first steps depend only on the path's first SHORTCUT_KEY bytes, and most paths of a
 * batch share their first eight bytes with many others (`/product`, `/categor`): where a walk
 * would take a step past them, it files its state under them, and later paths that start with the
 * same bytes resume there instead of taking the same steps again. A direct-mapped table: a slot
 * holds one key, the last filed there.
 */
export const SHORTCUT_KEY: usize = 8;
/**
 * At most as many shortcuts as rules: 2,048 hold the first eight bytes of 95% of the paths of the
 * 512 KiB benchmark file (4,969 distinct among 200,000 paths); 4,096 gained nothing, 1,024 cost
 * 1-2%.
 */
export const MAX_SHORTCUTS: u32 = 2048;
export const MIN_SHORTCUTS: u32 = 64;
/** Wildcard nodes a shortcut holds at most (the root's `/` and a section or two). */
const SHORTCUT_VISITED: u32 = 3;
const SHORTCUT_BYTES: usize = 32;
export const enum Shortcut {
  KEY = 0,
  /** The node where the walk resumes (not visited yet). */
  NODE = 8,
  /** The best rank among the nodes before it. */
  BEST = 12,
  /** Its depth (bits 0-7) and how many of the nodes before it hold wildcard rules (bits 8-15). */
  META = 16,
  /** Those nodes, as the visited list holds them (node | depth << 24), up to SHORTCUT_VISITED. */
  VISITED = 20,
}

// @ts-ignore: decorator
@inline export function shortcutTableBytes(shift: u32): usize {
  return (<usize>1 << <usize>(64 - shift)) * SHORTCUT_BYTES;
}

/** A table of empty shortcuts: each resumes at the root with nothing visited, as a walk starts. */
export function newShortcuts(shift: u32): usize {
  const bytes = shortcutTableBytes(shift);
  const table = heap.alloc(bytes);
  memory.fill(table, 0, bytes);
  for (let slot: usize = 0; slot < bytes; slot += SHORTCUT_BYTES) store<u32>(table + slot, NO_RANK, Shortcut.BEST);
  return table;
}

// @ts-ignore: decorator
@inline export function shortcutSlot(table: usize, shift: u32, key: u64): usize {
  return table + <usize>((key * 0x9e3779b97f4a7c15) >>> <u64>shift) * SHORTCUT_BYTES;
}

/**
 * Files the walk's state at `node` (about to be visited, at `pos` <= SHORTCUT_KEY) under `key`:
 * the best rank and the `count` wildcard nodes of the nodes before it. More than
 * SHORTCUT_VISITED such nodes are not filed (the slot keeps what it has).
 */
export function fileShortcut(slot: usize, key: u64, node: u32, pos: usize, best: u32, visitedAt: usize, count: u32): void {
  if (count > SHORTCUT_VISITED) return;
  for (let i: u32 = 0; i < count; i++) {
    // Depths are at most SHORTCUT_KEY; a node id that would not fit below the depth is not filed.
    if (load<u32>(visitedAt + (<usize>i << 3)) >= 1 << 24) return;
  }
  store<u64>(slot, key, Shortcut.KEY);
  store<u32>(slot, node, Shortcut.NODE);
  store<u32>(slot, best, Shortcut.BEST);
  store<u32>(slot, <u32>pos | (count << 8), Shortcut.META);
  for (let i: u32 = 0; i < count; i++) {
    const pair = visitedAt + (<usize>i << 3);
    store<u32>(slot + Shortcut.VISITED + (<usize>i << 2), load<u32>(pair) | (load<u32>(pair, 4) << 24));
  }
}
