/**
 * `robots check` reads its URLs in batches of complete lines (src/cli/line-batches.ts): whatever
 * the reads, the batches hold every byte once, in order, and end at line ends; small reads (a
 * pipe's) are gathered into batches of about the size asked for; a large read (a file's) is
 * decided as it lies, not copied.
 */
import { Readable } from "node:stream";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { lineBatches } from "../src/cli/line-batches.js";
import { fuzzRuns } from "./support/fuzz.js";

async function batchesOf(reads: readonly Buffer[], batchBytes: number): Promise<Buffer[]> {
  const batches: Buffer[] = [];
  for await (const { batch } of lineBatches(Readable.from(reads), "urls.txt", batchBytes)) batches.push(batch);
  return batches;
}

/** Text of lines (some long, some empty) cut into reads at random places. */
const cutText = fc
  .tuple(fc.array(fc.oneof(fc.string({ maxLength: 12 }), fc.string({ minLength: 40, maxLength: 120 })), { maxLength: 60 }), fc.boolean())
  .chain(([lines, finalLineFeed]) => {
    const text = Buffer.from(lines.join("\n") + (finalLineFeed && lines.length > 0 ? "\n" : ""));
    return fc.tuple(fc.constant(text), fc.uniqueArray(fc.integer({ min: 1, max: Math.max(1, text.length - 1) }), { maxLength: 20 }));
  })
  .map(([text, cuts]) => {
    const at = [0, ...cuts.filter((cut) => cut < text.length).sort((a, b) => a - b), text.length];
    const reads = at.slice(1).map((end, i) => text.subarray(at[i], end)).filter((read) => read.length > 0);
    return { text, reads };
  });

describe("lineBatches", () => {
  it("counts the bytes read so far with each batch (the progress bar's share): never fewer than it yielded, the whole input at the end", async () => {
    await fc.assert(
      fc.asyncProperty(cutText, fc.integer({ min: 1, max: 300 }), async ({ text, reads }, batchBytes) => {
        let yielded = 0;
        let lastRead = 0;
        for await (const { batch, bytesRead } of lineBatches(Readable.from(reads), "urls.txt", batchBytes)) {
          yielded += batch.length;
          expect(bytesRead).toBeGreaterThanOrEqual(Math.max(yielded, lastRead));
          expect(bytesRead).toBeLessThanOrEqual(text.length);
          lastRead = bytesRead;
        }
        expect(lastRead).toBe(text.length);
      }),
      fuzzRuns(20261126, 500),
    );
  });

  it("yields every byte once, in order, in batches that end at line ends (the last may not)", async () => {
    await fc.assert(
      fc.asyncProperty(cutText, fc.integer({ min: 1, max: 300 }), async ({ text, reads }, batchBytes) => {
        const batches = await batchesOf(reads, batchBytes);
        expect(Buffer.concat(batches)).toEqual(text);
        batches.forEach((batch, i) => {
          expect(batch.length).toBeGreaterThan(0);
          if (i < batches.length - 1) expect(batch[batch.length - 1]).toBe(0x0a);
        });
      }),
      fuzzRuns(20261126, 500),
    );
  });

  it("gathers small reads into batches of about the size asked for", async () => {
    await fc.assert(
      fc.asyncProperty(cutText, async ({ text, reads }) => {
        const largestRead = Math.max(0, ...reads.map((read) => read.length));
        const batchBytes = largestRead + 1 + 100; // every read is small
        const batches = await batchesOf(reads, batchBytes);
        expect(Buffer.concat(batches)).toEqual(text);
        // A batch is yielded once the gathered bytes reach batchBytes, up to the last line end.
        for (const batch of batches.slice(0, -1)) expect(batch.length).toBeGreaterThanOrEqual(batchBytes - largestRead);
      }),
      fuzzRuns(20261126, 500),
    );
    // 64 KiB reads of 1,000 lines of 100 bytes into 256 KiB batches: one batch, not two.
    const lines = Buffer.from(`${"x".repeat(99)}\n`.repeat(1000));
    const reads = [lines.subarray(0, 65536), lines.subarray(65536)];
    expect((await batchesOf(reads, 256 << 10)).length).toBe(1);
    expect((await batchesOf(reads, 50_000)).map((batch) => batch.length)).toEqual([65500, 34500]);
  });

  it("decides a large read as it lies and joins only the line split between reads", async () => {
    // Each over an ArrayBuffer of its own (small Buffers share a pool, and so would copies).
    const own = (text: string) => Buffer.from(new TextEncoder().encode(text).buffer);
    const first = own("aaaa\nbbbb\ncc");
    const second = own("cc\ndddd\neeee\nff");
    const batches = await batchesOf([first, second], 10);
    expect(batches.map((batch) => batch.toString())).toEqual(["aaaa\nbbbb\n", "cccc\n", "dddd\neeee\n", "ff"]);
    // The large reads' lines are views of them, not copies.
    expect(batches[0]!.buffer).toBe(first.buffer);
    expect(batches[2]!.buffer).toBe(second.buffer);
    expect([first.buffer, second.buffer]).not.toContain(batches[1]!.buffer);
  });
});

describe("lineBatches: a byte-order mark the input hands over a byte at a time", () => {
  it.each([
    ["UTF-8, one byte per read", [[0xef], [0xbb], [0xbf, 0x2f, 0x61, 0x0a]]],
    ["UTF-8, two bytes then the rest", [[0xef, 0xbb], [0xbf, 0x2f, 0x61, 0x0a]]],
  ])("skips it: %s", async (_, reads) => {
    expect((await batchesOf(reads.map((read) => Buffer.from(read)), 1)).map(String)).toEqual(["/a\n"]);
  });

  it.each([[[[0xff], [0xfe, 0x2f, 0x00]]], [[[0xfe], [0xff, 0x00, 0x2f]]]])("refuses UTF-16 whose mark is split (%j)", async (reads) => {
    await expect(batchesOf(reads.map((read) => Buffer.from(read)), 1)).rejects.toThrow(/is UTF-16 \(it starts with a byte-order mark\)/);
  });

  it("keeps bytes that only began like a mark, and an input that ends within one", async () => {
    expect((await batchesOf([Buffer.from([0xef]), Buffer.from("/a\n")], 1)).map((batch) => [...batch])).toEqual([[0xef, 0x2f, 0x61, 0x0a]]);
    expect((await batchesOf([Buffer.from([0xef, 0xbb])], 1)).map((batch) => [...batch])).toEqual([[0xef, 0xbb]]);
    expect(await batchesOf([Buffer.from([0xef, 0xbb, 0xbf])], 1)).toEqual([]);
  });
});

describe("lineBatches: stopping early", () => {
  it("lets go of its input when it fails or its reader stops (a pipe kept open must not keep the process alive)", async () => {
    const failing = new Readable({ read() {} });
    failing.push(Buffer.from([0xff, 0xfe, 0x68, 0x00]));
    await expect(async () => {
      for await (const _ of lineBatches(failing, "-", 1)) void _;
    }).rejects.toThrow(/UTF-16/);
    expect(failing.destroyed).toBe(true);
    const open = new Readable({ read() {} });
    open.push(Buffer.from("/a\n/b\n"));
    for await (const _ of lineBatches(open, "-", 1)) break;
    expect(open.destroyed).toBe(true);
  });
});
