// Building the gram index (see grams.ts): each rule's gram chosen, the buckets, the filter and the
// always-candidates of each crowded prefix laid out.

import { Char } from "./chars";
import { CANDIDATE_BYTES, writeCandidate } from "./candidates";
import { storeRuleMasks } from "./mask";
import { NO_RANK, RuleField, RuleFlag, RuleTable } from "./table";
import { SHORT_REST } from "./grams-probe";
import { Vec } from "./vec";
import {
  ALONE, AT_END, BIG_BUCKET, BUCKET_MULTIPLIERS, bucketOf, Entry, ENTRY_BYTES, filterBit, FLOODED_BUCKET, Gram, GramIndex, gramHash,
  idSaltOf, literalEnd, MASK_BYTES, MULTIPLIER_COUNT, PREFIX_BYTES, PrefixField, saltOf,
} from "./grams";

/** A gram cost larger than any. */
const NO_COST: u32 = 0xffffffff;

/** At most this many rules of a prefix filed by a pair become always-candidates instead. */
const FEW_PAIR_RULES: u32 = 16;

/** Extra cost of a pair holding `/`: almost every path has several. */
const SLASH_PENALTY_PAIR: u32 = 1024;

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
function countGrams(table: RuleTable, ranks: usize, ids: usize, n: u32, mask: u32, multiplier: u64, counts: usize, kind: u32): void {
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
        const slot = counts + (<usize>bucketOf(gramHash(kind, gramAt(width, pattern + segmentStart + o), multiplier) ^ salt, mask) << 2);
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

/** Counts the selection's quads into a new commonCounts table (freed by buildWith). */
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
function chooseGram(table: RuleTable, rule: u32, salt: u64, mask: u32, multiplier: u64, counts: usize, width: usize): void {
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
      let cost = load<u32>(counts + (<usize>bucketOf(gramHash(kind, gram, multiplier) ^ salt, mask) << 2)) + penalty;
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
 * prefix id of each at `ids` (ids below `prefixCount`): with the first of BUCKET_MULTIPLIERS that
 * floods no bucket (see grams.ts), or the last.
 */
export function buildGramIndex(table: RuleTable, ranks: usize, ids: usize, n: u32, prefixCount: u32): GramIndex {
  let index = buildWith(table, ranks, ids, n, prefixCount, load<u64>(BUCKET_MULTIPLIERS));
  for (let attempt: u32 = 1; flooded && attempt < MULTIPLIER_COUNT; attempt++) {
    index.free();
    indexesRebuilt++;
    index = buildWith(table, ranks, ids, n, prefixCount, load<u64>(BUCKET_MULTIPLIERS + (<usize>attempt << 3)));
  }
  return index;
}

/** Whether the last index built has a flooded bucket (FLOODED_BUCKET). */
let flooded = false;

/** Indexes built again under another multiplier since the engine started: for tests (index.ts floodCount). */
export let indexesRebuilt: u32 = 0;

function buildWith(table: RuleTable, ranks: usize, ids: usize, n: u32, prefixCount: u32, multiplier: u64): GramIndex {
  let bucketCount: u32 = 64;
  while (bucketCount < n * 2 && bucketCount < (1 << 20)) bucketCount <<= 1;
  const mask = bucketCount - 1;

  const index = changetype<GramIndex>(heap.alloc(offsetof<GramIndex>()));
  index.bucketCount = bucketCount;
  index.multiplier = multiplier;
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
  countGrams(table, ranks, ids, n, mask, multiplier, counts, Gram.QUAD);
  // Counted again by a rebuild, not kept across it: made here and freed with the bucket counts, it
  // adds nothing to the peak memory of the 512 KiB benchmark file's build (kept across, a fresh
  // instance grew from 2.75 to 5.5 MiB).
  countCommonQuads(table);
  const choices = heap.alloc(max<usize>(<usize>n * CHOICE_BYTES, CHOICE_BYTES));
  // Rules of each prefix that need pairs.
  const pairRules = heap.alloc(max<usize>(<usize>prefixCount << 2, 4));
  memory.fill(pairRules, 0, <usize>prefixCount << 2);
  let anyPairRules = false;
  for (let i: u32 = 0; i < n; i++) {
    const id = load<u32>(ids + (<usize>i << 2));
    chooseGram(table, table.selectedRules.u32At(load<u32>(ranks + (<usize>i << 2))), saltOf(id), mask, multiplier, counts, 4);
    if (chosenKind == Gram.ALWAYS) {
      // Not a pair yet: counted below, once pairs are counted.
      chosenKind = Gram.PAIR;
      anyPairRules = true;
    }
    storeChoice(choices + <usize>i * CHOICE_BYTES);
  }
  if (anyPairRules) {
    memory.fill(counts, 0, <usize>bucketCount << 2);
    countGrams(table, ranks, ids, n, mask, multiplier, counts, Gram.PAIR);
    for (let i: u32 = 0; i < n; i++) {
      const choice = choices + <usize>i * CHOICE_BYTES;
      if (load<u32>(choice) != Gram.PAIR) continue;
      const id = load<u32>(ids + (<usize>i << 2));
      chooseGram(table, table.selectedRules.u32At(load<u32>(ranks + (<usize>i << 2))), saltOf(id), mask, multiplier, counts, 2);
      storeChoice(choice);
      if (chosenKind == Gram.PAIR) store<u32>(pairRules + (<usize>id << 2), load<u32>(pairRules + (<usize>id << 2)) + 1);
    }
  }
  heap.free(counts);
  heap.free(commonCounts);

  // The final kinds, the prefixes' first ranks and kinds, the always-candidates of each prefix
  // counted, the buckets' sizes and, per bucket, the hash of its first gram and how many entries
  // have another.
  const buckets = heap.alloc(max<usize>(<usize>n << 2, 4));
  const firstHashes = heap.alloc(<usize>bucketCount << 3);
  const others = heap.alloc(<usize>bucketCount << 2);
  memory.fill(others, 0, <usize>bucketCount << 2);
  flooded = false;
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
    const hash = gramHash(kind, gram, multiplier) ^ saltOf(id);
    const bit = filterBit(kind, gram, idSaltOf(id), index.filterShift);
    const filterByte = index.filter.data + (bit >>> 3);
    store<u8>(filterByte, <u32>load<u8>(filterByte) | (<u32>1 << (bit & 7)));
    const bucket = bucketOf(hash, mask);
    store<u32>(buckets + (<usize>i << 2), bucket);
    const slot = headers + ((<usize>bucket + 1) << 2);
    const size = load<u32>(slot);
    const firstHash = firstHashes + (<usize>bucket << 3);
    if (size == 0) {
      store<u64>(firstHash, hash);
    } else if (load<u64>(firstHash) != hash) {
      const other = others + (<usize>bucket << 2);
      store<u32>(other, load<u32>(other) + 1);
      if (load<u32>(other) > FLOODED_BUCKET) flooded = true;
    }
    store<u32>(slot, size + 1);
  }
  heap.free(others);
  heap.free(firstHashes);
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
  // Headers hold the buckets' sizes, one place on, until summed here.
  index.shortRest = SHORT_REST;
  for (let b: u32 = 1; b <= bucketCount; b++) {
    if (load<u32>(headers + (<usize>b << 2)) > BIG_BUCKET) index.shortRest = 0;
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
