// The gram index: wildcard rules that the radix tree would leave in long candidate lists (real
// files carry hundreds of `/*...` rules whose literal prefix is just `/`) are filed under one short
// byte string, a *gram*, that every path they match must contain. A path then reads only the
// buckets of the grams it holds, instead of trying every rule.
//
// Grams, most selective first:
// - the last four bytes of an `$`-anchored rule's final segment, which must end the path (one
//   probe per path), or its last two bytes when that segment has two or three;
// - any four adjacent literal bytes of the rule (a quad), the one fewest other rules share;
// - else the last byte of a one-byte final `$` segment;
// - else any two adjacent literal bytes (a pair), the one fewest rules share; when only a few
//   rules need pairs they are always candidates instead (probing every pair of every path would
//   cost more than trying them);
// - rules with no gram at all (`/*a*b*`) are always candidates.
// All grams hash into one table of buckets. A bit filter of the hashes in use answers most
// probes without touching a bucket, and a per-bucket stamp makes each bucket read once per path.
// Buckets list ranks in ascending order, so reading stops at the first rank that cannot win.

import { Char } from "./chars";
import { candidateMatches, candidateMayMatch, candidateRank, CANDIDATE_BYTES, writeCandidate } from "./candidates";
import { NO_RANK, RuleField, RuleFlag, RuleTable } from "./table";
import { Vec } from "./vec";

/** A gram cost larger than any. */
const NO_COST: u32 = 0xffffffff;

const enum Gram {
  BYTE_AT_END = 0,
  PAIR_AT_END = 1,
  QUAD_AT_END = 2,
  PAIR = 3,
  QUAD = 4,
  /** Not a gram: the rule is always a candidate. */
  ALWAYS = 5,
}

/** At most this many rules filed by a pair become always-candidates instead. */
const FEW_PAIR_RULES: u32 = 16;

/** Extra cost of a gram holding `/`: almost every path has several. */
const SLASH_PENALTY_PAIR: u32 = 1024;
const SLASH_PENALTY_QUAD: u32 = 8;

/**
 * Hash of a gram of one kind: a 64-bit multiply whose high bits (45..63 at most) feed the filter
 * and whose bits 16..35 (at most) pick the bucket, so that the two are independent.
 */
// @ts-ignore: decorator
@inline function gramHash(kind: u32, gram: u32): u64 {
  return (<u64>gram | (<u64>kind << 32)) * 0x9e3779b97f4a7c15;
}

// @ts-ignore: decorator
@inline function bucketOf(hash: u64, mask: u32): u32 {
  return <u32>(hash >>> 16) & mask;
}

/** The filter bit of a hash: its top bits, as many as the filter's size needs. */
// @ts-ignore: decorator
@inline function filterBit(hash: u64, shift: u64): u32 {
  return <u32>(hash >>> shift);
}

// @ts-ignore: decorator
@inline function inFilter(filter: usize, bit: u32): bool {
  return (<u32>load<u8>(filter + (bit >>> 3)) & (<u32>1 << (bit & 7))) != 0;
}

/**
 * Filter bits per indexed rule: at 32, a path's grams that no rule has pass the filter about once
 * in 32, so few buckets are read in vain.
 */
const FILTER_BITS_PER_RULE: u32 = 32;
const MIN_FILTER_BITS: u32 = 1 << 12;
const MAX_FILTER_BITS: u32 = 1 << 19;

// @ts-ignore: decorator
@inline function hasSlash(gram: u32, bytes: u32): bool {
  for (let i: u32 = 0; i < bytes; i++) {
    if (((gram >>> (i << 3)) & 0xff) == Char.SLASH) return true;
  }
  return false;
}

