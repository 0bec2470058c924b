/** `robots fetch URL`: fetches a site's robots.txt as a crawler would and shows what follows from it. */
import { parseArgs } from "node:util";
import { COMMON_OPTIONS, parseCommand, positionalArgs, wholeNumber } from "./args.js";
import { CliError } from "./cli-error.js";
import { jsonText, printableDeep } from "./format.js";
import { isRobotsError, RobotsCache } from "../index.js";
import type { CrawlExplanation, RobotsCacheOptions, RobotsFetchInfo, RobotsOriginState } from "../index.js";

export const FETCH_HELP = `Usage: robots fetch [options] URL

Fetches the robots.txt that governs URL (any page of the site) the way RobotsCache does, and
prints the robots.txt URL, the outcome of the fetch (HTTP status, redirects, bytes, or the
network error), the policy that follows (the file's rules, allow all for 4xx, disallow all for
5xx and network failures, which include a proxy's 407) and when a cache would fetch it again.
With --agent, also the verdict for URL. The exit code is 0 whatever the outcome; 2 on bad
arguments.

Options:
  --agent NAME            Also decide URL for this user-agent token (repeat to merge groups)
  --user-agent TEXT       The User-Agent header sent (default "robots-wasm")
  --timeout MS            Time for the whole fetch, redirects and body (default 30000)
  --connect-timeout MS    Time until the response headers arrive (default 10000)
  --max-bytes N           Body bytes read, at least 512000 (default 512000)
  --on-429 OUTCOME        unreachable (default, as Google) or unavailable (as RFC 9309's 4xx)
  --on-network-failure OUTCOME
                          unreachable (default, RFC 9309: disallow all) or unavailable (allow all)
                          for network failures and timeouts
  --profile NAME          google (default: Google's reference parser) or rfc9309 (the RFC's text)
  --json                  Print the state (and the verdict) as JSON
  -h, --help              Show this help

Examples:
  robots fetch https://www.example.com/
  robots fetch https://www.example.com/private/page --agent Googlebot
  robots fetch --json --user-agent "ExampleBot/1.0 (+https://example.com/bot)" https://example.com
`;

/** Options shared with `robots check --fetch`: how robots.txt files are fetched. */
export const FETCH_OPTIONS = {
  "user-agent": { type: "string" },
  timeout: { type: "string" },
  "connect-timeout": { type: "string" },
  "on-429": { type: "string" },
  "on-network-failure": { type: "string" },
} as const;

/** The fetch options of the command line as `RobotsCache` options (validated by the cache). */
export function cacheOptions(command: string, values: { [K in keyof typeof FETCH_OPTIONS | "max-bytes"]?: string }): RobotsCacheOptions {
  const milliseconds = (name: string, text: string | undefined): number | undefined => {
    if (text === undefined) return undefined;
    const value = wholeNumber(text);
    // 0 would fail every fetch before it began.
    if (!(value >= 1)) throw new CliError(`${command}: --${name} must be a positive whole number of milliseconds, got "${text}"`);
    return value;
  };
  const maxBytes = values["max-bytes"] === undefined ? undefined : wholeNumber(values["max-bytes"]);
  // The range (at least the RFC's 512000) is the cache's to check; that the text is a number, ours.
  if (Number.isNaN(maxBytes)) throw new CliError(`${command}: --max-bytes must be a whole number of bytes, got "${values["max-bytes"]}"`);
  return {
    userAgent: values["user-agent"],
    totalTimeout: milliseconds("timeout", values.timeout),
    connectTimeout: milliseconds("connect-timeout", values["connect-timeout"]),
    maxBytes,
    on429: values["on-429"] as RobotsCacheOptions["on429"],
    onNetworkFailure: values["on-network-failure"] as RobotsCacheOptions["onNetworkFailure"],
  };
}

/** The command-line names of the cache options that the cache itself validates. */
const FLAGS: Record<string, string> = {
  on429: "--on-429", onNetworkFailure: "--on-network-failure", maxBytes: "--max-bytes", profile: "--profile", userAgent: "--user-agent",
  totalTimeout: "--timeout", connectTimeout: "--connect-timeout",
};

/** A cache for the command line; option errors become one-line CLI errors naming the flag. */
export function commandCache(command: string, options: RobotsCacheOptions): RobotsCache {
  // Unset options take the cache's defaults.
  const given = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
  try {
    return new RobotsCache(given);
  } catch (error) {
    if (!isRobotsError(error)) throw error;
    throw new CliError(`${command}: ${error.message.replace(/^\w+/, (name) => FLAGS[name] ?? name)}`);
  }
}

