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
//   `/`) hand them to a gram index instead: a rule is filed under one byte pair that every match
//   must contain (or, for `$`-ended rules, under the pair that must end the path), so a path only
//   checks the rules whose pair it contains.
// - Candidates are tried in rank order and only while they could still beat the best match so
//   far; a 64-bit byte mask rejects most of them before any byte search.

import { Char } from "./chars";
import { bytesEqual, ruleMatches } from "./pattern";
import { sortIndices } from "./sort";
import { RuleField, RuleFlag, RuleTable } from "./table";
import { Vec } from "./vec";

/** No rule (a rank larger than any). */
export const NO_RANK: u32 = 0xffffffff;

/**
 * A node with more wildcard rules than this hands them to the gram index: below it, trying them
 * in order with the byte-mask filter is cheaper than scanning the path's byte pairs. Tests set it
 * to 0 (setWildcardIndexLimit) so that both strategies face the reference.
 */
let nodeWildcardLimit: u32 = 16;

export function setWildcardIndexLimit(limit: u32): void {
  nodeWildcardLimit = limit;
}

const enum NodeField {
  /** Best rank of the literal rules whose pattern is this node's string. */
  LITERAL_BEST = 0,
  /** Best rank of the `$`-anchored literal rules whose pattern body is this node's string. */
  EXACT_BEST = 1,
  /** Range of `wildcards`: wildcard rules whose prefix is this node's string, in rank order. */
  WILDCARD_START = 2,
  WILDCARD_COUNT = 3,
  /** Range of `edges`, sorted by first byte. */
  EDGE_START = 4,
  EDGE_COUNT = 5,
  COUNT = 6,
}
const NODE_FIELDS: u32 = NodeField.COUNT;

const enum EdgeField {
  FIRST_BYTE = 0,
  /** The label: bytes of some rule's pattern in the table pool. */
  LABEL_START = 1,
  LABEL_LENGTH = 2,
  CHILD = 3,
  COUNT = 4,
}
const EDGE_FIELDS: u32 = EdgeField.COUNT;

/** A bucket index: `starts` (buckets + 1 offsets) into `ranks`, each bucket in rank order. */
@unmanaged
class Buckets {
  count: u32;
  starts: Vec;
  ranks: Vec;

  static create(count: u32): Buckets {
    const buckets = changetype<Buckets>(heap.alloc(offsetof<Buckets>()));
    buckets.count = count;
    buckets.starts = Vec.create((<usize>count + 1) << 2);
    buckets.ranks = Vec.create(64);
    return buckets;
  }

  bytes(): usize {
    return offsetof<Buckets>() + this.starts.capacity + this.ranks.capacity;
  }

  free(): void {
    this.starts.free();
    this.ranks.free();
    heap.free(changetype<usize>(this));
  }
}

@unmanaged
export class MatchPlan {
  nodes: Vec;
  edges: Vec;
  wildcards: Vec;
  /** Per rank: the 128-bit mask of the bytes a match must contain (bit = byte & 127), two u64. */
  masks: Vec;
  /** One bit per byte pair (first << 8 | second) under which some rule is filed in `pairs`. */
  pairBits: Vec;
  /** Gram index (0 when no node needed it): pairs anywhere in the path, pairs ending it, bytes ending it. */
  pairs: Buckets | null;
  endPairs: Buckets | null;
  endBytes: Buckets | null;
  /** Indexed wildcard rules with no byte pair to file them under: always candidates. */
  always: Vec;
  /** Per pair bucket: the URL number that last visited it, so a bucket is read once per URL. */
  visits: Vec;
  visit: u32;

  /** Bytes of linear memory the plan holds. */
  bytes(): usize {
    let total = offsetof<MatchPlan>() + this.nodes.capacity + this.edges.capacity + this.wildcards.capacity +
      this.masks.capacity + this.pairBits.capacity + this.always.capacity + this.visits.capacity;
    if (this.pairs) total += changetype<Buckets>(this.pairs).bytes();
    if (this.endPairs) total += changetype<Buckets>(this.endPairs).bytes();
    if (this.endBytes) total += changetype<Buckets>(this.endBytes).bytes();
    return total;
  }

