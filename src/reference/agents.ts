/**
 * User-agent values and group selection (decisions 21, 22).
 */
import { asciiLower, isTrimmedSpace, type ByteString } from "./bytes.js";
import type { Group } from "./model.js";
import type { GroupScope } from "../types.js";

/**
 * Google-specific, decision 21: `*` alone, or `*` followed by whitespace and anything, is the
 * global agent (RFC 9309 2.2.1 only knows `*` alone).
 */
export function isGlobalAgent(value: ByteString): boolean {
  return value.startsWith("*") && (value.length === 1 || isTrimmedSpace(value.charCodeAt(1)));
}

function isTokenByte(code: number): boolean {
  return (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || code === 0x2d || code === 0x5f;
}

/**
 * Google-specific, decision 21: the product token is the longest prefix of `[a-zA-Z_-]`
 * (`Googlebot/2.1` gives `Googlebot`, `AB42bot` gives `AB`, `Foo*` gives `Foo`). May be empty.
 */
export function userAgentToken(value: ByteString): ByteString {
  let end = 0;
  while (end < value.length && isTokenByte(value.charCodeAt(end))) end++;
  return value.slice(0, end);
}

export interface SelectedGroups {
  scope: GroupScope;
  groups: Group[];
}

/**
 * Decision 22. RFC 9309 2.2.1: groups naming the agent are merged and, when there is one, the
 * `*` group does not apply (even if the agent's groups have no rules); otherwise every `*`
 * group applies. The queried names are compared whole, ASCII case-insensitively: they are not
 * cut to a token, so `Foo Bar` matches no group.
 */
export function selectGroups(groups: readonly Group[], agents: readonly string[]): SelectedGroups {
  const wanted = new Set(agents.map(asciiLower));
  const specific = groups.filter((group) => group.tokens.some((token) => wanted.has(token)));
  if (specific.length > 0) return { scope: "specific", groups: specific };
  return { scope: "global", groups: groups.filter((group) => group.global) };
}