@unmanaged
export class GramIndex {
  /** A power of two. */
  bucketCount: u32;
  /**
   * Per bucket and one more: the bucket's first entry and the number of the path that last read
   * it (so a bucket is read once per path), side by side: one cache line per bucket read.
   */
  headers: Vec;
  /** Candidate entries (candidates.ts), bucket after bucket, each bucket in rank order. */
  entries: Vec;
  /** A power of two of bits: a filed gram's bit is set (see filterBit). */
  filter: Vec;
  /** 64 - log2(filter bits). */
  filterShift: u64;
  visit: u32;
  /** Candidate entries of the rules with no gram, in rank order. */
  always: Vec;
  /** Smallest indexed rank: a path whose best is already at most this skips the index. */
  firstRank: u32;
  anyPairs: bool;
  anyQuads: bool;

  bytes(): usize {
    return offsetof<GramIndex>() + this.headers.capacity + this.entries.capacity + this.filter.capacity + this.always.capacity;
  }

  free(): void {
    this.headers.free();
    this.entries.free();
    this.filter.free();
    this.always.free();
    heap.free(changetype<usize>(this));
  }
}

// ---- Building --------------------------------------------------------------------------------

/** Bytes of a rule's pattern that literal grams may come from: all but a final `$`. */
// @ts-ignore: decorator
@inline function literalEnd(table: RuleTable, rule: u32): usize {
  const length = <usize>table.ruleField(rule, RuleField.PATTERN_LENGTH);
  return table.ruleField(rule, RuleField.FLAGS) & RuleFlag.ANCHORED ? length - 1 : length;
}

// @ts-ignore: decorator
@inline function isQuadAt(pattern: usize, at: usize): bool {
  const q = load<u32>(pattern + at);
  // A byte equal to `*` gives a zero byte in q ^ splat(`*`).
  const x = q ^ 0x2a2a2a2a;
  return ((x - 0x01010101) & ~x & 0x80808080) == 0;
}

// @ts-ignore: decorator
@inline function isPairAt(pattern: usize, at: usize): bool {
  return load<u8>(pattern + at) != Char.STAR && load<u8>(pattern + at + 1) != Char.STAR;
}

/** Counts, per bucket, the anywhere-grams of one kind (QUAD or PAIR) of every rule: how crowded each gram is. */
function countGrams(table: RuleTable, ranks: usize, n: u32, mask: u32, counts: usize, kind: u32): void {
  const width: usize = kind == Gram.QUAD ? 4 : 2;
  for (let i: u32 = 0; i < n; i++) {
    const rule = table.selectedRules.u32At(load<u32>(ranks + (<usize>i << 2)));
    const pattern = table.pool.data + table.ruleField(rule, RuleField.PATTERN_START);
    const end = literalEnd(table, rule);
    for (let at: usize = 0; at + width <= end; at++) {
      if (kind == Gram.QUAD ? !isQuadAt(pattern, at) : !isPairAt(pattern, at)) continue;
      const gram = kind == Gram.QUAD ? load<u32>(pattern + at) : <u32>load<u16>(pattern + at);
      const slot = counts + (<usize>bucketOf(gramHash(kind, gram), mask) << 2);
      store<u32>(slot, load<u32>(slot) + 1);
    }
  }
}

/** The gram chosen for a rule (see the file comment), as chooseGram's result. */
let chosenKind: u32 = Gram.ALWAYS;
let chosenGram: u32 = 0;

/**
 * Chooses a rule's gram short of pairs (`counts`: of quads); chosenKind PAIR means the rule
 * needs one (choosePair).
 */
