/**
 * The throughput benchmark of issue 3 (`npm run bench`, which builds first; or
 * `npx vite-node bench/throughput.bench.ts` on an existing build).
 *
 * For each workload (generated ~2 KB, ~50 KB and ~512 KiB files, and the largest real files of
 * the corpus; see workloads.ts), side by side in one run: an empty-batch baseline, the reference,
 * WASM isAllowed per URL, WASM classify on bytes and on string[], the WASM worker pool (2
 * workers), robots-parser, and byte-scan floors of the same URL bytes. Then compile times and the
 * WASM memory of each file. Warm medians throughout (tinybench p50); ratios are taken between
 * numbers of the same run. Last, when both ran, the 2k and 512k batches again in alternating turns
 * (paired.ts): the quarter target's ratio, measured so that both sides see the same machine.
 *
 * Writes bench/results.json, bench/throughput.svg and bench/README-section.md when every workload
 * ran; BENCH_ONLY=2k,512k limits the workloads (then only bench/.work/results.json is written).
 * BENCH_URLS (default 1,000,000) and BENCH_TIME_MS (tinybench's budget per task, default 1000)
 * change the size of the run.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import { fileURLToPath } from "node:url";
import { init } from "../src/index.js";
import type { RobotsWorkerPool } from "../src/parallel.js";
import { throughputChart } from "./chart.js";
import { type PairInput, pairedRatio } from "./paired.js";
import {
  type CompileTaskId, describeMachine, findCompile, findThroughput, formatBytes, formatInteger, formatNumber, formatRatio, machine,
  markdownTable, measureWorkload, type Settings, sinkValue, textTable, throughputRows, type WorkloadResult,
} from "./measure.js";
import { corpusWorkload, GENERATED, generatedWorkload, largestCorpusFiles, mostWildcardCorpusFile, type Workload } from "./workloads.js";

const URL_COUNT = Number(process.env.BENCH_URLS ?? 1_000_000);
const ONLY = process.env.BENCH_ONLY?.split(",").map((name) => name.trim()).filter(Boolean);
const SETTINGS: Settings = {
  timeMs: Number(process.env.BENCH_TIME_MS ?? 1000),
  iterations: 9,
  warmupIterations: 2,
  rounds: 3,
  subsetPassMs: 100,
  subsetMinUrls: 20,
};
const COMMAND = "npm run bench";
/** The quarter target: the second workload's throughput against the first's. */
const QUARTER_PAIR = ["2k", "512k"] as const;

const log = (line: string) => process.stderr.write(`${line}\n`);
const output = (path: string) => fileURLToPath(new URL(path, import.meta.url));

// ---- Workloads ---------------------------------------------------------------------------------

/** Built one at a time (a 1M-URL batch is ~150 MB of strings and bytes). */
const plans: { name: string; build(): Workload }[] = [
  ...GENERATED.map((spec) => ({ name: spec.name, build: () => generatedWorkload(spec, URL_COUNT) })),
  ...[...new Set([...largestCorpusFiles(4), mostWildcardCorpusFile()].filter((id): id is string => id !== undefined))].map((id) => ({
    name: `corpus-${id}`,
    build: () => corpusWorkload(id, URL_COUNT),
  })),
];
const selected = ONLY ? plans.filter((plan) => ONLY.includes(plan.name)) : plans;
if (selected.length === 0) throw new Error(`BENCH_ONLY matched no workload (have: ${plans.map((plan) => plan.name).join(", ")})`);
const fullRun = selected.length === plans.length;

// ---- Run ---------------------------------------------------------------------------------------

const info = machine();
await init();
// Worker threads load dist/parallel-worker.js, so the pool comes from the build (npm run build).
const poolModule = (await import(new URL("../dist/parallel.js", import.meta.url).href).catch((error: unknown) => {
  throw new Error("bench: dist/parallel.js is missing: run `npm run build` first", { cause: error });
})) as { RobotsWorkerPool: typeof RobotsWorkerPool };

