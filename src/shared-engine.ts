/**
 * The engine in a shared memory, for the worker pool only (kept apart from init.ts so that other
 * users do not load a second build): the same module compiled with a SharedArrayBuffer for its
 * linear memory (build/release-shared.wasm), so that the pool can write a byte batch straight into
 * a worker's memory, where the worker decides it without copying it again.
 */
import { releaseSharedWasmBase64 } from "./generated/release-shared-wasm.js";
import { decodeBase64 } from "./init.js";
import { type Engine, loadEngine } from "./wasm.js";

/** A new instance of the engine whose memory is shared (one per worker). */
export function loadSharedMemoryEngine(): Engine {
  return loadEngine(decodeBase64(releaseSharedWasmBase64));
}