function chooseGram(table: RuleTable, rule: u32, mask: u32, counts: usize): void {
  const pattern = table.pool.data + table.ruleField(rule, RuleField.PATTERN_START);
  const end = literalEnd(table, rule);
  let segment: usize = 0;
  if (table.ruleField(rule, RuleField.FLAGS) & RuleFlag.ANCHORED) {
    let start = end;
    while (start > 0 && load<u8>(pattern + start - 1) != Char.STAR) start--;
    segment = end - start;
    if (segment >= 4) {
      chosenKind = Gram.QUAD_AT_END;
      chosenGram = load<u32>(pattern + end - 4);
      return;
    }
    if (segment >= 2) {
      chosenKind = Gram.PAIR_AT_END;
      chosenGram = <u32>load<u16>(pattern + end - 2);
      return;
    }
  }
  let bestCost: u32 = NO_COST;
  let bestGram: u32 = 0;
  for (let at: usize = 0; at + 4 <= end; at++) {
    if (!isQuadAt(pattern, at)) continue;
    const gram = load<u32>(pattern + at);
    const cost = load<u32>(counts + (<usize>bucketOf(gramHash(Gram.QUAD, gram), mask) << 2)) + (hasSlash(gram, 4) ? SLASH_PENALTY_QUAD : 0);
    if (cost < bestCost) {
      bestCost = cost;
      bestGram = gram;
    }
  }
  if (bestCost != NO_COST) {
    chosenKind = Gram.QUAD;
    chosenGram = bestGram;
    return;
  }
  if (segment == 1) {
    chosenKind = Gram.BYTE_AT_END;
    chosenGram = <u32>load<u8>(pattern + end - 1);
    return;
  }
  chosenKind = Gram.PAIR;
  chosenGram = 0;
}

/** The pair of a rule that chooseGram left to pairs (`counts`: of pairs), or ALWAYS when it has none. */
function choosePair(table: RuleTable, rule: u32, mask: u32, counts: usize): void {
  const pattern = table.pool.data + table.ruleField(rule, RuleField.PATTERN_START);
  const end = literalEnd(table, rule);
  let bestCost: u32 = NO_COST;
  let bestGram: u32 = 0;
  for (let at: usize = 0; at + 2 <= end; at++) {
    if (!isPairAt(pattern, at)) continue;
    const gram = <u32>load<u16>(pattern + at);
    const cost = load<u32>(counts + (<usize>bucketOf(gramHash(Gram.PAIR, gram), mask) << 2)) + (hasSlash(gram, 2) ? SLASH_PENALTY_PAIR : 0);
    if (cost < bestCost) {
      bestCost = cost;
      bestGram = gram;
    }
  }
  chosenKind = bestCost != NO_COST ? Gram.PAIR : Gram.ALWAYS;
  chosenGram = bestGram;
}

