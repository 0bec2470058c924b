/** `robots check`: streams URLs (one per line) through a compiled robots.txt. */
import { createReadStream, readFileSync } from "node:fs";
import type { Readable, Writable } from "node:stream";
import { parseArgs } from "node:util";
import { init, Robots } from "../index.js";
import type { Profile } from "../types.js";
import { CliError } from "./cli-error.js";

export const CHECK_HELP = `Usage: robots check --robots FILE --agent NAME [options] [URLS_FILE|-]

Classifies URLs, one per line, from URLS_FILE or standard input ("-" or no file), and prints one
tab-separated line per URL: "allowed" or "disallowed", the URL, and the matching robots.txt line
(0 when no rule matched). A summary goes to standard error.

Options:
  --robots FILE       The robots.txt file (required)
  --agent NAME        The crawler's user-agent token (required; repeat to merge several agents' groups)
  --profile NAME      google (default: Google's reference parser) or rfc9309 (the RFC's text)
  --max-bytes N       Bytes of robots.txt to read (default 512000; "Infinity" for no limit)
  -q, --quiet         No summary on standard error
  -h, --help          Show this help

Examples:
  robots check --robots examples/robots.txt --agent Googlebot examples/urls.txt
  cat urls.txt | robots check --robots robots.txt --agent Bingbot - | grep ^disallowed
`;

/** Bytes read from the URL stream before a batch is classified. */
const READ_CHUNK_BYTES = 4 << 20;

interface CheckOptions {
  robotsFile: string;
  agents: string[];
  profile: Profile;
  maxBytes: number;
  quiet: boolean;
  urlsFile: string;
}

function parseCheckArgs(args: string[]): CheckOptions | "help" {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: {
        robots: { type: "string" },
        agent: { type: "string", multiple: true },
        profile: { type: "string", default: "google" },
        "max-bytes": { type: "string", default: "512000" },
        quiet: { type: "boolean", short: "q", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
    });
  } catch (error) {
    throw new CliError(`check: ${(error as Error).message}`);
  }
  const { values, positionals } = parsed;
  if (values.help) return "help";
  if (values.robots === undefined) throw new CliError("check: --robots FILE is required");
  if (values.agent === undefined || values.agent.length === 0) throw new CliError("check: --agent NAME is required");
  if (values.profile !== "google" && values.profile !== "rfc9309") {
    throw new CliError(`check: --profile must be google or rfc9309, got "${values.profile}"`);
  }
  const maxBytes = values["max-bytes"] === "Infinity" ? Infinity : Number(values["max-bytes"]);
  if (!(maxBytes === Infinity || (Number.isSafeInteger(maxBytes) && maxBytes >= 0))) {
    throw new CliError(`check: --max-bytes must be a non-negative integer or Infinity, got "${values["max-bytes"]}"`);
  }
  if (positionals.length > 1) throw new CliError(`check: one URL file at most, got ${positionals.length}`);
  return {
    robotsFile: values.robots,
    agents: values.agent,
    profile: values.profile,
    maxBytes,
    quiet: values.quiet,
    urlsFile: positionals[0] ?? "-",
  };
}

function readRobots(file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (error) {
    throw new CliError(`check: cannot read robots.txt "${file}": ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

function openUrls(file: string): Readable {
  if (file === "-") return process.stdin;
  const stream = createReadStream(file, { highWaterMark: READ_CHUNK_BYTES });
  stream.on("error", () => undefined); // reported by the reading loop
  return stream;
}

/** Writes and waits when the destination asks for it, so memory stays flat on slow pipes. */
function write(out: Writable, data: Uint8Array): Promise<void> | undefined {
  if (out.write(data)) return undefined;
  return new Promise((resolve) => out.once("drain", resolve));
}

/** Longest prefix of an output line: "disallowed\t" + "\t" + 10 digits + "\n". */
const MAX_LINE_OVERHEAD = 24;
const ALLOWED = Buffer.from("allowed\t");
const DISALLOWED = Buffer.from("disallowed\t");

/** Formats one classified batch of complete lines as TSV. */
function formatBatch(batch: Buffer, allowed: Uint8Array, lines: Uint32Array): Buffer {
  const out = Buffer.allocUnsafe(batch.length + allowed.length * MAX_LINE_OVERHEAD);
  let at = 0;
  let start = 0;
  for (let i = 0; i < allowed.length; i++) {
    let end = batch.indexOf(0x0a, start);
    if (end < 0) end = batch.length;
    const next = end + 1;
    if (end > start && batch[end - 1] === 0x0d) end--;
    at += (allowed[i] ? ALLOWED : DISALLOWED).copy(out, at);
    at += batch.copy(out, at, start, end);
    out[at++] = 0x09;
    at += out.write(String(lines[i]), at, "latin1");
    out[at++] = 0x0a;
    start = next;
  }
  return out.subarray(0, at);
}

export async function runCheck(args: string[]): Promise<number> {
  const options = parseCheckArgs(args);
  if (options === "help") {
    process.stdout.write(CHECK_HELP);
    return 0;
  }
  const body = readRobots(options.robotsFile);
  await init();
  const robots = Robots.parse(body, { profile: options.profile, maxBytes: options.maxBytes });
  const started = performance.now();
  let total = 0;
  let allowedCount = 0;
  let pending: Buffer = Buffer.alloc(0);

  const classify = async (batch: Buffer): Promise<void> => {
    const { allowed, lines } = robots.classifyWithLines(batch, options.agents);
    total += allowed.length;
    for (let i = 0; i < allowed.length; i++) allowedCount += allowed[i];
    await write(process.stdout, formatBatch(batch, allowed, lines));
  };

  try {
    for await (const chunk of openUrls(options.urlsFile) as AsyncIterable<Buffer>) {
      const data = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      const lastNewline = data.lastIndexOf(0x0a);
      if (lastNewline < 0) {
        pending = data;
        continue;
      }
      pending = data.subarray(lastNewline + 1);
      await classify(data.subarray(0, lastNewline + 1));
    }
    if (pending.length > 0) await classify(pending);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "EACCES" || code === "EISDIR") {
      throw new CliError(`check: cannot read URLs from "${options.urlsFile}": ${code}`);
    }
    throw error;
  } finally {
    robots.dispose();
  }

  if (!options.quiet) {
    const seconds = (performance.now() - started) / 1000;
    const rate = seconds > 0 ? Math.round(total / seconds) : total;
    process.stderr.write(
      `robots check: ${total} URLs, ${allowedCount} allowed, ${total - allowedCount} disallowed ` +
        `in ${seconds.toFixed(3)} s (${rate.toLocaleString("en-US")} URLs/s)\n`,
    );
  }
  return 0;
}
