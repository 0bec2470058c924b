/** The output formats of `robots check`: one TSV or JSON line per URL, or the counts only. */
import type { BatchResult } from "../types.js";

export type CheckFormat = "tsv" | "jsonl";

/** The text of each robots.txt line (comment removed, trimmed, tabs as spaces), by line number. */
export type RuleTexts = readonly string[];

export function ruleTexts(lines: readonly string[]): RuleTexts {
  return ["", ...lines.map((line) => line.replace(/#.*$/s, "").trim().replace(/\t/g, " "))];
}

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

/** Longest fixed part of a TSV line: "disallowed\t" + "\t" + 10 digits + "\n". */
const MAX_TSV_OVERHEAD = 24;
const ALLOWED = Buffer.from("allowed\t");
const DISALLOWED = Buffer.from("disallowed\t");

function formatTsv(batch: Buffer, { allowed, lines }: BatchResult, rules: RuleTexts | undefined): Buffer {
  const ruleBytes = rules?.map((text) => Buffer.from(`\t${text}`));
  let size = batch.length + allowed.length * MAX_TSV_OVERHEAD;
  if (ruleBytes !== undefined) for (const line of lines) size += ruleBytes[line].length;
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  forEachUrl(batch, allowed.length, (start, end, i) => {
    at += (allowed[i] ? ALLOWED : DISALLOWED).copy(out, at);
    at += batch.copy(out, at, start, end);
    out[at++] = 0x09;
    at += out.write(String(lines[i]), at, "latin1");
    if (ruleBytes !== undefined) at += ruleBytes[lines[i]].copy(out, at);
    out[at++] = 0x0a;
  });
  return out.subarray(0, at);
}

function formatJsonl(batch: Buffer, { allowed, lines }: BatchResult, rules: RuleTexts | undefined): Buffer {
  let out = "";
  forEachUrl(batch, allowed.length, (start, end, i) => {
    const rule = rules === undefined ? "" : `,"rule":${JSON.stringify(rules[lines[i]])}`;
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
