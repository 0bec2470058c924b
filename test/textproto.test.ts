/**
 * Unit tests of the textproto reader (test/support/textproto.ts) that the conformance suite uses.
 * Format: test/fixtures/conformance/README.md (protobuf text format, C-style escapes as bytes).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { conformanceDir, loadConformance } from "./support/fixtures.js";
import { parseTextproto, readSpecification, TextprotoSyntaxError, unescapeTextprotoString } from "./support/textproto.js";

const bytes = (...values: number[]) => Uint8Array.from(values);
const ascii = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));

describe("textproto: string escapes give bytes", () => {
  it("simple escapes \\n \\r \\t \\\" \\' \\\\ (and \\a \\b \\f \\v \\?)", () => {
    expect(unescapeTextprotoString(String.raw`a\nb\rc\td\"e\'f\\g`)).toEqual(ascii("a\nb\rc\td\"e'f\\g"));
    expect(unescapeTextprotoString(String.raw`\a\b\f\v\?`)).toEqual(bytes(7, 8, 12, 11, 0x3f));
  });

  it("hex escapes \\xNN are single bytes, not code points", () => {
    expect(unescapeTextprotoString(String.raw`\xEF\xBB\xBF`)).toEqual(bytes(0xef, 0xbb, 0xbf));
    expect(unescapeTextprotoString(String.raw`\xef\x11`)).toEqual(bytes(0xef, 0x11));
    // at most two hex digits: \x414 is "A" then "4"
    expect(unescapeTextprotoString(String.raw`\x414`)).toEqual(ascii("A4"));
    // one digit is allowed when the next character is not hex
    expect(unescapeTextprotoString(String.raw`\x9z`)).toEqual(bytes(9, 0x7a));
  });

  it("octal escapes \\N, \\NN, \\NNN (at most three digits) are single bytes", () => {
    expect(unescapeTextprotoString(String.raw`\101\102`)).toEqual(ascii("AB"));
    expect(unescapeTextprotoString(String.raw`\0`)).toEqual(bytes(0));
    expect(unescapeTextprotoString(String.raw`\12`)).toEqual(bytes(10));
    expect(unescapeTextprotoString(String.raw`\377`)).toEqual(bytes(0xff));
    expect(unescapeTextprotoString(String.raw`\1012`)).toEqual(ascii("A2"));
    expect(unescapeTextprotoString(String.raw`\0a`)).toEqual(bytes(0, 0x61));
  });

  it("\\u and \\U give the code point's UTF-8 bytes", () => {
    expect(unescapeTextprotoString(String.raw`\u00e9`)).toEqual(bytes(0xc3, 0xa9));
    expect(unescapeTextprotoString(String.raw`\U0001F600`)).toEqual(bytes(0xf0, 0x9f, 0x98, 0x80));
  });

  it("characters outside escapes are taken byte for byte (UTF-8 file text stays UTF-8)", () => {
    expect(unescapeTextprotoString("/foo/ツ")).toEqual(bytes(0x2f, 0x66, 0x6f, 0x6f, 0x2f, 0xe3, 0x83, 0x84));
    expect(unescapeTextprotoString(bytes(0x41, 0xe9, 0x42))).toEqual(bytes(0x41, 0xe9, 0x42));
  });

  it("malformed escapes are errors", () => {
    expect(() => unescapeTextprotoString("abc\\")).toThrow(TextprotoSyntaxError);
    expect(() => unescapeTextprotoString(String.raw`\q`)).toThrow(TextprotoSyntaxError);
    expect(() => unescapeTextprotoString(String.raw`\xzz`)).toThrow(TextprotoSyntaxError);
    expect(() => unescapeTextprotoString(String.raw`\400`)).toThrow(TextprotoSyntaxError);
    expect(() => unescapeTextprotoString(String.raw`\u12`)).toThrow(TextprotoSyntaxError);
  });
});

describe("textproto: structure", () => {
  it("adjacent quoted strings concatenate across lines and comments, escapes included", () => {
    const message = parseTextproto(
      ['value: "User-Agent: foo\\n"', "    # a comment between the parts", "    'Disallow: /\\x41\\n'", '    "\\101"'].join("\n"),
    );
    expect(message.fields).toHaveLength(1);
    expect(message.fields[0].name).toBe("value");
    expect(message.fields[0].value).toEqual(ascii("User-Agent: foo\nDisallow: /A\nA"));
  });

  it("an escaped quote does not end the string; a # inside a string is not a comment", () => {
    const message = parseTextproto('a: "x\\"y # z"\nb: "#"');
    expect(message.fields.map((f) => f.value)).toEqual([ascii('x"y # z'), ascii("#")]);
  });

  it("messages, lists, identifiers, optional colon before {, separators ' , ' and ';'", () => {
    const message = parseTextproto(`
      # header comment
      tests: [ { name: "a" kind: ALLOWED } , { name: "b" n: 42; } ]
      single { x: "1" }
      empty: [ ]
    `);
    expect(message).toEqual({
      fields: [
        {
          name: "tests",
          value: [
            { fields: [{ name: "name", value: ascii("a") }, { name: "kind", value: { scalar: "ALLOWED" } }] },
            { fields: [{ name: "name", value: ascii("b") }, { name: "n", value: { scalar: "42" } }] },
          ],
        },
        { name: "single", value: { fields: [{ name: "x", value: ascii("1") }] } },
        { name: "empty", value: [] },
      ],
    });
  });

  it("syntax errors are reported, not skipped", () => {
    expect(() => parseTextproto('a: "unterminated')).toThrow(TextprotoSyntaxError);
    expect(() => parseTextproto('a: "line\nbreak"')).toThrow(TextprotoSyntaxError);
    expect(() => parseTextproto("a: [ { b: 1 }")).toThrow(TextprotoSyntaxError);
    expect(() => parseTextproto("a { b: 1 } }")).toThrow(TextprotoSyntaxError);
    expect(() => parseTextproto("a b")).toThrow(TextprotoSyntaxError);
    expect(() => parseTextproto("a:")).toThrow(TextprotoSyntaxError);
  });
});

describe("textproto: the compliance suite's schema", () => {
  it("reads robotstxt as bytes and the expectations with their defaults", () => {
    const tests = readSpecification(`
      tests: [
        {
          robotstxt: "\\xEF\\xBB\\xBF"
              "User-Agent: foo\\n"
          test_expectations: [
            { testurl: "http://x/a" useragent: "foo" expected_outcome: DISALLOWED additional_explanation: "one " "two" },
            { testurl: "http://x/ツ" useragent: "" expected_outcome: ALLOWED test_type: GOOGLE_SPECIFIC }
          ]
        }
      ]`);
    expect(tests).toEqual([
      {
        robotstxt: Uint8Array.from([0xef, 0xbb, 0xbf, ...ascii("User-Agent: foo\n")]),
        expectations: [
          { url: "http://x/a", agent: "foo", outcome: "DISALLOWED", explanation: "one two", type: "STANDARD" },
          { url: "http://x/ツ", agent: "", outcome: "ALLOWED", explanation: "", type: "GOOGLE_SPECIFIC" },
        ],
      },
    ]);
  });

  it("rejects unknown fields and outcomes instead of ignoring them", () => {
    expect(() => readSpecification('tests: [ { robotstxt: "" bogus: 1 } ]')).toThrow(TextprotoSyntaxError);
    expect(() =>
      readSpecification('tests: [ { robotstxt: "" test_expectations: [ { testurl: "a" useragent: "b" expected_outcome: MAYBE } ] } ]'),
    ).toThrow(TextprotoSyntaxError);
    expect(() => readSpecification('tests: [ { test_expectations: [ ] } ]')).toThrow(TextprotoSyntaxError);
  });
});

describe("textproto: the fixture files (test/fixtures/conformance)", () => {
  const files = loadConformance();

  it("16 files hold 146 expectations (count given in PROVENANCE.md)", () => {
    expect(files).toHaveLength(16);
    const perFile = Object.fromEntries(files.map((f) => [f.file, f.tests.reduce((n, t) => n + t.expectations.length, 0)]));
    expect(perFile).toEqual({
      "BOM-characters.textproto": 5,
      "accepted-mistakes.textproto": 3,
      "different-line-endings.textproto": 5,
      "directives-case-insensitivity.textproto": 6,
      "empty-string.textproto": 4,
      "global-rules.textproto": 4,
      "groups.textproto": 10,
      "index-page.textproto": 4,
      "matching-path-values-1.textproto": 29,
      "matching-path-values-2.textproto": 24,
      "most-specific-match.textproto": 14,
      "non-ascii-paths.textproto": 7,
      "order-of-precedence.textproto": 5,
      "special-characters.textproto": 10,
      "uri-case-sensitivity.textproto": 2,
      "user-agent-name.textproto": 14,
    });
    expect(Object.values(perFile).reduce((a, b) => a + b, 0)).toBe(146);
    expect(files.reduce((n, f) => n + f.tests.length, 0)).toBe(55);
  });

  it("every expectation has a URL, an agent and an outcome; 22 are GOOGLE_SPECIFIC", () => {
    const all = files.flatMap((f) => f.tests.flatMap((t) => t.expectations));
    expect(all.filter((e) => e.outcome === "ALLOWED").length + all.filter((e) => e.outcome === "DISALLOWED").length).toBe(146);
    expect(all.filter((e) => e.type === "GOOGLE_SPECIFIC")).toHaveLength(22);
    expect(all.filter((e) => e.url === "")).toHaveLength(4);
  });

  it("BOM-characters: the bodies start with the exact bytes EF BB BF, EF BB, EF, EF 11 BF", () => {
    const tests = files.find((f) => f.file === "BOM-characters.textproto")!.tests;
    const body = ascii("User-Agent: foo\nDisallow: /AnyValue\n");
    expect(tests[0].robotstxt).toEqual(Uint8Array.from([0xef, 0xbb, 0xbf, ...body]));
    expect(tests[1].robotstxt).toEqual(Uint8Array.from([0xef, 0xbb, ...body]));
    expect(tests[2].robotstxt).toEqual(Uint8Array.from([0xef, ...body]));
    expect(tests[3].robotstxt).toEqual(Uint8Array.from([0xef, 0x11, 0xbf, ...body]));
    expect(tests[4].robotstxt).toEqual(Uint8Array.from([...ascii("User-Agent: foo\n"), 0xef, 0xbb, 0xbf, ...ascii("Disallow: /AnyValue\n")]));
  });

  it("different-line-endings: CR-only, CRLF, mixed and unterminated bodies are read exactly", () => {
    const tests = files.find((f) => f.file === "different-line-endings.textproto")!.tests;
    const text = (i: number) => new TextDecoder().decode(tests[i].robotstxt);
    expect(text(1)).toBe("User-Agent: foo\r\nAllow: /some/path\r\nUser-Agent: bar\r\n\r\n\r\nDisallow: /\r\n");
    expect(text(2)).toBe("User-Agent: foo\rAllow: /some/path\rUser-Agent: bar\r\r\rDisallow: /\r");
    expect(text(4)).toBe("User-Agent: foo\nAllow: /some/path\r\nUser-Agent: bar\n\r\n\nDisallow: /");
  });

  it("non-ascii-paths: raw UTF-8 in the file stays UTF-8 bytes in the body and URLs", () => {
    const tests = files.find((f) => f.file === "non-ascii-paths.textproto")!.tests;
    expect(tests[1].robotstxt).toEqual(new TextEncoder().encode("User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/ツ\n"));
    expect(tests[1].expectations[1].url).toBe("http://foo.bar/foo/bar/ツ");
  });
});
