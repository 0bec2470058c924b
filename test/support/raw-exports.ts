/**
 * Helpers for tests that drive the engine through its raw exports (src/wasm.ts), below the API:
 * bytes copied into linear memory, and agent lists in the engine's encoding.
 */
import type { Engine } from "../../src/wasm.js";

const encoder = new TextEncoder();

/** Copies `bytes` into memory the engine allocates (16 bytes of slack for its vector reads); returns the address. */
export function putBytes(engine: Engine, bytes: Uint8Array): number {
  const pointer = engine.exports.allocate(bytes.length + 16);
  new Uint8Array(engine.exports.memory.buffer).set(bytes, pointer);
  return pointer;
}

/** Agent names as selectAgents reads them: per name a little-endian u32 length, then its UTF-8 bytes. */
export function encodeAgents(...names: string[]): Uint8Array {
  const encoded = names.map((name) => encoder.encode(name));
  const out = new Uint8Array(encoded.reduce((size, name) => size + 4 + name.length, 0));
  const view = new DataView(out.buffer);
  let at = 0;
  for (const name of encoded) {
    view.setUint32(at, name.length, true);
    out.set(name, at + 4);
    at += 4 + name.length;
  }
  return out;
}
