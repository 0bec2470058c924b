/**
 * Unit tests of the reference implementation's internals (src/reference/). The behaviour and
 * conformance suites run against every implementation elsewhere; these pin the small pieces.
 */
import { describe, expect, it } from "vitest";
import { isGlobalAgent, selectGroups, userAgentToken } from "../src/reference/agents.js";
import { splitUrlBatch } from "../src/reference/batch.js";
import { buildModel } from "../src/reference/builder.js";
import { asciiLower, binaryToBytes, binaryToUtf8, bytesToBinary, trimAsciiSpace, utf8ToBinary } from "../src/reference/bytes.js";
import { Robots, isRobotsError } from "../src/reference/index.js";
import { classifyKey } from "../src/reference/keys.js";
import { parseLine } from "../src/reference/line.js";
import { splitLines, utf8BomPrefixLength } from "../src/reference/lines.js";
import { patternMatches } from "../src/reference/match.js";
import { compileRules, indexPagePattern } from "../src/reference/pattern.js";
import { escapePattern, normalisePathRfc9309, normalisePatternRfc9309 } from "../src/reference/percent.js";
import { GOOGLE_MAX_LINE_BYTES, profileSwitches } from "../src/reference/profile.js";
import { crawlDelayFor, parseCrawlDelay } from "../src/reference/records.js";
import { RuleIndex, literalPrefix } from "../src/reference/rule-index.js";
import { Verdicts } from "../src/reference/verdict.js";
import { getPathParamsQuery, isRobotsTxtPath, matchPath } from "../src/reference/url-path.js";
import { perByteRatio } from "./support/linear-time.js";

const google = profileSwitches("google");
const rfc9309 = profileSwitches("rfc9309");

/** A byte string from byte values. */
const bin = (...bytes: number[]): string => String.fromCharCode(...bytes);

function expectCode(fn: () => unknown, code: string): void {
  try {
    fn();
  } catch (error) {
    expect(isRobotsError(error)).toBe(true);
    expect((error as { code: string }).code).toBe(code);
    return;
  }
  throw new Error(`expected ${code}, nothing was thrown`);
}

describe("bytes", () => {
  it("round-trips every byte value", () => {
    const all = new Uint8Array(256).map((_, i) => i);
    const text = bytesToBinary(all);
    expect(text.length).toBe(256);
    expect(text.charCodeAt(0xe9)).toBe(0xe9);
    expect(binaryToBytes(text)).toEqual(all);
  });

  it("converts large inputs (more than one chunk)", () => {
    const big = new Uint8Array(100_000).fill(0x61);
    expect(bytesToBinary(big)).toBe("a".repeat(100_000));
  });

  it("encodes URLs as UTF-8 and decodes record values non-fatally", () => {
    expect(utf8ToBinary("/ツ")).toBe(bin(0x2f, 0xe3, 0x83, 0x84));
    expect(binaryToUtf8(bin(0x2f, 0xe3, 0x83, 0x84))).toBe("/ツ");
    expect(binaryToUtf8(bin(0x61, 0xff, 0x62))).toBe("a\ufffdb");
  });

  it("lower-cases ASCII only", () => {
    expect(asciiLower("GoogleBOT-_x")).toBe("googlebot-_x");
    // The Kelvin sign would become "k" with String#toLowerCase.
    expect(asciiLower("\u212A")).toBe("\u212A");
    // The neighbours of A-Z stay.
    expect(asciiLower("@AZ[`")).toBe("@az[`");
  });

  it("trims space, tab, VT and FF, nothing else", () => {
    expect(trimAsciiSpace(" \t\v\fa b\f\v\t ")).toBe("a b");
    expect(trimAsciiSpace("\u00a0a\u00a0")).toBe("\u00a0a\u00a0");
  });
});

describe("line splitting (decision 5)", () => {
  const texts = (body: string, max = Infinity) => splitLines(body, max).map((line) => line.text);

  it("counts one more line after the last terminator", () => {
    expect(texts("")).toEqual([""]);
    expect(texts("a")).toEqual(["a"]);
    expect(texts("a\n")).toEqual(["a", ""]);
    expect(texts("a\nb")).toEqual(["a", "b"]);
  });

  it("ends lines at LF, CR and CRLF, in any mix", () => {
    expect(texts("a\r\nb\rc\nd")).toEqual(["a", "b", "c", "d"]);
    expect(texts("a\rb\rc")).toEqual(["a", "b", "c"]);
    expect(texts("\r\n")).toEqual(["", ""]);
    expect(texts("\r\r\n")).toEqual(["", "", ""]);
    expect(texts("\n\r")).toEqual(["", "", ""]);
    expect(texts("\r\n\n")).toEqual(["", "", ""]);
    expect(texts("a\r\n\r\nb")).toEqual(["a", "", "b"]);
  });

  it("numbers lines from 1, per terminator", () => {
    expect(splitLines("x\ry\r\nz", Infinity).map((line) => line.number)).toEqual([1, 2, 3]);
  });

  it("treats NUL, form feed, VT and U+2028 bytes as ordinary bytes", () => {
    const u2028 = utf8ToBinary("\u2028");
    expect(texts(`a\0b\fc\vd${u2028}e`)).toHaveLength(1);
  });
});

