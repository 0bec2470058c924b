/**
 * The measurements shared by the full benchmark (throughput.bench.ts) and the CI gate (gate.ts):
 * every engine on one workload, in one process and one run, with tinybench; warm medians.
 *
 * Engines: the WASM engine through the public facade (src/), the reference implementation
 * (src/reference/), robots-parser (npm), the WASM worker pool (dist/, since worker threads load
 * dist/parallel-worker.js), and byte-scan floors. Every file is parsed with the google profile and
 * `maxBytes: Infinity`, so that every engine sees the whole file (robots-parser has no limit).
 */
import { createRequire } from "node:module";
import os from "node:os";
import { Bench, type FnOptions, type Task } from "tinybench";
import { Robots } from "../src/index.js";
import { Robots as Reference } from "../src/reference/index.js";
import { releaseWasmBase64 } from "../src/generated/release-wasm.js";
import type { RobotsWorkerPool } from "../src/parallel.js";
import { parseWith } from "../src/robots.js";
import type { ParseOptions } from "../src/types.js";
import { type Engine, loadEngine } from "../src/wasm.js";
import { countNewlinesJs, ScalarWasmScanner } from "./scan-floor.js";
import { AGENT, type Workload } from "./workloads.js";

interface RobotsParserRobot {
  isAllowed(url: string, ua?: string): boolean | undefined;
}
// robots-parser is CommonJS (`module.exports = function (url, body)`) and its typings declare a
// default export, which NodeNext does not map onto module.exports; load it through require.
const robotsParser = createRequire(import.meta.url)("robots-parser") as (url: string, body: string) => RobotsParserRobot;

export const PARSE_OPTIONS: ParseOptions = { profile: "google", maxBytes: Infinity };

// ---- Settings ----------------------------------------------------------------------------------

export interface Settings {
  /** tinybench time budget per task (ms). */
  timeMs: number;
  /** Minimum timed passes per task (after the warm-up passes), over all rounds. */
  iterations: number;
  /** Warm-up passes per task before the first round (one before each later round). */
  warmupIterations: number;
  /**
   * Tasks run in turn, this many times over, each time for its share of the budget; the samples of
   * all rounds are pooled. On a shared machine, load that comes and goes then hits every engine
   * alike instead of whichever task was running, and the ratios stay steady.
   */
  rounds: number;
  /** Slow engines run on a prefix of the batch sized so that one pass takes about this long. */
  subsetPassMs: number;
  /** Never fewer URLs than this in a subset (or the whole batch, if smaller). */
  subsetMinUrls: number;
}

// ---- Results -----------------------------------------------------------------------------------

/** Task ids, stable across runs (results.json, the chart, the gate). */
export type ThroughputTaskId =
  | "baseline"
  | "reference"
  | "wasm-single"
  | "wasm-bytes"
  | "wasm-strings"
  | "wasm-parallel"
  | "wasm-parallel-shared"
  | "robots-parser"
  | "floor-js"
  | "floor-wasm"
  | "floor-simd"
  | "floor-simd-scan";

export const THROUGHPUT_LABELS: Record<ThroughputTaskId, string> = {
  baseline: "baseline: WASM classify(empty bytes)",
  reference: "reference classify(string[])",
  "wasm-single": "WASM isAllowed per URL",
  "wasm-bytes": "WASM classify(bytes)",
  "wasm-strings": "WASM classify(string[])",
  "wasm-parallel": "WASM pool, 2 workers, classify(bytes)",
  "wasm-parallel-shared": "WASM pool, 2 workers, classify(bytes in a SharedArrayBuffer)",
  "robots-parser": "robots-parser isAllowed per URL",
  "floor-js": "floor: JS loop counting LFs",
  "floor-wasm": "floor: WASM byte loop (copy + scan)",
  "floor-simd": "floor: WASM SIMD countNewlines (copy + scan)",
  "floor-simd-scan": "floor: WASM SIMD countNewlines (scan only)",
};

