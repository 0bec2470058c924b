// Byte searches sixteen bytes at a time (WebAssembly SIMD). URL batches are megabytes of text in
// which the engine looks for line ends and fragment marks; a byte loop would cost more than the
// matching itself.

/**
 * Whether sixteen bytes can be loaded at `address` although fewer of them are wanted: the tail of
 * a search reads one whole vector and ignores the bytes past its end, instead of a byte loop.
 */
// @ts-ignore: decorator
@inline function canLoadVector(address: usize): bool {
  return address + 16 <= (<usize>memory.size() << 16);
}

/** Bits of the first `n` (< 16) lanes of a bitmask. */
// @ts-ignore: decorator
@inline function firstLanes(n: usize): u32 {
  return (<u32>1 << <u32>n) - 1;
}

/** Index of the first `byte` in [from, to), or `to`. */
export function findByte(base: usize, from: usize, to: usize, byte: u32): usize {
  const needle = i8x16.splat(<i8>byte);
  let i = from;
  while (i + 16 <= to) {
    const mask = i8x16.bitmask(i8x16.eq(v128.load(base + i), needle));
    if (mask != 0) return i + <usize>ctz(mask);
    i += 16;
  }
  if (i < to && canLoadVector(base + i)) {
    const mask = i8x16.bitmask(i8x16.eq(v128.load(base + i), needle)) & firstLanes(to - i);
    return mask != 0 ? i + <usize>ctz(mask) : to;
  }
  while (i < to && <u32>load<u8>(base + i) != byte) i++;
  return i;
}

/** Number of `byte` in [from, to). */
export function countByte(base: usize, from: usize, to: usize, byte: u32): u32 {
  const needle = i8x16.splat(<i8>byte);
  let count: u32 = 0;
  let i = from;
  while (i + 16 <= to) {
    count += <u32>popcnt(i8x16.bitmask(i8x16.eq(v128.load(base + i), needle)));
    i += 16;
  }
  while (i < to) {
    if (<u32>load<u8>(base + i) == byte) count++;
    i++;
  }
  return count;
}

/** Index of the first byte in [from, to) equal to `a`, `b` or `c`, or `to` (findFirstOf for three). */
export function findFirstOf3(base: usize, from: usize, to: usize, a: u32, b: u32, c: u32): usize {
  const va = i8x16.splat(<i8>a);
  const vb = i8x16.splat(<i8>b);
  const vc = i8x16.splat(<i8>c);
  let i = from;
  while (i + 16 <= to) {
    const x = v128.load(base + i);
    const mask = i8x16.bitmask(v128.or(v128.or(i8x16.eq(x, va), i8x16.eq(x, vb)), i8x16.eq(x, vc)));
    if (mask != 0) return i + <usize>ctz(mask);
    i += 16;
  }
  if (i < to && canLoadVector(base + i)) {
    const x = v128.load(base + i);
    const mask = i8x16.bitmask(v128.or(v128.or(i8x16.eq(x, va), i8x16.eq(x, vb)), i8x16.eq(x, vc))) & firstLanes(to - i);
    return mask != 0 ? i + <usize>ctz(mask) : to;
  }
  while (i < to) {
    const x = <u32>load<u8>(base + i);
    if (x == a || x == b || x == c) return i;
    i++;
  }
  return i;
}

/** Index of the first byte in [from, to) equal to one of six (repeat one to look for fewer), or `to`. */
export function findFirstOf(base: usize, from: usize, to: usize, a: u32, b: u32, c: u32, d: u32, e: u32, f: u32): usize {
  const va = i8x16.splat(<i8>a);
  const vb = i8x16.splat(<i8>b);
  const vc = i8x16.splat(<i8>c);
  const vd = i8x16.splat(<i8>d);
  const ve = i8x16.splat(<i8>e);
  const vf = i8x16.splat(<i8>f);
  let i = from;
  while (i + 16 <= to) {
    const x = v128.load(base + i);
    const hits = v128.or(
      v128.or(v128.or(i8x16.eq(x, va), i8x16.eq(x, vb)), v128.or(i8x16.eq(x, vc), i8x16.eq(x, vd))),
      v128.or(i8x16.eq(x, ve), i8x16.eq(x, vf)),
    );
    const mask = i8x16.bitmask(hits);
    if (mask != 0) return i + <usize>ctz(mask);
    i += 16;
  }
  if (i < to && canLoadVector(base + i)) {
    const x = v128.load(base + i);
    const hits = v128.or(
      v128.or(v128.or(i8x16.eq(x, va), i8x16.eq(x, vb)), v128.or(i8x16.eq(x, vc), i8x16.eq(x, vd))),
      v128.or(i8x16.eq(x, ve), i8x16.eq(x, vf)),
    );
    const mask = i8x16.bitmask(hits) & firstLanes(to - i);
    return mask != 0 ? i + <usize>ctz(mask) : to;
  }
  while (i < to) {
    const x = <u32>load<u8>(base + i);
    if (x == a || x == b || x == c || x == d || x == e || x == f) return i;
    i++;
  }
  return i;
}

