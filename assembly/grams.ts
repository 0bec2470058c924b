// The gram index: wildcard rules that would crowd one node of the radix tree (real files carry
// hundreds of `/*...` rules whose literal prefix is just `/`, and many carry dozens under each
// `/section/`) are filed here instead, each under a short byte string, a *gram*, taken from one of
// its literal segments, its *key*. A path reads only the buckets of the grams it holds, and where
// it holds one, a rule of the bucket is tried by comparing its key where the gram puts it: a few
// bytes compared in place, with no search, so a rule that does not match costs one compare.
//
// Each crowded prefix has an id. The tree marks the node of its string, and a walk that passes the
// node probes the rest of the path for that prefix's rules only: the id salts every hash, so rules
// under `/shop/` are never tried on paths under `/blog/`.
//
// A rule's gram, most selective first:
// - the last four bytes of an `$`-anchored rule's final segment, which must end the path (one
//   probe per path), or its last two bytes when that segment has two or three;
// - four adjacent bytes of a segment (a quad), the one fewest other rules of the prefix share and
//   fewest of the file's patterns hold (a sign of how common it is in paths);
// - else the last byte of a one-byte final `$` segment;
// - else two adjacent bytes of a segment (a pair), the one fewest rules share; when only a few
//   rules of a prefix need pairs they are always candidates instead (probing every pair of every
//   path would cost more than trying them);
// - rules with no gram at all (`/*a*b*`) are always candidates.
// All grams hash into one table of buckets. A bit filter of the hashes in use answers most probes
// without touching a bucket. Buckets list ranks in ascending order, so reading stops at the first
// rank that cannot win.
//
// Why grams and not an automaton: an Aho-Corasick automaton over the same keys (one pass over the
// path, each key's rules listed at the state that ends it) gave the same verdicts and was 29%
// slower on the 512 KiB benchmark file (430 against 333 ns per URL), and its table of 4,822 states
// took 415 KB. Its pass costs a table load per byte that waits for the one before (about 6 ns per
// byte here), where the filter tests sixteen quads at once with no chain between them.

import { Char } from "./chars";
import { bestCandidate, CANDIDATE_BYTES, writeCandidate } from "./candidates";
import { BIT_IN_BYTE, pathHoldsMasks, storeRuleMasks } from "./mask";
import { bytesEqual, segmentsFit } from "./pattern";
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

/** At most this many rules of a prefix filed by a pair become always-candidates instead. */
const FEW_PAIR_RULES: u32 = 16;

/** Extra cost of a pair holding `/`: almost every path has several. */
const SLASH_PENALTY_PAIR: u32 = 1024;

/**
 * The bucket hash of a gram of one kind: a 64-bit multiply whose bits 16..35 (at most) pick the
 * bucket. The prefix's salt is XORed in after the multiply.
 */
// @ts-ignore: decorator
@inline function gramHash(kind: u32, gram: u32): u64 {
  return (<u64>gram | (<u64>kind << 32)) * 0x9e3779b97f4a7c15;
}

/** The salt of a prefix id (0 for the first, usually `/`). */
// @ts-ignore: decorator
@inline function saltOf(id: u32): u64 {
  return <u64>id * 0xd6e8feb86659fd93;
}

// @ts-ignore: decorator
@inline function bucketOf(hash: u64, mask: u32): u32 {
  return <u32>(hash >>> 16) & mask;
}

/**
 * The filter hash of a gram, independent of the bucket hash: a 32-bit multiply, so that four
 * quads hash in one vector multiply (probeQuads), with the kind and the prefix id XORed in
 * after it. Its top bits pick the filter bit.
 */
const FILTER_MUL: u32 = 0x9e3779b1;
const KIND_MUL: u32 = 0x85ebca6b;

// @ts-ignore: decorator
@inline function idSaltOf(id: u32): u32 {
  return id * 0xc2b2ae35;
}

// @ts-ignore: decorator
@inline function filterBit(kind: u32, gram: u32, idSalt: u32, shift: u32): u32 {
  return ((gram * FILTER_MUL) ^ (kind * KIND_MUL) ^ idSalt) >>> shift;
}

/** 1 if the filter has the bit, else 0. */
// @ts-ignore: decorator
@inline function filterHas(filter: usize, bit: u32): u32 {
  return (<u32>load<u8>(filter + (bit >>> 3)) >>> (bit & 7)) & 1;
}

/**
 * Filter bits per indexed rule: at 64, a path's grams that no rule has pass the filter about once
 * in 64, so few buckets are read in vain (32 read about one bucket per URL in vain on the 512 KiB
 * benchmark file and cost 2-3% more time; the filter is 32 KiB there, still within L1).
 */
const FILTER_BITS_PER_RULE: u32 = 64;
const MIN_FILTER_BITS: u32 = 1 << 12;
const MAX_FILTER_BITS: u32 = 1 << 19;

// @ts-ignore: decorator
@inline function hasSlash(gram: u32, bytes: u32): bool {
  for (let i: u32 = 0; i < bytes; i++) {
    if (((gram >>> (i << 3)) & 0xff) == Char.SLASH) return true;
  }
  return false;
}

/**
 * An indexed rule as a bucket lists it, 32 bytes: enough to try it where a path holds its gram
 * without reading the rule table or the pattern, unless its key is in place and it has more
 * segments than the key.
 */
