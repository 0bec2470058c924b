/**
 * Lint in detail: the catalogue kept frozen, pages told by their markup wherever it stands,
 * UTF-16 without a BOM at the edges of its sample, and the exact words of findings whose
 * numbers, names and fixes a site owner acts on (robots-txt.md section 5, README "Lint").
 */
import { describe, expect, it } from "vitest";
import { initSync, LINT_CODES, Robots, sourceLines, type ParseOptions } from "../src/index.js";
import { lintReport } from "./support/lint.js";

initSync();

const lint = lintReport;
const findings = (body: string | Uint8Array, options: ParseOptions = {}) => lint(body, options).findings;
const codes = (body: string | Uint8Array, options: ParseOptions = {}) => findings(body, options).map((finding) => `${finding.line}:${finding.code}`);
const only = (body: string | Uint8Array, code: string, options: ParseOptions = {}) => findings(body, options).filter((finding) => finding.code === code);

describe("LINT_CODES is frozen", () => {
  it("as a table and in each entry, so that no caller can change another caller's severities", () => {
    expect(Object.isFrozen(LINT_CODES)).toBe(true);
    for (const entry of Object.values(LINT_CODES)) expect(Object.isFrozen(entry)).toBe(true);
  });
});

describe("lint: a page served as robots.txt", () => {
  it("is told by its markup when the first line is indented", () => {
    expect(codes("  <html><body>Not found</body></html>\n")).toEqual(["1:html-body"]);
  });

  it("is told by a <body> tag on a later line of a file with rules", () => {
    // Past the first line with text, only a document's own tags (doctype, html, head, body, an XML declaration) mark a page.
    expect(codes("User-agent: *\nDisallow: /\n<body>\n")).toEqual(["3:html-body"]);
  });

  it("without rules still reports a directive written without its colon: Google reads it, unlike a tag's attributes", () => {
    expect(codes("<html><body>\nUser-agent googlebot\n</body></html>\n")).toEqual(["1:html-body", "2:missing-colon", "2:empty-group"]);
  });
});

describe("lint: UTF-16 without a BOM", () => {
  const utf16le = (text: string) => Buffer.from(text, "utf16le");
  const utf16be = (text: string) => Buffer.from(text, "utf16le").swap16();

  it("is not told from fewer than 8 bytes: the line is quoted with its NULs as spaces", () => {
    // "U-a" in UTF-16LE: three code units.
    const found = findings(new Uint8Array([0x55, 0, 0x2d, 0, 0x61, 0]));
    expect(found.map((finding) => finding.code)).not.toContain("utf-16");
    expect(found.find((finding) => finding.code === "invalid-line")?.message).toBe('not a "key: value" record, ignored: `U - a `');
  });

  it("is told from text that is mostly, not only, ASCII (a path in Cyrillic), in either byte order", () => {
    // 26 of 32 code units are ASCII: about 80% of them have a NUL byte.
    const text = "User-agent: *\nDisallow: /привет\n";
    expect(only(utf16le(text), "utf-16")[0]?.message).toContain("looks like UTF-16LE without a byte-order mark");
    expect(only(utf16be(text), "utf-16")[0]?.message).toContain("looks like UTF-16BE without a byte-order mark");
  });

  it("is told from the first 4 KB: a few UTF-16 code units before kilobytes of ASCII do not make the file UTF-16", () => {
    const body = Buffer.concat([utf16le("User-agent: *\nDisallow: /abc\n"), Buffer.from(`${"#".repeat(5_000)}\nUser-agent: *\nDisallow: /x\n`)]);
    expect(only(body, "utf-16")).toEqual([]);
  });
});

describe("lint: the start of the file", () => {
  it("does not call the first two bytes of a BOM one when a byte that is no text follows (0x80)", () => {
    // EF BB 80 is invalid UTF-8 glued to the key: the line is lost, which bom-in-key says.
    expect(codes(Buffer.from([0xef, 0xbb, 0x80, ...Buffer.from("User-agent: *\nDisallow: /x\n")]))).toEqual(["1:invalid-utf8", "1:bom-in-key", "1:no-groups", "2:rule-outside-group"]);
  });
});

