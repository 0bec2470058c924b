/**
 * Findings about single lines: keys (typos, missing colons, colons only in the value, unknown keys), rules (outside any
 * group, paths without a leading slash, empty disallows), ignored records and long lines.
 */
import { finding } from "./catalog.js";
import { coveredByHtml } from "./file.js";
import type { LintInput } from "./input.js";
import type { SourceLine } from "./source.js";
import { closestKey, KEY_NAMES, lineContent, quote } from "./text.js";
import type { LintFinding } from "./types.js";
import { asciiLower, binaryToUtf8 } from "../reference/bytes.js";
import { classifyKey } from "../reference/keys.js";
import { parseLine } from "../reference/line.js";
import type { LineInfo } from "../types.js";

/** What Google reads of a line in the `google` profile (robots.cc `kMaxLineLen`, one byte for the C terminator). */
const GOOGLE_LINE_LIMIT = "16,663";

/** Why crawlers ignore, or read, each known record other than the four directives. */
const IGNORED_RECORD_NOTES: Readonly<Record<string, { message: string; fix: string }>> = {
  "crawl-delay": { message: "Google ignores Crawl-delay (and Yandex no longer reads it); Bing and others read it", fix: "keep it for those crawlers; set Google's crawl rate in Search Console" },
  "request-rate": { message: "Request-rate is an old extension that few crawlers read", fix: "use Crawl-delay for crawlers that honour a rate, or remove it" },
  "visit-time": { message: "Visit-time is an old extension that few crawlers read", fix: "remove it unless a crawler you care about reads it" },
  host: { message: "Host was read by Yandex only, which no longer does", fix: "remove it; redirect other host names to the main one instead" },
  "clean-param": { message: "Clean-param is read by Yandex only", fix: "keep it for Yandex; use canonical links for other search engines" },
  "content-signal": { message: "Content-Signal states AI usage preferences, a draft that only some crawlers read", fix: "keep it if you mean it; it does not block crawling" },
  "content-usage": { message: "Content-Usage states AI usage preferences, a draft that only some crawlers read", fix: "keep it if you mean it; it does not block crawling" },
  noindex: { message: "Noindex is not a robots.txt rule (Google stopped reading it in 2019)", fix: 'use a `<meta name="robots" content="noindex">` tag or an X-Robots-Tag header' },
  nofollow: { message: "Nofollow is not a robots.txt rule", fix: 'use a `<meta name="robots" content="nofollow">` tag or rel="nofollow" links' },
  noarchive: { message: "Noarchive is not a robots.txt rule", fix: 'use a `<meta name="robots" content="noarchive">` tag or an X-Robots-Tag header' },
};

/** A record as it should be written: `key: value`, or `key:` without a value. */
function recordText(key: string, value: string): string {
  return value === "" ? `${key}:` : `${key}: ${value}`;
}

/** The rfc9309 profile reads keys as Google does (README): a finding about Google's reading says so there, in `words`. */
function readHereToo(input: LintInput, words: string): string {
  return input.robots.profile === "rfc9309" ? words : "";
}

/**
 * Whether each group has a rule that does something, to tell whether an empty Disallow stands
 * alone: next to other empty Disallows it is as harmless as one.
 */
function groupHasRulesAt(input: LintInput): (line: number) => boolean {
  const starts = input.robots.groups.map((group) => group.userAgents[0]?.line ?? 0);
  // The last group starting before the line (binary search: files with thousands of groups exist).
  const groupAt = (line: number): number => {
    let low = 0;
    let high = starts.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (starts[middle] < line) low = middle + 1;
      else high = middle;
    }
    return low - 1;
  };
  const withRules = new Set<number>();
  input.robots.lines.forEach((info, i) => {
    const ruleLine = (info.kind === "allow" || info.kind === "disallow") && !info.outsideGroup;
    // An empty Allow does nothing either, nor a pattern that matches no URL (pattern-without-slash).
    const { value } = ruleLine ? input.source[i].meant : { value: "" };
    if (value.startsWith("/") || value.startsWith("*")) withRules.add(groupAt(info.line));
  });
  return (line) => withRules.has(groupAt(line));
}

