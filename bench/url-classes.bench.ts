/**
 * Where a generated workload's time goes, by kind of URL: the URLs with a query string and those
 * without, each as a batch of its own in the generated order, and each large class (first path
 * segment, with or without a query) as a batch of its own. The tasks take turns in one process.
 *
 * A query string costs the large files most: their `/*key=` and `/*key=*word` rules are filed in
 * the gram index under the key, so each key a query holds reads a bucket whose rules then need
 * their other bytes checked. A class on its own also runs faster than the same URLs mixed with the
 * others (see bench/order.bench.ts): the weighted sum of the classes' times is below the whole
 * batch's.
 *
 *   npm run build && npx vite-node bench/url-classes.bench.ts
 *   BENCH_ONLY=512k BENCH_URLS=1000000 npx vite-node bench/url-classes.bench.ts
 *
 * Prints ns per URL for each batch and its share of the workload; writes nothing.
 */
import { init, Robots } from "../src/index.js";
import { formatNumber, PARSE_OPTIONS, type RoundSettings, runRounds, type TaskSpec, textTable } from "./measure.js";
import { AGENT, GENERATED, generatedWorkload, urlBytes } from "./workloads.js";

const URL_COUNT = Number(process.env.BENCH_URLS ?? 400_000);
const ONLY = (process.env.BENCH_ONLY ?? "2k,50k,512k").split(",").map((name) => name.trim()).filter(Boolean);
/** Classes with a smaller share of the URLs are left out of the table (not out of the totals). */
const MIN_CLASS_SHARE = 0.04;
const SETTINGS: RoundSettings = { timeMs: Number(process.env.BENCH_TIME_MS ?? 3000), iterations: 15, warmupIterations: 2, rounds: 5 };

/** `/product/x?y` -> `product ?`; `/p/x` -> `p`. */
function classOf(url: string): string {
  const path = url.slice(url.indexOf("/", url.indexOf("//") + 2) + 1);
  const segment = path.split(/[/?#]/, 1)[0]!;
  return path.includes("?") ? `${segment} ?` : segment;
}

await init();
for (const spec of GENERATED.filter((candidate) => ONLY.includes(candidate.name))) {
  const workload = generatedWorkload(spec, URL_COUNT);
  const robots = Robots.parse(workload.body, PARSE_OPTIONS);
  const batches = new Map<string, string[]>([["with a query", []], ["without a query", []]]);
  const classes = new Map<string, string[]>();
  for (const url of workload.urls) {
    batches.get(url.includes("?") ? "with a query" : "without a query")!.push(url);
    const name = classOf(url);
    if (!classes.has(name)) classes.set(name, []);
    classes.get(name)!.push(url);
  }
  for (const [name, urls] of [...classes].sort((a, b) => b[1].length - a[1].length)) {
    if (urls.length >= workload.urls.length * MIN_CLASS_SHARE) batches.set(`/${name}`, urls);
  }
  const tasks: TaskSpec[] = [{ name: "all", fn: () => robots.classify(workload.bytes, AGENT) }];
  for (const [name, urls] of batches) {
    const bytes = urlBytes(urls);
    tasks.push({ name, fn: () => robots.classify(bytes, AGENT) });
  }
  const timings = await runRounds(spec.name, tasks, SETTINGS);
  robots.dispose();
  const nsPerUrl = (task: string, count: number) => (timings.get(task)!.median * 1e6) / count;
  const rows: string[][] = [[`${spec.name}: URLs`, "share", "ns/URL"]];
  rows.push(["all, in the generated order", "100%", formatNumber(nsPerUrl("all", workload.urls.length))]);
  for (const [name, urls] of batches) {
    rows.push([name, `${formatNumber((urls.length / workload.urls.length) * 100)}%`, formatNumber(nsPerUrl(name, urls.length))]);
  }
  process.stdout.write(`${textTable(rows)}\n\n`);
}
