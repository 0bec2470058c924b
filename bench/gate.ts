/**
 * The CI benchmark gate (`npm run bench:ci`, run by .ci/run after `npm test`): the ratios of the
 * full benchmark, measured on smaller batches, compared with the floors below. It fails (exit
 * code 1, one line per failed floor) when a ratio measured in this run falls below its floor.
 * Only ratios between engines measured in the same process and the same run are checked, never an
 * absolute time: a slower or busier machine slows both sides.
 *
 * FLOORS: about half of the lowest of three runs on the development machine (2 logical CPUs,
 * shared and noisy; the measured ranges are beside each floor), so
 * that noise passes and a real regression fails. Raise them when the engine gets faster for good
 * (run the gate three times, take half of the middle value); never lower one to let a regression
 * pass.
 */
import { init } from "../src/index.js";
import { describeMachine, findCompile, findThroughput, formatInteger, formatRatio, machine, measureWorkload, type Settings, sinkValue, textTable } from "./measure.js";
import { GENERATED, generatedWorkload } from "./workloads.js";

const FLOORS = {
  /**
   * WASM classify(bytes) per URL against robots-parser's isAllowed per URL, same URLs, same file
   * (measured 103-107x with the lazy DFA for small files, 343-371x, 2,312-2,410x with a lazy tree).
   */
  batchedVsRobotsParser: { "2k": 52, "50k": 180, "512k": 1180 },
  /**
   * WASM classify(bytes) per URL against the reference's classify(string[]) (measured 226-234x,
   * 529-868x, 2,935-4,310x; 50k swings most, so its floor is half of the lowest run).
   */
  batchedVsReference: { "2k": 117, "50k": 265, "512k": 2000 },
  /**
   * robots-parser's parse of the whole file against WASM parse + first classify, which builds the
   * match plan with its tree along one path (measured 2.68-5.46x, 8.68-11.3x, 12.4-14.3x).
   */
  compileVsRobotsParser: { "2k": 2.1, "50k": 4.8, "512k": 6.8 },
  /** The same with the whole plan built at once (expandPlan; measured 4.58-7.03x, 5.22-9.45x, 8.58-9.23x). */
  wholeCompileVsRobotsParser: { "2k": 3.1, "50k": 3.1, "512k": 4.6 },
} as const;

type Size = keyof typeof FLOORS.batchedVsRobotsParser;

/** URLs per batch: the ratios are per URL, so a smaller batch measures the same thing. */
const URL_COUNT = Number(process.env.BENCH_URLS ?? 50_000);
const SETTINGS: Settings = {
  timeMs: Number(process.env.BENCH_TIME_MS ?? 500),
  iterations: 9,
  warmupIterations: 2,
  rounds: 3,
  subsetPassMs: 100,
  subsetMinUrls: 30,
};

const started = performance.now();
const info = machine();
await init();
console.log(`robots-wasm CI benchmark gate: ${formatInteger(URL_COUNT)} URLs per workload; ${describeMachine(info)}`);

interface Check {
  name: string;
  measured: number;
  floor: number;
}
const checks: Check[] = [];
const failures: string[] = [];
for (const spec of GENERATED) {
  const size = spec.name as Size;
  const workload = generatedWorkload(spec, URL_COUNT);
  const result = await measureWorkload(workload, {
    settings: SETTINGS,
    tasks: ["wasm-bytes", "reference", "robots-parser"],
    compileTasks: ["wasm-parse-plan", "wasm-parse-whole-plan", "robots-parser-parse"],
  });
  const batched = findThroughput(result, "wasm-bytes")!;
  const reference = findThroughput(result, "reference")!;
  const robotsParserParse = findCompile(result, "robots-parser-parse")!.medianMs;
  const compile = robotsParserParse / findCompile(result, "wasm-parse-plan")!.medianMs;
  const wholeCompile = robotsParserParse / findCompile(result, "wasm-parse-whole-plan")!.medianMs;
  checks.push(
    { name: `${size}: WASM classify(bytes) vs robots-parser isAllowed`, measured: batched.vsRobotsParser, floor: FLOORS.batchedVsRobotsParser[size] },
    { name: `${size}: WASM classify(bytes) vs reference classify`, measured: reference.nsPerUrl / batched.nsPerUrl, floor: FLOORS.batchedVsReference[size] },
    { name: `${size}: WASM compile (parse + plan) vs robots-parser parse`, measured: compile, floor: FLOORS.compileVsRobotsParser[size] },
    { name: `${size}: WASM compile (parse + whole plan) vs robots-parser parse`, measured: wholeCompile, floor: FLOORS.wholeCompileVsRobotsParser[size] },
  );
  if (result.checks.wasmVsReference !== 0) {
    failures.push(`${size}: WASM and the reference disagree on ${result.checks.wasmVsReference} of ${result.checks.compared} URLs (a correctness bug, see npm test)`);
  }
}

const rows = [["ratio (same run)", "measured", "floor", "margin", ""]];
for (const check of checks) {
  const ok = check.measured >= check.floor;
  rows.push([check.name, formatRatio(check.measured), formatRatio(check.floor), `${((check.measured / check.floor - 1) * 100).toFixed(0)}%`, ok ? "ok" : "FAIL"]);
  if (!ok) failures.push(`${check.name}: ${formatRatio(check.measured)} is below its floor of ${formatRatio(check.floor)} (bench/gate.ts FLOORS)`);
}
console.log(textTable(rows));
console.log(`gate took ${((performance.now() - started) / 1000).toFixed(0)} s`);
if (sinkValue() === -1) console.log("");
if (failures.length > 0) {
  for (const failure of failures) console.error(`bench:ci FAILED: ${failure}`);
  process.exit(1);
}
console.log("bench:ci: every ratio is above its floor");
