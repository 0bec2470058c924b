/**
 * The robots.txt linter (robots-txt.md section 5): findings with line, severity, code, message
 * and fix, and what each agent gets. Built on a parsed file's metadata (lines, groups, records,
 * input), plus the text of its lines where the metadata has none. Not the hot path: it is for
 * site owners, once per file.
 */
import { bomlessUtf16, fileFindings, htmlLine } from "./file.js";
import { groupFindings } from "./groups.js";
import type { LintInput } from "./input.js";
import { lineFindings } from "./lines.js";
import { recordFindings } from "./records.js";
import { readSource } from "./source.js";
import type { LintAgentSummary, LintFinding, LintReport, LintSeverity } from "./types.js";
import { RobotsError } from "../errors.js";
import { parseCrawlDelay } from "../records.js";
import type { RobotsTxt } from "../types.js";

export { LINT_CODES } from "./catalog.js";
export { sourceLines } from "./source.js";

/**
 * What each agent gets: every agent named in the file (first spelling wins, case-insensitively),
 * then `*`, which gives the global groups (nothing names an agent `*`). Read off the groups and
 * records in one pass: asking the parsed file per agent (groupsFor, crawlDelay) passes over every
 * group each time, and a file of 40,000 one-line groups took minutes. A property test holds
 * these equal to groupsFor and crawlDelay.
 */
function agentSummaries(robots: RobotsTxt): LintAgentSummary[] {
  const named = new Map<string, { agent: string; groups: number[] }>();
  const globalGroups: number[] = [];
  for (const group of robots.groups) {
    for (const agent of group.userAgents) {
      if (agent.global) {
        if (globalGroups.at(-1) !== group.index) globalGroups.push(group.index);
        continue;
      }
      if (agent.token === "") continue;
      const key = agent.token.toLowerCase();
      const entry = named.get(key) ?? { agent: agent.token, groups: [] };
      named.set(key, entry);
      if (entry.groups.at(-1) !== group.index) entry.groups.push(group.index);
    }
  }
  const delays = firstCrawlDelays(robots);
  const summary = (agent: string, scope: LintAgentSummary["scope"], groups: readonly number[]): LintAgentSummary => {
    const result: LintAgentSummary = {
      agent,
      scope,
      groups: groups.map((index) => ({ index, line: robots.groups[index].userAgents[0].line })),
      rules: groups.reduce((sum, index) => sum + robots.groups[index].ruleLines, 0),
    };
    // The first valid crawl-delay record, in file order, of the agent's groups.
    let first: { order: number; seconds: number } | undefined;
    for (const index of groups) {
      const delay = delays.get(index);
      if (delay !== undefined && (first === undefined || delay.order < first.order)) first = delay;
    }
    if (first !== undefined) result.crawlDelay = first.seconds;
    return result;
  };
  return [
    ...[...named.values()].map(({ agent, groups }) => summary(agent, "specific", groups)),
    summary("*", "global", globalGroups),
  ];
}

/** Each group's first crawl-delay record with a valid value: its place among the records and its seconds. */
function firstCrawlDelays(robots: RobotsTxt): Map<number, { order: number; seconds: number }> {
  const delays = new Map<number, { order: number; seconds: number }>();
  robots.records.forEach((record, order) => {
    if (record.key !== "crawl-delay" || record.group === null || delays.has(record.group)) return;
    const seconds = parseCrawlDelay(record.value);
    if (seconds !== undefined) delays.set(record.group, { order, seconds });
  });
  return delays;
}

/**
 * The lint report of a parsed file. `source` is the bytes the parser read (after the size limit
 * and UTF-16 transcoding), which the implementations keep only when parsed with `keepSource: true`.
 */
export function lintRobots(robots: RobotsTxt, source: Uint8Array | undefined): LintReport {
  if (source === undefined) {
    throw new RobotsError("ROBOTS_ERR_NO_SOURCE", "lint() needs the robots.txt text: parse it with { keepSource: true }");
  }
  const lines = readSource(source, robots.profile);
  const input: LintInput = {
    robots,
    bytes: source,
    source: lines,
    html: htmlLine(lines, robots.groups.length > 0),
    rules: robots.groups.reduce((sum, group) => sum + group.ruleLines, 0),
    utf16: bomlessUtf16(source),
  };
  const findings: LintFinding[] = [
    ...fileFindings(input),
    ...lineFindings(input),
    ...groupFindings(input),
    ...recordFindings(input),
  ];
  // Array#sort is stable: findings on one line keep the order of the checks above.
  findings.sort((a, b) => a.line - b.line);
  const counts: Record<LintSeverity, number> = { error: 0, warning: 0, info: 0 };
  for (const { severity } of findings) counts[severity]++;
  return { profile: robots.profile, findings, agents: agentSummaries(robots), counts };
}
