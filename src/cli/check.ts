/** `robots check`: streams URLs (one per line) through a compiled robots.txt, in constant memory. */
import { createReadStream, fstatSync, statSync } from "node:fs";
import type { Readable } from "node:stream";
import { parseArgs } from "node:util";
import { commandConfig, loadRobots, parseCommand, parseOptions, PARSE_OPTIONS, PARSE_OPTIONS_HELP, requireAgents, wholeNumber } from "./args.js";
import { CHECK_FETCH_HELP, checkFetchOptions, fetchClassifier } from "./check-fetch.js";
import { formatBatch, formatCounts, ruleTexts, type CheckFormat, type RuleTexts } from "./check-output.js";
import { FETCH_OPTIONS } from "./fetch.js";
import { CliError } from "./cli-error.js";
import { grouped, plural } from "./format.js";
import { lineBatches } from "./line-batches.js";
import { write } from "./write.js";
import { Progress } from "./progress.js";
import { sourceLines } from "../index.js";
import { MAX_POOL_WORKERS, RobotsWorkerPool } from "../parallel.js";
import type { BatchResult, ParseOptions } from "../types.js";
import { MAX_URL_BYTES, overlongLine } from "../options.js";

export const CHECK_HELP = `Usage: robots check --robots FILE --agent NAME [options] [URLS_FILE|-]
       robots check --fetch --agent NAME [options] [URLS_FILE|-]

Classifies URLs, one per line, from URLS_FILE or standard input ("-" or no file), and prints one
tab-separated line per URL: "allowed" or "disallowed", the URL, and the matching robots.txt line
(0 when no rule matched). URLs are written as read (one CR before the LF removed): a tab or a
CR inside one (no valid URL holds either) stays, a tab adding a column, the verdict staying
first and the line (then --rule's text) last; jsonl decodes them as UTF-8, bytes that are not
UTF-8 becoming U+FFFD. It streams: millions of URLs in
constant memory, so it works as a Unix filter and as the mapper of Hadoop Streaming or Spark's
pipe(). A summary goes to standard error, and on a terminal a progress line (URLs, URLs/s, and
the time left when the input size is known) while the results go to a file or a pipe (or with
--count). A UTF-8 byte-order mark on the URL list is skipped; a UTF-16 list is refused. Every
line is a URL, a blank one too (the empty URL: path "/"), so that output line n answers input
line n; filter blank lines out first (grep .) when the counts should leave them out.

Options:
  --robots FILE       The robots.txt file (required; "-" reads it from standard input)
${CHECK_FETCH_HELP}
  --agent NAME        The crawler's user-agent token (required; repeat to merge several agents' groups)
  --format FORMAT     tsv (default) or jsonl: {"url":...,"allowed":true,"line":12}
  --count             Print only the counts of allowed and disallowed URLs (jsonl: one object,
                      { urls, allowed, disallowed })
  --rule              Add the text of the matching robots.txt line (TSV column or "rule" field)
  --workers N         Classify on N worker threads, 1 to 256 (same output, same order)
${PARSE_OPTIONS_HELP}
  -q, --quiet         No summary or progress on standard error
  -h, --help          Show this help

Examples:
  robots check --robots robots.txt --agent Googlebot urls.txt
  grep . urls.txt | robots check --robots robots.txt --agent Bingbot - | grep ^disallowed
  robots check --robots robots.txt --agent Googlebot --format jsonl --rule urls.txt
  robots check --robots robots.txt --agent Googlebot --count -q urls.txt
  robots check --fetch --agent ExampleBot --user-agent "ExampleBot/1.0" urls-of-many-sites.txt
`;

/** Bytes read from a URL file at a time (per worker with --workers N). */
const READ_CHUNK_BYTES = 4 << 20;
/**
 * Least bytes per batch: small reads (a pipe's 64 KiB) are gathered to this on one thread, and to
 * READ_CHUNK_BYTES per worker, up to MAX_BATCH_WORKERS workers, for a pool (its parts of 512 KiB or
 * more). One thread's batches stay small, and so do the engine's scratch and the output: 1,000,000
 * piped URLs peak at about 100 MB with 256 KiB, and took 107 MB with 1 MiB.
 */
