/**
 * Findings about groups: user-agent values that are cut, lines that do not split a run of
 * user-agent lines, agents named in several groups, groups without rules.
 */
import { finding } from "./catalog.js";
import type { LintInput } from "./input.js";
import { KEY_NAMES, quote } from "./text.js";
import type { LintFinding } from "./types.js";
import { binaryToUtf8 } from "../reference/bytes.js";
import type { GroupInfo, LineKind, UserAgentLine } from "../types.js";

/**
 * Runs of name characters; a crawler's product token inside a full user-agent string
 * (`Mozilla/5.0 (compatible; Googlebot/2.1)`) is one with `bot` in it. Whole runs, then the test:
 * a pattern `[A-Za-z_-]*bot[A-Za-z_-]*` rescanned a long run without `bot` from each of its
 * characters (64 KB: 2.5 s).
 */
const NAME_RUN = /[A-Za-z_-]+/g;
/** The token after `compatible;` in a full user-agent string (`(compatible; Baiduspider/2.0; ...)`). */
const COMPATIBLE_TOKEN = /compatible;\s*([A-Za-z_-]+)/i;
/** A word that names no crawler by itself (`Linguee Bot`): never offered as the token. */
const GENERIC_WORD = /^(?:ro)?bot$/i;

/** The crawler's own token inside a full user-agent string, if one can be told. */
function productTokenIn(value: string): string | undefined {
  if (!/[(;]/.test(value)) return undefined;
  const compatible = COMPATIBLE_TOKEN.exec(value)?.[1];
  if (compatible !== undefined && !GENERIC_WORD.test(compatible)) return compatible;
  return [...value.matchAll(NAME_RUN)].map((match) => match[0]).find((token) => /bot/i.test(token) && !GENERIC_WORD.test(token));
}

function agentName(agent: UserAgentLine): string {
  return agent.global ? "*" : agent.token;
}

function userAgentFinding(agent: UserAgentLine): LintFinding | undefined {
  if (agent.global) {
    return agent.value === "*" ? undefined : finding("user-agent-truncated", agent.line, `${quote(agent.value)} is read as \`*\`: everything after the * is ignored`, "write `User-agent: *`");
  }
  if (agent.value === "") {
    return finding("user-agent-no-name", agent.line, "an empty User-agent value names no crawler, so this line applies to none", "write the crawler's product token (`User-agent: Googlebot`), or delete the line");
  }
  if (agent.token === "") {
    // Not `User-agent: *`: that would give every crawler the rules meant for one.
    return finding("user-agent-no-name", agent.line, `${quote(agent.value)} is read as an empty name (it does not start with a letter, _ or -), so Google's parser matches no crawler with it`, "keep the line for that crawler's own parser, which may match it; for Google's, no name can stand for it");
  }
  if (agent.token === agent.value) return undefined;
  const rest = agent.value.slice(agent.token.length);
  let fix: string;
  if (/^\s*,/.test(rest)) {
    // `AhrefsBot, SemrushBot`: Google applies the group to the first name only.
    const names = agent.value.split(/[\s,]+/).filter((name) => name !== "");
    fix = `write one line per crawler: ${names.map((name) => `\`User-agent: ${name}\``).join(", ")}`;
  } else if (/^[\s/*]/.test(rest)) {
    // A version, a comment or a wildcard after the name: the name is what counts, unless it is a
    // full user-agent string, whose crawler token is inside it.
    const inside = productTokenIn(agent.value);
    if (inside !== undefined) fix = `write only the crawler's product token: \`User-agent: ${inside}\``;
    // `Linguee Bot`: the crawler's token may be either word, or both run together.
    else if (/^\s/.test(rest)) fix = `write \`User-agent: ${agent.token}\` if that is the crawler's name, else the one token it documents`;
    else fix = `write \`User-agent: ${agent.token}\``;
  } else {
    fix = `Google's parser cannot match a name with "${rest[0]}" in it; keep the line only for that crawler's own parser`;
  }
  return finding("user-agent-truncated", agent.line, `${quote(agent.value)} is read as \`${agent.token}\`: a name ends at the first character outside [a-zA-Z_-], so Google's parser applies this group to \`${agent.token}\` only`, fix);
}

/** Kinds of line that do not belong between two user-agent lines of a group. */
const NON_GROUP_KINDS: ReadonlySet<LineKind> = new Set(["sitemap", "ignored-record", "unknown", "invalid"]);

/** A line between consecutive user-agent lines of a group that makes the run look split. */
function gapFindings(input: LintInput, group: GroupInfo): LintFinding[] {
  const found: LintFinding[] = [];
  const agents = group.userAgents;
  for (let i = 1; i < agents.length; i++) {
    const before = agents[i - 1];
    const after = agents[i];
    const between = input.robots.lines.slice(before.line, after.line - 1);
    const shared = `${quote(agentName(before))} (line ${before.line}) and ${quote(agentName(after))} (line ${after.line}) share one group and the rules after line ${after.line}`;
    const other = between.find((line) => NON_GROUP_KINDS.has(line.kind));
    if (other !== undefined) {
      const key = binaryToUtf8(input.source[other.line - 1].parsed.key);
      const what = other.kind === "invalid" ? "this line" : (KEY_NAMES[key.toLowerCase()] ?? quote(key));
      found.push(finding("line-between-user-agents", other.line, `${what} does not end the user-agent run: ${shared}`, `if ${quote(agentName(before))} needs rules of its own, put them before line ${after.line}; else move this line below the group's rules`));
      continue;
    }
    const blank = between.find((line) => line.kind === "empty");
    // The same agent twice: whether the blank line split them or not, its rules are the same.
    if (blank !== undefined && agentName(before).toLowerCase() !== agentName(after).toLowerCase()) {
      found.push(finding("blank-line-between-user-agents", blank.line, `a blank line does not end a group: ${shared}`, `if ${quote(agentName(before))} should have no rules, give it \`Allow: /\` before line ${after.line}; else remove the blank line`));
    }
  }
  return found;
}

