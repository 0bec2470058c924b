/** The output formats of `robots check`: one TSV or JSON line per URL, or the counts only. */
import { defaultEngine, initSync } from "../init.js";
import { RobotsError } from "../errors.js";
import type { BatchResult } from "../types.js";
import { TSV_LINE_OVERHEAD } from "../wasm.js";
import { jsonText, printable } from "./format.js";

export type CheckFormat = "tsv" | "jsonl";

/**
 * The text of each robots.txt line (comment removed, trimmed, tabs as spaces), by line number (0:
 * no line, empty): as strings for JSON (which escapes controls itself), and as UTF-8 bytes, line
 * n at [offsets[n], offsets[n + 1]) of `text`, for the engine's TSV writer, with the controls a
 * terminal would act on written as escapes: TSV is what a terminal shows, and the file may come
 * from any server (`check --fetch`).
 */
export interface RuleTexts {
  strings: readonly string[];
  offsets: Uint32Array;
  text: Uint8Array;
}

export function ruleTexts(lines: readonly string[]): RuleTexts {
  // What the parser read: up to a NUL (lines are C strings) or a comment.
  const strings = ["", ...lines.map((line) => line.replace(/[\0#].*$/s, "").trim().replace(/\t/g, " "))];
  const encoded = strings.map((line) => utf8.encode(printable(line)));
  const offsets = new Uint32Array(encoded.length + 1);
  for (let i = 0; i < encoded.length; i++) offsets[i + 1] = offsets[i] + encoded[i].length;
  const text = new Uint8Array(offsets[encoded.length]);
  encoded.forEach((bytes, i) => text.set(bytes, offsets[i]));
  return { strings, offsets, text };
}

const utf8 = new TextEncoder();

/**
 * Output of one part of a batch at most about this: a batch's output is written in parts. In one
 * piece, a batch of a 4 MiB read (up to 1.4 million lines) with a rule of 812 bytes on each line
 * needed more than the engine's largest block (the TSV writer failed), and its JSON lines a string
 * longer than V8's (1.35 GB of heap for 4 MiB of blank lines first).
 */
const PART_OUTPUT_BYTES = 16 << 20;
/**
 * Room for one engine call's TSV at most (a quarter of the engine's largest block): a batch of
 * short URLs takes 48 bytes of room a line (TSV_LINE_OVERHEAD) for a few bytes of output, and
 * cutting it at PART_OUTPUT_BYTES of room, in a JavaScript loop over its lines, made a 4 MiB
 * batch of 16-byte URLs twice as slow to write (8 to 16.5 ms).
 */
const TSV_WHOLE_BYTES = 256 << 20;
/** JSON lines per part: a string of many pieces holds far more heap than its text until it is written. */
const JSONL_PART_LINES = 16_384;

/** One part of a batch: URLs [from, to), whose lines are bytes [start, end) of the batch and cost `cost` in all. */
interface Part {
  from: number;
  to: number;
  start: number;
  end: number;
  cost: number;
}

/**
 * The batch cut into parts of whole lines whose output `cost` (of a URL of `length` bytes and rule
 * line `line`) stays within PART_OUTPUT_BYTES (a line that alone passes it is a part of its own).
 */
function* partsOf(batch: Buffer, { lines }: BatchResult, cost: (length: number, line: number) => number): Generator<Part> {
  const count = lines.length;
  let part: Part = { from: 0, to: 0, start: 0, end: 0, cost: 0 };
  let start = 0;
  for (let i = 0; i < count; i++) {
    let end = batch.indexOf(0x0a, start);
    end = end < 0 ? batch.length : end + 1;
    const lineCost = cost(end - start, lines[i]!);
    if (part.to > part.from && part.cost + lineCost > PART_OUTPUT_BYTES) {
      yield part;
      part = { from: i, to: i, start, end: start, cost: 0 };
    }
    part.cost += lineCost;
    part.to = i + 1;
    part.end = end;
    start = end;
  }
  if (part.to > part.from) yield part;
}

/**
 * The TSV lines of a batch, written by the engine (assembly/tsv.ts): a JavaScript loop over
 * millions of lines cost more than classifying them. In one engine call up to TSV_WHOLE_BYTES of
 * room, past it in parts of about PART_OUTPUT_BYTES (long rule lines with --rule).
 */
function* tsvParts(batch: Buffer, result: BatchResult, rules: RuleTexts | undefined): Generator<Buffer> {
  const ruleLength = (line: number) => (rules === undefined ? 0 : rules.offsets[line + 1]! - rules.offsets[line]!);
  let room = batch.length + result.allowed.length * TSV_LINE_OVERHEAD;
  if (rules !== undefined) for (const line of result.lines) room += ruleLength(line);
  if (room <= TSV_WHOLE_BYTES) {
    yield formatTsv(batch, result, rules, room);
    return;
  }
  for (const part of partsOf(batch, result, (length, line) => length + TSV_LINE_OVERHEAD + ruleLength(line))) {
    const slice = { allowed: result.allowed.subarray(part.from, part.to), lines: result.lines.subarray(part.from, part.to) };
    yield formatTsv(batch.subarray(part.start, part.end), slice, rules, part.cost);
  }
}

/** One engine call of the TSV writer; `capacity` is the room its lines may take (the batch, TSV_LINE_OVERHEAD a line, the rule text of each). */
function formatTsv(batch: Buffer, { allowed, lines }: BatchResult, rules: RuleTexts | undefined, capacity: number): Buffer {
  initSync();
  const engine = defaultEngine("formatTsv");
  const count = allowed.length;
  // Every region first: a later allocation may grow memory and detach earlier views.
  const batchPointer = engine.scratch("tsv-batch", batch.length);
  const verdictsPointer = engine.scratch("tsv-verdicts", count);
  const linesPointer = engine.scratch("tsv-lines", count * 4);
  const outPointer = engine.scratch("tsv-out", capacity);
  const offsetsPointer = rules === undefined ? 0 : engine.scratch("tsv-rule-offsets", rules.offsets.byteLength);
  const textPointer = rules === undefined ? 0 : engine.scratch("tsv-rule-text", rules.text.length);
  const bytes = engine.bytes;
  bytes.set(batch, batchPointer);
  bytes.set(allowed, verdictsPointer);
  engine.words.set(lines, linesPointer >>> 2);
  if (rules !== undefined) {
    engine.words.set(rules.offsets, offsetsPointer >>> 2);
    bytes.set(rules.text, textPointer);
  }
  const ruleLineCount = rules === undefined ? 0 : rules.offsets.length - 1;
  const written = engine.call(() =>
    engine.exports.formatTsv(
      batchPointer, batch.length, verdictsPointer, linesPointer, count,
      offsetsPointer, ruleLineCount, textPointer, outPointer, capacity,
    ),
  );
  if (written < 0) throw new RobotsError("ROBOTS_ERR_WASM", "formatTsv: the TSV lines do not fit the room given for them");
  return Buffer.from(engine.bytes.subarray(outPointer, outPointer + written));
}

/** JSON lines of a batch, in one walk over its lines, cut every JSONL_PART_LINES lines or past PART_OUTPUT_BYTES of text. */
function* jsonlParts(batch: Buffer, { allowed, lines }: BatchResult, rules: RuleTexts | undefined): Generator<Buffer> {
  let out = "";
  let inPart = 0;
  let start = 0;
  for (let i = 0; i < allowed.length; i++) {
    let end = batch.indexOf(0x0a, start);
    if (end < 0) end = batch.length;
    const next = end + 1;
    if (end > start && batch[end - 1] === 0x0d) end--;
    const rule = rules === undefined ? "" : `,"rule":${jsonText(rules.strings[lines[i]])}`;
    out += `{"url":${JSON.stringify(batch.toString("utf8", start, end))},"allowed":${allowed[i] === 1},"line":${lines[i]}${rule}}\n`;
    start = next;
    if (++inPart === JSONL_PART_LINES || out.length >= PART_OUTPUT_BYTES) {
      yield Buffer.from(out);
      out = "";
      inPart = 0;
    }
  }
  if (out !== "") yield Buffer.from(out);
}

/** One output line per URL of a batch of complete lines, in parts (written one after another). */
export function formatBatch(format: CheckFormat, batch: Buffer, result: BatchResult, rules: RuleTexts | undefined): Generator<Buffer> {
  return format === "jsonl" ? jsonlParts(batch, result, rules) : tsvParts(batch, result, rules);
}

/** `--count`: the totals only. */
export function formatCounts(format: CheckFormat, total: number, allowed: number): string {
  if (format === "jsonl") return `${JSON.stringify({ urls: total, allowed, disallowed: total - allowed })}\n`;
  return `allowed\t${allowed}\ndisallowed\t${total - allowed}\n`;
}
