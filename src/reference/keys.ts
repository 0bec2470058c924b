/**
 * Recognising a line's key (decision 10).
 */
import { asciiLower, startsWithIgnoreAsciiCase, type ByteString } from "./bytes.js";
import type { RecordKey } from "../types.js";

export type KeyKind = "user-agent" | "allow" | "disallow" | "sitemap" | "ignored-record" | "unknown";

export interface ClassifiedKey {
  kind: KeyKind;
  /** The key is an accepted misspelling. */
  typo: boolean;
}

/**
 * Google-specific: the four directives are recognised by case-insensitive *prefix*, checked in
 * this order, so `Disallowed:` is a disallow and `user-agents:` a user-agent. Each entry is
 * [prefix, is an accepted typo].
 */
const DIRECTIVE_PREFIXES: ReadonlyArray<readonly [KeyKind, ReadonlyArray<readonly [string, boolean]>]> = [
  ["user-agent", [["user-agent", false], ["useragent", true], ["user agent", true]]],
  // Google-specific: no typos are accepted for allow.
  ["allow", [["allow", false]]],
  [
    "disallow",
    [["disallow", false], ["dissallow", true], ["dissalow", true], ["disalow", true], ["diasllow", true], ["disallaw", true]],
  ],
  ["sitemap", [["sitemap", false], ["site-map", true]]],
];

/**
 * Records that Google ignores but other crawlers read (RFC 9309 2.2.4: other records). Unlike the
 * directives they are matched exactly (case-insensitive), not by prefix.
 */
const IGNORED_RECORD_KEYS: ReadonlySet<string> = new Set<RecordKey>([
  "crawl-delay",
  "request-rate",
  "visit-time",
  "host",
  "clean-param",
  "content-signal",
  "content-usage",
  "noindex",
  "nofollow",
  "noarchive",
]);

export function classifyKey(key: ByteString): ClassifiedKey {
  for (const [kind, prefixes] of DIRECTIVE_PREFIXES) {
    for (const [prefix, typo] of prefixes) {
      // A correct spelling is checked before the typos of the same directive, so `typo` is only
      // set when the correct spelling is not a prefix.
      if (startsWithIgnoreAsciiCase(key, prefix)) return { kind, typo };
    }
  }
  if (IGNORED_RECORD_KEYS.has(asciiLower(key))) return { kind: "ignored-record", typo: false };
  return { kind: "unknown", typo: false };
}