const ENTRY_BYTES: usize = 32;
const enum Entry {
  RANK = 0,
  PREFIX_ID = 4,
  /** The key's first eight bytes (zeros past its end). */
  KEY_HEAD = 8,
  /** Address of the key (a segment of the pattern) in the table's pool. */
  KEY = 16,
  /** The key's length | ALONE. */
  KEY_LENGTH = 20,
  /** Where the gram lies in the key; AT_END when the key must end the path. */
  GRAM_OFFSET = 24,
  /** The rule (index in the table). */
  RULE = 28,
}
const AT_END: u32 = 0xffffffff;
/** KEY_LENGTH flag: the key is the only segment after the prefix, so a key in place is a match. */
const ALONE: u32 = 0x80000000;
/** Byte and pair masks (mask.ts) of each entry's pattern, 16 bytes, beside the entries: read only when a key is in place. */
const MASK_BYTES: usize = 16;

/** Per prefix id, 16 bytes: what its probes need. */
const enum PrefixField {
  /** Smallest rank filed under the prefix: a path whose best is already at most this skips it. */
  FIRST_RANK = 0,
  /** Range of `always` (candidate entries) of the prefix's rules with no gram. */
  ALWAYS_START = 4,
  ALWAYS_END = 8,
  /** A bit per gram kind the prefix's rules are filed under. */
  KINDS = 12,
}
const PREFIX_BYTES: usize = 16;

@unmanaged
export class GramIndex {
  /** A power of two. */
  bucketCount: u32;
  /** Per bucket and one more: the bucket's first entry (the next bucket's first ends it). */
  headers: Vec;
  /** Entries (ENTRY_BYTES), bucket after bucket, each bucket in rank order. */
  entries: Vec;
  /** The masks of each entry (MASK_BYTES), in the same order. */
  masks: Vec;
  /** A power of two of bits: a filed gram's bit is set (see filterBit). */
  filter: Vec;
  /** 32 - log2(filter bits). */
  filterShift: u32;
  /** Candidate entries (candidates.ts) of the rules with no gram, prefix after prefix, in rank order. */
  always: Vec;
  /** PREFIX_BYTES per prefix id. */
  prefixes: Vec;

  bytes(): usize {
    return offsetof<GramIndex>() + this.headers.capacity + this.entries.capacity + this.masks.capacity + this.filter.capacity +
      this.always.capacity + this.prefixes.capacity;
  }

  free(): void {
    this.headers.free();
    this.entries.free();
    this.masks.free();
    this.filter.free();
    this.always.free();
    this.prefixes.free();
    heap.free(changetype<usize>(this));
  }
}

// ---- Building --------------------------------------------------------------------------------

/**
 * The literal segments of a wildcard rule after its prefix, one at a time (nextSegment): the runs
 * of bytes between `*`s, the last ending before a final `$`.
 */
let segmentStart: usize = 0;
let segmentLength: usize = 0;
/** Whether the current segment is the last of a `$`-anchored rule (it must end the path). */
let segmentAtEnd: bool = false;

/** Where the segments of the rule start: after the `*` that ends its prefix. */
// @ts-ignore: decorator
@inline function firstSegment(table: RuleTable, rule: u32): usize {
  return <usize>table.ruleField(rule, RuleField.PREFIX_LENGTH) + 1;
}

/** Bytes of a rule's pattern that segments come from: all but a final `$`. */
// @ts-ignore: decorator
@inline function literalEnd(table: RuleTable, rule: u32): usize {
  const length = <usize>table.ruleField(rule, RuleField.PATTERN_LENGTH);
  return table.ruleField(rule, RuleField.FLAGS) & RuleFlag.ANCHORED ? length - 1 : length;
}

/** Reads the segment at `at` (up to the next `*` or `end`) into segmentStart/Length; returns where the next one starts. */
// @ts-ignore: decorator
@inline function nextSegment(pattern: usize, at: usize, end: usize, anchored: bool): usize {
  let star = at;
  while (star < end && load<u8>(pattern + star) != Char.STAR) star++;
  segmentStart = at;
  segmentLength = star - at;
  segmentAtEnd = anchored && star >= end;
  return star + 1;
}

/** The gram of `width` bytes (4 or 2) at `at`. */
// @ts-ignore: decorator
@inline function gramAt(width: usize, at: usize): u32 {
  return width == 4 ? load<u32>(at) : <u32>load<u16>(at);
}

/**
 * Counts, per bucket, the anywhere-grams of one kind (QUAD or PAIR) of every rule, salted by its
 * prefix: how crowded each gram is. Segments that must end the path have end grams instead.
 */
function countGrams(table: RuleTable, ranks: usize, ids: usize, n: u32, mask: u32, counts: usize, kind: u32): void {
  const width: usize = kind == Gram.QUAD ? 4 : 2;
  for (let i: u32 = 0; i < n; i++) {
    const rule = table.selectedRules.u32At(load<u32>(ranks + (<usize>i << 2)));
    const pattern = table.pool.data + table.ruleField(rule, RuleField.PATTERN_START);
    const end = literalEnd(table, rule);
    const anchored = (table.ruleField(rule, RuleField.FLAGS) & RuleFlag.ANCHORED) != 0;
    const salt = saltOf(load<u32>(ids + (<usize>i << 2)));
    for (let at = firstSegment(table, rule); at <= end;) {
      at = nextSegment(pattern, at, end, anchored);
      if (segmentAtEnd) break;
      for (let o: usize = 0; o + width <= segmentLength; o++) {
        const slot = counts + (<usize>bucketOf(gramHash(kind, gramAt(width, pattern + segmentStart + o)) ^ salt, mask) << 2);
        store<u32>(slot, load<u32>(slot) + 1);
      }
    }
  }
}