describe("UTF-8 BOM (decision 4)", () => {
  it("skips a full or partial BOM at the start", () => {
    expect(utf8BomPrefixLength(bin(0xef, 0xbb, 0xbf, 0x61))).toBe(3);
    expect(utf8BomPrefixLength(bin(0xef, 0xbb, 0x61))).toBe(2);
    expect(utf8BomPrefixLength(bin(0xef, 0x61))).toBe(1);
    expect(utf8BomPrefixLength(bin(0xef))).toBe(1);
    expect(utf8BomPrefixLength(bin(0x61, 0xef, 0xbb, 0xbf))).toBe(0);
    expect(utf8BomPrefixLength("")).toBe(0);
  });

  it("keeps bytes once the BOM prefix stops matching", () => {
    // EF EF: the second EF does not continue the BOM, so it is content.
    expect(splitLines(bin(0xef, 0xef, 0x61), Infinity)[0].text).toBe(bin(0xef, 0x61));
    // A second BOM is ordinary content.
    expect(splitLines(bin(0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf), Infinity)[0].text).toBe(bin(0xef, 0xbb, 0xbf));
  });

  it("does not count the BOM in the first line, nor skip a BOM after a newline", () => {
    const lines = splitLines(bin(0xef, 0xbb, 0xbf, 0x0a, 0xef, 0xbb, 0xbf), Infinity);
    expect(lines.map((line) => line.text)).toEqual(["", bin(0xef, 0xbb, 0xbf)]);
  });

  it("lets a BOM-prefixed file parse its first directive", () => {
    const model = buildModel(bin(0xef, 0xbb) + "User-agent: *\nDisallow: /", google);
    expect(model.lines[0].kind).toBe("user-agent");
    expect(model.groups[0].global).toBe(true);
  });
});

describe("line truncation (decision 6)", () => {
  it("keeps 16,663 bytes in the google profile", () => {
    expect(GOOGLE_MAX_LINE_BYTES).toBe(16_663);
    const exact = splitLines("x".repeat(16_663), GOOGLE_MAX_LINE_BYTES)[0];
    expect(exact.tooLong).toBe(false);
    expect(exact.text.length).toBe(16_663);
    const over = splitLines("x".repeat(16_664) + "\nnext", GOOGLE_MAX_LINE_BYTES);
    expect(over[0].tooLong).toBe(true);
    expect(over[0].text.length).toBe(16_663);
    expect(over[1]).toEqual({ number: 2, text: "next", tooLong: false });
  });

  it("keeps lines whole in rfc9309", () => {
    const line = splitLines("x".repeat(17_000), rfc9309.maxLineBytes)[0];
    expect(line.tooLong).toBe(false);
    expect(line.text.length).toBe(17_000);
  });

  it("drops what lies past the limit, comments included", () => {
    const pattern = "/" + "a".repeat(16_663 - "Disallow: /".length);
    const body = "User-agent: *\nDisallow: " + pattern + "bbbb#comment";
    const googleModel = buildModel(body, google);
    expect(googleModel.lines[1]).toMatchObject({ kind: "disallow", tooLong: true, hasComment: false });
    expect(googleModel.groups[0].rules[0].pattern).toBe(pattern);
    const rfcModel = buildModel(body, rfc9309);
    expect(rfcModel.lines[1]).toMatchObject({ kind: "disallow", tooLong: false, hasComment: true });
    expect(rfcModel.groups[0].rules[0].pattern).toBe(pattern + "bbbb");
  });
});

