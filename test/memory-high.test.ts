/**
 * Linear memory past 2 GiB (a huge robots.txt under `maxBytes: Infinity` gets there): WebAssembly
 * hands 32-bit results to JavaScript as signed numbers, so every address up there read as
 * negative and every call failed with "offset is out of bounds". The engine here is made to
 * allocate above 2 GiB, and every part of the API that reads addresses must answer as it does low.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readPageWith } from "../src/directives/page.js";
import { parseWith } from "../src/robots.js";
import { loadEngine, type Engine } from "../src/wasm.js";

const binary = readFileSync(new URL("../build/release.wasm", import.meta.url));
const TWO_GIB = 2 ** 31;

const BODY = [
  "User-agent: FooBot",
  "Disallow: /private",
  "Allow: /private/ok",
  "Disallow: /*.pdf$",
  "",
  "User-agent: *",
  "Disallow: /",
  "Sitemap: https://example.com/sitemap.xml",
].join("\n");
const URLS = ["http://example.com/private/a", "http://example.com/private/ok", "http://example.com/x.pdf", "http://example.com/"];
const PAGE = '<html><head><meta name="robots" content="noindex, nofollow"><meta name="foobot" content="noarchive"></head></html>';

/** Everything the API reads out of an engine for BODY, URLS and PAGE. */
function answers(engine: Engine) {
  const robots = parseWith(engine, BODY, { keepSource: true });
  const result = {
    verdicts: URLS.map((url) => robots.isAllowed(url, "FooBot")),
    explained: URLS.map((url) => robots.explain(url, "FooBot")),
    batch: Array.from(robots.classify(URLS, "FooBot")),
    bytes: Array.from(robots.classify(new TextEncoder().encode(URLS.join("\n")), "FooBot")),
    groups: robots.groups,
    records: robots.records,
    lint: robots.lint(),
    tableBytes: robots.tableBytes,
    page: readPageWith(engine, { html: PAGE }).resolve("FooBot"),
  };
  robots.dispose();
  return result;
}

/** Grows memory to 2 GiB from the host (the heap never uses those pages), then makes the heap grow above them. */
function pushHeapAboveTwoGiB(engine: Engine): void {
  const memory = engine.exports.memory;
  memory.grow(Math.ceil((TWO_GIB - memory.buffer.byteLength) / 65_536) + 1);
  // A region larger than the heap's free blocks: the heap grows, and it can only grow above 2 GiB.
  engine.scratch("push", 8 << 20);
}

describe("linear memory past 2 GiB", () => {
  it("puts the heap above 2 GiB, where addresses are past the signed 32-bit range", () => {
    const engine = loadEngine(binary);
    pushHeapAboveTwoGiB(engine);
    expect(engine.exports.memory.buffer.byteLength).toBeGreaterThan(TWO_GIB);
    expect(engine.scratch("high", 16 << 20)).toBeGreaterThan(TWO_GIB);
    expect(engine.exports.allocate(64 << 20)).toBeGreaterThan(TWO_GIB);
  });

  it("answers every call as an engine low in memory does", () => {
    const low = answers(loadEngine(binary));
    const engine = loadEngine(binary);
    pushHeapAboveTwoGiB(engine);
    // A body of a few MB: its table and the parse's scratch regions are placed above 2 GiB.
    const big = parseWith(engine, BODY + "\n#".repeat(2 << 20), { maxBytes: Infinity });
    expect(big.isAllowed("http://example.com/private/a", "FooBot")).toBe(false);
    expect(big.explain("http://example.com/private/ok", "FooBot").line).toBe(3);
    expect(answers(engine)).toEqual(low);
    expect(low.verdicts).toEqual([false, true, false, true]);
  });
});

describe("a scratch region whose growth fails (memory at its 4 GiB cap)", () => {
  it("does not keep the block it freed: a later region cannot overlap it", () => {
    const engine = loadEngine(binary);
    engine.scratch("kept", 1_000);
    expect(() => engine.scratch("kept", 3.9 * 2 ** 30)).toThrow(expect.objectContaining({ code: "ROBOTS_ERR_WASM" }));
    const other = engine.scratch("other", 1_000);
    const kept = engine.scratch("kept", 1_000);
    expect(kept + 1_000 <= other || other + 1_000 <= kept).toBe(true);
  });
});
