/** `robots allowed FILE AGENT URL`: the exit code says it (0 allowed, 1 disallowed), as Google's `robots` binary does. */
import { parseArgs } from "node:util";
import { commandConfig, loadRobots, parseCommand, parseOptions, PARSE_OPTIONS, PARSE_OPTIONS_HELP, positionalArgs } from "./args.js";
import { CliError } from "./cli-error.js";
import { printable } from "./format.js";
import { URL_OR_HOST } from "../lint/lines.js";

export const ALLOWED_HELP = `Usage: robots allowed [options] FILE AGENT URL

Exits 0 if AGENT may fetch URL under the robots.txt FILE ("-" for standard input), 1 if not,
and prints one line saying so, as Google's reference "robots" binary does. Conformance runners
(google/robotstxt-spec-test) and shell scripts can drive it directly. Exit code 2 means bad
arguments or an unreadable file; an AGENT that looks like a URL (it starts with "/" or a scheme
and "://", or it is a host and path and URL holds no "/": the arguments are swapped) is a bad
argument.

Options:
  -q, --quiet         Print nothing; only the exit code answers
${PARSE_OPTIONS_HELP}
  -h, --help          Show this help

Examples:
  robots allowed robots.txt Googlebot https://example.com/private/x && echo crawl
  robots allowed --profile rfc9309 robots.txt Bingbot '/search?q=x'
`;

export async function runAllowed(args: string[]): Promise<number> {
  const { values, positionals } = parseCommand("allowed", () =>
    parseArgs(
      commandConfig(args, {
        ...PARSE_OPTIONS,
        quiet: { type: "boolean", short: "q", default: false },
      }),
    ),
  );
  if (values.help) {
    process.stdout.write(ALLOWED_HELP);
    return 0;
  }
  const options = parseOptions("allowed", values);
  const [file, agent, url] = positionalArgs("allowed", positionals, ["FILE", "AGENT", "URL"]);
  // `allowed FILE URL AGENT` (explain's order) would answer for an agent no group names, most often
  // "allowed", and exit 0: a script's `&& crawl` would crawl a blocked URL. A host and path
  // (`www.example.com/x`) counts when the URL argument has no `/`: agents such as `Validator.nu/LV`
  // look like one too.
  if (/^(?:\/|[a-zA-Z][a-zA-Z0-9+.-]*:\/\/)/.test(agent) || (URL_OR_HOST.test(agent) && !url.includes("/"))) {
    throw new CliError(`allowed: AGENT "${printable(agent)}" looks like a URL (the arguments are FILE AGENT URL)`);
  }
  const { robots } = await loadRobots("allowed", file, options);
  const allowed = robots.isAllowed(url, agent);
  robots.dispose();
  if (!values.quiet) process.stdout.write(`user-agent '${printable(agent)}' with URI '${printable(url)}': ${allowed ? "ALLOWED" : "DISALLOWED"}\n`);
  return allowed ? 0 : 1;
}
