/**
 * Behaviour tests from the behaviour reference (shared docs/robots-txt.md, sections 1-4 and 6-8)
 * and the precise decisions of docs/behaviour.md, run against every implementation.
 *
 * Test names say where a rule comes from: `RFC 9309 2.2.2 ...` (the RFC's text), `google: ...`
 * (Google's reference parser, robots.cc), `robots-txt.md 6 ...` (a section of the behaviour
 * reference), `behaviour.md 21 ...` (a numbered decision). Where the two profiles differ
 * (robots-txt.md 7) both sides are tested. Verdicts are checked together with the explanation
 * (matching line, rule kind, compiled pattern, group scope), and every single-URL check also
 * goes through `isAllowed` and the batch API so that the three agree.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isRobotsError, RobotsError, type RobotsErrorCode } from "../src/errors.js";
import type { AgentQuery, Explanation, GroupScope, LineInfo, ParseOptions, Profile, RobotsRecord, RobotsTxt } from "../src/types.js";
import { implementations } from "./support/implementations.js";
import { fuzzRuns } from "./support/fuzz.js";

const PROFILES: readonly Profile[] = ["google", "rfc9309"];
const utf8 = new TextEncoder();

/** Concatenates text (UTF-8) and raw byte lists into one body. */
function bytesOf(...parts: Array<string | readonly number[] | Uint8Array>): Uint8Array {
  const chunks = parts.map((part) => (typeof part === "string" ? utf8.encode(part) : Uint8Array.from(part)));
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

function utf16(text: string, endian: "le" | "be"): Uint8Array {
  const out = new Uint8Array(2 + text.length * 2);
  out.set(endian === "le" ? [0xff, 0xfe] : [0xfe, 0xff]);
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    const [first, second] = endian === "le" ? [unit & 0xff, unit >> 8] : [unit >> 8, unit & 0xff];
    out[2 + 2 * i] = first;
    out[3 + 2 * i] = second;
  }
  return out;
}

const url = (path: string) => `http://example.com${path}`;

// Expected explanations.
const NONE: Explanation = { allowed: true, line: 0 };
/** Disallowed by a (non-empty) disallow rule. */
const D = (line: number, pattern: string, group: GroupScope): Explanation => ({ allowed: false, line, rule: { kind: "disallow", pattern, group } });
/** Allowed by an allow rule. */
const A = (line: number, pattern: string, group: GroupScope): Explanation => ({ allowed: true, line, rule: { kind: "allow", pattern, group } });
/** Allowed, the deciding line being an empty `Disallow:` (priority 0). */
const EMPTY_D = (line: number, group: GroupScope): Explanation => ({ allowed: true, line, rule: { kind: "disallow", pattern: "", group } });

function short(text: string): string {
  const json = JSON.stringify(text);
  return json.length > 80 ? `${json.slice(0, 60)}...(${text.length} chars)` : json;
}

/** explain, isAllowed and a one-URL batch must all give the expected answer. */
function check(robots: RobotsTxt, target: string, agent: AgentQuery, expected: Explanation): void {
  const what = `${robots.profile}: ${short(target)} for ${JSON.stringify(agent)}`;
  expect(robots.explain(target, agent), `explain ${what}`).toEqual(expected);
  expect(robots.isAllowed(target, agent), `isAllowed ${what}`).toBe(expected.allowed);
  const batch = robots.classifyWithLines([target], agent);
  expect([batch.allowed[0], batch.lines[0]], `classifyWithLines ${what}`).toEqual([expected.allowed ? 1 : 0, expected.line]);
}

/** A LineInfo with the given fields, the others false. */
function lineInfo(line: number, kind: LineInfo["kind"], flags: Partial<Omit<LineInfo, "line" | "kind">> = {}): LineInfo {
  return { line, kind, hasComment: false, typo: false, missingColon: false, tooLong: false, outsideGroup: false, ...flags };
}

function expectRobotsError(action: () => unknown, code: RobotsErrorCode): void {
  let thrown: unknown;
  try {
    action();
  } catch (error) {
    thrown = error;
  }
  expect(thrown, `expected ${code}`).toBeInstanceOf(RobotsError);
  expect(isRobotsError(thrown)).toBe(true);
  expect((thrown as RobotsError).code).toBe(code);
  expect((thrown as RobotsError).name).toBe("RobotsError");
}

/** Line count by behaviour.md 5: every LF, CR or CRLF ends a line, plus one line after the last. */
function countLines(bytes: Uint8Array): number {
  let lines = 1;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === 0x0a) lines++;
    else if (bytes[i] === 0x0d) {
      lines++;
      if (bytes[i + 1] === 0x0a) i++;
    }
  }
  return lines;
}

