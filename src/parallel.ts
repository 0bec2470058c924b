/**
 * Classification across cores: a pool of worker threads, each with its own WASM instance and its
 * own compiled copy of one robots.txt. A batch is cut at line boundaries into several parts per
 * worker, handed to whichever worker is free. Each worker's engine lives in a shared memory
 * (shared-engine.ts), so a part of a byte batch is written straight into a landing region the
 * worker keeps for it, and decided there: one copy, as one thread makes. A part finds no landing
 * the first time (or when it is larger than before, or another batch holds it): it goes through a
 * shared buffer the pool reuses, and the worker makes a landing for the next. Bytes that already
 * lie in a SharedArrayBuffer are read where they are. A part of a string batch is written into a
 * landing as UTF-8 lines the same way (cloned when it finds none, or holds a string with an LF).
 * Results come back as transferred buffers, in input order.
 * Node only (worker_threads); for batch jobs, where one batch is millions of URLs.
 */
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { ALIGNMENT_SLACK, alignmentOf } from "./alignment.js";
import { assertConstructedBy, describeValue, RobotsError, type RobotsErrorCode } from "./errors.js";
import { agentList, checkOptionNames, isUint8Array, PARSE_OPTION_NAMES, plainBytes, resolveParseOptions, urlBatch } from "./options.js";
import { assertBody } from "./input.js";
import { defaultWorkerCount, lineBoundaries, partCounts, workerThreads, type LandedPart, type Landing, type SharedPart, type WorkerReady, type WorkerRequest, type WorkerResponse } from "./parallel-protocol.js";
import { linesCapacity, writeLines } from "./url-bytes.js";
import type { AgentQuery, BatchResult, ParseOptions, UrlBatch } from "./types.js";

/** What create() passes the constructor (private in TypeScript, not in plain JavaScript). */
const CONSTRUCT: unique symbol = Symbol("RobotsWorkerPool");

/**
 * Parts per worker in one batch. Parts go to whichever worker is free, so more parts keep the
 * workers even when one of them runs slower (a busy core); each part is copied as it is sent.
 */
const PARTS_PER_WORKER = 8;
/** Parts waiting at each worker, so that it never waits for the next message. */
const IN_FLIGHT_PER_WORKER = 2;
/** Idle shared buffers kept for later batches (the largest; each as large as a batch it held). */
const IDLE_BUFFERS = 1;
/**
 * The most workers a pool starts: far more than any machine's cores, and far fewer than a typo
 * (`workers: 1e9`) would start, each a thread with its own engine, until memory ran out.
 */
export const MAX_POOL_WORKERS = 256;

export interface WorkerPoolOptions extends ParseOptions {
  /** Number of worker threads, 1 to 256 (default: the number of cores, at most 256). */
  workers?: number;
}

/** A part's answer: matching lines only when asked for (verdicts alone cost less to compute and move). */
type PartResult = { allowed: Uint8Array; lines?: Uint32Array; landing?: Landing };

interface Pending {
  resolve(result: PartResult): void;
  reject(error: unknown): void;
}

/** A worker as the pool sees it: its memory and its landings as far as the pool knows them. */
interface PoolWorker {
  worker: Worker;
  memory: WebAssembly.Memory;
  /** Per slot (IN_FLIGHT_PER_WORKER): where parts land, and whether a part holds it now. */
  landings: (Landing & { busy: boolean })[];
}

/** A part ready to send, and what to do once its answer is in. */
type OutgoingPart = { urls: SharedPart | LandedPart | readonly string[]; reserve?: { slot: number; bytes: number }; done?: (result: PartResult) => void };

/** The bytes a worker parses: the body cut to `maxBytes`, in a buffer of their own. */
function bytesToParse(body: string | Uint8Array, maxBytes: number): Uint8Array {
  const bytes = typeof body === "string" ? new TextEncoder().encode(body) : plainBytes(body);
  return bytes.slice(0, Math.min(bytes.length, maxBytes));
}

