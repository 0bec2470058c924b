// Byte searches sixteen bytes at a time (WebAssembly SIMD). URL batches are megabytes of text in
// which the engine looks for line ends and fragment marks; a byte loop would cost more than the
// matching itself.

/** Index of the first `byte` in [from, to), or `to`. */
export function findByte(base: usize, from: usize, to: usize, byte: u32): usize {
  const needle = i8x16.splat(<i8>byte);
  let i = from;
  while (i + 16 <= to) {
    const mask = i8x16.bitmask(i8x16.eq(v128.load(base + i), needle));
    if (mask != 0) return i + <usize>ctz(mask);
    i += 16;
  }
  while (i < to && <u32>load<u8>(base + i) != byte) i++;
  return i;
}

/** Index of the first `a` or `b` in [from, to), or `to`. */
export function findEitherByte(base: usize, from: usize, to: usize, a: u32, b: u32): usize {
  const first = i8x16.splat(<i8>a);
  const second = i8x16.splat(<i8>b);
  let i = from;
  while (i + 16 <= to) {
    const chunk = v128.load(base + i);
    const mask = i8x16.bitmask(v128.or(i8x16.eq(chunk, first), i8x16.eq(chunk, second)));
    if (mask != 0) return i + <usize>ctz(mask);
    i += 16;
  }
  while (i < to) {
    const c = <u32>load<u8>(base + i);
    if (c == a || c == b) return i;
    i++;
  }
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

/**
 * Index of the first byte in [from, to) that ends a URL's authority: `/`, `?`, `;` or `#`, and
 * also `:` when `withColon` (while the scheme is not known yet); `to` if none.
 */
export function findAuthorityEnd(base: usize, from: usize, to: usize, withColon: bool): usize {
  const slash = i8x16.splat(0x2f);
  const question = i8x16.splat(0x3f);
  const semicolon = i8x16.splat(0x3b);
  const hash = i8x16.splat(0x23);
  const colon = i8x16.splat(withColon ? 0x3a : 0x2f);
  let i = from;
  while (i + 16 <= to) {
    const chunk = v128.load(base + i);
    const hits = v128.or(
      v128.or(i8x16.eq(chunk, slash), i8x16.eq(chunk, question)),
      v128.or(v128.or(i8x16.eq(chunk, semicolon), i8x16.eq(chunk, hash)), i8x16.eq(chunk, colon)),
    );
    const mask = i8x16.bitmask(hits);
    if (mask != 0) return i + <usize>ctz(mask);
    i += 16;
  }
  while (i < to) {
    const c = <u32>load<u8>(base + i);
    if (c == 0x2f || c == 0x3f || c == 0x3b || c == 0x23 || (withColon && c == 0x3a)) return i;
    i++;
  }
  return i;
}
