/** Findings about record values: sitemaps that are not absolute URLs, crawl-delays that are not numbers. */
import { finding } from "./catalog.js";
import type { LintInput } from "./input.js";
import { isAbsoluteHttpUrl } from "./meant.js";
import type { SourceLine } from "./source.js";
import { quote } from "./text.js";
import type { LintFinding } from "./types.js";
import { binaryToUtf8 } from "../reference/bytes.js";
import { parseCrawlDelay } from "../records.js";
import type { RobotsRecord } from "../types.js";

/**
 * A sitemap written without its colon (`Sitemap http://example.com/s.xml`) is read as the value
 * after the URL's colon; colon-in-value says so, and this finding is about the URL meant.
 */
function sitemapFinding(record: RobotsRecord, line: SourceLine): LintFinding | undefined {
  const value = binaryToUtf8(line.meant.value);
  // Several URLs on one line: a URL parser takes the spaces into the path.
  const urls = value.split(/[\s,]+/).filter((url) => url !== "");
  if (urls.length > 1 && urls.every(isAbsoluteHttpUrl)) {
    return finding("sitemap-not-absolute", record.line, `Sitemap ${quote(value)} holds ${urls.length} URLs: it is read as one, which is no sitemap`, "write one Sitemap line per URL");
  }
  if (isAbsoluteHttpUrl(value)) return undefined;
  const what = value === "" ? "an empty Sitemap" : `Sitemap ${quote(value)}`;
  return finding("sitemap-not-absolute", record.line, `${what} is not an absolute http(s) URL, so crawlers ignore it`, `write the full URL: \`Sitemap: ${absoluteSitemapMeant(value)}\``);
}

/** The URL meant by a sitemap value that is not one: a scheme for `//host/...`, a repeated key dropped, a host for a path. */
function absoluteSitemapMeant(value: string): string {
  const repeated = /^sitemap\s*:\s*/i.exec(value);
  if (repeated !== null && isAbsoluteHttpUrl(value.slice(repeated[0].length))) return value.slice(repeated[0].length);
  if (value.startsWith("//")) return `https:${value}`;
  if (value.startsWith("/")) return `https://example.com${value}`;
  return "https://example.com/sitemap.xml";
}

function crawlDelayFinding(record: RobotsRecord): LintFinding | undefined {
  if (parseCrawlDelay(record.value) !== undefined) return undefined;
  // A decimal comma (`1,5`) meant a point.
  const seconds = /^\d+(?:[.,]\d+)?/.exec(record.value)?.[0].replace(",", ".");
  const fix = seconds === undefined ? "write a number of seconds: `Crawl-delay: 10`" : `write \`Crawl-delay: ${seconds}\``;
  return finding("crawl-delay-not-number", record.line, `Crawl-delay ${quote(record.value)} is not a number of seconds, so crawlers that honour it ignore it`, fix);
}

export function recordFindings(input: LintInput): LintFinding[] {
  const found: LintFinding[] = [];
  const firstAgentLine = input.robots.groups[0]?.userAgents[0]?.line ?? Infinity;
  for (const record of input.robots.records) {
    // A crawl-delay belongs to the group it is in (behaviour.md 26): before any group, to none.
    if (record.key === "crawl-delay" && record.line < firstAgentLine) {
      found.push(finding("rule-outside-group", record.line, `${quote(`Crawl-delay: ${record.value}`)} comes before any User-agent line, so it applies to no crawler`, "move it into the group of each crawler it is for (`User-agent: *` for all)"));
    }
    const problem = record.key === "sitemap" ? sitemapFinding(record, input.source[record.line - 1]) : record.key === "crawl-delay" ? crawlDelayFinding(record) : undefined;
    if (problem !== undefined) found.push(problem);
  }
  return found;
}