describe("one line (decisions 7-9)", () => {
  it("classifies empty and comment lines", () => {
    expect(parseLine("")).toMatchObject({ kind: "empty", hasComment: false });
    expect(parseLine(" \t\v\f")).toMatchObject({ kind: "empty" });
    expect(parseLine("  # hi")).toMatchObject({ kind: "comment", hasComment: true });
  });

  it("cuts the comment at the first #, even inside a value", () => {
    expect(parseLine("Disallow: /a#b")).toMatchObject({ kind: "disallow", value: "/a", hasComment: true });
    expect(parseLine("Disallow: /a # b # c")).toMatchObject({ value: "/a" });
  });

  it("splits at the first colon and trims key and value", () => {
    expect(parseLine("  Sitemap :  http://a/b:c  ")).toMatchObject({ kind: "sitemap", key: "Sitemap", value: "http://a/b:c" });
    expect(parseLine("Disallow:")).toMatchObject({ kind: "disallow", value: "" });
    expect(parseLine("Disallow:\f/a\v")).toMatchObject({ value: "/a" });
  });

  it("accepts whitespace for a missing colon only with exactly two words", () => {
    expect(parseLine("user-agent FooBot")).toMatchObject({ kind: "user-agent", value: "FooBot", missingColon: true });
    expect(parseLine("disallow \t /a")).toMatchObject({ kind: "disallow", value: "/a", missingColon: true });
    expect(parseLine("disallow /a b")).toMatchObject({ kind: "invalid", missingColon: false });
    expect(parseLine("disallow")).toMatchObject({ kind: "invalid", missingColon: false });
    // Only space and tab separate; a form feed does not.
    expect(parseLine("disallow\f/a")).toMatchObject({ kind: "invalid" });
  });

  it("keeps a second colon as the value's first byte", () => {
    expect(parseLine("Disallow::/a")).toMatchObject({ kind: "disallow", key: "Disallow", value: ":/a" });
  });

  it("rejects an empty key", () => {
    expect(parseLine(": /a")).toMatchObject({ kind: "invalid" });
  });

  it("ends a line's content at NUL (decision 7)", () => {
    expect(parseLine("Disallow: /a\0b")).toMatchObject({ kind: "disallow", value: "/a" });
    expect(parseLine("Disallow: /a\0#b")).toMatchObject({ value: "/a", hasComment: false });
    expect(parseLine("\0Disallow: /a")).toMatchObject({ kind: "empty" });
  });
});

describe("keys (decision 10)", () => {
  it("matches directives by case-insensitive prefix", () => {
    expect(classifyKey("USER-AGENTS")).toEqual({ kind: "user-agent", typo: false });
    expect(classifyKey("Disallowed")).toEqual({ kind: "disallow", typo: false });
    expect(classifyKey("allowance")).toEqual({ kind: "allow", typo: false });
    expect(classifyKey("Sitemaps")).toEqual({ kind: "sitemap", typo: false });
  });

  it("accepts and flags the known typos", () => {
    for (const key of ["useragent", "User Agent"]) expect(classifyKey(key)).toEqual({ kind: "user-agent", typo: true });
    for (const key of ["dissallow", "dissalow", "Disalow", "diasllow", "disallaw"]) {
      expect(classifyKey(key)).toEqual({ kind: "disallow", typo: true });
    }
    expect(classifyKey("site-map")).toEqual({ kind: "sitemap", typo: true });
    expect(classifyKey("alow").kind).toBe("unknown");
  });

  it("matches ignored records exactly", () => {
    expect(classifyKey("Crawl-Delay").kind).toBe("ignored-record");
    expect(classifyKey("noarchive").kind).toBe("ignored-record");
    expect(classifyKey("crawl-delays").kind).toBe("unknown");
    expect(classifyKey("foo").kind).toBe("unknown");
  });
});

describe("pattern escaping (decision 11)", () => {
  it("upper-cases the hex of existing escapes", () => {
    expect(escapePattern("%aa")).toBe("%AA");
    expect(escapePattern("/a%2fb%3Cc")).toBe("/a%2Fb%3Cc");
  });

  it("encodes bytes >= 0x80", () => {
    expect(escapePattern(utf8ToBinary("/SanJoséSellers"))).toBe("/SanJos%C3%A9Sellers");
    expect(escapePattern(utf8ToBinary("á"))).toBe("%C3%A1");
    expect(escapePattern(bin(0x2f, 0x80, 0xff))).toBe("/%80%FF");
  });

  it("keeps everything else, malformed escapes and spaces included", () => {
    expect(escapePattern("http://www.example.com")).toBe("http://www.example.com");
    expect(escapePattern("/a b*$")).toBe("/a b*$");
    expect(escapePattern("%a")).toBe("%a");
    expect(escapePattern("%zz%")).toBe("%zz%");
    // Read left to right: `%%41` is a lone `%`, then the escape `%41`.
    expect(escapePattern("%%4a")).toBe("%%4A");
    expect(escapePattern(bin(0x25, 0x61, 0xe9))).toBe("%a%E9");
    // DEL is below 0x80: kept.
    expect(escapePattern("/a\x7f")).toBe("/a\x7f");
  });
});

