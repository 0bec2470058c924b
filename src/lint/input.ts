/** What every lint check reads. */
import type { SourceLine } from "./source.js";
import type { RobotsTxt } from "../types.js";

export interface LintInput {
  /** The parsed file: per-line metadata, groups, records, input facts. */
  robots: RobotsTxt;
  /** The bytes the parser read. */
  bytes: Uint8Array;
  /** The text of each line, in the order of `robots.lines`. */
  source: readonly SourceLine[];
  /** The body is an HTML page: findings on its markup lines (isMarkup), which only repeat that, are left out. */
  html: boolean;
}