const ONE_THREAD_BATCH_BYTES = 256 << 10;
const MAX_BATCH_WORKERS = 4;

/** Classifies one batch of complete lines; the single-thread engine or a worker pool. */
interface BatchClassifier {
  classifyWithLines(batch: Uint8Array): BatchResult | Promise<BatchResult>;
  /** Verdicts alone, for --count: the engine then skips the matching lines (a fifth of the 2 KB file's time). */
  classify(batch: Uint8Array): Uint8Array | Promise<Uint8Array>;
  close(): void | Promise<void>;
}

interface CheckOptions {
  robotsFile: string;
  /** With --fetch: the cache options; each URL is decided by its own site's robots.txt. */
  fetch: ReturnType<typeof checkFetchOptions>;
  agents: string[];
  format: CheckFormat;
  count: boolean;
  rule: boolean;
  workers: number;
  quiet: boolean;
  urlsFile: string;
}

function parseCheckArgs(args: string[]) {
  const { values, positionals } = parseCommand("check", () =>
    parseArgs(
      commandConfig(args, {
        ...PARSE_OPTIONS,
      robots: { type: "string" },
      fetch: { type: "boolean", default: false },
      ...FETCH_OPTIONS,
      agent: { type: "string", multiple: true },
      format: { type: "string", default: "tsv" },
      count: { type: "boolean", default: false },
      rule: { type: "boolean", default: false },
      workers: { type: "string", default: "1" },
      quiet: { type: "boolean", short: "q", default: false },
      }),
    ),
  );
  if (values.help) return "help";
  const fetch = checkFetchOptions(values);
  if (values.robots === undefined && fetch === undefined) throw new CliError("check: --robots FILE is required");
  const agents = requireAgents("check", values.agent);
  const parse = parseOptions("check", values);
  if (values.format !== "tsv" && values.format !== "jsonl") throw new CliError(`check: --format must be tsv or jsonl, got "${values.format}"`);
  const workers = wholeNumber(values.workers);
  if (!(workers >= 1 && workers <= MAX_POOL_WORKERS)) throw new CliError(`check: --workers must be an integer from 1 to ${MAX_POOL_WORKERS}, got "${values.workers}"`);
  if (values.rule && values.count) throw new CliError("check: --rule adds a column to each URL's line, which --count does not print");
  if (positionals.length > 1) throw new CliError(`check: one URL file at most, got ${positionals.length}`);
  if (values.robots !== undefined && readsStandardInput(values.robots) && readsStandardInput(positionals[0] ?? "-")) {
    throw new CliError("check: the robots.txt and the URLs cannot both come from standard input");
  }
  const options: CheckOptions = {
    robotsFile: values.robots ?? "", // unused with --fetch
    fetch,
    agents,
    format: values.format,
    count: values.count,
    rule: values.rule,
    workers,
    quiet: values.quiet,
    urlsFile: positionals[0] ?? "-",
  };
  return { options, parse };
}

function openUrls(file: string, batchBytes: number): Readable {
  // Node reads a directory on standard input as an empty stream: refused as a named one is.
  if (file === "-" && isDirectory(0)) throw new CliError('check: cannot read URLs from "-": EISDIR');
  if (file === "-") return process.stdin;
  const stream = createReadStream(file, { highWaterMark: Math.max(READ_CHUNK_BYTES, batchBytes) });
  stream.on("error", () => undefined); // reported by the reading loop
  return stream;
}

function isDirectory(fd: number): boolean {
  try {
    return fstatSync(fd).isDirectory();
  } catch {
    return false;
  }
}

/** Size of the URL input when it is a regular file (named, or redirected to standard input). */
function inputSize(file: string): number | undefined {
  try {
    const stats = file === "-" ? fstatSync(0) : statSync(file);
    return stats.isFile() ? stats.size : undefined;
  } catch {
    return undefined; // the reading loop reports an unreadable file
  }
}


function plainView(batch: Uint8Array): Uint8Array {
  return new Uint8Array(batch.buffer, batch.byteOffset, batch.byteLength);
}

