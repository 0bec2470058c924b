/**
 * Memory that one hostile input could make a long-lived crawler hold: the directive lists of a
 * page (JavaScript heap), and the scratch space of a call that needed far more than usual (WASM
 * linear memory, which never shrinks but whose freed blocks later tables reuse).
 */
import { readFileSync } from "node:fs";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { IndexingDirectives, initSync } from "../src/index.js";
import { readPageWith } from "../src/directives/page.js";
import { parseWith } from "../src/robots.js";
import { KEPT_SCRATCH_BYTES, loadEngine } from "../src/wasm.js";
import { encodeAgents, putBytes } from "./support/raw-exports.js";
import { memoryInUse } from "./support/memory-in-use.js";

const binary = readFileSync(new URL("../build/release.wasm", import.meta.url));
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

describe("scratch space that one call needed far more of than usual is given back", () => {
  const URL_CHARS = 4_000_000; // a region of 12 MB for its UTF-8 form
  const TABLE = `User-agent: *\n${"Disallow: /abc\n".repeat(9_000)}`;
  const TABLES = 60;

  /** Memory in use after `huge` (on a small table, then disposed) and TABLES tables parsed after it, kept alive. */
  function memoryAfter(huge: (robots: ReturnType<typeof parseWith>, engine: ReturnType<typeof loadEngine>) => void, profile: "google" | "rfc9309" = "google"): number {
    const engine = loadEngine(binary);
    const robots = parseWith(engine, "User-agent: *\nDisallow: /a\n", { profile });
    huge(robots, engine);
    robots.dispose();
    const tables = Array.from({ length: TABLES }, () => parseWith(engine, TABLE, { profile }));
    const bytes = memoryInUse(engine);
    for (const table of tables) table.dispose();
    return bytes;
  }

  const long = `http://x/${"a".repeat(URL_CHARS)}`;
  const baseline = memoryAfter(() => {});

  it.each([
    ["isAllowed", (robots: ReturnType<typeof parseWith>) => robots.isAllowed(long, "bot")],
    ["explain", (robots: ReturnType<typeof parseWith>) => robots.explain(long, "bot")],
    ["matchingRules", (robots: ReturnType<typeof parseWith>) => robots.matchingRules(long, "bot")],
    ["classify", (robots: ReturnType<typeof parseWith>) => robots.classify([long], "bot")],
    ["classifyWithLines (bytes)", (robots: ReturnType<typeof parseWith>) => robots.classifyWithLines(encoder.encode(`${long}\n`), "bot")],
    // A path that must be rewritten (no slash before the query) grows the engine's own path scratch too.
    ["isAllowed, path rewritten", (robots: ReturnType<typeof parseWith>) => robots.isAllowed(`http://x?${"a".repeat(URL_CHARS)}`, "bot")],
  ])("%s of a URL of 4 million characters, then tables: memory ends as without that URL", (_, huge) => {
    // Before, the call's region kept its 12 MB (and the path scratch as much again for a rewritten path).
    expect(memoryAfter(huge) - baseline).toBeLessThan(KEPT_SCRATCH_BYTES);
  });

  it("IndexingDirectives.parse of a 12 MB page, then tables: memory ends as without that page", () => {
    const html = encoder.encode(`<p>${"a".repeat(3 * URL_CHARS)}<meta name=robots content=noindex>`);
    expect(memoryAfter((_, engine) => expect(readPageWith(engine, { html }).resolve("x").index).toBe(false)) - baseline).toBeLessThan(KEPT_SCRATCH_BYTES);
  });

  it("a batch whose path needed 12 MB of the engine's path scratch gives it back at the end of the batch (raw exports)", () => {
    // The host's regions are the test's own here, freed by it: only the engine's path scratch is left.
    const memory = memoryAfter((robots, engine) => {
      const body = encoder.encode("User-agent: *\nDisallow: /a\n");
      const bodyPointer = putBytes(engine, body);
      const table = engine.exports.compile(bodyPointer, body.length, 1);
      const agents = encodeAgents("bot");
      const agentsPointer = putBytes(engine, agents);
      engine.exports.selectAgents(table, agentsPointer, agents.length);
      // RFC 9309 rewrites a path with `%`: the whole path goes through the scratch, three bytes a byte at most.
      const url = encoder.encode(`http://x/${"%41".repeat(URL_CHARS / 3)}`);
      const urlPointer = putBytes(engine, url);
      const offsets = putBytes(engine, new Uint8Array(new Uint32Array([0, url.length]).buffer));
      const verdicts = engine.exports.allocate(16);
      expect(engine.exports.matchBatch(table, urlPointer, url.length, offsets, 1, verdicts, 0, 0)).toBe(1);
      for (const pointer of [bodyPointer, agentsPointer, urlPointer, offsets, verdicts]) engine.exports.release(pointer);
      engine.exports.freeTable(table);
      void robots;
    }, "rfc9309");
    expect(memory - memoryAfter(() => {}, "rfc9309")).toBeLessThan(KEPT_SCRATCH_BYTES);
  });

  /**
   * Memory in use after `body` is parsed, `url` decided for `bot` and the table disposed, less the
   * same with no URL decided: what deciding that one URL left held in the engine's own scratch.
   */
  function heldAfterUrl(body: string, url: string, profile: "google" | "rfc9309"): number {
    const held = (target: string | undefined) => {
      const engine = loadEngine(binary);
      const robots = parseWith(engine, body, { profile, maxBytes: Infinity });
      if (target !== undefined) robots.isAllowed(target, "bot");
      robots.dispose();
      return memoryInUse(engine);
    };
    return held(url) - held(undefined);
  }

  it.each([
    // The walk lists a node per path byte, up to the longest pattern (8 bytes each): 8 MB.
    ["the walk's visited nodes", `User-agent: *\nDisallow: /${"a".repeat(1 << 20)}\nDisallow: /b\n`, `http://x/${"a".repeat(1 << 20)}`],
    // A segment of 16 bytes or more is searched with failure links (4 bytes a byte): 4 MB.
    ["the KMP failure links of a long segment", `User-agent: *\nDisallow: /x*${"ab".repeat(1 << 19)}c\n`, `http://x/x${"ab".repeat(1 << 19)}dc`],
    // A path of more than 128 bytes after a crowded prefix is probed with stamps (12 bytes a rule at least).
    ["the gram probe's stamps", `User-agent: *\n${Array.from({ length: 200_000 }, (_, i) => `Disallow: /*k${i.toString(36)}q*z`).join("\n")}\n`, `http://x/${"kq".repeat(200)}`],
  ])("a long path gives back %s at the end of the call", (_, body, url) => {
    expect(heldAfterUrl(body, url, "rfc9309")).toBeLessThan(KEPT_SCRATCH_BYTES);
  });

  it("keeps ordinary regions for the next call (no allocation per call), and gives back only large ones", () => {
    const engine = loadEngine(binary);
    const robots = parseWith(engine, "User-agent: *\nDisallow: /a\n");
    robots.isAllowed(`http://x/${"b".repeat(1_000)}`, "bot");
    const { allocate, release } = engine.exports;
    const calls = { allocate: 0, release: 0 };
    engine.exports.allocate = (size) => (calls.allocate++, allocate(size));
    engine.exports.release = (pointer) => (calls.release++, release(pointer));
    for (let i = 0; i < 1_000; i++) robots.isAllowed(`http://x/${"b".repeat(i)}`, "bot");
    expect(calls).toEqual({ allocate: 0, release: 0 });
    robots.isAllowed(`http://x/${"c".repeat(KEPT_SCRATCH_BYTES)}`, "bot");
    // The small region freed to make room for the large one, and the large one freed after the call.
    expect(calls).toEqual({ allocate: 1, release: 2 });
    for (let i = 0; i < 100; i++) robots.isAllowed("http://x/again", "bot");
    expect(calls).toEqual({ allocate: 2, release: 2 });
    robots.dispose();
  });
});