describe("lint: bytes that are not UTF-8 in a file cut at the size limit", () => {
  it("counts the invalid lines only: the sequence the cut left open is not one of them", () => {
    // Line 2 holds a stray 0xFF; line 3 ends in the first byte of an é, cut by maxBytes.
    const body = Buffer.concat([Buffer.from("User-agent: *\nDisallow: /\xff\nDisallow: /", "latin1"), Buffer.from("é")]);
    expect(only(body, "invalid-utf8", { maxBytes: body.length - 1 })).toEqual([expect.objectContaining({ line: 2, message: "bytes that are not UTF-8: paths with them match only byte for byte, text shows as garbage" })]);
  });
});

describe("lint: the size limit inside a line", () => {
  it("says that a cut Allow pattern matches more URLs, as a cut Disallow does", () => {
    const [finding] = only("User-agent: *\nAllow: /abcdef\n", "size-limit", { maxBytes: 24 });
    expect(finding).toMatchObject({ line: 2 });
    expect(finding.message).toContain("this line is cut, and read as `Allow: /ab`: if the pattern went on, it now matches more URLs than written");
  });

  it("says nothing of patterns when the cut line is no rule, with a value or without", () => {
    // A sitemap or crawl-delay cut short is no rule that does nothing, nor a pattern that matches more.
    const cutAt = (body: string, maxBytes: number) => only(body, "size-limit", { maxBytes })[0]?.message;
    expect(cutAt("User-agent: *\nDisallow: /\nSitemap: https://example.com/s.xml\n", 43)).toBe("the file is 61 bytes; only 43 are read: this line is cut, and read as `Sitemap: https://`; everything after it is ignored");
    expect(cutAt("User-agent: *\nDisallow: /\nCrawl-delay: 10\n", 38)).toBe("the file is 42 bytes; only 38 are read: this line is cut, and read as `Crawl-delay:`; everything after it is ignored");
  });
});

describe("lint: a line past the length limit", () => {
  it("gives the line's length and the 16,663 bytes Google reads (README)", () => {
    const [finding] = only(`User-agent: *\nDisallow: /${"a".repeat(17_000)}\n`, "line-too-long");
    expect(finding).toMatchObject({ line: 2, message: "the line is 17,011 bytes; Google reads only the first 16,663, the rest is dropped" });
  });
});

describe("lint: records Google ignores", () => {
  it("says who reads each of them, one finding per line", () => {
    const body = "User-agent: *\nDisallow: /x\nCrawl-delay: 5\nRequest-rate: 1/5\nVisit-time: 0600-0845\nHost: example.com\nClean-param: ref /a\nContent-Signal: search=yes\nContent-Usage: ai=n\nNoindex: /a\nNofollow: /b\nNoarchive: /c\n";
    expect(only(body, "ignored-record").map((finding) => `${finding.line}: ${finding.message}`)).toEqual([
      "3: Google ignores Crawl-delay (and Yandex no longer reads it); Bing and others read it",
      "4: Request-rate is an old extension that few crawlers read",
      "5: Visit-time is an old extension that few crawlers read",
      "6: Host was read by Yandex only, which no longer does",
      "7: Clean-param is read by Yandex only",
      "8: Content-Signal states AI usage preferences, a draft that only some crawlers read",
      "9: Content-Usage states AI usage preferences, a draft that only some crawlers read",
      "10: Noindex is not a robots.txt rule (Google stopped reading it in 2019)",
      "11: Nofollow is not a robots.txt rule",
      "12: Noarchive is not a robots.txt rule",
    ]);
  });
});

