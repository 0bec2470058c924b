/**
 * Classification across cores: a pool of worker threads, each with its own WASM instance and its
 * own compiled copy of one robots.txt. A batch is cut at line boundaries into several parts per
 * worker, handed to whichever worker is free; byte batches are copied once into shared memory
 * that the pool reuses (allocating fresh buffers for tens of MB costs more than classifying
 * them), or read where they are when they already lie in a SharedArrayBuffer; string batches
 * are cloned, and results come back as transferred buffers, in input order.
 * Node only (worker_threads); for batch jobs, where one batch is millions of URLs.
 */
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { ALIGNMENT_SLACK, alignmentOf } from "./alignment.js";
import { RobotsError } from "./errors.js";
import { agentList, assertUrlBatch, resolveParseOptions } from "./options.js";
import type { AgentQuery, BatchResult, ParseOptions, UrlBatch } from "./types.js";

/**
 * Parts per worker in one batch. Parts go to whichever worker is free, so more parts keep the
 * workers even when one of them runs slower (a busy core); each part is copied as it is sent.
 */
const PARTS_PER_WORKER = 8;
/** Parts waiting at each worker, so that it never waits for the next message. */
const IN_FLIGHT_PER_WORKER = 2;
/** Idle shared buffers kept for later batches (the largest; each as large as a batch it held). */
const IDLE_BUFFERS = 1;

export interface WorkerPoolOptions extends ParseOptions {
  /** Number of worker threads (default: the number of cores). */
  workers?: number;
}

/** Bytes [start, end) of a shared buffer: a part of a byte batch. */
export type SharedPart = { shared: SharedArrayBuffer; start: number; end: number };

/** Messages between the pool and a worker (see parallel-worker.ts). */
export type WorkerRequest = { id: number; urls: SharedPart | readonly string[]; agents: readonly string[]; withLines: boolean };
export type WorkerResponse =
  | { id: number; allowed: Uint8Array; lines?: Uint32Array }
  | { id: number; error: { message: string; code?: string } };

/** A part's answer: matching lines only when asked for (verdicts alone cost less to compute and move). */
type PartResult = { allowed: Uint8Array; lines?: Uint32Array };

interface Pending {
  resolve(result: PartResult): void;
  reject(error: unknown): void;
}

export class RobotsWorkerPool {
  readonly #workers: Worker[];
  readonly #pending = new Map<number, Pending>();
  /** Shared buffers no batch is using. */
  #idle: SharedArrayBuffer[] = [];
  #nextId = 1;
  #closed = false;