function keyFindings(info: LineInfo, line: SourceLine, input: LintInput): LintFinding[] {
  const found: LintFinding[] = [];
  const { meant } = line;
  const directive = KEY_NAMES[meant.kind];
  // Decoded only for a finding: most lines have none.
  const written = (): string => binaryToUtf8(meant.key);
  const value = binaryToUtf8(meant.value);
  if (directive !== undefined && (meant.typo || asciiLower(meant.key) !== meant.kind)) {
    const how = meant.typo ? "an accepted misspelling" : "a key that starts with the right one";
    found.push(finding("typo", info.line, `${quote(written())} is read as ${directive} by Google${readHereToo(input, " and by the rfc9309 profile")} (${how}); other crawlers ignore the line`, `write \`${recordText(directive, value)}\``));
  }
  const name = directive ?? KEY_NAMES[asciiLower(meant.key)] ?? written();
  if (meant.colonInValue) {
    const read = info.kind === "unknown" ? "crawlers ignore the line" : `Google reads ${quote(`${KEY_NAMES[info.kind]}: ${binaryToUtf8(line.parsed.value)}`)} and other crawlers ignore the line`;
    found.push(finding("colon-in-value", info.line, `no colon after ${quote(written())}: the line is split at the colon inside the value, so ${read}`, `write \`${recordText(name, value)}\``));
  } else if (info.missingColon && !(info.kind === "unknown" && coveredByHtml(input, line))) {
    // In an HTML page every `<tag attribute>` looks like a key without a colon: one html-body finding says it all.
    found.push(finding("missing-colon", info.line, `no colon after ${quote(written())}: Google accepts "key value"${readHereToo(input, " and so does the rfc9309 profile")}, RFC 9309 and most crawlers need "key: value"`, `write \`${recordText(name, value)}\``));
  }
  return found;
}

