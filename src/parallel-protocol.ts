/**
 * What the worker pool (parallel.ts) and its workers (parallel-worker.ts) share, and what the
 * tests reach in with: the messages between them, the cuts of a byte batch, and two symbols for
 * tests. Not part of the package's API (no entry of package.json's "exports" leads here).
 */
import type { WasmMemory } from "./wasm-types.js";

/** Bytes [start, end) of a shared buffer: a part of a byte batch. */
export type SharedPart = { shared: SharedArrayBuffer; start: number; end: number };
/**
 * Bytes [start, end) of the worker's own memory, where the pool wrote a part: lines of a byte
 * batch, or `strings` strings written as lines (url-bytes.ts), decided as strings are.
 */
export type LandedPart = { landed: true; start: number; end: number; strings?: number };
/** A region of a worker's memory that the pool writes parts into: one per part a worker has in flight. */
export type Landing = { pointer: number; capacity: number };

/** Messages between the pool and a worker (see parallel-worker.ts). */
export type WorkerReady = { ready: true; memory: WasmMemory };
export type WorkerRequest = {
  id: number;
  urls: SharedPart | LandedPart | readonly string[];
  agents: readonly string[];
  withLines: boolean;
  /** After this part, make landing `slot` at least `bytes` long (the answer says where it is). */
  reserve?: { slot: number; bytes: number };
};
export type WorkerResponse =
  | { id: number; allowed: Uint8Array; lines?: Uint32Array; landing?: Landing }
  | { id: number; error: { message: string; code?: string } };

/**
 * For tests, not part of the API: `pool[partCounts]()` tells how many byte parts were written
 * straight into a worker's memory (`landed`) and how many went through a shared buffer (`copied`).
 */
export const partCounts = Symbol("partCounts");

/** The pool's default worker count: one per core, at most `limit` (a machine with more cores still gets a pool). */
export function defaultWorkerCount(cores: number, limit: number): number {
  return Math.max(1, Math.min(cores, limit));
}

/** For tests, not part of the API: `pool[workerThreads]()` gives the pool's threads (to stop one, as a crash would). */
export const workerThreads = Symbol("workerThreads");

/**
 * Cuts newline-separated bytes into at most `count` parts of similar size, each ending with an LF
 * (but the last), each a copy: the cuts the pool makes in a byte batch.
 */
export function splitAtLines(bytes: Uint8Array, count: number): Uint8Array[] {
  const bounds = lineBoundaries(bytes, count);
  const parts: Uint8Array[] = [];
  for (let i = 0; i + 1 < bounds.length; i++) parts.push(Uint8Array.prototype.slice.call(bytes, bounds[i], bounds[i + 1]));
  return parts;
}

/** Where a byte batch is cut (the pool, splitAtLines): part i is [bounds[i], bounds[i + 1]); no part is empty. */
export function lineBoundaries(bytes: Uint8Array, count: number): number[] {
  const bounds = [0];
  let start = 0;
  for (let i = 1; i <= count && start < bytes.length; i++) {
    let end = i === count ? bytes.length : Math.floor((bytes.length * i) / count);
    if (end < bytes.length) {
      const newline = bytes.indexOf(0x0a, Math.max(end - 1, start));
      end = newline < 0 ? bytes.length : newline + 1;
    }
    if (end > start) bounds.push(end);
    start = end;
  }
  return bounds;
}

