/**
 * `robots check --fetch`: URLs of many sites, each decided by its own robots.txt, fetched once
 * per origin through a `RobotsCache`. It plugs into `robots check` as a batch classifier, so
 * every output format of `check` works unchanged.
 */
import { type CrawlBatchResult, type CrawlReason, type RobotsCacheOptions } from "../index.js";
import type { AgentQuery, BatchResult } from "../types.js";
import { requestablePage } from "../cache.js";
import { platformFetch } from "../crawler-options.js";
import { parseOptions } from "./args.js";
import { CliError } from "./cli-error.js";
import { cacheOptions, commandCache, FETCH_OPTIONS } from "./fetch.js";

export const CHECK_FETCH_HELP = `  --fetch             Decide each URL by its own site's robots.txt, fetched once per origin and
                      cached, instead of --robots (a line that is not an http or https URL, or
                      is longer than 16 MiB once percent-encoded, is disallowed, line 0; a
                      summary of the reasons goes to standard error)
  --user-agent TEXT   With --fetch: the User-Agent header sent (default "robots-wasm")
  --timeout MS        With --fetch: time for each robots.txt fetch (default 30000)
  --connect-timeout MS  With --fetch: time until the response headers arrive (default 10000)
  --on-429 OUTCOME    With --fetch: unreachable (default, as Google) or unavailable
  --on-network-failure OUTCOME
                      With --fetch: unreachable (default, disallow all) or unavailable (allow all)
                      for network failures and timeouts. With --fetch, --max-bytes is the body
                      bytes read, at least 512000 (RFC 9309 2.5), not Infinity`;

type CheckValues = { [K in keyof typeof FETCH_OPTIONS]?: string } & {
  fetch?: boolean;
  robots?: string;
  rule?: boolean;
  workers?: string;
  profile?: string;
  "max-bytes"?: string;
};

/** The cache options of `check --fetch`, or undefined without `--fetch`; options that do not go with it throw. */
export function checkFetchOptions(values: CheckValues): RobotsCacheOptions | undefined {
  if (!values.fetch) {
    const stray = (Object.keys(FETCH_OPTIONS) as (keyof typeof FETCH_OPTIONS)[]).find((name) => values[name] !== undefined);
    if (stray !== undefined) throw new CliError(`check: --${stray} needs --fetch`);
    return undefined;
  }
  if (values.robots !== undefined) throw new CliError("check: --fetch and --robots cannot be used together");
  if (values.rule) throw new CliError("check: --rule needs --robots (with --fetch every site has its own file)");
  if (values.workers !== undefined && values.workers !== "1") throw new CliError("check: --workers does not apply to --fetch");
  return { ...cacheOptions("check", values), ...parseOptions("check", values) };
}

/** Why a line got its verdict, counted for the summary. */
type Tally = Partial<Record<CrawlReason | "not-a-url", number>>;

export interface FetchClassifier {
  classifyWithLines(batch: Uint8Array): Promise<BatchResult>;
  /** Frees the cache; writes the reasons' counts to `summary` unless it is undefined. */
  close(): void;
}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * Lines of a batch as the engine counts them: split at LF, one trailing CR removed, none after a
 * final LF. A line that is not UTF-8 has its bytes >= 0x80 written as `%XX`: the bytes an HTTP
 * client requests for it, as `--robots` in the rfc9309 profile matches them (a decoder would make
 * an invalid byte U+FFFD, requested as `%EF%BF%BD`). Valid characters get the same `%XX` as the
 * URL parser gives them; in a host it decodes them back.
 */
function linesOf(batch: Uint8Array): string[] {
  if (batch.length === 0) return [];
  const ends: number[] = [];
  for (let at = batch.indexOf(0x0a); at !== -1; at = batch.indexOf(0x0a, at + 1)) ends.push(at);
  if (batch[batch.length - 1] !== 0x0a) ends.push(batch.length);
  let start = 0;
  return ends.map((end) => {
    const line = batch.subarray(start, end > start && batch[end - 1] === 0x0d ? end - 1 : end);
    start = end + 1;
    try {
      return utf8.decode(line);
    } catch {
      let text = "";
      for (const byte of line) text += byte < 0x80 ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase()}`;
      return text;
    }
  });
}

/**
 * Whether the cache takes the line, by its own check: a URL it can fetch the robots.txt of (the
 * platform fetch has no ftp) and no longer than a request may be. Made here, because one URL the
 * cache refuses refuses its whole batch.
 */
function fetchable(line: string): boolean {
  try {
    requestablePage(line, platformFetch());
    return true;
  } catch {
    return false;
  }
}

export function fetchClassifier(agents: AgentQuery, options: RobotsCacheOptions, summary: NodeJS.WritableStream | undefined): FetchClassifier {
  const cache = commandCache("check", options);
  const tally: Tally = {};
  const count = (reason: keyof Tally, times = 1) => {
    tally[reason] = (tally[reason] ?? 0) + times;
  };
  return {
    async classifyWithLines(batch) {
      const lines = linesOf(batch);
      const usable: number[] = [];
      lines.forEach((line, i) => (fetchable(line) ? usable.push(i) : count("not-a-url")));
      // Lines that are not URLs stay disallowed with line 0.
      const allowed = new Uint8Array(lines.length);
      const numbers = new Uint32Array(lines.length);
      const decide = (indices: number[], result: CrawlBatchResult) => indices.forEach((line, k) => {
        allowed[line] = result.allowed[k];
        numbers[line] = result.lines[k];
        count(result.reasons[k]);
      });
      decide(usable, await cache.classify(usable.map((i) => lines[i]), agents));
      return { allowed, lines: numbers };
    },
    close() {
      cache.clear();
      const counts = Object.entries(tally).map(([reason, times]) => `${times} ${reason}`);
      if (summary !== undefined && counts.length > 0) summary.write(`robots check --fetch: ${counts.join(", ")}\n`);
    },
  };
}
