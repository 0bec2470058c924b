/**
 * The verdict for one URL (decisions 19, 22, 23).
 */
import { selectGroups } from "./agents.js";
import type { ByteString } from "./bytes.js";
import { patternMatches } from "./match.js";
import type { Group, Rule } from "./model.js";
import type { ProfileSwitches } from "./profile.js";
import { RuleIndex } from "./rule-index.js";
import { isRobotsTxtPath, matchPath } from "./url-path.js";
import type { AgentGroups, Explanation, RuleMatch } from "../types.js";

/**
 * Whether `candidate` beats the current winner: RFC 9309 2.2.2, the longest pattern (most
 * bytes) wins; on equal length allow wins; on equal length and kind the earlier line wins
 * (Google keeps the first match it sees and only replaces it with a strictly longer one).
 * This is a total order on the rules, so the order in which they are tried does not matter.
 */
export function outranks(candidate: Rule, winner: Rule | undefined): boolean {
  if (winner === undefined) return true;
  if (candidate.priority !== winner.priority) return candidate.priority > winner.priority;
  if (candidate.kind !== winner.kind) return candidate.kind === "allow";
  return candidate.line < winner.line;
}

/** The winning rule among `rules` that match `path`, if any matched. */
export function winningRule(rules: Iterable<Rule>, path: ByteString): Rule | undefined {
  let winner: Rule | undefined;
  for (const rule of rules) {
    // Only a rule that would win is worth matching.
    if (outranks(rule, winner) && patternMatches(path, rule.pattern)) winner = rule;
  }
  return winner;
}

/** Answers `explain` for the groups of a parsed file. */
export class Verdicts {
  readonly #groups: readonly Group[];
  readonly #switches: ProfileSwitches;
  readonly #indexes: readonly RuleIndex[];

  constructor(groups: readonly Group[], switches: ProfileSwitches) {
    this.#groups = groups;
    this.#switches = switches;
    this.#indexes = groups.map((group) => new RuleIndex(group.rules));
  }

  /** The groups that decide for an agent query. */
  groupsFor(agents: readonly string[]): AgentGroups {
    const { scope, groups } = selectGroups(this.#groups, agents);
    return { scope, groups: groups.map((group) => group.index) };
  }

  /** Every rule of the deciding groups that matches the URL, the winner first. */
  matchingRules(agents: readonly string[], url: ByteString): RuleMatch[] {
    const { scope, groups } = selectGroups(this.#groups, agents);
    const path = matchPath(url, this.#switches);
    if (this.#switches.robotsTxtAlwaysAllowed && isRobotsTxtPath(path)) return [];
    const matching = groups.flatMap((group) => group.rules).filter((rule) => patternMatches(path, rule.pattern));
    // `outranks` is a total order: sort by it, the winner first.
    matching.sort((a, b) => (outranks(a, b) ? -1 : 1));
    return matching.map((rule) => ({ kind: rule.kind, pattern: rule.pattern, group: scope, line: rule.line, priority: rule.priority, indexPage: rule.indexPage }));
  }

  /** The explanation function for one agent query (groups are selected once, for a whole batch). */
  forAgents(agents: readonly string[]): (url: ByteString) => Explanation {
    const { scope, groups } = selectGroups(this.#groups, agents);
    const indexes = groups.map((group) => this.#indexes[group.index]);
    return (url) => {
      const path = matchPath(url, this.#switches);
      if (this.#switches.robotsTxtAlwaysAllowed && isRobotsTxtPath(path)) {
        // RFC 9309 2.2.2: "The /robots.txt URI is implicitly allowed."
        return { allowed: true, line: 0 };
      }
      const winner = winningRule(
        indexes.flatMap((index) => index.candidates(path)),
        path,
      );
      if (winner === undefined) return { allowed: true, line: 0 };
      return {
        // An empty pattern matches everything with priority 0 and never disallows: under a lone
        // `Disallow:` every URL is allowed, and the line is that of `Disallow:`.
        allowed: !(winner.kind === "disallow" && winner.priority > 0),
        line: winner.line,
        // Patterns are pure ASCII after escaping, so the byte string is the text.
        rule: { kind: winner.kind, pattern: winner.pattern, group: scope },
      };
    };
  }
}
