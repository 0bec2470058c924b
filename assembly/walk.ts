// The walk: deciding one path with the match plan (plan.ts). The DFA answers first where there is
// one; else one walk along the radix tree takes the best literal rule of every node whose string
// starts the path, expanding nodes as it enters them, and the wildcard rules of the nodes it
// passed are tried after it, deepest first.

import { bestCandidate, CANDIDATE_BYTES } from "./candidates";
import { Dfa, dfaBestRank, GAVE_UP } from "./dfa";
import { GramIndex } from "./grams";
import { bestIndexedRank } from "./grams-probe";
import { resetPathMask } from "./mask";
import { bytesEqual } from "./pattern";
import {
  CROWDED, expandReached, MatchPlan, NODE_FIELDS, nodeField, NodeField, UNEXPANDED, VECTOR_EDGES, WIDE_SHIFT,
} from "./plan";
import { fileShortcut, newShortcuts, Shortcut, SHORTCUT_KEY, shortcutSlot } from "./shortcuts";
import { NO_RANK, RuleTable } from "./table";
import { Vec } from "./vec";

/** Nodes visited by the current walk; grows for long paths (releaseLongWalk). */
let visited: Vec = Vec.create(256);

/** Gives back the room a long path's walk took (see Vec.releaseRoom). */
export function releaseLongWalk(): void {
  visited.releaseRoom(256);
}

const NO_EDGE: u32 = 0xffffffff;

/**
 * The edge among `count` (a node's EDGE_COUNT field) from `start` whose label starts with `byte`,
 * or NO_EDGE; `bytes` and `wideEdges` are the plan's edgeBytes and wideEdges data.
 */
// @ts-ignore: decorator
@inline function findEdge(bytes: usize, wideEdges: usize, start: u32, count: u32, byte: u32): u32 {
  if (count <= VECTOR_EDGES) {
    const hits = i8x16.bitmask(i8x16.eq(v128.load(bytes + start), i8x16.splat(<i8>byte))) & ((<u32>1 << count) - 1);
    return hits != 0 ? start + ctz(hits) : NO_EDGE;
  }
  const wide = count >> WIDE_SHIFT;
  if (wide != 0) {
    const edge = <u32>load<u8>(wideEdges + (<usize>(wide - 1) << 8) + byte);
    return edge != 0 ? start + edge - 1 : NO_EDGE;
  }
  let lo = start;
  let hi = start + count;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (<u32>load<u8>(bytes + mid) < byte) lo = mid + 1;
    else hi = mid;
  }
  return lo < start + count && <u32>load<u8>(bytes + lo) == byte ? lo : NO_EDGE;
}

/**
 * Whether the path at `at` starts with the label of `length` bytes at `label`: labels of up to
 * sixteen bytes (most) in one vector compare, so that a node costs one branch that is almost
 * always taken, where a byte loop would end at a different count at every node.
 */
// @ts-ignore: decorator
@inline function labelMatches(at: usize, label: usize, length: usize, memoryEnd: usize): bool {
  if (length > 16 || at + 16 > memoryEnd || label + 16 > memoryEnd) return bytesEqual(at, label, length);
  const differ = ~i8x16.bitmask(i8x16.eq(v128.load(at), v128.load(label))) & 0xffff;
  return (differ & ((<u32>1 << <u32>length) - 1)) == 0;
}

/** 1 if the node of `record` holds wildcard rules, so that a walk keeps it in its visited list. */
// @ts-ignore: decorator
@inline function keptInVisited(record: usize): u32 {
  return <u32>(load<u32>(record, NodeField.WILDCARD_COUNT << 2) != 0);
}