describe("rfc9309 normalisation (decisions 12, 18)", () => {
  it("decodes escapes of unreserved characters in patterns, keeps the others", () => {
    expect(normalisePatternRfc9309("/foo/bar/%62%61%7A")).toBe("/foo/bar/baz");
    expect(normalisePatternRfc9309("/%41%2D%2E%5F%7E%30")).toBe("/A-._~0");
    expect(normalisePatternRfc9309("/a%2Fb%24%2A%25")).toBe("/a%2Fb%24%2A%25");
    expect(normalisePatternRfc9309("/*.php$")).toBe("/*.php$");
    // One pass: what a decoded escape spells is not decoded again.
    expect(normalisePatternRfc9309("%25%34%31")).toBe("%2541");
    // The neighbours of each unreserved range stay encoded.
    expect(normalisePatternRfc9309("/%2C%2F%3A%40%5B%60%7B%7F")).toBe("/%2C%2F%3A%40%5B%60%7B%7F");
  });

  it("keeps malformed escapes as written (decision 18): G is no hex digit", () => {
    for (const malformed of ["/a%G1", "/a%g1", "/a%1G", "/a%1g"]) expect(normalisePatternRfc9309(malformed), malformed).toBe(malformed);
  });

  it("normalises paths the same way, and escapes * and $", () => {
    expect(normalisePathRfc9309("/foo/bar/%62%61%7a")).toBe("/foo/bar/baz");
    expect(normalisePathRfc9309("/a%2fb")).toBe("/a%2Fb");
    expect(normalisePathRfc9309("/path/foo-$")).toBe("/path/foo-%24");
    expect(normalisePathRfc9309("/a*b")).toBe("/a%2Ab");
    expect(normalisePathRfc9309(utf8ToBinary("/ツ"))).toBe("/%E3%83%84");
    expect(normalisePathRfc9309("/%2%zz%")).toBe("/%2%zz%");
    expect(normalisePathRfc9309("/a\0b")).toBe("/a\0b");
  });

  it("compiles patterns per profile", () => {
    const [googleRule] = compileRules("disallow", 1, "/%62", google);
    const [rfcRule] = compileRules("disallow", 1, "/%62", rfc9309);
    expect(googleRule).toMatchObject({ pattern: "/%62", priority: 4 });
    expect(rfcRule).toMatchObject({ pattern: "/b", priority: 2 });
  });
});

describe("index pages (decision 15)", () => {
  it("derives /dir/$ from an allow of /dir/index.htm*", () => {
    expect(indexPagePattern("/d/index.html")).toBe("/d/$");
    expect(indexPagePattern("/index.htm")).toBe("/$");
    expect(indexPagePattern("/*/index.html$")).toBe("/*/$");
    expect(indexPagePattern("/d/index.php")).toBeUndefined();
    expect(indexPagePattern("/index.html/x")).toBeUndefined();
    expect(indexPagePattern("index.html")).toBeUndefined();
  });

  it("applies to allow rules in the google profile only", () => {
    expect(compileRules("allow", 7, "/d/index.html", google)).toEqual([
      { kind: "allow", line: 7, pattern: "/d/index.html", priority: 13, indexPage: false },
      { kind: "allow", line: 7, pattern: "/d/$", priority: 4, indexPage: true },
    ]);
    expect(compileRules("disallow", 7, "/d/index.html", google)).toHaveLength(1);
    expect(compileRules("allow", 7, "/d/index.html", rfc9309)).toHaveLength(1);
  });
});

