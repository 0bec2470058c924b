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
//   candidates whose remaining segments are checked. The tree grows as walks reach it: a node is
//   split into its children the first time a walk enters it (expandNode), so a plan costs what
//   its paths need: crawlers often check a few URLs per site, and in a large batch each node is
//   expanded by the first URL that reaches it, while nodes no path reaches are never built.
// - Nodes with many wildcard rules (real files carry hundreds of `/*...` rules whose prefix is
//   `/`) hand them to the gram index (grams.ts) instead, so a path only checks the rules filed
//   under the short byte strings it contains.
// - Candidates are tried in rank order and only while they could still beat the best match so
//   far; a 64-bit byte mask (mask.ts) rejects most of them before any byte search.
// - Small selections (most files) also get a lazy DFA (dfa.ts), which answers first: one table
//   lookup per path byte. The tree answers when there is none or when its state cache thrashes.
//
// This file builds the plan and expands its nodes; walk.ts decides a path with it, and shortcuts.ts
// holds the table that lets a walk skip the steps an earlier path with the same first bytes took.

import { firstOfEqual, STRING_BYTES } from "./byte-groups";
import { distinctRanks } from "./distinct";
import { buildDfa, Dfa, dfaMayFit } from "./dfa";
import { GramIndex } from "./grams";
import { buildGramIndex } from "./grams-build";
import { CANDIDATE_BYTES, writeCandidate } from "./candidates";
import { bytesEqual } from "./pattern";
import { MAX_SHORTCUTS, MIN_SHORTCUTS, newShortcuts, shortcutTableBytes } from "./shortcuts";
import { NO_RANK, RuleField, RuleFlag, RuleTable } from "./table";
import { Vec } from "./vec";

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
export const enum NodeField {
  /** Best rank of the literal rules whose pattern is this node's string. */
  LITERAL_BEST = 0,
  /** Best rank of the `$`-anchored literal rules whose pattern body is this node's string. */
  EXACT_BEST = 1,
  /**
   * Range of `wildcards` (in entries): wildcard rules whose prefix is this node's string, in rank
   * order. A crowded prefix's node has CROWDED as its count and its prefix id in the gram index
   * as its start.
   */
  WILDCARD_START = 2,
  WILDCARD_COUNT = 3,
  /**
   * Range of `edgeBytes` (edge indices), sorted by first byte. A wide node's count also holds,
   * from bit WIDE_SHIFT, its table in `wideEdges` + 1.
   */
  EDGE_START = 4,
  EDGE_COUNT = 5,
  /** The label of the edge into this node: bytes of some rule's pattern in the table pool. */
  LABEL_START = 6,
  LABEL_LENGTH = 7,
  COUNT = 8,
}

/**
 * LITERAL_BEST of a node not expanded yet (larger than any rank, other than NO_RANK): the node
 * then holds its range of the plan's items and the length of its string in these fields.
 */
export const UNEXPANDED: u32 = 0xfffffffe;
const enum Unexpanded {
  LO = NodeField.EDGE_START,
  HI = NodeField.EDGE_COUNT,
  DEPTH = NodeField.WILDCARD_START,
}
export const NODE_FIELDS: u32 = NodeField.COUNT;
/** WILDCARD_COUNT of a crowded prefix's node: its rules are in the gram index. */
export const CROWDED: u32 = 0x80000000;

/** Nodes with at most this many edges find one with a single vector compare. */
export const VECTOR_EDGES: u32 = 16;
/**
 * Wider nodes (up to 254 edges, so that an edge + 1 fits a byte) get a table of 256 bytes, the
 * edge + 1 of each byte value (0: none): one load instead of a binary search whose every step
 * is a branch the CPU cannot predict. Wider ones are searched.
 */
const WIDE_EDGES_MAX: u32 = 254;
export const WIDE_SHIFT: u32 = 9;