export async function runFetch(args: string[]): Promise<number> {
  const { values, positionals } = parseCommand("fetch", () =>
    parseArgs({
      args,
      allowPositionals: true,
      options: {
        ...COMMON_OPTIONS,
        ...FETCH_OPTIONS,
        agent: { type: "string", multiple: true },
        "max-bytes": { type: "string" },
        profile: { type: "string" },
        json: { type: "boolean", default: false },
      },
    }),
  );
  if (values.help) {
    process.stdout.write(FETCH_HELP);
    return 0;
  }
  const [url] = positionalArgs("fetch", positionals, ["URL"]);
  const cache = commandCache("fetch", {
    ...cacheOptions("fetch", values),
    profile: values.profile as RobotsCacheOptions["profile"],
  });
  let state: RobotsOriginState;
  let verdict: CrawlExplanation | undefined;
  try {
    state = await cache.describe(url);
    verdict = values.agent === undefined ? undefined : await cache.explain(url, values.agent);
  } catch (error) {
    // A URL without a fetchable robots.txt is a bad argument; failed fetches are outcomes, not errors.
    if (isRobotsError(error) && error.code === "ROBOTS_ERR_UNSUPPORTED_SCHEME" && /^\s*ftp:/i.test(url)) {
      // The library's advice (pass a `fetch` that can) is for code, not for the command line.
      throw new CliError(`fetch: cannot fetch ftp URLs: only http and https (${JSON.stringify(url)})`);
    }
    if (isRobotsError(error)) throw new CliError(`fetch: ${error.message}`);
    throw error;
  } finally {
    cache.clear();
  }
  if (values.json) process.stdout.write(`${jsonText({ ...state, ...(verdict && { verdict }) }, 2)}\n`);
  else process.stdout.write(formatState(printableDeep(state), printableDeep(verdict), printableDeep(values.agent), Date.now()));
  return 0;
}

function formatState(state: RobotsOriginState, verdict: CrawlExplanation | undefined, agents: string[] | undefined, now: number): string {
  const rows: [string, string][] = [
    ["robots.txt", state.robotsUrl],
    ["outcome", outcomeText(state.fetch)],
  ];
  if (state.fetch.redirects > 0) rows.push(["redirects", `${state.fetch.redirects}, to ${state.fetch.finalUrl}`]);
  rows.push(["policy", policyText(state)]);
  if (state.sitemaps.length > 0) rows.push(["sitemaps", state.sitemaps.join(" ")]);
  rows.push(["expires", `${new Date(state.expiresAt).toISOString()} (in ${durationText(state.expiresAt - now)})`]);
  if (verdict !== undefined) rows.push(["verdict", verdictText(verdict, agents!)]);
  return rows.map(([label, value]) => `${`${label}:`.padEnd(12)}${value}\n`).join("");
}

function outcomeText(fetch: RobotsFetchInfo): string {
  const reason = fetch.reason === fetch.outcome ? "" : ` (${fetch.reason})`;
  const bytes = fetch.outcome === "ok" ? `, ${fetch.bytes} bytes` : "";
  return `${fetch.outcome}${reason}: ${fetch.detail}${bytes}`;
}

function policyText(state: RobotsOriginState): string {
  switch (state.policy) {
    case "rules":
      return `the file's rules (${state.groups} group${state.groups === 1 ? "" : "s"})`;
    case "allow-all":
      return `allow all (${allowAllWhy(state.fetch)})`;
    case "disallow-all":
      return "disallow all (robots.txt unreachable: retry later)";
  }
}

/** Why everything is allowed: no file, or a failure the options count as no file. */
function allowAllWhy(fetch: RobotsFetchInfo): string {
  if (fetch.outcome === "unreachable") return "unreachable past the limit";
  if (fetch.reason === "redirect-limit" || fetch.reason === "redirect-loop") return "too many redirects";
  if (fetch.reason === "network-error" || fetch.reason === "timeout") return "fetch failed, counted as unavailable";
  if (fetch.reason === "rate-limited") return "429 counted as unavailable";
  if (fetch.reason === "redirect-invalid") return "a redirect that cannot be followed";
  return "no robots.txt";
}

function verdictText(verdict: CrawlExplanation, agents: string[]): string {
  const word = verdict.allowed ? "allowed" : "disallowed";
  const why = verdict.rule === undefined
    ? verdict.reason
    : `line ${verdict.line}: ${verdict.rule.kind === "allow" ? "Allow" : "Disallow"} ${verdict.rule.pattern}`;
  return `${word} for ${agents.join(", ")} (${why})`;
}

function durationText(ms: number): string {
  const minutes = Math.max(0, Math.round(ms / 60_000));
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
}
