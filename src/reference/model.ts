/**
 * The plain data model the parser produces and the matcher reads.
 */
import type { ByteString } from "./bytes.js";
import type { LineInfo, RobotsRecord, RuleKind } from "../types.js";

export interface Rule {
  kind: RuleKind;
  /** Line of the allow/disallow line the rule comes from. */
  line: number;
  /** The compiled pattern: escaped and, in rfc9309, normalised. Pure ASCII. */
  pattern: ByteString;
  /** Decision 13: the pattern's length in bytes. */
  priority: number;
  /** Google-specific: the `/dir/$` rule implied by an `/dir/index.htm...` allow (decision 15). */
  indexPage: boolean;
}

export interface UserAgentLine {
  line: number;
  /** The value as written. */
  value: ByteString;
  /** `*`, or `*` followed by whitespace (decision 21). */
  global: boolean;
  /** For a non-global line: the value cut at the first byte outside `[a-zA-Z_-]` (maybe ""). */
  token: ByteString;
}

/** A run of user-agent lines plus the allow/disallow lines after it (decision 20). */
export interface Group {
  /** 0-based, in file order; the `group` of the records inside it. */
  index: number;
  userAgents: UserAgentLine[];
  /** Some user-agent line of the group is global. */
  global: boolean;
  /** Tokens of the non-global user-agent lines, ASCII lower-cased for comparison. */
  tokens: ByteString[];
  rules: Rule[];
}

export interface RobotsModel {
  groups: Group[];
  records: RobotsRecord[];
  sitemaps: string[];
  lines: LineInfo[];
}
