// The gram index: wildcard rules that would crowd one node of the radix tree (real files carry
// hundreds of `/*...` rules whose literal prefix is just `/`, and many carry dozens under each
// `/section/`) are filed here instead, each under a short byte string, a *gram*, taken from one of
// its literal segments, its *key*. A path reads only the buckets of the grams it holds, and where
// it holds one, a rule of the bucket is tried by comparing its key where the gram puts it: a few
// bytes compared in place, with no search, so a rule that does not match costs one compare. A path
// that repeats a gram does not pay for its bucket at every occurrence: a probe decides a rule for
// the whole path where it finds its key in place again, and skips a bucket with nothing left to
// decide (grams-probe.ts).
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
// rank that cannot win. A file can crowd a bucket with rules of different grams, chosen offline
// against the hash (each such rule is tried at every place of its gram in a path): an index whose
// bucket holds more than FLOODED_BUCKET of them is built again with the next of BUCKET_MULTIPLIERS,
// under which those grams fall apart.
//
// Why grams and not an automaton: an Aho-Corasick automaton over the same keys (one pass over the
// path, each key's rules listed at the state that ends it) gave the same verdicts and was 29%
// slower on the 512 KiB benchmark file (430 against 333 ns per URL), and its table of 4,822 states
// took 415 KB. Its pass costs a table load per byte that waits for the one before (about 6 ns per
// byte here), where the filter tests sixteen quads at once with no chain between them.
//
// This file holds what both sides share: the gram kinds, the hashes, the entry layout and the index.
// grams-build.ts builds the index; grams-probe.ts probes it for a path.

import { RuleField, RuleFlag, RuleTable } from "./table";
import { Vec } from "./vec";

export const enum Gram {
  BYTE_AT_END = 0,
  PAIR_AT_END = 1,
  QUAD_AT_END = 2,
  PAIR = 3,
  QUAD = 4,
  /** Not a gram: the rule is always a candidate. */
  ALWAYS = 5,
}

/**
 * The bucket hash of a gram of one kind: a 64-bit multiply by the index's multiplier (one of
 * BUCKET_MULTIPLIERS) whose bits 32..51 (at most) pick the bucket. The prefix's salt is XORed in
 * after the multiply. Bits of a product depend only on the factor's bits below them, so lower
 * bits would leave the kind and the gram's top bits out: a quad and an end quad of the same bytes
 * would share a bucket under every multiplier.
 */
// @ts-ignore: decorator
@inline export function gramHash(kind: u32, gram: u32, multiplier: u64): u64 {
  return (<u64>gram | (<u64>kind << 32)) * multiplier;
}

/**
 * Odd multipliers for the bucket hash, the first tried first. Grams that share a bucket under
 * one seldom share one under another: a file would need grams that share one under each, which
 * the 2^32 quads do not hold for an index of more than a few hundred buckets.
 */
export const BUCKET_MULTIPLIERS = memory.data<u64>([0x9e3779b97f4a7c15, 0xc6a4a7935bd1e995, 0xd1b54a32d192ed03]);
export const MULTIPLIER_COUNT: u32 = 3;

/**
 * A bucket holding more entries than this of grams other than its first one's is flooded: with
 * at least twice as many buckets as rules, no bucket of the corpus's 374 files or the benchmark
 * files holds more than 9 (the 512 KiB file, for every agent).
 */
export const FLOODED_BUCKET: u32 = 32;

/** The salt of a prefix id (0 for the first, usually `/`). */
// @ts-ignore: decorator
@inline export function saltOf(id: u32): u64 {
  return <u64>id * 0xd6e8feb86659fd93;
}

// @ts-ignore: decorator
@inline export function bucketOf(hash: u64, mask: u32): u32 {
  return <u32>(hash >>> 32) & mask;
}

/**
 * The filter hash of a gram, independent of the bucket hash: a 32-bit multiply, so that four
 * quads hash in one vector multiply (probeQuads), with the kind and the prefix id XORed in
 * after it. Its top bits pick the filter bit.
 */
export const FILTER_MUL: u32 = 0x9e3779b1;
export const KIND_MUL: u32 = 0x85ebca6b;

// @ts-ignore: decorator
@inline export function idSaltOf(id: u32): u32 {
  return id * 0xc2b2ae35;
}

// @ts-ignore: decorator
@inline export function filterBit(kind: u32, gram: u32, idSalt: u32, shift: u32): u32 {
  return ((gram * FILTER_MUL) ^ (kind * KIND_MUL) ^ idSalt) >>> shift;
}

/**
 * An indexed rule as a bucket lists it, 32 bytes: enough to try it where a path holds its gram
 * without reading the rule table or the pattern, unless its key is in place and it has more
 * segments than the key.
 */
export const ENTRY_BYTES: usize = 32;
export const enum Entry {
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
export const AT_END: u32 = 0xffffffff;
/** KEY_LENGTH flag: the key is the only segment after the prefix, so a key in place is a match. */
export const ALONE: u32 = 0x80000000;
/** Byte and pair masks (mask.ts) of each entry's pattern, 16 bytes, beside the entries: read only when a key is in place. */
export const MASK_BYTES: usize = 16;

/** Per prefix id, 16 bytes: what its probes need. */
export const enum PrefixField {
  /** Smallest rank filed under the prefix: a path whose best is already at most this skips it. */
  FIRST_RANK = 0,
  /** Range of `always` (candidate entries) of the prefix's rules with no gram. */
  ALWAYS_START = 4,
  ALWAYS_END = 8,
  /** A bit per gram kind the prefix's rules are filed under. */
  KINDS = 12,
}
export const PREFIX_BYTES: usize = 16;

/**
 * An index with a bucket of more entries than this probes short paths with stamps too
 * (grams-probe.ts readStamped, GramIndex.shortRest): such a bucket (thousands of rules sharing a
 * quad, `/*page*1`, `/*page*2`, ...) was read again at each place of the quad in a short path, up
 * to 125 (40,000 rules and a path of 31 `abcd`: 2.3 ms, now 0.15). Stamps cost 2.3% on the
 * benchmark's paths, so the other indexes' short paths go without (at most 64 x 125 entries
 * read); no file of the corpus or the benchmarks has one.
 */
export const BIG_BUCKET: u32 = 64;

@unmanaged
export class GramIndex {
  /** A power of two. */
  bucketCount: u32;
  /** The bucket hash's multiplier (gramHash). */
  multiplier: u64;
  /** Paths with more bytes than this after a prefix are probed with stamps: grams-probe.ts SHORT_REST, or 0 (BIG_BUCKET). */
  shortRest: u32;
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

/** Bytes of a rule's pattern that segments come from: all but a final `$`. */
// @ts-ignore: decorator
@inline export function literalEnd(table: RuleTable, rule: u32): usize {
  const length = <usize>table.ruleField(rule, RuleField.PATTERN_LENGTH);
  return table.ruleField(rule, RuleField.FLAGS) & RuleFlag.ANCHORED ? length - 1 : length;
}
