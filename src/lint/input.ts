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
  /** The line that shows the body is an HTML page (htmlLine), if it is one: see coveredByHtml. */
  html: SourceLine | undefined;
  /** Rule lines the parser read, in all groups. */
  rules: number;
  /** The byte order of a file that looks like UTF-16 without a byte-order mark (bomlessUtf16). */
  utf16: "UTF-16LE" | "UTF-16BE" | undefined;
}