/**
 * Starts a pool worker. A worker inherits the process's Node options when given none, and Node
 * itself leaves out those that apply to the whole process (`--max-old-space-size`, `--title`),
 * which a worker given them explicitly refuses (ERR_WORKER_INVALID_EXEC_ARGV). Only `--input-type`
 * must go: it makes a worker started from a file fail (ERR_INPUT_TYPE_NOT_ALLOWED) when the
 * process runs a script given to `node --input-type=module -e`. Then the other options are passed
 * explicitly, or none when Node refuses some of them. A worker that cannot start is
 * `ROBOTS_ERR_WASM`, as one that fails while starting. `--input-type` in NODE_OPTIONS, which
 * workers read again from their environment, goes from the `env` given (workerEnvironment).
 */
function startWorker(script: URL, workerData: unknown, env: NodeJS.ProcessEnv): Worker {
  try {
    if (!process.execArgv.some(isInputType)) return new Worker(script, { workerData, env });
    try {
      return new Worker(script, { workerData, env, execArgv: withoutInputType(process.execArgv) });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ERR_WORKER_INVALID_EXEC_ARGV") throw error;
      return new Worker(script, { workerData, env, execArgv: [] });
    }
  } catch (error) {
    throw new RobotsError("ROBOTS_ERR_WASM", `a worker failed to start: ${(error as Error).message}`, { cause: error });
  }
}

/** The environment of the pool's workers: the process's, without `--input-type` in NODE_OPTIONS. */
function workerEnvironment(): NodeJS.ProcessEnv {
  const nodeOptions = process.env.NODE_OPTIONS ?? "";
  if (!nodeOptions.includes("--input-type")) return process.env;
  return { ...process.env, NODE_OPTIONS: withoutInputType(nodeOptions.split(/\s+/)).join(" ") };
}

const isInputType = (option: string) => option === "--input-type" || option.startsWith("--input-type=");

/** Node options without `--input-type` and its value. */
function withoutInputType(options: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < options.length; i++) {
    if (options[i] === "--input-type") i++; // its value is the next argument
    else if (!isInputType(options[i])) kept.push(options[i]);
  }
  return kept;
}

export class RobotsWorkerPool {
  readonly #workers: PoolWorker[];
  readonly #pending = new Map<number, Pending>();
  /** Shared buffers no batch is using. */
  #idle: SharedArrayBuffer[] = [];
  #nextId = 1;
  #closed = false;
  /** close()'s work, so that a second call waits for the same end. */
  #closing: Promise<void> | undefined;
  /**
   * Why the pool can no longer work: a worker stopped (out of memory, an uncaught error, terminated
   * from outside). Every batch in flight and every later one gets it: a pool with a dead worker
   * would otherwise wait for that worker's parts for ever.
   */
  #broken: RobotsError | undefined;
  #landed = 0;
  #copied = 0;