export interface ThroughputResult {
  task: ThroughputTaskId;
  label: string;
  /** URLs per pass (the whole batch, or a prefix for slow engines); 0 for the baseline. */
  urls: number;
  /** Median time of one pass (ms). */
  medianMs: number;
  nsPerUrl: number;
  urlsPerSecond: number;
  /** robots-parser's ns/URL divided by this task's (higher is faster). */
  vsRobotsParser: number;
  /** Relative margin of error of the mean (%). */
  rme: number;
  samples: number;
}

export type CompileTaskId =
  "wasm-parse" | "wasm-parse-plan" | "wasm-parse-whole-plan" | "wasm-parse-plan-string" | "reference-parse" | "robots-parser-parse";

export const COMPILE_LABELS: Record<CompileTaskId, string> = {
  "wasm-parse": "WASM Robots.parse(bytes)",
  "wasm-parse-plan": "WASM parse(bytes) + first classify (match plan, tree grown along one path)",
  "wasm-parse-whole-plan": "WASM parse(bytes) + the whole match plan (raw exports: copy, compile, select, expandPlan)",
  "wasm-parse-plan-string": "WASM parse(string) + first classify",
  "reference-parse": "reference Robots.parse(string)",
  "robots-parser-parse": "robots-parser(url, string)",
};

export interface CompileResult {
  task: CompileTaskId;
  label: string;
  medianMs: number;
  rme: number;
  samples: number;
}

export interface MemoryResult {
  /** `robots.tableBytes` after one classify (the compiled table and its match plan). */
  tableBytes: number;
  /**
   * The largest `robots.tableBytes` while the workload's URLs are classified after that, read after
   * each sixteenth of them: the plan's tree grows as paths reach it, and gives back its build state
   * once every node is built.
   */
  peakTableBytes: number;
  /** `robots.tableBytes` once all of the workload's URLs are classified. */
  batchTableBytes: number;
  /** A fresh instance's memory before parsing anything. */
  wasmMemoryInitialBytes: number;
  /** The same instance after parsing this file and one classify (includes the body copied in). */
  wasmMemoryBytes: number;
}

export interface Checks {
  /** URLs compared with the reference (its subset). */
  compared: number;
  /** WASM classify(bytes) verdicts differing from the reference's (must be 0). */
  wasmVsReference: number;
  /** Over the whole batch: classify(string[]) and the pool against classify(bytes) (must be 0). */
  stringsVsBytes: number;
  parallelVsBytes: number;
  sharedParallelVsBytes: number;
  /** WASM isAllowed on its subset against classify(bytes) (must be 0). */
  singleVsBytes: number;
  /** robots-parser verdicts differing from the reference's on robots-parser's subset (different semantics). */
  robotsParserVsReference: number;
  robotsParserCompared: number;
  /** Allowed share of the whole batch (WASM). */
  allowedShare: number;
}

export interface WorkloadResult {
  name: string;
  kind: Workload["kind"];
  description: string;
  bodyBytes: number;
  rules: number;
  urls: number;
  urlBytes: number;
  throughput: ThroughputResult[];
  compile: CompileResult[];
  memory?: MemoryResult;
  checks: Checks;
  /** Process resident set size after this workload (bytes). */
  rssBytes: number;
}

// ---- Machine -----------------------------------------------------------------------------------

export interface Machine {
  cpu: string;
  logicalCpus: number;
  node: string;
  platform: string;
  /** 1-minute load average when the run started and ended. */
  loadStart: number;
  loadEnd?: number;
}

export function machine(): Machine {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model.trim() ?? "unknown CPU",
    logicalCpus: cpus.length,
    node: process.version,
    platform: `${os.platform()}/${os.arch()}`,
    loadStart: os.loadavg()[0]!,
  };
}

export function describeMachine(info: Machine): string {
  const load = info.loadEnd === undefined ? `${info.loadStart.toFixed(2)}` : `${info.loadStart.toFixed(2)} at start, ${info.loadEnd.toFixed(2)} at end`;
  return `${info.cpu}, ${info.logicalCpus} logical CPUs, Node ${info.node} (${info.platform}); load average ${load}`;
}

