/**
 * String batches become UTF-8 lines (src/url-bytes.ts): the bytes are exactly TextEncoder's of
 * each string and a line feed, for flat strings, ropes, non-ASCII text and lone surrogates, within
 * linesCapacity, and at any offset into the target: with Node's Buffer.write (what Node uses) and
 * with TextEncoder.encodeInto (what browsers use). A single URL (writeUrl) is written as
 * TextEncoder writes it too.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { linesCapacity, writeLines, writeLinesWithBuffer, writeLinesWithEncoder, writeUrl } from "../src/url-bytes.js";
import { fuzzRuns } from "./support/fuzz.js";

const encoder = new TextEncoder();

function expectedBytes(strings: readonly string[]): Uint8Array {
  return encoder.encode(strings.map((text) => `${text}\n`).join(""));
}

it("uses Buffer.write on Node", () => {
  expect(writeLines).toBe(writeLinesWithBuffer);
});

describe.each([
  ["Buffer.write", writeLinesWithBuffer],
  ["TextEncoder.encodeInto", writeLinesWithEncoder],
])("writeLines with %s", (_, writeLines) => {
  it("writes each string as UTF-8 then LF, as TextEncoder encodes them (random strings, surrogates included)", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: "binary" }), { maxLength: 20 }), fc.nat(40), (strings, at) => {
        const capacity = linesCapacity(strings, 0, strings.length);
        const bytes = new Uint8Array(at + capacity).fill(0xaa);
        const written = writeLines(strings, 0, strings.length, bytes, at);
        expect(written).toBeLessThanOrEqual(capacity);
        expect(bytes.subarray(at, at + written)).toEqual(expectedBytes(strings));
        // Nothing before `at` or after the lines is touched.
        expect(bytes.subarray(0, at).every((byte) => byte === 0xaa)).toBe(true);
        expect(bytes.subarray(at + written).every((byte) => byte === 0xaa)).toBe(true);
      }),
      fuzzRuns(20261126, 500),
    );
  });

  it("writes a range of the array, and ropes built by concatenation the same as flat strings", () => {
    const ropes = Array.from({ length: 1000 }, (_, i) => `https://example.com/` + `p${i}/` + "ü".repeat(i % 3) + (i % 7 === 0 ? "\ud800" : ""));
    const flat = ropes.map((text) => JSON.parse(JSON.stringify(text)) as string);
    const bytes = new Uint8Array(linesCapacity(ropes, 100, 900));
    const written = writeLines(ropes, 100, 900, bytes, 0);
    expect(bytes.subarray(0, written)).toEqual(expectedBytes(flat.slice(100, 900)));
    // Written once (and flattened on the way), the same ropes write the same bytes again.
    expect(bytes.subarray(0, writeLines(ropes, 100, 900, bytes, 0))).toEqual(expectedBytes(flat.slice(100, 900)));
  });

  it("needs at most three bytes per UTF-16 unit and one per line feed", () => {
    expect(linesCapacity(["ab", "", "中"], 0, 3)).toBe(3 * 3 + 3);
    expect(linesCapacity(["ab", "", "中"], 1, 3)).toBe(3 + 2);
    const worst = ["\uffff".repeat(5), "\ud800"];
    expect(writeLines(worst, 0, 2, new Uint8Array(linesCapacity(worst, 0, 2)), 0)).toBe(linesCapacity(worst, 0, 2));
  });
});

describe("writeUrl", () => {
  it("writes one string as TextEncoder encodes it, ASCII or not (random strings, surrogates included)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), fc.nat(20), (text, at) => {
        const bytes = new Uint8Array(at + text.length * 3 + 4).fill(0xaa);
        const written = writeUrl(text, bytes, at);
        expect(bytes.subarray(at, at + written)).toEqual(encoder.encode(text));
        expect(bytes.subarray(at + written).every((byte) => byte === 0xaa)).toBe(true);
      }),
      fuzzRuns(20261126, 1000),
    );
    expect(writeUrl("/a\u00fcb\ud83d\ude00", new Uint8Array(32), 3)).toBe(2 + 2 + 1 + 4);
  });

  it("writes the units at UTF-8's length boundaries as TextEncoder does (U+007F is the last one-byte unit)", () => {
    for (const unit of ["\u007f", "\u0080", "\u07ff", "\u0800", "\uffff", "\u{10000}", "\ud800", "\udc00"]) {
      const text = `/a${unit}b`;
      const bytes = new Uint8Array(16);
      expect(bytes.subarray(0, writeUrl(text, bytes, 0)), JSON.stringify(text)).toEqual(encoder.encode(text));
    }
  });
});