/**
 * How common each quad is in the site's paths, as far as the file tells: how many of the
 * selection's patterns hold it (literal ones too: `/category/travel/` makes `trav` common). A
 * quad of a rule that few other rules share may still be in most paths, and each such path reads
 * its bucket in vain: adding this count to a quad's cost cut the `/` prefix's bucket reads from
 * 3.4 to 2.1 per URL on the 512 KiB benchmark file (simulated), 6% of its time (50k: 5%).
 * Counted from a sample of at most COMMON_SAMPLE_BYTES of pattern bytes (every k-th rule, each
 * counted k times: 0.1 ms of the 512 KiB file's compile), into a table of as many slots as
 * sampled bytes (a power of two, 1,024 to 65,536), apart from the buckets, whose fewer slots
 * would mix the counts of many quads.
 */
const COMMON_SAMPLE_BYTES: usize = 64 << 10;
let commonCounts: usize = 0;
let commonShift: u64 = 0;

// @ts-ignore: decorator
@inline function commonSlot(quad: u32): usize {
  return commonCounts + (<usize>((<u64>quad * 0x9e3779b97f4a7c15) >>> commonShift) << 2);
}

/** Counts the selection's quads into a new commonCounts table (freed by buildGramIndex). */
function countCommonQuads(table: RuleTable): void {
  const rules = <u32>(table.selectedRules.length >> 2);
  let bytes: usize = 0;
  for (let rank: u32 = 0; rank < rules; rank++) bytes += <usize>table.ruleField(table.selectedRules.u32At(rank), RuleField.PATTERN_LENGTH);
  const stride = <u32>max<usize>(1, (bytes + COMMON_SAMPLE_BYTES - 1) / COMMON_SAMPLE_BYTES);
  let slots: usize = 1024;
  while (slots < bytes / stride && slots < 65536) slots <<= 1;
  commonShift = 64 - <u64>ctz(slots);
  commonCounts = heap.alloc(slots << 2);
  memory.fill(commonCounts, 0, slots << 2);
  for (let rank: u32 = 0; rank < rules; rank += stride) {
    const rule = table.selectedRules.u32At(rank);
    const pattern = table.pool.data + table.ruleField(rule, RuleField.PATTERN_START);
    const length = <usize>table.ruleField(rule, RuleField.PATTERN_LENGTH);
    for (let o: usize = 0; o + 4 <= length; o++) {
      const slot = commonSlot(load<u32>(pattern + o));
      store<u32>(slot, load<u32>(slot) + stride);
    }
  }
}

/** The gram chosen for a rule (see the file comment): its kind, bytes, key segment and place in it. */
let chosenKind: u32 = Gram.ALWAYS;
let chosenGram: u32 = 0;
let chosenKeyStart: usize = 0;
let chosenKeyLength: usize = 0;
let chosenOffset: u32 = 0;

// @ts-ignore: decorator
@inline function choose(kind: u32, gram: u32, keyStart: usize, keyLength: usize, offset: u32): void {
  chosenKind = kind;
  chosenGram = gram;
  chosenKeyStart = keyStart;
  chosenKeyLength = keyLength;
  chosenOffset = offset;
}

/**
 * Chooses a rule's gram of the given width (4: quads, with the end grams before and the one-byte
 * end after them; 2: pairs) among its segments, the least crowded by `counts` (quads: and the
 * least common, commonCounts); chosenKind ALWAYS when it has none.
 */
function chooseGram(table: RuleTable, rule: u32, salt: u64, mask: u32, counts: usize, width: usize): void {
  const pattern = table.pool.data + table.ruleField(rule, RuleField.PATTERN_START);
  const end = literalEnd(table, rule);
  const anchored = (table.ruleField(rule, RuleField.FLAGS) & RuleFlag.ANCHORED) != 0;
  chosenKind = Gram.ALWAYS;
  let bestCost: u32 = NO_COST;
  let lastStart: usize = 0;
  let lastLength: usize = 0;
  for (let at = firstSegment(table, rule); at <= end;) {
    at = nextSegment(pattern, at, end, anchored);
    if (segmentAtEnd) {
      lastStart = segmentStart;
      lastLength = segmentLength;
      // The end of an anchored rule is its most selective gram: one probe per path.
      if (width == 4 && segmentLength >= 4) {
        choose(Gram.QUAD_AT_END, load<u32>(pattern + end - 4), segmentStart, segmentLength, AT_END);
        return;
      }
      if (width == 4 && segmentLength >= 2) {
        choose(Gram.PAIR_AT_END, <u32>load<u16>(pattern + end - 2), segmentStart, segmentLength, AT_END);
        return;
      }
      break;
    }
    for (let o: usize = 0; o + width <= segmentLength; o++) {
      const gram = gramAt(width, pattern + segmentStart + o);
      const kind = width == 4 ? Gram.QUAD : Gram.PAIR;
      // Quads that hold a `/` are not penalised: `t/sh` in `/*/product/shoes` is rarer in paths
      // than `prod` (a penalty of 8 sent such rules to the section's name, which most paths
      // under the section hold: 3.8 against 3.3 bucket reads per URL on the 512 KiB file).
      const penalty = width == 2 && hasSlash(gram, 2) ? SLASH_PENALTY_PAIR : 0;
      let cost = load<u32>(counts + (<usize>bucketOf(gramHash(kind, gram) ^ salt, mask) << 2)) + penalty;
      if (width == 4) cost += load<u32>(commonSlot(gram));
      if (cost < bestCost) {
        bestCost = cost;
        choose(kind, gram, segmentStart, segmentLength, <u32>o);
      }
    }
  }
  if (bestCost == NO_COST && width == 4 && lastLength == 1) {
    choose(Gram.BYTE_AT_END, <u32>load<u8>(pattern + lastStart), lastStart, 1, AT_END);
  }
}

