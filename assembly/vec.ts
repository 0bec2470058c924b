// A growable byte buffer in raw linear memory. Tables are built from these and freed as a whole
// on dispose, so memory returns to the allocator (TLSF) for the next robots.txt.

/**
 * The most room scratch space keeps between calls (src/wasm.ts KEPT_SCRATCH_BYTES is the host's
 * side of the same rule).
 */
export const SCRATCH_KEPT: usize = 1 << 20;

@unmanaged
export class Vec {
  data: usize;
  length: usize;
  capacity: usize;

  static create(capacity: usize): Vec {
    const vec = changetype<Vec>(heap.alloc(offsetof<Vec>()));
    const cap = max<usize>(capacity, 16);
    vec.data = heap.alloc(cap);
    vec.length = 0;
    vec.capacity = cap;
    return vec;
  }

  /**
   * Makes room for `extra` more bytes and returns the address where they go. `ceiling` (0: none)
   * is the most an array that knows its final size will need: it grows up to it, not past it.
   */
  // @ts-ignore: decorator
  @inline reserve(extra: usize, ceiling: usize = 0): usize {
    // Inline: most calls find room, and a parse reserves a few times per line.
    const needed = this.length + extra;
    if (needed > this.capacity) this.grow(needed, ceiling);
    return this.data + this.length;
  }

  /** Doubles the capacity (but not past `ceiling`, if not 0), or more if `needed` is more. */
  grow(needed: usize, ceiling: usize = 0): void {
    let cap = this.capacity << 1;
    if (ceiling != 0 && cap > ceiling) cap = ceiling;
    if (cap < needed) cap = needed;
    this.data = heap.realloc(this.data, cap);
    this.capacity = cap;
  }

  /** Gives back the unused capacity (a finished table keeps only what it holds). */
  shrink(): void {
    const cap = max<usize>(this.length, 16);
    if (cap == this.capacity) return;
    this.data = heap.realloc(this.data, cap);
    this.capacity = cap;
  }

  /**
   * For module scratch that grows to the longest input seen: gives back all but `keep` bytes once
   * the capacity passes SCRATCH_KEPT, so that one long input does not hold its room for good
   * (linear memory never shrinks; freed room serves the next tables). Called at the end of a call,
   * never per URL. The allocator shrinks the block in place.
   */
  releaseRoom(keep: usize): void {
    if (this.capacity <= SCRATCH_KEPT) return;
    this.data = heap.realloc(this.data, keep);
    this.capacity = keep;
    this.length = 0;
  }

  /** Appends a byte; `ceiling` as in reserve. */
  pushU8(value: u32, ceiling: usize = 0): void {
    store<u8>(this.reserve(1, ceiling), value);
    this.length += 1;
  }

  pushU32(value: u32): void {
    store<u32>(this.reserve(4), value);
    this.length += 4;
  }

  pushBytes(src: usize, len: usize): void {
    memory.copy(this.reserve(len), src, len);
    this.length += len;
  }

  // @ts-ignore: decorator
  @inline u32At(index: usize): u32 {
    return load<u32>(this.data + (index << 2));
  }

  free(): void {
    heap.free(this.data);
    heap.free(changetype<usize>(this));
  }
}