/** Whether [base, base + length) holds none of the bytes `a`, `b`, `c` (repeat one to look for fewer) and no byte >= 0x80. */
export function isPlainAscii(base: usize, length: usize, a: u32, b: u32, c: u32): bool {
  const va = i8x16.splat(<i8>a);
  const vb = i8x16.splat(<i8>b);
  const vc = i8x16.splat(<i8>c);
  let i: usize = 0;
  while (i + 16 <= length) {
    const x = v128.load(base + i);
    // Bytes >= 0x80 have the sign bit, which bitmask collects.
    if (i8x16.bitmask(v128.or(v128.or(x, i8x16.eq(x, vc)), v128.or(i8x16.eq(x, va), i8x16.eq(x, vb)))) != 0) return false;
    i += 16;
  }
  if (i < length && canLoadVector(base + i)) {
    const x = v128.load(base + i);
    return (i8x16.bitmask(v128.or(v128.or(x, i8x16.eq(x, vc)), v128.or(i8x16.eq(x, va), i8x16.eq(x, vb)))) & firstLanes(length - i)) == 0;
  }
  while (i < length) {
    const x = <u32>load<u8>(base + i);
    if (x >= 0x80 || x == a || x == b || x == c) return false;
    i++;
  }
  return true;
}

/** copyIfPlain's answer when the bytes are not plain. */
export const NOT_PLAIN: usize = <usize>-1;

/**
 * isPlainAscii and a copy in one pass: copies [base, base + length) to `dst`, which has room for
 * 16 bytes more (vector stores may write past the copy), and returns the index of the first
 * `star` byte (`length` if none); or NOT_PLAIN, having copied some prefix, if a byte is `a`, `b`,
 * `c` or >= 0x80.
 */
export function copyIfPlain(base: usize, length: usize, dst: usize, a: u32, b: u32, c: u32, star: u32): usize {
  const va = i8x16.splat(<i8>a);
  const vb = i8x16.splat(<i8>b);
  const vc = i8x16.splat(<i8>c);
  const vs = i8x16.splat(<i8>star);
  let first = length;
  let i: usize = 0;
  while (i + 16 <= length) {
    const x = v128.load(base + i);
    if (i8x16.bitmask(v128.or(v128.or(x, i8x16.eq(x, vc)), v128.or(i8x16.eq(x, va), i8x16.eq(x, vb)))) != 0) return NOT_PLAIN;
    v128.store(dst + i, x);
    const stars = i8x16.bitmask(i8x16.eq(x, vs));
    if (stars != 0 && first == length) first = i + <usize>ctz(stars);
    i += 16;
  }
  if (i < length && canLoadVector(base + i)) {
    const x = v128.load(base + i);
    const lanes = firstLanes(length - i);
    if ((i8x16.bitmask(v128.or(v128.or(x, i8x16.eq(x, vc)), v128.or(i8x16.eq(x, va), i8x16.eq(x, vb)))) & lanes) != 0) return NOT_PLAIN;
    v128.store(dst + i, x);
    const stars = i8x16.bitmask(i8x16.eq(x, vs)) & lanes;
    if (stars != 0 && first == length) first = i + <usize>ctz(stars);
    return first;
  }
  while (i < length) {
    const x = <u32>load<u8>(base + i);
    if (x >= 0x80 || x == a || x == b || x == c) return NOT_PLAIN;
    store<u8>(dst + i, x);
    if (x == star && first == length) first = i;
    i++;
  }
  return first;
}
