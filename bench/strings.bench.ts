/**
 * String batches: each generated workload's URLs as a `string[]` (split from the URL file's text,
 * as a job reading a file holds them) classified on one thread and on a pool of two workers, beside
 * the same URLs as bytes, the tasks taking turns in one process. One thread writes each string into
 * the engine's memory (src/url-bytes.ts); the pool's calling thread writes each part into a
 * worker's landing while the workers decide the parts before it (src/parallel.ts), so on two cores
 * it shares them with the workers.
 *
 *   npm run build && npx vite-node bench/strings.bench.ts
 *   BENCH_ONLY=512k BENCH_URLS=1000000 npx vite-node bench/strings.bench.ts
 *
 * Prints ms per batch and each pool's ratio to one thread; writes nothing.
 */
import type { RobotsWorkerPool } from "../src/parallel.js";
import { init, Robots } from "../src/index.js";
import { formatInteger, formatNumber, PARSE_OPTIONS, type RoundSettings, runRounds, textTable } from "./measure.js";
import { AGENT, GENERATED, generatedWorkload } from "./workloads.js";

const URL_COUNT = Number(process.env.BENCH_URLS ?? 1_000_000);
const ONLY = (process.env.BENCH_ONLY ?? "2k,512k").split(",").map((name) => name.trim()).filter(Boolean);
const SETTINGS: RoundSettings = { timeMs: Number(process.env.BENCH_TIME_MS ?? 3000), iterations: 9, warmupIterations: 2, rounds: 3 };

// Worker threads load dist/parallel-worker.js, so the pool comes from the build (npm run build).
const { RobotsWorkerPool: Pool } = (await import(new URL("../dist/parallel.js", import.meta.url).href).catch((error: unknown) => {
  throw new Error("bench: dist/parallel.js is missing: run `npm run build` first", { cause: error });
})) as { RobotsWorkerPool: typeof RobotsWorkerPool };

await init();
const rows: string[][] = [["workload", "URLs", "string[], one thread", "string[], pool of 2", "ratio", "bytes, one thread", "bytes, pool of 2", "ratio"]];
for (const spec of GENERATED.filter((candidate) => ONLY.includes(candidate.name))) {
  const workload = generatedWorkload(spec, URL_COUNT);
  const bytes = workload.bytes;
  const strings = new TextDecoder().decode(bytes).split("\n");
  strings.pop(); // after the final LF
  const robots = Robots.parse(workload.body, PARSE_OPTIONS);
  const pool = await Pool.create(workload.body, { ...PARSE_OPTIONS, workers: 2 });
  // The four must agree.
  const expected = robots.classify(bytes, AGENT);
  for (const [name, verdicts] of [["string[]", robots.classify(strings, AGENT)], ["pool string[]", await pool.classify(strings, AGENT)], ["pool bytes", await pool.classify(bytes, AGENT)]] as const) {
    if (verdicts.some((verdict, i) => verdict !== expected[i])) throw new Error(`${spec.name}: ${name} differs from classify(bytes)`);
  }
  const timings = await runRounds(spec.name, [
    { name: "strings", fn: () => robots.classify(strings, AGENT) },
    { name: "pool strings", fn: () => pool.classify(strings, AGENT) },
    { name: "bytes", fn: () => robots.classify(bytes, AGENT) },
    { name: "pool bytes", fn: () => pool.classify(bytes, AGENT) },
  ], SETTINGS);
  await pool.close();
  robots.dispose();
  const ms = (task: string) => timings.get(task)!.median;
  rows.push([spec.name, formatInteger(strings.length), `${formatNumber(ms("strings"))} ms`, `${formatNumber(ms("pool strings"))} ms`,
    `${formatNumber(ms("strings") / ms("pool strings"))}x`, `${formatNumber(ms("bytes"))} ms`, `${formatNumber(ms("pool bytes"))} ms`,
    `${formatNumber(ms("bytes") / ms("pool bytes"))}x`]);
}
process.stdout.write(`${textTable(rows)}\n`);