log(`robots-wasm throughput benchmark: ${selected.map((plan) => plan.name).join(", ")}; ${formatInteger(URL_COUNT)} URLs per workload`);
log(describeMachine(info));
const started = performance.now();
const results: WorkloadResult[] = [];
/** The file and URL bytes of the quarter target's two workloads, kept for pairedRatio (not their strings). */
const pairInputs = new Map<string, PairInput>();
for (const plan of selected) {
  const workloadStarted = performance.now();
  const workload = plan.build();
  if ((QUARTER_PAIR as readonly string[]).includes(plan.name)) pairInputs.set(plan.name, { name: workload.name, body: workload.body, bytes: workload.bytes, urls: workload.urls.length });
  log(`${workload.name}: ${workload.description}; ${formatBytes(workload.body.length)}; generated in ${((performance.now() - workloadStarted) / 1000).toFixed(1)} s`);
  const result = await measureWorkload(workload, { settings: SETTINGS, pool: poolModule.RobotsWorkerPool, memory: true, log });
  results.push(result);
  log(`  done in ${((performance.now() - workloadStarted) / 1000).toFixed(1)} s`);
  printWorkload(result);
}
// The quarter target's ratio, measured again with the two batches in alternating turns.
const [fastName, slowName] = QUARTER_PAIR;
const paired = pairInputs.has(fastName) && pairInputs.has(slowName) ? pairedRatio(pairInputs.get(fastName)!, pairInputs.get(slowName)!) : undefined;
pairInputs.clear();
if (paired) {
  log(`paired ${paired.slow} / ${paired.fast}: ${formatNumber(paired.ratio)} (rounds ${formatNumber(paired.lowest)} to ${formatNumber(paired.highest)}; ${formatNumber(paired.fastNsPerUrl)} and ${formatNumber(paired.slowNsPerUrl)} ns per URL)`);
}
info.loadEnd = os.loadavg()[0]!;
const elapsedS = (performance.now() - started) / 1000;
const peakRssBytes = process.resourceUsage().maxRSS * 1024;

// ---- Report ------------------------------------------------------------------------------------

function printWorkload(result: WorkloadResult): void {
  console.log("");
  console.log(`## ${result.name}: ${result.description}; ${formatBytes(result.bodyBytes)}; ${formatInteger(result.urls)} URLs (${formatBytes(result.urlBytes)})`);
  console.log(textTable(throughputRows(result)));
  const compile = [["compile (parse once, warm median)", "ms", "±"], ...result.compile.map((row) => [row.label, formatNumber(row.medianMs), `${row.rme.toFixed(1)}%`])];
  console.log(textTable(compile));
  const { memory, checks } = result;
  if (memory) {
    console.log(`memory: table ${formatBytes(memory.tableBytes)} after the first classify, at most ${formatBytes(memory.peakTableBytes)} while the batch grows its plan, ${formatBytes(memory.batchTableBytes)} after it; WASM memory of a fresh instance ${formatBytes(memory.wasmMemoryInitialBytes)} -> ${formatBytes(memory.wasmMemoryBytes)} with this file; process RSS ${formatBytes(result.rssBytes)}`);
  }
  console.log(
    `checks: WASM vs reference ${checks.wasmVsReference} of ${checks.compared} differ; string[] vs bytes ${checks.stringsVsBytes}, pool vs bytes ${checks.parallelVsBytes} (shared ${checks.sharedParallelVsBytes}), ` +
      `isAllowed vs bytes ${checks.singleVsBytes}; robots-parser vs reference ${checks.robotsParserVsReference} of ${checks.robotsParserCompared} differ ` +
      `(different semantics); ${(checks.allowedShare * 100).toFixed(1)}% allowed`,
  );
}

const compileMs = (result: WorkloadResult, task: CompileTaskId) => findCompile(result, task)?.medianMs ?? NaN;

