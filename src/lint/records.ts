/** Findings about record values: sitemaps that are not absolute URLs, crawl-delays that are not numbers. */
import { finding } from "./catalog.js";
import type { LintInput } from "./input.js";
import { meantRecord } from "./meant.js";
import type { SourceLine } from "./source.js";
import { quote } from "./text.js";
import type { LintFinding } from "./types.js";
import { binaryToUtf8 } from "../reference/bytes.js";
import { parseCrawlDelay } from "../records.js";
import type { RobotsRecord } from "../types.js";

function isAbsoluteHttpUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const { protocol } = new URL(value);
  return protocol === "http:" || protocol === "https:";
}

/**
 * A sitemap written without its colon (`Sitemap http://example.com/s.xml`) is read as the value
 * after the URL's colon; colon-in-value says so, and this finding is about the URL meant.
 */
function sitemapFinding(record: RobotsRecord, line: SourceLine): LintFinding | undefined {
  const value = binaryToUtf8(meantRecord(line).value);
  if (isAbsoluteHttpUrl(value)) return undefined;
  const fix = value.startsWith("/") ? `write the full URL: \`Sitemap: https://example.com${value}\`` : "write the full URL: `Sitemap: https://example.com/sitemap.xml`";
  const what = value === "" ? "an empty Sitemap" : `Sitemap ${quote(value)}`;
  return finding("sitemap-not-absolute", record.line, `${what} is not an absolute http(s) URL, so crawlers ignore it`, fix);
}

function crawlDelayFinding(record: RobotsRecord): LintFinding | undefined {
  if (parseCrawlDelay(record.value) !== undefined) return undefined;
  const seconds = /^\d+(?:\.\d+)?/.exec(record.value)?.[0];
  const fix = seconds === undefined ? "write a number of seconds: `Crawl-delay: 10`" : `write \`Crawl-delay: ${seconds}\``;
  return finding("crawl-delay-not-number", record.line, `Crawl-delay ${quote(record.value)} is not a number of seconds, so crawlers that honour it ignore it`, fix);
}

export function recordFindings(input: LintInput): LintFinding[] {
  const found: LintFinding[] = [];
  for (const record of input.robots.records) {
    const problem = record.key === "sitemap" ? sitemapFinding(record, input.source[record.line - 1]) : record.key === "crawl-delay" ? crawlDelayFinding(record) : undefined;
    if (problem !== undefined) found.push(problem);
  }
  return found;
}