/** Per indexed rule while the index is built: kind, gram, key start, key length and offset (u32 each). */
const CHOICE_BYTES: usize = 20;

// @ts-ignore: decorator
@inline function storeChoice(at: usize): void {
  store<u32>(at, chosenKind);
  store<u32>(at, chosenGram, 4);
  store<u32>(at, <u32>chosenKeyStart, 8);
  store<u32>(at, <u32>chosenKeyLength, 12);
  store<u32>(at, chosenOffset, 16);
}

/**
 * Builds the index over `n` ranks of the table's selection, listed ascending at `ranks`, with the
 * prefix id of each at `ids` (ids below `prefixCount`).
 */
export function buildGramIndex(table: RuleTable, ranks: usize, ids: usize, n: u32, prefixCount: u32): GramIndex {
  let bucketCount: u32 = 64;
  while (bucketCount < n * 2 && bucketCount < (1 << 20)) bucketCount <<= 1;
  const mask = bucketCount - 1;

  const index = changetype<GramIndex>(heap.alloc(offsetof<GramIndex>()));
  index.bucketCount = bucketCount;
  index.headers = Vec.create((<usize>bucketCount + 1) << 2);
  index.entries = Vec.create(16);
  let filterBits = MIN_FILTER_BITS;
  while (filterBits < n * FILTER_BITS_PER_RULE && filterBits < MAX_FILTER_BITS) filterBits <<= 1;
  index.filter = Vec.create(filterBits >> 3);
  index.filterShift = 32 - ctz(filterBits);
  index.always = Vec.create(16);
  index.prefixes = Vec.create(<usize>prefixCount * PREFIX_BYTES);
  const headers = index.headers.data;
  index.headers.length = (<usize>bucketCount + 1) << 2;
  memory.fill(headers, 0, index.headers.length);
  memory.fill(index.filter.data, 0, filterBits >> 3);
  index.filter.length = filterBits >> 3;
  const prefixes = index.prefixes.data;
  index.prefixes.length = <usize>prefixCount * PREFIX_BYTES;
  memory.fill(prefixes, 0, index.prefixes.length);
  for (let id: u32 = 0; id < prefixCount; id++) store<u32>(prefixes + <usize>id * PREFIX_BYTES, NO_RANK, PrefixField.FIRST_RANK);

  // Each rule's gram, chosen by how many rules of its prefix share a bucket with it.
  const counts = heap.alloc(<usize>bucketCount << 2);
  memory.fill(counts, 0, <usize>bucketCount << 2);
  countGrams(table, ranks, ids, n, mask, counts, Gram.QUAD);
  countCommonQuads(table);
  const choices = heap.alloc(max<usize>(<usize>n * CHOICE_BYTES, CHOICE_BYTES));
  // Rules of each prefix that need pairs.
  const pairRules = heap.alloc(max<usize>(<usize>prefixCount << 2, 4));
  memory.fill(pairRules, 0, <usize>prefixCount << 2);
  let anyPairRules = false;
  for (let i: u32 = 0; i < n; i++) {
    const id = load<u32>(ids + (<usize>i << 2));
    chooseGram(table, table.selectedRules.u32At(load<u32>(ranks + (<usize>i << 2))), saltOf(id), mask, counts, 4);
    if (chosenKind == Gram.ALWAYS) {
      // Not a pair yet: counted below, once pairs are counted.
      chosenKind = Gram.PAIR;
      anyPairRules = true;
    }
    storeChoice(choices + <usize>i * CHOICE_BYTES);
  }
  if (anyPairRules) {
    memory.fill(counts, 0, <usize>bucketCount << 2);
    countGrams(table, ranks, ids, n, mask, counts, Gram.PAIR);
    for (let i: u32 = 0; i < n; i++) {
      const choice = choices + <usize>i * CHOICE_BYTES;
      if (load<u32>(choice) != Gram.PAIR) continue;
      const id = load<u32>(ids + (<usize>i << 2));
      chooseGram(table, table.selectedRules.u32At(load<u32>(ranks + (<usize>i << 2))), saltOf(id), mask, counts, 2);
      storeChoice(choice);
      if (chosenKind == Gram.PAIR) store<u32>(pairRules + (<usize>id << 2), load<u32>(pairRules + (<usize>id << 2)) + 1);
    }
  }
  heap.free(counts);
  heap.free(commonCounts);

  // The final kinds, the prefixes' first ranks and kinds, the always-candidates of each prefix
  // counted and the buckets' sizes.
  const buckets = heap.alloc(max<usize>(<usize>n << 2, 4));
  for (let i: u32 = 0; i < n; i++) {
    const id = load<u32>(ids + (<usize>i << 2));
    const prefix = prefixes + <usize>id * PREFIX_BYTES;
    const choice = choices + <usize>i * CHOICE_BYTES;
    let kind = load<u32>(choice);
    // Probing every pair of every path costs more than trying a few rules on each path.
    if (kind == Gram.PAIR && load<u32>(pairRules + (<usize>id << 2)) <= FEW_PAIR_RULES) kind = Gram.ALWAYS;
    store<u32>(choice, kind);
    store<u32>(prefix, min(load<u32>(prefix, PrefixField.FIRST_RANK), load<u32>(ranks + (<usize>i << 2))), PrefixField.FIRST_RANK);
    if (kind == Gram.ALWAYS) {
      store<u32>(prefix, load<u32>(prefix, PrefixField.ALWAYS_END) + 1, PrefixField.ALWAYS_END);
      continue;
    }
    store<u32>(prefix, load<u32>(prefix, PrefixField.KINDS) | (1 << kind), PrefixField.KINDS);
    const gram = load<u32>(choice, 4);
    const hash = gramHash(kind, gram) ^ saltOf(id);
    const bit = filterBit(kind, gram, idSaltOf(id), index.filterShift);
    const filterByte = index.filter.data + (bit >>> 3);
    store<u8>(filterByte, <u32>load<u8>(filterByte) | (<u32>1 << (bit & 7)));
    const bucket = bucketOf(hash, mask);
    store<u32>(buckets + (<usize>i << 2), bucket);
    const slot = headers + ((<usize>bucket + 1) << 2);
    store<u32>(slot, load<u32>(slot) + 1);
  }
  // Always-candidates, prefix after prefix, each in rank order (ranks come ascending).
  let alwaysCount: u32 = 0;
  for (let id: u32 = 0; id < prefixCount; id++) {
    const prefix = prefixes + <usize>id * PREFIX_BYTES;
    const count = load<u32>(prefix, PrefixField.ALWAYS_END);
    store<u32>(prefix, alwaysCount, PrefixField.ALWAYS_START);
    store<u32>(prefix, alwaysCount, PrefixField.ALWAYS_END);
    alwaysCount += count;
  }
  index.always.reserve(<usize>alwaysCount * CANDIDATE_BYTES);
  index.always.length = <usize>alwaysCount * CANDIDATE_BYTES;
  for (let i: u32 = 0; i < n; i++) {
    if (load<u32>(choices + <usize>i * CHOICE_BYTES) != Gram.ALWAYS) continue;
    const prefix = prefixes + <usize>load<u32>(ids + (<usize>i << 2)) * PREFIX_BYTES;
    const at = load<u32>(prefix, PrefixField.ALWAYS_END);
    writeCandidate(table, load<u32>(ranks + (<usize>i << 2)), index.always.data + <usize>at * CANDIDATE_BYTES);
    store<u32>(prefix, at + 1, PrefixField.ALWAYS_END);
  }
  heap.free(pairRules);
  for (let b: u32 = 1; b <= bucketCount; b++) {
    store<u32>(headers + (<usize>b << 2), load<u32>(headers + (<usize>b << 2)) + load<u32>(headers + (<usize>(b - 1) << 2)));
  }
  const total = load<u32>(headers + (<usize>bucketCount << 2));
  const out = index.entries.reserve(<usize>total * ENTRY_BYTES);
  index.entries.length = <usize>total * ENTRY_BYTES;
  index.masks = Vec.create(<usize>total * MASK_BYTES);
  index.masks.length = <usize>total * MASK_BYTES;
  // Placing ranks in ascending order keeps every bucket ascending.
  const cursor = heap.alloc(<usize>bucketCount << 2);
  memory.copy(cursor, headers, <usize>bucketCount << 2);
  for (let i: u32 = 0; i < n; i++) {
    const choice = choices + <usize>i * CHOICE_BYTES;
    if (load<u32>(choice) == Gram.ALWAYS) continue;
    const slot = cursor + (<usize>load<u32>(buckets + (<usize>i << 2)) << 2);
    const at = load<u32>(slot);
    writeEntry(table, load<u32>(ranks + (<usize>i << 2)), load<u32>(ids + (<usize>i << 2)), choice, out + <usize>at * ENTRY_BYTES, index.masks.data + <usize>at * MASK_BYTES);
    store<u32>(slot, at + 1);
  }
  heap.free(cursor);
  heap.free(buckets);
  heap.free(choices);
  return index;
}

