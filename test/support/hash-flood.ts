/**
 * Strings that flood the engine's hashes, as a site could choose them offline against its fixed
 * constants: strings whose hashes share their low bits, so that they all start probing at slot 0
 * of a set with up to 2^bits slots (assembly/byte-groups.ts), and quads that all fall in bucket 0
 * of a gram index of up to 2^bits buckets under its first multiplier (assembly/grams.ts). Found by
 * trying strings in order until enough match, which takes minutes: test/fixtures/hash-flood/
 * keeps the result, and the tests check that it still floods the hashes the engine has.
 *
 *   npx vite-node scripts/write-hash-flood.ts    # writes test/fixtures/hash-flood/*.txt (about seven minutes)
 */

const MASK64 = (1n << 64n) - 1n;
const K1 = 0x9e3779b97f4a7c15n;
const K2 = 0xc2b2ae3d27d4eb4fn;

const mul = (a: bigint, b: bigint) => (a * b) & MASK64;
const rotl31 = (x: bigint) => ((x << 31n) | (x >> 33n)) & MASK64;
const word = (bytes: Uint8Array, at: number) => new DataView(bytes.buffer, bytes.byteOffset + at, 8).getBigUint64(0, true);

/** The engine's bytesHash (assembly/byte-groups.ts), as a u32: written from its description, in BigInt arithmetic. */
export function bytesHash(bytes: Uint8Array): number {
  const length = bytes.length;
  let h = mul(BigInt(length), K1);
  const mix = (w: bigint) => {
    h = mul(rotl31(h ^ mul(w, K2)), K1);
  };
  if (length >= 8) {
    let at = 0;
    for (; at + 8 < length; at += 8) mix(word(bytes, at));
    mix(word(bytes, length - 8));
  } else {
    // The bytes read as a big-endian number.
    let tail = 0n;
    for (const byte of bytes) tail = (tail << 8n) | BigInt(byte);
    mix(tail);
  }
  h = mul(h ^ (h >> 33n), 0xff51afd7ed558ccdn);
  h = mul(h ^ (h >> 33n), 0xc4ceb9fe1a85ec53n);
  return Number((h >> 32n) ^ (h & 0xffffffffn));
}

/** Whether the string's hash has its low `bits` bits zero. */
export function floods(string: string, bits: number): boolean {
  return (bytesHash(new TextEncoder().encode(string)) & ((1 << bits) - 1)) === 0;
}

const LETTERS = "abcdefghijklmnopqrstuvwxyz0123456789";

/**
 * The first `count` strings `lead` + six letters (the counter 0, 1, 2, ... in base 36, lowest
 * digit first) whose hash has its low `bits` bits zero.
 */
export function findFlood(lead: string, count: number, bits: number): string[] {
  const found: string[] = [];
  for (let counter = 0; found.length < count; counter++) {
    let letters = "";
    for (let rest = counter, i = 0; i < 6; i++, rest = Math.floor(rest / 36)) letters += LETTERS[rest % 36];
    if (floods(lead + letters, bits)) found.push(letters);
  }
  return found;
}

/** What the fixtures hold: for a file of FLOOD_COUNT such rules, a set of 2 * FLOOD_COUNT slots. */
export const FLOOD_COUNT = 8192;
export const FLOOD_BITS = 14;
/** Patterns `/*` + letters (distinct.ts hashes whole patterns) and prefixes `/` + letters (plan.ts groups rules by prefix). */
export const FLOOD_LEADS = { patterns: "/*", prefixes: "/" } as const;

/** The gram index's first bucket multiplier and the kind of a quad (assembly/grams.ts). */
const FIRST_MULTIPLIER = 0x9e3779b97f4a7c15n;
const QUAD_KIND = 4n;

/** The bucket of a quad (four bytes, read little-endian) in an index of 2^bits buckets under the first multiplier, for prefix id 0 (no salt). */
export function quadBucket(quad: string, bits: number): number {
  const bytes = new TextEncoder().encode(quad);
  const gram = BigInt(bytes[0]! | (bytes[1]! << 8) | (bytes[2]! << 16)) | (BigInt(bytes[3]!) << 24n);
  return Number((mul(gram | (QUAD_KIND << 32n), FIRST_MULTIPLIER) >> 32n) & BigInt((1 << bits) - 1));
}

/** Bytes a quad of the flood may hold: unreserved in URLs, and neither `Q` nor `~` (the flood's rules end in `*Q`). */
const QUAD_BYTES = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPRSTUVWXYZ0123456789-_.!()";

/** The first `count` quads over QUAD_BYTES (in order of their bytes) that fall in bucket 0 of 2^bits buckets. */
export function findQuadFlood(count: number, bits: number): string[] {
  const found: string[] = [];
  for (const a of QUAD_BYTES) for (const b of QUAD_BYTES) for (const c of QUAD_BYTES) for (const d of QUAD_BYTES) {
    if (found.length === count) return found;
    if (quadBucket(a + b + c + d, bits) === 0) found.push(a + b + c + d);
  }
  return found;
}

/** What quads.txt holds: for an index of QUAD_FLOOD_COUNT rules, 2 * QUAD_FLOOD_COUNT buckets. */
export const QUAD_FLOOD_COUNT = 2048;
export const QUAD_FLOOD_BITS = 12;