/** Builds the index over `n` ranks of the table's selection, listed ascending at `ranks`. */
export function buildGramIndex(table: RuleTable, ranks: usize, n: u32): GramIndex {
  let bucketCount: u32 = 64;
  while (bucketCount < n * 2 && bucketCount < (1 << 20)) bucketCount <<= 1;
  const mask = bucketCount - 1;

  const index = changetype<GramIndex>(heap.alloc(offsetof<GramIndex>()));
  index.bucketCount = bucketCount;
  index.headers = Vec.create((<usize>bucketCount + 1) << 3);
  index.entries = Vec.create(16);
  let filterBits = MIN_FILTER_BITS;
  while (filterBits < n * FILTER_BITS_PER_RULE && filterBits < MAX_FILTER_BITS) filterBits <<= 1;
  index.filter = Vec.create(filterBits >> 3);
  index.filterShift = 64 - <u64>ctz(filterBits);
  index.visit = 0;
  index.always = Vec.create(16);
  index.firstRank = n > 0 ? load<u32>(ranks) : NO_RANK;
  index.anyPairs = false;
  index.anyQuads = false;
  const headers = index.headers.data;
  index.headers.length = (<usize>bucketCount + 1) << 3;
  memory.fill(headers, 0, index.headers.length);
  memory.fill(index.filter.data, 0, filterBits >> 3);
  index.filter.length = filterBits >> 3;

  // The hash each rule is filed under (ALWAYS rules: none), then a counting sort into buckets.
  const counts = heap.alloc(<usize>bucketCount << 2);
  memory.fill(counts, 0, <usize>bucketCount << 2);
  countGrams(table, ranks, n, mask, counts, Gram.QUAD);
  const buckets = heap.alloc(max<usize>(<usize>n << 2, 4));
  const kinds = heap.alloc(max<usize>(<usize>n, 1));
  let pairRules: u32 = 0;
  for (let i: u32 = 0; i < n; i++) {
    chooseGram(table, table.selectedRules.u32At(load<u32>(ranks + (<usize>i << 2))), mask, counts);
    store<u8>(kinds + i, chosenKind);
    store<u32>(buckets + (<usize>i << 2), chosenGram);
    if (chosenKind == Gram.PAIR) pairRules++;
  }
  // Pairs are counted only when enough rules need them to be filed by pair (see below).
  if (pairRules > FEW_PAIR_RULES) {
    memory.fill(counts, 0, <usize>bucketCount << 2);
    countGrams(table, ranks, n, mask, counts, Gram.PAIR);
    pairRules = 0;
    for (let i: u32 = 0; i < n; i++) {
      if (load<u8>(kinds + i) != Gram.PAIR) continue;
      choosePair(table, table.selectedRules.u32At(load<u32>(ranks + (<usize>i << 2))), mask, counts);
      store<u8>(kinds + i, chosenKind);
      store<u32>(buckets + (<usize>i << 2), chosenGram);
      if (chosenKind == Gram.PAIR) pairRules++;
    }
  }
  // Probing every pair of every path costs more than trying a few rules on each path.
  const pairsAsAlways = pairRules <= FEW_PAIR_RULES;
  for (let i: u32 = 0; i < n; i++) {
    const rank = load<u32>(ranks + (<usize>i << 2));
    let kind = <u32>load<u8>(kinds + i);
    if (kind == Gram.PAIR && pairsAsAlways) kind = Gram.ALWAYS;
    if (kind == Gram.ALWAYS) {
      store<u8>(kinds + i, Gram.ALWAYS);
      writeCandidate(table, rank, index.always.reserve(CANDIDATE_BYTES));
      index.always.length += CANDIDATE_BYTES;
      continue;
    }
    if (kind == Gram.PAIR) index.anyPairs = true;
    if (kind == Gram.QUAD) index.anyQuads = true;
    const hash = gramHash(kind, load<u32>(buckets + (<usize>i << 2)));
    const bit = filterBit(hash, index.filterShift);
    const filterByte = index.filter.data + (bit >>> 3);
    store<u8>(filterByte, <u32>load<u8>(filterByte) | (<u32>1 << (bit & 7)));
    const bucket = bucketOf(hash, mask);
    store<u32>(buckets + (<usize>i << 2), bucket);
    const slot = headers + ((<usize>bucket + 1) << 3);
    store<u32>(slot, load<u32>(slot) + 1);
  }
  heap.free(counts);
  for (let b: u32 = 1; b <= bucketCount; b++) {
    store<u32>(headers + (<usize>b << 3), load<u32>(headers + (<usize>b << 3)) + load<u32>(headers + (<usize>(b - 1) << 3)));
  }
  const total = load<u32>(headers + (<usize>bucketCount << 3));
  const out = index.entries.reserve(<usize>total * CANDIDATE_BYTES);
  index.entries.length = <usize>total * CANDIDATE_BYTES;
  // Placing ranks in ascending order keeps every bucket ascending.
  const cursor = heap.alloc(<usize>bucketCount << 2);
  for (let b: u32 = 0; b < bucketCount; b++) store<u32>(cursor + (<usize>b << 2), load<u32>(headers + (<usize>b << 3)));
  for (let i: u32 = 0; i < n; i++) {
    if (load<u8>(kinds + i) == Gram.ALWAYS) continue;
    const slot = cursor + (<usize>load<u32>(buckets + (<usize>i << 2)) << 2);
    const at = load<u32>(slot);
    writeCandidate(table, load<u32>(ranks + (<usize>i << 2)), out + <usize>at * CANDIDATE_BYTES);
    store<u32>(slot, at + 1);
  }
  heap.free(cursor);
  heap.free(buckets);
  heap.free(kinds);
  return index;
}

// ---- Matching --------------------------------------------------------------------------------

/** The current path while it probes the index. */
let probePath: usize = 0;
let probeLength: usize = 0;

