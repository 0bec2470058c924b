// Probing the gram index (see grams.ts) for one path under one crowded prefix: its end grams, its
// quads sixteen at a time through the filter, its pairs, then the prefix's always-candidates.
//
// A gram may occur at every offset of a long path, and trying the rules of its bucket again at
// each occurrence would cost rules x occurrences, or occurrences x path for a rule searched around
// each place of its key. A short path is probed so (readBucket): it has few occurrences. A long
// one is probed with stamps (readStamped): a rule whose key is in place is decided for the whole
// path, once, and a bucket that has nothing left to try, or whose rules left to try share a key
// that is not in place, is skipped, so that the probe is linear in the path. The verdicts are
// stamps of the probe's mark in scratch arrays of the module, a u32 per entry and a u64 per bucket
// of the index probed, so that a new mark forgets them all; the tables carry nothing for them.
import { bestCandidate, CANDIDATE_BYTES } from "./candidates";
import { BIT_IN_BYTE, pathHoldsMasks } from "./mask";
import { bytesEqual, matchesAfterPrefix, segmentsFit } from "./pattern";
import { RuleField, RuleFlag, RuleTable } from "./table";
import { SCRATCH_KEPT } from "./vec";
import {
  ALONE, AT_END, bucketOf, Entry, ENTRY_BYTES, FILTER_MUL, filterBit, Gram, GramIndex, gramHash,
  idSaltOf, KIND_MUL, literalEnd, MASK_BYTES, PREFIX_BYTES, PrefixField, saltOf,
} from "./grams";

/** 1 if the filter has the bit, else 0. */
// @ts-ignore: decorator
@inline function filterHas(filter: usize, bit: u32): u32 {
  return (<u32>load<u8>(filter + (bit >>> 3)) >>> (bit & 7)) & 1;
}


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
 * Paths with more than this many bytes after the prefix are probed with stamps (readStamped), in
 * a loop of their own: a gram of a shorter one occurs few enough times (125 quads, 127 pairs at
 * most, overlapping) that trying its bucket at each occurrence costs less than stamps (every path stamped:
 * 512k 2.3% more instructions; those over 67 bytes, 1.1% of its URLs: 0.5%), unless the index
 * has a big bucket (grams.ts BIG_BUCKET: then every path is stamped).
 */
export const SHORT_REST: u32 = 128;

/**
 * The current mark, taken by a probe of a long path's quads or pairs: an even number, new each time. A bucket
 * stamped with it was read by this probe; an entry stamped with it was searched around one place
 * of its key and did not fit there, and one stamped with it + 1 has a rule that fails the path. 0
 * is no probe's mark, so zeroed scratch holds no verdict.
 */
let probeMark: u32 = 0;
/** Per entry of the index, a u32 stamp. */
let entryStamps: usize = 0;
let entryStampsCount: usize = 0;
/**
 * Per bucket, a u64: the mark of the probe that read it, and above it what is left to try there:
 * SETTLED, entries of one key (1 + the index of one of them) or UNSORTED.
 */
let bucketStamps: usize = 0;
let bucketStampsCount: usize = 0;
/** Every entry the probe may still try in the bucket is decided. */
const SETTLED: u64 = 0;
/** Entries left open with different keys. */
const UNSORTED: u64 = 0xffffffff;

/**
 * Makes stamp space for the index (its entries and buckets), zeroed, so with no verdict: scratch
 * of the module, not the table's, made by the first long path a probe stamps, and given back past
 * SCRATCH_KEPT at the end of the call (releaseProbeStamps).
 */
function reserveProbeStamps(index: GramIndex): void {
  const entries = index.entries.length / ENTRY_BYTES;
  const buckets = <usize>index.bucketCount;
  if (entries > entryStampsCount) {
    if (entryStamps) heap.free(entryStamps);
    entryStamps = heap.alloc(entries << 2);
    memory.fill(entryStamps, 0, entries << 2);
    entryStampsCount = entries;
  }
  if (buckets > bucketStampsCount) {
    if (bucketStamps) heap.free(bucketStamps);
    bucketStamps = heap.alloc(buckets << 3);
    memory.fill(bucketStamps, 0, buckets << 3);
    bucketStampsCount = buckets;
  }
}

