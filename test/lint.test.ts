/**
 * The linter (robots-txt.md section 5): one fixture per finding (test/fixtures/lint, see its
 * README) against every implementation, the report's shape, random files (fast-check) and the
 * whole real-world corpus linted without a crash, with the same report from the WASM engine and
 * the reference, and the corpus's findings counted by kind.
 */
import fc from "fast-check";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LINT_CODES } from "../src/lint/index.js";
import type { LintCode, LintReport, ParseOptions } from "../src/types.js";
import { corpusBody, corpusEntries, fixturesDir, repoRoot } from "./support/fixtures.js";
import { robotsBody } from "./support/generators.js";
import { implementations, reference, wasmImplementations, type Implementation } from "./support/implementations.js";
import { fuzzRuns } from "./support/fuzz.js";

const lintDir = join(fixturesDir, "lint");

/** Each fixture and every finding it must produce (line:code), in report order. */
const FIXTURES: Record<string, { findings: string[]; options?: ParseOptions }> = {
  "clean.txt": { findings: [] },
  "rule-outside-group.txt": { findings: ["1:rule-outside-group"] },
  "pattern-without-slash.txt": { findings: ["2:pattern-without-slash", "3:pattern-without-slash"] },
  "empty-disallow.txt": { findings: ["2:empty-disallow"] },
  "user-agent-truncated.txt": { findings: ["1:user-agent-truncated"] },
  "user-agent-no-name.txt": { findings: ["1:user-agent-no-name"] },
  "line-between-user-agents.txt": { findings: ["2:ignored-record", "2:line-between-user-agents"] },
  "blank-line-between-user-agents.txt": { findings: ["2:blank-line-between-user-agents"] },
  "agent-in-several-groups.txt": { findings: ["7:agent-in-several-groups"] },
  "empty-group.txt": { findings: ["4:empty-group"] },
  "no-groups.txt": { findings: ["1:no-groups"] },
  "typo.txt": { findings: ["2:typo"] },
  "missing-colon.txt": { findings: ["1:missing-colon"] },
  "colon-in-value.txt": { findings: ["2:colon-in-value", "3:colon-in-value"] },
  "unknown-key.txt": { findings: ["3:unknown-key"] },
  "invalid-line.txt": { findings: ["3:invalid-line"] },
  "ignored-record.txt": { findings: ["3:ignored-record"] },
  "sitemap-not-absolute.txt": { findings: ["3:sitemap-not-absolute"] },
  "crawl-delay-not-number.txt": { findings: ["3:ignored-record", "3:crawl-delay-not-number"] },
  "size-limit.txt": { findings: ["3:size-limit"], options: { maxBytes: 34 } },
  "line-too-long.txt": { findings: ["2:line-too-long"] },
  "html-body.txt": { findings: ["1:html-body"] },
  "bom.txt": { findings: ["1:bom"] },
  "bom-in-key.txt": { findings: ["1:bom-in-key", "1:no-groups", "2:rule-outside-group"] },
  "invalid-utf8.txt": { findings: ["2:invalid-utf8"] },
  "utf-16.txt": { findings: ["1:utf-16"] },
  "utf-16-no-bom.txt": { findings: ["1:utf-16", "1:invalid-line", "1:no-groups"] },
  // A few NULs are not UTF-16; each ends its line's content.
  "nul-in-line.txt": { findings: ["2:nul-in-line", "3:nul-in-line"] },
};

function lintFile(impl: Implementation, file: string, options?: ParseOptions): LintReport {
  return lintBody(impl, readFileSync(join(lintDir, file)), options);
}

function lintBody(impl: Implementation, body: Uint8Array, options?: ParseOptions): LintReport {
  const robots = impl.parse(body, { ...options, keepSource: true });
  try {
    return robots.lint();
  } finally {
    robots.dispose();
  }
}

