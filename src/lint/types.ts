/** The lint report of a robots.txt (`RobotsTxt.lint()`), re-exported by `src/types.ts`. */

/** `error`: part of the file is lost or does nothing; `warning`: likely a mistake or not portable; `info`: worth knowing. */
export type LintSeverity = "error" | "warning" | "info";

/** Stable identifiers of the findings; the catalogue with their severities is `LINT_CODES` (src/lint/catalog.ts). */
export type LintCode =
  | "rule-outside-group"
  | "pattern-without-slash"
  | "empty-disallow"
  | "user-agent-truncated"
  | "user-agent-no-name"
  | "line-between-user-agents"
  | "blank-line-between-user-agents"
  | "agent-in-several-groups"
  | "empty-group"
  | "no-groups"
  | "typo"
  | "missing-colon"
  | "colon-in-value"
  | "unknown-key"
  | "invalid-line"
  | "ignored-record"
  | "sitemap-not-absolute"
  | "crawl-delay-not-number"
  | "size-limit"
  | "line-too-long"
  | "nul-in-line"
  | "html-body"
  | "bom"
  | "bom-in-key"
  | "invalid-utf8"
  | "utf-16";

export interface LintFinding {
  /** 1-based line the finding is about. */
  line: number;
  severity: LintSeverity;
  code: LintCode;
  /** What is wrong, in one line. */
  message: string;
  /** What to write instead, in one line. */
  fix: string;
}

/** What one agent named in the file (or `*`, everyone else) gets. */
export interface LintAgentSummary {
  /** The agent's name as first written (its product token), or `*` for every agent the file does not name. */
  agent: string;
  /** `specific`: groups name the agent; `global`: the `*` groups apply (none: everything is allowed). */
  scope: "specific" | "global";
  /** The groups that decide for the agent (merged), each with its first user-agent line. */
  groups: { index: number; line: number }[];
  /** Allow/disallow lines in those groups. */
  rules: number;
  /** Crawl-delay in seconds from those groups, if any (Google ignores it). */
  crawlDelay?: number;
}

export interface LintReport {
  profile: "google" | "rfc9309";
  /** Sorted by line; findings about the same line keep the order of the checks. */
  findings: LintFinding[];
  /** Agents in order of first appearance, then `*`. */
  agents: LintAgentSummary[];
  counts: Record<LintSeverity, number>;
}