/** Gives back the stamps' room if it passed SCRATCH_KEPT (see Vec.releaseRoom): match.ts releaseLongPath. */
export function releaseProbeStamps(): void {
  if ((entryStampsCount << 2) + (bucketStampsCount << 3) <= SCRATCH_KEPT) return;
  heap.free(entryStamps);
  heap.free(bucketStamps);
  entryStamps = 0;
  bucketStamps = 0;
  entryStampsCount = 0;
  bucketStampsCount = 0;
}

/** A new mark for a probe of the index; when the marks wrap, every stamp is cleared, as 0 would be an older mark. */
function newMark(index: GramIndex): void {
  reserveProbeStamps(index);
  probeMark += 2;
  if (probeMark == 0) {
    memory.fill(entryStamps, 0, entryStampsCount << 2);
    memory.fill(bucketStamps, 0, bucketStampsCount << 3);
    probeMark = 2;
  }
}

/** keyPlace of a key that is not in place. */
const NOWHERE: usize = <usize>-1;

/** Where the entry's key starts in the path with its gram at `at`, or NOWHERE if it is not there. */
// @ts-ignore: decorator
@inline function keyPlace(entry: usize, at: usize): usize {
  const keyLength = <usize>(load<u32>(entry, Entry.KEY_LENGTH) & ~ALONE);
  const offset = load<u32>(entry, Entry.GRAM_OFFSET);
  // Where the key would start; before the prefix's end (or wrapped below 0) it cannot be.
  const key = offset == AT_END ? probeLength - keyLength : at - <usize>offset;
  if (key < probeDepth || key > probeLength - keyLength || keyLength > probeLength) return NOWHERE;
  const keyBytes = <usize>load<u32>(entry, Entry.KEY);
  const from = probePath + key;
  if (from + 8 <= probeMemoryEnd) {
    // The first eight bytes (or fewer) in one compare, the rest (long keys) after.
    const mask = keyLength >= 8 ? <u64>-1 : ((<u64>1 << (<u64>keyLength << 3)) - 1);
    if ((load<u64>(from) & mask) != load<u64>(entry, Entry.KEY_HEAD)) return NOWHERE;
    if (keyLength > 8 && !bytesEqual(from + 8, keyBytes + 8, keyLength - 8)) return NOWHERE;
  } else if (!bytesEqual(from, keyBytes, keyLength)) {
    return NOWHERE;
  }
  return key;
}

/**
 * Whether the entry's rule matches the current path with its gram at `at` (the gram's place in
 * the path; ignored for end grams): its key where the gram puts it, compared in place, then its
 * other segments before and after the key. The prefix is known to match (the walk passed it).
 * keyPlace's compare, written out: each failed compare returns at once (through keyPlace's
 * result, 512k 0.4% more instructions).
 */