function writeEntry(table: RuleTable, rank: u32, id: u32, choice: usize, at: usize, masks: usize): void {
  const rule = table.selectedRules.u32At(rank);
  const pattern = table.pool.data + table.ruleField(rule, RuleField.PATTERN_START);
  const prefix = table.ruleField(rule, RuleField.PREFIX_LENGTH);
  const keyStart = load<u32>(choice, 8);
  const keyLength = load<u32>(choice, 12);
  let head: u64 = 0;
  for (let i: u32 = min<u32>(keyLength, 8); i > 0; i--) head = (head << 8) | <u64>load<u8>(pattern + keyStart + i - 1);
  store<u32>(at, rank, Entry.RANK);
  store<u32>(at, id, Entry.PREFIX_ID);
  store<u64>(at, head, Entry.KEY_HEAD);
  store<u32>(at, <u32>(pattern + keyStart), Entry.KEY);
  // Alone: nothing between the prefix's `*` and the key, and nothing after the key.
  store<u32>(at, keyLength | (keyStart == prefix + 1 && keyStart + keyLength == <u32>literalEnd(table, rule) ? ALONE : 0), Entry.KEY_LENGTH);
  store<u32>(at, load<u32>(choice, 16), Entry.GRAM_OFFSET);
  store<u32>(at, rule, Entry.RULE);
  storeRuleMasks(pattern, table.ruleField(rule, RuleField.PATTERN_LENGTH), masks);
}