describe("lint fixtures", () => {
  it("cover every finding code, each in the file named after it", () => {
    const codes = Object.keys(LINT_CODES) as LintCode[];
    for (const code of codes) {
      expect(FIXTURES[`${code}.txt`]?.findings.some((finding) => finding.endsWith(`:${code}`)), code).toBe(true);
    }
    // + clean.txt, and utf-16 without a BOM (nul-in-line.txt is the near miss of that).
    expect(Object.keys(FIXTURES).length).toBe(codes.length + 2);
  });
});

describe("LINT_CODES", () => {
  it("gives each code the severity the README's table gives it", () => {
    const readme = readFileSync(join(repoRoot, "README.md"), "utf8");
    const table = Object.fromEntries([...readme.matchAll(/^\| `([a-z0-9-]+)` \| (error|warning|info) \|/gm)].map((row) => [row[1], row[2]]));
    expect(Object.fromEntries(Object.entries(LINT_CODES).map(([code, { severity }]) => [code, severity]))).toEqual(table);
  });
});

describe.each(implementations)("$name lints (robots-txt.md section 5)", (impl) => {
  it.each(Object.entries(FIXTURES))("%s", (file, { findings, options }) => {
    const report = lintFile(impl, file, options);
    expect(report.findings.map((finding) => `${finding.line}:${finding.code}`)).toEqual(findings);
    for (const finding of report.findings) {
      expect(finding.severity).toBe(LINT_CODES[finding.code].severity);
      // One line each, something to say and something to do.
      expect(finding.message).toMatch(/^[^\n]{10,}$/);
      expect(finding.fix).toMatch(/^[^\n]{5,}$/);
    }
    const counts = { error: 0, warning: 0, info: 0 };
    for (const finding of report.findings) counts[finding.severity]++;
    expect(report.counts).toEqual(counts);
  });

  it("says what is wrong and how to fix it, with the values as written", () => {
    const findings = (file: string) => lintFile(impl, file).findings;
    expect(findings("user-agent-truncated.txt")[0]).toMatchObject({
      severity: "warning",
      message: expect.stringContaining("is read as `Mozilla`"),
      fix: "write only the crawler's product token: `User-agent: Googlebot`",
    });
    expect(findings("pattern-without-slash.txt").map((finding) => finding.fix)).toEqual(["write `Disallow: /private/`", "write `Allow: /public`"]);
    expect(findings("line-between-user-agents.txt")[1].message).toBe(
      "Crawl-delay does not end the user-agent run: `FooBot` (line 1) and `*` (line 3) share one group and the rules after line 3",
    );
    expect(findings("unknown-key.txt")[0].fix).toBe("did you mean Disallow? write `Disallow: /tmp/`");
    expect(findings("typo.txt")[0].fix).toBe("write `Disallow: /private/`");
    expect(findings("crawl-delay-not-number.txt")[1].fix).toBe("write `Crawl-delay: 10`");
    expect(findings("sitemap-not-absolute.txt")[0].fix).toBe("write the full URL: `Sitemap: https://example.com/sitemap.xml`");
    expect(findings("invalid-utf8.txt")[0].message).toContain("(and 1 more line)");
  });

  // Each finding's edges: what must and must not be reported (robots-txt.md section 5, README table).
  it.each([
    ["the spec's own `*.gif$` example is a pattern", "User-agent: *\nDisallow: *.gif$\n", []],
    ["an empty Disallow alone in its group allows all, as meant", "User-agent: *\nDisallow:\n", []],
    ["a Sitemap line between user-agent lines", "User-agent: a\nSitemap: https://x.com/s.xml\nUser-agent: b\nDisallow: /\n", ["2:line-between-user-agents"]],
    ["the same agent twice in one group is one group", "User-agent: a\nUser-agent: a\nDisallow: /\n", []],
    ["a sitemap with another scheme than http(s)", "User-agent: *\nDisallow: /\nSitemap: ftp://x.com/s.xml\n", ["3:sitemap-not-absolute"]],
    ["a lengthened key Google accepts", "User-agent: *\nDisallowed: /x\n", ["2:typo"]],
    ["`* foo` is read as `*`", "User-agent: * foo\nDisallow: /\n", ["1:user-agent-truncated"]],
    ["the lines of an HTML body are still linted", "<html>\n<body>\nUser-agent *\nDisallow /private\n</body></html>\n", ["1:html-body", "3:missing-colon", "4:missing-colon"]],
    ["an HTML document tag in capitals, after the rules", "User-agent: *\nDisallow: /x\n<HTML>\n<BODY>hi</BODY>\n", ["3:html-body"]],
    // The Sitemap line already says the run goes on: the blank line is not reported again.
    ["a Sitemap line and a blank line between user-agent lines", "User-agent: a\nSitemap: https://example.com/s.xml\n\nUser-agent: b\nDisallow: /\n", ["2:line-between-user-agents"]],
    // Both are read as the empty name, which matches no crawler: not one agent named twice.
    // 360Spider names no crawler for Google: the * group applies to that crawler, and the empty group says nothing.
    ["an agent read as an empty name, alone in a group without rules", "User-agent: *\nDisallow: /\n\nUser-agent: 360Spider\n", ["4:user-agent-no-name"]],
        ["two agents read as empty names", "User-agent: 1bot\nDisallow: /a\n\nUser-agent: 2bot\nDisallow: /b\n", ["1:user-agent-no-name", "4:user-agent-no-name"]],
  ])("%s", (_, body, findings) => {
    const report = lintBody(impl, new TextEncoder().encode(body));
    expect(report.findings.map((finding) => `${finding.line}:${finding.code}`)).toEqual(findings);
  });

  it("suggests a known key two edits away (`User-agnet`)", () => {
    const report = lintBody(impl, new TextEncoder().encode("User-agnet: foo\nDisallow: /\n"));
    expect(report.findings[0]).toMatchObject({ line: 1, code: "unknown-key", fix: "did you mean User-agent? write `User-agent: foo`" });
  });

  it("summarises what each agent gets: its groups (merged), rules and crawl-delay", () => {
    const robots = impl.parse("User-agent: FooBot/2.1\nCrawl-delay: 5\nUser-agent: *\nDisallow: /\nAllow: /a\n\nUser-agent: foobot\nDisallow: /b\n\nUser-agent: quxbot\n", { keepSource: true });
    expect(robots.lint().agents).toEqual([
      { agent: "FooBot", scope: "specific", groups: [{ index: 0, line: 1 }, { index: 1, line: 7 }], rules: 3, crawlDelay: 5 },
      { agent: "quxbot", scope: "specific", groups: [{ index: 2, line: 10 }], rules: 0 },
      { agent: "*", scope: "global", groups: [{ index: 0, line: 1 }], rules: 2, crawlDelay: 5 },
    ]);
    expect(impl.parse("Disallow: /x\n", { keepSource: true }).lint().agents).toEqual([{ agent: "*", scope: "global", groups: [], rules: 0 }]);
  });

  it("needs the source: without keepSource lint() throws ROBOTS_ERR_NO_SOURCE, and keepSource must be a boolean", () => {
    expect(() => impl.parse("User-agent: *\n").lint()).toThrow(expect.objectContaining({ code: "ROBOTS_ERR_NO_SOURCE" }));
    expect(() => impl.parse("", { keepSource: "yes" as unknown as boolean })).toThrow(expect.objectContaining({ code: "ROBOTS_ERR_INVALID_OPTION" }));
    const robots = impl.parse("User-agent: *\n", { keepSource: true });
    robots.dispose();
    expect(() => robots.lint()).toThrow(expect.objectContaining({ code: "ROBOTS_ERR_DISPOSED" }));
  });

  it("lints what was parsed: the copy is not affected by later changes to the caller's bytes", () => {
    const body = new TextEncoder().encode("User-agent: *\nDisallow: /a\n");
    const robots = impl.parse(body, { keepSource: true });
    body.fill(0x3c); // "<<<<": would look like garbage if the linter read the caller's buffer
    expect(robots.lint().findings).toEqual([]);
  });

  it("reads the line limit of the profile: rfc9309 keeps long lines whole", () => {
    const body = readFileSync(join(lintDir, "line-too-long.txt"));
    expect(impl.parse(body, { keepSource: true, profile: "rfc9309" }).lint().findings).toEqual([]);
  });

  // What a finding says and suggests, where the suggestion is built from the line: the value as the
  // crawler would need it, and a key named only when it is near enough to be meant.
  it.each([
    ["`Googlebot*`: the * after a name is dropped like a version", "User-agent: Googlebot*\nDisallow: /\n", { line: 1, code: "user-agent-truncated", fix: "write `User-agent: Googlebot`" }],
    ["a full URL with the scheme in capitals keeps only its path", "User-agent: *\nDisallow: HTTPS://example.com/private\n", { line: 2, code: "pattern-without-slash", fix: "write `Disallow: /private`" }],
    ["a URL without a path becomes `/`", "User-agent: *\nDisallow: https://example.com\n", { line: 2, code: "pattern-without-slash", fix: "write `Disallow: /`" }],
    ["a key without a colon is spelled as documented", "User-agent: *\nCRAWL-DELAY 10\n", { line: 2, code: "missing-colon", fix: "write `Crawl-delay: 10`" }],
    ["a crawl-delay with a unit keeps its fraction", "User-agent: *\nCrawl-delay: 2.5s\n", { line: 2, code: "crawl-delay-not-number", fix: "write `Crawl-delay: 2.5`" }],
    ["an unknown key one edit from a known one", "User-agent: *\nHxst: example.com\n", { line: 2, code: "unknown-key", fix: "did you mean Host? write `Host: example.com`" }],
    ["an unknown key two edits from a known one", "User-agent: *\nHxxt: example.com\n", { line: 2, code: "unknown-key", fix: "did you mean Host? write `Host: example.com`" }],
    ["no suggestion for a key of three letters (too short to tell a typo)", "User-agent: *\nHst: example.com\n", { line: 2, code: "unknown-key", fix: "delete the line or make it a comment (# ...)" }],
    ["no suggestion three edits away", "User-agent: *\nHxxx: example.com\n", { line: 2, code: "unknown-key", fix: "delete the line or make it a comment (# ...)" }],
    // The * group itself is the fallback: saying it does not apply would be wrong.
    ["an empty * group says no more than that", "User-agent: a\nDisallow: /\n\nUser-agent: *\n", { line: 4, code: "empty-group", message: "the group of `*` has no rules: it may crawl everything" }],
    ["an empty named group beside a * group says the * group does not apply", "User-agent: *\nDisallow: /\n\nUser-agent: a\n", { line: 4, code: "empty-group", message: "the group of `a` has no rules: it may crawl everything, and the * group does not apply to it" }],
    ["an empty group of two agents, neither named elsewhere", "User-agent: *\nDisallow: /\n\nUser-agent: a\nUser-agent: c\n", { line: 4, code: "empty-group", message: "the group of `a, c` has no rules: they may crawl everything, and the * group does not apply to them" }],
    // `b` is disallowed by its other group: only `a` may crawl everything.
    ["an empty group of an agent with rules elsewhere and one without", "User-agent: b\nDisallow: /\n\nUser-agent: a\nUser-agent: b\n", {
      line: 4, code: "empty-group",
      message: "the group of `a, b` has no rules of its own: `a` may crawl everything; Google merges it with the group at line 1, whose rules apply to `b` (crawlers that read only one group may read this empty one)",
    }],
    ["an empty group naming * beside a * group with rules", "User-agent: *\nDisallow: /\n\nUser-agent: a\nUser-agent: *\n", {
      line: 4, code: "empty-group",
      message: "the group of `a, *` has no rules of its own: `a` may crawl everything, and the * group does not apply to it; Google merges it with the group at line 1, whose rules apply to `*` (crawlers that read only one group may read this empty one)",
    }],
  ])("%s", (_, body, expected) => {
    const report = lintBody(impl, new TextEncoder().encode(body));
    expect(report.findings.filter((finding) => finding.code === expected.code)).toEqual([expect.objectContaining(expected)]);
  });

  it("suggests the typo's fix from the line as Google reads it: cut at the line limit, not the whole value", () => {
    const report = lintBody(impl, new TextEncoder().encode(`User-agent: *\nDisalow: /${"a".repeat(17000)}\n`));
    // Google reads 16,663 bytes of the line: "Disalow: /" (10) and 16,653 a's.
    expect(report.findings.map((finding) => `${finding.line}:${finding.code}`)).toEqual(["2:line-too-long", "2:typo"]);
    expect(report.findings[1]!.fix).toBe(`write \`Disallow: /${"a".repeat(16653)}\``);
  });

  it("quotes a line of up to 60 characters whole, and cuts a longer one to 59 and an ellipsis", () => {
    const quoted = (text: string) => lintBody(impl, new TextEncoder().encode(`User-agent: *\nDisallow: /\n${text}\n`)).findings.find((finding) => finding.code === "invalid-line")?.message;
    expect(quoted("x".repeat(60))).toBe(`not a "key: value" record, ignored: \`${"x".repeat(60)}\``);
    expect(quoted("x".repeat(61))).toBe(`not a "key: value" record, ignored: \`${"x".repeat(59)}…\``);
    expect(quoted("x".repeat(70))).toBe(`not a "key: value" record, ignored: \`${"x".repeat(59)}…\``);
  });

  it("tells UTF-16 without a BOM by NULs in every other byte only: UTF-32, with NULs in both, is not UTF-16LE", () => {
    const text = "User-agent: *\nDisallow: /\n";
    const utf32le = new Uint8Array(text.length * 4);
    for (let i = 0; i < text.length; i++) utf32le[4 * i] = text.charCodeAt(i);
    const report = lintBody(impl, utf32le);
    expect(report.findings.map((finding) => finding.code)).not.toContain("utf-16");
  });

  describe("invalid UTF-8 in a file cut at the size limit", () => {
    /** Text as UTF-8 and numbers as raw bytes. */
    const bytes = (...parts: (string | number)[]) => Uint8Array.from(parts.flatMap((part) => (typeof part === "number" ? [part] : [...new TextEncoder().encode(part)])));
    const codes = (body: Uint8Array, options?: ParseOptions) => lintBody(impl, body, options).findings.map((finding) => `${finding.line}:${finding.code}`);

    // "User-agent: *\n" is 14 bytes, "Disallow: /" 11, é 2: a limit of 26 cuts é in half.
    it.each([
      ["a character cut in half by the limit is not invalid", bytes("User-agent: *\nDisallow: /é"), 26, ["2:size-limit"]],
      ["an invalid byte before the cut still is", bytes("User-agent: *\nDisallow: /", 0xff, "/é"), 28, ["2:invalid-utf8", "2:size-limit"]],
      // Only the last line is open: a line before it that ends mid-sequence was not cut.
      ["a sequence left open at the end of an earlier line still is", bytes("User-agent: *\nDisallow: /", 0xc3, "\nDisallow: /é"), 39, ["2:invalid-utf8", "3:size-limit"]],
    ])("%s", (_, body, maxBytes, findings) => {
      expect(codes(body, { maxBytes })).toEqual(findings);
    });

    it("a file that was not cut and ends mid-sequence is invalid", () => {
      expect(codes(bytes("User-agent: *\nDisallow: /", 0xc3))).toEqual(["2:invalid-utf8"]);
    });
  });
});