describe("lint: an empty Disallow", () => {
  it("is reported beside a rule that starts with a wildcard, which does something", () => {
    expect(codes("User-agent: *\nDisallow:\nDisallow: *.pdf\n")).toEqual(["2:empty-disallow"]);
  });

  it("is the only empty rule reported: an empty Allow beside other rules is not an empty Disallow", () => {
    expect(codes("User-agent: *\nDisallow: /a\nAllow:\n")).toEqual([]);
  });
});

describe("lint: the fix for a pattern without its slash", () => {
  const fixes = (...patterns: string[]) => only(`User-agent: *\n${patterns.map((pattern) => `Disallow: ${pattern}\n`).join("")}`, "pattern-without-slash").map((finding) => finding.fix);

  it("takes a bare www host name for the whole site, and drops a host's port", () => {
    expect(fixes("www.example.com", "example.com:8080/private")).toEqual(["write `Disallow: /`", "write `Disallow: /private`"]);
  });

  it("puts `/*` before a query parameter, as before a query or an extension", () => {
    expect(fixes("&sessionid=")).toEqual(["write `Disallow: /*&sessionid=`"]);
  });
});

describe("lint: a directive's key alone", () => {
  it("says that an empty Disallow is likely meant, and says it of Disallow only", () => {
    expect(only("User-agent: *\nDisallow\nAllow\n", "invalid-line").map((finding) => finding.message)).toEqual([
      "`Disallow` without a colon is not a record, so every parser ignores it; an empty `Disallow:` allows everything, which is likely meant",
      "`Allow` without a colon is not a record, so every parser ignores it",
    ]);
  });
});

describe("lint: NUL bytes in a line", () => {
  it("are no finding when only spaces follow them, and the text lost is quoted trimmed, for Allow as for Disallow", () => {
    const found = only("User-agent: *\nDisallow: /a\0  \nAllow: /b\0c d\nDisallow: /e\0 f \n", "nul-in-line");
    expect(found.map((finding) => `${finding.line}: ${finding.message}`)).toEqual([
      "3: a NUL byte ends this line (parsers read lines as C strings, as Google's does), so `c d` after it is ignored: the rule reads `Allow: /b`, which matches more URLs than written",
      "4: a NUL byte ends this line (parsers read lines as C strings, as Google's does), so `f` after it is ignored: the rule reads `Disallow: /e`, which matches more URLs than written",
    ]);
  });
});

describe("lint: the fix for a user-agent value that is cut", () => {
  it("names the crawler's token inside a full user-agent string, a list's names, or what Google reads, by what follows the name", () => {
    const body = [
      "User-agent: Mozilla/5.0 (compatible; Robot; FooBot/1.0)", // `Robot` after compatible; is a generic word
      "User-agent: Foo/1.0; ExampleBot", // a `;` alone marks a full string too
      "User-agent: Mozilla/5.0 (Windows; AhrefsBOT/7.0)", // `bot` in any case
      "User-agent: Foo*",
      "User-agent: Foo Bar",
      "User-agent: Foo.bar",
      "User-agent: a , b",
      "Disallow: /",
    ].join("\n");
    expect(only(body, "user-agent-truncated").map((finding) => `${finding.line}: ${finding.fix}`)).toEqual([
      "1: write only the crawler's product token: `User-agent: FooBot`",
      "2: write only the crawler's product token: `User-agent: ExampleBot`",
      "3: write only the crawler's product token: `User-agent: AhrefsBOT`",
      "4: write `User-agent: Foo`",
      "5: write `User-agent: Foo` if that is the crawler's name, else the one token it documents",
      '6: Google\'s parser cannot match a name with "." in it; keep the line only for that crawler\'s own parser',
      "7: write one line per crawler: `User-agent: a`, `User-agent: b`",
    ]);
  });
});

