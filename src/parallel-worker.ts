/** A worker of RobotsWorkerPool: one WASM instance, one compiled robots.txt, batches on request. */
import { parentPort, workerData } from "node:worker_threads";
import { initSync } from "./init.js";
import { Robots } from "./robots.js";
import type { ParseOptions } from "./types.js";
import type { WorkerRequest, WorkerResponse } from "./parallel.js";

const { body, options } = workerData as { body: string | Uint8Array; options: ParseOptions };
initSync();
const robots = Robots.parse(body, options);
const port = parentPort!;

port.on("message", (request: WorkerRequest) => {
  try {
    if (request.withLines) {
      const { allowed, lines } = robots.classifyWithLines(request.urls, request.agents);
      const response: WorkerResponse = { id: request.id, allowed, lines };
      port.postMessage(response, [allowed.buffer as ArrayBuffer, lines.buffer as ArrayBuffer]);
    } else {
      const allowed = robots.classify(request.urls, request.agents);
      const response: WorkerResponse = { id: request.id, allowed };
      port.postMessage(response, [allowed.buffer as ArrayBuffer]);
    }
  } catch (error) {
    const response: WorkerResponse = { id: request.id, error: { message: (error as Error).message, code: (error as { code?: string }).code } };
    port.postMessage(response);
  }
});
port.postMessage({ ready: true });