describe("random files (fast-check)", () => {
  const { seed, numRuns } = fuzzRuns(20261126, 300);

  it("lints any bytes without a throw, with findings on lines of the file, and the same report from every implementation", () => {
    const profiles: ParseOptions[] = [{}, { profile: "rfc9309", maxBytes: Infinity }, { maxBytes: 200 }];
    const codes = new Set<string>();
    fc.assert(
      fc.property(robotsBody, fc.constantFrom(...profiles), (body, options) => {
        const expected = lintBody(reference, body, options);
        const lines = Math.max(1, reference.parse(body, options).lines.length);
        for (const finding of expected.findings) {
          codes.add(finding.code);
          expect(finding.line).toBeGreaterThanOrEqual(1);
          expect(finding.line).toBeLessThanOrEqual(lines);
          expect(finding.severity).toBe(LINT_CODES[finding.code].severity);
          expect(finding.message).not.toBe("");
        }
        for (const impl of wasmImplementations) expect(lintBody(impl, body, options)).toEqual(expected);
      }),
      { seed, numRuns },
    );
    console.log(`random files: ${codes.size} of ${Object.keys(LINT_CODES).length} finding codes seen: ${[...codes].sort().join(", ")}`);
    // Not vacuous: the generated files make most kinds of finding (21 of 24 at the fixed seed).
    expect(codes.size).toBeGreaterThanOrEqual(15);
  });
});

