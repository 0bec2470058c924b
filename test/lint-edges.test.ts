/**
 * Lint at its edges: UTF-16 without a BOM from the smallest sample, sitemaps that are not absolute
 * and their fix, pages served as robots.txt (an XML declaration, markup after comments), and
 * control characters in quoted text.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { initSync, parseCrawlDelay, Robots, type ParseOptions } from "../src/index.js";
import { parseCrawlDelay as referenceCrawlDelay } from "../src/reference/records.js";
import { perByteRatio } from "./support/linear-time.js";
import { lintReport } from "./support/lint.js";
import { fuzzRuns } from "./support/fuzz.js";
import { robotsBody } from "./support/generators.js";

initSync();
const { seed, numRuns } = fuzzRuns(20261127, 300);

const lint = (body: string | Uint8Array, options: ParseOptions = {}) => lintReport(body, options).findings;
const codes = (body: string | Uint8Array) => lint(body).map((finding) => `${finding.line}:${finding.code}`);

describe("lint edge cases", () => {
  it("tells UTF-16LE without a BOM from 8 bytes on (4 code units)", () => {
    const bytes = new Uint8Array([0x55, 0, 0x2d, 0, 0x61, 0, 0x67, 0]); // "U-ag" in UTF-16LE
    expect(codes(bytes)).toContain("1:utf-16");
  });

  it("a sitemap with a scheme other than http(s), ftp included or not, is not absolute", () => {
    expect(codes("User-agent: *\nDisallow: /\nSitemap: urn:example:sitemap\n")).toEqual(["3:sitemap-not-absolute"]);
    expect(codes("User-agent: *\nDisallow: /\nSitemap: file:///sitemap.xml\n")).toEqual(["3:sitemap-not-absolute"]);
  });

  it("an XML declaration on a later line marks the body as a page", () => {
    expect(codes("User-agent: *\n<?xml version=\"1.0\"?>\n")).toContain("2:html-body");
  });

  it("a sitemap given as a path is fixed with that path on a full URL", () => {
    const [finding] = lint("User-agent: *\nDisallow: /\nSitemap: /maps/site.xml\n");
    expect(finding).toMatchObject({ code: "sitemap-not-absolute", line: 3, fix: "write the full URL: `Sitemap: https://example.com/maps/site.xml`" });
  });
});

describe("lint quoting and sampling", () => {
  it("quotes a DEL character as a space, as other controls", () => {
    const robots = Robots.parse("User-agent: *\nDisallow: /\nFoo\u007fbar: 1\n", { keepSource: true });
    const [finding] = robots.lint().findings;
    expect(finding).toMatchObject({ code: "unknown-key", line: 3 });
    expect(finding.message).toContain("`Foo bar`");
    robots.dispose();
  });

  it("reads only whole code units when it tells UTF-16 without a BOM (a stray ninth byte does not count)", () => {
    // "U-ag" in UTF-16LE, then a lone NUL: four code units with a NUL high byte, nothing else.
    const robots = Robots.parse(new Uint8Array([0x55, 0, 0x2d, 0, 0x61, 0, 0x67, 0, 0]), { keepSource: true });
    expect(robots.lint().findings.map((finding) => finding.code)).toContain("utf-16");
    robots.dispose();
  });
});

describe("lint: a page served as robots.txt", () => {
  it("with rules in it says that Google reads them, and its lines without markup get their own findings", () => {
    const body = "<html><body><pre>\nUser-agent: *\nDisallow: /private\nfoo bar baz\n</pre></body></html>\n";
    const robots = Robots.parse(body, { keepSource: true });
    try {
      const findings = robots.lint().findings;
      expect(findings.map((finding) => `${finding.line}:${finding.code}`)).toEqual(["1:html-body", "4:invalid-line"]);
      expect(findings[0].message).toBe("this is an HTML or XML page, not a robots.txt (`<html><body><pre>`): Google's parser still reads the rule in it, other crawlers may refuse the whole file");
      expect(robots.isAllowed("http://example.com/private", "bot")).toBe(false);
    } finally {
      robots.dispose();
    }
  });

  it("without rules says it once: its styles and scripts get no findings of their own", () => {
    const page = "<!DOCTYPE html>\n<html><head><style>\nbody {\n  margin: 0;\n}\n</style>\n<script>\nvar x = 1;\n</script></head>\n<body>Not found</body></html>\n";
    expect(codes(page)).toEqual(["1:html-body"]);
  });

  it("without rules says crawlers find none", () => {
    const [finding] = lint("<html><body>Not found</body></html>\n");
    expect(finding).toMatchObject({ code: "html-body", line: 1, message: "this is an HTML or XML page, not a robots.txt (`<html><body>Not found</body></html>`): crawlers find no rules in it" });
  });

  it("is told by markup on the first line with content, after comment lines", () => {
    const robots = Robots.parse("# generated\n<p>Not found</p>\n", { keepSource: true });
    expect(robots.lint().findings.map((finding) => `${finding.line}:${finding.code}`)).toContain("2:html-body");
    robots.dispose();
  });
});

describe("lint: a key without its colon, and a colon in the value", () => {
  const findingsOf = (body: string, code: string) => lint(body).filter((finding) => finding.code === code);

  it("says what is read and fixes with the whole value, for rules and sitemaps", () => {
    expect(codes("User-agent: *\nDisallow /search?q=a:b\nsitemap http://a.com/s.xml\n")).toEqual(["2:colon-in-value", "3:colon-in-value"]);
    const [rule, sitemap] = findingsOf("User-agent: *\nDisallow /search?q=a:b\nsitemap http://a.com/s.xml\n", "colon-in-value");
    expect(rule).toMatchObject({ severity: "error", fix: "write `Disallow: /search?q=a:b`" });
    expect(rule.message).toContain("Google reads `Disallow: b`");
    expect(sitemap).toMatchObject({ fix: "write `Sitemap: http://a.com/s.xml`" });
  });

  it("builds the typo's fix and the slash check from the value meant", () => {
    expect(findingsOf("User-agent: *\nDissallow /x:y\n", "typo")).toEqual([expect.objectContaining({ fix: "write `Disallow: /x:y`" })]);
    expect(findingsOf("User-agent: *\nDisallow search:b\n", "pattern-without-slash")).toEqual([expect.objectContaining({ fix: "write `Disallow: /search:b`" })]);
    expect(findingsOf("User-agent: *\nDisallow: /\nSitemap sitemap:1\n", "sitemap-not-absolute")).toEqual([expect.objectContaining({ message: expect.stringContaining("`sitemap:1`") })]);
  });

  it("a record key that is only read whole (Host) is not also an unknown key", () => {
    expect(codes("User-agent: *\nDisallow: /\nHost foo:bar\n")).toEqual(["3:colon-in-value"]);
  });

  it("reads a key of several words before a sound value as a long key, not a split one", () => {
    // Google reads `Disallow: /private/` and the sitemap URL: the fix must keep them.
    const findings = lint("User-agent: *\nDisallow all: /private/\nSitemap index: https://x.com/s.xml\n");
    expect(findings.map((finding) => `${finding.line}:${finding.code}:${finding.fix}`)).toEqual([
      "2:typo:write `Disallow: /private/`",
      "3:typo:write `Sitemap: https://x.com/s.xml`",
    ]);
  });

  it("leaves alone a key that holds a space by itself (`User agent`) and a colon after a typo-free key", () => {
    expect(codes("User agent: x\nDisallow: /a:b\n")).toEqual(["1:typo"]);
    expect(codes("Nonsense words: /a\n")).toEqual(["1:unknown-key", "1:no-groups"]);
  });
});

describe("lint: empty Disallow lines", () => {
  it("are reported beside a rule that does something, not beside other empty Disallows", () => {
    expect(codes("User-agent: *\nDisallow:\nDisallow:\n")).toEqual([]);
    expect(codes("User-agent: *\nDisallow:\nDisallow: /a\n")).toEqual(["2:empty-disallow"]);
    expect(codes("User-agent: *\nDisallow:\nAllow: /a\n")).toEqual(["2:empty-disallow"]);
    // Rules of another group do not count.
    expect(codes("User-agent: a\nDisallow: /a\n\nUser-agent: b\nDisallow:\nDisallow:\n")).toEqual([]);
  });
});

describe("lint: the line limit", () => {
  const long = (tail: string) => `User-agent: *\nDisallow: /${"a".repeat(16_000)}${tail}\n`;
  it("reports a line whose record is cut, not one that loses only a comment or trailing space", () => {
    expect(codes(long("b".repeat(1_000)))).toEqual(["2:line-too-long"]);
    expect(codes(long(` # ${"c".repeat(1_000)}`))).toEqual([]);
    expect(codes(long(" ".repeat(1_000)))).toEqual([]);
    // A comment that starts past the limit: the value before it is cut.
    expect(codes(long(`${"b".repeat(1_000)}#note`))).toEqual(["2:line-too-long"]);
  });
});

describe("lint: the size limit says where it cut", () => {
  const body = "User-agent: *\nDisallow: /abcdef\nDisallow: /x\n";
  const sizeLimit = (maxBytes: number) => {
    const robots = Robots.parse(body, { keepSource: true, maxBytes });
    try {
      return robots.lint().findings.filter((finding) => finding.code === "size-limit");
    } finally {
      robots.dispose();
    }
  };

  it("at a line's start: from that line on", () => {
    expect(sizeLimit(32)).toEqual([expect.objectContaining({ line: 3, message: expect.stringContaining("everything from this line on is ignored") })]);
  });

  it("at a line's end: after that line", () => {
    expect(sizeLimit(31)).toEqual([expect.objectContaining({ line: 2, message: expect.stringContaining("everything after this line is ignored") })]);
  });

  it("inside a line: what is read of it, and that a cut pattern matches more", () => {
    const [finding] = sizeLimit(26);
    expect(finding).toMatchObject({ line: 2 });
    expect(finding.message).toContain("this line is cut, and read as `Disallow: /a`: if the pattern went on, it now matches more URLs than written");
  });

  it("inside a comment, or before a rule's pattern: says what that does", () => {
    const cut = (text: string, maxBytes: number) => lint(Buffer.from(text), { maxBytes }).find((finding) => finding.code === "size-limit")?.message;
    expect(cut("User-agent: *\nDisallow: /abc # a comment here\n", 30)).toContain("read as `Disallow: /abc` (only its comment is cut)");
    expect(cut("User-agent: *\nDisallow: /abc\n", 23)).toContain("read as `Disallow:`, a rule that does nothing");
  });

  it("in a UTF-16 file, does not compare UTF-16 bytes with UTF-8 ones", () => {
    const body = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("User-agent: *\nDisallow: /abc\nDisallow: /def\n", "utf16le")]);
    const [finding] = lint(body, { maxBytes: 61 }).filter((found) => found.code === "size-limit");
    expect(finding.message).toContain("the file is 90 bytes of UTF-16LE; only part is read (");
  });
});

describe("lint: fixes that keep what the file means", () => {
  const fixOf = (body: string, code: string) => lint(body).find((finding) => finding.code === code)?.fix;

  it("a file of rules under an HTML comment is linted as a robots.txt, not as a page", () => {
    expect(codes("<!-- generated by a CMS -->\nUser-agent: *\nDisallow: /private/\nFoo bar baz\n")).toEqual(["1:invalid-line", "4:invalid-line"]);
    // Without records, a first line of markup still marks a page.
    expect(codes("<!-- nothing here -->\n")).toContain("1:html-body");
  });

  it("user-agent names: the crawler inside a full user-agent string, never a generic word, one line per name of a list", () => {
    expect(fixOf("User-agent: Linguee Bot\nDisallow: /\n", "user-agent-truncated")).toBe("write `User-agent: Linguee` if that is the crawler's name, else the one token it documents");
    expect(fixOf("User-agent: Mozilla/5.0 (compatible; Baiduspider/2.0; +http://x)\nDisallow: /\n", "user-agent-truncated")).toBe("write only the crawler's product token: `User-agent: Baiduspider`");
    expect(fixOf("User-agent: Mozilla/5.0 (compatible; Googlebot/2.1)\nDisallow: /\n", "user-agent-truncated")).toBe("write only the crawler's product token: `User-agent: Googlebot`");
    expect(fixOf("User-agent: AhrefsBot, SemrushBot\nDisallow: /\n", "user-agent-truncated")).toBe("write one line per crawler: `User-agent: AhrefsBot`, `User-agent: SemrushBot`");
    // `*` would give every crawler the rules meant for one.
    expect(fixOf("User-agent: 360Spider\nDisallow: /\n", "user-agent-no-name")).not.toContain("User-agent: *");
  });

  it("an empty group merged with another of the same agent says so, not that the agent may crawl everything", () => {
    const [finding] = lint("User-agent: a\nDisallow: /x\n\nUser-agent: a\nCrawl-delay: 5\n").filter((found) => found.code === "empty-group");
    expect(finding).toMatchObject({ line: 4, fix: "move its lines into the group at line 1" });
    expect(finding.message).not.toContain("crawl everything");
  });

  it("a directive's key alone is fixed with its colon", () => {
    expect(lint("User-agent: Googlebot\nDisallow\n").find((finding) => finding.code === "invalid-line")).toMatchObject({ line: 2, fix: "write `Disallow:`" });
  });

  it("a pattern without its slash: the path of a host, `/*` before an extension or a query", () => {
    const fixes = lint("User-agent: *\nDisallow: .pdf$\nDisallow: ?sort=\nDisallow: www.example.com/private\nDisallow: example.org/a/b\nDisallow: private/\nDisallow: index.html\n")
      .filter((finding) => finding.code === "pattern-without-slash").map((finding) => finding.fix);
    expect(fixes).toEqual(["write `Disallow: /*.pdf$`", "write `Disallow: /*?sort=`", "write `Disallow: /private`", "write `Disallow: /a/b`", "write `Disallow: /private/`", "write `Disallow: /index.html`"]);
  });

  it("a first character that starts with byte EF is no byte-order mark: the byte the parser skips leaves invalid UTF-8", () => {
    const found = codes(Buffer.from([0xef, 0xbc, 0x83, ...Buffer.from(" robots\nUser-agent: *\nDisallow: /x\n")]));
    expect(found).toContain("1:invalid-utf8");
    expect(found.some((code) => code.endsWith(":bom"))).toBe(false);
    // A whole BOM still is one.
    expect(codes(Buffer.from([0xef, 0xbb, 0xbf, ...Buffer.from("User-agent: *\nDisallow: /x\n")]))).toEqual(["1:bom"]);
  });

  it("a crawl-delay before any group applies to no crawler", () => {
    expect(codes("Crawl-delay: 10\n\nUser-agent: *\nDisallow: /x\n")).toEqual(["1:ignored-record", "1:rule-outside-group"]);
    expect(fixOf("User-agent: *\nCrawl-delay: 1,5\n", "crawl-delay-not-number")).toBe("write `Crawl-delay: 1.5`");
  });

  it("sitemaps: a URL without its scheme, a repeated key, several URLs on a line", () => {
    expect(fixOf("User-agent: *\nDisallow: /\nSitemap: //example.com/s.xml\n", "sitemap-not-absolute")).toBe("write the full URL: `Sitemap: https://example.com/s.xml`");
    expect(fixOf("User-agent: *\nDisallow: /\nSitemap: Sitemap: https://example.org/s.xml\n", "sitemap-not-absolute")).toBe("write the full URL: `Sitemap: https://example.org/s.xml`");
    expect(fixOf("User-agent: *\nDisallow: /\nSitemap: https://x.com/a.xml, https://x.com/b.xml\n", "sitemap-not-absolute")).toBe("write one Sitemap line per URL");
  });

  it("an empty Allow, or a pattern that matches no URL, is no rule that makes an empty Disallow redundant", () => {
    expect(codes("User-agent: *\nDisallow:\nAllow:\n")).toEqual([]);
    expect(codes("User-agent: *\nDisallow:\nDisallow: foo\n")).toEqual(["3:pattern-without-slash"]);
  });
});

describe("lint: user-agent lines, small cases", () => {
  it("an empty value is said to be empty, not quoted as nothing", () => {
    const [finding] = lint("User-agent:\nDisallow: /\n").filter((found) => found.code === "user-agent-no-name");
    expect(finding.message).toBe("an empty User-agent value names no crawler, so this line applies to none");
  });

  it("a blank line between two lines naming the same agent is not worth a finding", () => {
    expect(codes("User-agent: *\n\nUser-agent: *\nDisallow: /x\n")).toEqual([]);
    expect(codes("User-agent: a\n\nUser-agent: b\nDisallow: /x\n")).toEqual(["2:blank-line-between-user-agents"]);
  });
});

describe("lint's statements hold in the verdicts", () => {
  it("an empty group: the agents it says may crawl everything may, those it says are merged get the other group's rules", () => {
    const body = "User-agent: b\nDisallow: /\n\nUser-agent: *\nDisallow: /\n\nUser-agent: a\nUser-agent: b\n";
    const robots = Robots.parse(body, { keepSource: true });
    try {
      const empty = robots.lint().findings.filter((finding) => finding.code === "empty-group");
      expect(empty.map((finding) => finding.line)).toEqual([7]);
      expect(empty[0].message).toMatch(/^the group of `a, b` has no rules of its own: `a` may crawl everything, and the \* group does not apply to it; Google merges it with the group at line 1, whose rules apply to `b`/);
      expect(robots.isAllowed("http://example.com/x", "a")).toBe(true);
      expect(robots.isAllowed("http://example.com/x", "b")).toBe(false);
    } finally {
      robots.dispose();
    }
  });

  it("an empty group whose only name Google reads as empty says nothing of it: * decides for that crawler", () => {
    const robots = Robots.parse("User-agent: *\nDisallow: /\n\nUser-agent: 360Spider\n", { keepSource: true });
    try {
      expect(robots.lint().findings.map((finding) => `${finding.line}:${finding.code}`)).toEqual(["4:user-agent-no-name"]);
      expect(robots.isAllowed("http://example.com/x", "360Spider")).toBe(false);
    } finally {
      robots.dispose();
    }
  });

  it("what each agent gets equals groupsFor and crawlDelay, in both profiles", () => {
    fc.assert(
      fc.property(robotsBody, fc.constantFrom("google", "rfc9309") as fc.Arbitrary<"google" | "rfc9309">, (body, profile) => {
        const robots = Robots.parse(body, { keepSource: true, profile });
        try {
          for (const summary of robots.lint().agents) {
            const { scope, groups } = robots.groupsFor(summary.agent);
            expect(summary.scope).toBe(scope);
            expect(summary.groups.map((group) => group.index)).toEqual(groups);
            expect(summary.crawlDelay).toBe(robots.crawlDelay(summary.agent));
          }
        } finally {
          robots.dispose();
        }
      }),
      { seed, numRuns },
    );
  });
});

describe("lint takes time in proportion to the file", () => {
  // 1 is linear, 16 quadratic; 4 leaves room for a busy machine.
  const lintOnce = (body: string) => void lint(body);

  it("on many groups of distinct agents (each agent's summary was a pass over every group)", () => {
    const groups = (count: number) => Array.from({ length: count }, (_, i) => `User-agent: agent${String.fromCharCode(97 + (i % 26))}${i.toString(36).replace(/[0-9]/g, (d) => "ghijklmnop"[Number(d)])}\nCrawl-delay: 1\nDisallow: /`).join("\n");
    expect(perByteRatio(lintOnce, groups(250), groups(4_000))).toBeLessThan(4);
  });

  it("on one group of many agents and no rules (each agent was compared with every one before it)", () => {
    const group = (count: number) => `${Array.from({ length: count }, (_, i) => `User-agent: bot${i.toString(26).replace(/[0-9]/g, (d) => "qrstuvwxyz"[Number(d)])}`).join("\n")}\nCrawl-delay: 1\n`;
    expect(perByteRatio(lintOnce, group(250), group(4_000))).toBeLessThan(4);
  });

  it("on a long user-agent value without `bot` (its product token was searched from every character)", () => {
    const line = (letters: number) => `User-agent: ${"a".repeat(letters)} (x\nDisallow: /\n`;
    expect(perByteRatio(lintOnce, line(1_000), line(16_000))).toBeLessThan(4);
  });

  it("on a long crawl-delay of digits ending in a letter (its number pattern backtracked through the digits)", () => {
    const line = (digits: number) => `User-agent: *\nCrawl-delay: ${"1".repeat(digits)}x\n`;
    expect(perByteRatio(lintOnce, line(1_000), line(16_000))).toBeLessThan(4);
    expect(perByteRatio((value: string) => parseCrawlDelay(value), `${"1".repeat(4_000)}x`, `${"1".repeat(64_000)}x`)).toBeLessThan(4);
    expect(perByteRatio((value: string) => referenceCrawlDelay(value), `${"1".repeat(4_000)}x`, `${"1".repeat(64_000)}x`)).toBeLessThan(4);
  });
});

describe("lint in the rfc9309 profile", () => {
  it("says that the profile reads a key without a colon, or a misspelt one, as Google does", () => {
    const body = "User-agent *\nDisallow /x\nDisalow: /y\n";
    const robots = Robots.parse(body, { keepSource: true, profile: "rfc9309" });
    try {
      const messages = robots.lint().findings.map((finding) => `${finding.line}:${finding.code}: ${finding.message}`);
      expect(messages).toEqual([
        '1:missing-colon: no colon after `User-agent`: Google accepts "key value" and so does the rfc9309 profile, RFC 9309 and most crawlers need "key: value"',
        '2:missing-colon: no colon after `Disallow`: Google accepts "key value" and so does the rfc9309 profile, RFC 9309 and most crawlers need "key: value"',
        "3:typo: `Disalow` is read as Disallow by Google and by the rfc9309 profile (an accepted misspelling); other crawlers ignore the line",
      ]);
      expect(robots.isAllowed("http://example.com/x", "bot")).toBe(false);
      expect(robots.isAllowed("http://example.com/y", "bot")).toBe(false);
    } finally {
      robots.dispose();
    }
    expect(lint(body).map((finding) => finding.message).join("\n")).not.toContain("rfc9309");
  });
});

describe("lint: the start of the file", () => {
  it("reports a BOM cut to its first one or two bytes before text: the parser skips them, other parsers do not", () => {
    for (const prefix of [[0xef], [0xef, 0xbb]]) {
      const body = new Uint8Array([...prefix, ...new TextEncoder().encode("User-agent: *\nDisallow: /\n")]);
      const findings = lint(body);
      expect(findings.map((finding) => `${finding.line}:${finding.code}`)).toEqual(["1:bom"]);
      expect(findings[0].message).toContain(`the file starts with ${prefix.map((byte) => byte.toString(16).toUpperCase()).join(" ")}, part of a UTF-8 byte-order mark`);
      const robots = Robots.parse(body);
      expect(robots.isAllowed("http://example.com/x", "bot")).toBe(false);
      robots.dispose();
    }
  });

  it("says how many rules a file that looks like UTF-16 without a BOM still has in single bytes", () => {
    const utf16 = new Uint8Array(4_200);
    for (let i = 0; i < utf16.length; i += 2) utf16[i] = 0x23; // "#" in UTF-16LE: a comment
    const body = new Uint8Array([...utf16, ...new TextEncoder().encode("\nUser-agent: *\nDisallow: /private\n")]);
    const [finding] = lint(body).filter((each) => each.code === "utf-16");
    expect(finding.message).toMatch(/read as bytes, here as by every crawler, only the rule written in single bytes is read$/);
    const robots = Robots.parse(body);
    expect(robots.isAllowed("http://example.com/private", "bot")).toBe(false);
    robots.dispose();
    expect(lint(utf16).find((each) => each.code === "utf-16")!.message).toMatch(/it holds no rules$/);
  });
});

describe("lint: NUL bytes in a line", () => {
  it("reports text lost after a NUL, with what the line reads as, in both profiles, and the verdicts agree", () => {
    const body = "User-agent: *\nDisallow: /private\0/tmp\nDisallow: /a\0\nDisallow: /b # c\0d\n";
    for (const profile of ["google", "rfc9309"] as const) {
      const findings = lint(body, { profile });
      expect(findings.map((finding) => `${finding.line}:${finding.code}`), profile).toEqual(["2:nul-in-line"]);
      expect(findings[0].message).toBe("a NUL byte ends this line (parsers read lines as C strings, as Google's does), so `/tmp` after it is ignored: the rule reads `Disallow: /private`, which matches more URLs than written");
      const robots = Robots.parse(body, { profile });
      expect(robots.isAllowed("http://example.com/private/public", "bot")).toBe(false);
      robots.dispose();
    }
  });
});

describe("lint fixes", () => {
  it("write a record without a value as `key:`, with no space after the colon", () => {
    const [typo] = lint("User-agent: *\nDisallow all:\n").filter((finding) => finding.code === "typo");
    expect(typo.fix).toBe("write `Disallow:`");
  });
});