describe("URL path (decisions 16, 17)", () => {
  const cases: Array<[string, string]> = [
    ["", "/"],
    ["http://www.example.com", "/"],
    ["http://www.example.com/", "/"],
    ["http://www.example.com/a", "/a"],
    ["http://www.example.com/a/", "/a/"],
    ["http://www.example.com/a/b?c=http://d.e/", "/a/b?c=http://d.e/"],
    ["http://www.example.com/a/b?c=d&e=f#fragment", "/a/b?c=d&e=f"],
    ["http://a.com/b?c#d", "/b?c"],
    ["example.com", "/"],
    ["example.com/", "/"],
    ["example.com/a", "/a"],
    ["example.com/a/b?c=d&e=f#fragment", "/a/b?c=d&e=f"],
    ["a", "/"],
    ["a/", "/"],
    ["/a", "/a"],
    ["a/b", "/b"],
    ["example.com?a", "/?a"],
    ["example.com;a", "/;a"],
    ["example.com/a;b#c", "/a;b"],
    ["//a/b/c", "/b/c"],
    ["//a://b/c", "/c"],
    ["/a?b=http://c/d", "/a?b=http://c/d"],
    ["http://a.com#x/y", "/"],
    ["http://a.com/#", "/"],
    ["/a/../b/c", "/a/../b/c"],
  ];
  it.each(cases)("%j -> %j", (url, path) => {
    expect(getPathParamsQuery(url)).toBe(path);
  });

  it("ends the google path at NUL, keeps it in rfc9309", () => {
    expect(matchPath("http://a.com/x\0y", google)).toBe("/x");
    expect(matchPath("http://a.com/\0", google)).toBe("/");
    expect(matchPath("http://a.com/x\0y", rfc9309)).toBe("/x\0y");
  });

  it("recognises the robots.txt URL (decision 19)", () => {
    expect(isRobotsTxtPath("/robots.txt")).toBe(true);
    expect(isRobotsTxtPath("/robots.txt?x=1")).toBe(true);
    expect(isRobotsTxtPath("/robots.txt;x")).toBe(false);
    expect(isRobotsTxtPath("/ROBOTS.TXT")).toBe(false);
    expect(isRobotsTxtPath(matchPath("http://a.com/%72obots.txt", rfc9309))).toBe(true);
  });
});

describe("matcher (decision 14)", () => {
  const matches = (pattern: string, path: string) => patternMatches(path, pattern);

  it("matches prefixes, case-sensitively", () => {
    expect(matches("/fish", "/fish.html")).toBe(true);
    expect(matches("/fish", "/fish")).toBe(true);
    expect(matches("/fish", "/Fish.asp")).toBe(false);
    expect(matches("/fish", "/catfish")).toBe(false);
    expect(matches("/fish/", "/fish")).toBe(false);
    expect(matches("", "/anything")).toBe(true);
  });

  it("treats * as any run of bytes", () => {
    expect(matches("/*.php", "/folder/any.php.file.html")).toBe(true);
    expect(matches("/*.php", "/windows.PHP")).toBe(false);
    expect(matches("/fish*.php", "/fishheads/catfish.php?x")).toBe(true);
    expect(matches("*", "/")).toBe(true);
    expect(matches("/a*", "/a")).toBe(true);
    expect(matches("/**b", "/b")).toBe(true);
  });

  it("anchors with $ only at the very end", () => {
    expect(matches("/*.php$", "/folder/filename.php")).toBe(true);
    expect(matches("/*.php$", "/filename.php?x")).toBe(false);
    expect(matches("/*.php$", "/filename.php5")).toBe(false);
    expect(matches("/$", "/")).toBe(true);
    expect(matches("/$", "/page.htm")).toBe(false);
    expect(matches("/a$b", "/a$b")).toBe(true);
    expect(matches("/a$b", "/ab")).toBe(false);
    expect(matches("/a$$", "/a$")).toBe(true);
    expect(matches("$", "/")).toBe(false);
    expect(matches("*$", "/x")).toBe(true);
  });

  it("backtracks over earlier candidates", () => {
    expect(matches("/*.html$", "/a.html/b.html")).toBe(true);
    expect(matches("/*a*b$", "/aXbaYb")).toBe(true);
    expect(matches("/*ab", "/aaab")).toBe(true);
  });

  it("reaches offsets past the first 32 bytes of the path, up to its end", () => {
    // Paths of 32 and 64 bytes: the end offset is the first of a new word of the offset set.
    for (const length of [32, 33, 64, 70]) {
      const path = `/${"a".repeat(length - 3)}xb`;
      expect(matches("/*b$", path), `${length}`).toBe(true);
      expect(matches("/*xb$", path), `${length}`).toBe(true);
      expect(matches("/*x*b", path), `${length}`).toBe(true);
      expect(matches("/*y", path), `${length}`).toBe(false);
    }
    // A * whose smallest offset lies in the third word (65) extends from there, not from before it.
    expect(matches(`/${"a".repeat(64)}*aa$`, `/${"a".repeat(65)}`)).toBe(false);
    expect(matches(`/${"a".repeat(64)}*aa$`, `/${"a".repeat(66)}`)).toBe(true);
    const late = `/${"a".repeat(40)}x${"a".repeat(40)}y`;
    expect(matches("/*x*y$", late)).toBe(true);
    expect(matches("/*x*x", late)).toBe(false);
  });

  it("compares raw bytes", () => {
    expect(matches(bin(0x2f, 0xe9), bin(0x2f, 0xe9))).toBe(true);
    expect(matches("/a\0", "/a")).toBe(false);
  });

  it("handles pathological patterns without blowing up: linear in the path, no backtracking", () => {
    const pathological = ["/*a*a*a*a*a*b", "/*a*a*a*a*a*a", "/" + "*a".repeat(1_000) + "b", "/" + "*a".repeat(1_000) + "$"];
    const path = "/" + "a".repeat(5_000);
    expect(pathological.map((pattern) => matches(pattern, path))).toEqual([false, true, false, true]);
    // A backtracking matcher's cost grows with a power of the path's length for these patterns.
    const small = "/" + "a".repeat(2_000);
    const large = "/" + "a".repeat(32_000);
    for (const pattern of pathological) expect(perByteRatio((p: string) => matches(pattern, p), small, large)).toBeLessThan(4);
  });
});