function summaryRows(): string[][] {
  const rows = [[
    "workload", "rules", "size", "WASM bytes URLs/s", "ns/URL", "vs r-p", "WASM string[]", "WASM isAllowed", "pool x2", "pool x2 shared",
    "reference", "robots-parser", "SIMD floor", "parse ms", "parse+plan ms", "whole plan ms", "r-p parse ms", "ref parse ms", "table max", "WASM mem",
  ]];
  for (const result of results) {
    const rate = (task: Parameters<typeof findThroughput>[1]) => formatInteger(findThroughput(result, task)?.urlsPerSecond ?? NaN);
    const bytes = findThroughput(result, "wasm-bytes")!;
    rows.push([
      result.name, formatInteger(result.rules), formatBytes(result.bodyBytes), formatInteger(bytes.urlsPerSecond), formatNumber(bytes.nsPerUrl),
      formatRatio(bytes.vsRobotsParser), rate("wasm-strings"), rate("wasm-single"), rate("wasm-parallel"), rate("wasm-parallel-shared"), rate("reference"),
      rate("robots-parser"), rate("floor-simd"), formatNumber(compileMs(result, "wasm-parse")), formatNumber(compileMs(result, "wasm-parse-plan")),
      formatNumber(compileMs(result, "wasm-parse-whole-plan")), formatNumber(compileMs(result, "robots-parser-parse")), formatNumber(compileMs(result, "reference-parse")),
      result.memory ? formatBytes(result.memory.peakTableBytes) : "-", result.memory ? formatBytes(result.memory.wasmMemoryBytes) : "-",
    ]);
  }
  return rows;
}

interface Target {
  target: string;
  measured: string;
  met: boolean | undefined;
}

/** The issue's targets against this run's numbers (undefined: the workload did not run). */
function targets(): Target[] {
  const byName = new Map(results.map((result) => [result.name, result]));
  const small = byName.get("2k");
  const large = byName.get("512k");
  const list: Target[] = [];
  const add = (target: string, value: number | undefined, met: (value: number) => boolean, format: (value: number) => string) =>
    list.push(value === undefined || Number.isNaN(value) ? { target, measured: "not run", met: undefined } : { target, measured: format(value), met: met(value) });
  add("2 KB: batched classify >= 100x robots-parser", small && findThroughput(small, "wasm-bytes")?.vsRobotsParser, (v) => v >= 100, formatRatio);
  add("512 KiB: batched classify >= 3,000x robots-parser", large && findThroughput(large, "wasm-bytes")?.vsRobotsParser, (v) => v >= 3000, formatRatio);
  // Judged on the paired measurement (pairedRatio): the two workloads' own medians were taken
  // minutes apart, and their ratio moves with the machine's speed.
  const separate = small && large && findThroughput(large, "wasm-bytes")!.urlsPerSecond / findThroughput(small, "wasm-bytes")!.urlsPerSecond;
  add(
    "512 KiB: throughput >= 1/4 of the 2 KB file's",
    paired?.ratio ?? separate,
    (v) => v >= 0.25,
    (v) => paired
      ? `${formatNumber(v)} (1/${formatNumber(1 / v)}) in ${paired.rounds} alternating rounds (${formatNumber(paired.lowest)} to ${formatNumber(paired.highest)}); ${formatNumber(separate ?? NaN)} from the workloads' own medians`
      : `${formatNumber(v)} (1/${formatNumber(1 / v)})`,
  );
  add("512 KiB: compile (parse + plan) < 4 ms median", large && compileMs(large, "wasm-parse-plan"), (v) => v < 4, (v) => `${formatNumber(v)} ms (parse alone ${formatNumber(compileMs(large!, "wasm-parse"))} ms)`);
  add(
    "512 KiB: compile >= 10x faster than robots-parser's parse",
    large && compileMs(large, "robots-parser-parse") / compileMs(large, "wasm-parse-plan"),
    (v) => v >= 10,
    formatRatio,
  );
  // Not a target of its own: the same two with the whole tree built up front, as the plan was before it grew lazily.
  add(
    "512 KiB: compile with the whole plan < 4 ms, and >= 10x robots-parser's parse",
    large && compileMs(large, "wasm-parse-whole-plan"),
    (v) => v < 4 && compileMs(large!, "robots-parser-parse") / v >= 10,
    (v) => `${formatNumber(v)} ms, ${formatRatio(compileMs(large!, "robots-parser-parse") / v)}`,
  );
  for (const result of results.filter((candidate) => candidate.kind === "generated")) {
    const single = findThroughput(result, "wasm-bytes")!.urlsPerSecond;
    const parallel = findThroughput(result, "wasm-parallel");
    const shared = findThroughput(result, "wasm-parallel-shared");
    add(
      `${result.name}: pool of 2 workers >= 1.7x single thread (${formatInteger(result.urls)} URLs, bytes)`,
      parallel && parallel.urlsPerSecond / single,
      (v) => v >= 1.7,
      formatRatio,
    );
    add(
      `${result.name}: the same with the bytes in a SharedArrayBuffer (no copy on the calling thread)`,
      shared && shared.urlsPerSecond / single,
      (v) => v >= 1.7,
      formatRatio,
    );
  }
  // The compiled file is the table; a fresh instance also holds the copied body and the space the
  // compile used on the way (TLSF keeps it for the next file), reported beside it.
  add(
    "512 KiB: compiled file < 2 MB of WASM memory",
    large?.memory?.peakTableBytes,
    (v) => v < 2_000_000,
    (v) => `${formatBytes(v)} table at most (${formatInteger(v)} bytes, while a batch grows the plan; ${formatInteger(large!.memory!.batchTableBytes)} after it; a fresh instance grows to ${formatBytes(large!.memory!.wasmMemoryBytes)} with the body and compile scratch)`,
  );
  return list;
}