/** A URL with a scheme or `//`, or a host name with a path (`www.example.com/private`): its path is meant. */
export const URL_OR_HOST = /^(?:(?:[a-z][a-z0-9+.-]*:)?\/\/[^/?#]*|www\.[^/?#]*|[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}(?::\d+)?(?=\/))(.*)$/is;

/**
 * The pattern meant by one without its leading slash: the path of a URL or host, `/*` before a
 * file extension or query (`.pdf$`, `?sort=`: anywhere, not only at the root), else a `/` in front.
 */
function pathMeant(pattern: string): string {
  const url = URL_OR_HOST.exec(pattern);
  if (url !== null) return url[1] === "" ? "/" : url[1];
  return /^[.?&=]/.test(pattern) ? `/*${pattern}` : `/${pattern}`;
}

function ruleFindings(info: LineInfo, line: SourceLine, groupHasRules: (line: number) => boolean): LintFinding[] {
  const { kind } = line.parsed;
  const { value } = line.meant;
  const name = KEY_NAMES[kind];
  if (info.outsideGroup) {
    return [finding("rule-outside-group", info.line, `${quote(`${name}: ${binaryToUtf8(value)}`)} comes before any User-agent line, so no crawler reads it`, "add `User-agent: *` (or the crawler's name) above it")];
  }
  // With a colon inside the value, colon-in-value says what is read; this is about what was meant.
  if (value !== "" && !value.startsWith("/") && !value.startsWith("*")) {
    const pattern = binaryToUtf8(value);
    return [finding("pattern-without-slash", info.line, `${quote(pattern)} starts with neither / nor *, so it matches no URL (paths start with /)`, `write \`${name}: ${pathMeant(pattern)}\``)];
  }
  if (kind === "disallow" && value === "" && groupHasRules(info.line)) {
    return [finding("empty-disallow", info.line, "an empty Disallow does nothing in a group that has other rules", "delete it (or write `Disallow: /` to block everything)")];
  }
  return [];
}

/** A key with stray bytes before a directive: a second or mis-encoded BOM (`\uFEFFUser-agent`). */
function garbledDirective(line: SourceLine): string | undefined {
  const stripped = line.parsed.key.replace(/^[\u0080-\u00ff]+/, "");
  if (stripped === line.parsed.key) return undefined;
  const { kind } = classifyKey(stripped);
  return kind === "ignored-record" || kind === "unknown" ? undefined : KEY_NAMES[kind];
}

function unknownKeyFinding(info: LineInfo, line: SourceLine): LintFinding {
  const written = binaryToUtf8(line.parsed.key);
  const directive = garbledDirective(line);
  if (directive !== undefined) {
    return finding("bom-in-key", info.line, `${quote(written)} starts with invisible bytes (a mis-encoded byte-order mark), so this ${directive} line is ignored`, `delete the bytes before ${directive} and save the file as UTF-8 without a BOM`);
  }
  const suggestion = closestKey(written);
  const fix = suggestion === undefined ? "delete the line or make it a comment (# ...)" : `did you mean ${KEY_NAMES[suggestion]}? write \`${KEY_NAMES[suggestion]}: ${binaryToUtf8(line.parsed.value)}\``;
  return finding("unknown-key", info.line, `unknown key ${quote(written)}: no crawler reads it, the line is ignored`, fix);
}

function invalidLineFinding(info: LineInfo, line: SourceLine): LintFinding {
  const content = lineContent(line);
  // A directive's key alone (`Disallow`): the colon is missing, and without it the line is nothing.
  const { kind } = /^[^\s:]+$/.test(content) ? classifyKey(content) : { kind: "unknown" as const };
  const directive = KEY_NAMES[kind];
  if (directive !== undefined) {
    const empty = kind === "disallow" ? "; an empty `Disallow:` allows everything, which is likely meant" : "";
    return finding("invalid-line", info.line, `${quote(content)} without a colon is not a record, so every parser ignores it${empty}`, `write \`${directive}:\``);
  }
  return finding("invalid-line", info.line, `not a "key: value" record, ignored: ${quote(content)}`, "make it a comment (# ...) or write it as `key: value`");
}

function otherFindings(info: LineInfo, line: SourceLine, input: LintInput): LintFinding[] {
  switch (info.kind) {
    case "unknown":
      // A known first word before a colon inside the value: colon-in-value says it.
      return coveredByHtml(input, line) || line.meant.colonInValue ? [] : [unknownKeyFinding(info, line)];
    case "invalid":
      return coveredByHtml(input, line) ? [] : [invalidLineFinding(info, line)];
    case "ignored-record": {
      const note = IGNORED_RECORD_NOTES[asciiLower(line.parsed.key)];
      return note === undefined ? [] : [finding("ignored-record", info.line, note.message, note.fix)];
    }
    default:
      return [];
  }
}

/**
 * A NUL byte before the line's comment, with text after it: the parser reads a line as a C string,
 * as Google's does (both profiles), so the text after the NUL is silently lost (a rule then
 * matches more than written).
 */
function nulFinding(info: LineInfo, line: SourceLine): LintFinding | undefined {
  const nul = line.read.indexOf("\0");
  if (nul === -1) return undefined;
  const hash = line.read.indexOf("#");
  if (hash !== -1 && hash < nul) return undefined;
  const lost = line.read.slice(nul, hash === -1 ? undefined : hash).replace(/\0/g, "").trim();
  if (lost === "") return undefined;
  const read = quote(`${binaryToUtf8(line.parsed.key)}: ${binaryToUtf8(line.parsed.value)}`);
  const effect = info.kind === "allow" || info.kind === "disallow" ? `: the rule reads ${read}, which matches more URLs than written` : `: the line reads ${read}`;
  return finding("nul-in-line", info.line, `a NUL byte ends this line (parsers read lines as C strings, as Google's does), so ${quote(binaryToUtf8(lost))} after it is ignored${effect}`, "remove the NUL byte: a robots.txt is text");
}

/** Cutting a long line at the limit changed what it says: not only a comment or trailing space was dropped. */
function cutChangesRecord(line: SourceLine): boolean {
  const whole = parseLine(line.raw);
  return whole.kind !== line.parsed.kind || whole.key !== line.parsed.key || whole.value !== line.parsed.value;
}

export function lineFindings(input: LintInput): LintFinding[] {
  const groupHasRules = groupHasRulesAt(input);
  const found: LintFinding[] = [];
  input.robots.lines.forEach((info, i) => {
    const line = input.source[i];
    if (info.tooLong && cutChangesRecord(line)) {
      found.push(finding("line-too-long", info.line, `the line is ${line.raw.length.toLocaleString("en-US")} bytes; Google reads only the first ${GOOGLE_LINE_LIMIT}, the rest is dropped`, "shorten it (split a long pattern into several rules)"));
    }
    // In UTF-16 read as bytes every other byte is NUL: the utf-16 finding says it once.
    const nul = input.utf16 !== undefined ? undefined : nulFinding(info, line);
    if (nul !== undefined) found.push(nul);
    found.push(...keyFindings(info, line, input));
    if (info.kind === "allow" || info.kind === "disallow") found.push(...ruleFindings(info, line, groupHasRules));
    else found.push(...otherFindings(info, line, input));
  });
  return found;
}
