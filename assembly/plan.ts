// The match plan: an index over the rules that decide for one agent selection, so that the cost of
// deciding a URL does not grow with the number of rules.
//
// Rules are known by their *rank*: their position in decision order (0 decides first). The
// answer for a path is the smallest rank among the rules that match it.
//
// - Every rule's literal prefix (the bytes before its first `*`, or before a final `$`) is filed
//   in a radix tree (a path-compressed byte trie). One walk along the path visits every node whose
//   string is a prefix of the path: literal rules ending there match, `$`-anchored literal rules
//   match if the walk ends there with the path consumed, and wildcard rules filed there are
//   candidates whose remaining segments are checked.
// - Nodes with many wildcard rules (real files carry hundreds of `/*...` rules whose prefix is
//   `/`) hand them to the gram index (grams.ts) instead, so a path only checks the rules filed
//   under the short byte strings it contains.
// - Candidates are tried in rank order and only while they could still beat the best match so
//   far; a 64-bit byte mask (mask.ts) rejects most of them before any byte search.

import { distinctRanks } from "./distinct";
import { buildGramIndex, bestIndexedRank, GramIndex } from "./grams";
import { candidateMatches, candidateMayMatch, candidateRank, CANDIDATE_BYTES, writeCandidate } from "./candidates";
import { resetPathMask } from "./mask";
import { bytesEqual } from "./pattern";
import { RuleField, RuleFlag, RuleTable } from "./table";
import { Vec } from "./vec";

/** No rule (a rank larger than any). */
export const NO_RANK: u32 = 0xffffffff;

/**
 * A node with more wildcard rules than this hands them to the gram index: below it, trying them
 * in order with the byte-mask filter is cheaper than probing the path's grams. Tests set it
 * to 0 (setWildcardIndexLimit) so that both strategies face the reference.
 */
let nodeWildcardLimit: u32 = 16;

export function setWildcardIndexLimit(limit: u32): void {
  nodeWildcardLimit = limit;
}

/**
 * A node, which is also the edge that leads to it: nodes are created with their edges, so the
 * edge at index e leads to node e + 1 (node 0 is the root). The walk reads the label in the node
 * it is about to enter, whose record it then reads anyway.
 */
const enum NodeField {
  /** Best rank of the literal rules whose pattern is this node's string. */
  LITERAL_BEST = 0,
  /** Best rank of the `$`-anchored literal rules whose pattern body is this node's string. */
  EXACT_BEST = 1,
  /** Range of `wildcards` (in entries): wildcard rules whose prefix is this node's string, in rank order. */
  WILDCARD_START = 2,
  WILDCARD_COUNT = 3,
  /** Range of `edgeBytes` (edge indices), sorted by first byte. */
  EDGE_START = 4,
  EDGE_COUNT = 5,
  /** The label of the edge into this node: bytes of some rule's pattern in the table pool. */
  LABEL_START = 6,
  LABEL_LENGTH = 7,
  COUNT = 8,
}
const NODE_FIELDS: u32 = NodeField.COUNT;

/** Nodes with at most this many edges find one with a single vector compare. */
const VECTOR_EDGES: u32 = 16;

@unmanaged
export class MatchPlan {
  nodes: Vec;
  /** The first byte of each edge's label (then 16 bytes of padding for vector loads). */
  edgeBytes: Vec;
  /** Candidate entries (candidates.ts) of the wildcard rules filed at nodes. */
  wildcards: Vec;
  /** The gram index of the rules taken from crowded nodes (null when no node is crowded). */
  grams: GramIndex | null;

  /** Bytes of linear memory the plan holds. */
  bytes(): usize {
    let total = offsetof<MatchPlan>() + this.nodes.capacity + this.edgeBytes.capacity + this.wildcards.capacity;
    if (this.grams) total += changetype<GramIndex>(this.grams).bytes();
    return total;
  }

  free(): void {
    this.nodes.free();
    this.edgeBytes.free();
    this.wildcards.free();
    if (this.grams) changetype<GramIndex>(this.grams).free();
    heap.free(changetype<usize>(this));
  }
}

// ---- Building --------------------------------------------------------------------------------

/** Rule index of a rank. */
// @ts-ignore: decorator
@inline function ruleOf(table: RuleTable, rank: u32): u32 {
  return table.selectedRules.u32At(rank);
}

/**
 * Literal prefix of each rank while the plan is built: (pointer, length) pairs, so that sorting
 * and splitting read one array instead of chasing rule fields.
 */
let prefixes: Vec = Vec.create(64);

// @ts-ignore: decorator
@inline function prefixOf(rank: u32): usize {
  return <usize>load<u32>(prefixes.data + (<usize>rank << 3));
}