  private constructor(workers: Worker[]) {
    this.#workers = workers;
    for (const worker of workers) {
      worker.on("message", (response: WorkerResponse) => this.#settle(response));
      worker.on("error", (error) => this.#failAll(error));
    }
  }

  /** Starts the workers, each compiling `body` once; resolves when all are ready. */
  static async create(body: string | Uint8Array, options: WorkerPoolOptions = {}): Promise<RobotsWorkerPool> {
    const { workers: count = availableParallelism(), ...parseOptions } = options;
    if (!Number.isSafeInteger(count) || count < 1) {
      throw new RobotsError("ROBOTS_ERR_INVALID_OPTION", `workers must be a positive integer, got ${String(count)}`);
    }
    resolveParseOptions(parseOptions); // Bad options fail here, not in every worker.
    const script = new URL("./parallel-worker.js", import.meta.url);
    const workers = Array.from({ length: count }, () => new Worker(script, { workerData: { body, options: parseOptions } }));
    await Promise.all(
      workers.map(
        (worker) =>
          new Promise<void>((resolve, reject) => {
            worker.once("message", () => resolve());
            worker.once("error", reject);
          }),
      ),
    );
    return new RobotsWorkerPool(workers);
  }

  get size(): number {
    return this.#workers.length;
  }

  /** Verdicts and matching lines for a batch, spread over the workers, in input order. */
  async classifyWithLines(urls: UrlBatch, agent: AgentQuery): Promise<BatchResult> {
    const { allowed, lines } = await this.#run(urls, agent, true);
    return { allowed, lines: lines! };
  }

  async classify(urls: UrlBatch, agent: AgentQuery): Promise<Uint8Array> {
    return (await this.#run(urls, agent, false)).allowed;
  }

  async #run(urls: UrlBatch, agent: AgentQuery, withLines: boolean): Promise<PartResult> {
    if (this.#closed) throw new RobotsError("ROBOTS_ERR_DISPOSED", "this worker pool was closed");
    assertUrlBatch(urls);
    const agents = agentList(agent);
    const workers = this.#workers;
    const partCount = workers.length * PARTS_PER_WORKER;
    // Part i, ready to send: byte parts are copied into the shared buffer only now, so workers
    // start on the first parts while this thread copies the later ones.
    let parts: number;
    let part: (i: number) => SharedPart | readonly string[];
    let release = () => {};
    if (urls instanceof Uint8Array) {
      const bounds = lineBoundaries(urls, partCount);
      parts = bounds.length - 1;
      if (urls.buffer instanceof SharedArrayBuffer) {
        // Already shared (a batch job can read its input into a SharedArrayBuffer): the workers
        // read the caller's bytes where they are, and this thread copies nothing.
        const shared = urls.buffer;
        part = (i) => ({ shared, start: urls.byteOffset + bounds[i], end: urls.byteOffset + bounds[i + 1] });
      } else {
        const shared = this.#acquire(urls.length + ALIGNMENT_SLACK);
        // The batch lies at its own alignment in the shared buffer (alignment.ts), and so does each part.
        const view = new Uint8Array(shared, alignmentOf(urls), urls.length);
        part = (i) => {
          view.set(urls.subarray(bounds[i], bounds[i + 1]), bounds[i]);
          return { shared, start: view.byteOffset + bounds[i], end: view.byteOffset + bounds[i + 1] };
        };
        release = () => this.#release(shared);
      }
    } else {
      const slices = splitArray(urls, partCount);
      parts = slices.length;
      part = (i) => slices[i];
    }
    // Each worker takes the next part whenever one of its slots is free.
    const results: PartResult[] = new Array(parts);
    let next = 0;
    let failed = false;
    const feed = async (worker: Worker) => {
      while (next < parts && !failed) {
        const i = next++;
        try {
          results[i] = await this.#send(worker, part(i), agents, withLines);
        } catch (error) {
          failed = true;
          throw error;
        }
      }
    };
    const feeders = workers.flatMap((worker) => Array.from({ length: IN_FLIGHT_PER_WORKER }, () => feed(worker)));
    // A shared buffer goes back once every part has finished (after a failure, others still read it).
    void Promise.allSettled(feeders).then(release);
    await Promise.all(feeders);
    if (results.length === 1) return results[0];
    const total = results.reduce((sum, result) => sum + result.allowed.length, 0);
    const allowed = new Uint8Array(total);
    const lines = withLines ? new Uint32Array(total) : undefined;
    let at = 0;
    for (const result of results) {
      allowed.set(result.allowed, at);
      lines?.set(result.lines!, at);
      at += result.allowed.length;
    }
    return { allowed, lines };
  }

  /** A shared buffer of at least `size` bytes: an idle one that fits, or a new one. */
  #acquire(size: number): SharedArrayBuffer {
    const fits = this.#idle.findIndex((buffer) => buffer.byteLength >= size);
    if (fits >= 0) return this.#idle.splice(fits, 1)[0];
    return new SharedArrayBuffer(Math.max(size, 1));
  }

  #release(buffer: SharedArrayBuffer): void {
    if (this.#closed) return;
    this.#idle.push(buffer);
    // Keep the largest few.
    this.#idle.sort((a, b) => b.byteLength - a.byteLength);
    this.#idle.length = Math.min(this.#idle.length, IDLE_BUFFERS);
  }

  /** Stops the workers. Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#idle = [];
    await Promise.all(this.#workers.map((worker) => worker.terminate()));
    this.#failAll(new RobotsError("ROBOTS_ERR_DISPOSED", "this worker pool was closed"));
  }

  #send(worker: Worker, part: SharedPart | readonly string[], agents: readonly string[], withLines: boolean): Promise<PartResult> {
    const id = this.#nextId++;
    return new Promise<PartResult>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      const request: WorkerRequest = { id, urls: part, agents, withLines };
      // A shared buffer is shared, not copied; string arrays are cloned.
      worker.postMessage(request);
    });
  }

  #settle(response: WorkerResponse): void {
    const pending = this.#pending.get(response.id);
    if (pending === undefined) return;
    this.#pending.delete(response.id);
    if ("error" in response) {
      pending.reject(new RobotsError("ROBOTS_ERR_WASM", `worker failed: ${response.error.message}`));
    } else {
      pending.resolve({ allowed: response.allowed, lines: response.lines });
    }
  }

  #failAll(error: unknown): void {
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
  }
}

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
function lineBoundaries(bytes: Uint8Array, count: number): number[] {
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

/** Cuts an array into at most `count` consecutive slices of similar length. */
function splitArray<T>(items: readonly T[], count: number): T[][] {
  const size = Math.ceil(items.length / count);
  const parts: T[][] = [];
  for (let start = 0; start < items.length; start += size) parts.push(items.slice(start, start + size));
  return parts;
}