describe("lint: a key without its colon and a colon in the value, at the edges", () => {
  it("says a misspelt first word is an accepted misspelling, as on a line with its colon", () => {
    expect(only("User-agent: *\nDissallow /x:y\n", "typo")[0]?.message).toBe("`Dissallow` is read as Disallow by Google (an accepted misspelling); other crawlers ignore the line");
  });

  it("fixes a line past the length limit with the value Google reads, cut at the limit", () => {
    // 16,663 bytes are read: `Disallow ` (9), `/search?q=a:b` (13), then 16,641 of the c's.
    const [finding] = only(`User-agent: *\nDisallow /search?q=a:b${"c".repeat(17_000)}\n`, "colon-in-value");
    expect(finding.fix).toBe(`write \`Disallow: /search?q=a:b${"c".repeat(16_641)}\``);
  });

  it("ends the first word at a tab as at a space", () => {
    expect(only("User-agent: *\nDisallow\t/search?q=a:b\n", "colon-in-value")).toEqual([expect.objectContaining({ line: 2, fix: "write `Disallow: /search?q=a:b`" })]);
  });

  it("splits a user-agent line whose value read is no name (a URL's `//`), and fixes it with the whole value", () => {
    const found = findings("User-agent Foo http://example.com/bot\nDisallow: /\n");
    expect(found.map((finding) => `${finding.line}:${finding.code}`)).toEqual(["1:colon-in-value", "1:user-agent-no-name"]);
    expect(found[0].fix).toBe("write `User-agent: Foo http://example.com/bot`");
  });

  it("reads a key of several words before an empty value, or a pattern that starts with *, as a long key", () => {
    // Both are sound rule values: Google reads `Disallow:` and `Disallow: *.pdf`, nothing is split.
    expect(codes("User-agent: *\nDisallow all:\nDisallow all: *.pdf\n")).toEqual(["2:typo", "2:empty-disallow", "3:typo"]);
    // A name may start with _ as with a letter.
    expect(findings("User-agent name: _foo\nDisallow: /\n").map((finding) => `${finding.line}:${finding.code}:${finding.fix}`)).toEqual(["1:typo:write `User-agent: _foo`"]);
  });
});

describe("lint: lines between user-agent lines", () => {
  it("a blank line between two spellings of one agent is not worth a finding: names match case-insensitively", () => {
    expect(codes("User-agent: Foo\n\nUser-agent: foo\nDisallow: /x\n")).toEqual([]);
  });

  it("an invalid line or an unknown key does not end the run either, and is named as such", () => {
    const body = "User-agent: a\nfoo\nUser-agent: b\nDisallow: /x\n\nUser-agent: c\nFoo: 1\nUser-agent: d\nDisallow: /y\n";
    expect(only(body, "line-between-user-agents").map((finding) => `${finding.line}: ${finding.message} | ${finding.fix}`)).toEqual([
      "2: this line does not end the user-agent run: `a` (line 1) and `b` (line 3) share one group and the rules after line 3 | if `a` needs rules of its own, put them before line 3; else move this line below the group's rules",
      "7: `Foo` does not end the user-agent run: `c` (line 6) and `d` (line 8) share one group and the rules after line 8 | if `c` needs rules of its own, put them before line 8; else move this line below the group's rules",
    ]);
  });
});

describe("lint: sitemaps", () => {
  it("says an empty one is empty, and drops a repeated key with spaces around its colon from the fix", () => {
    expect(only("User-agent: *\nDisallow: /\nSitemap:\nSitemap: sitemap : https://example.org/s.xml\n", "sitemap-not-absolute").map((finding) => `${finding.line}: ${finding.message} | ${finding.fix}`)).toEqual([
      "3: an empty Sitemap is not an absolute http(s) URL, so crawlers ignore it | write the full URL: `Sitemap: https://example.com/sitemap.xml`",
      "4: Sitemap `sitemap : https://example.org/s.xml` is not an absolute http(s) URL, so crawlers ignore it | write the full URL: `Sitemap: https://example.org/s.xml`",
    ]);
  });

  it("drops a repeated key from the fix only when a full URL follows it", () => {
    expect(only("User-agent: *\nDisallow: /\nSitemap: sitemap: /s.xml\n", "sitemap-not-absolute")[0]?.fix).toBe("write the full URL: `Sitemap: https://example.com/sitemap.xml`");
  });

  it("tells several URLs on one line apart by commas alone", () => {
    expect(only("User-agent: *\nDisallow: /\nSitemap: https://x.com/a.xml,https://x.com/b.xml\n", "sitemap-not-absolute")).toEqual([
      expect.objectContaining({ line: 3, message: "Sitemap `https://x.com/a.xml,https://x.com/b.xml` holds 2 URLs: it is read as one, which is no sitemap" }),
    ]);
  });
});

