/** `robots explain FILE URL --agent NAME`: the verdict, the deciding rule in context, the groups and why, the rules that lost. */
import { parseArgs } from "node:util";
import { commandConfig, loadRobots, parseCommand, parseOptions, PARSE_OPTIONS, PARSE_OPTIONS_HELP, positionalArgs, requireAgents, wholeNumber } from "./args.js";
import { CliError } from "./cli-error.js";
import { paletteFor, type Palette } from "./colour.js";
import { clip, groupLines, jsonText, plural, printableDeep } from "./format.js";
import { sourceLines } from "../index.js";
import { utf8ToBinary } from "../reference/bytes.js";
import { profileSwitches } from "../reference/profile.js";
import { isRobotsTxtPath, matchPath } from "../reference/url-path.js";
import type { GroupInfo, Profile, RobotsTxt, RuleMatch, UserAgentLine } from "../types.js";

export const EXPLAIN_HELP = `Usage: robots explain [options] FILE URL --agent NAME

Explains the verdict for one URL: allowed or disallowed, the rule that decided it with its
line in context, which groups applied and why (the agent's own groups, several merged, or the
* fallback), and the rules that matched too but lost, with their priorities (the longest
pattern wins, allow wins a tie). FILE may be "-" for standard input.

Options:
  --agent NAME        The crawler's user-agent token (required; repeat to merge several agents' groups)
  --context N         Lines shown before and after the deciding rule (default 2)
  --json              The explanation as JSON: url, agents, profile, allowed, line, robotsTxt,
                      rule, scope, groups, ignoredGlobalGroups, lost
${PARSE_OPTIONS_HELP}
  -h, --help          Show this help

Examples:
  robots explain robots.txt https://example.com/private/x --agent Googlebot
  robots explain robots.txt '/search?q=a' --agent googlebot-news --agent googlebot
  robots explain --json robots.txt https://example.com/a.gif --agent Bingbot
`;

/** A rule that matched but lost, and why. */
export interface LostRule extends RuleMatch {
  reason: string;
}

export interface ExplainDetails {
  url: string;
  agents: string[];
  profile: Profile;
  allowed: boolean;
  /** The deciding line, 0 when no rule matched. */
  line: number;
  /** The URL is the robots.txt itself, which the `rfc9309` profile allows whatever the rules say (RFC 9309 2.2.2). */
  robotsTxt: boolean;
  /** The deciding rule with its priority. */
  rule?: RuleMatch;
  /** `specific`: groups name the agent; `global`: the `*` groups (maybe none). */
  scope: "specific" | "global";
  /** The groups that decided (merged). */
  groups: GroupInfo[];
  /** `*` groups that did not apply because a group names the agent. */
  ignoredGlobalGroups: GroupInfo[];
  lost: LostRule[];
}

function lostBecause(loser: RuleMatch, winner: RuleMatch): string {
  if (loser.priority < winner.priority) return `shorter than the winner (${loser.priority} < ${winner.priority})`;
  if (loser.kind !== winner.kind) return "same priority: allow wins a tie";
  return `same priority and kind: the earlier line ${winner.line} wins`;
}

/** RFC 9309 2.2.2: "The /robots.txt URI is implicitly allowed" (the `rfc9309` profile only). */
function isImplicitlyAllowed(url: string, profile: Profile): boolean {
  const switches = profileSwitches(profile);
  return switches.robotsTxtAlwaysAllowed && isRobotsTxtPath(matchPath(utf8ToBinary(url), switches));
}

export function explainDetails(robots: RobotsTxt, url: string, agents: string[]): ExplainDetails {
  const explanation = robots.explain(url, agents);
  const [winner, ...others] = robots.matchingRules(url, agents);
  const { scope, groups } = robots.groupsFor(agents);
  const isGlobal = (group: GroupInfo): boolean => group.userAgents.some((agent) => agent.global);
  return {
    url,
    agents,
    profile: robots.profile,
    allowed: explanation.allowed,
    line: explanation.line,
    robotsTxt: isImplicitlyAllowed(url, robots.profile),
    ...(explanation.rule === undefined ? {} : { rule: winner }),
    scope,
    groups: groups.map((index) => robots.groups[index]),
    ignoredGlobalGroups: scope === "specific" ? robots.groups.filter((group) => isGlobal(group) && !groups.includes(group.index)) : [],
    lost: explanation.rule === undefined ? [] : others.map((rule) => ({ ...rule, reason: lostBecause(rule, winner) })),
  };
}

/** The agents asked about, an empty one shown as `""` so that the sentence still names it. */
function agentList(agents: readonly string[]): string {
  return agents.map((agent) => (agent === "" ? '""' : agent)).join(", ");
}

function ruleText(rule: RuleMatch): string {
  return `${rule.kind === "allow" ? "Allow" : "Disallow"} ${rule.pattern === "" ? "(empty)" : rule.pattern}`;
}

function contextLines(lines: readonly string[], line: number, context: number, palette: Palette): string {
  const first = Math.max(1, line - context);
  // The empty line the parser counts after a final line feed is no line of the file to show.
  const shown = lines.length > 1 && lines[lines.length - 1] === "" ? lines.length - 1 : lines.length;
  const last = Math.min(shown, line + context);
  const width = String(last).length;
  let out = "";
  for (let n = first; n <= last; n++) {
    const number = String(n).padStart(width);
    const text = clip(lines[n - 1]);
    out += n === line ? `  ${palette.bold(`> ${number} | ${text}`)}\n` : `  ${palette.dim(`  ${number} |`)} ${text}\n`;
  }
  return out;
}