// @ts-ignore: decorator
@inline function prefixLengthOf(rank: u32): u32 {
  return load<u32>(prefixes.data + (<usize>rank << 3), 4);
}

function loadPrefixes(table: RuleTable, count: u32): void {
  prefixes.length = 0;
  const at = prefixes.reserve(<usize>count << 3);
  prefixes.length = <usize>count << 3;
  for (let rank: u32 = 0; rank < count; rank++) {
    const rule = ruleOf(table, rank);
    store<u32>(at + (<usize>rank << 3), <u32>(table.pool.data + table.ruleField(rule, RuleField.PATTERN_START)));
    store<u32>(at + (<usize>rank << 3), table.ruleField(rule, RuleField.PREFIX_LENGTH), 4);
  }
}

function addNode(plan: MatchPlan): u32 {
  const id = <u32>(plan.nodes.length / (NODE_FIELDS << 2));
  plan.nodes.pushU32(NO_RANK);
  plan.nodes.pushU32(NO_RANK);
  plan.nodes.pushU32(0);
  plan.nodes.pushU32(0);
  plan.nodes.pushU32(0);
  plan.nodes.pushU32(0);
  plan.nodes.pushU32(0);
  plan.nodes.pushU32(0);
  return id;
}

// @ts-ignore: decorator
@inline function setNodeField(plan: MatchPlan, node: u32, field: u32, value: u32): void {
  store<u32>(plan.nodes.data + ((<usize>node * NODE_FIELDS + field) << 2), value);
}

// @ts-ignore: decorator
@inline function nodeField(plan: MatchPlan, node: u32, field: u32): u32 {
  return load<u32>(plan.nodes.data + ((<usize>node * NODE_FIELDS + field) << 2));
}


/** Builds the plan for `table.selectedRules`. */
export function buildPlan(table: RuleTable): MatchPlan {
  const count = <u32>(table.selectedRules.length >> 2);
  const plan = changetype<MatchPlan>(heap.alloc(offsetof<MatchPlan>()));
  plan.nodes = Vec.create(<usize>count * (NODE_FIELDS << 2) + 64);
  plan.edgeBytes = Vec.create(<usize>count + 64);
  plan.wildcards = Vec.create(64);
  plan.grams = null;

  loadPrefixes(table, count);
  const ranks = heap.alloc(max<usize>(<usize>count << 2, 4));
  const distinct = distinctRanks(table, count, ranks);
  buildTree(table, plan, ranks, distinct);
  heap.free(ranks);
  indexCrowdedNodes(table, plan, count);
  plan.nodes.shrink();
  memory.fill(plan.edgeBytes.reserve(16), 0, 16);
  plan.edgeBytes.length += 16;
  plan.edgeBytes.shrink();
  plan.wildcards.shrink();
  return plan;
}

/** Ranges of at most this many rules are split by insertion sort, larger ones by counting sort. */
const SMALL_RANGE: u32 = 16;

/**
 * Sorts ranks[lo, hi) stably by the byte of their prefix at `depth`, rules whose prefix ends at
 * `depth` first (key 0; byte b is key b + 1). `scratch` has room for the range.
 */
function sortByByte(ranks: usize, lo: u32, hi: u32, depth: u32, scratch: usize): void {
  if (hi - lo <= SMALL_RANGE) {
    for (let i = lo + 1; i < hi; i++) {
      const rank = load<u32>(ranks + (<usize>i << 2));
      const key = keyAt(rank, depth);
      let j = i;
      while (j > lo && keyAt(load<u32>(ranks + (<usize>(j - 1) << 2)), depth) > key) {
        store<u32>(ranks + (<usize>j << 2), load<u32>(ranks + (<usize>(j - 1) << 2)));
        j--;
      }
      store<u32>(ranks + (<usize>j << 2), rank);
    }
    return;
  }
  const counts = byteCounts.data;
  memory.fill(counts, 0, 258 << 2);
  for (let i = lo; i < hi; i++) {
    const at = counts + ((<usize>keyAt(load<u32>(ranks + (<usize>i << 2)), depth) + 1) << 2);
    store<u32>(at, load<u32>(at) + 1);
  }
  for (let key: usize = 1; key < 258; key++) store<u32>(counts + (key << 2), load<u32>(counts + (key << 2)) + load<u32>(counts + ((key - 1) << 2)));
  for (let i = lo; i < hi; i++) {
    const rank = load<u32>(ranks + (<usize>i << 2));
    const at = counts + (<usize>keyAt(rank, depth) << 2);
    const slot = load<u32>(at);
    store<u32>(scratch + (<usize>slot << 2), rank);
    store<u32>(at, slot + 1);
  }
  memory.copy(ranks + (<usize>lo << 2), scratch, <usize>(hi - lo) << 2);
}