// ---- The WASM module for fresh instances (memory footprint, SIMD floor) ------------------------

let module: WebAssembly.Module | undefined;

/** A new instance of the release build the facade embeds (its own memory). */
export function freshEngine(): Engine {
  module ??= new WebAssembly.Module(Buffer.from(releaseWasmBase64, "base64"));
  return loadEngine(module);
}

/** How many slices measureMemory classifies the workload's URLs in, reading the table's size after each. */
const MEMORY_SLICES = 16;

/** WASM memory of a fresh instance holding only this file's compiled table, and the table's size as a batch grows it. */
export function measureMemory(workload: Workload): MemoryResult {
  const engine = freshEngine();
  const wasmMemoryInitialBytes = engine.exports.memory.buffer.byteLength;
  const robots = parseWith(engine, workload.body, PARSE_OPTIONS);
  const { urls } = workload;
  robots.classify(urls.slice(0, 1), AGENT);
  const tableBytes = robots.tableBytes;
  // Before the batch: its URLs are copied into the same memory.
  const wasmMemoryBytes = engine.exports.memory.buffer.byteLength;
  let peakTableBytes = tableBytes;
  const slice = Math.max(1, Math.ceil(urls.length / MEMORY_SLICES));
  for (let start = 0; start < urls.length; start += slice) {
    robots.classify(urls.slice(start, start + slice), AGENT);
    peakTableBytes = Math.max(peakTableBytes, robots.tableBytes);
  }
  const result = { tableBytes, peakTableBytes, batchTableBytes: robots.tableBytes, wasmMemoryInitialBytes, wasmMemoryBytes };
  robots.dispose();
  return result;
}

// ---- Helpers -----------------------------------------------------------------------------------

let sink = 0; // results flow here so that no call can be optimised away

/** Keeps the sink observable. */
export function sinkValue(): number {
  return sink;
}

/** Adds a result to the sink (for measurements outside this module). */
export function sinkAdd(value: number): void {
  sink += value;
}

function latency(task: Task) {
  const result = task.result;
  if (result.state !== "completed") throw new Error(`${task.name}: ${result.state}${"error" in result ? `: ${String(result.error)}` : ""}`);
  return result.latency;
}

/**
 * The prefix length for which one pass of `run` takes about `passMs`. Prefixes grow until a pass
 * takes a quarter of that (which also warms the engine up: the reference and robots-parser are
 * several times slower cold), then the best of two warm passes is scaled.
 */
function subsetSize(run: (count: number) => void, total: number, settings: Settings): number {
  const time = (count: number) => {
    const started = performance.now();
    run(count);
    return performance.now() - started;
  };
  let count = Math.min(16, total);
  while (count < total && time(count) < settings.subsetPassMs / 4) count = Math.min(total, count * 4);
  const warm = Math.max(1e-3, Math.min(time(count), time(count)));
  return Math.min(total, Math.max(Math.min(settings.subsetMinUrls, total), Math.round((count * settings.subsetPassMs) / warm)));
}

/** Median, relative margin of error (95%) and count of one task's pooled samples (ms). */
export interface Timing {
  median: number;
  rme: number;
  samples: number;
}

/** The median of a non-empty list. */
export function median(values: readonly number[]): number {
  const sorted = values.slice().sort((a, b) => a - b);
  const n = sorted.length;
  return n % 2 === 1 ? sorted[(n - 1) / 2]! : (sorted[n / 2 - 1]! + sorted[n / 2]!) / 2;
}

function summarise(samples: number[]): Timing {
  const n = samples.length;
  const mean = samples.reduce((sum, value) => sum + value, 0) / n;
  const variance = n > 1 ? samples.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (n - 1) : 0;
  return { median: median(samples), rme: n > 1 ? (100 * 1.96 * Math.sqrt(variance / n)) / mean : 0, samples: n };
}

export interface TaskSpec {
  name: string;
  fn: () => unknown;
  options?: FnOptions;
}

