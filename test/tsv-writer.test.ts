/**
 * The engine's TSV writer (assembly/tsv.ts) through its raw export: `robots check` sizes its output
 * and the writer checks that size line by line, so a sizing mistake, or line numbers and counts
 * that do not match the batch, get -1 and never a write past the room given. The CLI tests check
 * the lines it writes for real batches.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadEngine, TSV_LINE_OVERHEAD, type Engine } from "../src/wasm.js";
import { putBytes } from "./support/raw-exports.js";

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const CANARY = 0xa5;
/** More than any line writes past its end (the writer's 16-byte stores). */
const CANARY_BYTES = 64;

interface TsvCase {
  batch: string;
  verdicts: number[];
  lines: number[];
  /** Rule texts by line number (line 0 first), or none for no rule column. */
  rules?: string[];
  /** Lines to write; the verdicts' count unless given. */
  count?: number;
}

/** The room `robots check` gives a batch: its bytes, TSV_LINE_OVERHEAD per line, and the rule texts. */
function roomFor({ batch, lines, rules }: TsvCase): number {
  const ruleBytes = rules === undefined ? 0 : lines.reduce((sum, line) => sum + encoder.encode(rules[line]).length, 0);
  return encoder.encode(batch).length + lines.length * TSV_LINE_OVERHEAD + ruleBytes;
}

/** Runs the writer with `capacity` bytes of room followed by canary bytes; returns its result and whether the canaries survived. */
function writeTsv(engine: Engine, tsv: TsvCase, capacity: number): { written: number; text: string; canariesIntact: boolean } {
  const batch = encoder.encode(tsv.batch);
  const batchPointer = putBytes(engine, batch);
  const verdictsPointer = putBytes(engine, Uint8Array.from(tsv.verdicts));
  const linesPointer = putBytes(engine, new Uint8Array(Uint32Array.from(tsv.lines).buffer));
  let offsetsPointer = 0;
  let textPointer = 0;
  if (tsv.rules !== undefined) {
    const encoded = tsv.rules.map((rule) => encoder.encode(rule));
    const offsets = new Uint32Array(encoded.length + 1);
    encoded.forEach((bytes, i) => (offsets[i + 1] = offsets[i] + bytes.length));
    offsetsPointer = putBytes(engine, new Uint8Array(offsets.buffer));
    const text = new Uint8Array(offsets[encoded.length]);
    encoded.forEach((bytes, i) => text.set(bytes, offsets[i]));
    textPointer = putBytes(engine, text);
  }
  const outPointer = engine.exports.allocate(capacity + CANARY_BYTES);
  new Uint8Array(engine.exports.memory.buffer).fill(CANARY, outPointer, outPointer + capacity + CANARY_BYTES);
  const written = engine.exports.formatTsv(
    batchPointer, batch.length, verdictsPointer, linesPointer, tsv.count ?? tsv.verdicts.length,
    offsetsPointer, tsv.rules?.length ?? 0, textPointer, outPointer, capacity,
  );
  const bytes = new Uint8Array(engine.exports.memory.buffer);
  const canariesIntact = bytes.subarray(outPointer + capacity, outPointer + capacity + CANARY_BYTES).every((byte) => byte === CANARY);
  const text = written < 0 ? "" : decoder.decode(bytes.subarray(outPointer, outPointer + written));
  return { written, text, canariesIntact };
}

const twoUrls: TsvCase = {
  batch: "https://a.com/x\r\nhttps://a.com/private/y\n",
  verdicts: [1, 0],
  lines: [0, 2],
  rules: ["", "User-agent: *", "Disallow: /private/"],
};

