/**
 * The CI benchmark gate (`npm run bench:ci`, run by .ci/run after `npm test`): the ratios of the
 * full benchmark, measured on smaller batches, compared with their floors. It fails (exit
 * code 1, one line per failed floor) when a ratio measured in this run falls below its floor.
 * Only ratios between engines measured in the same process and the same run are checked, never an
 * absolute time: a slower or busier machine slows both sides.
 *
 * The floors and the judging are in bench/gate-checks.ts.
 */
import { init } from "../src/index.js";
import { describeMachine, findCompile, findThroughput, formatInteger, formatRatio, machine, measureWorkload, type Settings, sinkValue, textTable } from "./measure.js";
import { type GateMeasurement, type GateSize, judgeGate } from "./gate-checks.js";
import { GENERATED, generatedWorkload } from "./workloads.js";

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

const measurements = new Map<GateSize, GateMeasurement>();
for (const spec of GENERATED) {
  const workload = generatedWorkload(spec, URL_COUNT);
  const result = await measureWorkload(workload, {
    settings: SETTINGS,
    tasks: ["wasm-bytes", "reference", "robots-parser"],
    compileTasks: ["wasm-parse-plan", "wasm-parse-whole-plan", "robots-parser-parse"],
  });
  const batched = findThroughput(result, "wasm-bytes")!;
  measurements.set(spec.name as GateSize, {
    batchedVsRobotsParser: batched.vsRobotsParser,
    batchedNsPerUrl: batched.nsPerUrl,
    referenceNsPerUrl: findThroughput(result, "reference")!.nsPerUrl,
    robotsParserParseMs: findCompile(result, "robots-parser-parse")!.medianMs,
    wasmParsePlanMs: findCompile(result, "wasm-parse-plan")!.medianMs,
    wasmParseWholePlanMs: findCompile(result, "wasm-parse-whole-plan")!.medianMs,
    disagreements: result.checks.wasmVsReference,
    compared: result.checks.compared,
  });
}

const { checks, failures } = judgeGate(measurements);
const rows = [["ratio (same run)", "measured", "floor", "margin", ""]];
for (const check of checks) {
  rows.push([check.name, formatRatio(check.measured), formatRatio(check.floor), `${((check.measured / check.floor - 1) * 100).toFixed(0)}%`, check.ok ? "ok" : "FAIL"]);
}
console.log(textTable(rows));
console.log(`gate took ${((performance.now() - started) / 1000).toFixed(0)} s`);
if (sinkValue() === -1) console.log("");
if (failures.length > 0) {
  for (const failure of failures) console.error(`bench:ci FAILED: ${failure}`);
  process.exit(1);
}
console.log("bench:ci: every ratio is above its floor");