describe("the real-world corpus", () => {
  const entries = corpusEntries();

  it("lints every file without a crash, with the same report from every implementation; findings counted by kind", () => {
    const counts = new Map<string, { findings: number; files: number }>();
    const mismatches: string[] = [];
    for (const entry of entries) {
      const body = corpusBody(entry);
      const expected = reference.parse(body, { keepSource: true }).lint();
      for (const impl of wasmImplementations) {
        if (JSON.stringify(lintBody(impl, body)) !== JSON.stringify(expected)) mismatches.push(`${entry.id} (${impl.name})`);
      }
      // The other profile, without the size limit: the large files whole, long lines kept.
      const whole: ParseOptions = { profile: "rfc9309", maxBytes: Infinity };
      if (JSON.stringify(lintBody(wasmImplementations[0], body, whole)) !== JSON.stringify(lintBody(reference, body, whole))) {
        mismatches.push(`${entry.id} (rfc9309, no limit)`);
      }
      const seen = new Set<string>();
      for (const { code } of expected.findings) {
        const row = counts.get(code) ?? { findings: 0, files: 0 };
        row.findings++;
        if (!seen.has(code)) row.files++;
        seen.add(code);
        counts.set(code, row);
      }
      // Error pages served as robots.txt (HTML, and one XML error of a storage service) start with
      // a tag; files that merely quote HTML in comments do not (the manifest's HTML flag has both).
      const startsWithTag = /^(\uFEFF)?\s*</.test(new TextDecoder().decode(body));
      expect(seen.has("html-body"), `${entry.id}: html-body`).toBe(startsWithTag);
    }
    expect(mismatches).toEqual([]);
    const table = [...counts.entries()].sort((a, b) => b[1].findings - a[1].findings);
    console.log(
      `lint over ${entries.length} corpus files:\n| code | severity | findings | files |\n|---|---|---:|---:|\n` +
        table.map(([code, row]) => `| ${code} | ${LINT_CODES[code as LintCode].severity} | ${row.findings} | ${row.files} |`).join("\n"),
    );
    expect(entries.length).toBeGreaterThanOrEqual(367);
    // The corpus is real: it has the common mistakes.
    for (const code of ["typo", "ignored-record", "html-body", "invalid-line", "user-agent-truncated"]) expect(counts.get(code)?.files ?? 0, code).toBeGreaterThan(0);
  });
});