describe("rule index (an optimisation: must never hide a rule that matches)", () => {
  it("takes the bytes before the first * or a final $", () => {
    expect(literalPrefix("/a/b*c")).toBe("/a/b");
    expect(literalPrefix("/a$")).toBe("/a");
    expect(literalPrefix("/a$b")).toBe("/a$b");
    expect(literalPrefix("/a$*")).toBe("/a$");
    expect(literalPrefix("*x")).toBe("");
    expect(literalPrefix("$")).toBe("");
    expect(literalPrefix("")).toBe("");
  });

  it("returns every rule that matches, for short and long prefixes", () => {
    const patterns = ["", "*", "$", "/", "/a", "/a$", "/abcdefgh", "/abcdefghij", "/abcdefgh*z", "/abcdefgX", "/b", "/a*c"];
    const rules = patterns.map((pattern, i) => ({ kind: "disallow" as const, line: i + 1, pattern, priority: pattern.length, indexPage: false }));
    const index = new RuleIndex(rules);
    for (const path of ["/", "/a", "/abcdefgh", "/abcdefghijk", "/abcdefghz", "/ac", "/b", "/x"]) {
      const expected = rules.filter((rule) => patternMatches(path, rule.pattern));
      const found = index.candidates(path).filter((rule) => patternMatches(path, rule.pattern));
      expect(new Set(found), path).toEqual(new Set(expected));
    }
  });
});

describe("user agents and groups (decisions 20-22)", () => {
  it("recognises the global agent", () => {
    expect(isGlobalAgent("*")).toBe(true);
    expect(isGlobalAgent("* foo")).toBe(true);
    expect(isGlobalAgent("*\tfoo")).toBe(true);
    expect(isGlobalAgent("*foo")).toBe(false);
    expect(isGlobalAgent("")).toBe(false);
  });

  it("cuts a value to its product token", () => {
    expect(userAgentToken("Googlebot/2.1")).toBe("Googlebot");
    expect(userAgentToken("Foo Bar")).toBe("Foo");
    expect(userAgentToken("AB42bot")).toBe("AB");
    expect(userAgentToken("Foo*")).toBe("Foo");
    expect(userAgentToken("googlebot-news_x")).toBe("googlebot-news_x");
    expect(userAgentToken("42")).toBe("");
  });

  it("builds groups: only allow/disallow end a run of user-agent lines", () => {
    const model = buildModel(
      ["Disallow: /early", "User-agent: A", "Crawl-delay: 5", "Sitemap: /s", "User-agent: B/1.0", "Disallow: /x", "Foo: bar", "User-agent: *", "Allow: /y"].join("\n"),
      google,
    );
    expect(model.groups.map((group) => ({ tokens: group.tokens, global: group.global, rules: group.rules.map((rule) => rule.line) }))).toEqual([
      { tokens: ["a", "b"], global: false, rules: [6] },
      { tokens: [], global: true, rules: [9] },
    ]);
    expect(model.lines[0]).toMatchObject({ kind: "disallow", outsideGroup: true });
    expect(model.lines[5]).toMatchObject({ kind: "disallow", outsideGroup: false });
    expect(model.records.map((record) => [record.line, record.key, record.group])).toEqual([
      [3, "crawl-delay", 0],
      [4, "sitemap", null],
      [7, "foo", 0],
    ]);
    expect(model.sitemaps).toEqual(["/s"]);
  });

  it("selects specific groups, else global ones", () => {
    const { groups } = buildModel("User-agent: a\nUser-agent: *\nDisallow: /1\nUser-agent: b\nDisallow: /2\nUser-agent: *\nUser-agent: \nDisallow: /3", google);
    expect(selectGroups(groups, ["A"])).toMatchObject({ scope: "specific", groups: [{ index: 0 }] });
    expect(selectGroups(groups, ["b", "a"])).toMatchObject({ scope: "specific", groups: [{ index: 0 }, { index: 1 }] });
    expect(selectGroups(groups, ["c"])).toMatchObject({ scope: "global", groups: [{ index: 0 }, { index: 2 }] });
    // The empty token matches the empty query only.
    expect(selectGroups(groups, [""])).toMatchObject({ scope: "specific", groups: [{ index: 2 }] });
    // The queried agent is not cut.
    expect(selectGroups(groups, ["a b"]).scope).toBe("global");
    expect(selectGroups(groups, []).scope).toBe("global");
  });
});

