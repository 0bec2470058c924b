/** `robots lint FILE`: the robots.txt lint report, as text or JSON. */
import { parseArgs } from "node:util";
import { commandConfig, fileLabel, loadRobots, parseCommand, parseOptions, PARSE_OPTIONS, PARSE_OPTIONS_HELP, positionalArgs } from "./args.js";
import { paletteFor, type Palette } from "./colour.js";
import { clip, groupLines, grouped, jsonPieces, plural, printable, printableDeep } from "./format.js";
import { writePieces } from "./write.js";
import { sourceLines } from "../index.js";
import type { LintAgentSummary, LintFinding, LintReport, LintSeverity } from "../types.js";

export const LINT_HELP = `Usage: robots lint [options] FILE

Checks a robots.txt ("-" for standard input) for what a site owner needs to know: rules that
no crawler reads, paths that never match, user-agent values that are cut, groups that merge
silently, typos Google accepts and others do not, HTML served as robots.txt, encodings, size.
Every finding has its line, a severity (error, warning, info), a code, what is wrong and a fix;
then what each agent named in the file gets (its groups and how many rules).

Exit code: 0 when there is no error, 2 when there is one; with --strict, 1 when there are
warnings but no error. Bad arguments or an unreadable file also exit 2.

Options:
  --json              The report as JSON ({ profile, findings, agents, counts })
  --strict            Exit 1 on warnings
${PARSE_OPTIONS_HELP}
  -h, --help          Show this help

Examples:
  robots lint robots.txt
  curl -s https://example.com/robots.txt | robots lint -
  robots lint --json robots.txt | jq '.findings[] | select(.severity == "error")'
`;

function severityColour(palette: Palette, severity: LintSeverity): (text: string) => string {
  return severity === "error" ? palette.red : severity === "warning" ? palette.yellow : palette.cyan;
}

function formatFinding(label: string, finding: LintFinding, lines: readonly string[], palette: Palette): string {
  const shown = clip(lines[finding.line - 1] ?? "");
  const width = String(finding.line).length;
  return (
    `${palette.bold(`${label}:${finding.line}:`)} ${severityColour(palette, finding.severity)(finding.severity)}: ${finding.message} ${palette.dim(`[${finding.code}]`)}\n` +
    `  ${palette.dim(`${finding.line} |`)} ${shown}\n` +
    `  ${" ".repeat(width)}   ${palette.green("fix:")} ${finding.fix}\n`
  );
}

function formatAgent(agent: LintAgentSummary): string {
  const name = agent.agent === "*" ? "* (every other agent)" : agent.agent;
  if (agent.groups.length === 0) return `  ${name}: no group applies, everything is allowed\n`;
  const merged = agent.groups.length > 1 ? " (merged)" : "";
  const delay = agent.crawlDelay === undefined ? "" : `, crawl-delay ${agent.crawlDelay} s`;
  return `  ${name}: ${groupLines(agent.groups.map((group) => group.line))}${merged}, ${plural(agent.rules, "rule")}${delay}\n`;
}

/** Findings per piece of the text report. */
const FINDINGS_PER_PIECE = 1000;

/** The text report, in pieces of FINDINGS_PER_PIECE findings (writePieces: a file may have millions). */
function* reportPieces(label: string, report: LintReport, lines: readonly string[], palette: Palette): Generator<string> {
  for (let start = 0; start < report.findings.length; start += FINDINGS_PER_PIECE) {
    yield report.findings.slice(start, start + FINDINGS_PER_PIECE).map((finding) => formatFinding(label, finding, lines, palette)).join("");
  }
  if (report.findings.length > 0) yield "\n";
  yield `${palette.bold("Agents")}\n${report.agents.map(formatAgent).join("")}\n`;
  const { error, warning, info } = report.counts;
  yield `${plural(error, "error")}, ${plural(warning, "warning")}, ${grouped(info)} info\n`;
}

export async function runLint(args: string[]): Promise<number> {
  const { values, positionals } = parseCommand("lint", () =>
    parseArgs(
      commandConfig(args, {
        ...PARSE_OPTIONS,
        json: { type: "boolean", default: false },
        strict: { type: "boolean", default: false },
      }),
    ),
  );
  if (values.help) {
    process.stdout.write(LINT_HELP);
    return 0;
  }
  const options = parseOptions("lint", values);
  const [file] = positionalArgs("lint", positionals, ["FILE"]);
  const { body, robots, complete } = await loadRobots("lint", file, { ...options, keepSource: true });
  const report = complete ? robots.lint() : withUnreadSize(robots.lint());
  robots.dispose();
  if (values.json) await writePieces(process.stdout, jsonPieces(report));
  else await writePieces(process.stdout, reportPieces(printable(fileLabel(file)), printableDeep(report), printableDeep(sourceLines(body, options)), paletteFor(process.stdout)));
  if (report.counts.error > 0) return 2;
  return values.strict && report.counts.warning > 0 ? 1 : 0;
}

/** The size-limit finding of a file read only in part counts what was read: the file is larger. */
function withUnreadSize(report: LintReport): LintReport {
  const findings = report.findings.map((finding) =>
    finding.code === "size-limit" ? { ...finding, message: finding.message.replace(/^the file is ([\d,]+) bytes/, "the file is more than $1 bytes") } : finding);
  return { ...report, findings };
}
