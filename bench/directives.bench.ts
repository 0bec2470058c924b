/**
 * Robots meta tag extraction from pages of 100 KB, 1 MB and 10 MB (bench/html-pages.ts makes them,
 * deterministically): the WASM scanner against parse5 (a full HTML5 parser building a tree) and
 * htmlparser2 (a streaming tokenizer with an open-tag callback, no tree). Every alternative runs in
 * the same process and the same run.
 *
 *   npx vite-node bench/directives.bench.ts
 *
 * Each task extracts every `<meta name>` (name, content) of one page. "WASM bytes" takes the page
 * as a Uint8Array, as a crawler holds it; "WASM string" takes a JS string (encodeInto included);
 * parse5 and htmlparser2 take a string, the only input they accept. The baseline is one scan of an
 * empty page (the JS/WASM call overhead). BENCH_TIME_MS sets tinybench's time budget per task;
 * BENCH_CLOCK=wall measures wall-clock instead of process CPU time.
 */
import os from "node:os";
import { Parser } from "htmlparser2";
import { parse, type DefaultTreeAdapterMap } from "parse5";
import { Bench, type Task } from "tinybench";
import { extractMetaTags, init } from "../src/index.js";
import { generatePage } from "./html-pages.js";

const TIME_MS = Number(process.env.BENCH_TIME_MS ?? 1000);
/**
 * The clock: process CPU time by default (user + system, every thread, so garbage collection counts),
 * which other processes on a shared machine do not inflate; BENCH_CLOCK=wall for wall-clock time.
 */
const CLOCK = process.env.BENCH_CLOCK === "wall" ? "wall" : "cpu";
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const SIZES = [100 << 10, 1 << 20, 10 << 20];
const TARGET_RATIO = 20;
const TARGET_MB_PER_SECOND = 300;

type Found = [name: string, content: string | null];

function withParse5(html: string): Found[] {
  const found: Found[] = [];
  const walk = (node: DefaultTreeAdapterMap["parentNode"]) => {
    for (const child of node.childNodes) {
      if (!("tagName" in child)) continue;
      if (child.tagName === "meta") {
        const name = child.attrs.find((attr) => attr.name === "name");
        if (name) found.push([name.value, child.attrs.find((attr) => attr.name === "content")?.value ?? null]);
      }
      walk(child);
    }
  };
  walk(parse(html, { scriptingEnabled: false }));
  return found;
}

function withHtmlparser2(html: string): Found[] {
  const found: Found[] = [];
  const parser = new Parser({
    onopentag(tag, attributes) {
      if (tag === "meta" && attributes.name !== undefined) found.push([attributes.name, attributes.content ?? null]);
    },
  }, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true });
  parser.end(html);
  return found;
}

const withWasm = (html: string | Uint8Array): Found[] => extractMetaTags(html).map((tag) => [tag.name, tag.content]);

await init();
const encoder = new TextEncoder();
const pages = SIZES.map((size) => {
  const text = generatePage(size);
  return { size, text, bytes: encoder.encode(text) };
});

// ---- Sanity: every extractor finds the same robots metas ---------------------------------------
const robotsOnly = (found: Found[]) => JSON.stringify(found.filter(([name]) => /^(robots|googlebot)$/i.test(name)));
for (const { size, text, bytes } of pages) {
  const expected = robotsOnly(withWasm(bytes));
  for (const [name, result] of [["WASM string", withWasm(text)], ["parse5", withParse5(text)], ["htmlparser2", withHtmlparser2(text)]] as const) {
    if (robotsOnly(result) !== expected) throw new Error(`${name} disagrees on the ${size}-byte page: ${robotsOnly(result)} vs ${expected}`);
  }
}
console.log(`robots metas found on every page: ${robotsOnly(withWasm(pages[0]!.bytes))}`);

