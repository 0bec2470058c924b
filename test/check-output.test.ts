/**
 * `robots check`'s output of a batch comes in parts of bounded size (src/cli/check-output.ts): in
 * one piece, a 4 MiB read of URLs with a long rule line on each output line needed more than the
 * engine's largest block (`--rule`: no output, an internal error), and its JSON lines a string
 * past V8's limit. Each part's output stays near PART bytes, and the parts together are the
 * lines formatted one URL at a time.
 */
import { describe, expect, it } from "vitest";
import { formatBatch, ruleTexts, type CheckFormat } from "../src/cli/check-output.js";
import type { BatchResult } from "../src/types.js";

const PART = 16 << 20;

/** A batch of `count` URLs (some with CRLF, one without a final LF), each on rule line 1 or 2 (or none). */
function batchOf(count: number): { batch: Buffer; result: BatchResult } {
  const urls = Array.from({ length: count }, (_, i) => `https://example.com/p/${i}${i % 7 === 0 ? "\r" : ""}`);
  const batch = Buffer.from(urls.join("\n"));
  const result = {
    allowed: Uint8Array.from(urls, (_, i) => i % 2),
    lines: Uint32Array.from(urls, (_, i) => i % 3),
  };
  return { batch, result };
}

function oneAtATime(format: CheckFormat, batch: Buffer, result: BatchResult, rules: ReturnType<typeof ruleTexts>): Buffer {
  const lines = batch.toString("latin1").split("\n");
  const parts = lines.map((line, i) => {
    const single = { allowed: result.allowed.subarray(i, i + 1), lines: result.lines.subarray(i, i + 1) };
    return Buffer.concat([...formatBatch(format, Buffer.from(line, "latin1"), single, rules)]);
  });
  return Buffer.concat(parts);
}

describe("check output in parts", () => {
  // A rule line of 40,000 bytes on a third of 24,000 lines: 320 MB of TSV (past one engine call's
  // 256 MiB), in parts of about 16 MiB.
  const rules = ruleTexts([`Disallow: /${"r".repeat(40_000)}`, "Allow: /p/"]);
  const { batch, result } = batchOf(24_000);

  it.each(["tsv", "jsonl"] as const)("writes %s in parts of at most about 16 MiB, the same lines as one URL at a time", (format) => {
    const parts = [...formatBatch(format, batch, result, rules)];
    expect(parts.length).toBeGreaterThan(1);
    const longestLine = 40_200;
    for (const part of parts) expect(part.length).toBeLessThanOrEqual(PART + longestLine * 2);
    const joined = Buffer.concat(parts);
    expect(joined.toString().split("\n")).toHaveLength(24_001);
    expect(joined.equals(oneAtATime(format, batch, result, rules))).toBe(true);
  });

  it("writes JSON lines in parts of at most 16,384 lines, whatever their size", () => {
    const small = batchOf(40_000);
    const parts = [...formatBatch("jsonl", small.batch, small.result, undefined)];
    expect(parts.map((part) => part.toString().split("\n").length - 1)).toEqual([16_384, 16_384, 40_000 - 2 * 16_384]);
  });

  it("writes TSV in one engine call up to 256 MiB of room: a batch of many short URLs is not cut", () => {
    // 400,000 URLs take 19 MB of room at 48 bytes a line: past 16 MiB, within one call.
    const many = batchOf(400_000);
    expect([...formatBatch("tsv", many.batch, many.result, undefined)]).toHaveLength(1);
  });
});

describe("check output: terminal controls", () => {
  // The URLs are the user's own input, written as read (JSON-encoded in jsonl); a rule line is the site's text.
  it("escapes a rule line's bidi overrides and C1 controls in JSON lines (jsonText), which read back as the same text", () => {
    const rules = ruleTexts(["Disallow: /x\u202e\u009b[2J"]);
    const output = Buffer.concat([...formatBatch("jsonl", Buffer.from("https://a.com/x"), { allowed: Uint8Array.of(0), lines: Uint32Array.of(1) }, rules)]).toString();
    expect(output).not.toMatch(/[\u0080-\u009f\u202a-\u202e]/);
    expect(output).toContain('"rule":"Disallow: /x\\u202e\\u009b[2J"');
    expect(JSON.parse(output)).toEqual({ url: "https://a.com/x", allowed: false, line: 1, rule: "Disallow: /x\u202e\u009b[2J" });
  });
});
