/** A worker of RobotsWorkerPool: one WASM instance, one compiled robots.txt, batches on request. */
import { parentPort, workerData } from "node:worker_threads";
import { initSync } from "./init.js";
import { Robots } from "./robots.js";
import type { ParseOptions } from "./types.js";
import type { SharedPart, WorkerRequest, WorkerResponse } from "./parallel.js";

const { body, options } = workerData as { body: string | Uint8Array; options: ParseOptions };
initSync();
const robots = Robots.parse(body, options);
const port = parentPort!;

port.on("message", (request: WorkerRequest) => {
  try {
    // A byte part is read where the pool put it, in shared memory.
    const urls = Array.isArray(request.urls) ? request.urls : partBytes(request.urls as SharedPart);
    if (request.withLines) {
      const { allowed, lines } = robots.classifyWithLines(urls, request.agents);
      const response: WorkerResponse = { id: request.id, allowed, lines };
      port.postMessage(response, [allowed.buffer as ArrayBuffer, lines.buffer as ArrayBuffer]);
    } else {
      const allowed = robots.classify(urls, request.agents);
      const response: WorkerResponse = { id: request.id, allowed };
      port.postMessage(response, [allowed.buffer as ArrayBuffer]);
    }
  } catch (error) {
    const response: WorkerResponse = { id: request.id, error: { message: (error as Error).message, code: (error as { code?: string }).code } };
    port.postMessage(response);
  }
});
port.postMessage({ ready: true });

function partBytes(part: SharedPart): Uint8Array {
  return new Uint8Array(part.shared, part.start, part.end - part.start);
}