// @ts-ignore: decorator
@inline function entryMatches(entry: usize, at: usize): bool {
  const keyField = load<u32>(entry, Entry.KEY_LENGTH);
  const keyLength = <usize>(keyField & ~ALONE);
  const offset = load<u32>(entry, Entry.GRAM_OFFSET);
  const key = offset == AT_END ? probeLength - keyLength : at - <usize>offset;
  if (key < probeDepth || key > probeLength - keyLength || keyLength > probeLength) return false;
  const keyBytes = <usize>load<u32>(entry, Entry.KEY);
  const from = probePath + key;
  if (from + 8 <= probeMemoryEnd) {
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
 * matches and beats `best`, else `best`. For a short path (see readStamped for long ones).
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

/** Whether two entries' keys are the same bytes at the same place of the gram (so in place at the same occurrences). */
function sameKey(a: usize, b: usize): bool {
  const length = load<u32>(a, Entry.KEY_LENGTH) & ~ALONE;
  if (length != (load<u32>(b, Entry.KEY_LENGTH) & ~ALONE) || load<u32>(a, Entry.GRAM_OFFSET) != load<u32>(b, Entry.GRAM_OFFSET) ||
    load<u64>(a, Entry.KEY_HEAD) != load<u64>(b, Entry.KEY_HEAD)) return false;
  return length <= 8 || bytesEqual(<usize>load<u32>(a, Entry.KEY) + 8, <usize>load<u32>(b, Entry.KEY) + 8, <usize>length - 8);
}

/**
 * readBucket for a long path (more than SHORT_REST bytes after the prefix), which may repeat a
 * gram at every offset. A search around every place of a key would make a path that repeats the
 * key quadratic, and a read of a bucket at every occurrence of its gram cost rules x occurrences;
 * so here a rule is searched around the first place of its key only, as readBucket does (cheaper,
 * and enough for most rules), and stamped if it does not fit there; at the next place of its key
 * it is decided for the whole path, by one match of its pattern after the prefix (linear: each
 * segment at its leftmost place after the one before), and a failure is stamped, so that each rule
 * costs at most one search around its key and one whole match per probe. A match needs no stamp:
 * its rank becomes the best, and the probe tries no rank past the best again.
 *
 * What is left open after a read, the rules whose key was not in place, is stamped on the bucket
 * if it is nothing (each entry failed the path's masks, was decided or ranks past the best: later
 * reads cost a load) or entries of one key (the rules that file under a gram and differ only in
 * segments too short for a gram of their own, `/*abcdefgh*1`, `/*abcdefgh*2`, ...: later reads
 * cost a compare of that key where it is not in place, and where it is, decide them all). What is
 * left open only shrinks, as the best falls and rules are decided, so a bucket once settled or of
 * one key stays so. Only open entries of different keys under one gram (which the gram choice
 * avoids: a rule files under its least shared gram) are read again at each occurrence.
 */
function readStamped(index: GramIndex, hash: u64, at: usize, best: u32): u32 {
  const bucket = <usize>bucketOf(hash, index.bucketCount - 1);
  const entries = index.entries.data;
  const stamp = bucketStamps + (bucket << 3);
  const stamped = load<u64>(stamp);
  if (<u32>stamped == probeMark) {
    const left = stamped >>> 32;
    if (left == SETTLED || (left != UNSORTED && keyPlace(entries + (<usize>left - 1) * ENTRY_BYTES, at) == NOWHERE)) return best;
  }
  const header = index.headers.data + (bucket << 2);
  const masks = index.masks.data;
  const to = entries + <usize>load<u32>(header, 4) * ENTRY_BYTES;
  const table = changetype<RuleTable>(probeTable);
  // The first entry left open, and whether another has a different key.
  let open: usize = 0;
  let mixed = false;
  let found = best;
  for (let entry = entries + <usize>load<u32>(header) * ENTRY_BYTES; entry < to; entry += ENTRY_BYTES) {
    const rank = load<u32>(entry, Entry.RANK);
    if (rank >= best) break;
    if (load<u32>(entry, Entry.PREFIX_ID) != probeId) continue;
    const keyField = load<u32>(entry, Entry.KEY_LENGTH);
    if ((keyField & ALONE) == 0 && !pathHoldsMasks(masks + (entry - entries) / ENTRY_BYTES * MASK_BYTES, probePath, probeLength)) continue;
    const entryStamp = entryStamps + ((entry - entries) >> 3);
    if (load<u32>(entryStamp) == probeMark + 1) continue;
    const key = keyPlace(entry, at);
    if (key == NOWHERE) {
      // An end gram has one place: a key not there fails the rule.
      if (load<u32>(entry, Entry.GRAM_OFFSET) == AT_END) continue;
      if (open == 0) open = entry;
      else if (!mixed) mixed = !sameKey(open, entry);
      continue;
    }
    if ((keyField & ALONE) != 0) {
      found = rank;
      break;
    }
    if (load<u32>(entryStamp) != probeMark) {
      // The first place of the key: the search around it, as readBucket's.
      if (keyFits(entry, key, <usize>(keyField & ~ALONE), <usize>load<u32>(entry, Entry.KEY))) {
        found = rank;
        break;
      }
      store<u32>(entryStamp, probeMark);
      if (open == 0) open = entry;
      else if (!mixed) mixed = !sameKey(open, entry);
      continue;
    }
    const rule = load<u32>(entry, Entry.RULE);
    if (matchesAfterPrefix(probePath, probeLength, table.pool.data + table.ruleField(rule, RuleField.PATTERN_START),
      <usize>table.ruleField(rule, RuleField.PATTERN_LENGTH), probeDepth, (table.ruleField(rule, RuleField.FLAGS) & RuleFlag.ANCHORED) != 0)) {
      found = rank;
      break;
    }
    store<u32>(entryStamp, probeMark + 1);
  }
  store<u64>(stamp, <u64>probeMark | ((mixed ? UNSORTED : open == 0 ? SETTLED : <u64>((open - entries) / ENTRY_BYTES + 1)) << 32));
  return found;
}

/** Probes one end gram: most are not in the filter and cost a multiply and a load. */
// @ts-ignore: decorator
@inline function probeEnd(index: GramIndex, kind: u32, gram: u32, id: u32, best: u32): u32 {
  if (!filterHas(index.filter.data, filterBit(kind, gram, idSaltOf(id), index.filterShift))) return best;
  return readBucket(index, gramHash(kind, gram, index.multiplier) ^ saltOf(id), 0, best);
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
  // A long path's quads and pairs are read with stamps (readStamped), and every path of an index
  // with a big bucket (GramIndex.shortRest).
  const long = rest > <usize>index.shortRest;
  if ((kinds & (1 << Gram.BYTE_AT_END)) && rest >= 1) best = probeEnd(index, Gram.BYTE_AT_END, <u32>load<u8>(path + length - 1), id, best);
  if ((kinds & (1 << Gram.PAIR_AT_END)) && rest >= 2) best = probeEnd(index, Gram.PAIR_AT_END, <u32>load<u16>(path + length - 2), id, best);
  if ((kinds & (1 << Gram.QUAD_AT_END)) && rest >= 4) best = probeEnd(index, Gram.QUAD_AT_END, load<u32>(path + length - 4), id, best);
  if ((kinds & (1 << Gram.QUAD)) && rest >= 4) {
    best = long ? probeQuadsStamped(index, id, path + depth, depth, rest - 3, best) : probeQuads(index, id, path + depth, depth, rest - 3, best);
  }
  if ((kinds & (1 << Gram.PAIR)) && rest >= 2) best = probePairs(index, id, path + depth, depth, rest - 1, best, long);
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
  return probeQuadsWith(index, id, from, depth, positions, best, false);
}

/** probeQuads for a long path: its buckets read with stamps (readStamped). */
function probeQuadsStamped(index: GramIndex, id: u32, from: usize, depth: usize, positions: usize, best: u32): u32 {
  newMark(index);
  return probeQuadsWith(index, id, from, depth, positions, best, true);
}

/** probeQuads, its buckets read by readStamped if `stamped` (a constant: each caller is its own loop). */
// @ts-ignore: decorator
@inline function probeQuadsWith(index: GramIndex, id: u32, from: usize, depth: usize, positions: usize, best: u32, stamped: bool): u32 {
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
    best = stamped ? readPassedStamped(index, id, <u64>passed, at, depth + base, best) : readPassedBuckets(index, id, <u64>passed, at, depth + base, best);
  }
  return stamped ? readPassedStamped(index, id, early, from, depth, best) : readPassedBuckets(index, id, early, from, depth, best);
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
    best = readBucket(index, gramHash(Gram.QUAD, load<u32>(at + k), index.multiplier) ^ saltOf(id), offset + k, best);
  }
  return best;
}

/** readPassedBuckets with stamps (readStamped). */
function readPassedStamped(index: GramIndex, id: u32, passed: u64, at: usize, offset: usize, best: u32): u32 {
  while (passed != 0) {
    const k = <usize>ctz(passed);
    passed &= passed - 1;
    best = readStamped(index, gramHash(Gram.QUAD, load<u32>(at + k), index.multiplier) ^ saltOf(id), offset + k, best);
  }
  return best;
}

/** Probes the pairs at the first `positions` offsets from `from`, as probeQuads does (rarer: one at a time). */
function probePairs(index: GramIndex, id: u32, from: usize, depth: usize, positions: usize, best: u32, stamped: bool): u32 {
  // A long path: its pairs read with stamps, of a mark of their own.
  if (stamped) newMark(index);
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
      const hash = gramHash(Gram.PAIR, <u32>load<u16>(from + at), index.multiplier) ^ saltOf(id);
      best = stamped ? readStamped(index, hash, depth + at, best) : readBucket(index, hash, depth + at, best);
    }
  }
  return best;
}