/** What runRounds needs of the settings. */
export type RoundSettings = Pick<Settings, "timeMs" | "iterations" | "warmupIterations" | "rounds">;

/** Runs the tasks in `settings.rounds` rounds with tinybench and pools each task's samples. */
export async function runRounds(name: string, specs: readonly TaskSpec[], settings: RoundSettings): Promise<Map<string, Timing>> {
  const pooled = new Map<string, number[]>(specs.map((spec) => [spec.name, []]));
  const rounds = Math.max(1, settings.rounds);
  for (let round = 0; round < rounds; round++) {
    const bench = new Bench({
      name,
      time: settings.timeMs / rounds,
      iterations: Math.ceil(settings.iterations / rounds),
      warmupIterations: round === 0 ? settings.warmupIterations : 1,
      warmupTime: 0,
      retainSamples: true,
      throws: true,
    });
    for (const spec of specs) bench.add(spec.name, spec.fn, spec.options ?? {});
    await bench.run();
    for (const task of bench.tasks) {
      const samples = pooled.get(task.name)!;
      for (const sample of latency(task).samples!) samples.push(sample); // the baseline has ~10^6 samples: no spread
    }
  }
  return new Map([...pooled].map(([task, samples]) => [task, summarise(samples)]));
}

function countDifferences(a: ArrayLike<number | boolean | undefined>, b: ArrayLike<number | boolean | undefined>, length = Math.max(a.length, b.length)): number {
  let differences = 0;
  for (let i = 0; i < length; i++) if (Boolean(a[i]) !== Boolean(b[i])) differences++;
  return differences;
}

// ---- Per workload ------------------------------------------------------------------------------

export interface MeasureOptions {
  settings: Settings;
  /** Which throughput tasks to run (default all). */
  tasks?: readonly ThroughputTaskId[];
  /** Which compile tasks to run (default all). */
  compileTasks?: readonly CompileTaskId[];
  /** A worker pool class (loaded from dist/) for the parallel task. */
  pool?: { create(body: Uint8Array, options: { workers: number } & ParseOptions): Promise<RobotsWorkerPool> };
  memory?: boolean;
  /** Progress lines (stderr). */
  log?: (line: string) => void;
}

const ALL_TASKS = Object.keys(THROUGHPUT_LABELS) as ThroughputTaskId[];
const ALL_COMPILE_TASKS = Object.keys(COMPILE_LABELS) as CompileTaskId[];