describe.each(implementations)("$name", (impl) => {
  const parse = (body: string | Uint8Array, options?: ParseOptions): RobotsTxt => impl.parse(body, options);
  const rfc = (body: string | Uint8Array, options: ParseOptions = {}): RobotsTxt => impl.parse(body, { ...options, profile: "rfc9309" });
  const both = (body: string | Uint8Array) => PROFILES.map((profile) => parse(body, { profile }));

  describe("robots-txt.md 1: reading the file", () => {
    it("robots-txt.md 1: input is bytes; non-UTF-8 bytes, NULs and garbage pass through without loss", () => {
      const body = bytesOf("User-agent: *\nDisallow: /caf", [0xe9], "\n# ", [0xff, 0xfe, 0x00, 0x80], " garbage\nDisallow: /x", [0xff], "\n");
      for (const robots of both(body)) {
        check(robots, url("/caf%E9"), "AnyBot", D(2, "/caf%E9", "global"));
        check(robots, url("/x%FF"), "AnyBot", D(4, "/x%FF", "global"));
        check(robots, url("/x"), "AnyBot", NONE);
        expect(robots.lines.map((l) => l.kind)).toEqual(["user-agent", "disallow", "comment", "disallow", "empty"]);
      }
    });

    it("behaviour.md 1: a string body is its UTF-8 encoding (same answers as the bytes)", () => {
      const text = "User-agent: *\nDisallow: /café\n";
      const fromString = parse(text);
      const fromBytes = parse(utf8.encode(text));
      for (const robots of [fromString, fromBytes]) {
        check(robots, url("/caf%C3%A9"), "AnyBot", D(2, "/caf%C3%A9", "global"));
        expect(robots.input).toEqual({ bytes: 31, parsedBytes: 31, truncated: false, cutInLine: false, encoding: "utf-8", bom: false });
      }
    });

    describe.each([
      ["LF", "\n"],
      ["CR only", "\r"],
      ["CRLF", "\r\n"],
    ])("RFC 9309 2.2 / behaviour.md 5: %s line ends", (_name, eol) => {
      const lines = ["User-agent: FooBot", "", "# comment", "Disallow: /x", "Allow: /x/y"];

      it("number lines from 1, one per terminator, without a final newline", () => {
        for (const robots of both(lines.join(eol))) {
          check(robots, url("/x/z"), "FooBot", D(4, "/x", "specific"));
          check(robots, url("/x/y"), "FooBot", A(5, "/x/y", "specific"));
          expect(robots.lines.map((l) => [l.line, l.kind])).toEqual([
            [1, "user-agent"],
            [2, "empty"],
            [3, "comment"],
            [4, "disallow"],
            [5, "allow"],
          ]);
        }
      });

      it("with a final newline one more (empty) line is counted", () => {
        for (const robots of both(lines.join(eol) + eol)) {
          check(robots, url("/x/z"), "FooBot", D(4, "/x", "specific"));
          expect(robots.lines).toHaveLength(6);
          expect(robots.lines[5]).toEqual(lineInfo(6, "empty"));
        }
      });
    });

    it("robots-txt.md 1 / behaviour.md 5: mixed CR, LF and CRLF in one file number correctly", () => {
      const body = "User-agent: FooBot\r\nDisallow: /a\rDisallow: /b\nDisallow: /c\r\n\rDisallow: /d";
      for (const robots of both(body)) {
        check(robots, url("/a"), "FooBot", D(2, "/a", "specific"));
        check(robots, url("/b"), "FooBot", D(3, "/b", "specific"));
        check(robots, url("/c"), "FooBot", D(4, "/c", "specific"));
        check(robots, url("/d"), "FooBot", D(6, "/d", "specific"));
        expect(robots.lines.map((l) => l.kind)).toEqual(["user-agent", "disallow", "disallow", "disallow", "empty", "disallow"]);
      }
    });

    it("behaviour.md 5: LF CR is two line ends, CR CR LF is two line ends (only the LF of a CRLF is skipped)", () => {
      for (const robots of both("User-agent: *\n\rDisallow: /a\r\r\nDisallow: /b")) {
        check(robots, url("/a"), "x", D(3, "/a", "global"));
        check(robots, url("/b"), "x", D(5, "/b", "global"));
        expect(robots.lines).toHaveLength(5);
      }
    });

    it("robots-txt.md 1: a missing final newline is fine (the last line counts)", () => {
      for (const robots of both("User-agent: *\nDisallow: /x$")) {
        check(robots, url("/x"), "AnyBot", D(2, "/x$", "global"));
        check(robots, url("/xy"), "AnyBot", NONE);
        expect(robots.lines).toHaveLength(2);
      }
    });

    it("behaviour.md 5: an empty body is one empty line and allows everything", () => {
      for (const robots of both("")) {
        check(robots, url("/"), "AnyBot", NONE);
        expect(robots.lines).toEqual([lineInfo(1, "empty")]);
        expect(robots.input).toEqual({ bytes: 0, parsedBytes: 0, truncated: false, cutInLine: false, encoding: "utf-8", bom: false });
      }
    });

    describe("google / behaviour.md 4: UTF-8 byte-order marks", () => {
      const rules = "User-agent: FooBot\nDisallow: /x\n";

      it.each([
        ["full EF BB BF", [0xef, 0xbb, 0xbf]],
        ["partial EF BB", [0xef, 0xbb]],
        ["partial EF", [0xef]],
      ])("a %s BOM at the very start is skipped", (_name, bom) => {
        const body = bytesOf(bom, rules);
        for (const robots of both(body)) {
          check(robots, url("/x"), "FooBot", D(2, "/x", "specific"));
          expect(robots.lines[0]).toEqual(lineInfo(1, "user-agent"));
          expect(robots.lines).toHaveLength(3);
          expect(robots.input).toEqual({ bytes: body.length, parsedBytes: body.length, truncated: false, cutInLine: false, encoding: "utf-8", bom: true });
        }
      });

      it("EF 11 BF is not a BOM: only EF is skipped and the first line is garbage", () => {
        for (const robots of both(bytesOf([0xef, 0x11, 0xbf], rules))) {
          check(robots, url("/x"), "FooBot", NONE);
          expect(robots.lines[0].kind).toBe("unknown");
          expect(robots.lines[1]).toEqual(lineInfo(2, "disallow", { outsideGroup: true }));
        }
      });

      it("a BOM at the start of a later line is ordinary bytes (the line's key is unknown)", () => {
        for (const robots of both(bytesOf("User-agent: FooBot\n", [0xef, 0xbb, 0xbf], "Disallow: /x\n"))) {
          check(robots, url("/x"), "FooBot", NONE);
          expect(robots.lines[1].kind).toBe("unknown");
          expect(robots.records).toHaveLength(1);
          expect(robots.records[0]).toMatchObject({ line: 2, known: false, key: "\ufeffdisallow", value: "/x", group: 0 });
          expect(robots.input.bom).toBe(false);
        }
      });

      it("a BOM that starts a later record's key or value stays in its text: no crawl-delay or sitemap is read through it", () => {
        for (const robots of both(bytesOf("User-agent: a\n", [0xef, 0xbb, 0xbf], "Crawl-delay: 5\nSitemap: ", [0xef, 0xbb, 0xbf], "https://a.com/s.xml\n"))) {
          expect(robots.crawlDelay("a")).toBeUndefined();
          expect(robots.records[0]).toMatchObject({ known: false, key: "\ufeffcrawl-delay", value: "5" });
          expect(robots.sitemaps).toEqual(["\ufeffhttps://a.com/s.xml"]);
        }
        for (const robots of both(bytesOf("User-agent: *\n", [0xef, 0xbb, 0xbf], "Sitemap: https://a.com/s.xml\nCrawl-delay: ", [0xef, 0xbb, 0xbf], "5\n"))) {
          expect(robots.sitemaps).toEqual([]);
          expect(robots.crawlDelay("a")).toBeUndefined();
          expect(robots.records[1]).toMatchObject({ known: true, key: "crawl-delay", value: "\ufeff5" });
        }
      });

      it("a second BOM right after the first is ordinary bytes", () => {
        for (const robots of both(bytesOf([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf], rules))) {
          check(robots, url("/x"), "FooBot", NONE);
          expect(robots.lines[0].kind).toBe("unknown");
          expect(robots.input.bom).toBe(true);
        }
      });

      it("BOM bytes inside a value are escaped like any byte >= 0x80", () => {
        for (const robots of both(bytesOf("User-agent: FooBot\nDisallow: /x", [0xef, 0xbb, 0xbf], "\n"))) {
          check(robots, url("/x"), "FooBot", NONE);
          check(robots, url("/x%EF%BB%BF"), "FooBot", D(2, "/x%EF%BB%BF", "specific"));
        }
      });
    });

    describe("RFC 9309 2.5 / behaviour.md 2: size limit (maxBytes)", () => {
      const head = "User-agent: *\nDisallow: /early\n";
      const filler = "#".repeat(512_000 - head.length - 1) + "\n";
      const body = head + filler + "Disallow: /late\n";

      it("default 512,000 bytes: content after the limit is ignored", () => {
        expect(head.length + filler.length).toBe(512_000);
        for (const robots of [parse(body), parse(body, { maxBytes: 512_000 })]) {
          check(robots, url("/early"), "AnyBot", D(2, "/early", "global"));
          check(robots, url("/late"), "AnyBot", NONE);
          expect(robots.input).toEqual({ bytes: body.length, parsedBytes: 512_000, truncated: true, cutInLine: false, encoding: "utf-8", bom: false });
          robots.dispose();
        }
      });

      it("maxBytes: Infinity reads everything", () => {
        const robots = parse(body, { maxBytes: Infinity });
        check(robots, url("/late"), "AnyBot", D(4, "/late", "global"));
        expect(robots.input).toEqual({ bytes: body.length, parsedBytes: body.length, truncated: false, cutInLine: false, encoding: "utf-8", bom: false });
        expect(robots.lines).toHaveLength(5);
        robots.dispose();
      });

      it("an explicit limit cuts the raw bytes, even in the middle of a line", () => {
        const text = "User-agent: *\nDisallow: /abcdef\n";
        for (const profile of PROFILES) {
          const cut = parse(text, { maxBytes: 26, profile });
          check(cut, url("/ab"), "AnyBot", D(2, "/a", "global"));
          expect(cut.input).toEqual({ bytes: text.length, parsedBytes: 26, truncated: true, cutInLine: true, encoding: "utf-8", bom: false });
          const whole = parse(text, { maxBytes: text.length, profile });
          check(whole, url("/ab"), "AnyBot", NONE);
          check(whole, url("/abcdef"), "AnyBot", D(2, "/abcdef", "global"));
          expect(whole.input.truncated).toBe(false);
          expect(parse(text, { maxBytes: text.length - 1, profile }).input.truncated).toBe(true);
        }
      });

      it("cutInLine tells a cut inside a line from one at either end of it (CR, LF, CRLF)", () => {
        const inLine = (text: string, maxBytes: number) => parse(text, { maxBytes }).input.cutInLine;
        expect(inLine("User-agent: *\nDisallow: /a\n", 14)).toBe(false); // after the LF: at a line's start
        expect(inLine("User-agent: *\nDisallow: /a\n", 13)).toBe(false); // before the LF: the line is whole
        expect(inLine("User-agent: *\r\nDisallow: /a\n", 14)).toBe(false); // between CR and LF
        expect(inLine("User-agent: *\rDisallow: /a\n", 14)).toBe(false); // after a lone CR
        expect(inLine("User-agent: *\nDisallow: /a\n", 12)).toBe(true);
        expect(inLine("User-agent: *\nDisallow: /a\n", 100)).toBe(false); // nothing cut
        // Inside or right after a UTF-8 BOM, which the parser skips: at the first line's start.
        for (const cut of [1, 2, 3]) expect(inLine("\ufeffUser-agent: *\n", cut)).toBe(false);
        expect(inLine("\ufeffUser-agent: *\n", 4)).toBe(true);
      });

      it("maxBytes: 0 reads nothing", () => {
        const robots = parse("User-agent: *\nDisallow: /\n", { maxBytes: 0 });
        check(robots, url("/x"), "AnyBot", NONE);
        expect(robots.lines).toEqual([lineInfo(1, "empty")]);
        expect(robots.input).toEqual({ bytes: 26, parsedBytes: 0, truncated: true, cutInLine: false, encoding: "utf-8", bom: false });
      });

      it("robots-txt.md 1: files of several MB parse quickly when the limit is raised", { timeout: 60_000 }, () => {
        const rules = Array.from({ length: 60_000 }, (_, i) => `Disallow: /dir${i}/page-${i}-${"x".repeat(24)}\n`);
        const big = "User-agent: *\n" + rules.join("");
        expect(big.length).toBeGreaterThan(3_000_000);
        for (const profile of PROFILES) {
          const robots = parse(big, { maxBytes: Infinity, profile });
          const last = `/dir59999/page-59999-${"x".repeat(24)}`;
          check(robots, url(last + "/more"), "AnyBot", D(60_001, last, "global"));
          check(robots, url("/dir5/page-5-"), "AnyBot", NONE);
          const urls = Array.from({ length: 40 }, (_, i) => url(`/dir${i * 1500}/page-${i * 1500}-${"x".repeat(24)}`));
          expect(robots.classify(urls, "AnyBot").every((v) => v === 0)).toBe(true);
          expect(robots.lines).toHaveLength(60_002);
          robots.dispose();
          const limited = parse(big, { profile });
          check(limited, url(last), "AnyBot", NONE);
          expect(limited.input.truncated).toBe(true);
          limited.dispose();
        }
      });
    });

    describe("google / behaviour.md 6: long lines (robots-txt.md 7: google truncates, rfc9309 keeps them)", () => {
      // "Disallow: " (10 bytes) + "/" + 16,989 "a" = a line of 17,000 bytes.
      const longValue = "/" + "a".repeat(16_989);
      const body = `User-agent: *\nDisallow: ${longValue}\nDisallow: /after\n`;
      // Google keeps kMaxLineLen - 1 = 16,663 bytes of the line: 10 of key and 16,653 of value.
      const kept = "/" + "a".repeat(16_652);

      it("google: a 17,000-byte line keeps its first 16,663 bytes and is flagged tooLong", () => {
        expect(`Disallow: ${longValue}`.length).toBe(17_000);
        const robots = parse(body);
        check(robots, url(kept + "b"), "AnyBot", D(2, kept, "global"));
        check(robots, url(longValue), "AnyBot", D(2, kept, "global"));
        check(robots, url("/after"), "AnyBot", D(3, "/after", "global"));
        expect(robots.lines[1]).toEqual(lineInfo(2, "disallow", { tooLong: true }));
        expect(robots.lines[2]).toEqual(lineInfo(3, "disallow"));
      });

      it("rfc9309: the same line is kept whole", () => {
        const robots = rfc(body);
        check(robots, url(kept + "b"), "AnyBot", NONE);
        check(robots, url(longValue), "AnyBot", D(2, longValue, "global"));
        check(robots, url("/after"), "AnyBot", D(3, "/after", "global"));
        expect(robots.lines[1]).toEqual(lineInfo(2, "disallow"));
      });

      it.each([
        ["LF", "\n"],
        ["CRLF", "\r\n"],
        ["CR", "\r"],
      ])("google: the boundary is exact: 16,663 bytes kept whole, 16,664 cut by one (%s)", (_name, eol) => {
        const fits = "Disallow: /" + "a".repeat(16_651) + "b"; // 16,663 bytes
        const over = "Disallow: /" + "a".repeat(16_652) + "b"; // 16,664 bytes
        expect([fits.length, over.length]).toEqual([16_663, 16_664]);
        const robots = parse(["User-agent: *", fits, over, ""].join(eol));
        const fitsPattern = "/" + "a".repeat(16_651) + "b";
        const overKept = "/" + "a".repeat(16_652);
        check(robots, url(fitsPattern), "AnyBot", D(2, fitsPattern, "global"));
        check(robots, url(overKept + "c"), "AnyBot", D(3, overKept, "global"));
        expect(robots.lines.slice(1, 3)).toEqual([lineInfo(2, "disallow"), lineInfo(3, "disallow", { tooLong: true })]);
        const whole = rfc(["User-agent: *", fits, over, ""].join(eol));
        check(whole, url(overKept + "c"), "AnyBot", NONE);
        check(whole, url(overKept + "b"), "AnyBot", D(3, overKept + "b", "global"));
        expect(whole.lines.some((l) => l.tooLong)).toBe(false);
      });

      it("google: a # past the cut is not a comment; one just before it is", () => {
        const cutAtHash = "Disallow: /" + "a".repeat(16_652) + "#x"; // the # is the first byte cut off
        const keptHash = "Disallow: /" + "a".repeat(16_651) + "#x"; // the # is the last byte kept
        const robots = parse(["User-agent: *", cutAtHash, keptHash, ""].join("\n"));
        expect(robots.lines.slice(1, 3)).toEqual([
          lineInfo(2, "disallow", { tooLong: true }),
          lineInfo(3, "disallow", { tooLong: true, hasComment: true }),
        ]);
        check(robots, url("/" + "a".repeat(16_652)), "AnyBot", D(2, "/" + "a".repeat(16_652), "global"));
      });

      it("google: a long user-agent or comment line is truncated too, without breaking the next line", () => {
        const robots = parse(`User-agent: FooBot${"#".repeat(20_000)}\nDisallow: /x\n# ${"c".repeat(20_000)}\nDisallow: /y\n`);
        check(robots, url("/x"), "FooBot", D(2, "/x", "specific"));
        check(robots, url("/y"), "FooBot", D(4, "/y", "specific"));
        expect(robots.lines.map((l) => [l.kind, l.tooLong])).toEqual([
          ["user-agent", true],
          ["disallow", false],
          ["comment", true],
          ["disallow", false],
          ["empty", false],
        ]);
      });
    });

    it("RFC 9309 2.2.3 / robots-txt.md 1: a comment runs from the first # to the end of the line, even inside a value", () => {
      const body = "User-agent: FooBot # the bot\nDisallow: /a#b\nDisallow: /c #d\n#Disallow: /e\n  # indented\nAllow: /a/x# c\nDisallow: # nothing\n";
      for (const robots of both(body)) {
        check(robots, url("/a/y"), "FooBot", D(2, "/a", "specific"));
        check(robots, url("/ab"), "FooBot", D(2, "/a", "specific"));
        check(robots, url("/c"), "FooBot", D(3, "/c", "specific"));
        check(robots, url("/e"), "FooBot", EMPTY_D(7, "specific"));
        check(robots, url("/a/x"), "FooBot", A(6, "/a/x", "specific"));
        expect(robots.lines).toEqual([
          lineInfo(1, "user-agent", { hasComment: true }),
          lineInfo(2, "disallow", { hasComment: true }),
          lineInfo(3, "disallow", { hasComment: true }),
          lineInfo(4, "comment", { hasComment: true }),
          lineInfo(5, "comment", { hasComment: true }),
          lineInfo(6, "allow", { hasComment: true }),
          lineInfo(7, "disallow", { hasComment: true }),
          lineInfo(8, "empty"),
        ]);
      }
    });

    it("behaviour.md 8: space, tab, VT and FF are trimmed around lines, keys and values; other spaces are bytes", () => {
      const body = "User-agent:\tFooBot\t\nDisallow:\x0b/a\x0c\n \t Allow : /a/b \x0b\nDisallow: /nb\u00a0\n";
      for (const robots of both(body)) {
        check(robots, url("/a/c"), "FooBot", D(2, "/a", "specific"));
        check(robots, url("/a/b"), "FooBot", A(3, "/a/b", "specific"));
        check(robots, url("/nb%C2%A0"), "FooBot", D(4, "/nb%C2%A0", "specific"));
        check(robots, url("/nb"), "FooBot", NONE);
      }
    });

    describe("google / behaviour.md 9: a missing colon", () => {
      it("two whitespace-separated tokens are key and value (conformance: accepted-mistakes)", () => {
        const body = "user-agent FooBot\ndisallow /\nallow\t/ok\nallow  \t /fine  \n";
        for (const robots of both(body)) {
          check(robots, url("/x"), "FooBot", D(2, "/", "specific"));
          check(robots, url("/ok"), "FooBot", A(3, "/ok", "specific"));
          check(robots, url("/fine"), "FooBot", A(4, "/fine", "specific"));
          expect(robots.lines.slice(0, 4)).toEqual([
            lineInfo(1, "user-agent", { missingColon: true }),
            lineInfo(2, "disallow", { missingColon: true }),
            lineInfo(3, "allow", { missingColon: true }),
            lineInfo(4, "allow", { missingColon: true }),
          ]);
        }
      });

      it("three tokens are not a record (`disallow /a b` is invalid)", () => {
        for (const robots of both("user-agent FooBot\ndisallow /a b\nuser agent FooBot\nuser-agent Foo Bot\n")) {
          check(robots, url("/a"), "FooBot", NONE);
          expect(robots.lines.map((l) => l.kind)).toEqual(["user-agent", "invalid", "invalid", "invalid", "empty"]);
        }
      });

      it("only space and tab separate: `disallow` VT `/a` has no separator; a key alone or an empty key is invalid", () => {
        for (const robots of both("User-agent: FooBot\ndisallow\x0b/a\nDisallow\n: /b\n")) {
          check(robots, url("/a"), "FooBot", NONE);
          check(robots, url("/b"), "FooBot", NONE);
          expect(robots.lines.slice(1, 4).map((l) => l.kind)).toEqual(["invalid", "invalid", "invalid"]);
        }
      });

      it("VT inside the value is no separator: `user-agent foo` VT `bar` is two words", () => {
        for (const robots of both("user-agent foo\x0bbar\ndisallow /x\n")) {
          expect(robots.lines[0]).toEqual(lineInfo(1, "user-agent", { missingColon: true }));
          check(robots, url("/x"), "foo", D(2, "/x", "specific"));
        }
      });

      it("with a colon, the colon splits (the value may contain spaces)", () => {
        for (const robots of both("User-agent: FooBot\nDisallow: /a b\n")) {
          check(robots, url("/a b"), "FooBot", D(2, "/a b", "specific"));
          expect(robots.lines[1]).toEqual(lineInfo(2, "disallow"));
        }
      });
    });

    it("google / behaviour.md 10: keys are matched by case-insensitive prefix (`Disallowed:`, `user-agents:`)", () => {
      const body = "user-agents: FooBot\nDisallowed: /a\nALLOWANCE: /a/ok\nSitemaps: http://example.com/s.xml\nUSER-AGENTX: BarBot\nDisallow-All: /b\n";
      for (const robots of both(body)) {
        check(robots, url("/a/x"), "FooBot", D(2, "/a", "specific"));
        check(robots, url("/a/ok"), "FooBot", A(3, "/a/ok", "specific"));
        check(robots, url("/b"), "BarBot", D(6, "/b", "specific"));
        expect(robots.sitemaps).toEqual(["http://example.com/s.xml"]);
        expect(robots.lines.map((l) => [l.kind, l.typo])).toEqual([
          ["user-agent", false],
          ["disallow", false],
          ["allow", false],
          ["sitemap", false],
          ["user-agent", false],
          ["disallow", false],
          ["empty", false],
        ]);
      }
    });

    describe("google / behaviour.md 10: accepted misspellings (flagged as typos)", () => {
      it.each(["useragent", "user agent", "USERAGENT", "User Agent", "useragents"])("user-agent spelled %j", (key) => {
        for (const robots of both(`${key}: FooBot\nDisallow: /x\n`)) {
          check(robots, url("/x"), "FooBot", D(2, "/x", "specific"));
          check(robots, url("/x"), "OtherBot", NONE);
          expect(robots.lines[0]).toEqual(lineInfo(1, "user-agent", { typo: true }));
        }
      });

      it.each(["dissallow", "dissalow", "disalow", "diasllow", "disallaw", "DISALOW", "Dissallowed"])("disallow spelled %j", (key) => {
        for (const robots of both(`User-agent: *\n${key}: /x\n`)) {
          check(robots, url("/x"), "AnyBot", D(2, "/x", "global"));
          expect(robots.lines[1]).toEqual(lineInfo(2, "disallow", { typo: true }));
        }
      });

      it("sitemap spelled site-map", () => {
        for (const robots of both("Site-Map: http://example.com/s.xml\n")) {
          expect(robots.sitemaps).toEqual(["http://example.com/s.xml"]);
          expect(robots.lines[0]).toEqual(lineInfo(1, "sitemap", { typo: true }));
          expect(robots.records).toEqual([{ line: 1, key: "sitemap", known: true, value: "http://example.com/s.xml", group: null }]);
        }
      });

      it.each(["alow", "allw", "alllow", "aloww", "allox", "ALLOX", "disallox", "disalo"])("allow has no accepted misspelling, nor disallow others: %j is an unknown key", (key) => {
        for (const robots of both(`User-agent: *\nDisallow: /\n${key}: /x\n`)) {
          check(robots, url("/x"), "AnyBot", D(2, "/", "global"));
          expect(robots.lines[2]).toEqual(lineInfo(3, "unknown"));
        }
      });

      it("correct spellings are not flagged", () => {
        for (const robots of both("User-agent: a\nAllow: /a\nDisallow: /b\nSitemap: http://example.com/s\n")) {
          expect(robots.lines.map((l) => l.typo)).toEqual([false, false, false, false, false]);
        }
      });
    });

    it("robots-txt.md 1: lines that are not records (HTML, prose) are ignored, never an error", () => {
      const html = "<!DOCTYPE html>\n<html><head><title>Not Found</title></head>\n<body>This page does not exist.</body>\n</html>\n";
      for (const robots of both(html)) {
        check(robots, url("/"), "AnyBot", NONE);
        check(robots, url("/x"), "AnyBot", NONE);
        for (const line of robots.lines) expect(["invalid", "unknown", "empty"]).toContain(line.kind);
        expect(robots.lines[2].kind).toBe("invalid");
        expect(robots.sitemaps).toEqual([]);
      }
    });
  });

  describe("robots-txt.md 2: groups", () => {
    it("RFC 9309 2.1: consecutive user-agent lines share one group (blank and comment lines between them allowed)", () => {
      for (const robots of both("User-agent: a\n\n# c\nUser-agent: b\nDisallow: /x\n")) {
        check(robots, url("/x"), "a", D(5, "/x", "specific"));
        check(robots, url("/x"), "b", D(5, "/x", "specific"));
        check(robots, url("/x"), "c", NONE);
      }
    });

    it("RFC 9309 2.1: a user-agent line after an allow/disallow line starts a new group", () => {
      for (const robots of both("User-agent: a\nDisallow: /x\nUser-agent: b\nDisallow: /y\n")) {
        check(robots, url("/x"), "a", D(2, "/x", "specific"));
        check(robots, url("/y"), "a", NONE);
        check(robots, url("/y"), "b", D(4, "/y", "specific"));
        check(robots, url("/x"), "b", NONE);
      }
    });

    it.each([
      "Crawl-delay: 5",
      "Sitemap: http://example.com/sitemap.xml",
      "Request-rate: 1/5",
      "Host: example.com",
      "Foo: bar",
      "this is prose, not a record",
    ])("RFC 9309 2.2.4 / behaviour.md 20: %j between user-agent lines does not split them", (middle) => {
      for (const robots of both(`User-agent: FooBot\n${middle}\nUser-agent: *\nDisallow: /\n`)) {
        check(robots, url("/x"), "FooBot", D(4, "/", "specific"));
        check(robots, url("/x"), "OtherBot", D(4, "/", "global"));
      }
    });

    it("RFC 9309 2.1 / behaviour.md 20: allow/disallow lines before any user-agent line are ignored", () => {
      for (const robots of both("Disallow: /x\nAllow: /y\nUser-agent: *\nDisallow: /y\n")) {
        check(robots, url("/x"), "AnyBot", NONE);
        check(robots, url("/y"), "AnyBot", D(4, "/y", "global"));
        expect(robots.lines.map((l) => l.outsideGroup)).toEqual([true, true, false, false, false]);
      }
    });

    it.each(["*", "* foo", "*\tfoo", "   *   ", "*\x0bfoo", "*\x0cfoo", "* Googlebot"])(
      "RFC 9309 2.2.1 / behaviour.md 21: user-agent %j is the global group",
      (value) => {
        for (const robots of both(`User-agent: ${value}\nDisallow: /\n`)) {
          check(robots, url("/x"), "AnyBot", D(2, "/", "global"));
          check(robots, url("/x"), "foo", D(2, "/", "global"));
        }
      },
    );

    it.each(["*foo", "**", "*/1.0"])("behaviour.md 21: user-agent %j is not global; its token is empty and matches only the query \"\"", (value) => {
      for (const robots of both(`User-agent: ${value}\nDisallow: /\n`)) {
        check(robots, url("/x"), "AnyBot", NONE);
        check(robots, url("/x"), "foo", NONE);
        check(robots, url("/x"), "", D(2, "/", "specific"));
      }
    });

    it.each([
      ["Googlebot/2.1", "Googlebot"],
      ["Foo Bar", "Foo"],
      ["AB42bot", "AB"],
      ["Foo*", "Foo"],
      ["foo.bar", "foo"],
      ["Foo_Bar-Baz", "Foo_Bar-Baz"],
      ["Mozilla/5.0 (compatible; FooBot/1.0)", "Mozilla"],
      ["Bötbot", "B"],
      ["42bot", ""],
    ])("google / behaviour.md 21: user-agent %j is cut to %j at the first byte outside [a-zA-Z_-]", (value, token) => {
      for (const robots of both(`User-agent: ${value}\nDisallow: /\n`)) {
        check(robots, url("/x"), token, D(2, "/", "specific"));
        check(robots, url("/x"), token.toUpperCase(), D(2, "/", "specific"));
        // The asked-about agent is not cut: the full value is not the token.
        if (value !== token) check(robots, url("/x"), value, NONE);
        check(robots, url("/x"), token + "x", NONE);
      }
    });

    it("RFC 9309 2.2.1: user-agent names are compared case-insensitively", () => {
      for (const robots of both("User-agent: FOOBOT\nDisallow: /\n")) {
        for (const agent of ["foobot", "FooBot", "FOOBOT", "fOoBoT"]) check(robots, url("/x"), agent, D(2, "/", "specific"));
      }
    });

    it("google: the queried agent is not cut: `Foo Bar` matches no specific group, so the global group applies", () => {
      for (const robots of both("User-agent: *\nDisallow: /\nUser-agent: Foo\nAllow: /\n")) {
        check(robots, url("/x"), "Foo", A(4, "/", "specific"));
        check(robots, url("/x"), "Foo Bar", D(2, "/", "global"));
        check(robots, url("/x"), "Foo/1.0", D(2, "/", "global"));
      }
    });

    it("RFC 9309 2.2.1: all groups that name the agent are merged", () => {
      for (const robots of both("User-agent: a\nDisallow: /x\nUser-agent: b\nDisallow: /y\nUser-agent: A\nDisallow: /z\nAllow: /x/ok\n")) {
        check(robots, url("/x"), "a", D(2, "/x", "specific"));
        check(robots, url("/z"), "a", D(6, "/z", "specific"));
        check(robots, url("/x/ok"), "a", A(7, "/x/ok", "specific"));
        check(robots, url("/y"), "a", NONE);
        check(robots, url("/x/ok"), "b", NONE);
      }
    });

    it("RFC 9309 2.2.1: several global groups are merged too", () => {
      for (const robots of both("User-agent: *\nDisallow: /a\nUser-agent: Foo\nDisallow: /b\nUser-agent: *\nDisallow: /c\n")) {
        check(robots, url("/a"), "AnyBot", D(2, "/a", "global"));
        check(robots, url("/c"), "AnyBot", D(6, "/c", "global"));
        check(robots, url("/b"), "AnyBot", NONE);
        check(robots, url("/a"), "Foo", NONE);
      }
    });

    it("RFC 9309 2.2.1 / behaviour.md 22: the global group is ignored when a group names the agent, even an empty one", () => {
      for (const robots of both("User-agent: *\nDisallow: /\n\nUser-agent: FooBot\n")) {
        check(robots, url("/x"), "FooBot", NONE);
        check(robots, url("/x"), "BarBot", D(2, "/", "global"));
      }
      for (const robots of both("User-agent: FooBot\nAllow:\nUser-agent: *\nDisallow: /\n")) {
        check(robots, url("/x"), "FooBot", { allowed: true, line: 2, rule: { kind: "allow", pattern: "", group: "specific" } });
        check(robots, url("/x"), "BarBot", D(4, "/", "global"));
      }
    });

    it("RFC 9309 2.2.1: no group for the agent and no global group: everything is allowed", () => {
      for (const robots of both("User-agent: FooBot\nDisallow: /\n")) {
        check(robots, url("/x"), "BarBot", NONE);
        check(robots, url("/"), "BarBot", NONE);
      }
    });

    it("behaviour.md 22: a group that is both global and names the agent is specific for that agent", () => {
      for (const robots of both("User-agent: *\nUser-agent: FooBot\nDisallow: /x\n")) {
        check(robots, url("/x"), "FooBot", D(3, "/x", "specific"));
        check(robots, url("/x"), "BarBot", D(3, "/x", "global"));
      }
    });

    describe("robots-txt.md 2: a query may name several agents; their groups merge", () => {
      const body = "User-agent: googlebot\nDisallow: /a\nUser-agent: googlebot-news\nDisallow: /b\nUser-agent: *\nDisallow: /\n";

      it("[googlebot-news, googlebot] merges both groups and ignores the global one", () => {
        for (const robots of both(body)) {
          const agents = ["googlebot-news", "googlebot"];
          check(robots, url("/a"), agents, D(2, "/a", "specific"));
          check(robots, url("/b"), agents, D(4, "/b", "specific"));
          check(robots, url("/c"), agents, NONE);
          check(robots, url("/c"), ["x", "Googlebot"], NONE);
        }
      });

      it("each agent alone sees only its own group", () => {
        for (const robots of both(body)) {
          check(robots, url("/a"), "googlebot-news", NONE);
          check(robots, url("/b"), "googlebot-news", D(4, "/b", "specific"));
          check(robots, url("/a"), "googlebot", D(2, "/a", "specific"));
          check(robots, url("/b"), "googlebot", NONE);
        }
      });

      it("no named agent has a group (including the empty list): the global group applies", () => {
        for (const robots of both(body)) {
          check(robots, url("/c"), ["x", "y"], D(6, "/", "global"));
          check(robots, url("/c"), [], D(6, "/", "global"));
        }
      });

      it("rules merge across the agents' groups: allow wins a tie between groups", () => {
        for (const robots of both("User-agent: a\nDisallow: /p\nUser-agent: b\nAllow: /p\n")) {
          check(robots, url("/p/x"), ["a", "b"], A(4, "/p", "specific"));
          check(robots, url("/p/x"), ["b", "a"], A(4, "/p", "specific"));
          check(robots, url("/p/x"), "a", D(2, "/p", "specific"));
        }
      });
    });

    describe("google / behaviour.md 21: the empty agent", () => {
      it("the query \"\" matches no named group (conformance: empty-string)", () => {
        for (const robots of both("User-agent: FooBot\nDisallow: /\n")) check(robots, "", "", NONE);
      });

      it("the query \"\" gets the global group", () => {
        for (const robots of both("User-agent: *\nDisallow: /\n")) check(robots, url("/x"), "", D(2, "/", "global"));
      });

      it("an empty user-agent value has the empty token, which matches only the query \"\"", () => {
        for (const robots of both("User-agent:\nDisallow: /\n")) {
          check(robots, url("/x"), "", D(2, "/", "specific"));
          check(robots, url("/x"), "FooBot", NONE);
        }
      });
    });
  });

  describe("robots-txt.md 3: matching a URL", () => {
    it.each([
      ["http://a.com/b?c#d", "/b?c"],
      ["//a/b/c", "/b/c"],
      ["a", "/"],
      ["", "/"],
      ["http://a.com", "/"],
      ["http://a.com?x=1", "/?x=1"],
      ["http://a.com;p=1", "/;p=1"],
      ["http://a.com/b;p?q#f", "/b;p?q"],
      ["https://user:pw@a.com:8080/b/c", "/b/c"],
      ["http://a.com#frag/x", "/"],
      ["a.com#x/p", "/"],
      ["#/p", "/"],
      ["http://a.com/b#c?d", "/b"],
      ["/b/c?d", "/b/c?d"],
      ["?q", "/?q"],
      [";q", "/;q"],
      ["a/b://c", "/b://c"],
      ["/x?u=http://b/c", "/x?u=http://b/c"],
      ["http://a.com/x?u=http://b/c", "/x?u=http://b/c"],
      ["foo/bar", "/bar"],
      ["ftp://a.com/b", "/b"],
      ["HTTP://A.COM/B", "/B"],
      ["http://", "/"],
      ["https://", "/"],
    ])("google / behaviour.md 16: the path of %j is %j", (target, path) => {
      for (const robots of both(`User-agent: *\nDisallow: ${path}$\n`)) {
        check(robots, target, "AnyBot", D(2, `${path}$`, "global"));
      }
      for (const robots of both(`User-agent: *\nDisallow: ${path}x$\n`)) {
        check(robots, target, "AnyBot", NONE);
      }
    });

    it("RFC 9309 2.2.2: a pattern matches a prefix of the path, case-sensitively", () => {
      for (const robots of both("User-agent: *\nDisallow: /fish\n")) {
        check(robots, url("/fish"), "x", D(2, "/fish", "global"));
        check(robots, url("/fishes/x"), "x", D(2, "/fish", "global"));
        check(robots, url("/Fish"), "x", NONE);
        check(robots, url("/fis"), "x", NONE);
        check(robots, url("/x/fish"), "x", NONE);
      }
    });

    it("RFC 9309 2.2.3: * matches any run of bytes, including none", () => {
      for (const robots of both("User-agent: *\nDisallow: /a*b\nDisallow: *.gif\n")) {
        check(robots, url("/ab"), "x", D(2, "/a*b", "global"));
        check(robots, url("/axxb"), "x", D(2, "/a*b", "global"));
        check(robots, url("/a/x/b/c"), "x", D(2, "/a*b", "global"));
        check(robots, url("/a"), "x", NONE);
        check(robots, url("/x.gif"), "x", D(3, "*.gif", "global"));
        check(robots, url("/.gif"), "x", D(3, "*.gif", "global"));
      }
      for (const robots of both("User-agent: *\nDisallow: *\n")) check(robots, url("/"), "x", D(2, "*", "global"));
    });

    it("RFC 9309 2.2.3: a long segment that overlaps itself is found after a false start", () => {
      // Segments of 16 bytes or more are searched with a failure table (assembly/pattern.ts): a
      // search that started again from scratch after `aaaa...a` failed on `a` would miss these.
      for (const robots of both("User-agent: *\nDisallow: /*aaaaaaaaaaaaaaab\nDisallow: /*abababababababababac\n")) {
        check(robots, url("/aaaaaaaaaaaaaaaab"), "x", D(2, "/*aaaaaaaaaaaaaaab", "global"));
        check(robots, url("/x/aaaaaaaaaaaaaaaaaaaaab/y"), "x", D(2, "/*aaaaaaaaaaaaaaab", "global"));
        check(robots, url("/ababababababababababababac"), "x", D(3, "/*abababababababababac", "global"));
        check(robots, url("/aaaaaaaaaaaaaaaa"), "x", NONE);
        check(robots, url("/abababababababababab"), "x", NONE);
      }
      // Mismatches that fall back through several entries of the failure table: a search that fell
      // back one entry only would resume with too long a partial match and find one that is not there.
      for (const robots of both("User-agent: *\nDisallow: /*aaaaaababaaaabaa\n")) {
        check(robots, url("/baaaaaaabaababaaaabaaa"), "x", NONE);
        check(robots, url("/baaaaaababaaaabaa"), "x", D(2, "/*aaaaaababaaaabaa", "global"));
        check(robots, url("/aaaaaabaaaaaababaaaabaa/x"), "x", D(2, "/*aaaaaababaaaabaa", "global"));
      }
    });

    it("RFC 9309 2.2.3: a segment is found in the path only, not in the bytes of a longer URL decided before it", () => {
      // The last block of a vector search reads past the path's end; those bytes (here `hzz`, left
      // by the URL before) must not complete a match.
      const x15 = "x".repeat(15);
      for (const robots of both("User-agent: *\nDisallow: /*ah*ah\n")) {
        check(robots, url(`/ah${x15}ahzz`), "x", D(2, "/*ah*ah", "global"));
        check(robots, url(`/ah${x15}a`), "x", NONE);
      }
    });

    it("RFC 9309 2.2.3: many two-byte wildcard segments under one prefix, found anywhere in the path, its end too", () => {
      // 17 rules `/*ab` .. `/*ar`: more than the gram index tries on every path, so it files them by pair.
      const seconds = "bcdefghijklmnopqr";
      const body = `User-agent: *\n${[...seconds].map((c) => `Disallow: /*a${c}\n`).join("")}`;
      for (const robots of both(body)) {
        check(robots, url("/xar"), "x", D(18, "/*ar", "global"));
        check(robots, url("/ar"), "x", D(18, "/*ar", "global"));
        check(robots, url("/xabx"), "x", D(2, "/*ab", "global"));
        check(robots, url("/xa"), "x", NONE);
        check(robots, url("/xas"), "x", NONE);
      }
    });

    it("RFC 9309 2.2.3: $ at the very end anchors the pattern to the end of the path", () => {
      for (const robots of both("User-agent: *\nDisallow: /a$\nDisallow: /b*$\nDisallow: $\n")) {
        check(robots, url("/a"), "x", D(2, "/a$", "global"));
        check(robots, url("/ab"), "x", NONE);
        check(robots, url("/a?x"), "x", NONE);
        check(robots, url("/a/"), "x", NONE);
        check(robots, url("/b/anything"), "x", D(3, "/b*$", "global"));
        // `$` alone matches only the empty path, and a path is never empty.
        check(robots, url("/"), "x", NONE);
      }
    });

    it("google / behaviour.md 14: a $ anywhere but at the end is an ordinary byte", () => {
      const robots = parse("User-agent: *\nDisallow: /a$b\nDisallow: /c$$\n");
      check(robots, url("/a$b"), "x", D(2, "/a$b", "global"));
      check(robots, url("/a$bc"), "x", D(2, "/a$b", "global"));
      check(robots, url("/ab"), "x", NONE);
      check(robots, url("/c$"), "x", D(3, "/c$$", "global"));
      check(robots, url("/c$x"), "x", NONE);
    });

    describe("RFC 9309 2.2.2 / behaviour.md 13, 23: priority and ties", () => {
      it("the longest match wins, whatever the order", () => {
        for (const robots of both("User-agent: *\nAllow: /p\nDisallow: /\n")) {
          check(robots, url("/page"), "x", A(2, "/p", "global"));
          check(robots, url("/other"), "x", D(3, "/", "global"));
        }
        for (const robots of both("User-agent: *\nDisallow: /x/page.html\nAllow: /x/\n")) {
          check(robots, url("/x/page.html"), "x", D(2, "/x/page.html", "global"));
          check(robots, url("/x/other"), "x", A(3, "/x/", "global"));
        }
      });

      it("allow wins a tie, whichever comes first", () => {
        for (const robots of both("User-agent: *\nDisallow: /a\nAllow: /a\n")) check(robots, url("/a"), "x", A(3, "/a", "global"));
        for (const robots of both("User-agent: *\nAllow: /a\nDisallow: /a\n")) check(robots, url("/a"), "x", A(2, "/a", "global"));
      });

      it("behaviour.md 23: among rules of the same kind and priority, the lowest line wins", () => {
        for (const robots of both("User-agent: *\nDisallow: /a*\nDisallow: /*a\n")) check(robots, url("/a"), "x", D(2, "/a*", "global"));
        for (const robots of both("User-agent: *\nDisallow: /*a\nDisallow: /a*\n")) check(robots, url("/a"), "x", D(2, "/*a", "global"));
        for (const robots of both("User-agent: *\nAllow: /*b\nAllow: /b*\nDisallow: /b\n")) check(robots, url("/b"), "x", A(2, "/*b", "global"));
      });

      it("behaviour.md 23: the lowest line wins for patterns past 65,536 bytes too (rfc9309 keeps long lines)", () => {
        const pattern = "/" + "b".repeat(70_000);
        const robots = rfc(`User-agent: *\nDisallow: ${pattern}\nDisallow: ${pattern}\nAllow: /\n`);
        check(robots, url(pattern + "b"), "x", D(2, pattern, "global"));
      });

      it("behaviour.md 13: priority counts * and $ bytes", () => {
        for (const robots of both("User-agent: *\nAllow: /ab\nDisallow: /a**\n")) check(robots, url("/ab"), "x", D(3, "/a**", "global"));
        for (const robots of both("User-agent: *\nAllow: /ab$\nDisallow: /a**\n")) check(robots, url("/ab"), "x", A(2, "/ab$", "global"));
      });

      it("behaviour.md 13: priority is the length after percent-escaping", () => {
        // Allow /é is /%C3%A9 (7 bytes once escaped, 3 raw); the disallow is 6 bytes.
        for (const robots of both("User-agent: *\nAllow: /é\nDisallow: /%C3%A\n")) {
          check(robots, url("/%C3%A9"), "x", A(2, "/%C3%A9", "global"));
        }
      });
    });

    describe("robots-txt.md 3: empty patterns never decide", () => {
      it("`Disallow:` alone allows everything; the line is that of `Disallow:`", () => {
        for (const robots of both("User-agent: *\nDisallow:\n")) {
          check(robots, url("/x"), "x", EMPTY_D(2, "global"));
          check(robots, url("/"), "x", EMPTY_D(2, "global"));
        }
      });

      it("an empty allow does not beat a real disallow", () => {
        for (const robots of both("User-agent: *\nAllow:\nDisallow: /x\n")) {
          check(robots, url("/x"), "x", D(3, "/x", "global"));
          check(robots, url("/y"), "x", { allowed: true, line: 2, rule: { kind: "allow", pattern: "", group: "global" } });
        }
      });

      it("both empty: the allow wins the tie", () => {
        for (const robots of both("User-agent: *\nDisallow:\nAllow:\n")) {
          check(robots, url("/y"), "x", { allowed: true, line: 3, rule: { kind: "allow", pattern: "", group: "global" } });
        }
      });
    });

    it("RFC 9309 2.2.2: no matching rule means allowed (line 0, no rule)", () => {
      for (const robots of both("User-agent: *\nDisallow: /private\n")) check(robots, url("/public"), "x", NONE);
    });

    it("robots-txt.md 3: matching is linear, not backtracking (/*a*a*...*b against long paths)", { timeout: 20_000 }, () => {
      const pattern = "/" + "*a".repeat(40) + "*b";
      const anchored = "/" + "*a".repeat(40) + "$";
      for (const robots of both(`User-agent: *\nDisallow: ${pattern}\nAllow: ${anchored}\n`)) {
        const path = "/" + "a".repeat(30_000);
        check(robots, url(path), "x", A(3, anchored, "global"));
        check(robots, url(path + "c"), "x", NONE);
        check(robots, url(path + "b"), "x", D(2, pattern, "global"));
      }
    });

    describe("google / behaviour.md 15: index pages (robots-txt.md 7: google only)", () => {
      const body = "User-agent: *\nAllow: /d/index.html\nAllow: /e/index.htm$\nAllow: /index.htm\nDisallow: /\n";

      it("google: an allow of /d/index.html also allows /d/ (as /d/$, same line)", () => {
        const robots = parse(body);
        check(robots, url("/d/"), "x", A(2, "/d/$", "global"));
        check(robots, url("/d/index.html"), "x", A(2, "/d/index.html", "global"));
        check(robots, url("/d/index.htm"), "x", D(5, "/", "global"));
        check(robots, url("/d/x"), "x", D(5, "/", "global"));
        check(robots, url("/d/?q"), "x", D(5, "/", "global"));
        check(robots, url("/e/"), "x", A(3, "/e/$", "global"));
        check(robots, url("/"), "x", A(4, "/$", "global"));
      });

      it("rfc9309: not applied", () => {
        const robots = rfc(body);
        check(robots, url("/d/"), "x", D(5, "/", "global"));
        check(robots, url("/e/"), "x", D(5, "/", "global"));
        check(robots, url("/"), "x", D(5, "/", "global"));
        check(robots, url("/d/index.html"), "x", A(2, "/d/index.html", "global"));
      });

      it("google: the directory rule's priority is the length of /d/$", () => {
        const tie = parse("User-agent: *\nAllow: /d/index.html\nDisallow: /d/*\n");
        check(tie, url("/d/"), "x", A(2, "/d/$", "global"));
        const longer = parse("User-agent: *\nAllow: /d/index.html\nDisallow: /d/**\n");
        check(longer, url("/d/"), "x", D(3, "/d/**", "global"));
      });

      it("google: only for allow, and only for /index.htm after the last slash, case-sensitively", () => {
        const robots = parse("User-agent: *\nDisallow: /a/index.html\nAllow: /b/Index.html\nAllow: /c/index.html/x\nAllow: /dindex.html\n");
        check(robots, url("/a/"), "x", NONE);
        check(robots, url("/b/"), "x", NONE);
        check(robots, url("/c/"), "x", NONE);
        check(robots, url("/c/index.html/"), "x", NONE);
        check(robots, url("/"), "x", NONE);
      });
    });

    describe("google / behaviour.md 11: percent-escaping of patterns (both profiles)", () => {
      it("bytes >= 0x80 become upper-case %XX", () => {
        for (const robots of both("User-agent: *\nDisallow: /ツ\n")) {
          check(robots, url("/%E3%83%84"), "x", D(2, "/%E3%83%84", "global"));
        }
        for (const robots of both(bytesOf("User-agent: *\nDisallow: /caf", [0xe9], "\n"))) {
          check(robots, url("/caf%E9"), "x", D(2, "/caf%E9", "global"));
        }
      });

      it("existing %xx escapes get upper-case hex", () => {
        for (const robots of both("User-agent: *\nDisallow: /a%2fb\nDisallow: /c%e3%83%84\n")) {
          check(robots, url("/a%2Fb"), "x", D(2, "/a%2Fb", "global"));
          check(robots, url("/c%E3%83%84"), "x", D(3, "/c%E3%83%84", "global"));
        }
      });

      it("a % before a byte that is not a hex digit (`g` follows `f`) is no escape: kept as it is", () => {
        for (const robots of both("User-agent: *\nDisallow: /%4g\nDisallow: /a%Fg\n")) {
          check(robots, url("/%4g"), "x", D(2, "/%4g", "global"));
          check(robots, url("/a%Fg"), "x", D(3, "/a%Fg", "global"));
        }
      });

      it("malformed escapes and everything else (space, *, $) are kept", () => {
        for (const robots of both("User-agent: *\nDisallow: /a%zz\nDisallow: /login%2\nDisallow: /a b\n")) {
          check(robots, url("/a%zz"), "x", D(2, "/a%zz", "global"));
          check(robots, url("/login%2"), "x", D(3, "/login%2", "global"));
          check(robots, url("/a%20b"), "x", NONE);
        }
        check(parse("User-agent: *\nDisallow: /a b\n"), url("/a b"), "x", D(2, "/a b", "global"));
      });
    });

    describe("robots-txt.md 7: where the profiles differ (every row, both sides)", () => {
      it("`Disallow: /foo/bar/%62%61%7A`, URL /foo/bar/baz: google allowed (no decoding), rfc9309 disallowed", () => {
        const body = "User-agent: *\nDisallow: /foo/bar/%62%61%7A\n";
        check(parse(body), url("/foo/bar/baz"), "x", NONE);
        check(parse(body), url("/foo/bar/%62%61%7A"), "x", D(2, "/foo/bar/%62%61%7A", "global"));
        check(rfc(body), url("/foo/bar/baz"), "x", D(2, "/foo/bar/baz", "global"));
        check(rfc(body), url("/foo/bar/%62%61%7a"), "x", D(2, "/foo/bar/baz", "global"));
      });

      it("`Disallow: /ツ`, URL with raw /ツ: google allowed (URL must come encoded), rfc9309 disallowed", () => {
        const body = "User-agent: *\nDisallow: /ツ\n";
        check(parse(body), url("/ツ"), "x", NONE);
        check(rfc(body), url("/ツ"), "x", D(2, "/%E3%83%84", "global"));
      });

      it("URL /a%2fb vs `Disallow: /a%2Fb`: google allowed, rfc9309 disallowed (hex case normalised on both sides)", () => {
        const body = "User-agent: *\nDisallow: /a%2Fb\n";
        check(parse(body), url("/a%2fb"), "x", NONE);
        check(rfc(body), url("/a%2fb"), "x", D(2, "/a%2Fb", "global"));
      });

      it("`Disallow: /path/foo-%24`, URL /path/foo-$: google allowed, rfc9309 disallowed (%24 and %2A match a literal $ or *)", () => {
        const body = "User-agent: *\nDisallow: /path/foo-%24\nDisallow: /path/file-with-a-%2A.html\n";
        check(parse(body), url("/path/foo-$"), "x", NONE);
        check(parse(body), url("/path/file-with-a-*.html"), "x", NONE);
        check(rfc(body), url("/path/foo-$"), "x", D(2, "/path/foo-%24", "global"));
        check(rfc(body), url("/path/file-with-a-*.html"), "x", D(3, "/path/file-with-a-%2A.html", "global"));
        check(rfc(body), url("/path/file-with-a-x.html"), "x", NONE);
      });

      it("/robots.txt under `Disallow: /`: google disallowed, rfc9309 allowed (RFC 9309 2.2.2)", () => {
        const body = "User-agent: *\nDisallow: /\n";
        check(parse(body), url("/robots.txt"), "x", D(2, "/", "global"));
        check(rfc(body), url("/robots.txt"), "x", NONE);
      });

      it("a line of 17,000 bytes: google truncates, rfc9309 keeps it whole", () => {
        const value = "/" + "a".repeat(16_989);
        const body = `User-agent: *\nDisallow: ${value}\n`;
        const kept = "/" + "a".repeat(16_652);
        check(parse(body), url(kept + "z"), "x", D(2, kept, "global"));
        check(rfc(body), url(kept + "z"), "x", NONE);
        check(rfc(body), url(value), "x", D(2, value, "global"));
        expect(parse(body).lines[1].tooLong).toBe(true);
        expect(rfc(body).lines[1].tooLong).toBe(false);
      });

      it("index.html allow rule: google allows the directory too, rfc9309 does not", () => {
        const body = "User-agent: *\nAllow: /allowed-slash/index.html\nDisallow: /\n";
        check(parse(body), url("/allowed-slash/"), "x", A(2, "/allowed-slash/$", "global"));
        check(rfc(body), url("/allowed-slash/"), "x", D(3, "/", "global"));
      });
    });

    describe("behaviour.md 12, 17-19: the rfc9309 normalisation, in detail", () => {
      it("behaviour.md 12: %XX of unreserved characters in patterns is decoded, other escapes stay upper-case", () => {
        const robots = rfc("User-agent: *\nDisallow: /%7euser/%41%2d%2E%5F%30\nDisallow: /q%3f%2f\n");
        check(robots, url("/~user/A-._0"), "x", D(2, "/~user/A-._0", "global"));
        check(robots, url("/q%3F%2F"), "x", D(3, "/q%3F%2F", "global"));
        check(robots, url("/q?/"), "x", NONE);
        const google = parse("User-agent: *\nDisallow: /%7euser\n");
        check(google, url("/~user"), "x", NONE);
        check(google, url("/%7Euser"), "x", D(2, "/%7Euser", "global"));
      });

      it("behaviour.md 18: the URL is normalised the same way; malformed escapes stay", () => {
        const robots = rfc("User-agent: *\nDisallow: /~user\nDisallow: /a%zz\nDisallow: /login%2\n");
        check(robots, url("/%7Euser"), "x", D(2, "/~user", "global"));
        check(robots, url("/%7euser"), "x", D(2, "/~user", "global"));
        check(robots, url("/a%zz"), "x", D(3, "/a%zz", "global"));
        check(robots, url("/login%2"), "x", D(4, "/login%2", "global"));
      });

      it("behaviour.md 18: every URL byte from 0x80 up is encoded, 0x80 itself included", () => {
        // U+0400 is D0 80 in UTF-8.
        const robots = rfc("User-agent: *\nDisallow: /%D0%80$\n");
        check(robots, url("/\u0400"), "x", D(2, "/%D0%80$", "global"));
        expect([...robots.classify(Buffer.from("http://example.com/\u0400\n"), "x")]).toEqual([0]);
      });

      it("behaviour.md 18: wildcards still work on the normalised URL", () => {
        const robots = rfc("User-agent: *\nDisallow: /a*c\nDisallow: /e*$\n");
        check(robots, url("/abc"), "x", D(2, "/a*c", "global"));
        check(robots, url("/a*c"), "x", D(2, "/a*c", "global"));
        check(robots, url("/e$"), "x", D(3, "/e*$", "global"));
      });

      it("behaviour.md 12 + 18: in rfc9309 a mid-pattern (literal) $ becomes %24 and matches the URL's $, also %24", () => {
        const body = "User-agent: *\nDisallow: /a$b\nDisallow: /c$\n";
        check(parse(body), url("/a$b"), "x", D(2, "/a$b", "global"));
        check(parse(body), url("/a%24b"), "x", NONE);
        check(rfc(body), url("/a$b"), "x", D(2, "/a%24b", "global"));
        check(rfc(body), url("/a%24b"), "x", D(2, "/a%24b", "global"));
        // The final $ is still the end anchor.
        check(rfc(body), url("/c"), "x", D(3, "/c$", "global"));
        check(rfc(body), url("/c$"), "x", NONE);
      });

      it("behaviour.md 17 / 18: google reads the URL up to its first NUL; rfc9309 keeps NUL as a byte", () => {
        const body = "User-agent: *\nDisallow: /a$\nDisallow: /b*c$\n";
        check(parse(body), url("/a\0b"), "x", D(2, "/a$", "global"));
        check(rfc(body), url("/a\0b"), "x", NONE);
        check(parse(body), url("/b\0c"), "x", NONE);
        check(rfc(body), url("/b\0c"), "x", D(3, "/b*c$", "global"));
      });

      it("behaviour.md 19: rfc9309 allows exactly /robots.txt (after normalisation, before any query)", () => {
        const body = "User-agent: *\nDisallow: /\n";
        const robots = rfc(body);
        for (const target of [url("/robots.txt"), url("/robots.txt?x=1"), url("/robots.txt#top"), url("/%72obots.txt"), url("/robots%2Etxt"), "/robots.txt"]) {
          check(robots, target, "x", NONE);
          expect(robots.matchingRules(target, "x")).toEqual([]);
          check(parse(body), target, "x", D(2, "/", "global"));
          expect(parse(body).matchingRules(target, "x")).toHaveLength(1);
        }
        for (const target of [url("/robots.txt/"), url("/robots.txtx"), url("/ROBOTS.TXT"), url("/a/robots.txt"), url("/robots.txt;x")]) {
          check(robots, target, "x", D(2, "/", "global"));
        }
      });

      it("behaviour.md 19: in a byte batch too, among other URLs of the same host", () => {
        const batch = Buffer.from("https://a.com/x\nhttps://a.com/robots.txt\nhttps://a.com/y\nhttps://a.com/robots.txt\nhttps://a.com/robots.txt?q\n");
        const result = rfc("User-agent: *\nDisallow: /\n").classifyWithLines(batch, "x");
        expect([...result.allowed]).toEqual([0, 1, 0, 1, 1]);
        expect([...result.lines]).toEqual([2, 0, 2, 0, 0]);
      });
    });
  });

  describe("robots-txt.md 4: other records", () => {
    const body = [
      "Sitemap: http://example.com/s1.xml", // 1
      "User-agent: FooBot", // 2
      "Crawl-delay: 5", // 3
      "Request-rate: 1/10s", // 4
      "Disallow: /x", // 5
      "Sitemap: http://example.com/s2.xml # second", // 6
      "Host: example.com", // 7
      "User-agent: *", // 8
      "Visit-time: 0600-0845", // 9
      "Clean-param: ref /articles/", // 10
      "Content-Signal: search=yes, ai-train=no", // 11
      "Content-Usage: train-ai=n", // 12
      "Noindex: /private/", // 13
      "Nofollow: /nf/", // 14
      "Noarchive: /na/", // 15
      "X-Custom-Thing: Some Value", // 16
      "site-map: http://example.com/s3.xml", // 17
      "Sitemap:", // 18
      "Sitemap: http://example.com/s1.xml", // 19
      "CRAWL-DELAY: 2.5", // 20
      "Crawl-delays: 7", // 21
      "Disallow: /y", // 22
      "",
    ].join("\n");

    it("behaviour.md 24: records are every line other than user-agent/allow/disallow, in file order, with their group", () => {
      for (const robots of both(body)) {
        const expected: RobotsRecord[] = [
          { line: 1, key: "sitemap", known: true, value: "http://example.com/s1.xml", group: null },
          { line: 3, key: "crawl-delay", known: true, value: "5", group: 0 },
          { line: 4, key: "request-rate", known: true, value: "1/10s", group: 0 },
          { line: 6, key: "sitemap", known: true, value: "http://example.com/s2.xml", group: null },
          { line: 7, key: "host", known: true, value: "example.com", group: 0 },
          { line: 9, key: "visit-time", known: true, value: "0600-0845", group: 1 },
          { line: 10, key: "clean-param", known: true, value: "ref /articles/", group: 1 },
          { line: 11, key: "content-signal", known: true, value: "search=yes, ai-train=no", group: 1 },
          { line: 12, key: "content-usage", known: true, value: "train-ai=n", group: 1 },
          { line: 13, key: "noindex", known: true, value: "/private/", group: 1 },
          { line: 14, key: "nofollow", known: true, value: "/nf/", group: 1 },
          { line: 15, key: "noarchive", known: true, value: "/na/", group: 1 },
          { line: 16, key: "x-custom-thing", known: false, value: "Some Value", group: 1 },
          { line: 17, key: "sitemap", known: true, value: "http://example.com/s3.xml", group: null },
          { line: 18, key: "sitemap", known: true, value: "", group: null },
          { line: 19, key: "sitemap", known: true, value: "http://example.com/s1.xml", group: null },
          { line: 20, key: "crawl-delay", known: true, value: "2.5", group: 1 },
          { line: 21, key: "crawl-delays", known: false, value: "7", group: 1 },
        ];
        expect(robots.records).toEqual(expected);
        expect(robots.lines.map((l) => l.kind)).toEqual([
          "sitemap",
          "user-agent",
          "ignored-record",
          "ignored-record",
          "disallow",
          "sitemap",
          "ignored-record",
          "user-agent",
          ...Array<LineInfo["kind"]>(7).fill("ignored-record"),
          "unknown",
          "sitemap",
          "sitemap",
          "sitemap",
          "ignored-record",
          "unknown",
          "disallow",
          "empty",
        ]);
      }
    });

    it("behaviour.md 10 / types.ts: an unknown key is reported lower-cased in ASCII only (keys are ASCII case-insensitive)", () => {
      for (const robots of both("X-ÄBC-Ŭ: 1\nCRAWL-Delay: 2\n")) {
        expect(robots.records).toEqual([
          { line: 1, key: "x-Äbc-Ŭ", known: false, value: "1", group: null },
          { line: 2, key: "crawl-delay", known: true, value: "2", group: null },
        ]);
      }
    });

    it("RFC 9309 2.2.4 / behaviour.md 25: sitemaps are the non-empty values in file order, duplicates kept, from anywhere", () => {
      for (const robots of both(body)) {
        expect(robots.sitemaps).toEqual(["http://example.com/s1.xml", "http://example.com/s2.xml", "http://example.com/s3.xml", "http://example.com/s1.xml"]);
      }
    });

    it("RFC 9309 2.2.4: other records never affect matching or grouping", () => {
      for (const robots of both(body)) {
        check(robots, url("/x"), "FooBot", D(5, "/x", "specific"));
        check(robots, url("/y"), "FooBot", NONE);
        check(robots, url("/y"), "BarBot", D(22, "/y", "global"));
        check(robots, url("/private/"), "BarBot", NONE);
      }
    });

    it("behaviour.md 26: crawlDelay comes from the groups that decide for the agent", () => {
      for (const robots of both(body)) {
        expect(robots.crawlDelay("FooBot")).toBe(5);
        expect(robots.crawlDelay("BarBot")).toBe(2.5);
        expect(robots.crawlDelay(["BarBot", "FooBot"])).toBe(5);
      }
      for (const robots of both("User-agent: *\nCrawl-delay: 9\nDisallow: /\nUser-agent: FooBot\nDisallow: /x\n")) {
        expect(robots.crawlDelay("FooBot")).toBeUndefined();
        expect(robots.crawlDelay("Other")).toBe(9);
      }
      for (const robots of both("User-agent: FooBot\nDisallow: /\n")) expect(robots.crawlDelay("FooBot")).toBeUndefined();
    });

    it("robots-txt.md 8 / behaviour.md 26: the crawl-delay pitfall: FooBot shares the * group, so its delay is the group's", () => {
      for (const robots of both("User-agent: FooBot\nCrawl-delay: 5\nUser-agent: *\nDisallow: /\n")) {
        expect(robots.crawlDelay("FooBot")).toBe(5);
        expect(robots.crawlDelay("Other")).toBe(5);
        expect(robots.records).toEqual([{ line: 2, key: "crawl-delay", known: true, value: "5", group: 0 }]);
      }
    });

    it("behaviour.md 26: merged groups give the first crawl-delay in file order", () => {
      for (const robots of both("User-agent: a\nDisallow: /\nUser-agent: b\nCrawl-delay: 2\nDisallow: /\nUser-agent: a\nCrawl-delay: 1\n")) {
        expect(robots.crawlDelay("a")).toBe(1);
        expect(robots.crawlDelay("b")).toBe(2);
        expect(robots.crawlDelay(["a", "b"])).toBe(2);
        expect(robots.records.map((r) => r.group)).toEqual([1, 2]);
      }
    });

    it.each([
      ["5", 5],
      ["0.5", 0.5],
      ["10.", 10],
      [".5", 0.5],
      ["007", 7],
      ["0", 0],
      ["2.50 # comment", 2.5],
      ["abc", undefined],
      ["-1", undefined],
      ["1e3", undefined],
      [".", undefined],
      ["5s", undefined],
      ["+5", undefined],
      ["1,5", undefined],
      ["0x10", undefined],
      ["Infinity", undefined],
      ["", undefined],
    ])("behaviour.md 26: crawl-delay %j gives %j (non-negative decimal numbers only)", (value, seconds) => {
      for (const robots of both(`User-agent: *\nCrawl-delay: ${value}\n`)) expect(robots.crawlDelay("x")).toBe(seconds);
    });

    it("behaviour.md 26: invalid crawl-delay values are skipped; the first valid one counts", () => {
      for (const robots of both("User-agent: *\nCrawl-delay: soon\nCrawl-delay 3\nCrawl-delay: 4\n")) {
        expect(robots.crawlDelay("x")).toBe(3);
        expect(robots.lines[2]).toEqual(lineInfo(3, "ignored-record", { missingColon: true }));
      }
    });
  });

  describe("robots-txt.md 5 / types.ts: per-line metadata and input metadata", () => {
    it("every line gets its kind and flags", () => {
      const body = [
        "Disallow: /z", // 1: rule before any user-agent
        "", // 2
        "# comment", // 3
        "User-agent: FooBot # c", // 4
        "useragent: BarBot", // 5
        "Disallow: /a", // 6
        "dissallow: /b", // 7
        "allow /c", // 8
        "Sitemap: http://example.com/s.xml", // 9
        "Crawl-delay: 1", // 10
        "Foo: bar", // 11
        "this is prose here", // 12
        "   \t", // 13
        "",
      ].join("\n");
      for (const robots of both(body)) {
        expect(robots.lines).toEqual([
          lineInfo(1, "disallow", { outsideGroup: true }),
          lineInfo(2, "empty"),
          lineInfo(3, "comment", { hasComment: true }),
          lineInfo(4, "user-agent", { hasComment: true }),
          lineInfo(5, "user-agent", { typo: true }),
          lineInfo(6, "disallow"),
          lineInfo(7, "disallow", { typo: true }),
          lineInfo(8, "allow", { missingColon: true }),
          lineInfo(9, "sitemap"),
          lineInfo(10, "ignored-record"),
          lineInfo(11, "unknown"),
          lineInfo(12, "invalid"),
          lineInfo(13, "empty"),
          lineInfo(14, "empty"),
        ]);
      }
    });

    it("behaviour.md 3: UTF-16LE bodies are transcoded to UTF-8 and reported", () => {
      const text = "User-agent: *\nDisallow: /é\nSitemap: http://example.com/ü.xml\n";
      const body = utf16(text, "le");
      for (const robots of [parse(body), rfc(body)]) {
        check(robots, url("/%C3%A9"), "x", D(2, "/%C3%A9", "global"));
        expect(robots.sitemaps).toEqual(["http://example.com/ü.xml"]);
        expect(robots.lines).toHaveLength(4);
        expect(robots.input).toEqual({ bytes: body.length, parsedBytes: utf8.encode(text).length, truncated: false, cutInLine: false, encoding: "utf-16le", bom: true });
      }
    });

    it("behaviour.md 3: UTF-16BE bodies are transcoded to UTF-8 and reported", () => {
      const text = "User-agent: FooBot\r\nDisallow: /ツ/x\r\n";
      const body = utf16(text, "be");
      for (const robots of [parse(body), rfc(body)]) {
        check(robots, url("/%E3%83%84/x"), "FooBot", D(2, "/%E3%83%84/x", "specific"));
        expect(robots.input).toEqual({ bytes: body.length, parsedBytes: utf8.encode(text).length, truncated: false, cutInLine: false, encoding: "utf-16be", bom: true });
      }
    });

    it("behaviour.md 3: a body that is only a UTF-16 BOM is an empty UTF-16 file", () => {
      expect(parse(new Uint8Array([0xff, 0xfe])).input).toEqual({ bytes: 2, parsedBytes: 0, truncated: false, cutInLine: false, encoding: "utf-16le", bom: true });
      expect(rfc(new Uint8Array([0xfe, 0xff])).input).toEqual({ bytes: 2, parsedBytes: 0, truncated: false, cutInLine: false, encoding: "utf-16be", bom: true });
    });

    it("behaviour.md 2-3: the size limit cuts the raw UTF-16 bytes before transcoding", () => {
      const text = "User-agent: *\nDisallow: /abcdef\n";
      const body = utf16(text, "le");
      const robots = parse(body, { maxBytes: 2 + 2 * 26 });
      check(robots, url("/ab"), "x", D(2, "/a", "global"));
      expect(robots.input).toEqual({ bytes: body.length, parsedBytes: 26, truncated: true, cutInLine: true, encoding: "utf-16le", bom: true });
    });

    it("cutInLine in UTF-16 counts code units: a half unit is a cut inside a line, a cut before a line end is not", () => {
      const body = utf16("User-agent: *\nDisallow: /ab\n", "be");
      const inLine = (maxBytes: number) => parse(body, { maxBytes }).input.cutInLine;
      expect(inLine(2 + 2 * 13)).toBe(false); // before the first LF
      expect(inLine(2 + 2 * 14)).toBe(false); // after it
      expect(inLine(2 + 2 * 12)).toBe(true);
      expect(inLine(2 + 2 * 13 + 1)).toBe(true); // half of the LF: read as U+FFFD
      expect(inLine(2)).toBe(false); // the BOM alone
      // A half unit is read as U+FFFD, so a cut through one is inside a line even before an LF.
      expect(parse(new Uint8Array([0xfe, 0xff, 0x01, 0x00, 0x0a, 0x00, 0x00, 0x78]), { maxBytes: 5 }).input.cutInLine).toBe(true);
    });

    it("types.ts: the profile is reported; google is the default", () => {
      expect(parse("").profile).toBe("google");
      expect(parse("", {}).profile).toBe("google");
      expect(parse("", { profile: "google" }).profile).toBe("google");
      expect(rfc("").profile).toBe("rfc9309");
    });
  });

  describe("robots-txt.md 6: worked examples (RFC 9309 5.1)", () => {
    const body = [
      "User-agent: *", // 1
      "Disallow: *.gif$", // 2
      "Disallow: /example/", // 3
      "Allow: /publications/", // 4
      "", // 5
      "User-agent: foobot", // 6
      "Disallow:/", // 7
      "Allow:/example/page.html", // 8
      "Allow:/example/allowed.gif", // 9
      "", // 10
      "User-agent: barbot", // 11
      "User-agent: bazbot", // 12
      "Disallow: /example/page.html", // 13
      "", // 14
      "User-agent: quxbot", // 15
      "",
    ].join("\n");

    it("robots-txt.md 6: foobot", () => {
      for (const robots of both(body)) {
        check(robots, url("/example/page.html"), "foobot", A(8, "/example/page.html", "specific"));
        check(robots, url("/example/allowed.gif"), "foobot", A(9, "/example/allowed.gif", "specific"));
        check(robots, url("/other"), "foobot", D(7, "/", "specific"));
      }
    });

    it("robots-txt.md 6: barbot and bazbot (the * group does not apply to them)", () => {
      for (const robots of both(body)) {
        for (const agent of ["barbot", "bazbot"]) {
          check(robots, url("/example/page.html"), agent, D(13, "/example/page.html", "specific"));
          check(robots, url("/example/"), agent, NONE);
          check(robots, url("/x.gif"), agent, NONE);
        }
      }
    });

    it("robots-txt.md 6: quxbot: its group is empty, everything allowed", () => {
      for (const robots of both(body)) {
        for (const path of ["/", "/a.gif", "/example/x", "/publications/x"]) check(robots, url(path), "quxbot", NONE);
      }
    });

    it("robots-txt.md 6: any other bot gets the * group", () => {
      for (const robots of both(body)) {
        check(robots, url("/a.gif"), "anybot", D(2, "*.gif$", "global"));
        check(robots, url("/example/x"), "anybot", D(3, "/example/", "global"));
        check(robots, url("/publications/x"), "anybot", A(4, "/publications/", "global"));
        check(robots, url("/a.gif?x"), "anybot", NONE);
      }
    });

    it.each([
      ["/fish", ["/fish", "/fish.html", "/fish/salmon.html", "/fishheads", "/fish.php?id=x"], ["/Fish.asp", "/catfish", "/?id=fish"]],
      ["/fish/", ["/fish/", "/fish/?id=x", "/fish/salmon.htm"], ["/fish", "/fish.html"]],
      ["/*.php", ["/filename.php", "/folder/filename.php?x", "/folder/any.php.file.html"], ["/", "/windows.PHP"]],
      ["/*.php$", ["/filename.php", "/folder/filename.php"], ["/filename.php?x", "/filename.php/", "/filename.php5"]],
      ["/fish*.php", ["/fish.php", "/fishheads/catfish.php?x"], ["/Fish.PHP"]],
    ] as const)("google: documentation example: path %j", (pattern, matching, notMatching) => {
      for (const robots of both(`User-agent: *\nDisallow: ${pattern}\n`)) {
        for (const path of matching) check(robots, url(path), "x", D(2, pattern, "global"));
        for (const path of notMatching) check(robots, url(path), "x", NONE);
      }
    });

    it("google: documentation precedence examples", () => {
      for (const robots of both("User-agent: *\nAllow: /p\nDisallow: /\n")) check(robots, url("/page"), "x", A(2, "/p", "global"));
      for (const robots of both("User-agent: *\nAllow: /folder/\nDisallow: /folder\n")) {
        check(robots, url("/folder/page"), "x", A(2, "/folder/", "global"));
      }
      for (const robots of both("User-agent: *\nAllow: /$\nDisallow: /\n")) {
        check(robots, url("/"), "x", A(2, "/$", "global"));
        check(robots, url("/page.htm"), "x", D(3, "/", "global"));
      }
      for (const robots of both("User-agent: *\nAllow: /page\nDisallow: /*.htm\n")) {
        check(robots, url("/page.htm"), "x", D(3, "/*.htm", "global"));
      }
    });
  });

  describe("robots-txt.md 8: cases where peers disagree", () => {
    it("`Disalow: /` under `User-agent: *`: disallowed (typo accepted)", () => {
      for (const robots of both("User-agent: *\nDisalow: /\n")) check(robots, url("/x"), "AnyBot", D(2, "/", "global"));
    });

    it("User-agent: FooBot / Crawl-delay: 5 / User-agent: * / Disallow: /, agent FooBot: disallowed", () => {
      for (const robots of both("User-agent: FooBot\nCrawl-delay: 5\nUser-agent: *\nDisallow: /\n")) {
        check(robots, url("/x"), "FooBot", D(4, "/", "specific"));
      }
    });

    it("the same with Sitemap: instead of Crawl-delay: disallowed", () => {
      for (const robots of both("User-agent: FooBot\nSitemap: http://example.com/s.xml\nUser-agent: *\nDisallow: /\n")) {
        check(robots, url("/x"), "FooBot", D(4, "/", "specific"));
        expect(robots.sitemaps).toEqual(["http://example.com/s.xml"]);
      }
    });

    it("`User-agent: * foo` / `Disallow: /`: the global group, disallowed for everyone", () => {
      for (const robots of both("User-agent: * foo\nDisallow: /\n")) {
        for (const agent of ["AnyBot", "foo", "Foo"]) check(robots, url("/x"), agent, D(2, "/", "global"));
      }
    });

    it("`User-agent: Foo*` / `Disallow: /`, agent Foo: disallowed", () => {
      for (const robots of both("User-agent: Foo*\nDisallow: /\n")) {
        check(robots, url("/x"), "Foo", D(2, "/", "specific"));
        check(robots, url("/x"), "FooBar", NONE);
      }
    });

    it("`Disallow: /x` with no user-agent line at all: allowed", () => {
      for (const robots of both("Disallow: /x\n")) {
        check(robots, url("/x"), "AnyBot", NONE);
        expect(robots.lines[0].outsideGroup).toBe(true);
      }
    });

    it("`User-agent: *` / `Disallow:` / `Disallow: /`: disallowed", () => {
      for (const robots of both("User-agent: *\nDisallow:\nDisallow: /\n")) check(robots, url("/x"), "AnyBot", D(3, "/", "global"));
    });

    it("`Disallow: /*.html$`, URL /a.html/b.html: disallowed (real backtracking)", () => {
      for (const robots of both("User-agent: *\nDisallow: /*.html$\n")) {
        check(robots, url("/a.html/b.html"), "x", D(2, "/*.html$", "global"));
        check(robots, url("/a.html/b.htmlx"), "x", NONE);
        check(robots, url("/a.html/b.html.html"), "x", D(2, "/*.html$", "global"));
      }
    });

    it("`Disallow: /a$b`, URL /a$b: disallowed (mid-pattern $ is literal; google)", () => {
      check(parse("User-agent: *\nDisallow: /a$b\n"), url("/a$b"), "x", D(2, "/a$b", "global"));
    });

    it("`Disallow: /a$`, URL /a#top: disallowed (fragment dropped)", () => {
      for (const robots of both("User-agent: *\nDisallow: /a$\n")) check(robots, url("/a#top"), "x", D(2, "/a$", "global"));
    });

    it("`Disallow: /b/`, URL /a/../b/c: allowed (no dot-segment resolution; google)", () => {
      const robots = parse("User-agent: *\nDisallow: /b/\n");
      check(robots, url("/a/../b/c"), "x", NONE);
      check(robots, url("/b/c"), "x", D(2, "/b/", "global"));
    });

    it("`Disallow: /caf` + byte 0xE9, URL /caf%E9: disallowed (raw byte escaped)", () => {
      for (const robots of both(bytesOf("User-agent: *\nDisallow: /caf", [0xe9], "\n"))) {
        check(robots, url("/caf%E9"), "x", D(2, "/caf%E9", "global"));
        check(robots, url("/caf%e9x"), "x", robots.profile === "google" ? NONE : D(2, "/caf%E9", "global"));
      }
    });

    it("`Disallow: /a b`, URL /a%20b: allowed (space is not escaped in patterns)", () => {
      for (const robots of both("User-agent: *\nDisallow: /a b\n")) check(robots, url("/a%20b"), "x", NONE);
    });

    it("`Disallow: private` (no leading /): matches nothing", () => {
      for (const robots of both("User-agent: *\nDisallow: private\nDisallow: *secret\n")) {
        check(robots, url("/private"), "x", NONE);
        check(robots, "private", "x", NONE);
        check(robots, url("/private/x"), "x", NONE);
        check(robots, url("/top-secret"), "x", D(3, "*secret", "global"));
      }
    });

    it("NUL, U+2028 and form feed are ordinary bytes, not line ends; NUL ends the line's content (behaviour.md 7)", () => {
      const body = bytesOf("User-agent: *\nDisallow: /n", [0], "Disallow: /nul\nDisallow: /ls\u2028Disallow: /u2028\nDisallow: /ff\fDisallow: /ff2\n");
      for (const robots of both(body)) {
        expect(robots.lines).toHaveLength(5);
        check(robots, url("/nul"), "x", D(2, "/n", "global"));
        check(robots, url("/u2028"), "x", NONE);
        check(robots, url("/ls%E2%80%A8Disallow:%20/u2028"), "x", NONE);
        check(robots, url("/ls%E2%80%A8Disallow: /u2028"), "x", D(3, "/ls%E2%80%A8Disallow: /u2028", "global"));
        check(robots, url("/ff2"), "x", NONE);
        check(robots, url("/ff\fDisallow: /ff2"), "x", D(4, "/ff\fDisallow: /ff2", "global"));
      }
    });

    it("behaviour.md 7: a NUL before the colon leaves a line without separator (invalid)", () => {
      for (const robots of both(bytesOf("User-agent: *\nDisallow", [0], ": /x\n"))) {
        check(robots, url("/x"), "x", NONE);
        expect(robots.lines[1].kind).toBe("invalid");
      }
    });
  });

  describe("types.ts / errors.ts: misuse throws RobotsError with a stable code", () => {
    const anyParse = impl.parse as (body: unknown, options?: unknown) => RobotsTxt;

    it("unknown option", () => {
      expectRobotsError(() => anyParse("", { profil: "google" }), "ROBOTS_ERR_INVALID_OPTION");
      expectRobotsError(() => anyParse("", { maxbytes: 5 }), "ROBOTS_ERR_INVALID_OPTION");
    });

    it("bad profile", () => {
      for (const profile of ["Google", "rfc", "", 1, {}]) expectRobotsError(() => anyParse("", { profile }), "ROBOTS_ERR_INVALID_OPTION");
    });

    it("bad maxBytes", () => {
      for (const maxBytes of [-1, 1.5, NaN, -Infinity, "100", 2 ** 60, true]) {
        expectRobotsError(() => anyParse("", { maxBytes }), "ROBOTS_ERR_INVALID_OPTION");
      }
    });

    it("options that are not an object", () => {
      for (const options of [null, "google", 5]) expectRobotsError(() => anyParse("", options), "ROBOTS_ERR_INVALID_OPTION");
    });

    it("bad body", () => {
      for (const body of [123, null, undefined, {}, new ArrayBuffer(4), [1, 2, 3]]) expectRobotsError(() => anyParse(body), "ROBOTS_ERR_INVALID_BODY");
    });

    it("a URL that is not a string, in isAllowed and explain", () => {
      const robots = parse("User-agent: *\nDisallow: /\n");
      const anyRobots = robots as unknown as { isAllowed(u: unknown, a: unknown): boolean; explain(u: unknown, a: unknown): Explanation };
      for (const bad of [123, null, undefined, {}, new URL("http://example.com/")]) {
        expectRobotsError(() => anyRobots.isAllowed(bad, "x"), "ROBOTS_ERR_INVALID_URL");
        expectRobotsError(() => anyRobots.explain(bad, "x"), "ROBOTS_ERR_INVALID_URL");
      }
    });

    it("a batch with a non-string URL, or neither an array nor bytes", () => {
      const robots = parse("User-agent: *\nDisallow: /\n");
      const anyRobots = robots as unknown as { classify(u: unknown, a: unknown): Uint8Array; classifyWithLines(u: unknown, a: unknown): unknown };
      for (const bad of [["/a", 1], ["/a", null], [undefined], "/a\n/b", 5, new Uint16Array(2), null]) {
        expectRobotsError(() => anyRobots.classify(bad, "x"), "ROBOTS_ERR_INVALID_URL");
        expectRobotsError(() => anyRobots.classifyWithLines(bad, "x"), "ROBOTS_ERR_INVALID_URL");
      }
    });

    it("a bad agent", () => {
      const robots = parse("User-agent: *\nDisallow: /\n");
      const anyRobots = robots as unknown as Record<"isAllowed" | "explain" | "classify" | "classifyWithLines", (u: unknown, a: unknown) => unknown> & {
        crawlDelay(a: unknown): unknown;
      };
      for (const bad of [5, null, undefined, {}, ["a", 1], [null]]) {
        expectRobotsError(() => anyRobots.isAllowed(url("/"), bad), "ROBOTS_ERR_INVALID_AGENT");
        expectRobotsError(() => anyRobots.explain(url("/"), bad), "ROBOTS_ERR_INVALID_AGENT");
        expectRobotsError(() => anyRobots.classify([url("/")], bad), "ROBOTS_ERR_INVALID_AGENT");
        expectRobotsError(() => anyRobots.classifyWithLines([url("/")], bad), "ROBOTS_ERR_INVALID_AGENT");
        expectRobotsError(() => anyRobots.crawlDelay(bad), "ROBOTS_ERR_INVALID_AGENT");
      }
    });

    it("use after dispose throws ROBOTS_ERR_DISPOSED; dispose is idempotent", () => {
      const robots = parse("User-agent: *\nDisallow: /\nCrawl-delay: 1\n");
      check(robots, url("/x"), "x", D(2, "/", "global"));
      robots.dispose();
      expect(() => robots.dispose()).not.toThrow();
      expectRobotsError(() => robots.isAllowed(url("/x"), "x"), "ROBOTS_ERR_DISPOSED");
      expectRobotsError(() => robots.explain(url("/x"), "x"), "ROBOTS_ERR_DISPOSED");
      expectRobotsError(() => robots.classify([url("/x")], "x"), "ROBOTS_ERR_DISPOSED");
      expectRobotsError(() => robots.classifyWithLines(utf8.encode("/x\n"), "x"), "ROBOTS_ERR_DISPOSED");
      expectRobotsError(() => robots.crawlDelay("x"), "ROBOTS_ERR_DISPOSED");
      expect(() => robots.dispose()).not.toThrow();
    });

    it("disposing one table leaves the others working", () => {
      const first = parse("User-agent: *\nDisallow: /a\n");
      const second = parse("User-agent: *\nDisallow: /b\n");
      first.dispose();
      check(second, url("/b"), "x", D(2, "/b", "global"));
      const third = parse("User-agent: *\nDisallow: /c\n");
      check(third, url("/c"), "x", D(2, "/c", "global"));
      check(second, url("/c"), "x", NONE);
      second.dispose();
      third.dispose();
    });
  });

  describe("robots-txt.md 1 / 5: garbage content never throws", () => {
    const tokens = [
      "User-agent: ", "Disallow: ", "Allow: ", "Sitemap: ", "Crawl-delay: ", "useragent ", "disalow:", "user agent:", "*", "$", "%", "%2F", "%e9", "%7A",
      "/", "/a", "index.html", "Googlebot", " ", "\t", ":", "#", "\n", "\r", "\r\n", "\0", "\u2028", "\f", "é", "ツ", "<html>",
    ];
    const robotsBytes = fc.oneof(
      fc.uint8Array({ maxLength: 3000 }),
      fc
        .array(fc.oneof(fc.constantFrom(...tokens).map((t) => utf8.encode(t)), fc.uint8Array({ maxLength: 8 }), fc.constant(Uint8Array.of(0xef, 0xbb, 0xbf))), {
          maxLength: 120,
        })
        .map((parts) => bytesOf(...parts)),
    );
    const urlText = fc.oneof(
      fc.string({ maxLength: 60 }),
      fc.array(fc.constantFrom("http://a.com", "//", "/", "a", "?", ";", "#", "%", "%2f", "*", "$", "é", "\0", "robots.txt", "index.html"), { maxLength: 12 }).map((p) => p.join("")),
    );
    const agent = fc.oneof(fc.constantFrom("Googlebot", "*", "", "Foo Bar", "a"), fc.string({ maxLength: 12 }), fc.array(fc.string({ maxLength: 8 }), { maxLength: 3 }));

    it.each(PROFILES)("random and token-soup bodies, %s profile (fixed seed unless FC_SEED)", (profile) => {
      fc.assert(
        fc.property(robotsBytes, fc.array(urlText, { minLength: 1, maxLength: 8 }), agent, fc.constantFrom(512_000, 40, Infinity), (body, urls, who, maxBytes) => {
          const robots = parse(body, { profile, maxBytes });
          const cut = body.subarray(0, maxBytes);
          const utf16Body = cut.length >= 2 && ((cut[0] === 0xff && cut[1] === 0xfe) || (cut[0] === 0xfe && cut[1] === 0xff));
          if (!utf16Body) expect(robots.lines).toHaveLength(countLines(cut));
          robots.lines.forEach((info, i) => expect(info.line).toBe(i + 1));
          const batch = robots.classifyWithLines(urls, who);
          urls.forEach((target, i) => {
            const explanation = robots.explain(target, who);
            // behaviour.md 23: disallowed iff the winner is a disallow of priority > 0; line 0 iff no rule.
            expect(explanation.allowed).toBe(!(explanation.rule?.kind === "disallow" && explanation.rule.pattern.length > 0));
            expect(explanation.line === 0).toBe(explanation.rule === undefined);
            expect([batch.allowed[i], batch.lines[i]]).toEqual([explanation.allowed ? 1 : 0, explanation.line]);
          });
          robots.crawlDelay(who);
          expect(robots.sitemaps.every((s) => typeof s === "string" && s !== "")).toBe(true);
          expect(robots.records.every((r) => r.line >= 1 && r.line <= robots.lines.length)).toBe(true);
          robots.dispose();
        }),
        fuzzRuns(20_240_601, 300),
      );
    });

    it("HTML, NULs and binary bodies of every size parse and allow what has no rule", () => {
      const bodies: Uint8Array[] = [
        utf8.encode("<!DOCTYPE html><html><body><h1>403 Forbidden</h1></body></html>"),
        new Uint8Array(10_000),
        Uint8Array.from({ length: 70_000 }, (_, i) => (i * 7919) % 256),
        bytesOf([0xff, 0xfe], [0x00, 0xd8, 0x41, 0x00]), // UTF-16LE with a lone surrogate
        bytesOf([0xfe, 0xff, 0x00]), // odd-length UTF-16BE
        bytesOf([0xef, 0xbb]),
      ];
      for (const body of bodies) {
        for (const profile of PROFILES) {
          const robots = parse(body, { profile });
          expect(robots.explain(url("/robots-test"), "Googlebot").allowed).toBe(true);
          expect(robots.classify(utf8.encode("/a\n/b\n"), ["a", "b"])).toHaveLength(2);
          robots.dispose();
        }
      }
    });
  });

  describe("types.ts: batches (classify, classifyWithLines) agree with explain", () => {
    const body = "User-agent: *\nDisallow: /private\nAllow: /private/ok\nDisallow: /*.pdf$\nDisallow: /ツ\nUser-agent: FooBot\nDisallow: /foo\n";
    const urls = [
      "http://example.com/",
      "http://example.com/private/x",
      "/private/ok/y",
      "/doc.pdf",
      "/doc.pdf?x",
      "",
      "/%E3%83%84",
      "/ツ",
      "http://example.com/a?b#c",
      "/foo",
      "/robots.txt",
      "/private",
    ];
    const agents: AgentQuery[] = ["AnyBot", "FooBot", ["FooBot", "AnyBot"]];

    function expectBatch(robots: RobotsTxt, batch: readonly string[] | Uint8Array, entries: readonly string[], agent: AgentQuery): void {
      const verdicts = robots.classify(batch, agent);
      const withLines = robots.classifyWithLines(batch, agent);
      expect(verdicts).toBeInstanceOf(Uint8Array);
      expect(withLines.allowed).toBeInstanceOf(Uint8Array);
      expect(withLines.lines).toBeInstanceOf(Uint32Array);
      const explained = entries.map((entry) => robots.explain(entry, agent));
      expect(Array.from(verdicts)).toEqual(explained.map((e) => (e.allowed ? 1 : 0)));
      expect(Array.from(withLines.allowed)).toEqual(explained.map((e) => (e.allowed ? 1 : 0)));
      expect(Array.from(withLines.lines)).toEqual(explained.map((e) => e.line));
    }

    it("string[] batches", () => {
      for (const robots of both(body)) for (const agent of agents) expectBatch(robots, urls, urls, agent);
    });

    it("the verdicts are not all the same (the batch test has teeth)", () => {
      const verdicts = parse(body).classify(urls, "AnyBot");
      expect(Array.from(verdicts)).toEqual([1, 0, 1, 0, 1, 1, 0, 1, 1, 1, 1, 0]);
    });

    it.each([
      ["LF with a final newline", "\n", true],
      ["LF without a final newline", "\n", false],
      ["CRLF with a final newline", "\r\n", true],
      ["CRLF without a final newline", "\r\n", false],
    ])("behaviour.md 27: Uint8Array batch, %s", (_name, eol, finalNewline) => {
      const bytes = utf8.encode(urls.join(eol) + (finalNewline ? eol : ""));
      for (const robots of both(body)) for (const agent of agents) expectBatch(robots, bytes, urls, agent);
    });

    it("behaviour.md 27: empty lines are URLs (path /); no entry after a final LF", () => {
      for (const robots of both(body)) {
        expectBatch(robots, utf8.encode("\n\n/private/x\n"), ["", "", "/private/x"], "AnyBot");
        expectBatch(robots, utf8.encode("\n"), [""], "AnyBot");
        expectBatch(robots, utf8.encode("\r\n"), [""], "AnyBot");
        expectBatch(robots, utf8.encode("/private/x\n\n"), ["/private/x", ""], "AnyBot");
        expect(robots.classify(utf8.encode("\n\n\n"), "AnyBot")).toHaveLength(3);
      }
    });

    it("behaviour.md 27: only one trailing CR per line is removed", () => {
      for (const robots of both("User-agent: *\nDisallow: /x$\nDisallow: /y\n")) {
        const result = robots.classifyWithLines(utf8.encode("/x\r\r\n/x\r\n/y\r\r\n"), "a");
        expect(Array.from(result.allowed)).toEqual([1, 0, 0]);
        expect(Array.from(result.lines)).toEqual([0, 2, 3]);
      }
    });

    it("a URL after one of the same origin: a string's CR stays part of its path (behaviour.md 27 removes it from byte lines only)", () => {
      for (const robots of both("User-agent: *\nDisallow: /a$\n")) {
        const entries = ["https://example.com/x", "https://example.com/a\r", "https://example.com/a"];
        expectBatch(robots, entries, entries, "AnyBot");
        expect(Array.from(robots.classify(entries, "AnyBot"))).toEqual([1, 1, 0]);
      }
    });

    it("a URL whose first 16 bytes repeat the previous origin's, with another authority, gets its own path", () => {
      for (const robots of both("User-agent: *\nDisallow: /m\n")) {
        const entries = ["https://example.com/a", "https://example.c/m/x", "https://example.com.evil/m", "https://example.comm/x"];
        expectBatch(robots, utf8.encode(entries.join("\n")), entries, "AnyBot");
        expectBatch(robots, entries, entries, "AnyBot");
        expect(Array.from(robots.classify(entries, "AnyBot"))).toEqual([1, 0, 0, 1]);
      }
    });

    it("empty batches", () => {
      for (const robots of both(body)) {
        for (const batch of [[], new Uint8Array(0)]) {
          expect(robots.classify(batch, "AnyBot")).toHaveLength(0);
          const result = robots.classifyWithLines(batch, "AnyBot");
          expect([result.allowed.length, result.lines.length]).toEqual([0, 0]);
        }
      }
    });

    it("one URL, as string[] and as bytes with and without a newline", () => {
      for (const robots of both(body)) {
        expectBatch(robots, ["/private/x"], ["/private/x"], "AnyBot");
        expectBatch(robots, utf8.encode("/private/x"), ["/private/x"], "AnyBot");
        expectBatch(robots, utf8.encode("/private/x\n"), ["/private/x"], "AnyBot");
        expect(Array.from(robots.classifyWithLines(utf8.encode("/private/x"), "AnyBot").lines)).toEqual([2]);
      }
    });

    it("a Uint8Array view with an offset into a larger buffer reads only its own bytes", () => {
      const buffer = utf8.encode("/private/a\n/private/ok\n/doc.pdf\n/other\n");
      const view = buffer.subarray(11, 32); // "/private/ok\n/doc.pdf\n"
      for (const robots of both(body)) {
        expectBatch(robots, view, ["/private/ok", "/doc.pdf"], "AnyBot");
        expect(Array.from(robots.classify(view, "AnyBot"))).toEqual([1, 0]);
      }
    });

    it("byte batches keep raw bytes: a raw 0xE9 is not %E9 in google, and is encoded in rfc9309", () => {
      const rules = bytesOf("User-agent: *\nDisallow: /caf", [0xe9], "\n");
      const batch = bytesOf("/caf", [0xe9], "\n/caf%E9\n");
      const google = parse(rules).classifyWithLines(batch, "x");
      expect([Array.from(google.allowed), Array.from(google.lines)]).toEqual([
        [1, 0],
        [0, 2],
      ]);
      const strict = rfc(rules).classifyWithLines(batch, "x");
      expect([Array.from(strict.allowed), Array.from(strict.lines)]).toEqual([
        [0, 0],
        [2, 2],
      ]);
    });

    it("a large batch agrees with per-URL explain, for both APIs", () => {
      const paths = ["/", "/private", "/private/ok", "/a.pdf", "/a.pdf?x", "/foo/bar", "/%E3%83%84/x", "/x/y/z", "/private/ok/../x"];
      const many = Array.from({ length: 3000 }, (_, i) => url(paths[i % paths.length] + (i % 3 === 0 ? "" : `?n=${i}`)));
      for (const robots of both(body)) {
        expectBatch(robots, many, many, ["FooBot", "AnyBot"]);
        expectBatch(robots, utf8.encode(many.join("\n")), many, "AnyBot");
      }
    });
  });
});