/** Counters of sortByByte (258 u32). */
let byteCounts: Vec = Vec.create(258 << 2);

/** 0 if the prefix of `rank` ends at `depth`, else its byte there + 1. */
// @ts-ignore: decorator
@inline function keyAt(rank: u32, depth: u32): u32 {
  return prefixLengthOf(rank) == depth ? 0 : <u32>load<u8>(prefixOf(rank) + depth) + 1;
}

/**
 * The radix tree over the `count` ranks listed ascending at `ranks` (reordered in place), built
 * breadth-first by splitting ranges of ranks (a most-significant-byte radix
 * sort, linear in the prefix bytes): the rules of a range share the node's string; those whose
 * prefix ends there are filed at the node, the others are split by their next byte into edges
 * labelled with the group's common prefix. Splits are stable, so every list stays in rank order.
 */
function buildTree(table: RuleTable, plan: MatchPlan, ranks: usize, count: u32): void {
  const scratch = heap.alloc(max<usize>(<usize>count << 2, 4));
  // Work items: node, lo, hi, depth (4 u32 each).
  const work = Vec.create(256);
  const root = addNode(plan);
  work.pushU32(root);
  work.pushU32(0);
  work.pushU32(count);
  work.pushU32(0);
  let next: usize = 0;
  while (next < work.length) {
    const node = work.u32At((next >> 2));
    let lo = work.u32At((next >> 2) + 1);
    const hi = work.u32At((next >> 2) + 2);
    const depth = work.u32At((next >> 2) + 3);
    next += 16;
    sortByByte(ranks, lo, hi, depth, scratch);

    // Rules whose literal prefix is exactly this node's string.
    let literalBest = NO_RANK;
    let exactBest = NO_RANK;
    const wildcardStart = <u32>(plan.wildcards.length / CANDIDATE_BYTES);
    while (lo < hi) {
      const rank = load<u32>(ranks + (<usize>lo << 2));
      if (prefixLengthOf(rank) != depth) break;
      const flags = table.ruleField(ruleOf(table, rank), RuleField.FLAGS);
      if (flags & RuleFlag.WILDCARD) {
        writeCandidate(table, rank, plan.wildcards.reserve(CANDIDATE_BYTES));
        plan.wildcards.length += CANDIDATE_BYTES;
      }
      else if (flags & RuleFlag.ANCHORED) exactBest = min(exactBest, rank);
      else literalBest = min(literalBest, rank);
      lo++;
    }
    setNodeField(plan, node, NodeField.LITERAL_BEST, literalBest);
    setNodeField(plan, node, NodeField.EXACT_BEST, exactBest);
    setNodeField(plan, node, NodeField.WILDCARD_START, wildcardStart);
    setNodeField(plan, node, NodeField.WILDCARD_COUNT, <u32>(plan.wildcards.length / CANDIDATE_BYTES) - wildcardStart);

    // The rest, grouped by the byte after this node's string.
    const edgeStart = <u32>plan.edgeBytes.length;
    let edgeCount: u32 = 0;
    while (lo < hi) {
      const first = load<u32>(ranks + (<usize>lo << 2));
      const firstPrefix = prefixOf(first);
      const byte = <u32>load<u8>(firstPrefix + depth);
      // The group's common prefix: the first member's, cut wherever another member differs.
      let common = prefixLengthOf(first);
      let end = lo + 1;
      while (end < hi) {
        const other = load<u32>(ranks + (<usize>end << 2));
        const otherPrefix = prefixOf(other);
        if (<u32>load<u8>(otherPrefix + depth) != byte) break;
        common = min(common, prefixLengthOf(other));
        let i = depth + 1;
        while (i < common && load<u8>(firstPrefix + i) == load<u8>(otherPrefix + i)) i++;
        common = i;
        end++;
      }
      const child = addNode(plan);
      plan.edgeBytes.pushU8(byte);
      setNodeField(plan, child, NodeField.LABEL_START, <u32>(firstPrefix + depth - table.pool.data));
      setNodeField(plan, child, NodeField.LABEL_LENGTH, common - depth);
      work.pushU32(child);
      work.pushU32(lo);
      work.pushU32(end);
      work.pushU32(common);
      edgeCount++;
      lo = end;
    }
    setNodeField(plan, node, NodeField.EDGE_START, edgeStart);
    setNodeField(plan, node, NodeField.EDGE_COUNT, edgeCount);
  }
  work.free();
  heap.free(scratch);
}