/** The user-agent lines of a group that name one of the agents, as written. */
function namingLines(group: GroupInfo, agents: readonly string[]): UserAgentLine[] {
  const wanted = new Set(agents.map((agent) => agent.toLowerCase()));
  return group.userAgents.filter((agent) => !agent.global && wanted.has(agent.token.toLowerCase()));
}

function describeAgentLine(agent: UserAgentLine): string {
  const cut = agent.global ? (agent.value === "*" ? "" : ", read as *") : agent.token === agent.value ? "" : `, read as "${agent.token}"`;
  return `  line ${agent.line}: "User-agent: ${agent.value}"${cut}`;
}

/** Which groups decided and why, one statement per line. */
function describeGroups(details: ExplainDetails): string[] {
  const who = agentList(details.agents);
  if (details.groups.length === 0) return [`no group names ${who} and there is no * group: every URL is allowed`];
  const lines = groupLines(details.groups.map((group) => group.userAgents[0].line));
  const several = details.groups.length > 1;
  const rules = details.groups.reduce((sum, group) => sum + group.ruleLines, 0);
  const merged = several ? `, merged: ${plural(rules, "rule")}` : `: ${plural(rules, "rule")}`;
  // The user-agent lines that made each group apply; any others share the group's rules.
  const deciding = new Set(
    details.groups.flatMap((group) => (details.scope === "specific" ? namingLines(group, details.agents) : group.userAgents.filter((agent) => agent.global))),
  );
  // Of the agents asked about, those the groups name (the others have no group of their own).
  const named = details.agents.filter((agent) => details.groups.some((group) => namingLines(group, [agent]).length > 0));
  const out = [
    details.scope === "specific"
      ? `${lines} ${several ? "name" : "names"} ${agentList(named)}${merged}`
      : `no group names ${who}, so ${lines} for * ${several ? "apply" : "applies"} (the global fallback)${merged}`,
    ...[...deciding].map(describeAgentLine),
  ];
  const sharing = details.groups.flatMap((group) => group.userAgents.filter((agent) => !deciding.has(agent)));
  if (sharing.length > 0) {
    out.push(`shared with ${sharing.map((agent) => `"${agent.value}" (line ${agent.line})`).join(", ")}: a run of user-agent lines is one group`);
  }
  if (details.ignoredGlobalGroups.length > 0) {
    const ignored = groupLines(details.ignoredGlobalGroups.map((group) => group.userAgents[0].line));
    out.push(`${ignored} for * ${details.ignoredGlobalGroups.length > 1 ? "do" : "does"} not apply, because a group names the agent`);
  }
  return out;
}

function describeWinner(details: ExplainDetails, lines: readonly string[], context: number, palette: Palette): string {
  const rule = details.rule;
  if (details.robotsTxt) return "The robots.txt itself is always allowed in the rfc9309 profile (RFC 9309 2.2.2), whatever the rules say.\n";
  if (rule === undefined) return "No rule matched, so the URL is allowed.\n";
  let why = `priority ${rule.priority}`;
  if (rule.pattern === "") why += ": an empty pattern never disallows";
  else if (rule.indexPage) why += ", the directory of an index.html allow rule (Google-specific)";
  return `Decided by line ${rule.line}: ${ruleText(rule)} (${why})\n${contextLines(lines, rule.line, context, palette)}`;
}

export function formatExplanation(details: ExplainDetails, lines: readonly string[], context: number, palette: Palette): string {
  const verdict = details.allowed ? palette.green("allowed") : palette.red("disallowed");
  let out = `${palette.bold(verdict)}: ${details.url}\n  for ${agentList(details.agents)} (${details.profile} profile)\n\n`;
  out += describeWinner(details, lines, context, palette);
  out += `\nGroups:\n${describeGroups(details).map((line) => `  ${line}\n`).join("")}`;
  if (details.lost.length > 0) {
    out += "\nAlso matched, but lost:\n";
    for (const rule of details.lost) out += `  line ${rule.line}: ${ruleText(rule)} (priority ${rule.priority}): ${rule.reason}\n`;
  }
  return out;
}

export async function runExplain(args: string[]): Promise<number> {
  const { values, positionals } = parseCommand("explain", () =>
    parseArgs(
      commandConfig(args, {
        ...PARSE_OPTIONS,
        agent: { type: "string", multiple: true },
        context: { type: "string", default: "2" },
        json: { type: "boolean", default: false },
      }),
    ),
  );
  if (values.help) {
    process.stdout.write(EXPLAIN_HELP);
    return 0;
  }
  const options = parseOptions("explain", values);
  const [file, url] = positionalArgs("explain", positionals, ["FILE", "URL"]);
  const agents = requireAgents("explain", values.agent);
  const context = wholeNumber(values.context);
  if (!Number.isSafeInteger(context) || context < 0) throw new CliError(`explain: --context must be a non-negative integer, got "${values.context}"`);
  const { body, robots } = await loadRobots("explain", file, options);
  const details = explainDetails(robots, url, agents);
  robots.dispose();
  if (values.json) process.stdout.write(`${jsonText(details, 2)}\n`);
  else process.stdout.write(formatExplanation(printableDeep(details), printableDeep(sourceLines(body, options)), context, paletteFor(process.stdout)));
  return 0;
}