/** The best (smallest) rank matching the path, or NO_RANK. */
export function bestRank(table: RuleTable, plan: MatchPlan, path: usize, length: usize): u32 {
  const dfa = plan.dfa;
  if (dfa) {
    const rank = dfaBestRank(changetype<Dfa>(dfa), path, length);
    if (rank != GAVE_UP) return rank;
  }
  // The nodes of the walk that hold wildcard rules, with their depth (a walk visits at most one
  // node per path byte, and none deeper than the longest pattern, plus the root).
  visited.length = 0;
  const visitedAt = visited.reserve((min(length, <usize>plan.longestPattern) + 1) << 3);
  let visitedCount: u32 = 0;
  let node: u32 = 0;
  let pos: usize = 0;
  let best = NO_RANK;
  // A path longer than a shortcut's key resumes where an earlier one with the same first bytes
  // filed its walk, or files its own when it steps past them (fileAfter).
  let slot: usize = 0;
  let key: u64 = 0;
  let fileAfter: usize = <usize>-1;
  if (length > SHORTCUT_KEY) {
    if (!plan.shortcuts) plan.shortcuts = newShortcuts(plan.shortcutShift);
    key = load<u64>(path);
    slot = shortcutSlot(plan.shortcuts, plan.shortcutShift, key);
    if (load<u64>(slot, Shortcut.KEY) == key) {
      node = load<u32>(slot, Shortcut.NODE);
      best = load<u32>(slot, Shortcut.BEST);
      const meta = load<u32>(slot, Shortcut.META);
      pos = <usize>(meta & 0xff);
      visitedCount = (meta >> 8) & 0xff;
      for (let i: u32 = 0; i < visitedCount; i++) {
        const pair = load<u32>(slot + Shortcut.VISITED + (<usize>i << 2));
        store<u32>(visitedAt + (<usize>i << 3), pair & 0xffffff);
        store<u32>(visitedAt + (<usize>i << 3), pair >>> 24, 4);
      }
    } else {
      fileAfter = SHORTCUT_KEY;
    }
  }
  const pool = table.pool.data;
  const memoryEnd = <usize>memory.size() << 16;
  // The plan's arrays, in locals: the stores of the walk would make the compiler read them from
  // the plan at every use. Only an expansion moves them.
  let nodes = plan.nodes.data;
  let edgeBytes = plan.edgeBytes.data;
  let wideEdges = plan.wideEdges.data;
  // One node per turn.
  while (true) {
    let record = nodes + <usize>node * (NODE_FIELDS << 2);
    if (load<u32>(record, NodeField.LITERAL_BEST << 2) == UNEXPANDED) {
      expandReached(table, plan, node);
      nodes = plan.nodes.data;
      edgeBytes = plan.edgeBytes.data;
      wideEdges = plan.wideEdges.data;
      record = nodes + <usize>node * (NODE_FIELDS << 2);
    }
    // Every node is written down, and kept (counted) if it holds wildcard rules: no branch for
    // the CPU to mispredict at each node.
    store<u32>(visitedAt + (<usize>visitedCount << 3), node);
    store<u32>(visitedAt + (<usize>visitedCount << 3), <u32>pos, 4);
    visitedCount += keptInVisited(record);
    best = min(best, load<u32>(record, NodeField.LITERAL_BEST << 2));
    if (pos == length) {
      best = min(best, load<u32>(record, NodeField.EXACT_BEST << 2));
      break;
    }
    const byte = <u32>load<u8>(path + pos);
    const edge = findEdge(edgeBytes, wideEdges, load<u32>(record, NodeField.EDGE_START << 2), load<u32>(record, NodeField.EDGE_COUNT << 2), byte);
    if (edge == NO_EDGE) break;
    const child = edge + 1;
    const childRecord = nodes + <usize>child * (NODE_FIELDS << 2);
    const labelLength = <usize>load<u32>(childRecord, NodeField.LABEL_LENGTH << 2);
    if (pos + labelLength > fileAfter) {
      // The next step reads past the key: later paths with the key resume at this node.
      fileShortcut(slot, key, node, pos, best, visitedAt, visitedCount - keptInVisited(record));
      fileAfter = <usize>-1;
    }
    if (length - pos < labelLength || !labelMatches(path + pos, pool + load<u32>(childRecord, NodeField.LABEL_START << 2), labelLength, memoryEnd)) break;
    pos += labelLength;
    node = child;
  }
  // A walk that ended before stepping past the key files where it ended: later paths with the key
  // resume there and try the step that ended it with their own bytes.
  if (fileAfter != <usize>-1) {
    const record = nodes + <usize>node * (NODE_FIELDS << 2);
    fileShortcut(slot, key, node, pos, best, visitedAt, visitedCount - keptInVisited(record));
  }

  return rankFromVisited(table, plan, path, length, best, visitedAt, visitedCount, memoryEnd);
}

/**
 * The rest of bestRank once the walk is done: the wildcard rules filed at the `visitedCount` nodes
 * listed at `visitedAt` as (node, depth) u32 pairs, whose prefix is already matched.
 */
function rankFromVisited(table: RuleTable, plan: MatchPlan, path: usize, length: usize, best: u32, visitedAt: usize, visitedCount: u32, memoryEnd: usize): u32 {
  // The path masks (mask.ts) are computed for this path when a candidate first needs them.
  resetPathMask();
  // Wildcard rules filed at the visited nodes, whose prefix is already matched: deepest first,
  // as longer prefixes tend to belong to longer patterns, whose best rank prunes the rest.
  for (let v = visitedCount; v > 0; v--) {
    const at = load<u32>(visitedAt + (<usize>(v - 1) << 3));
    const count = nodeField(plan, at, NodeField.WILDCARD_COUNT);
    const start = nodeField(plan, at, NodeField.WILDCARD_START);
    if (count == CROWDED) {
      const depth = <usize>load<u32>(visitedAt + (<usize>(v - 1) << 3), 4);
      best = bestIndexedRank(table, changetype<GramIndex>(plan.grams), start, depth, path, length, best, memoryEnd);
      continue;
    }
    const entries = plan.wildcards.data + <usize>start * CANDIDATE_BYTES;
    best = bestCandidate(entries, entries + <usize>count * CANDIDATE_BYTES, path, length, best);
  }
  return best;
}