/**
 * Moves the wildcard rules of every node with more than nodeWildcardLimit of them to the gram
 * index, and empties those nodes' lists (the walk then leaves them to the index).
 */
function indexCrowdedNodes(table: RuleTable, plan: MatchPlan, count: u32): void {
  const nodeCount = <u32>(plan.nodes.length / (NODE_FIELDS << 2));
  // Marks per rank, so that the index gets its ranks in ascending order.
  const marked = heap.alloc(max<usize>(<usize>count, 1));
  memory.fill(marked, 0, <usize>count);
  let indexed: u32 = 0;
  for (let node: u32 = 0; node < nodeCount; node++) {
    const n = nodeField(plan, node, NodeField.WILDCARD_COUNT);
    if (n <= nodeWildcardLimit) continue;
    const start = nodeField(plan, node, NodeField.WILDCARD_START);
    for (let i: u32 = 0; i < n; i++) store<u8>(marked + candidateRank(plan.wildcards.data + <usize>(start + i) * CANDIDATE_BYTES), 1);
    setNodeField(plan, node, NodeField.WILDCARD_COUNT, 0);
    indexed += n;
  }
  if (indexed > 0) {
    const ranks = heap.alloc(<usize>indexed << 2);
    let at: usize = 0;
    for (let rank: u32 = 0; rank < count; rank++) {
      if (!load<u8>(marked + rank)) continue;
      store<u32>(ranks + at, rank);
      at += 4;
    }
    plan.grams = buildGramIndex(table, ranks, indexed);
    heap.free(ranks);
  }
  heap.free(marked);
}

// ---- Matching --------------------------------------------------------------------------------

/** Nodes visited by the current walk (grow-only scratch). */
let visited: Vec = Vec.create(256);

const NO_EDGE: u32 = 0xffffffff;

/** The edge among `count` from `start` whose label starts with `byte`, or NO_EDGE. */
// @ts-ignore: decorator
@inline function findEdge(plan: MatchPlan, start: u32, count: u32, byte: u32): u32 {
  const bytes = plan.edgeBytes.data;
  if (count <= VECTOR_EDGES) {
    const hits = i8x16.bitmask(i8x16.eq(v128.load(bytes + start), i8x16.splat(<i8>byte))) & ((<u32>1 << count) - 1);
    return hits != 0 ? start + ctz(hits) : NO_EDGE;
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

/** The best (smallest) rank matching the path, or NO_RANK. */
export function bestRank(table: RuleTable, plan: MatchPlan, path: usize, length: usize): u32 {
  let best = NO_RANK;
  resetPathMask();
  // A walk visits at most one node per path byte, plus the root.
  visited.length = 0;
  const visitedAt = visited.reserve((length + 1) << 2);
  let visitedCount: u32 = 0;
  let node: u32 = 0;
  let pos: usize = 0;
  const pool = table.pool.data;
  while (true) {
    store<u32>(visitedAt + (<usize>visitedCount << 2), node);
    visitedCount++;
    best = min(best, nodeField(plan, node, NodeField.LITERAL_BEST));
    if (pos == length) {
      best = min(best, nodeField(plan, node, NodeField.EXACT_BEST));
      break;
    }
    const byte = <u32>load<u8>(path + pos);
    const lo = findEdge(plan, nodeField(plan, node, NodeField.EDGE_START), nodeField(plan, node, NodeField.EDGE_COUNT), byte);
    if (lo == NO_EDGE) break;
    const child = lo + 1;
    const labelLength = <usize>nodeField(plan, child, NodeField.LABEL_LENGTH);
    if (length - pos < labelLength || !bytesEqual(path + pos, pool + nodeField(plan, child, NodeField.LABEL_START), labelLength)) break;
    pos += labelLength;
    node = child;
  }

  // Wildcard rules filed at the visited nodes: their prefix is already matched.
  for (let v: u32 = 0; v < visitedCount; v++) {
    const at = load<u32>(visitedAt + (<usize>v << 2));
    const count = nodeField(plan, at, NodeField.WILDCARD_COUNT);
    if (count == 0) continue;
    const start = nodeField(plan, at, NodeField.WILDCARD_START);
    for (let i: u32 = 0; i < count; i++) {
      const entry = plan.wildcards.data + <usize>(start + i) * CANDIDATE_BYTES;
      const rank = candidateRank(entry);
      if (rank >= best) break;
      if (candidateMayMatch(entry, path, length) && candidateMatches(entry, path, length, false)) {
        best = rank;
        break;
      }
    }
  }

  const grams = plan.grams;
  if (grams) best = bestIndexedRank(changetype<GramIndex>(grams), path, length, best);
  return best;
}