  free(): void {
    this.nodes.free();
    this.edges.free();
    this.wildcards.free();
    this.masks.free();
    this.pairBits.free();
    if (this.pairs) changetype<Buckets>(this.pairs).free();
    if (this.endPairs) changetype<Buckets>(this.endPairs).free();
    if (this.endBytes) changetype<Buckets>(this.endBytes).free();
    this.always.free();
    this.visits.free();
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

/** Lexicographic order of literal prefixes, then rank: rules filed at one node come in rank order. */
function prefixBefore(a: u32, b: u32): bool {
  const la = prefixLengthOf(a);
  const lb = prefixLengthOf(b);
  const pa = prefixOf(a);
  const pb = prefixOf(b);
  const n = min(la, lb);
  let i: u32 = 0;
  // Eight bytes at a time: byte-swapped, the first differing byte decides the comparison.
  while (i + 8 <= n) {
    const x = load<u64>(pa + i);
    const y = load<u64>(pb + i);
    if (x != y) return bswap(x) < bswap(y);
    i += 8;
  }
  while (i < n) {
    const ca = load<u8>(pa + i);
    const cb = load<u8>(pb + i);
    if (ca != cb) return ca < cb;
    i++;
  }
  if (la != lb) return la < lb;
  return a < b;
}

function addNode(plan: MatchPlan): u32 {
  const id = <u32>(plan.nodes.length / (NODE_FIELDS << 2));
  plan.nodes.pushU32(NO_RANK);
  plan.nodes.pushU32(NO_RANK);
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

// @ts-ignore: decorator
@inline function edgeField(plan: MatchPlan, edge: u32, field: u32): u32 {
  return load<u32>(plan.edges.data + ((<usize>edge * EDGE_FIELDS + field) << 2));
}

/**
 * Writes the bytes that a match of the rule must contain (its literal bytes) as a 128-bit mask
 * (bit = byte & 127; compiled patterns are ASCII, and a path's other bytes only add bits).
 */
function storeByteMask(pattern: usize, length: usize, at: usize): void {
  let low: u64 = 0;
  let high: u64 = 0;
  for (let i: usize = 0; i < length; i++) {
    const c = <u64>load<u8>(pattern + i);
    if (c == Char.STAR || (c == Char.DOLLAR && i == length - 1)) continue;
    const bit = (<u64>1) << (c & 63);
    if (c & 64) high |= bit;
    else low |= bit;
  }
  store<u64>(at, low);
  store<u64>(at, high, 8);
}

/** Builds the plan for `table.selectedRules`. */
export function buildPlan(table: RuleTable): MatchPlan {
  const count = <u32>(table.selectedRules.length >> 2);
  const plan = changetype<MatchPlan>(heap.alloc(offsetof<MatchPlan>()));
  plan.nodes = Vec.create(<usize>count * 16 + 64);
  plan.edges = Vec.create(<usize>count * 16 + 64);
  plan.wildcards = Vec.create(64);
  plan.masks = Vec.create(<usize>count << 4);
  plan.pairBits = Vec.create(16);
  plan.pairs = null;
  plan.endPairs = null;
  plan.endBytes = null;
  plan.always = Vec.create(16);
  plan.visits = Vec.create(16);
  plan.visit = 0;

  const masks = plan.masks.reserve(<usize>count << 4);
  plan.masks.length = <usize>count << 4;
  for (let rank: u32 = 0; rank < count; rank++) {
    const rule = ruleOf(table, rank);
    // Only wildcard rules are filtered by mask; literal ones are decided by the tree walk.
    if ((table.ruleField(rule, RuleField.FLAGS) & RuleFlag.WILDCARD) == 0) continue;
    const pattern = table.pool.data + table.ruleField(rule, RuleField.PATTERN_START);
    storeByteMask(pattern, table.ruleField(rule, RuleField.PATTERN_LENGTH), masks + (<usize>rank << 4));
  }

  loadPrefixes(table, count);
  const sorted = sortIndices(count, prefixBefore);
  buildTree(table, plan, sorted, count);
  heap.free(sorted);
  buildGramIndex(table, plan);
  return plan;
}

/**
 * The radix tree over sorted prefixes, built breadth-first from ranges of the sorted list: the
 * rules of a range share the node's string; those whose prefix ends there are filed at the node,
 * the others are split by their next byte into edges labelled with the group's common prefix.
 */
function buildTree(table: RuleTable, plan: MatchPlan, sorted: usize, count: u32): void {
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

    // Rules whose literal prefix is exactly this node's string.
    let literalBest = NO_RANK;
    let exactBest = NO_RANK;
    const wildcardStart = <u32>(plan.wildcards.length >> 2);
    while (lo < hi) {
      const rank = load<u32>(sorted + (<usize>lo << 2));
      if (prefixLengthOf(rank) != depth) break;
      const flags = table.ruleField(ruleOf(table, rank), RuleField.FLAGS);
      if (flags & RuleFlag.WILDCARD) plan.wildcards.pushU32(rank);
      else if (flags & RuleFlag.ANCHORED) exactBest = min(exactBest, rank);
      else literalBest = min(literalBest, rank);
      lo++;
    }
    setNodeField(plan, node, NodeField.LITERAL_BEST, literalBest);
    setNodeField(plan, node, NodeField.EXACT_BEST, exactBest);
    setNodeField(plan, node, NodeField.WILDCARD_START, wildcardStart);
    setNodeField(plan, node, NodeField.WILDCARD_COUNT, <u32>(plan.wildcards.length >> 2) - wildcardStart);

    // The rest, split by the byte after this node's string.
    const edgeStart = <u32>(plan.edges.length / (EDGE_FIELDS << 2));
    let edgeCount: u32 = 0;
    while (lo < hi) {
      const first = load<u32>(sorted + (<usize>lo << 2));
      const firstPrefix = prefixOf(first);
      const byte = <u32>load<u8>(firstPrefix + depth);
      let end = lo + 1;
      while (end < hi && <u32>load<u8>(prefixOf(load<u32>(sorted + (<usize>end << 2))) + depth) == byte) end++;
      // Sorted, so the group's common prefix is that of its first and last members.
      const last = load<u32>(sorted + (<usize>(end - 1) << 2));
      const lastPrefix = prefixOf(last);
      const limit = min(prefixLengthOf(first), prefixLengthOf(last));
      let common = depth + 1;
      while (common < limit && load<u8>(firstPrefix + common) == load<u8>(lastPrefix + common)) common++;
      const child = addNode(plan);
      plan.edges.pushU32(byte);
      plan.edges.pushU32(<u32>(firstPrefix + depth - table.pool.data));
      plan.edges.pushU32(common - depth);
      plan.edges.pushU32(child);
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
}

/** Bucket of a byte pair. */
// @ts-ignore: decorator
@inline function pairBucket(first: u32, second: u32, buckets: u32): u32 {
  return ((first * 0x9e3779b1) ^ (second * 0x85ebca6b)) >>> 7 & (buckets - 1);
}

/** Where an indexed wildcard rule is filed: a pair bucket, an end-pair bucket, an end byte, or always. */
const enum Filing {
  PAIR = 0,
  END_PAIR = 1,
  END_BYTE = 2,
  ALWAYS = 3,
}

/**
 * Files every wildcard rule of the nodes over NODE_WILDCARD_LIMIT in the gram index, and empties
 * those nodes' lists (the walk then leaves them to the index).
 */
function buildGramIndex(table: RuleTable, plan: MatchPlan): void {
  const nodeCount = <u32>(plan.nodes.length / (NODE_FIELDS << 2));
  let indexed: u32 = 0;
  for (let node: u32 = 0; node < nodeCount; node++) {
    const n = nodeField(plan, node, NodeField.WILDCARD_COUNT);
    if (n > nodeWildcardLimit) indexed += n;
  }
  if (indexed == 0) return;
  memory.fill(plan.pairBits.reserve(8192), 0, 8192);
  plan.pairBits.length = 8192;

  let bucketCount: u32 = 64;
  while (bucketCount < indexed * 2 && bucketCount < 65536) bucketCount <<= 1;
  // Per indexed rule: rank, filing, key (3 u32), collected in rank order within each node.
  const filed = Vec.create(<usize>indexed * 12);
  const load_ = Vec.create(<usize>bucketCount << 2);
  memory.fill(load_.reserve(<usize>bucketCount << 2), 0, <usize>bucketCount << 2);
  load_.length = <usize>bucketCount << 2;

  for (let node: u32 = 0; node < nodeCount; node++) {
    const n = nodeField(plan, node, NodeField.WILDCARD_COUNT);
    if (n <= nodeWildcardLimit) continue;
    const start = nodeField(plan, node, NodeField.WILDCARD_START);
    for (let i: u32 = 0; i < n; i++) {
      const rank = plan.wildcards.u32At(start + i);
      fileRule(table, plan, rank, bucketCount, load_, filed);
    }
    setNodeField(plan, node, NodeField.WILDCARD_COUNT, 0);
  }
  load_.free();

  plan.pairs = fillBuckets(filed, Filing.PAIR, bucketCount);
  plan.endPairs = fillBuckets(filed, Filing.END_PAIR, bucketCount);
  plan.endBytes = fillBuckets(filed, Filing.END_BYTE, 256);
  const records = <u32>(filed.length / 12);
  for (let i: u32 = 0; i < records; i++) {
    if (filed.u32At(i * 3 + 1) == Filing.ALWAYS) plan.always.pushU32(filed.u32At(i * 3));
  }
  sortRanks(plan.always);
  filed.free();

  plan.visits.length = 0;
  memory.fill(plan.visits.reserve(<usize>bucketCount << 2), 0, <usize>bucketCount << 2);
  plan.visits.length = <usize>bucketCount << 2;
}

/** Chooses the filing of one rule and records it (rank, filing, key). */
function fileRule(table: RuleTable, plan: MatchPlan, rank: u32, bucketCount: u32, load_: Vec, filed: Vec): void {
  const rule = ruleOf(table, rank);
  const pattern = table.pool.data + table.ruleField(rule, RuleField.PATTERN_START);
  const length = <usize>table.ruleField(rule, RuleField.PATTERN_LENGTH);
  const flags = table.ruleField(rule, RuleField.FLAGS);
  filed.pushU32(rank);
  if (flags & RuleFlag.ANCHORED) {
    // The final segment must end the path: file by its last one or two bytes.
    let segmentStart = length - 1;
    while (segmentStart > 0 && load<u8>(pattern + segmentStart - 1) != Char.STAR) segmentStart--;
    const segmentLength = length - 1 - segmentStart;
    if (segmentLength >= 2) {
      filed.pushU32(Filing.END_PAIR);
      filed.pushU32(pairBucket(load<u8>(pattern + length - 3), load<u8>(pattern + length - 2), bucketCount));
      return;
    }
    if (segmentLength == 1) {
      filed.pushU32(Filing.END_BYTE);
      filed.pushU32(load<u8>(pattern + length - 2));
      return;
    }
  }
  // Any pair of adjacent literal bytes must occur in a match: take the one whose bucket is
  // emptiest so far (pairs with `/` are in most paths, so they count as crowded).
  const end = flags & RuleFlag.ANCHORED ? length - 1 : length;
  let best: u32 = 0xffffffff;
  let bestPair: u32 = 0;
  let bestCost: u32 = 0xffffffff;
  for (let i: usize = 0; i + 1 < end; i++) {
    const a = <u32>load<u8>(pattern + i);
    const b = <u32>load<u8>(pattern + i + 1);
    if (a == Char.STAR || b == Char.STAR) continue;
    const bucket = pairBucket(a, b, bucketCount);
    const cost = load_.u32At(bucket) + (a == Char.SLASH || b == Char.SLASH ? 1024 : 0);
    if (cost < bestCost) {
      bestCost = cost;
      best = bucket;
      bestPair = (a << 8) | b;
    }
  }
  if (best == 0xffffffff) {
    filed.pushU32(Filing.ALWAYS);
    filed.pushU32(0);
    return;
  }
  store<u32>(load_.data + (<usize>best << 2), load_.u32At(best) + 1);
  const bits = plan.pairBits.data + (bestPair >> 3);
  store<u8>(bits, <u32>load<u8>(bits) | (<u32>1 << (bestPair & 7)));
  filed.pushU32(Filing.PAIR);
  filed.pushU32(best);
}

/** Counting sort of the filed rules of one filing into buckets, each bucket in rank order. */
function fillBuckets(filed: Vec, filing: u32, count: u32): Buckets {
  const buckets = Buckets.create(count);
  const starts = buckets.starts.reserve((<usize>count + 1) << 2);
  buckets.starts.length = (<usize>count + 1) << 2;
  memory.fill(starts, 0, (<usize>count + 1) << 2);
  const records = <u32>(filed.length / 12);
  let total: u32 = 0;
  for (let i: u32 = 0; i < records; i++) {
    if (filed.u32At(i * 3 + 1) != filing) continue;
    const key = filed.u32At(i * 3 + 2);
    store<u32>(starts + ((<usize>key + 1) << 2), load<u32>(starts + ((<usize>key + 1) << 2)) + 1);
    total++;
  }
  for (let b: u32 = 0; b < count; b++) {
    store<u32>(starts + ((<usize>b + 1) << 2), load<u32>(starts + ((<usize>b + 1) << 2)) + load<u32>(starts + (<usize>b << 2)));
  }
  const ranks = buckets.ranks.reserve(<usize>total << 2);
  buckets.ranks.length = <usize>total << 2;
  // Fill cursors: reuse a scratch copy of the starts.
  const cursor = heap.alloc(<usize>count << 2);
  memory.copy(cursor, starts, <usize>count << 2);
  for (let i: u32 = 0; i < records; i++) {
    if (filed.u32At(i * 3 + 1) != filing) continue;
    const key = filed.u32At(i * 3 + 2);
    const at = load<u32>(cursor + (<usize>key << 2));
    store<u32>(ranks + (<usize>at << 2), filed.u32At(i * 3));
    store<u32>(cursor + (<usize>key << 2), at + 1);
  }
  heap.free(cursor);
  // Ranks were filed node by node; sort each bucket so that the walk can stop early.
  for (let b: u32 = 0; b < count; b++) {
    sortRange(ranks, load<u32>(starts + (<usize>b << 2)), load<u32>(starts + ((<usize>b + 1) << 2)));
  }
  return buckets;
}

function sortRanks(vec: Vec): void {
  sortRange(vec.data, 0, <u32>(vec.length >> 2));
}

/** Insertion sort of a u32 range, switching to a heap sort when long (buckets are short). */
function sortRange(base: usize, lo: u32, hi: u32): void {
  if (hi - lo > 32) {
    heapSort(base + (<usize>lo << 2), hi - lo);
    return;
  }
  for (let i = lo + 1; i < hi; i++) {
    const value = load<u32>(base + (<usize>i << 2));
    let j = i;
    while (j > lo && load<u32>(base + (<usize>(j - 1) << 2)) > value) {
      store<u32>(base + (<usize>j << 2), load<u32>(base + (<usize>(j - 1) << 2)));
      j--;
    }
    store<u32>(base + (<usize>j << 2), value);
  }
}

function heapSort(base: usize, n: u32): void {
  for (let start = (n >> 1); start > 0; ) {
    start--;
    siftDown(base, start, n);
  }
  for (let end = n; end > 1; ) {
    end--;
    const top = load<u32>(base);
    store<u32>(base, load<u32>(base + (<usize>end << 2)));
    store<u32>(base + (<usize>end << 2), top);
    siftDown(base, 0, end);
  }
}

function siftDown(base: usize, root: u32, n: u32): void {
  while (true) {
    let child = root * 2 + 1;
    if (child >= n) return;
    if (child + 1 < n && load<u32>(base + (<usize>(child + 1) << 2)) > load<u32>(base + (<usize>child << 2))) child++;
    if (load<u32>(base + (<usize>root << 2)) >= load<u32>(base + (<usize>child << 2))) return;
    const swap = load<u32>(base + (<usize>root << 2));
    store<u32>(base + (<usize>root << 2), load<u32>(base + (<usize>child << 2)));
    store<u32>(base + (<usize>child << 2), swap);
    root = child;
  }
}

// ---- Matching --------------------------------------------------------------------------------

/** Nodes visited by the current walk (grow-only scratch). */
let visited: Vec = Vec.create(256);

/** The 128-bit byte mask of the current path (see storeByteMask). */
let pathLow: u64 = 0;
let pathHigh: u64 = 0;

function computePathMask(path: usize, length: usize): void {
  let low: u64 = 0;
  let high: u64 = 0;
  for (let i: usize = 0; i < length; i++) {
    const c = <u64>load<u8>(path + i);
    const bit = (<u64>1) << (c & 63);
    low |= c & 64 ? 0 : bit;
    high |= c & 64 ? bit : 0;
  }
  pathLow = low;
  pathHigh = high;
}

/** Whether the path holds every byte the rule of `rank` needs (a necessary condition for a match). */
// @ts-ignore: decorator
@inline function maskAllows(plan: MatchPlan, rank: u32): bool {
  const at = plan.masks.data + (<usize>rank << 4);
  return ((load<u64>(at) & ~pathLow) | (load<u64>(at, 8) & ~pathHigh)) == 0;
}

/** The best rank in one bucket that matches and beats `best`, else `best`. */
function bestInBucket(
  table: RuleTable, plan: MatchPlan, buckets: Buckets, bucket: u32, best: u32,
  path: usize, length: usize,
): u32 {
  const starts = buckets.starts.data;
  const end = load<u32>(starts + ((<usize>bucket + 1) << 2));
  for (let i = load<u32>(starts + (<usize>bucket << 2)); i < end; i++) {
    const rank = buckets.ranks.u32At(i);
    if (rank >= best) break;
    if (!maskAllows(plan, rank)) continue;
    if (ruleMatches(table, ruleOf(table, rank), path, length, true)) return rank;
  }
  return best;
}

/** The best (smallest) rank matching the path, or NO_RANK. */
export function bestRank(table: RuleTable, plan: MatchPlan, path: usize, length: usize): u32 {
  let best = NO_RANK;
  visited.length = 0;
  let node: u32 = 0;
  let pos: usize = 0;
  const pool = table.pool.data;
  while (true) {
    visited.pushU32(node);
    best = min(best, nodeField(plan, node, NodeField.LITERAL_BEST));
    if (pos == length) {
      best = min(best, nodeField(plan, node, NodeField.EXACT_BEST));
      break;
    }
    const byte = <u32>load<u8>(path + pos);
    const edgeStart = nodeField(plan, node, NodeField.EDGE_START);
    let lo = edgeStart;
    let hi = edgeStart + nodeField(plan, node, NodeField.EDGE_COUNT);
    // Binary search of the edges by first byte.
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (edgeField(plan, mid, EdgeField.FIRST_BYTE) < byte) lo = mid + 1;
      else hi = mid;
    }
    if (lo == edgeStart + nodeField(plan, node, NodeField.EDGE_COUNT) || edgeField(plan, lo, EdgeField.FIRST_BYTE) != byte) break;
    const labelLength = <usize>edgeField(plan, lo, EdgeField.LABEL_LENGTH);
    if (length - pos < labelLength || !bytesEqual(path + pos, pool + edgeField(plan, lo, EdgeField.LABEL_START), labelLength)) break;
    pos += labelLength;
    node = edgeField(plan, lo, EdgeField.CHILD);
  }

  let haveMask = false;
  // Wildcard rules filed at the visited nodes: their prefix is already matched.
  const visitedCount = <u32>(visited.length >> 2);
  for (let v: u32 = 0; v < visitedCount; v++) {
    const at = visited.u32At(v);
    const count = nodeField(plan, at, NodeField.WILDCARD_COUNT);
    if (count == 0) continue;
    const start = nodeField(plan, at, NodeField.WILDCARD_START);
    for (let i: u32 = 0; i < count; i++) {
      const rank = plan.wildcards.u32At(start + i);
      if (rank >= best) break;
      if (!haveMask) {
        computePathMask(path, length);
        haveMask = true;
      }
      if (!maskAllows(plan, rank)) continue;
      if (ruleMatches(table, ruleOf(table, rank), path, length, false)) {
        best = rank;
        break;
      }
    }
  }

  // The gram index.
  const pairs = plan.pairs;
  if (pairs) {
    if (!haveMask) computePathMask(path, length);
    const always = plan.always;
    const alwaysCount = <u32>(always.length >> 2);
    for (let i: u32 = 0; i < alwaysCount; i++) {
      const rank = always.u32At(i);
      if (rank >= best) break;
      if (!maskAllows(plan, rank)) continue;
      if (ruleMatches(table, ruleOf(table, rank), path, length, true)) {
        best = rank;
        break;
      }
    }
    if (length >= 1) {
      best = bestInBucket(table, plan, changetype<Buckets>(plan.endBytes), <u32>load<u8>(path + length - 1), best, path, length);
    }
    const bucketCount = pairs.count;
    if (length >= 2) {
      const endBucket = pairBucket(load<u8>(path + length - 2), load<u8>(path + length - 1), bucketCount);
      best = bestInBucket(table, plan, changetype<Buckets>(plan.endPairs), endBucket, best, path, length);
      // Every pair of the path, each bucket read once.
      let visit = ++plan.visit;
      if (visit == 0) {
        // The URL counter wrapped around: forget every stamp.
        memory.fill(plan.visits.data, 0, plan.visits.length);
        visit = plan.visit = 1;
      }
      const visits = plan.visits.data;
      const pairBits = plan.pairBits.data;
      let previous = <u32>load<u8>(path);
      for (let i: usize = 1; i < length; i++) {
        const current = <u32>load<u8>(path + i);
        const pair = (previous << 8) | current;
        const bucket = pairBucket(previous, current, bucketCount);
        previous = current;
        // Most pairs of a path have no rule filed under them.
        if ((<u32>load<u8>(pairBits + (pair >> 3)) & (<u32>1 << (pair & 7))) == 0) continue;
        const slot = visits + (<usize>bucket << 2);
        if (load<u32>(slot) == visit) continue;
        store<u32>(slot, visit);
        best = bestInBucket(table, plan, pairs, bucket, best, path, length);
      }
    }
  }
  return best;
}
