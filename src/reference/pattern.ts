/**
 * Turning an allow/disallow value into the rules the matcher compares (decisions 11-13, 15).
 */
import type { ByteString } from "./bytes.js";
import type { Rule } from "./model.js";
import { escapePattern, normalisePatternRfc9309 } from "./percent.js";
import type { ProfileSwitches } from "./profile.js";
import type { RuleKind } from "../types.js";

/** The pattern as the matcher compares it: escaped, then (rfc9309) normalised. */
export function compilePattern(value: ByteString, switches: ProfileSwitches): ByteString {
  const escaped = escapePattern(value);
  return switches.normalisePercentEncoding ? normalisePatternRfc9309(escaped) : escaped;
}

/**
 * Google-specific, decision 15: if the pattern from its last `/` starts with `/index.htm`, the
 * directory itself is allowed too: `/d/index.html` implies `/d/$`. Returns that pattern, or
 * undefined.
 *
 * Google's parser only tries `/d/$` when the original pattern did not match. Adding it as a
 * rule of its own is equivalent: when the original matches, it is longer than `/d/$`, so it
 * outranks it and `/d/$` never decides.
 */
export function indexPagePattern(pattern: ByteString): ByteString | undefined {
  const slash = pattern.lastIndexOf("/");
  if (slash === -1 || !pattern.startsWith("/index.htm", slash)) return undefined;
  return pattern.slice(0, slash + 1) + "$";
}

/** The rules one allow/disallow line contributes: its own, and for some allows an index-page rule. */
export function compileRules(kind: RuleKind, line: number, value: ByteString, switches: ProfileSwitches): Rule[] {
  const pattern = compilePattern(value, switches);
  const rules: Rule[] = [{ kind, line, pattern, priority: pattern.length, indexPage: false }];
  if (kind === "allow" && switches.indexPageAllow) {
    const directory = indexPagePattern(pattern);
    if (directory !== undefined) {
      rules.push({ kind, line, pattern: directory, priority: directory.length, indexPage: true });
    }
  }
  return rules;
}