/** `--workers N`: each batch is cut at line ends across N worker threads; results come back in input order. */
async function workerClassifier(body: Buffer, parse: ParseOptions, options: CheckOptions): Promise<BatchClassifier> {
  const pool = await RobotsWorkerPool.create(body, { ...parse, workers: options.workers });
  return {
    // A plain Uint8Array view of the stream's chunk: the pool copies it into its shared memory.
    classifyWithLines: (batch) => pool.classifyWithLines(plainView(batch), options.agents),
    classify: (batch) => pool.classify(plainView(batch), options.agents),
    close: () => pool.close(),
  };
}

export async function runCheck(args: string[]): Promise<number> {
  const parsed = parseCheckArgs(args);
  if (parsed === "help") {
    process.stdout.write(CHECK_HELP);
    return 0;
  }
  const { options, parse } = parsed;
  let classifier: BatchClassifier;
  let rules: RuleTexts | undefined;
  if (options.fetch !== undefined) {
    const fetching = fetchClassifier(options.agents, options.fetch, options.quiet ? undefined : process.stderr);
    classifier = { ...fetching, classify: async (batch) => (await fetching.classifyWithLines(batch)).allowed };
  } else {
    const { body, robots } = await loadRobots("check", options.robotsFile, parse);
    rules = options.rule ? ruleTexts(sourceLines(body, parse)) : undefined;
    if (options.workers > 1) {
      robots.dispose();
      classifier = await workerClassifier(body, parse, options);
    } else {
      classifier = {
        classifyWithLines: (batch) => robots.classifyWithLines(batch, options.agents),
        classify: (batch) => robots.classify(batch, options.agents),
        close: () => robots.dispose(),
      };
    }
  }

  // Not while results go to the terminal too: its redraws would run into them.
  const resultsOnTerminal = process.stdout.isTTY === true && !options.count;
  // A dumb terminal shows the redraws' escape codes as they are.
  const drawable = process.stderr.isTTY === true && process.env.TERM !== "dumb";
  const progress = options.quiet || !drawable || resultsOnTerminal ? undefined : new Progress(process.stderr, inputSize(options.urlsFile));
  const started = performance.now();
  let total = 0;
  let allowedCount = 0;
  try {
    const batchBytes = options.workers > 1 ? READ_CHUNK_BYTES * Math.min(options.workers, MAX_BATCH_WORKERS) : ONE_THREAD_BATCH_BYTES;
    for await (const { batch, bytesRead } of lineBatches(openUrls(options.urlsFile, batchBytes), options.urlsFile, batchBytes)) {
      const overlong = overlongLine(batch);
      if (overlong >= 0) {
        throw new CliError(`check: line ${total + overlong + 1} of "${options.urlsFile}" is longer than ${MAX_URL_BYTES} bytes, more than a URL may be: is it a list of URLs, one per line?`);
      }
      let allowed: Uint8Array;
      if (options.count) {
        allowed = await classifier.classify(batch);
      } else {
        const result = await classifier.classifyWithLines(batch);
        allowed = result.allowed;
        for (const part of formatBatch(options.format, batch, result, rules)) await write(process.stdout, part);
      }
      total += allowed.length;
      allowedCount += countAllowed(allowed);
      progress?.update(total, bytesRead);
    }
  } finally {
    progress?.clear();
    await classifier.close();
  }
  if (options.count) await write(process.stdout, formatCounts(options.format, total, allowedCount));

  if (!options.quiet) {
    const seconds = (performance.now() - started) / 1000;
    const rate = seconds > 0 ? Math.round(total / seconds) : total;
    process.stderr.write(
      `robots check: ${plural(total, "URL")}, ${grouped(allowedCount)} allowed, ${grouped(total - allowedCount)} disallowed ` +
        `in ${seconds.toFixed(3)} s (${grouped(rate)} URLs/s)\n`,
    );
  }
  return 0;
}

function countAllowed(allowed: Uint8Array): number {
  let count = 0;
  for (let i = 0; i < allowed.length; i++) count += allowed[i];
  return count;
}

/** `-`, or a name of the process's standard input (which the two inputs of check cannot share). */
function readsStandardInput(file: string): boolean {
  return file === "-" || file === "/dev/stdin" || file === "/dev/fd/0" || file === "/proc/self/fd/0";
}
