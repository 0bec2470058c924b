/**
 * Every lint finding: its stable code, its severity and what it is about (robots-txt.md section 5).
 * The severities follow one rule: `error` when part of the file is lost or cannot do what it
 * says, `warning` when it is probably a mistake or only some crawlers read it as meant, `info`
 * for what is harmless but worth knowing.
 */
import type { LintCode, LintFinding, LintSeverity } from "./types.js";

/** Frozen, entries too: lint reads it, so that no caller's change reaches another caller's findings. */
export const LINT_CODES: Readonly<Record<LintCode, { readonly severity: LintSeverity; readonly about: string }>> = frozenTable({
  "rule-outside-group": { severity: "error", about: "an allow, disallow or crawl-delay line before any user-agent line (ignored)" },
  "pattern-without-slash": { severity: "error", about: "a path that starts with neither / nor * (never matches)" },
  "empty-disallow": { severity: "warning", about: "an empty Disallow: in a group with other rules (does nothing)" },
  "user-agent-truncated": { severity: "warning", about: "a user-agent value with characters outside [a-zA-Z_-] (cut)" },
  "user-agent-no-name": { severity: "error", about: "a user-agent value that is cut to an empty name (matches no crawler)" },
  "line-between-user-agents": { severity: "warning", about: "a non-group line between user-agent lines (they still share one group)" },
  "blank-line-between-user-agents": { severity: "info", about: "a blank line between user-agent lines (they still share one group)" },
  "agent-in-several-groups": { severity: "warning", about: "the same agent in several groups (merged)" },
  "empty-group": { severity: "info", about: "a group without rules (its agents named nowhere else may crawl everything)" },
  "no-groups": { severity: "info", about: "no user-agent line at all (everything is allowed)" },
  typo: { severity: "warning", about: "a misspelt or lengthened key that Google accepts and others may not" },
  "missing-colon": { severity: "warning", about: "key and value separated by whitespace instead of a colon" },
  "colon-in-value": { severity: "error", about: "a key without its colon, and a colon in the value: split there (the record is lost)" },
  "unknown-key": { severity: "warning", about: "a key no crawler knows (ignored)" },
  "invalid-line": { severity: "warning", about: "a line that is not a key: value record (ignored)" },
  "ignored-record": { severity: "info", about: "crawl-delay, host and friends: read by some crawlers, ignored by Google" },
  "sitemap-not-absolute": { severity: "error", about: "a sitemap that is not an absolute URL (ignored)" },
  "crawl-delay-not-number": { severity: "warning", about: "a crawl-delay that is not a number of seconds" },
  "size-limit": { severity: "error", about: "content past the size limit (ignored)" },
  "line-too-long": { severity: "error", about: "a line past the length limit (cut)" },
  "nul-in-line": { severity: "error", about: "a NUL byte before text in a line (the text after it is ignored)" },
  "html-body": { severity: "error", about: "an HTML (or XML) page served as robots.txt" },
  bom: { severity: "info", about: "a UTF-8 byte-order mark at the start, or its first bytes before text (skipped)" },
  "bom-in-key": { severity: "error", about: "a second or mis-encoded byte-order mark glued to a key (the line is lost)" },
  "invalid-utf8": { severity: "warning", about: "bytes that are not UTF-8" },
  "utf-16": { severity: "error", about: "a UTF-16 file (most crawlers read garbage)" },
});

function frozenTable<T extends Record<string, object>>(table: T): Readonly<T> {
  for (const entry of Object.values(table)) Object.freeze(entry);
  return Object.freeze(table);
}

export function finding(code: LintCode, line: number, message: string, fix: string): LintFinding {
  return { line, severity: LINT_CODES[code].severity, code, message, fix };
}