@unmanaged
export class MatchPlan {
  nodes: Vec;
  /** The first byte of each edge's label (then 16 bytes of padding for vector loads). */
  edgeBytes: Vec;
  /** The edge tables of wide nodes (see WIDE_EDGES_MAX), 256 bytes each. */
  wideEdges: Vec;
  /** Candidate entries (candidates.ts) of the wildcard rules filed at nodes. */
  wildcards: Vec;
  /** The bytes `wildcards` holds once every node is expanded: it grows up to them, not past them. */
  wildcardRoom: u32;
  /** The gram index of the rules taken from crowded nodes (null when no node is crowded). */
  grams: GramIndex | null;
  /** The lazy DFA of a small selection (dfa.ts), which answers before the tree; null for large ones. */
  dfa: Dfa | null;
  /** The rules the unexpanded nodes hold (see expandNode), ITEM_BYTES each; 0 once every node is expanded. */
  items: usize;
  itemCount: u32;
  /** Nodes not expanded yet, and how many items they hold. */
  pending: u32;
  pendingItems: u32;
  /**
   * The verdict of each rank (1: allowed) and, after them, 1 for NO_RANK: a batch that wants
   * verdicts only reads one byte per URL instead of the winning rule's fields.
   */
  verdicts: usize;
  rankCount: u32;
  /**
   * The walk's shortcuts (see Shortcut), a power of two of them; 0 until the tree first decides a
   * path (a plan with a DFA rarely needs them).
   */
  shortcuts: usize;
  /** 64 - log2(the number of shortcuts). */
  shortcutShift: u32;
  /**
   * The longest selected pattern: no node's string is longer, so a walk visits at most this
   * many nodes past the root, however long the path (a 16 MiB URL reserves for these only).
   */
  longestPattern: u32;

  /** Bytes of linear memory the plan holds. */
  bytes(): usize {
    let total = offsetof<MatchPlan>() + this.nodes.capacity + this.edgeBytes.capacity + this.wideEdges.capacity +
      this.wildcards.capacity;
    if (this.items) total += <usize>this.itemCount * ITEM_BYTES;
    total += <usize>this.rankCount + 1;
    if (this.shortcuts) total += shortcutTableBytes(this.shortcutShift);
    if (this.grams) total += changetype<GramIndex>(this.grams).bytes();
    if (this.dfa) total += changetype<Dfa>(this.dfa).bytes();
    return total;
  }

