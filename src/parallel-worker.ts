/**
 * A worker of RobotsWorkerPool: one WASM instance in a shared memory (shared-engine.ts), one
 * compiled robots.txt, batches on request. Byte parts arrive in this engine's memory (a landing
 * the pool wrote into), or in a shared buffer of the pool's; the answer says where a landing the
 * pool asked for now is.
 */
import { parentPort, workerData } from "node:worker_threads";
import { classifyInMemory, parseWith } from "./robots.js";
import { loadSharedMemoryEngine } from "./shared-engine.js";
import type { ParseOptions } from "./types.js";
import type { Landing, SharedPart, WorkerReady, WorkerRequest, WorkerResponse } from "./parallel-protocol.js";

const { body, options } = workerData as { body: string | Uint8Array; options: ParseOptions };
const engine = loadSharedMemoryEngine();
const robots = parseWith(engine, body, options);
const port = parentPort!;

port.on("message", (request: WorkerRequest) => {
  try {
    const { allowed, lines } = decide(request);
    const landing = request.reserve && reserveLanding(request.reserve.slot, request.reserve.bytes);
    const response: WorkerResponse = { id: request.id, allowed, lines, landing };
    port.postMessage(response, lines ? [allowed.buffer as ArrayBuffer, lines.buffer as ArrayBuffer] : [allowed.buffer as ArrayBuffer]);
  } catch (error) {
    const response: WorkerResponse = { id: request.id, error: { message: (error as Error).message, code: (error as { code?: string }).code } };
    port.postMessage(response);
  }
});
const ready: WorkerReady = { ready: true, memory: engine.exports.memory };
port.postMessage(ready);

/** Verdicts (and matching lines when asked for) of a request's part. */
function decide({ urls, agents, withLines }: WorkerRequest): { allowed: Uint8Array; lines?: Uint32Array } {
  if ("landed" in urls) {
    const { allowed, details } = robots[classifyInMemory](urls.start, urls.end - urls.start, agents, withLines, urls.strings);
    return { allowed, lines: details };
  }
  const batch = Array.isArray(urls) ? urls : partBytes(urls as SharedPart);
  return withLines ? robots.classifyWithLines(batch, agents) : { allowed: robots.classify(batch, agents) };
}

function partBytes(part: SharedPart): Uint8Array {
  return new Uint8Array(part.shared, part.start, part.end - part.start);
}

/** Landing `slot`, at least `bytes` long: a scratch region of this engine, which moves when it grows. */
function reserveLanding(slot: number, bytes: number): Landing {
  return { pointer: engine.scratch(`landing ${slot}`, bytes), capacity: bytes };
}
