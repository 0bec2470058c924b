/**
 * Instructions per URL, by WASM function: a measure that does not move with the machine's load.
 * This VM's speed drifts by a third or more between runs and by several percent within one, so a timed
 * A/B run needs many alternating rounds to see a 3% change; the instruction count of the WASM
 * functions is the same on every run (within 1%). The row for JavaScript, V8 and Node is not: a
 * garbage collection falls in one run or the other, so it moves by tens of instructions per URL
 * either way. A count is not time: SIMD code retires more instructions per cycle than
 * scalar code, and cache misses cost cycles without instructions, so a change that counts fewer
 * instructions must still be timed (bench/throughput.bench.ts). Use it to see where a URL's work
 * goes and to compare builds on that.
 *
 *   npm run build && npx vite-node bench/instructions.ts                 # 2k and 512k, this build
 *   npx vite-node bench/instructions.ts a.wasm b.wasm                     # builds side by side (A/B)
 *   BENCH_ONLY=512k BENCH_URLS=20000 BENCH_PASSES=8 npx vite-node bench/instructions.ts
 *
 * Each build classifies the workload's URLs for Googlebot (google profile, whole file) in a child
 * Node process under valgrind's callgrind: once to warm up (the plan is built, the code compiled),
 * then BENCH_PASSES more times. The difference between a run with the passes and one without,
 * divided by the URLs classified, is the cost per URL. V8 runs single-threaded with TurboFan
 * only (no baseline tier, no background compiles or GC threads in the count), and writes a
 * perf map (--perf-basic-prof) that names the compiled code of each WASM function, so that each
 * instruction address is charged to its function (inlined functions count in their caller). With
 * no build given, the release build is compiled again with its name section (`--debug`: the
 * same code, with names) into bench/.work/instructions/.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { formatInteger, PARSE_OPTIONS, textTable } from "./measure.js";
import { AGENT, corpusWorkload, GENERATED, generatedWorkload, type Workload } from "./workloads.js";

const URL_COUNT = Number(process.env.BENCH_URLS ?? 20_000);
const PASSES = Number(process.env.BENCH_PASSES ?? 8);
const ONLY = (process.env.BENCH_ONLY ?? "2k,512k").split(",").map((name) => name.trim()).filter(Boolean);

const root = fileURLToPath(new URL("../", import.meta.url));
const work = `${root}bench/.work/instructions/`;

/**
 * The child: loads one build through the package's own loader (dist/), parses the file as the
 * throughput benchmark does (PARSE_OPTIONS, written as a literal: JSON has no Infinity), warms up
 * and classifies `passes` more times.
 */
const CHILD_PARSE_OPTIONS = `{ profile: ${JSON.stringify(PARSE_OPTIONS.profile)}, maxBytes: ${String(PARSE_OPTIONS.maxBytes)} }`;
const CHILD = `
import { readFileSync } from "node:fs";
const [wasm, body, urls, passes, agent] = process.argv.slice(1);
const { loadEngine } = await import(${JSON.stringify(pathToFileURL(`${root}dist/wasm.js`).href)});
const { parseWith } = await import(${JSON.stringify(pathToFileURL(`${root}dist/robots.js`).href)});
const robots = parseWith(loadEngine(readFileSync(wasm)), readFileSync(body), ${CHILD_PARSE_OPTIONS});
const bytes = readFileSync(urls);
for (let pass = 0; pass <= Number(passes); pass++) robots.classify(bytes, agent);
`;

const NODE_FLAGS = ["--single-threaded", "--no-liftoff", "--no-wasm-tier-up", "--perf-basic-prof", "--max-semi-space-size=64"];

function fail(message: string): never {
  process.stderr.write(`bench/instructions: ${message}\n`);
  process.exit(2);
}

/** Instruction counts by function name for one child run. */
function countRun(wasm: string, files: { body: string; urls: string }, passes: number): Map<string, number> {
  const out = `${work}callgrind.out`;
  const run = spawnSync(
    "valgrind",
    ["--tool=callgrind", "--dump-instr=yes", `--callgrind-out-file=${out}`, process.execPath, ...NODE_FLAGS,
      "--input-type=module", "-e", CHILD, wasm, files.body, files.urls, String(passes), AGENT],
    { encoding: "utf8", maxBuffer: 64 << 20 },
  );
  if (run.status !== 0) fail(`the child under valgrind failed:\n${run.stderr.slice(-2000)}`);
  // valgrind runs the program in its own process: the perf map is named after that pid.
  const mapFile = `/tmp/perf-${run.pid}.map`;
  if (!existsSync(mapFile)) fail(`V8 wrote no perf map (${mapFile})`);
  const counts = chargeToFunctions(readFileSync(out, "utf8"), readCodeRanges(readFileSync(mapFile, "utf8")));
  rmSync(mapFile);
  rmSync(out);
  return counts;
}

interface CodeRange {
  start: number;
  end: number;
  name: string;
}