export async function measureWorkload(workload: Workload, options: MeasureOptions): Promise<WorkloadResult> {
  const { settings } = options;
  const log = options.log ?? (() => {});
  const wanted = new Set(options.tasks ?? ALL_TASKS);
  const { urls, bytes, body, text } = workload;
  const total = urls.length;

  const wasm = Robots.parse(body, PARSE_OPTIONS);
  const reference = Reference.parse(body, PARSE_OPTIONS);
  const peer = robotsParser(workload.robotsUrl, text);
  const pool = (wanted.has("wasm-parallel") || wanted.has("wasm-parallel-shared")) && options.pool
    ? await options.pool.create(body, { ...PARSE_OPTIONS, workers: 2 })
    : undefined;
  // The same bytes as a batch job that reads its input into shared memory holds them: the pool
  // hands the workers views of them instead of copying them first.
  const sharedBytes = new Uint8Array(new SharedArrayBuffer(pool ? bytes.length : 0));
  if (pool) sharedBytes.set(bytes);

  // ---- Subsets for the slow engines, and the checks ---------------------------------------------
  const wasmVerdicts = wasm.classify(bytes, AGENT);
  if (wasmVerdicts.length !== total) throw new Error(`${workload.name}: classify(bytes) gave ${wasmVerdicts.length} verdicts for ${total} URLs`);
  const subsets: Partial<Record<ThroughputTaskId, string[]>> = {};
  if (wanted.has("reference")) {
    const count = subsetSize((n) => reference.classify(urls.slice(0, n), AGENT), total, settings);
    subsets.reference = urls.slice(0, count);
  }
  if (wanted.has("robots-parser")) {
    const count = subsetSize((n) => {
      for (let i = 0; i < n; i++) peer.isAllowed(urls[i]!, AGENT);
    }, total, settings);
    subsets["robots-parser"] = urls.slice(0, count);
  }
  if (wanted.has("wasm-single")) {
    const count = subsetSize((n) => {
      for (let i = 0; i < n; i++) wasm.isAllowed(urls[i]!, AGENT);
    }, total, settings);
    subsets["wasm-single"] = urls.slice(0, count);
  }
  log(`  subsets: ${Object.entries(subsets).map(([task, list]) => `${task} ${list!.length}`).join(", ")}`);

  const checkUrls = subsets.reference ?? urls.slice(0, Math.min(total, 2000));
  const referenceVerdicts = reference.classify(checkUrls, AGENT);
  const peerUrls = subsets["robots-parser"] ?? urls.slice(0, Math.min(total, 200));
  const peerVerdicts = peerUrls.map((url) => peer.isAllowed(url, AGENT));
  const singleUrls = subsets["wasm-single"] ?? [];
  let allowed = 0;
  for (let i = 0; i < total; i++) allowed += wasmVerdicts[i]!;
  const checks: Checks = {
    compared: checkUrls.length,
    wasmVsReference: countDifferences(wasmVerdicts, referenceVerdicts, checkUrls.length),
    stringsVsBytes: wanted.has("wasm-strings") ? countDifferences(wasm.classify(urls, AGENT), wasmVerdicts) : 0,
    parallelVsBytes: pool ? countDifferences(await pool.classify(bytes, AGENT), wasmVerdicts) : 0,
    sharedParallelVsBytes: pool ? countDifferences(await pool.classify(sharedBytes, AGENT), wasmVerdicts) : 0,
    singleVsBytes: countDifferences(singleUrls.map((url) => wasm.isAllowed(url, AGENT)), wasmVerdicts, singleUrls.length),
    robotsParserVsReference: countDifferences(peerVerdicts, reference.classify(peerUrls, AGENT)),
    robotsParserCompared: peerUrls.length,
    allowedShare: allowed / total,
  };

  // ---- Throughput -------------------------------------------------------------------------------
  const floorEngine = wanted.has("floor-simd") || wanted.has("floor-simd-scan") ? freshEngine() : undefined;
  const scanner = wanted.has("floor-wasm") ? new ScalarWasmScanner() : undefined;
  let scanPointer = 0;
  if (floorEngine) {
    scanPointer = floorEngine.scratch("urls", bytes.length);
    floorEngine.bytes.set(bytes, scanPointer);
  }
  const empty = new Uint8Array(0);
  const tasks: Record<ThroughputTaskId, () => unknown> = {
    baseline: () => {
      sink += wasm.classify(empty, AGENT).length;
    },
    reference: () => {
      sink += reference.classify(subsets.reference!, AGENT)[0]!;
    },
    "wasm-single": () => {
      const list = subsets["wasm-single"]!;
      for (let i = 0; i < list.length; i++) if (wasm.isAllowed(list[i]!, AGENT)) sink++;
    },
    "wasm-bytes": () => {
      sink += wasm.classify(bytes, AGENT)[0]!;
    },
    "wasm-strings": () => {
      sink += wasm.classify(urls, AGENT)[0]!;
    },
    "wasm-parallel": async () => {
      sink += (await pool!.classify(bytes, AGENT))[0]!;
    },
    "wasm-parallel-shared": async () => {
      sink += (await pool!.classify(sharedBytes, AGENT))[0]!;
    },
    "robots-parser": () => {
      const list = subsets["robots-parser"]!;
      for (let i = 0; i < list.length; i++) if (peer.isAllowed(list[i]!, AGENT)) sink++;
    },
    "floor-js": () => {
      sink += countNewlinesJs(bytes);
    },
    "floor-wasm": () => {
      sink += scanner!.copyAndCount(bytes);
    },
    "floor-simd": () => {
      const engine = floorEngine!;
      const pointer = engine.scratch("urls", bytes.length);
      engine.bytes.set(bytes, pointer);
      sink += engine.exports.countNewlines(pointer, bytes.length);
    },
    "floor-simd-scan": () => {
      sink += floorEngine!.exports.countNewlines(scanPointer, bytes.length);
    },
  };
  const passUrls = (task: ThroughputTaskId) => (task === "baseline" ? 0 : subsets[task]?.length ?? total);

  const parallelTasks: ThroughputTaskId[] = ["wasm-parallel", "wasm-parallel-shared"];
  const order = ALL_TASKS.filter((task) => wanted.has(task) && (!parallelTasks.includes(task) || pool !== undefined));
  log(`  throughput: ${order.length} tasks, ${settings.rounds} rounds`);
  const timings = await runRounds(
    workload.name,
    order.map((task) => ({ name: task, fn: tasks[task], options: parallelTasks.includes(task) ? { async: true } : undefined })),
    settings,
  );
  const nsPerUrl = (task: ThroughputTaskId) => (timings.get(task)!.median * 1e6) / Math.max(1, passUrls(task));
  const peerNs = timings.has("robots-parser") ? nsPerUrl("robots-parser") : NaN;
  const throughput: ThroughputResult[] = order.map((task) => {
    const timing = timings.get(task)!;
    const ns = nsPerUrl(task);
    return {
      task,
      label: THROUGHPUT_LABELS[task],
      urls: passUrls(task),
      medianMs: timing.median,
      nsPerUrl: task === "baseline" ? timing.median * 1e6 : ns,
      urlsPerSecond: task === "baseline" ? 0 : 1e9 / ns,
      vsRobotsParser: task === "baseline" ? 0 : peerNs / ns,
      rme: timing.rme,
      samples: timing.samples,
    };
  });
  if (pool) await pool.close();

  // ---- Compile ----------------------------------------------------------------------------------
  const compile = await measureCompile(workload, options.compileTasks ?? ALL_COMPILE_TASKS, settings);
  const memory = options.memory ? measureMemory(workload) : undefined;

  wasm.dispose();
  reference.dispose();
  return {
    name: workload.name,
    kind: workload.kind,
    description: workload.description,
    bodyBytes: body.length,
    rules: workload.rules,
    urls: total,
    urlBytes: bytes.length,
    throughput,
    compile,
    memory,
    checks,
    rssBytes: process.memoryUsage.rss(),
  };
}