describe("formatTsv, the engine's writer of `robots check` lines", () => {
  const engine = loadEngine(readFileSync(new URL("../build/release.wasm", import.meta.url)));

  it("writes every line within the room robots check gives, with and without the rule column", () => {
    expect(writeTsv(engine, twoUrls, roomFor(twoUrls))).toEqual({
      written: 84,
      text: "allowed\thttps://a.com/x\t0\t\ndisallowed\thttps://a.com/private/y\t2\tDisallow: /private/\n",
      canariesIntact: true,
    });
    const noRules = { ...twoUrls, rules: undefined };
    expect(writeTsv(engine, noRules, roomFor(noRules))).toEqual({
      written: 63,
      text: "allowed\thttps://a.com/x\t0\ndisallowed\thttps://a.com/private/y\t2\n",
      canariesIntact: true,
    });
  });

  it("answers -1 before writing a line that would pass its room, and writes nothing past it", () => {
    // Each line gets its URL, its rule text and TSV_LINE_OVERHEAD bytes; room a line's shorter
    // neighbours leave unused carries over, so one-line batches show the bound exactly.
    const tenDigits: TsvCase = { batch: `https://a.com/${"p".repeat(40)}`, verdicts: [0], lines: [4_294_967_294] };
    expect(writeTsv(engine, tenDigits, roomFor(tenDigits))).toEqual({
      written: 77,
      text: `disallowed\thttps://a.com/${"p".repeat(40)}\t4294967294\n`,
      canariesIntact: true,
    });
    const longRule: TsvCase = { batch: "https://a.com/r", verdicts: [0], lines: [1], rules: ["", `Disallow: /${"r".repeat(3_000)}`] };
    expect(writeTsv(engine, longRule, roomFor(longRule))).toMatchObject({ written: 3_041, canariesIntact: true });
    // Written unchecked, the line would run up to 38 bytes past a room cut by TSV_LINE_OVERHEAD.
    for (const tsv of [tenDigits, longRule]) {
      for (const short of [1, 16, TSV_LINE_OVERHEAD]) {
        expect(writeTsv(engine, tsv, roomFor(tsv) - short)).toEqual({ written: -1, text: "", canariesIntact: true });
      }
    }
    // A batch whose last line lacks room gets -1 too, after its earlier lines.
    expect(writeTsv(engine, twoUrls, 27 + 23 + 19 + TSV_LINE_OVERHEAD - 1)).toMatchObject({ written: -1, canariesIntact: true });
    expect(writeTsv(engine, twoUrls, 27 + 23 + 19 + TSV_LINE_OVERHEAD).written).toBe(84);
  });

  it("answers -1 for a line number with no rule text, and for more lines than the batch holds", () => {
    expect(writeTsv(engine, { ...twoUrls, lines: [0, 3] }, 4_096)).toMatchObject({ written: -1, canariesIntact: true });
    expect(writeTsv(engine, { ...twoUrls, lines: [0, 2] }, 4_096).written).toBeGreaterThan(0);
    const oneLine: TsvCase = { batch: "https://a.com/x", verdicts: [1, 1], lines: [0, 0] };
    expect(writeTsv(engine, { ...oneLine, count: 1 }, 4_096).text).toBe("allowed\thttps://a.com/x\t0\n");
    // A batch of one line with no final LF decides one URL; a second one has no line to read.
    expect(writeTsv(engine, oneLine, 4_096)).toMatchObject({ written: -1, canariesIntact: true });
  });

  it("writes a counted empty line after a final LF, as matchBatch decides one there", () => {
    const endsInLf: TsvCase = { batch: "https://a.com/x\n", verdicts: [1, 1], lines: [0, 3], rules: ["", "", "", "Allow: /$"] };
    expect(writeTsv(engine, endsInLf, 4_096)).toMatchObject({ text: "allowed\thttps://a.com/x\t0\t\nallowed\t\t3\tAllow: /$\n", canariesIntact: true });
  });

  it("writes line numbers of every width in decimal (1, 10, 100, 1000)", () => {
    const numbers: TsvCase = { batch: "https://a.com/a\nhttps://a.com/b\nhttps://a.com/c\nhttps://a.com/d\n", verdicts: [0, 1, 0, 1], lines: [1, 10, 100, 1000] };
    expect(writeTsv(engine, numbers, 4_096).text).toBe(
      "disallowed\thttps://a.com/a\t1\nallowed\thttps://a.com/b\t10\ndisallowed\thttps://a.com/c\t100\nallowed\thttps://a.com/d\t1000\n",
    );
  });
});