/** Agents named again in a later group: the groups merge. */
function repeatFindings(groups: readonly GroupInfo[]): LintFinding[] {
  const firstGroup = new Map<string, { group: number; line: number }>();
  const found: LintFinding[] = [];
  for (const group of groups) {
    for (const agent of group.userAgents) {
      const name = agentName(agent);
      if (name === "") continue;
      const key = name.toLowerCase();
      const first = firstGroup.get(key);
      if (first === undefined) firstGroup.set(key, { group: group.index, line: agent.line });
      else if (first.group !== group.index) {
        found.push(finding("agent-in-several-groups", agent.line, `${quote(name)} is also named at line ${first.line}: Google merges both groups' rules, some crawlers read only the first group`, `put all rules for ${quote(name)} in one group`));
      }
    }
  }
  return found;
}

/** The first lines of the groups with rules that name each agent (lower case; `*` for the global ones). */
type RuleGroupsByName = Map<string, number[]>;

function ruleGroupsByName(groups: readonly GroupInfo[]): RuleGroupsByName {
  const byName: RuleGroupsByName = new Map();
  for (const group of groups) {
    if (group.ruleLines === 0) continue;
    for (const agent of group.userAgents) {
      const name = agentName(agent).toLowerCase();
      if (name === "") continue;
      const lines = byName.get(name) ?? [];
      byName.set(name, lines);
      if (lines.at(-1) !== group.userAgents[0].line) lines.push(group.userAgents[0].line);
    }
  }
  return byName;
}

/**
 * A group without rules says something different for each of its agents: one named in another
 * group with rules gets that group's rules (Google merges them), one named nowhere else may crawl
 * everything, and a value read as an empty name (`360Spider`) names no crawler at all (it has its
 * own finding, and the `*` group still applies to that crawler).
 */
function emptyGroupFinding(group: GroupInfo, byName: RuleGroupsByName, hasGlobal: boolean): LintFinding | undefined {
  if (group.ruleLines > 0) return undefined;
  const names: string[] = [];
  const seen = new Set<string>();
  const merged: string[] = [];
  const mergedLines = new Set<number>();
  const free: string[] = [];
  for (const agent of group.userAgents) {
    const name = agentName(agent);
    if (name === "" || seen.has(name.toLowerCase())) continue;
    seen.add(name.toLowerCase());
    names.push(name);
    const lines = byName.get(name.toLowerCase());
    if (lines === undefined) {
      free.push(name);
    } else {
      merged.push(name);
      for (const line of lines) mergedLines.add(line);
    }
  }
  if (merged.length === 0 && free.length === 0) return undefined;
  const line = group.userAgents[0].line;
  const lines = [...mergedLines].sort((a, b) => a - b);
  const where = lines.length === 1 ? `the group at line ${lines[0]}` : `the groups at lines ${lines.join(", ")}`;
  const mergedText = `Google merges it with ${where}, whose rules apply to ${quote(merged.join(", "))} (crawlers that read only one group may read this empty one)`;
  if (free.length === 0) {
    return finding("empty-group", line, `the group of ${quote(merged.join(", "))} has no rules of its own: ${mergedText}`, `move its lines into ${where}`);
  }
  const fallback = !free.includes("*") && hasGlobal ? `, and the * group does not apply to ${free.length === 1 ? "it" : "them"}` : "";
  const freeText = `${quote(free.join(", "))} may crawl everything${fallback}`;
  if (merged.length === 0) {
    return finding("empty-group", line, `the group of ${quote(free.join(", "))} has no rules: ${free.length === 1 ? "it" : "they"} may crawl everything${fallback}`, "add rules (`Allow: /` says it explicitly), or remove the group");
  }
  return finding("empty-group", line, `the group of ${quote(names.join(", "))} has no rules of its own: ${freeText}; ${mergedText}`, `give ${quote(free.join(", "))} rules of its own (\`Allow: /\` says it explicitly), and move the other user-agent lines into ${where}`);
}

export function groupFindings(input: LintInput): LintFinding[] {
  const { groups } = input.robots;
  if (groups.length === 0) {
    return input.html !== undefined ? [] : [finding("no-groups", 1, "there is no User-agent line, so every URL is allowed for every crawler", "start the rules with `User-agent: *`")];
  }
  const hasGlobal = groups.some((group) => group.userAgents.some((agent) => agent.global));
  const byName = ruleGroupsByName(groups);
  const found: LintFinding[] = [];
  for (const group of groups) {
    for (const agent of group.userAgents) {
      const problem = userAgentFinding(agent);
      if (problem !== undefined) found.push(problem);
    }
    found.push(...gapFindings(input, group));
    const empty = emptyGroupFinding(group, byName, hasGlobal);
    if (empty !== undefined) found.push(empty);
  }
  return [...found, ...repeatFindings(groups)];
}