// ---- Matching --------------------------------------------------------------------------------

/** The current path and prefix while the index is probed. */
let probeTable: usize = 0;
let probeIndex: usize = 0;
let probePath: usize = 0;
let probeLength: usize = 0;
let probeId: u32 = 0;
/** The length of the prefix's string: where its rules' segments may start. */
let probeDepth: usize = 0;
/** Keys are compared eight bytes at once where that reads no byte past memory. */
let probeMemoryEnd: usize = 0;

/**
 * Whether the entry's rule matches the current path with its gram at `at` (the gram's place in
 * the path; ignored for end grams): its key where the gram puts it, compared in place, then its
 * other segments before and after the key. The prefix is known to match (the walk passed it).
 */
// @ts-ignore: decorator
@inline function entryMatches(entry: usize, at: usize): bool {
  const keyField = load<u32>(entry, Entry.KEY_LENGTH);
  const keyLength = <usize>(keyField & ~ALONE);
  const offset = load<u32>(entry, Entry.GRAM_OFFSET);
  // Where the key would start; before the prefix's end (or wrapped below 0) it cannot be.
  const key = offset == AT_END ? probeLength - keyLength : at - <usize>offset;
  if (key < probeDepth || key > probeLength - keyLength || keyLength > probeLength) return false;
  const keyBytes = <usize>load<u32>(entry, Entry.KEY);
  const from = probePath + key;
  if (from + 8 <= probeMemoryEnd) {
    // The first eight bytes (or fewer) in one compare, the rest (long keys) after.
    const mask = keyLength >= 8 ? <u64>-1 : ((<u64>1 << (<u64>keyLength << 3)) - 1);
    if ((load<u64>(from) & mask) != load<u64>(entry, Entry.KEY_HEAD)) return false;
    if (keyLength > 8 && !bytesEqual(from + 8, keyBytes + 8, keyLength - 8)) return false;
  } else if (!bytesEqual(from, keyBytes, keyLength)) {
    return false;
  }
  return (keyField & ALONE) != 0 || keyFits(entry, key, keyLength, keyBytes);
}

/**
 * The rest of entryMatches: the segments before the key (after the prefix) and after it. The
 * caller has checked that the path holds the bytes and pairs of bytes the pattern needs (a key in
 * place is often a common word, and the rest a search in vain).
 */
function keyFits(entry: usize, key: usize, keyLength: usize, keyBytes: usize): bool {
  const table = changetype<RuleTable>(probeTable);
  const rule = load<u32>(entry, Entry.RULE);
  const pattern = table.pool.data + table.ruleField(rule, RuleField.PATTERN_START);
  const anchored = (table.ruleField(rule, RuleField.FLAGS) & RuleFlag.ANCHORED) != 0;
  const end = literalEnd(table, rule);
  const prefix = probeDepth;
  const keyStart = keyBytes - pattern;
  // Segments between the prefix's `*` and the `*` before the key, in the path before the key.
  if (keyStart > prefix + 1 && !segmentsFit(probePath, prefix, key, pattern, prefix + 1, keyStart - 1, false)) return false;
  const keyEnd = keyStart + keyLength;
  // The key ends the pattern: an anchored one was placed at the end of the path.
  if (keyEnd >= end) return true;
  return segmentsFit(probePath, key + keyLength, probeLength, pattern, keyEnd + 1, end, anchored);
}

/**
 * Tries the bucket of `hash` for the gram at `at` in rank order; returns the first rank that
 * matches and beats `best`, else `best`.
 */
// @ts-ignore: decorator
@inline function readBucket(index: GramIndex, hash: u64, at: usize, best: u32): u32 {
  const header = index.headers.data + (<usize>bucketOf(hash, index.bucketCount - 1) << 2);
  const entries = index.entries.data;
  const masks = index.masks.data;
  const to = entries + <usize>load<u32>(header, 4) * ENTRY_BYTES;
  for (let entry = entries + <usize>load<u32>(header) * ENTRY_BYTES; entry < to; entry += ENTRY_BYTES) {
    const rank = load<u32>(entry, Entry.RANK);
    if (rank >= best) break;
    // Another prefix's rule in the same bucket.
    if (load<u32>(entry, Entry.PREFIX_ID) != probeId) continue;
    // A rule with more than its key needs bytes the path may lack: the mask test is cheaper than
    // placing the key (many rules share a common key, `/*page=*...`).
    if ((load<u32>(entry, Entry.KEY_LENGTH) & ALONE) == 0 &&
      !pathHoldsMasks(masks + (entry - entries) / ENTRY_BYTES * MASK_BYTES, probePath, probeLength)) continue;
    if (entryMatches(entry, at)) return rank;
  }
  return best;
}

