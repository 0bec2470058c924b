/** The public entry point: loading, misuse errors of the WASM facade, traps at the boundary. */
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { encodeUrl, init, initSync, isRobotsError, parseCrawlDelay, parseRequestRate, Robots, RobotsError } from "../src/index.js";
import { loadEngine } from "../src/wasm.js";
import { fuzzRuns } from "./support/fuzz.js";

describe("loading the engine", () => {
  it("refuses to parse before init with ROBOTS_ERR_NOT_INITIALIZED", () => {
    expect(() => Robots.parse("User-agent: *")).toThrowError(expect.objectContaining({ code: "ROBOTS_ERR_NOT_INITIALIZED" }));
  });

  it("loads synchronously and asynchronously from the embedded binary, once", async () => {
    initSync();
    await init();
    await Promise.all([init(), init()]);
    const robots = Robots.parse("User-agent: *\nDisallow: /x\n");
    expect(robots.isAllowed("http://a.com/x", "bot")).toBe(false);
    robots.dispose();
  });

  it("reports a module that is not WebAssembly as ROBOTS_ERR_WASM", () => {
    expect(() => loadEngine(new Uint8Array([1, 2, 3, 4]))).toThrowError(expect.objectContaining({ code: "ROBOTS_ERR_WASM" }));
  });
});

describe("a trap inside the module", () => {
  it("becomes a RobotsError with code ROBOTS_ERR_WASM and the trap as cause", () => {
    const engine = loadEngine(readFileSync(new URL("../build/debug.wasm", import.meta.url)));
    const outside = engine.exports.memory.buffer.byteLength + 65_536;
    let caught: unknown;
    try {
      engine.call(() => engine.exports.countNewlines(outside, 16));
    } catch (error) {
      caught = error;
    }
    expect(isRobotsError(caught)).toBe(true);
    expect((caught as RobotsError).code).toBe("ROBOTS_ERR_WASM");
    expect((caught as RobotsError).cause).toBeInstanceOf(WebAssembly.RuntimeError);
  });
});