/** Tries the entries [from, to) in rank order; returns the first that matches and beats `best`, else `best`. */
// @ts-ignore: decorator
@inline function bestOf(from: usize, to: usize, best: u32): u32 {
  for (let entry = from; entry < to; entry += CANDIDATE_BYTES) {
    const rank = candidateRank(entry);
    if (rank >= best) break;
    if (candidateMayMatch(entry, probePath, probeLength) && candidateMatches(entry, probePath, probeLength, true)) return rank;
  }
  return best;
}

/** Reads the bucket of one gram of the path, once per path; returns the new best rank. */
function readBucket(index: GramIndex, hash: u64, best: u32): u32 {
  const header = index.headers.data + (<usize>bucketOf(hash, index.bucketCount - 1) << 3);
  if (load<u32>(header, 4) == index.visit) return best;
  store<u32>(header, index.visit, 4);
  const entries = index.entries.data;
  return bestOf(entries + <usize>load<u32>(header) * CANDIDATE_BYTES, entries + <usize>load<u32>(header, 8) * CANDIDATE_BYTES, best);
}

/** Probes one gram: most grams of a path are not in the filter and cost a multiply and a load. */
// @ts-ignore: decorator
@inline function probe(index: GramIndex, kind: u32, gram: u32, best: u32): u32 {
  const hash = gramHash(kind, gram);
  return inFilter(index.filter.data, filterBit(hash, index.filterShift)) ? readBucket(index, hash, best) : best;
}

/** The best rank among the indexed rules that match the path and beat `best`, else `best`. */
export function bestIndexedRank(index: GramIndex, path: usize, length: usize, best: u32): u32 {
  if (best <= index.firstRank) return best;
  probePath = path;
  probeLength = length;
  best = bestOf(index.always.data, index.always.data + index.always.length, best);

  let visit = ++index.visit;
  if (visit == 0) {
    // The path counter wrapped around: forget every stamp.
    const headers = index.headers.data;
    for (let b: u32 = 0; b <= index.bucketCount; b++) store<u32>(headers + (<usize>b << 3), 0, 4);
    visit = index.visit = 1;
  }
  if (length >= 1) best = probe(index, Gram.BYTE_AT_END, <u32>load<u8>(path + length - 1), best);
  if (length >= 2) best = probe(index, Gram.PAIR_AT_END, <u32>load<u16>(path + length - 2), best);
  if (length >= 4) best = probe(index, Gram.QUAD_AT_END, load<u32>(path + length - 4), best);
  if (index.anyQuads && length >= 4) best = probeAll(index, Gram.QUAD, path, length - 3, best);
  if (index.anyPairs && length >= 2) best = probeAll(index, Gram.PAIR, path, length - 1, best);
  return best;
}

/** The gram of a kind (QUAD or PAIR) at `at`. */
// @ts-ignore: decorator
@inline function gramAt(kind: u32, at: usize): u32 {
  return kind == Gram.QUAD ? load<u32>(at) : <u32>load<u16>(at);
}

/**
 * Probes the grams of a kind at the path's first `positions` offsets. The filter is tested for 64
 * offsets at a time without a branch, collecting a bit per offset; only the offsets that pass
 * cost a branch and a bucket read (a branch per offset would mispredict on every pass).
 */
function probeAll(index: GramIndex, kind: u32, path: usize, positions: usize, best: u32): u32 {
  const filter = index.filter.data;
  const shift = index.filterShift;
  for (let base: usize = 0; base < positions; base += 64) {
    const end = min<usize>(positions, base + 64);
    let passed: u64 = 0;
    for (let at = base; at < end; at++) {
      const bit = filterBit(gramHash(kind, gramAt(kind, path + at)), shift);
      passed |= <u64>((<u32>load<u8>(filter + (bit >>> 3)) >>> (bit & 7)) & 1) << <u64>(at - base);
    }
    while (passed != 0) {
      const at = base + <usize>ctz(passed);
      passed &= passed - 1;
      best = readBucket(index, gramHash(kind, gramAt(kind, path + at)), best);
      if (best <= index.firstRank) return best;
    }
  }
  return best;
}