describe("verdict (decision 23)", () => {
  const explain = (body: string, url: string, agent = "bot", switches = google) =>
    new Verdicts(buildModel(body, switches).groups, switches).forAgents([agent])(utf8ToBinary(url));

  it("lets the longest match win, allow on ties, first line among equals", () => {
    expect(explain("User-agent: *\nAllow: /p\nDisallow: /", "/page")).toEqual({ allowed: true, line: 2, rule: { kind: "allow", pattern: "/p", group: "global" } });
    expect(explain("User-agent: *\nDisallow: /a\nAllow: /a", "/a")).toMatchObject({ allowed: true, line: 3 });
    expect(explain("User-agent: *\nDisallow: /a\nDisallow: /*", "/a")).toMatchObject({ allowed: false, line: 2 });
    expect(explain("User-agent: *\nDisallow: /*\nDisallow: /a", "/a")).toMatchObject({ allowed: false, line: 2 });
  });

  it("reports a matched empty pattern without disallowing", () => {
    expect(explain("User-agent: *\nDisallow:", "/x")).toEqual({ allowed: true, line: 2, rule: { kind: "disallow", pattern: "", group: "global" } });
    expect(explain("User-agent: *\nDisallow:\nDisallow: /", "/x")).toMatchObject({ allowed: false, line: 3 });
  });

  it("answers line 0 and no rule when nothing matched", () => {
    expect(explain("User-agent: *\nDisallow: /a", "/b")).toEqual({ allowed: true, line: 0 });
    expect(explain("Disallow: /", "/b")).toEqual({ allowed: true, line: 0 });
  });

  it("reports the index-page rule with its derived pattern", () => {
    expect(explain("User-agent: *\nAllow: /d/index.html\nDisallow: /d/", "/d/")).toEqual({ allowed: true, line: 2, rule: { kind: "allow", pattern: "/d/$", group: "global" } });
  });

  it("implicitly allows /robots.txt in rfc9309 only", () => {
    expect(explain("User-agent: *\nDisallow: /", "/robots.txt", "bot", rfc9309)).toEqual({ allowed: true, line: 0 });
    expect(explain("User-agent: *\nDisallow: /", "/robots.txt", "bot", google)).toMatchObject({ allowed: false, line: 2 });
  });
});

describe("crawl-delay (decision 26)", () => {
  it("parses non-negative decimals only", () => {
    expect(["5", "0.5", "10.", ".5", "007"].map(parseCrawlDelay)).toEqual([5, 0.5, 10, 0.5, 7]);
    for (const bad of ["", ".", "-1", "+1", "1e3", "1,5", "5s", " 5", "0x10", "Infinity"]) expect(parseCrawlDelay(bad)).toBeUndefined();
  });

  it("takes the first usable value of the deciding groups", () => {
    const model = buildModel(
      "Crawl-delay: 1\nUser-agent: *\nCrawl-delay: x\nCrawl-delay: 2\nDisallow: /p\nUser-agent: a\nCrawl-delay: 3\nAllow: /\nUser-agent: b\nDisallow: /",
      google,
    );
    expect(crawlDelayFor(model.groups, model.records, ["other"])).toBe(2);
    expect(crawlDelayFor(model.groups, model.records, ["a"])).toBe(3);
    expect(crawlDelayFor(model.groups, model.records, ["b"])).toBeUndefined();
  });

  it("belongs to every agent of its user-agent run", () => {
    // The crawl-delay does not end the run, so `b` shares the group (and the delay) of `a`.
    const model = buildModel("User-agent: a\nCrawl-delay: 3\nUser-agent: b\nDisallow: /", google);
    expect(model.groups).toHaveLength(1);
    expect(crawlDelayFor(model.groups, model.records, ["b"])).toBe(3);
  });
});

