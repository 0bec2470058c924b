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

/** Calls `visit` with the [start, end) of each URL of a batch: split at LF, one trailing CR removed. */
function forEachUrl(batch: Buffer, count: number, visit: (start: number, end: number, index: number) => void): void {
  let start = 0;
  for (let i = 0; i < count; i++) {
    let end = batch.indexOf(0x0a, start);
    if (end < 0) end = batch.length;
    const next = end + 1;
    if (end > start && batch[end - 1] === 0x0d) end--;
    visit(start, end, i);
    start = next;
  }
}

/**
 * The TSV lines of a batch, written by the engine (assembly/tsv.ts): a JavaScript loop over
 * millions of lines cost more than classifying them.
 */
function formatTsv(batch: Buffer, { allowed, lines }: BatchResult, rules: RuleTexts | undefined): Buffer {
  initSync();
  const engine = defaultEngine("formatTsv");
  const count = allowed.length;
  let ruleBytes = 0;
  if (rules !== undefined) for (let i = 0; i < count; i++) ruleBytes += rules.offsets[lines[i] + 1] - rules.offsets[lines[i]];
  // Every region first: a later allocation may grow memory and detach earlier views.
  const batchPointer = engine.scratch("tsv-batch", batch.length);
  const verdictsPointer = engine.scratch("tsv-verdicts", count);
  const linesPointer = engine.scratch("tsv-lines", count * 4);
  const capacity = batch.length + count * TSV_LINE_OVERHEAD + ruleBytes;
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

function formatJsonl(batch: Buffer, { allowed, lines }: BatchResult, rules: RuleTexts | undefined): Buffer {
  let out = "";
  forEachUrl(batch, allowed.length, (start, end, i) => {
    const rule = rules === undefined ? "" : `,"rule":${jsonText(rules.strings[lines[i]])}`;
    out += `{"url":${JSON.stringify(batch.toString("utf8", start, end))},"allowed":${allowed[i] === 1},"line":${lines[i]}${rule}}\n`;
  });
  return Buffer.from(out);
}

/** One output line per URL of a batch of complete lines. */
export function formatBatch(format: CheckFormat, batch: Buffer, result: BatchResult, rules: RuleTexts | undefined): Buffer {
  return format === "jsonl" ? formatJsonl(batch, result, rules) : formatTsv(batch, result, rules);
}

/** `--count`: the totals only. */
export function formatCounts(format: CheckFormat, total: number, allowed: number): string {
  if (format === "jsonl") return `${JSON.stringify({ urls: total, allowed, disallowed: total - allowed })}\n`;
  return `allowed\t${allowed}\ndisallowed\t${total - allowed}\n`;
}