// ---- Benchmark ---------------------------------------------------------------------------------
let sink = 0;
const bench = new Bench({
  name: "directives", time: TIME_MS, iterations: 8, warmupIterations: 2, throws: true, ...(CLOCK === "cpu" ? { now: cpuMs } : {}),
});
const empty = new Uint8Array(0);
bench.add("baseline: WASM scan of an empty page", () => {
  sink += withWasm(empty).length;
});
const label = (size: number) => (size >= 1 << 20 ? `${size >> 20} MB` : `${size >> 10} KB`);
for (const { size, text, bytes } of pages) {
  bench
    .add(`${label(size)} WASM bytes`, () => {
      sink += withWasm(bytes).length;
    })
    .add(`${label(size)} WASM string`, () => {
      sink += withWasm(text).length;
    })
    .add(`${label(size)} parse5`, () => {
      sink += withParse5(text).length;
    })
    .add(`${label(size)} htmlparser2`, () => {
      sink += withHtmlparser2(text).length;
    });
}
await bench.run();

// ---- Report ------------------------------------------------------------------------------------
/** The median time of a task, in ms: other processes on a shared machine inflate the mean. */
const medianMs = (task: Task) => {
  if (task.result.state !== "completed") throw new Error(`${task.name}: ${task.result.state}`);
  return task.result.latency.p50;
};
const byName = new Map(bench.tasks.map((task) => [task.name, task]));
const cpus = os.cpus();
console.log(`robots-wasm directives benchmark: robots meta extraction; tinybench ${TIME_MS} ms per task; ${CLOCK === "cpu" ? "process CPU time" : "wall-clock time"}`);
console.log(`Node ${process.version} on ${os.platform()}/${os.arch()}, ${cpus[0]?.model ?? "unknown CPU"} (${cpus.length} logical CPUs)`);
console.log(`baseline (empty page, one call): ${(medianMs(byName.get("baseline: WASM scan of an empty page")!) * 1e3).toFixed(2)} µs`);
console.log("");

const rows: string[][] = [["page", "extractor", "ms", "MB/s", "vs parse5", "vs htmlparser2"]];
let worstRatio = Infinity;
let worstSpeed = Infinity;
for (const { size } of pages) {
  const times = Object.fromEntries(["WASM bytes", "WASM string", "parse5", "htmlparser2"].map((name) => [name, medianMs(byName.get(`${label(size)} ${name}`)!)]));
  for (const [name, ms] of Object.entries(times)) {
    const megabytesPerSecond = size / (1 << 20) / (ms / 1000);
    rows.push([label(size), name, ms.toFixed(3), megabytesPerSecond.toFixed(0), `${(times.parse5! / ms).toFixed(1)}x`, `${(times.htmlparser2! / ms).toFixed(1)}x`]);
  }
  worstRatio = Math.min(worstRatio, Math.min(times.parse5!, times.htmlparser2!) / times["WASM bytes"]!);
  worstSpeed = Math.min(worstSpeed, size / (1 << 20) / (times["WASM bytes"]! / 1000));
}
const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
const format = (row: string[]) => row.map((cell, column) => (column < 2 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join("  ");
console.log(format(rows[0]!));
console.log(widths.map((width) => "-".repeat(width)).join("  "));
for (const row of rows.slice(1)) console.log(format(row));
console.log("");
console.log("ms: median time per page; MB/s: page bytes (MiB) per second; vs X: X's time divided by the row's (higher is faster).");
console.log(
  `targets (WASM bytes): at least ${TARGET_RATIO}x the faster of parse5 and htmlparser2 (worst: ${worstRatio.toFixed(1)}x) ` +
    `and at least ${TARGET_MB_PER_SECOND} MB/s (worst: ${worstSpeed.toFixed(0)} MB/s): ` +
    (worstRatio >= TARGET_RATIO && worstSpeed >= TARGET_MB_PER_SECOND ? "met" : "NOT met"),
);
if (sink === -1) console.log(sink);