describe("byte batches (decision 27)", () => {
  const split = (text: string) => splitUrlBatch(new TextEncoder().encode(text));

  it("splits at LF, drops one CR per line and no entry after a final LF", () => {
    expect(split("")).toEqual([]);
    expect(split("\n")).toEqual([""]);
    expect(split("/a\n/b")).toEqual(["/a", "/b"]);
    expect(split("/a\r\n/b\r\n")).toEqual(["/a", "/b"]);
    expect(split("/a\r\r\n\n/c")).toEqual(["/a\r", "", "/c"]);
    expect(split("/a\rb")).toEqual(["/a\rb"]);
  });

  it("keeps raw bytes", () => {
    expect(splitUrlBatch(new Uint8Array([0x2f, 0xe9, 0x0a]))).toEqual([bin(0x2f, 0xe9)]);
  });
});

describe("Robots surface", () => {
  it("reports one line info per line, and input info", () => {
    const robots = Robots.parse("User-agent: *\r\nDisallow: /\r\n");
    expect(robots.lines.map((line) => line.kind)).toEqual(["user-agent", "disallow", "empty"]);
    expect(robots.input).toEqual({ bytes: 28, parsedBytes: 28, truncated: false, cutInLine: false, encoding: "utf-8", bom: false });
    expect(robots.profile).toBe("google");
  });

  it("lists matching rules winner first, and counts a group's rule lines without the index.html rule it implies", () => {
    const robots = Robots.parse("User-agent: *\nDisallow: /a\nAllow: /a/b\nAllow: /index.html\n");
    expect(robots.matchingRules("/a/b", "x").map((rule) => rule.line)).toEqual([3, 2]);
    expect(robots.groups.map((group) => group.ruleLines)).toEqual([3]);
  });

  it("classifies string and byte batches alike", () => {
    const robots = Robots.parse("User-agent: *\nDisallow: /a\nAllow: /a/b");
    // An empty line is a URL (`/`); an empty *last* URL cannot be written in a byte batch.
    const urls = ["/a", "/a/b", "", "/c"];
    const fromStrings = robots.classifyWithLines(urls, "bot");
    const fromBytes = robots.classifyWithLines(new TextEncoder().encode(urls.join("\n")), "bot");
    expect(fromStrings).toEqual({ allowed: new Uint8Array([0, 1, 1, 1]), lines: new Uint32Array([2, 3, 0, 0]) });
    expect(fromBytes).toEqual(fromStrings);
    expect(robots.classify(urls, ["x", "bot"])).toEqual(new Uint8Array([0, 1, 1, 1]));
  });

  it("throws RobotsError for misuse, never for content", () => {
    expect(() => Robots.parse(bin(0, 0xff, 0xfe, 0x0d, 0x23, 0x3a))).not.toThrow();
    expectCode(() => Robots.parse(42 as unknown as string), "ROBOTS_ERR_INVALID_BODY");
    expectCode(() => Robots.parse("", { profile: "x" as "google" }), "ROBOTS_ERR_INVALID_OPTION");
    const robots = Robots.parse("User-agent: *\nDisallow: /");
    expectCode(() => robots.isAllowed(1 as unknown as string, "a"), "ROBOTS_ERR_INVALID_URL");
    expectCode(() => robots.classify([null] as unknown as string[], "a"), "ROBOTS_ERR_INVALID_URL");
    expectCode(() => robots.explain("/", 1 as unknown as string), "ROBOTS_ERR_INVALID_AGENT");
    expectCode(() => robots.crawlDelay([1] as unknown as string[]), "ROBOTS_ERR_INVALID_AGENT");
  });

  it("throws ROBOTS_ERR_DISPOSED after dispose, which is idempotent", () => {
    const robots = Robots.parse("User-agent: *\nDisallow: /");
    robots.dispose();
    robots.dispose();
    const uses: Array<() => unknown> = [
      () => robots.profile,
      () => robots.isAllowed("/", "a"),
      () => robots.explain("/", "a"),
      () => robots.classify(["/"], "a"),
      () => robots.classifyWithLines(["/"], "a"),
      () => robots.sitemaps,
      () => robots.crawlDelay("a"),
      () => robots.records,
      () => robots.lines,
      () => robots.input,
    ];
    for (const use of uses) expectCode(use, "ROBOTS_ERR_DISPOSED");
  });
});
