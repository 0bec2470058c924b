import type { LintReport } from "./lint/types.js";

export type * from "./lint/types.js";

/** Which semantics decide where Google's reference parser and RFC 9309's text differ. */
export type Profile = "google" | "rfc9309";

export interface ParseOptions {
  /** `"google"` (default): same verdicts and lines as Google's reference parser. `"rfc9309"`: the RFC's text. */
  profile?: Profile;
  /** Bytes of the body that are read; the rest is ignored. Default 512,000 (500 KiB). `Infinity` reads up to `MAX_BODY_BYTES` (256 MiB). */
  maxBytes?: number;
  /** Keep a copy of the bytes read, for `lint()` (default false: a compiled table does not need them). */
  keepSource?: boolean;
}

/** One agent name, or several whose groups merge (for example `["googlebot-news", "googlebot"]`). */
export type AgentQuery = string | readonly string[];

/** A batch of URLs: an array of strings, or bytes holding one URL per line (LF or CRLF). */
export type UrlBatch = readonly string[] | Uint8Array;

export type RuleKind = "allow" | "disallow";

/** Which groups the deciding rule came from: the agent's own groups, or the `*` group. */
export type GroupScope = "specific" | "global";

export interface MatchedRule {
  kind: RuleKind;
  /** The pattern as the matcher compared it: percent-escaped (and, in rfc9309, normalised). */
  pattern: string;
  group: GroupScope;
}

export interface Explanation {
  allowed: boolean;
  /** 1-based line of the deciding rule; 0 when no rule matched. */
  line: number;
  /** The deciding rule; absent when no rule matched. */
  rule?: MatchedRule;
}

/** A rule that matches a URL, with what ranks it (see `RobotsTxt.matchingRules`). */
export interface RuleMatch extends MatchedRule {
  line: number;
  /** The pattern's length in bytes: the longest match wins, allow on a tie. */
  priority: number;
  /**
   * The `/dir/$` rule the google profile adds for an `Allow: /dir/index.htm...` line (the
   * directory of an index page is allowed too): `line` is that allow line, `pattern` the
   * directory's. False for every rule written in the file.
   */
  indexPage: boolean;
}

/** A user-agent line of a group. */
export interface UserAgentLine {
  readonly line: number;
  /** The value as written. */
  readonly value: string;
  /** `*` (alone or followed by whitespace). */
  readonly global: boolean;
  /** The product token compared with agents: the value cut at the first byte outside [a-zA-Z_-]; "" for `*`. */
  readonly token: string;
}

/** A group: a run of user-agent lines and the allow/disallow lines after it. */
export interface GroupInfo {
  /** 0-based, in file order (the `group` of records). */
  readonly index: number;
  readonly userAgents: readonly UserAgentLine[];
  /** Number of allow/disallow lines in the group. */
  readonly ruleLines: number;
}

/** Which groups decide for an agent query. */
export interface AgentGroups {
  /** `specific` when groups name the agent; else `global` (the `*` groups, possibly none: everything allowed). */
  scope: GroupScope;
  /** Indices into `groups`. */
  groups: readonly number[];
}

/** Verdicts and matching lines of a batch, in input order. */
export interface BatchResult {
  /** 1 = allowed, 0 = disallowed. */
  allowed: Uint8Array;
  /** Matching line per URL, 0 when no rule matched. */
  lines: Uint32Array;
}

/** Keys of records other than user-agent/allow/disallow that have a known meaning. */
export type RecordKey =
  | "sitemap"
  | "crawl-delay"
  | "request-rate"
  | "visit-time"
  | "host"
  | "clean-param"
  | "content-signal"
  | "content-usage"
  | "noindex"
  | "nofollow"
  | "noarchive";

/** A record that does not affect matching: sitemap, crawl-delay, unknown keys, ... */
export interface RobotsRecord {
  readonly line: number;
  /** Canonical key for known records; for unknown keys the key as written, ASCII letters lower-cased. */
  readonly key: RecordKey | (string & {});
  readonly known: boolean;
  /** The value as written (comment and surrounding whitespace removed), decoded as UTF-8. */
  readonly value: string;
  /** 0-based index of the group (user-agent run) the record sits in; null for sitemaps and lines before any user-agent. */
  readonly group: number | null;
}

