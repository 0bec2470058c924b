/**
 * Strings written into the engine's memory as UTF-8: a `string[]` batch as lines, one string at a
 * time, each followed by a line feed (a newline batch), and the single URL of isAllowed and
 * explain (writeUrl) (robots.ts).
 *
 * One write per string beats joining a chunk's strings and encoding the result once: join copies
 * every string into a new one, and it walks strings built by concatenation (ropes) afresh on each
 * call, where a write flattens a rope once for good. Measured on 200,000 generated URLs (ropes,
 * as the benchmark builds them): join then encode 230 ns per URL on every call; a write each
 * about 250 ns the first time and 80 to 100 ns after. On flat strings (split from one text):
 * 160 against 90 to 140 ns.
 *
 * Node's Buffer.write where there is one (it takes an offset, so no view is made per string);
 * TextEncoder.encodeInto elsewhere. Both write a lone surrogate as U+FFFD, as join did.
 */

interface NodeBufferView {
  readonly length: number;
  write(text: string, offset: number, length: number): number;
}
interface NodeBufferClass {
  from(buffer: ArrayBufferLike, byteOffset: number, length: number): NodeBufferView;
}

const NodeBuffer = (globalThis as { Buffer?: NodeBufferClass }).Buffer;
const encoder = new TextEncoder();

/** Bytes that writeLines may take for `strings[start..end)`: three per UTF-16 unit, and a line feed each. */
export function linesCapacity(strings: readonly string[], start: number, end: number): number {
  let units = 0;
  for (let i = start; i < end; i++) units += strings[i]!.length;
  return units * 3 + (end - start);
}

/**
 * Writes `strings[start..end)` into `bytes` from `at`, each as UTF-8 followed by LF, in at most
 * linesCapacity bytes; returns the number of bytes written.
 */
export type LineWriter = (strings: readonly string[], start: number, end: number, bytes: Uint8Array, at: number) => number;

/** writeLines with Node's Buffer.write (Node only). */
export const writeLinesWithBuffer: LineWriter = (strings, start, end, bytes, at) => {
  const view = NodeBuffer!.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = at;
  for (let i = start; i < end; i++) {
    const text = strings[i]!;
    // The length is given: left out, it is the rest of the view, which Node reads as a signed
    // 32-bit count, so past 2 GiB of linear memory nothing was written.
    offset += view.write(text, offset, Math.min(text.length * 3, view.length - offset));
    bytes[offset++] = 0x0a;
  }
  return offset - at;
};

/** writeLines with TextEncoder.encodeInto (any platform). */
export const writeLinesWithEncoder: LineWriter = (strings, start, end, bytes, at) => {
  let offset = at;
  for (let i = start; i < end; i++) {
    offset += encoder.encodeInto(strings[i]!, bytes.subarray(offset)).written;
    bytes[offset++] = 0x0a;
  }
  return offset - at;
};

export const writeLines: LineWriter = NodeBuffer !== undefined ? writeLinesWithBuffer : writeLinesWithEncoder;

/**
 * Writes one string as UTF-8 into `bytes` from `at` (at most three bytes per UTF-16 unit); returns
 * the number of bytes written. ASCII, as URLs mostly are, is copied a unit at a time with no
 * allocation (a single URL is too short for a view or an encoder call to pay off); the rest
 * goes to TextEncoder from the first non-ASCII unit.
 */
export function writeUrl(text: string, bytes: Uint8Array, at: number): number {
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0x80) return i + encoder.encodeInto(text.slice(i), bytes.subarray(at + i)).written;
    bytes[at + i] = unit;
  }
  return length;
}