/** Probes one end gram: most are not in the filter and cost a multiply and a load. */
// @ts-ignore: decorator
@inline function probeEnd(index: GramIndex, kind: u32, gram: u32, id: u32, best: u32): u32 {
  if (!filterHas(index.filter.data, filterBit(kind, gram, idSaltOf(id), index.filterShift))) return best;
  return readBucket(index, gramHash(kind, gram) ^ saltOf(id), 0, best);
}

/**
 * The best rank among the rules filed under prefix `id`, whose string is the path's first
 * `depth` bytes, that match the path and beat `best`; else `best`. `memoryEnd` is the end of
 * linear memory, read once per path by the walk (keys and quads are loaded in wide pieces short of it).
 */
export function bestIndexedRank(table: RuleTable, index: GramIndex, id: u32, depth: usize, path: usize, length: usize, best: u32, memoryEnd: usize): u32 {
  const prefix = index.prefixes.data + <usize>id * PREFIX_BYTES;
  if (best <= load<u32>(prefix, PrefixField.FIRST_RANK)) return best;
  probeTable = changetype<usize>(table);
  probeIndex = changetype<usize>(index);
  probePath = path;
  probeLength = length;
  probeId = id;
  probeDepth = depth;
  probeMemoryEnd = memoryEnd;
  const kinds = load<u32>(prefix, PrefixField.KINDS);
  const rest = length - depth;
  if ((kinds & (1 << Gram.BYTE_AT_END)) && rest >= 1) best = probeEnd(index, Gram.BYTE_AT_END, <u32>load<u8>(path + length - 1), id, best);
  if ((kinds & (1 << Gram.PAIR_AT_END)) && rest >= 2) best = probeEnd(index, Gram.PAIR_AT_END, <u32>load<u16>(path + length - 2), id, best);
  if ((kinds & (1 << Gram.QUAD_AT_END)) && rest >= 4) best = probeEnd(index, Gram.QUAD_AT_END, load<u32>(path + length - 4), id, best);
  if ((kinds & (1 << Gram.QUAD)) && rest >= 4) best = probeQuads(index, id, path + depth, depth, rest - 3, best);
  if ((kinds & (1 << Gram.PAIR)) && rest >= 2) best = probePairs(index, id, path + depth, depth, rest - 1, best);
  // Rules with no gram: their prefix matched, the rest is tried (byte masks first). Last, so that
  // the grams' matches prune them (512k 1.9% faster than first).
  const always = index.always.data;
  best = bestCandidate(always + <usize>load<u32>(prefix, PrefixField.ALWAYS_START) * CANDIDATE_BYTES,
    always + <usize>load<u32>(prefix, PrefixField.ALWAYS_END) * CANDIDATE_BYTES, path, length, best);
  return best;
}

/**
 * Probes the quads at the first `positions` offsets from `from` (offset `depth` of the path),
 * sixteen at a time: four overlapping vector loads hold the sixteen quads, hashed by four vector
 * multiplies, and the filter is tested for each without a branch, collecting a bit per offset.
 * Only the offsets that pass cost a branch and a bucket read (a branch per offset would
 * mispredict on every pass), read once the filter is done with the first 64 (the end of a loop
 * per block of sixteen was a misprediction per block: 512k 2.7% slower).
 */
