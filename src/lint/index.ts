/**
 * The robots.txt linter (robots-txt.md section 5): findings with line, severity, code, message
 * and fix, and what each agent gets. Built on a parsed file's metadata (lines, groups, records,
 * input), plus the text of its lines where the metadata has none. Not the hot path: it is for
 * site owners, once per file.
 */
import { fileFindings, htmlLine } from "./file.js";
import { groupFindings } from "./groups.js";
import type { LintInput } from "./input.js";
import { lineFindings } from "./lines.js";
import { recordFindings } from "./records.js";
import { readSource } from "./source.js";
import type { LintAgentSummary, LintFinding, LintReport, LintSeverity } from "./types.js";
import { RobotsError } from "../errors.js";
import type { RobotsTxt } from "../types.js";

export { LINT_CODES } from "./catalog.js";
export { sourceLines } from "./source.js";

/** Every agent named in the file (first spelling wins, case-insensitively), then `*`. */
function agentNames(robots: RobotsTxt): string[] {
  const names = new Map<string, string>();
  for (const group of robots.groups) {
    for (const agent of group.userAgents) {
      if (!agent.global && agent.token !== "" && !names.has(agent.token.toLowerCase())) names.set(agent.token.toLowerCase(), agent.token);
    }
  }
  return [...names.values(), "*"];
}

/** What each agent gets. Asking for `*` gives the global groups: nothing names an agent `*`. */
function agentSummaries(robots: RobotsTxt): LintAgentSummary[] {
  return agentNames(robots).map((agent) => {
    const { scope, groups } = robots.groupsFor(agent);
    const summary: LintAgentSummary = {
      agent,
      scope,
      groups: groups.map((index) => ({ index, line: robots.groups[index].userAgents[0].line })),
      rules: groups.reduce((sum, index) => sum + robots.groups[index].ruleLines, 0),
    };
    const crawlDelay = robots.crawlDelay(agent);
    if (crawlDelay !== undefined) summary.crawlDelay = crawlDelay;
    return summary;
  });
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
  const input: LintInput = { robots, bytes: source, source: lines, html: htmlLine(lines, robots.groups.length > 0) !== undefined };
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
