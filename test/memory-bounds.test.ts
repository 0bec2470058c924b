/**
 * Memory that one hostile input could make a long-lived crawler hold: the directive lists of a
 * page (JavaScript heap).
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { IndexingDirectives, initSync } from "../src/index.js";

const encoder = new TextEncoder();

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

/** Heap in use after full collections. */
function heapUsed(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/** The heap that what `make` returns keeps alive (the input is made, and flattened, before). */
function retained<T>(make: () => T): { value: T; bytes: number } {
  const before = heapUsed();
  const value = make();
  return { value, bytes: heapUsed() - before };
}

/** A header value (made flat, as one read from a response is) of `count` junk elements, then `tail`. */
function junkHeader(count: number, tail: string): string {
  const value = `${"a, ".repeat(count)}${tail}`;
  value.indexOf("\0"); // flattens the concatenation, so that reading it copies nothing
  return value;
}

describe("directive lists keep what can change an answer, and a bounded report of the rest", () => {
  initSync();

  it("reads a header of junk elements into the same bounded lists whatever its length; its noindex still applies", () => {
    const small = junkHeader(50_000, "noindex");
    const large = junkHeader(800_000, "noindex");
    const pages = [small, large].map((headers) => retained(() => IndexingDirectives.parse({ headers })));
    // The same bound at both lengths; before, each junk element kept an object: 14 MB and 220 MB.
    for (const { bytes } of pages) expect(bytes).toBeLessThan(1 << 20);
    for (const [{ value: page }, count] of [[pages[0]!, 50_000], [pages[1]!, 800_000]] as const) {
      expect(page.resolve("googlebot").index).toBe(false);
      expect(page.directives.map((d) => d.name)).toEqual(["noindex"]);
      expect(page.unknown).toHaveLength(32);
      expect(page.omitted).toEqual({ directives: 0, unknown: count - 32, invalid: 0 });
    }
  });

  it("keeps a meta tag of junk elements in about the heap of its content, at 16 times the length too", () => {
    const page = (count: number) => encoder.encode(`<meta name=googlebot content=${"a,".repeat(count)}noindex>`);
    const inputs = [page(62_500), page(1_000_000)];
    const results = inputs.map((html) => retained(() => IndexingDirectives.parse({ html })));
    // The content string itself is a byte per byte; before, the lists kept about 147 bytes per byte.
    for (const [i, { bytes }] of results.entries()) expect(bytes / inputs[i]!.length).toBeLessThan(4);
    for (const [i, { value }] of results.entries()) {
      const r = value.resolve(["googlebot-news", "googlebot"]);
      expect(r.index).toBe(false);
      expect(r.restrictions.map((x) => [x.field, x.directive.text, x.directive.agent])).toEqual([["index", "noindex", "googlebot"]]);
      expect(r.unknown).toHaveLength(32);
      expect(r.omitted.unknown).toBe((i === 0 ? 62_500 : 1_000_000) - 32);
    }
  });

  it("bounds the unknown elements of a page of many tags, and keeps little more than the tags themselves", () => {
    const page = (tags: number) => encoder.encode("<meta name=robots content=a,b,c,d,e,f,g,h>".repeat(tags));
    for (const tags of [4_000, 64_000]) {
      const html = page(tags);
      const { value, bytes } = retained(() => IndexingDirectives.parse({ html }));
      // Before, about 2,450 bytes per tag: an object per element besides the tag's own.
      expect(bytes / tags).toBeLessThan(400);
      expect(value.metaTags).toHaveLength(tags);
      expect(value.unknown).toHaveLength(256);
      expect(value.omitted).toEqual({ directives: 0, unknown: 8 * tags - 256, invalid: 0 });
      expect(value.resolve("x").omitted.unknown).toBe(8 * tags - 256);
    }
  });

  it("keeps one directive per agent and name, the most restrictive, across sources; the answers stay those of every element", () => {
    const page = IndexingDirectives.parse({
      html: '<meta name=robots content="max-snippet:50, noindex, max-snippet:-1"><meta name=robots content="max-snippet:20, noindex">' +
        '<meta name=googlebot content="max-snippet:30, unavailable_after: 2030-01-01, unavailable_after: 2029-01-01">',
      headers: ["noindex, max-image-preview:large, max-image-preview:none", "unavailable_after: 2031-01-01"],
    });
    const summary = page.directives.map((d) => `${d.agent ?? "*"}:${d.text}`);
    expect(summary).toEqual([
      "*:noindex", "*:max-image-preview:none", "*:unavailable_after: 2031-01-01", "*:max-snippet:20", "googlebot:max-snippet:30",
      "googlebot:unavailable_after: 2029-01-01",
    ]);
    expect(page.omitted).toEqual({ directives: 6, unknown: 0, invalid: 0 });
    const r = page.resolve("googlebot", { now: 0 });
    expect([r.index, r.maxSnippet, r.maxImagePreview, r.unavailableAfter?.toISOString()]).toEqual([false, 20, "none", "2029-01-01T00:00:00.000Z"]);
    expect(r.omitted.directives).toBe(6);
    expect(page.resolve("bingbot").omitted.directives).toBe(5);
    // Written back and read again, the same directives.
    expect(IndexingDirectives.parse({ headers: page.toHeaderValues() }).directives.map((d) => `${d.agent ?? "*"}:${d.name}`))
      .toEqual(page.directives.map((d) => `${d.agent ?? "*"}:${d.name}`));
  });

  it("caps each source's unknown and invalid elements at 32, and counts the rest for the agents they belong to", () => {
    const junk = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => `${prefix}${i}`).join(", ");
    const page = IndexingDirectives.parse({
      headers: [`${junk("x", 40)}, googlebot: ${junk("y", 40)}, nofollow`, junk("max-snippet:z", 40)],
      html: `<meta name=bingbot content="${junk("w", 5)}, noindex">`,
    });
    expect(page.unknown.map((d) => d.text)).toEqual([...Array.from({ length: 32 }, (_, i) => `x${i}`), "w0", "w1", "w2", "w3", "w4"]);
    expect(page.invalid).toHaveLength(32);
    expect(page.omitted).toEqual({ directives: 0, unknown: 48, invalid: 8 });
    expect(page.resolve("googlebot").omitted).toEqual({ directives: 0, unknown: 48, invalid: 8 });
    expect(page.resolve("otherbot").omitted).toEqual({ directives: 0, unknown: 8, invalid: 8 });
    expect(page.resolve("googlebot", { policy: "specific-overrides-generic" }).omitted).toEqual({ directives: 0, unknown: 40, invalid: 0 });
    expect(page.resolve("googlebot").follow).toBe(false);
    expect(page.resolve("bingbot").index).toBe(false);
    expect(page.agents).toEqual(["googlebot", "bingbot"]);
  });
});