/** The perf map's code ranges (`start size name`, hex), sorted by start; WASM functions by their own name. */
function readCodeRanges(map: string): CodeRange[] {
  const ranges: CodeRange[] = [];
  for (const line of map.split("\n")) {
    const match = /^([0-9a-f]+) ([0-9a-f]+) (.*)$/.exec(line);
    if (!match) continue;
    const start = parseInt(match[1]!, 16);
    // WASM code is named `JS:<function>-<index>-turbofan`; everything else is JavaScript or V8.
    const wasm = /^JS:(.*)-\d+-turbofan$/.exec(match[3]!);
    ranges.push({ start, end: start + parseInt(match[2]!, 16), name: wasm && !wasm[1]!.includes(" ") ? wasm[1]! : OTHER });
  }
  return ranges.sort((a, b) => a.start - b.start);
}

const OTHER = "(JavaScript, V8 and Node)";

/**
 * Charges the self cost of each instruction address in a callgrind profile (format: `positions:
 * instr line`, addresses absolute or relative to the line before, a `calls=` line followed by the
 * call's inclusive cost, which is skipped) to the code range holding it.
 */
function chargeToFunctions(profile: string, ranges: CodeRange[]): Map<string, number> {
  const counts = new Map<string, number>();
  let address = 0;
  let skipCall = false;
  for (const line of profile.split("\n")) {
    if (line.startsWith("calls=")) {
      skipCall = true;
      continue;
    }
    const first = line.charCodeAt(0);
    // Cost lines start with an address: 0x..., +n, -n or * (the same).
    if (!(first === 48 || first === 43 || first === 45 || first === 42)) continue;
    const [position, , cost] = line.split(" ");
    if (position!.startsWith("0x")) address = parseInt(position!, 16);
    else if (first === 43) address += Number(position!.slice(1));
    else if (first === 45) address -= Number(position!.slice(1));
    if (skipCall) {
      skipCall = false;
      continue;
    }
    const name = rangeAt(ranges, address)?.name ?? OTHER;
    counts.set(name, (counts.get(name) ?? 0) + Number(cost ?? 0));
  }
  return counts;
}

function rangeAt(ranges: CodeRange[], address: number): CodeRange | undefined {
  let lo = 0;
  let hi = ranges.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ranges[mid]!.start <= address) lo = mid + 1;
    else hi = mid;
  }
  const range = ranges[lo - 1];
  return range && address < range.end ? range : undefined;
}

/** Instructions per URL by function: the passes' run minus the warm-up's, per URL classified. */
function perUrl(wasm: string, files: { body: string; urls: string }, urls: number): Map<string, number> {
  const warm = countRun(wasm, files, 0);
  const full = countRun(wasm, files, PASSES);
  const result = new Map<string, number>();
  for (const [name, count] of full) result.set(name, (count - (warm.get(name) ?? 0)) / (PASSES * urls));
  return result;
}

function namedReleaseBuild(): string {
  const out = `${work}release-named.wasm`;
  execFileSync(`${root}node_modules/.bin/asc`, ["assembly/index.ts", "--target", "release", "--debug", "--outFile", out], { cwd: root, stdio: "inherit" });
  return out;
}

function workload(name: string): Workload {
  const spec = GENERATED.find((candidate) => candidate.name === name);
  if (spec) return generatedWorkload(spec, URL_COUNT);
  if (name.startsWith("corpus-")) return corpusWorkload(name.slice("corpus-".length), URL_COUNT);
  fail(`no workload ${name} (generated: ${GENERATED.map((candidate) => candidate.name).join(", ")}; or corpus-NNNN)`);
}

if (spawnSync("valgrind", ["--version"]).status !== 0) fail("valgrind is not installed (Debian: apt-get install valgrind)");
if (!existsSync(`${root}dist/robots.js`)) fail("dist/ is missing: run `npm run build` first");
mkdirSync(work, { recursive: true });
const builds = process.argv.slice(2);
if (builds.length === 0) builds.push(namedReleaseBuild());

for (const name of ONLY) {
  const load = workload(name);
  const files = { body: `${work}${name}.robots.txt`, urls: `${work}${name}.urls.txt` };
  writeFileSync(files.body, load.body);
  writeFileSync(files.urls, load.bytes);
  process.stderr.write(`${name}: ${load.description}; ${formatInteger(load.urls.length)} URLs, ${PASSES} passes per build under valgrind\n`);
  const columns = builds.map((build) => perUrl(build, files, load.urls.length));
  const names = [...new Set(columns.flatMap((column) => [...column.keys()]))]
    .filter((fn) => columns.some((column) => Math.abs(column.get(fn) ?? 0) >= 0.5))
    .sort((a, b) => (columns[0]!.get(b) ?? 0) - (columns[0]!.get(a) ?? 0));
  const total = (column: Map<string, number>) => [...column].filter(([fn]) => fn !== OTHER).reduce((sum, [, count]) => sum + count, 0);
  const rows = [["instructions per URL", ...builds.map((build) => basename(build))]];
  for (const fn of names) rows.push([fn, ...columns.map((column) => (column.get(fn) ?? 0).toFixed(1))]);
  rows.push(["WASM in all", ...columns.map((column) => total(column).toFixed(0))]);
  console.log(`\n## ${name}: ${load.description}`);
  console.log(textTable(rows));
}