const targetList = targets();
const targetRows = [["target (issue 3)", "measured", ""], ...targetList.map((t) => [t.target, t.measured, t.met === undefined ? "-" : t.met ? "met" : "NOT MET"])];

console.log("");
console.log(`# Summary (${COMMAND}${ONLY ? `, BENCH_ONLY=${ONLY.join(",")}` : ""}): URLs/s are warm medians; vs r-p = WASM classify(bytes) / robots-parser per URL`);
console.log(describeMachine(info));
console.log(textTable(summaryRows()));
console.log("");
console.log(textTable(targetRows));
console.log("");
console.log(`run took ${elapsedS.toFixed(0)} s; peak RSS ${formatBytes(peakRssBytes)}`);

// ---- Files -------------------------------------------------------------------------------------

const report = {
  command: COMMAND,
  date: new Date().toISOString(),
  machine: info,
  settings: { ...SETTINGS, urls: URL_COUNT, profile: "google", maxBytes: "Infinity", agent: "Googlebot", statistic: `median of the tinybench samples of ${SETTINGS.rounds} rounds (warm, after warm-up passes)` },
  durationSeconds: Math.round(elapsedS),
  peakRssBytes,
  targets: targetList,
  paired,
  workloads: results,
};
if (fullRun) {
  writeFileSync(output("./results.json"), JSON.stringify(report, null, 2) + "\n");
  writeFileSync(output("./throughput.svg"), throughputChart(results, info, URL_COUNT));
  writeFileSync(output("./README-section.md"), readmeSection());
  log("wrote bench/results.json, bench/throughput.svg, bench/README-section.md");
} else {
  mkdirSync(output("./.work/"), { recursive: true });
  writeFileSync(output("./.work/results.json"), JSON.stringify(report, null, 2) + "\n");
  log("partial run: wrote bench/.work/results.json only");
}
if (sinkValue() === -1) console.log("");