/** What a line of the file is, as the parser saw it. */
export type LineKind =
  | "empty"
  | "comment"
  | "user-agent"
  | "allow"
  | "disallow"
  | "sitemap"
  /** A known record that does not affect matching (crawl-delay and friends). */
  | "ignored-record"
  /** A `key: value` line with an unknown key. */
  | "unknown"
  /** Text that is not a `key: value` record (HTML, prose, three words without a colon). */
  | "invalid";

export interface LineInfo {
  readonly line: number;
  readonly kind: LineKind;
  /** The line had a `#` comment. */
  readonly hasComment: boolean;
  /**
   * The key is an accepted misspelling (`useragent`, `disalow`, `site-map`, ...). A key that only
   * starts with a directive (`Disallowed`, `User-agentX`) is read as it too but not flagged here;
   * `lint()` reports both, and keys split inside their value (`colon-in-value`).
   */
  readonly typo: boolean;
  /** Key and value were separated by whitespace, not a colon. */
  readonly missingColon: boolean;
  /** The line was longer than the profile's limit and was truncated. */
  readonly tooLong: boolean;
  /** An allow/disallow line before any user-agent line (it has no effect). */
  readonly outsideGroup: boolean;
}

/** What the parser did with the input as a whole. */
export interface InputInfo {
  /** Bytes received. */
  readonly bytes: number;
  /** Bytes parsed (after the size limit and any UTF-16 transcoding). */
  readonly parsedBytes: number;
  /** Content past `maxBytes` (or `MAX_BODY_BYTES`) was ignored. */
  readonly truncated: boolean;
  /**
   * The size limit fell inside a line: its start was read as a whole line (a rule cut short
   * matches more URLs than written). False when nothing was cut.
   */
  readonly cutInLine: boolean;
  /** Encoding detected from a byte-order mark; UTF-16 input is transcoded to UTF-8 before parsing. */
  readonly encoding: "utf-8" | "utf-16le" | "utf-16be";
  /** The bytes read (after the size limit) start with a (possibly partial) UTF-8 or a UTF-16 byte-order mark. */
  readonly bom: boolean;
}

/** A compiled robots.txt. Implemented by the WASM engine and by the reference implementation. */
export interface RobotsTxt {
  readonly profile: Profile;
  isAllowed(url: string, agent: AgentQuery): boolean;
  explain(url: string, agent: AgentQuery): Explanation;
  /** One verdict per URL (1 = allowed), in input order. */
  classify(urls: UrlBatch, agent: AgentQuery): Uint8Array;
  /** Verdicts and matching lines for a batch. */
  classifyWithLines(urls: UrlBatch, agent: AgentQuery): BatchResult;
  /**
   * Every rule of the deciding groups that matches the URL, in decision order: the winner first.
   * None for the robots.txt itself in the `rfc9309` profile, which allows it whatever the rules say.
   */
  matchingRules(url: string, agent: AgentQuery): RuleMatch[];
  /** The groups of the file, in order. */
  readonly groups: readonly GroupInfo[];
  /** The groups that decide for an agent query. */
  groupsFor(agent: AgentQuery): AgentGroups;
  /** Sitemap URLs in file order (non-empty values of `sitemap` lines). */
  readonly sitemaps: readonly string[];
  /**
   * Crawl-delay in seconds for the agent's groups, if one is given as a number: any size, and
   * `Infinity` for digits past a double's range. A timer takes at most 2^31 - 1 ms (Node runs a
   * longer one at once): cap the delay before waiting on it.
   */
  crawlDelay(agent: AgentQuery): number | undefined;
  /** Records that do not affect matching, with line numbers. */
  readonly records: readonly RobotsRecord[];
  /** Per-line metadata, one entry per line. */
  readonly lines: readonly LineInfo[];
  readonly input: InputInfo;
  /** The lint report (its codes: `LINT_CODES`). Needs `keepSource: true` at parse time, else throws `ROBOTS_ERR_NO_SOURCE`. */
  lint(): LintReport;
  /** Frees the compiled table. Further calls throw `ROBOTS_ERR_DISPOSED`. Idempotent. */
  dispose(): void;
}