  free(): void {
    this.nodes.free();
    this.edgeBytes.free();
    this.wideEdges.free();
    this.wildcards.free();
    if (this.items) heap.free(this.items);
    if (this.grams) changetype<GramIndex>(this.grams).free();
    if (this.dfa) changetype<Dfa>(this.dfa).free();
    heap.free(this.verdicts);
    if (this.shortcuts) heap.free(this.shortcuts);
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
 * A rule while the tree is built: its rank with three flags, and its literal prefix (address in
 * the pool, length), side by side, so that splitting reads one array instead of chasing rule
 * fields. Twelve bytes: the items and their sort scratch are the peak of a large file's compile.
 * A crowded prefix is an item too (ITEM_CROWDED, with its prefix id for a rank): it marks its node.
 */
const ITEM_BYTES: usize = 12;
/** Flag bits above the rank: ranks stay below 2^28, as every rule takes 24 bytes of fields in a 32-bit memory. */
const ITEM_WILDCARD: u32 = 1 << 31;
const ITEM_ANCHORED: u32 = 1 << 30;
const ITEM_CROWDED: u32 = 1 << 29;

// @ts-ignore: decorator
@inline function itemRank(item: usize): u32 {
  return load<u32>(item) & ~(ITEM_WILDCARD | ITEM_ANCHORED | ITEM_CROWDED);
}

// @ts-ignore: decorator
@inline function itemPrefix(item: usize): usize {
  return <usize>load<u32>(item, 4);
}

// @ts-ignore: decorator
@inline function itemPrefixLength(item: usize): u32 {
  return load<u32>(item, 8);
}

// @ts-ignore: decorator
@inline function copyItem(to: usize, from: usize): void {
  store<u64>(to, load<u64>(from));
  store<u32>(to, load<u32>(from, 8), 8);
}

function addNode(plan: MatchPlan): u32 {
  const id = <u32>(plan.nodes.length / (NODE_FIELDS << 2));
  const at = plan.nodes.reserve(NODE_FIELDS << 2);
  plan.nodes.length += NODE_FIELDS << 2;
  // No best ranks yet, everything else empty.
  memory.fill(at, 0, NODE_FIELDS << 2);
  store<u32>(at, NO_RANK, NodeField.LITERAL_BEST << 2);
  store<u32>(at, NO_RANK, NodeField.EXACT_BEST << 2);
  return id;
}

// @ts-ignore: decorator
@inline function setNodeField(plan: MatchPlan, node: u32, field: u32, value: u32): void {
  store<u32>(plan.nodes.data + ((<usize>node * NODE_FIELDS + field) << 2), value);
}

// @ts-ignore: decorator
@inline export function nodeField(plan: MatchPlan, node: u32, field: u32): u32 {
  return load<u32>(plan.nodes.data + ((<usize>node * NODE_FIELDS + field) << 2));
}


/** Builds the plan for `table.selectedRules`; its tree grows as paths walk into it (expandNode). */
export function buildPlan(table: RuleTable): MatchPlan {
  const count = <u32>(table.selectedRules.length >> 2);
  const plan = changetype<MatchPlan>(heap.alloc(offsetof<MatchPlan>()));
  plan.grams = null;

  plan.rankCount = count;
  plan.shortcuts = 0;
  // As many shortcuts as rules (the walks of a few rules lead to few places), within bounds.
  let slots = MIN_SHORTCUTS;
  while (slots < count && slots < MAX_SHORTCUTS) slots <<= 1;
  plan.shortcutShift = 64 - ctz(slots);
  plan.verdicts = heap.alloc(<usize>count + 1);
  for (let rank: u32 = 0; rank < count; rank++) store<u8>(plan.verdicts + rank, table.ruleAllows(ruleOf(table, rank)));
  store<u8>(plan.verdicts + count, 1);

  const ranks = heap.alloc(max<usize>(<usize>count << 2, 4));
  // The DFA needs every repeat dropped; the tree only repeated wildcard rules (see distinctRanks).
  const small = dfaMayFit(count);
  const distinct = distinctRanks(table, count, ranks, !small);
  plan.dfa = small ? buildDfa(table, ranks, distinct) : null;
  // The tree decides every path of a plan without a DFA (and files shortcuts from the first).
  if (!small) plan.shortcuts = newShortcuts(plan.shortcutShift);
  const items = heap.alloc(max<usize>(<usize>distinct * ITEM_BYTES, ITEM_BYTES));
  plan.longestPattern = 0;
  for (let i: u32 = 0; i < distinct; i++) {
    const rank = load<u32>(ranks + (<usize>i << 2));
    const rule = ruleOf(table, rank);
    plan.longestPattern = max(plan.longestPattern, table.ruleField(rule, RuleField.PATTERN_LENGTH));
    const item = items + <usize>i * ITEM_BYTES;
    const flags = table.ruleField(rule, RuleField.FLAGS);
    store<u32>(item, rank | (flags & RuleFlag.WILDCARD ? ITEM_WILDCARD : 0) | (flags & RuleFlag.ANCHORED ? ITEM_ANCHORED : 0));
    store<u32>(item, <u32>(table.pool.data + table.ruleField(rule, RuleField.PATTERN_START)), 4);
    store<u32>(item, table.ruleField(rule, RuleField.PREFIX_LENGTH), 8);
  }
  heap.free(ranks);
  const kept = indexCrowdedPrefixes(table, plan, items, distinct, count);

  // A radix tree over n strings has at most 2n - 1 nodes; real and generated files have about
  // 1.1n (repeated literal patterns share one).
  plan.nodes = Vec.create((<usize>kept + (kept >> 2) + 1) * (NODE_FIELDS << 2));
  plan.edgeBytes = Vec.create(<usize>kept + 16);
  plan.wideEdges = Vec.create(0);
  // The arrays the expansions fill grow up to what the whole tree needs, not past it (see
  // wildcardRoom and edgeBytesRoom): doubled past it, they took the 512 KiB benchmark file's table
  // from 1.96 to 2.01 MB while a batch grew its tree (now 1.99 at most).
  plan.wildcards = Vec.create(64);
  plan.wildcardRoom = wildcardItems(items, kept) * <u32>CANDIDATE_BYTES;
  plan.items = items;
  plan.itemCount = max<u32>(distinct, 1);
  const root = addNode(plan);
  setUnexpanded(plan, root, 0, kept, 0);
  plan.pending = 1;
  plan.pendingItems = kept;
  return plan;
}

/**
 * The most `edgeBytes` will hold: an edge per node but the root, as many as `nodes` has room for
 * (unless it outgrows it), and the padding findEdge reads past the last.
 */
// @ts-ignore: decorator
@inline function edgeBytesRoom(plan: MatchPlan): usize {
  return plan.nodes.capacity / (NODE_FIELDS << 2) + VECTOR_EDGES;
}

/** How many of the `count` items are wildcard rules filed at nodes (each becomes a candidate entry). */
function wildcardItems(items: usize, count: u32): u32 {
  let wildcards: u32 = 0;
  for (let i: u32 = 0; i < count; i++) {
    const flags = load<u32>(items + <usize>i * ITEM_BYTES);
    if ((flags & ITEM_WILDCARD) != 0 && (flags & ITEM_CROWDED) == 0) wildcards++;
  }
  return wildcards;
}

/** Ranges of at most this many rules are split by insertion sort, larger ones by counting sort. */
const SMALL_RANGE: u32 = 16;

/**
 * Sorts items[lo, hi) stably by the byte of their prefix at `depth`, rules whose prefix ends at
 * `depth` first (key 0; byte b is key b + 1).
 */
function sortByByte(items: usize, lo: u32, hi: u32, depth: u32): void {
  const n = hi - lo;
  const range = items + <usize>lo * ITEM_BYTES;
  if (n <= SMALL_RANGE) {
    const held = heldItem;
    for (let i: u32 = 1; i < n; i++) {
      copyItem(held, range + <usize>i * ITEM_BYTES);
      const key = keyAt(held, depth);
      let j = i;
      while (j > 0 && keyAt(range + <usize>(j - 1) * ITEM_BYTES, depth) > key) {
        copyItem(range + <usize>j * ITEM_BYTES, range + <usize>(j - 1) * ITEM_BYTES);
        j--;
      }
      copyItem(range + <usize>j * ITEM_BYTES, held);
    }
    return;
  }
  // A counting sort over the keys present only (most ranges use a few dozen byte values): keys
  // are read once into `keys`, counted, and the items placed through `scratch`.
  const keys = heap.alloc(<usize>n << 1);
  let low: u32 = 257;
  let high: u32 = 0;
  for (let i: u32 = 0; i < n; i++) {
    const key = keyAt(range + <usize>i * ITEM_BYTES, depth);
    store<u16>(keys + (<usize>i << 1), key);
    low = min(low, key);
    high = max(high, key);
  }
  // One key (the root's `/`, a node's single next byte): already in order.
  if (low == high) {
    heap.free(keys);
    return;
  }
  const counts = byteCounts.data;
  memory.fill(counts + (<usize>low << 2), 0, <usize>(high - low + 2) << 2);
  for (let i: u32 = 0; i < n; i++) {
    const at = counts + ((<usize>load<u16>(keys + (<usize>i << 1)) + 1) << 2);
    store<u32>(at, load<u32>(at) + 1);
  }
  for (let key = low + 1; key <= high; key++) store<u32>(counts + (<usize>key << 2), load<u32>(counts + (<usize>key << 2)) + load<u32>(counts + (<usize>(key - 1) << 2)));
  const scratch = heap.alloc(<usize>n * ITEM_BYTES);
  for (let i: u32 = 0; i < n; i++) {
    const at = counts + (<usize>load<u16>(keys + (<usize>i << 1)) << 2);
    const slot = load<u32>(at);
    copyItem(scratch + <usize>slot * ITEM_BYTES, range + <usize>i * ITEM_BYTES);
    store<u32>(at, slot + 1);
  }
  memory.copy(range, scratch, <usize>n * ITEM_BYTES);
  heap.free(scratch);
  heap.free(keys);
}

/** Counters of sortByByte (258 u32). */
let byteCounts: Vec = Vec.create(258 << 2);
/** The item an insertion sort holds while it shifts the others. */
const heldItem: usize = heap.alloc(ITEM_BYTES);

/** 0 if the item's prefix ends at `depth`, else its byte there + 1. */
// @ts-ignore: decorator
@inline function keyAt(item: usize, depth: u32): u32 {
  return itemPrefixLength(item) == depth ? 0 : <u32>load<u8>(itemPrefix(item) + depth) + 1;
}

/** Marks a node as not expanded yet, holding the rules items[lo, hi), whose prefixes share its string of `depth` bytes. */
// @ts-ignore: decorator
@inline function setUnexpanded(plan: MatchPlan, node: u32, lo: u32, hi: u32, depth: u32): void {
  setNodeField(plan, node, NodeField.LITERAL_BEST, UNEXPANDED);
  setNodeField(plan, node, Unexpanded.LO, lo);
  setNodeField(plan, node, Unexpanded.HI, hi);
  setNodeField(plan, node, Unexpanded.DEPTH, depth);
}

/**
 * The length of the common prefix of the prefixes of items[lo, hi), which share their first
 * `from` bytes and are all at least `limit` long. They are compared eight bytes at a time, each
 * eight in every member before the next eight, up to the first difference: every member is read
 * to the end of the common prefix (and at most eight bytes past it), which is the label of the
 * child they all go to. A member passes each byte of its prefix in one label on its way down the
 * tree, so expanding the whole tree reads about as many bytes as the prefixes hold, whatever they
 * share. Comparing one member after another, each up to the common prefix found so far, would
 * read nested prefixes (`/b`, `/ab`, `/aab`, ..., which come longest first) to their end at
 * every node of their chain.
 */
function commonPrefix(items: usize, lo: u32, hi: u32, from: u32, limit: u32): u32 {
  const first = itemPrefix(items + <usize>lo * ITEM_BYTES);
  let common = limit;
  for (let at = from; at < common; at += 8) {
    for (let k = lo + 1; k < hi && at < common; k++) {
      const other = itemPrefix(items + <usize>k * ITEM_BYTES);
      if (at + 8 <= common) {
        // Within every member's prefix (common <= limit).
        const differ = load<u64>(first + at) ^ load<u64>(other + at);
        if (differ != 0) common = at + <u32>(ctz(differ) >> 3);
      } else {
        let i = at;
        while (i < common && load<u8>(first + i) == load<u8>(other + i)) i++;
        common = i;
      }
    }
  }
  return common;
}

/**
 * Expands a node of the radix tree the first time a walk enters it, so that a plan costs only the
 * nodes its paths reach (a crawler often checks a few URLs per site). The node's items are split
 * as a step of a most-significant-byte radix sort: those whose prefix ends at the node's string
 * are filed at the node; the others, grouped by their next byte, become its children (unexpanded),
 * each labelled with its group's common prefix. Splits are stable, so every list stays in rank order.
 */
function expandNode(table: RuleTable, plan: MatchPlan, node: u32): void {
  const items = plan.items;
  let lo = nodeField(plan, node, Unexpanded.LO);
  const hi = nodeField(plan, node, Unexpanded.HI);
  const depth = nodeField(plan, node, Unexpanded.DEPTH);
  const first = lo;
  sortByByte(items, lo, hi, depth);

  // Rules whose literal prefix is exactly this node's string.
  let literalBest = NO_RANK;
  let exactBest = NO_RANK;
  let wildcardStart = <u32>(plan.wildcards.length / CANDIDATE_BYTES);
  let crowded = false;
  while (lo < hi) {
    const item = items + <usize>lo * ITEM_BYTES;
    if (itemPrefixLength(item) != depth) break;
    const rank = itemRank(item);
    const flags = load<u32>(item);
    if (flags & ITEM_CROWDED) {
      // Its wildcard rules are all in the gram index: the node keeps the prefix id instead.
      crowded = true;
      wildcardStart = rank;
    } else if (flags & ITEM_WILDCARD) {
      writeCandidate(table, rank, plan.wildcards.reserve(CANDIDATE_BYTES, plan.wildcardRoom));
      plan.wildcards.length += CANDIDATE_BYTES;
    }
    else if (flags & ITEM_ANCHORED) exactBest = min(exactBest, rank);
    else literalBest = min(literalBest, rank);
    lo++;
  }

  plan.pendingItems -= lo - first;

  // The rest, grouped by the byte after this node's string.
  const edgeStart = <u32>plan.edgeBytes.length;
  const edgeRoom = edgeBytesRoom(plan);
  let edgeCount: u32 = 0;
  while (lo < hi) {
    const first = items + <usize>lo * ITEM_BYTES;
    const firstPrefix = itemPrefix(first);
    const byte = <u32>load<u8>(firstPrefix + depth);
    // The group: the items whose next byte is this one. Its common prefix is at most its shortest.
    let common = itemPrefixLength(first);
    let end = lo + 1;
    while (end < hi) {
      const other = items + <usize>end * ITEM_BYTES;
      if (<u32>load<u8>(itemPrefix(other) + depth) != byte) break;
      common = min(common, itemPrefixLength(other));
      end++;
    }
    common = commonPrefix(items, lo, end, depth + 1, common);
    const child = addNode(plan);
    plan.edgeBytes.pushU8(byte, edgeRoom);
    setNodeField(plan, child, NodeField.LABEL_START, <u32>(firstPrefix + depth - table.pool.data));
    setNodeField(plan, child, NodeField.LABEL_LENGTH, common - depth);
    setUnexpanded(plan, child, lo, end, common);
    edgeCount++;
    lo = end;
  }
  // findEdge loads 16 edge bytes at once.
  plan.edgeBytes.reserve(VECTOR_EDGES, edgeRoom);
  setNodeField(plan, node, NodeField.LITERAL_BEST, literalBest);
  setNodeField(plan, node, NodeField.EXACT_BEST, exactBest);
  setNodeField(plan, node, NodeField.WILDCARD_START, wildcardStart);
  setNodeField(plan, node, NodeField.WILDCARD_COUNT, crowded ? CROWDED : <u32>(plan.wildcards.length / CANDIDATE_BYTES) - wildcardStart);
  setNodeField(plan, node, NodeField.EDGE_START, edgeStart);
  let countField = edgeCount;
  if (edgeCount > VECTOR_EDGES && edgeCount <= WIDE_EDGES_MAX) {
    const wide = <u32>(plan.wideEdges.length >> 8);
    // Wide nodes are few (dozens in the largest files): the tables grow one at a time.
    const edgeTable = plan.wideEdges.reserve(256, plan.wideEdges.length + 256);
    plan.wideEdges.length += 256;
    memory.fill(edgeTable, 0, 256);
    const bytes = plan.edgeBytes.data + edgeStart;
    for (let k: u32 = 0; k < edgeCount; k++) store<u8>(edgeTable + <usize>load<u8>(bytes + k), k + 1);
    countField |= (wide + 1) << WIDE_SHIFT;
  }
  setNodeField(plan, node, NodeField.EDGE_COUNT, countField);

  // This node is done; its children wait.
  plan.pending = plan.pending - 1 + edgeCount;
  if (plan.pending == 0) {
    // The whole tree is built: the items are no longer needed.
    heap.free(plan.items);
    plan.items = 0;
    plan.nodes.shrink();
    plan.wildcards.shrink();
    plan.wideEdges.shrink();
  }
}

/**
 * Once the nodes not expanded yet hold at most this share of the items (1/16), the next walk that
 * expands one builds them all, so that the items are freed: a large batch reaches most nodes but
 * leaves a few no path reaches, which held the whole build state (177 KB of the 512 KiB
 * benchmark file's 2 MB after a million paths).
 */
const FINISH_SHIFT: u32 = 4;

/** Expands a node a walk has reached (and every other one once few items are left: FINISH_SHIFT). */
export function expandReached(table: RuleTable, plan: MatchPlan, node: u32): void {
  expandNode(table, plan, node);
  if (plan.pending > 0 && plan.pendingItems <= plan.itemCount >> FINISH_SHIFT) expandWholeTree(table, plan);
}

/** Expands every node not expanded yet: the plan as a batch that reached every node leaves it. */
export function expandWholeTree(table: RuleTable, plan: MatchPlan): void {
  // Children are added after their parent, so one pass in node order reaches them all.
  for (let node: u32 = 0; plan.pending > 0 && node < <u32>(plan.nodes.length / (NODE_FIELDS << 2)); node++) {
    if (nodeField(plan, node, NodeField.LITERAL_BEST) == UNEXPANDED) expandNode(table, plan, node);
  }
}

/**
 * Sends the wildcard rules of crowded prefixes (more than nodeWildcardLimit rules with one
 * literal prefix, which would be one node's list) to the gram index, each prefix under an id of
 * its own, and replaces them among the `count` items by one marker item per prefix. Returns how
 * many items are left. `rankCount` is the size of the selection.
 */
function indexCrowdedPrefixes(table: RuleTable, plan: MatchPlan, items: usize, count: u32, rankCount: u32): u32 {
  let wildcards: u32 = 0;
  for (let i: u32 = 0; i < count; i++) {
    if (load<u32>(items + <usize>i * ITEM_BYTES) & ITEM_WILDCARD) wildcards++;
  }
  if (wildcards <= nodeWildcardLimit) return count;
  // The wildcard items' prefixes, in item order, grouped: the first item with each prefix counts
  // the items that share it.
  const strings = heap.alloc(<usize>wildcards * STRING_BYTES);
  let w: u32 = 0;
  for (let i: u32 = 0; i < count; i++) {
    const item = items + <usize>i * ITEM_BYTES;
    if (!(load<u32>(item) & ITEM_WILDCARD)) continue;
    store<u32>(strings + <usize>w * STRING_BYTES, <u32>itemPrefix(item));
    store<u32>(strings + <usize>w * STRING_BYTES, itemPrefixLength(item), 4);
    w++;
  }
  const first = heap.alloc(<usize>wildcards << 2);
  firstOfEqual(strings, wildcards, first);
  heap.free(strings);
  // Per wildcard item: the items sharing its prefix (on the first of them), then its prefix id + 1 (0: none yet).
  const shared = heap.alloc(<usize>wildcards << 2);
  memory.fill(shared, 0, <usize>wildcards << 2);
  for (let k: u32 = 0; k < wildcards; k++) {
    const at = shared + (<usize>load<u32>(first + (<usize>k << 2)) << 2);
    store<u32>(at, load<u32>(at) + 1);
  }
  const ids = heap.alloc(<usize>wildcards << 2);
  memory.fill(ids, 0, <usize>wildcards << 2);
  // Crowded rules get their prefix id + 1 by rank, so that the index gets its ranks in ascending order.
  const idOfRank = heap.alloc(max<usize>(<usize>rankCount << 2, 4));
  memory.fill(idOfRank, 0, <usize>rankCount << 2);
  let indexed: u32 = 0;
  let prefixCount: u32 = 0;
  let kept: u32 = 0;
  w = 0;
  for (let i: u32 = 0; i < count; i++) {
    const item = items + <usize>i * ITEM_BYTES;
    if (load<u32>(item) & ITEM_WILDCARD) {
      const group = <usize>load<u32>(first + (<usize>w << 2)) << 2;
      w++;
      if (load<u32>(shared + group) > nodeWildcardLimit) {
        // Read before the marker below may take the item's place.
        const rank = itemRank(item);
        let id = load<u32>(ids + group);
        if (id == 0) {
          // The prefix's first rule: the prefix takes its place among the items (kept <= i).
          id = ++prefixCount;
          store<u32>(ids + group, id);
          const marker = items + <usize>kept * ITEM_BYTES;
          const prefix = itemPrefix(item);
          const length = itemPrefixLength(item);
          store<u32>(marker, (id - 1) | ITEM_CROWDED);
          store<u32>(marker, <u32>prefix, 4);
          store<u32>(marker, length, 8);
          kept++;
        }
        store<u32>(idOfRank + (<usize>rank << 2), id);
        indexed++;
        continue;
      }
    }
    copyItem(items + <usize>kept * ITEM_BYTES, item);
    kept++;
  }
  heap.free(ids);
  heap.free(shared);
  heap.free(first);
  if (indexed > 0) {
    const ranks = heap.alloc(<usize>indexed << 2);
    const ids = heap.alloc(<usize>indexed << 2);
    let at: usize = 0;
    for (let rank: u32 = 0; rank < rankCount; rank++) {
      const id = load<u32>(idOfRank + (<usize>rank << 2));
      if (id == 0) continue;
      store<u32>(ranks + at, rank);
      store<u32>(ids + at, id - 1);
      at += 4;
    }
    plan.grams = buildGramIndex(table, ranks, ids, indexed, prefixCount);
    heap.free(ids);
    heap.free(ranks);
  }
  heap.free(idOfRank);
  return kept;
}

/** The verdict of a rank (see MatchPlan.verdicts): 1 if allowed. */
// @ts-ignore: decorator
@inline export function verdictOfRank(plan: MatchPlan, rank: u32): u32 {
  return <u32>load<u8>(plan.verdicts + min(rank, plan.rankCount));
}