function readmeSection(): string {
  const htmlPages = results.filter((result) => result.kind === "corpus" && result.rules === 0).map((result) => result.name.replace("corpus-", ""));
  const throughput = [["workload", "rules", "WASM classify(bytes)", "vs robots-parser", "WASM string[]", "WASM isAllowed", "pool, 2 workers", "pool, shared bytes", "reference", "robots-parser", "SIMD scan floor"]];
  for (const result of results) {
    const rate = (task: Parameters<typeof findThroughput>[1]) => formatInteger(findThroughput(result, task)?.urlsPerSecond ?? NaN);
    const bytes = findThroughput(result, "wasm-bytes")!;
    throughput.push([
      `${result.name} (${formatBytes(result.bodyBytes)})`, formatInteger(result.rules), `${formatInteger(bytes.urlsPerSecond)} (${formatNumber(bytes.nsPerUrl)} ns)`,
      formatRatio(bytes.vsRobotsParser), rate("wasm-strings"), rate("wasm-single"), rate("wasm-parallel"), rate("wasm-parallel-shared"), rate("reference"), rate("robots-parser"), rate("floor-simd"),
    ]);
  }
  const compile = [["workload", "WASM parse", "WASM parse + plan", "WASM parse + whole plan", "robots-parser parse", "reference parse", "compiled table, at most", "WASM memory"]];
  for (const result of results) {
    compile.push([
      result.name, `${formatNumber(compileMs(result, "wasm-parse"))} ms`, `${formatNumber(compileMs(result, "wasm-parse-plan"))} ms`,
      `${formatNumber(compileMs(result, "wasm-parse-whole-plan"))} ms`, `${formatNumber(compileMs(result, "robots-parser-parse"))} ms`, `${formatNumber(compileMs(result, "reference-parse"))} ms`,
      result.memory ? formatBytes(result.memory.peakTableBytes) : "-", result.memory ? formatBytes(result.memory.wasmMemoryBytes) : "-",
    ]);
  }
  return [
    "## Performance",
    "",
    "![URLs per second against the number of rules, one line per engine](bench/throughput.svg)",
    "",
    `URLs per second, single thread unless noted: warm medians of one run of \`${COMMAND}\` (${report.date.slice(0, 10)}).`,
    `Machine: ${describeMachine(info)}.`,
    `Each workload classifies ${formatInteger(URL_COUNT)} URLs for \`Googlebot\` (google profile, whole file parsed);`,
    "robots-parser, the reference and `isAllowed` run on a prefix of the batch (they are slower). The floor is one SIMD pass",
    "over the same URL bytes (copied into WASM memory, line feeds counted): no engine can beat it. The engines take turns",
    `in ${SETTINGS.rounds} rounds, so that load from elsewhere hits them alike. The generated files (bench/workloads.ts, fixed`,
    "seeds) mix literal, `/*...` wildcard, `$`-anchored, percent-encoded and non-ASCII rules in seven groups; the corpus",
    `files are the largest real ones and the one with the most wildcard rules${htmlPages.length > 0 ? ` (${htmlPages.join(", ")}: HTML pages served as robots.txt, no rules)` : ""}.`,
    "",
    markdownTable(throughput),
    "",
    ...(paired
      ? [
        `The ${paired.slow} file's throughput against the ${paired.fast} file's, with the two batches classified in alternating turns`,
        `(${paired.rounds} rounds, so that both halves of each round's ratio see the same machine): ${formatNumber(paired.ratio)}, rounds ${formatNumber(paired.lowest)} to`,
        `${formatNumber(paired.highest)} (${formatNumber(paired.fastNsPerUrl)} and ${formatNumber(paired.slowNsPerUrl)} ns per URL). Issue 3 asks for a quarter.`,
        "",
      ]
      : []),
    "Compile: `Robots.parse` from bytes; \"parse + plan\" adds the first `classify` (one URL), which builds the match plan.",
    "The plan's radix tree grows as paths reach it (a node is split the first time a walk enters it), so that first",
    "`classify` builds the tree along one path only; \"whole plan\" builds all of it at once, as the plan was built before",
    "(raw exports: the same copy, compile and agent selection, then `expandPlan`). The throughput runs above pay for the",
    "rest of the tree in their first URLs. Memory: the compiled table at its largest (`robots.tableBytes` after the first",
    "`classify` and after each sixteenth of the workload's URLs: until every node is built, the table also holds the rules",
    "of the nodes not reached yet; a small file's table holds its lazy DFA's cache of the states its paths reached, at most",
    "about 1.3 MB) and the whole WASM memory of a fresh instance holding only that file after the first `classify` (the",
    "body is copied in to be parsed).",
    "",
    markdownTable(compile),
    "",
    "```sh",
    "npm run bench        # build, then the full run (~" + `${Math.max(1, Math.round(elapsedS / 60))} min here): writes bench/results.json, bench/throughput.svg`,
    "npm run bench:ci     # the CI gate: the same ratios on smaller batches, fails below the floors in bench/gate-checks.ts",
    "```",
    "",
  ].join("\n");
}
