/**
 * First benchmark: the bundled example (examples/robots.txt + examples/urls.txt, 20,000 URLs),
 * agent "Googlebot", google profile. Every alternative runs in the same process and the same
 * run, and is compared with robots-parser (npm).
 *
 *   npx vite-node bench/example.bench.ts
 *
 * Each task does one full pass over the 20,000 URLs (except the baseline, which is one empty
 * batch call); ns/URL is the mean time of a pass divided by the URL count. Parsing is done once,
 * before timing, for every implementation. BENCH_TIME_MS sets tinybench's time budget per task
 * (default 1000 ms; each task also runs at least 16 passes after 4 warm-up passes).
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import { fileURLToPath } from "node:url";
import { Bench, type Task } from "tinybench";
import { init, Robots } from "../src/index.js";
import { Robots as Reference } from "../src/reference/index.js";

interface RobotsParserRobot {
  isAllowed(url: string, ua?: string): boolean | undefined;
}
// robots-parser is CommonJS (`module.exports = function (url, body)`) and its typings declare a
// default export, which NodeNext does not map onto module.exports; load it through require.
const robotsParser = createRequire(import.meta.url)("robots-parser") as (url: string, body: string) => RobotsParserRobot;

const AGENT = "Googlebot";
const ROBOTS_URL = "https://www.example.com/robots.txt";
const TIME_MS = Number(process.env.BENCH_TIME_MS ?? 1000);

const examplePath = (name: string) => fileURLToPath(new URL(`../examples/${name}`, import.meta.url));
const body = readFileSync(examplePath("robots.txt"), "utf8");
const urlFile = readFileSync(examplePath("urls.txt"));
const urlBytes = new Uint8Array(urlFile.buffer, urlFile.byteOffset, urlFile.byteLength);
const urls = urlFile.toString("utf8").split("\n").filter((line) => line.length > 0);

// ---- Load and compile (timed once, cold: informative only) -------------------------------------
let started = performance.now();
await init();
const initMs = performance.now() - started;

started = performance.now();
const wasm = Robots.parse(body, { profile: "google" });
const wasmParseMs = performance.now() - started;

started = performance.now();
const reference = Reference.parse(body, { profile: "google" });
const referenceParseMs = performance.now() - started;

started = performance.now();
const peer = robotsParser(ROBOTS_URL, body);
const peerParseMs = performance.now() - started;

// ---- Sanity: every variant answers the same question -------------------------------------------
const countAllowed = (verdicts: ArrayLike<number | boolean | undefined>) => {
  let n = 0;
  for (let i = 0; i < verdicts.length; i++) if (verdicts[i]) n++;
  return n;
};
const differences = (a: ArrayLike<number | boolean | undefined>, b: ArrayLike<number | boolean | undefined>) => {
  let n = Math.abs(a.length - b.length);
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (Boolean(a[i]) !== Boolean(b[i])) n++;
  return n;
};
const verdicts = {
  wasmBatch: wasm.classify(urls, AGENT),
  wasmBytes: wasm.classify(urlBytes, AGENT),
  wasmSingle: urls.map((url) => wasm.isAllowed(url, AGENT)),
  reference: reference.classify(urls, AGENT),
  peer: urls.map((url) => peer.isAllowed(url, AGENT)),
};

// ---- Benchmark ---------------------------------------------------------------------------------
const EMPTY: string[] = [];
let sink = 0; // results flow here so that no call can be optimised away

// At least 16 timed passes per task (tinybench's default of 64 makes the slow tasks take ~20 s
// each); fast tasks keep going until the time budget is spent.
const bench = new Bench({ name: "example", time: TIME_MS, iterations: 16, warmupIterations: 4, throws: true });
bench
  .add("baseline: WASM classify([]) (empty batch)", () => {
    sink += wasm.classify(EMPTY, AGENT).length;
  })
  .add("WASM classify(string[])", () => {
    sink += wasm.classify(urls, AGENT)[0]!;
  })
  .add("WASM classify(bytes)", () => {
    sink += wasm.classify(urlBytes, AGENT)[0]!;
  })
  .add("WASM isAllowed per URL", () => {
    for (let i = 0; i < urls.length; i++) if (wasm.isAllowed(urls[i]!, AGENT)) sink++;
  })
  .add("reference classify(string[])", () => {
    sink += reference.classify(urls, AGENT)[0]!;
  })
  .add("robots-parser isAllowed per URL", () => {
    for (let i = 0; i < urls.length; i++) if (peer.isAllowed(urls[i]!, AGENT)) sink++;
  });

await bench.run();

// ---- Report ------------------------------------------------------------------------------------
const latency = (task: Task) => {
  const result = task.result;
  if (result.state !== "completed") throw new Error(`${task.name}: ${result.state}`);
  return result.latency; // milliseconds per pass
};

const [baseline, ...perUrlTasks] = bench.tasks;
const peerTask = perUrlTasks[perUrlTasks.length - 1]!;
const nsPerUrl = (ms: number) => (ms * 1e6) / urls.length;
const peerNsPerUrl = nsPerUrl(latency(peerTask).mean);

const integer = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
const rows: string[][] = [["task", "URLs/s", "ns/URL", "median", "±", "vs robots-parser"]];
const base = latency(baseline!);
rows.push([baseline!.name, "-", `${(base.mean * 1e6).toFixed(0)} ns/call`, `${(base.p50 * 1e6).toFixed(0)}`, `${base.rme.toFixed(1)}%`, "-"]);
for (const task of perUrlTasks) {
  const stats = latency(task);
  const mean = nsPerUrl(stats.mean);
  rows.push([
    task.name,
    integer.format(1e9 / mean),
    mean.toFixed(1),
    nsPerUrl(stats.p50).toFixed(1),
    `${stats.rme.toFixed(1)}%`,
    `${(peerNsPerUrl / mean).toFixed(2)}x`,
  ]);
}
const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
const formatRow = (row: string[]) =>
  row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join("  ");

const cpus = os.cpus();
console.log(`robots-wasm example benchmark: ${urls.length} URLs, agent ${AGENT}, google profile`);
console.log(`Node ${process.version} on ${os.platform()}/${os.arch()}, ${cpus[0]?.model ?? "unknown CPU"} (${cpus.length} logical CPUs)`);
console.log(`robots.txt ${Buffer.byteLength(body)} bytes, urls.txt ${urlBytes.byteLength} bytes; tinybench ${TIME_MS} ms per task`);
console.log(
  `cold, one run: init() ${initMs.toFixed(2)} ms; parse: WASM ${wasmParseMs.toFixed(3)} ms, ` +
    `reference ${referenceParseMs.toFixed(3)} ms, robots-parser ${peerParseMs.toFixed(3)} ms`,
);
console.log(
  `allowed: WASM batch ${countAllowed(verdicts.wasmBatch)}, WASM bytes ${countAllowed(verdicts.wasmBytes)} ` +
    `(${verdicts.wasmBytes.length} verdicts), WASM single ${countAllowed(verdicts.wasmSingle)}, ` +
    `reference ${countAllowed(verdicts.reference)}, robots-parser ${countAllowed(verdicts.peer)}`,
);
console.log(
  `verdicts differing from the reference: WASM batch ${differences(verdicts.wasmBatch, verdicts.reference)}, ` +
    `WASM bytes ${differences(verdicts.wasmBytes, verdicts.reference)}, ` +
    `WASM single ${differences(verdicts.wasmSingle, verdicts.reference)}, ` +
    `robots-parser ${differences(verdicts.peer, verdicts.reference)} (different semantics, see docs/robots-txt.md)`,
);
console.log("");
console.log(formatRow(rows[0]!));
console.log(widths.map((width) => "-".repeat(width)).join("  "));
for (const row of rows.slice(1)) console.log(formatRow(row));
console.log("");
console.log(
  `ns/URL: mean time of one pass over all URLs / ${urls.length}; median: the same from the median pass; ` +
    "±: relative margin of error of the mean (95%).",
);
console.log("vs robots-parser: robots-parser's ns/URL divided by the task's (higher is faster).");

wasm.dispose();
reference.dispose();
if (sink === -1) console.log(sink);