/** Parse (and plan) times of each engine; each iteration parses the whole file afresh. */
async function measureCompile(workload: Workload, wanted: readonly CompileTaskId[], settings: Settings): Promise<CompileResult[]> {
  const { body, text, robotsUrl } = workload;
  const firstUrl = workload.urls.slice(0, 1);
  let current: { dispose(): void } | undefined;
  const release = { afterEach: () => {
    current?.dispose();
    current = undefined;
  } };
  let wholePlanEngine: { engine: Engine; bodyPointer: number; agentPointer: number; agentLength: number } | undefined;
  const wholePlanSetup = () => {
    const engine = freshEngine();
    const agent = new TextEncoder().encode(AGENT);
    const agents = new Uint8Array(4 + agent.length);
    new DataView(agents.buffer).setUint32(0, agent.length, true);
    agents.set(agent, 4);
    const agentPointer = engine.exports.allocate(agents.length);
    engine.bytes.set(agents, agentPointer);
    return { engine, bodyPointer: engine.exports.allocate(body.length + 16), agentPointer, agentLength: agents.length };
  };
  const tasks: Record<CompileTaskId, () => void> = {
    "wasm-parse": () => {
      current = Robots.parse(body, PARSE_OPTIONS);
    },
    "wasm-parse-plan": () => {
      const robots = Robots.parse(body, PARSE_OPTIONS);
      current = robots;
      sink += robots.classify(firstUrl, AGENT)[0]!;
    },
    // What the plan would cost if built whole up front, as before the tree grew lazily: the same
    // steps as Robots.parse and classify (copy the body in, compile, select the agent), then the
    // rest of the tree at once.
    "wasm-parse-whole-plan": () => {
      const engine = wholePlanEngine ??= wholePlanSetup();
      engine.engine.bytes.set(body, engine.bodyPointer);
      const handle = engine.engine.exports.compile(engine.bodyPointer, body.length, 0);
      engine.engine.exports.selectAgents(handle, engine.agentPointer, engine.agentLength);
      sink += engine.engine.exports.expandPlan(handle);
      current = { dispose: () => engine.engine.exports.freeTable(handle) };
    },
    "wasm-parse-plan-string": () => {
      const robots = Robots.parse(text, PARSE_OPTIONS);
      current = robots;
      sink += robots.classify(firstUrl, AGENT)[0]!;
    },
    "reference-parse": () => {
      current = Reference.parse(text, PARSE_OPTIONS);
    },
    "robots-parser-parse": () => {
      sink += robotsParser(robotsUrl, text) ? 1 : 0;
    },
  };
  const timings = await runRounds(`${workload.name} compile`, wanted.map((task) => ({ name: task, fn: tasks[task], options: release })), settings);
  return wanted.map((task) => {
    const timing = timings.get(task)!;
    return { task, label: COMPILE_LABELS[task], medianMs: timing.median, rme: timing.rme, samples: timing.samples };
  });
}