describe("lint: empty groups", () => {
  it("name an agent written twice once", () => {
    expect(only("User-agent: a\nUser-agent: A\n", "empty-group").map((finding) => finding.message)).toEqual(["the group of `a` has no rules: it may crawl everything"]);
  });

  it("merged with several groups list their lines in file order", () => {
    const body = "User-agent: b\nDisallow: /b\n\nUser-agent: a\nDisallow: /a\n\nUser-agent: a\nUser-agent: b\n";
    expect(only(body, "empty-group")).toEqual([{
      line: 7,
      severity: "info",
      code: "empty-group",
      message: "the group of `a, b` has no rules of its own: Google merges it with the groups at lines 1, 4, whose rules apply to `a, b` (crawlers that read only one group may read this empty one)",
      fix: "move its lines into the groups at lines 1, 4",
    }]);
  });
});

describe("lint: a crawl-delay outside any group", () => {
  it("is reported in a file without any user-agent line too", () => {
    expect(codes("Crawl-delay: 5\n")).toEqual(["1:ignored-record", "1:no-groups", "1:rule-outside-group"]);
  });
});

describe("sourceLines", () => {
  it("reads the body as parse does, with the same size limit", () => {
    expect(sourceLines("User-agent: *\nDisallow: /abcdef\n", { maxBytes: 20 })).toEqual(["User-agent: *", "Disall"]);
  });
});

describe("lint: keys as the documentation spells them", () => {
  it("fixes a known record without its colon with the documented spelling", () => {
    expect(only("User-agent: *\nDisallow: /\ncontent-signal search=yes\n", "missing-colon")[0]?.fix).toBe("write `Content-Signal: search=yes`");
  });

  it("suggests a key one letter short (an insertion away)", () => {
    expect(only("User-agent: *\nDisallow: /\nSitmap: https://x.com/s.xml\n", "unknown-key")[0]?.fix).toBe("did you mean Sitemap? write `Sitemap: https://x.com/s.xml`");
  });
});

describe("lint: what each agent gets", () => {
  it("leaves out a name Google reads as empty, and gives no crawlDelay key without a crawl-delay", () => {
    // `360Spider` names no crawler: only `*` is summarised, and it has no groups.
    expect(lint("User-agent: 360Spider\nDisallow: /\n").agents).toStrictEqual([{ agent: "*", scope: "global", groups: [], rules: 0 }]);
  });

  it("takes a group's first crawl-delay that is a number, as crawlDelay does", () => {
    const robots = Robots.parse("User-agent: a\nCrawl-delay: soon\nCrawl-delay: 3\nCrawl-delay: 4\nDisallow: /x\n", { keepSource: true });
    try {
      expect(robots.lint().agents[0]).toMatchObject({ agent: "a", crawlDelay: 3 });
      expect(robots.crawlDelay("a")).toBe(3);
    } finally {
      robots.dispose();
    }
  });

  it("takes an agent's crawl-delay from its first group in the file, when its groups merge", () => {
    const { agents } = lint("User-agent: a\nCrawl-delay: 1\nDisallow: /x\n\nUser-agent: a\nCrawl-delay: 2\nDisallow: /y\n");
    expect(agents).toStrictEqual([
      { agent: "a", scope: "specific", groups: [{ index: 0, line: 1 }, { index: 1, line: 5 }], rules: 2, crawlDelay: 1 },
      { agent: "*", scope: "global", groups: [], rules: 0 },
    ]);
  });
});