describe("helpers", () => {
  it("encodeUrl escapes raw bytes for the wire and keeps existing escapes and reserved characters", () => {
    expect(encodeUrl("http://a.com/caf\u00e9 x?q=%2F&r=ツ#f")).toBe("http://a.com/caf%C3%A9%20x?q=%2F&r=%E3%83%84#f");
    initSync();
    const robots = Robots.parse("User-agent: *\nDisallow: /café\n");
    expect(robots.isAllowed("http://a.com/café", "a")).toBe(true); // raw bytes: Google compares as given
    expect(robots.isAllowed(encodeUrl("http://a.com/café"), "a")).toBe(false);
    robots.dispose();
  });

  it("encodeUrl on any text: printable ASCII out, idempotent, and decodeURIComponent gives back text without a %", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: "grapheme", maxLength: 30 }), fc.string({ unit: "binary-ascii", maxLength: 30 })), (text) => {
        const encoded = encodeUrl(text);
        expect(encoded).toMatch(/^[!#$%&'()*+,\-./0-9:;=?@A-Z[\\\]^_`a-z{|}~]*$/);
        expect(encodeUrl(encoded)).toBe(encoded);
        if (!text.includes("%")) expect(decodeURIComponent(encoded)).toBe(text);
      }),
      fuzzRuns(20261126, 1000),
    );
  });

  it("encodeUrl encodes what a WHATWG URL parser encodes in the path, the query and the fragment", () => {
    expect(encodeUrl("/a|b^c{d}e`f'g?q=|^{}`'#f|^{}`'")).toBe("/a|b^c%7Bd%7De%60f'g?q=|^{}`%27#f|^{}%60'");
    // Against Node's URL parser, on paths it leaves in shape: no `.` segments, `\\`, `%`, tabs or newlines.
    const char = fc.oneof(fc.constantFrom(..." !\"#$&'()*+,-/:;<=>?@[]^_`{|}~aZ09"), fc.constantFrom("é", "ツ", "😀", "\u0001", "\u007f", "\ud800"));
    fc.assert(
      fc.property(fc.array(char, { maxLength: 20 }), (chars) => {
        const raw = `http://a.com/${chars.join("")}x`;
        expect(encodeUrl(raw)).toBe(new URL(raw).href);
      }),
      fuzzRuns(20261127, 2000),
    );
  });

  it("an encoded URL matches a rule written with the characters a URL keeps raw", () => {
    initSync();
    const robots = Robots.parse("User-agent: *\nDisallow: /a|b\nDisallow: /*?q={x}\n");
    expect(robots.isAllowed(encodeUrl("http://a.com/a|b"), "a")).toBe(false);
    expect(robots.isAllowed(encodeUrl("http://a.com/s?q={x}"), "a")).toBe(false);
    robots.dispose();
  });

  it("parse crawl-delay and request-rate values", () => {
    expect([parseCrawlDelay("5"), parseCrawlDelay("0.5"), parseCrawlDelay("10."), parseCrawlDelay(".5")]).toEqual([5, 0.5, 10, 0.5]);
    expect([parseCrawlDelay("-1"), parseCrawlDelay("abc"), parseCrawlDelay(""), parseCrawlDelay("1e3")]).toEqual([undefined, undefined, undefined, undefined]);
    expect(parseRequestRate("1/5")).toEqual({ requests: 1, seconds: 5 });
    expect(parseRequestRate("3/1m")).toEqual({ requests: 3, seconds: 60 });
    expect(parseRequestRate("1/10s")).toEqual({ requests: 1, seconds: 10 });
    expect(parseRequestRate("1/1h")).toEqual({ requests: 1, seconds: 3600 });
    expect(parseRequestRate("2 / 3M")).toEqual({ requests: 2, seconds: 180 });
    // Spaces are allowed before the unit too, as around the slash.
    expect(parseRequestRate("1/10 s")).toEqual({ requests: 1, seconds: 10 });
    expect(parseRequestRate("1 / 5 h")).toEqual({ requests: 1, seconds: 18_000 });
    expect(parseRequestRate("fast")).toBeUndefined();
    expect(parseRequestRate("1/5d")).toBeUndefined();
  });

  it("report the compiled table's memory for cache accounting", () => {
    initSync();
    const small = Robots.parse("User-agent: *\nDisallow: /x\n");
    const large = Robots.parse(`User-agent: *\n${"Disallow: /some/long/path/*.php$\n".repeat(5_000)}`);
    expect(large.tableBytes).toBeGreaterThan(small.tableBytes * 10);
    small.dispose();
    large.dispose();
    expect(() => large.tableBytes).toThrowError(expect.objectContaining({ code: "ROBOTS_ERR_DISPOSED" }));
  });

  it("answer for the agents as they are now: an array changed after a call is read again", () => {
    initSync();
    const robots = Robots.parse("User-agent: googlebot\nDisallow: /\n");
    const agents = ["googlebot"];
    expect(robots.isAllowed("https://example.com/page", agents)).toBe(false);
    agents[0] = "bingbot";
    expect(robots.isAllowed("https://example.com/page", agents)).toBe(true);
    expect(robots.isAllowed("https://example.com/page", ["bingbot"])).toBe(true);
    robots.dispose();
  });

  it("decode records and agents on first use from text the table keeps, after the body is gone", () => {
    initSync();
    const body = new TextEncoder().encode("User-agent: Bot/1.0 (x)\nCrawl-delay: 2\nClean-Param: ref /Über\nSitemap: https://a.test/s.xml\n");
    const robots = Robots.parse(body);
    // The caller's buffer and the engine's copy of it are reused: the records must not read them.
    body.fill(0x78);
    const others = Array.from({ length: 20 }, (_, i) => Robots.parse(`User-agent: *\n${`Disallow: /${i}/*.php$\n`.repeat(2_000)}`));
    for (const other of others) other.dispose();
    expect(robots.records).toEqual([
      { line: 2, key: "crawl-delay", known: true, value: "2", group: 0 },
      { line: 3, key: "clean-param", known: true, value: "ref /Über", group: 0 },
      { line: 4, key: "sitemap", known: true, value: "https://a.test/s.xml", group: null },
    ]);
    expect(robots.groups[0].userAgents).toEqual([{ line: 1, value: "Bot/1.0 (x)", global: false, token: "Bot" }]);
    expect(robots.crawlDelay("bot")).toBe(2);
    robots.dispose();
    expect(() => robots.records).toThrowError(expect.objectContaining({ code: "ROBOTS_ERR_DISPOSED" }));
  });
});