// ---- Formatting --------------------------------------------------------------------------------

const integer = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

export function formatInteger(value: number): string {
  return integer.format(value);
}

/** 3 significant digits, with thousands separators above 1,000. */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return "-";
  if (Math.abs(value) >= 1000) return integer.format(value);
  return value.toPrecision(3).replace(/\.0+$|(\.\d*?)0+$/, "$1");
}

export function formatRatio(value: number): string {
  return Number.isFinite(value) && value > 0 ? `${formatNumber(value)}x` : "-";
}

export function formatBytes(value: number): string {
  if (value >= 1 << 20) return `${(value / (1 << 20)).toFixed(2)} MiB`;
  if (value >= 1024) return `${(value / 1024).toFixed(1)} KiB`;
  return `${value} B`;
}

/** Aligned text columns: the first left, the others right. */
export function textTable(rows: readonly (readonly string[])[]): string {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const line = (row: readonly string[]) =>
    row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join("  ").trimEnd();
  return [line(rows[0]!), widths.map((width) => "-".repeat(width)).join("  "), ...rows.slice(1).map(line)].join("\n");
}

export function markdownTable(rows: readonly (readonly string[])[]): string {
  const line = (row: readonly string[]) => `| ${row.join(" | ")} |`;
  return [line(rows[0]!), `|${rows[0]!.map((_, i) => (i === 0 ? "---" : "---:")).join("|")}|`, ...rows.slice(1).map(line)].join("\n");
}

/** Throughput rows of one workload: task, URLs/pass, URLs/s, ns/URL, vs robots-parser, ±. */
export function throughputRows(result: WorkloadResult): string[][] {
  const rows = [["task", "URLs/pass", "URLs/s", "ns/URL", "vs robots-parser", "±"]];
  for (const row of result.throughput) {
    if (row.task === "baseline") {
      rows.push([row.label, "0", "-", `${formatNumber(row.nsPerUrl)} ns/call`, "-", `${row.rme.toFixed(1)}%`]);
    } else {
      rows.push([row.label, formatInteger(row.urls), formatInteger(row.urlsPerSecond), formatNumber(row.nsPerUrl), formatRatio(row.vsRobotsParser), `${row.rme.toFixed(1)}%`]);
    }
  }
  return rows;
}

export function findThroughput(result: WorkloadResult, task: ThroughputTaskId): ThroughputResult | undefined {
  return result.throughput.find((row) => row.task === task);
}

export function findCompile(result: WorkloadResult, task: CompileTaskId): CompileResult | undefined {
  return result.compile.find((row) => row.task === task);
}