function probeQuads(index: GramIndex, id: u32, from: usize, depth: usize, positions: usize, best: u32): u32 {
  const filter = index.filter.data;
  const shift = index.filterShift;
  const idSalt = idSaltOf(id);
  const multiplier = i32x4.splat(FILTER_MUL);
  const salt = i32x4.splat((Gram.QUAD * KIND_MUL) ^ idSalt);
  const memoryEnd = probeMemoryEnd;
  const zero = i8x16.splat(0);
  const seven = i32x4.splat(7);
  let early: u64 = 0;
  for (let base: usize = 0; base < positions; base += 16) {
    const at = from + base;
    let passed: u32 = 0;
    if (at + 19 <= memoryEnd) {
      // Lane j of the load at at + k is the quad at offset 4j + k: bit 4j + k of `passed`.
      const h0 = i32x4.shr_u(v128.xor(i32x4.mul(v128.load(at), multiplier), salt), shift);
      const h1 = i32x4.shr_u(v128.xor(i32x4.mul(v128.load(at, 1), multiplier), salt), shift);
      const h2 = i32x4.shr_u(v128.xor(i32x4.mul(v128.load(at, 2), multiplier), salt), shift);
      const h3 = i32x4.shr_u(v128.xor(i32x4.mul(v128.load(at, 3), multiplier), salt), shift);
      // The filter byte of each offset is gathered into lane 4j + k of one vector, and the bits
      // tested there at once: per offset a lane extract and a byte load, where a scalar test took
      // nine instructions (512k 4.4% faster, 50k 4.8%).
      const b0 = i32x4.shr_u(h0, 3);
      const b1 = i32x4.shr_u(h1, 3);
      const b2 = i32x4.shr_u(h2, 3);
      const b3 = i32x4.shr_u(h3, 3);
      let bytes = v128.load8_lane(filter + <usize>i32x4.extract_lane(b0, 0), zero, 0);
      bytes = v128.load8_lane(filter + <usize>i32x4.extract_lane(b1, 0), bytes, 1);
      bytes = v128.load8_lane(filter + <usize>i32x4.extract_lane(b2, 0), bytes, 2);
      bytes = v128.load8_lane(filter + <usize>i32x4.extract_lane(b3, 0), bytes, 3);
      bytes = v128.load8_lane(filter + <usize>i32x4.extract_lane(b0, 1), bytes, 4);
      bytes = v128.load8_lane(filter + <usize>i32x4.extract_lane(b1, 1), bytes, 5);
      bytes = v128.load8_lane(filter + <usize>i32x4.extract_lane(b2, 1), bytes, 6);
      bytes = v128.load8_lane(filter + <usize>i32x4.extract_lane(b3, 1), bytes, 7);
      // The last block of a path is often short: its second half only if it has offsets there.
      if (positions - base > 8) {
        bytes = v128.load8_lane(filter + <usize>i32x4.extract_lane(b0, 2), bytes, 8);
        bytes = v128.load8_lane(filter + <usize>i32x4.extract_lane(b1, 2), bytes, 9);
        bytes = v128.load8_lane(filter + <usize>i32x4.extract_lane(b2, 2), bytes, 10);
        bytes = v128.load8_lane(filter + <usize>i32x4.extract_lane(b3, 2), bytes, 11);
        bytes = v128.load8_lane(filter + <usize>i32x4.extract_lane(b0, 3), bytes, 12);
        bytes = v128.load8_lane(filter + <usize>i32x4.extract_lane(b1, 3), bytes, 13);
        bytes = v128.load8_lane(filter + <usize>i32x4.extract_lane(b2, 3), bytes, 14);
        bytes = v128.load8_lane(filter + <usize>i32x4.extract_lane(b3, 3), bytes, 15);
      }
      // Each offset's bit within its byte (h & 7): narrowed to a byte per lane (lane 4k + j of
      // the narrowing holds lane j of h_k), shuffled into offset order and made a one-bit mask.
      const low = i8x16.narrow_i16x8_u(
        i16x8.narrow_i32x4_u(v128.and(h0, seven), v128.and(h1, seven)),
        i16x8.narrow_i32x4_u(v128.and(h2, seven), v128.and(h3, seven)));
      const bits = i8x16.swizzle(BIT_IN_BYTE, i8x16.shuffle(low, low, 0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15));
      passed = i8x16.bitmask(i8x16.ne(v128.and(bytes, bits), zero));
    } else {
      // The last bytes of memory: one quad at a time.
      for (let k: usize = 0; k < 16 && base + k < positions; k++) {
        passed |= filterHas(filter, filterBit(Gram.QUAD, load<u32>(at + k), idSalt, shift)) << <u32>k;
      }
    }
    // Offsets past the last quad were hashed from bytes after the path.
    if (positions - base < 16) passed &= (<u32>1 << <u32>(positions - base)) - 1;
    // Buckets of the first 64 offsets are read after the loop, of later ones (long paths) at once.
    if (base < 64) {
      early |= <u64>passed << <u64>base;
      continue;
    }
    best = readPassedBuckets(index, id, <u64>passed, at, depth + base, best);
  }
  return readPassedBuckets(index, id, early, from, depth, best);
}

/**
 * Reads the bucket of each quad whose bit is set in `passed`: bit k for the quad at `at + k`,
 * offset `offset + k` of the path.
 */
// @ts-ignore: decorator
@inline function readPassedBuckets(index: GramIndex, id: u32, passed: u64, at: usize, offset: usize, best: u32): u32 {
  while (passed != 0) {
    const k = <usize>ctz(passed);
    passed &= passed - 1;
    best = readBucket(index, gramHash(Gram.QUAD, load<u32>(at + k)) ^ saltOf(id), offset + k, best);
  }
  return best;
}

/** Probes the pairs at the first `positions` offsets from `from`, as probeQuads does (rarer: one at a time). */
function probePairs(index: GramIndex, id: u32, from: usize, depth: usize, positions: usize, best: u32): u32 {
  const filter = index.filter.data;
  const shift = index.filterShift;
  const idSalt = idSaltOf(id);
  for (let base: usize = 0; base < positions; base += 32) {
    const end = min<usize>(positions, base + 32);
    let passed: u32 = 0;
    for (let at = base; at < end; at++) {
      passed |= filterHas(filter, filterBit(Gram.PAIR, <u32>load<u16>(from + at), idSalt, shift)) << <u32>(at - base);
    }
    while (passed != 0) {
      const at = base + <usize>ctz(passed);
      passed &= passed - 1;
      best = readBucket(index, gramHash(Gram.PAIR, <u32>load<u16>(from + at)) ^ saltOf(id), depth + at, best);
    }
  }
  return best;
}
