// A stable sort of indices 0..count-1, used at compile time (decision order, prefix order).

/**
 * Returns a heap block of `count` u32 indices sorted by `before` (a stable bottom-up merge sort:
 * O(n log n) comparisons, no recursion). The caller frees the block.
 */
export function sortIndices(count: u32, before: (a: u32, b: u32) => bool): usize {
  const bytes = max<usize>(<usize>count << 2, 4);
  let src = heap.alloc(bytes);
  let dst = heap.alloc(bytes);
  for (let i: u32 = 0; i < count; i++) store<u32>(src + (<usize>i << 2), i);
  for (let width: u32 = 1; width < count; width <<= 1) {
    for (let lo: u32 = 0; lo < count; lo += width << 1) {
      const mid = min(lo + width, count);
      const hi = min(lo + (width << 1), count);
      let i = lo, j = mid, k = lo;
      while (i < mid && j < hi) {
        const a = load<u32>(src + (<usize>i << 2));
        const b = load<u32>(src + (<usize>j << 2));
        // Take from the right run only when strictly before: equal elements keep their order.
        if (before(b, a)) {
          store<u32>(dst + (<usize>k << 2), b);
          j++;
        } else {
          store<u32>(dst + (<usize>k << 2), a);
          i++;
        }
        k++;
      }
      while (i < mid) {
        store<u32>(dst + (<usize>k << 2), load<u32>(src + (<usize>i << 2)));
        i++;
        k++;
      }
      while (j < hi) {
        store<u32>(dst + (<usize>k << 2), load<u32>(src + (<usize>j << 2)));
        j++;
        k++;
      }
    }
    const swap = src;
    src = dst;
    dst = swap;
  }
  heap.free(dst);
  return src;
}
