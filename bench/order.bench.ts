/**
 * Input order: each generated workload's URLs classified in the order the generator wrote them
 * (sections and query strings mixed at random) and the same URLs sorted, in one process, the two
 * orders taking turns. A large file's plan does not fit in the CPU's caches: paths that start
 * alike, decided one after another, find its nodes and buckets cached and its branches predicted.
 * The engine decides a batch in its order: reordering a window of the batch inside the engine
 * gained at most 4% on the 512k file and cost the 50k one up to 10% (the paths are then read out
 * of order, and the grouping costs time itself), so a caller that can sort a large batch gains
 * the difference.
 *
 *   npm run build && npx vite-node bench/order.bench.ts
 *   BENCH_ONLY=512k BENCH_URLS=1000000 npx vite-node bench/order.bench.ts
 *
 * Prints ns per URL in both orders and how much faster the sorted one is; writes nothing.
 */
import { init, Robots } from "../src/index.js";
import { formatInteger, formatNumber, PARSE_OPTIONS, type RoundSettings, runRounds, textTable } from "./measure.js";
import { AGENT, GENERATED, generatedWorkload, urlBytes } from "./workloads.js";

const URL_COUNT = Number(process.env.BENCH_URLS ?? 400_000);
const ONLY = (process.env.BENCH_ONLY ?? "2k,50k,512k").split(",").map((name) => name.trim()).filter(Boolean);
const SETTINGS: RoundSettings = { timeMs: Number(process.env.BENCH_TIME_MS ?? 2000), iterations: 15, warmupIterations: 2, rounds: 5 };

await init();
const rows: string[][] = [["workload", "URLs", "generated order (ns/URL)", "sorted (ns/URL)", "sorted is faster by"]];
for (const spec of GENERATED.filter((candidate) => ONLY.includes(candidate.name))) {
  const workload = generatedWorkload(spec, URL_COUNT);
  const sorted = workload.urls.slice().sort();
  const sortedBytes = urlBytes(sorted);
  const robots = Robots.parse(workload.body, PARSE_OPTIONS);
  // Both orders must give each URL the same verdict.
  const verdictOf = new Map<string, number>();
  const verdicts = robots.classify(workload.bytes, AGENT);
  workload.urls.forEach((url, i) => verdictOf.set(url, verdicts[i]!));
  const sortedVerdicts = robots.classify(sortedBytes, AGENT);
  const differing = sorted.filter((url, i) => verdictOf.get(url) !== sortedVerdicts[i]).length;
  if (differing > 0) throw new Error(`${spec.name}: ${differing} URLs get another verdict when sorted`);
  const timings = await runRounds(spec.name, [
    { name: "generated", fn: () => robots.classify(workload.bytes, AGENT) },
    { name: "sorted", fn: () => robots.classify(sortedBytes, AGENT) },
  ], SETTINGS);
  robots.dispose();
  const nsPerUrl = (task: string) => (timings.get(task)!.median * 1e6) / workload.urls.length;
  const generatedNs = nsPerUrl("generated");
  const sortedNs = nsPerUrl("sorted");
  rows.push([spec.name, formatInteger(workload.urls.length), formatNumber(generatedNs), formatNumber(sortedNs),
    `${formatNumber((1 - sortedNs / generatedNs) * 100)}%`]);
}
process.stdout.write(`${textTable(rows)}\n`);