  private constructor(token: typeof CONSTRUCT, workers: PoolWorker[]) {
    assertConstructedBy(token, CONSTRUCT, "RobotsWorkerPool", "RobotsWorkerPool.create(body, options)");
    this.#workers = workers;
    for (const { worker } of workers) {
      worker.on("message", (response: WorkerResponse) => this.#settle(response));
      worker.on("error", (error) => this.#breakDown(`a worker failed: ${error.message}`, error));
      worker.on("exit", (code) => this.#breakDown(`a worker stopped (exit code ${code})`));
      // Idle workers do not keep the process alive (a pool left open would hold it for ever); a
      // batch in flight does (#send). After the listeners: adding a "message" listener refs the
      // worker again, and a pool that never sent a part kept its process alive.
      worker.unref();
    }
  }

  /** A worker is gone: the batches in flight and all later ones fail, and the other workers stop. */
  #breakDown(why: string, cause?: unknown): void {
    if (this.#closed || this.#broken !== undefined) return;
    this.#broken = new RobotsError("ROBOTS_ERR_WASM", `${why}; close this pool and create another`, { cause });
    this.#failAll(this.#broken);
    for (const { worker } of this.#workers) void worker.terminate();
  }

  /** Starts the workers, each compiling `body` once; resolves when all are ready. */
  static async create(body: string | Uint8Array, options: WorkerPoolOptions = {}): Promise<RobotsWorkerPool> {
    checkOptionNames(options, ["workers", ...PARSE_OPTION_NAMES]);
    assertBody(body); // Here, not in every worker (whose errors arrive as plain objects).
    const count = options.workers ?? defaultWorkerCount(availableParallelism(), MAX_POOL_WORKERS);
    if (!Number.isSafeInteger(count) || count < 1 || count > MAX_POOL_WORKERS) {
      throw new RobotsError("ROBOTS_ERR_INVALID_OPTION", `workers must be an integer from 1 to ${MAX_POOL_WORKERS}, got ${describeValue(count)}`);
    }
    // Read as Robots.parse reads them (inherited ones too), and checked here, not in every worker.
    const parseOptions = resolveParseOptions({ profile: options.profile, maxBytes: options.maxBytes, keepSource: options.keepSource });
    const script = new URL("./parallel-worker.js", import.meta.url);
    // Each worker is sent only the bytes it parses: a clone of a view copies its whole buffer (a
    // 27-byte body in a 256 MiB file read at once cost every worker 256 MiB), and a detached body
    // reads as empty, as in Robots.parse.
    const workerData = { body: bytesToParse(body, parseOptions.maxBytes), options: parseOptions };
    const workers: Worker[] = [];
    /** A worker that failed or stopped while the pool started, even after it was ready. */
    let failure: RobotsError | undefined;
    try {
      const env = workerEnvironment();
      for (let i = 0; i < count; i++) workers.push(startWorker(script, workerData, env));
      const ready = await Promise.all(
        workers.map(
          (worker) =>
            new Promise<PoolWorker>((resolve, reject) => {
              const fail = (why: string, cause?: unknown) => {
                failure ??= new RobotsError("ROBOTS_ERR_WASM", `a worker failed to start: ${why}`, { cause });
                reject(failure);
              };
              worker.once("message", ({ memory }: WorkerReady) => {
                const landings = Array.from({ length: IN_FLIGHT_PER_WORKER }, () => ({ pointer: 0, capacity: 0, busy: false }));
                resolve({ worker, memory, landings });
              });
              worker.on("error", (error) => fail(error.message, error));
              worker.on("exit", (code) => fail(`it stopped (exit code ${code})`));
            }),
        ),
      );
      // One ready early may have stopped while the others started: the pool would wait for its parts for ever.
      if (failure !== undefined) throw failure;
      for (const worker of workers) {
        worker.removeAllListeners("error");
        worker.removeAllListeners("exit");
      }
      return new RobotsWorkerPool(CONSTRUCT, ready);
    } catch (error) {
      // The workers that did start must not keep the process alive.
      await Promise.all(workers.map((worker) => worker.terminate()));
      throw error;
    }
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

  async #run(given: UrlBatch, agent: AgentQuery, withLines: boolean): Promise<PartResult> {
    if (this.#closed) throw new RobotsError("ROBOTS_ERR_DISPOSED", "this worker pool was closed");
    if (this.#broken !== undefined) throw this.#broken;
    // The library's own copies: the caller's getters run here, before any part is cut or written.
    const urls = urlBatch(given);
    const agents = agentList(agent);
    if (this.#closed) throw new RobotsError("ROBOTS_ERR_DISPOSED", "this worker pool was closed");
    const workers = this.#workers;
    const partCount = workers.length * PARTS_PER_WORKER;
    // Part i for a worker's slot, made only when it is sent: workers start on the first parts
    // while this thread writes the later ones.
    let parts: number;
    let part: (i: number, to: PoolWorker, slot: number) => OutgoingPart;
    let release = () => {};
    if (isUint8Array(urls)) {
      const bounds = lineBoundaries(urls, partCount);
      parts = bounds.length - 1;
      if (urls.buffer instanceof SharedArrayBuffer) {
        // Already shared (a batch job can read its input into a SharedArrayBuffer): the workers
        // read the caller's bytes where they are, and this thread copies nothing.
        const shared = urls.buffer;
        part = (i) => ({ urls: { shared, start: urls.byteOffset + bounds[i], end: urls.byteOffset + bounds[i + 1] } });
      } else {
        const batch = plainBatch(urls, bounds);
        part = (i, to, slot) => this.#plainPart(batch, i, to, slot);
        release = () => {
          if (batch.shared !== undefined) this.#release(batch.shared);
        };
      }
    } else {
      const batch = stringBatch(urls, partCount);
      parts = batch.bounds.length - 1;
      part = (i, to, slot) => this.#stringPart(batch, i, to, slot);
    }
    // Each worker slot takes the next part whenever it is free.
    const results: PartResult[] = new Array(parts);
    let next = 0;
    let failed = false;
    const feed = async (to: PoolWorker, slot: number) => {
      while (next < parts && !failed) {
        const i = next++;
        let outgoing: OutgoingPart | undefined;
        try {
          outgoing = part(i, to, slot);
          results[i] = await this.#send(to.worker, outgoing, agents, withLines);
        } catch (error) {
          // The part's landing stays held: the worker may not have made it.
          failed = true;
          throw error;
        }
        outgoing.done?.(results[i]);
      }
    };
    const feeders = workers.flatMap((to) => Array.from({ length: IN_FLIGHT_PER_WORKER }, (_, slot) => feed(to, slot)));
    // A shared buffer goes back once every part has finished (after a failure, others still read it).
    void Promise.allSettled(feeders).then(() => release());
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

  /** Part i of a plain byte batch for a worker's slot: written into the slot's landing if it can be. */
  #plainPart(batch: PlainBatch, i: number, to: PoolWorker, slot: number): OutgoingPart {
    // Parts are cut as they are sent: a buffer transferred meanwhile reads as empty.
    if (batch.bytes.length < batch.bounds[batch.bounds.length - 1]) {
      throw new RobotsError("ROBOTS_ERR_INVALID_URL", "the URL batch was detached (its buffer transferred) while the pool read it: leave a batch as it is until its promise settles");
    }
    const bytes = batch.bytes.subarray(batch.bounds[i], batch.bounds[i + 1]);
    const land = (memory: Uint8Array, pointer: number): LandedPart => {
      // Written into the worker's memory at the part's own alignment (alignment.ts).
      const start = pointer + alignmentOf(bytes);
      memory.set(bytes, start);
      return { landed: true, start, end: start + bytes.length };
    };
    return this.#landOrSend(to, slot, bytes.length + ALIGNMENT_SLACK, batch.landingBytes, land, () => this.#throughSharedBuffer(batch, i));
  }

  /**
   * Part i of a string batch for a worker's slot: written into the slot's landing as lines if it
   * can be (this thread encodes while the workers decide; cloned strings cost the worker a decode
   * and an encode each), else cloned. A part with a string holding an LF is always cloned: as a
   * line it would read as two.
   */
  #stringPart(batch: StringBatch, i: number, to: PoolWorker, slot: number): OutgoingPart {
    const { urls, bounds } = batch;
    const start = bounds[i];
    const end = bounds[i + 1];
    const bytes = holdsLineFeed(urls, start, end) ? Infinity : batch.capacities[i];
    const land = (memory: Uint8Array, pointer: number): LandedPart =>
      ({ landed: true, start: pointer, end: pointer + writeLines(urls, start, end, memory, pointer), strings: end - start });
    return this.#landOrSend(to, slot, bytes, batch.landingBytes, land, () => urls.slice(start, end));
  }

  /**
   * A part for a worker's slot: `land` writes it into the slot's landing when that is free and
   * holds `bytes`; else it is sent as `fallback()` gives it, and if the landing is free, with a
   * request that the worker make it `landingBytes` long for the parts of later batches.
   */
  #landOrSend(
    to: PoolWorker, slot: number, bytes: number, landingBytes: number,
    land: (memory: Uint8Array, pointer: number) => LandedPart, fallback: () => OutgoingPart["urls"],
  ): OutgoingPart {
    const landing = to.landings[slot];
    if (!landing.busy && landing.capacity >= bytes) {
      const urls = land(new Uint8Array(to.memory.buffer), landing.pointer);
      landing.busy = true;
      this.#landed++;
      return { urls, done: () => (landing.busy = false) };
    }
    const through = fallback();
    // Another batch's part holds the landing: it stays as it is.
    if (landing.busy) return { urls: through };
    // The worker makes the landing large enough for this batch's parts once this one is done; the
    // landing is held until then, so that no part is written where the worker frees memory.
    landing.busy = true;
    return {
      urls: through,
      reserve: { slot, bytes: landingBytes },
      done: (result) => {
        if (result.landing) Object.assign(landing, result.landing);
        landing.busy = false;
      },
    };
  }

  /** Copies part i into the batch's shared buffer (taken when a part first needs it). */
  #throughSharedBuffer(batch: PlainBatch, i: number): SharedPart {
    if (batch.shared === undefined) {
      batch.shared = this.#acquire(batch.bytes.length + ALIGNMENT_SLACK);
      // The batch lies at its own alignment in the shared buffer, and so does each part.
      batch.view = new Uint8Array(batch.shared, alignmentOf(batch.bytes), batch.bytes.length);
    }
    const { bounds, view } = batch;
    view!.set(batch.bytes.subarray(bounds[i], bounds[i + 1]), bounds[i]);
    this.#copied++;
    return { shared: batch.shared, start: view!.byteOffset + bounds[i], end: view!.byteOffset + bounds[i + 1] };
  }

  [partCounts](): { landed: number; copied: number } {
    return { landed: this.#landed, copied: this.#copied };
  }

  [workerThreads](): Worker[] {
    return this.#workers.map(({ worker }) => worker);
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
  close(): Promise<void> {
    this.#closing ??= this.#stop();
    return this.#closing;
  }

  async #stop(): Promise<void> {
    this.#closed = true;
    this.#idle = [];
    await Promise.all(this.#workers.map(({ worker }) => worker.terminate()));
    this.#failAll(new RobotsError("ROBOTS_ERR_DISPOSED", "this worker pool was closed"));
  }

  #send(worker: Worker, part: OutgoingPart, agents: readonly string[], withLines: boolean): Promise<PartResult> {
    const id = this.#nextId++;
    return new Promise<PartResult>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      const request: WorkerRequest = { id, urls: part.urls, agents, withLines, reserve: part.reserve };
      worker.ref();
      // A shared buffer is shared, not copied; string arrays (parts that found no landing) are cloned.
      worker.postMessage(request);
    });
  }

  #settle(response: WorkerResponse): void {
    const pending = this.#pending.get(response.id);
    if (pending === undefined) return;
    this.#pending.delete(response.id);
    if (this.#pending.size === 0) for (const { worker } of this.#workers) worker.unref();
    if ("error" in response) {
      // A typed error of the worker's Robots keeps its code; anything else is the engine's failure.
      const { code, message } = response.error;
      const typed = typeof code === "string" && code.startsWith("ROBOTS_ERR_") && code !== "ROBOTS_ERR_WASM";
      pending.reject(typed ? new RobotsError(code as RobotsErrorCode, message) : new RobotsError("ROBOTS_ERR_WASM", `worker failed: ${message}`));
    } else {
      pending.resolve({ allowed: response.allowed, lines: response.lines, landing: response.landing });
    }
  }

  #failAll(error: unknown): void {
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
  }
}

/** A plain (not shared) byte batch the pool is sending: its cuts and the landing its parts need. */
interface PlainBatch {
  bytes: Uint8Array;
  bounds: number[];
  /** Any of its parts, and similar ones of later batches: the largest plus an eighth. */
  landingBytes: number;
  /** The shared buffer that parts which find no landing go through, and the batch's place in it. */
  shared?: SharedArrayBuffer;
  view?: Uint8Array;
}

function plainBatch(bytes: Uint8Array, bounds: number[]): PlainBatch {
  let largest = 0;
  for (let i = 0; i + 1 < bounds.length; i++) largest = Math.max(largest, bounds[i + 1] - bounds[i]);
  return { bytes, bounds, landingBytes: largest + (largest >> 3) + ALIGNMENT_SLACK };
}

/** A string batch the pool is sending: where it is cut, and the landing its parts need. */
interface StringBatch {
  urls: readonly string[];
  /** Part i is urls[bounds[i]..bounds[i + 1]); no part is empty. */
  bounds: number[];
  /** Part i's linesCapacity. */
  capacities: number[];
  /** Any of its parts written as lines, and similar ones of later batches: the largest plus an eighth. */
  landingBytes: number;
}

/** Cuts a string batch into at most `count` consecutive parts of similar length. */
function stringBatch(urls: readonly string[], count: number): StringBatch {
  const size = Math.ceil(urls.length / count);
  const bounds = [0];
  const capacities: number[] = [];
  for (let start = 0; start < urls.length; start += size) {
    const end = Math.min(urls.length, start + size);
    bounds.push(end);
    capacities.push(linesCapacity(urls, start, end));
  }
  const largest = Math.max(0, ...capacities);
  return { urls, bounds, capacities, landingBytes: largest + (largest >> 3) };
}

function holdsLineFeed(urls: readonly string[], start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (urls[i]!.includes("\n")) return true;
  return false;
}
