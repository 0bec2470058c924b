/**
 * Bytes of an engine's linear memory in use: its size less what the allocator can still hand out
 * without growing it (probed in blocks of 16 KiB). Memory grows by doubling, so its size alone says
 * little about what a table parsed next can use; what stays in use after a call is what it kept.
 */
import type { loadEngine } from "../../src/wasm.js";

export function memoryInUse(engine: ReturnType<typeof loadEngine>): number {
  const { memory, allocate, release } = engine.exports;
  const size = memory.buffer.byteLength;
  const blocks: number[] = [];
  for (;;) {
    const block = allocate(16 << 10);
    if (memory.buffer.byteLength !== size) {
      release(block);
      break;
    }
    blocks.push(block);
  }
  for (const block of blocks) release(block);
  return size - blocks.length * (16 << 10);
}
