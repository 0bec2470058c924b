/**
 * The facade, the loader and the input layer at their edges: retrying init, scratch regions,
 * error messages for every kind of bad value, isRobotsError, URL objects of other schemes, string
 * batches with a line feed in a URL, byte batches at odd offsets, byte-order marks, matchingRules
 * with hundreds of matches, and metadata after dispose.
 */
import { readFileSync } from "node:fs";
import { runInNewContext } from "node:vm";
import { describe, expect, it, vi } from "vitest";
import { initSync, isRobotsError, originOf, parseCrawlDelay, Robots, RobotsCache, robotsUrl } from "../src/index.js";
import { parseWith } from "../src/robots.js";
import { Robots as ReferenceRobots } from "../src/reference/index.js";
import { loadEngine, type Engine } from "../src/wasm.js";
import { withCode } from "./support/robots-error.js";

initSync();

const NOT_WASM = new Uint8Array([1, 2, 3, 4]);

describe("init", () => {
  it("can be tried again after a load that failed", async () => {
    vi.resetModules();
    const { init, defaultEngine } = await import("../src/init.js");
    await expect(init(NOT_WASM)).rejects.toEqual(withCode("ROBOTS_ERR_WASM"));
    await expect(init()).resolves.toBeUndefined();
    expect(defaultEngine("the test")).toBeDefined();
  });

  it("refuses a source of the wrong kind as the caller's mistake (ROBOTS_ERR_INVALID_OPTION), then loads", async () => {
    vi.resetModules();
    const { init, initSync: loadNow, defaultEngine } = await import("../src/init.js");
    // A SharedArrayBuffer is refused by WebAssembly itself; `then` that is not a function makes no promise.
    for (const source of ["robots.wasm", 42, { bytes: NOT_WASM }, new DataView(NOT_WASM.buffer), new SharedArrayBuffer(4), { then: 1 }]) {
      await expect(init(source as never)).rejects.toEqual(withCode("ROBOTS_ERR_INVALID_OPTION", /init\(\) takes the module's bytes, a WebAssembly.Module, a Response or a promise of one, got/));
      expect(() => loadNow(source as never)).toThrowError(withCode("ROBOTS_ERR_INVALID_OPTION", /initSync\(\) takes the module's bytes or a WebAssembly.Module, got/));
    }
    // A Response is init()'s only: initSync() cannot wait for its body.
    expect(() => loadNow(new Response(NOT_WASM) as never)).toThrowError(withCode("ROBOTS_ERR_INVALID_OPTION"));
    await expect(init(NOT_WASM.buffer)).rejects.toEqual(withCode("ROBOTS_ERR_WASM"));
    await expect(init(Promise.resolve(new Response(NOT_WASM)))).rejects.toEqual(withCode("ROBOTS_ERR_WASM"));
    await expect(init(new WebAssembly.Module(readFileSync(new URL("../build/release.wasm", import.meta.url))))).resolves.toBeUndefined();
    expect(defaultEngine("the test")).toBeDefined();
  });

  it("takes null as no source (the embedded module), and a buffer made in another realm", async () => {
    vi.resetModules();
    const first = await import("../src/init.js");
    first.initSync(null as never);
    expect(first.defaultEngine("the test")).toBeDefined();
    vi.resetModules();
    const second = await import("../src/init.js");
    const wasm = readFileSync(new URL("../build/release.wasm", import.meta.url));
    // As under Jest's vm contexts: not an instance of this realm's ArrayBuffer.
    const foreign = runInNewContext(`new ArrayBuffer(${wasm.length})`) as ArrayBuffer;
    expect(foreign instanceof ArrayBuffer).toBe(false);
    new Uint8Array(foreign).set(wasm);
    second.initSync(foreign);
    expect(second.defaultEngine("the test")).toBeDefined();
  });

  it("after initSync() does not load again (the source it is given is not even read)", async () => {
    vi.resetModules();
    const { init, initSync: loadNow } = await import("../src/init.js");
    loadNow();
    await expect(init(NOT_WASM)).resolves.toBeUndefined();
  });

  it("refuses a source of the wrong kind once loaded too (the call is as wrong as before the load)", async () => {
    vi.resetModules();
    const { init, initSync: loadNow } = await import("../src/init.js");
    loadNow();
    await expect(init("robots.wasm" as never)).rejects.toEqual(withCode("ROBOTS_ERR_INVALID_OPTION"));
    expect(() => loadNow("robots.wasm" as never)).toThrowError(withCode("ROBOTS_ERR_INVALID_OPTION"));
  });

  it("loads from any typed array over the module's bytes, not only a Uint8Array", async () => {
    const wasm = readFileSync(new URL("../build/release.wasm", import.meta.url));
    const copy = new ArrayBuffer(wasm.length);
    new Uint8Array(copy).set(wasm);
    vi.resetModules();
    const first = await import("../src/init.js");
    first.initSync(new Int8Array(copy));
    expect(first.defaultEngine("the test")).toBeDefined();
    vi.resetModules();
    const second = await import("../src/init.js");
    await second.init(new Uint8ClampedArray(copy));
    expect(second.defaultEngine("the test")).toBeDefined();
  });
});

describe("scratch memory", () => {
  it("a region that grows gives its old memory back", () => {
    const engine = loadEngine(readFileSync(new URL("../build/release.wasm", import.meta.url)));
    engine.scratch("a", 1 << 20);
    engine.scratch("a", 4 << 20);
    const grown = engine.exports.memory.buffer.byteLength;
    // The first megabyte of "a" was released: another region of that size fits without growing.
    engine.scratch("b", 1 << 20);
    expect(engine.exports.memory.buffer.byteLength).toBe(grown);
  });
});

describe("error messages", () => {
  it("a URL batch names the index of the element that is not a string", () => {
    initSync();
    const robots = Robots.parse("User-agent: *\nDisallow: /x\n");
    expect(() => robots.classify(["http://a.com/", "http://a.com/x", 5 as never], "bot")).toThrowError(
      withCode("ROBOTS_ERR_INVALID_URL", /^URL at index 2 must be a string, got number$/),
    );
    robots.dispose();
  });

  it("a WHATWG URL object where a string goes says what to pass instead (one URL or in a batch), in both implementations", () => {
    initSync();
    for (const Implementation of [Robots, ReferenceRobots]) {
      const robots = Implementation.parse("User-agent: *\nDisallow: /x\n");
      const url = new URL("http://a.com/x") as never;
      expect(() => robots.isAllowed(url, "bot")).toThrowError(withCode("ROBOTS_ERR_INVALID_URL", /^URL must be a string, got a URL object \(pass its href\)$/));
      expect(() => robots.classify(["http://a.com/", url], "bot")).toThrowError(withCode("ROBOTS_ERR_INVALID_URL", /^URL at index 1 must be a string, got a URL object \(pass its href\)$/));
      robots.dispose();
    }
  });

  it("a text helper given null says null, not object", () => {
    expect(() => parseCrawlDelay(null as never)).toThrowError(withCode("ROBOTS_ERR_INVALID_BODY", /got null$/));
  });

  it("an option given an array says so", () => {
    expect(() => new RobotsCache({ ttl: [1] as never })).toThrowError(withCode("ROBOTS_ERR_INVALID_OPTION", /^ttl must be .*, got an array$/));
  });
});

describe("isRobotsError", () => {
  it("is false for other errors that carry a code (Node's system errors do)", () => {
    const reset = Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" });
    const lookalike = Object.assign(new Error("x"), { name: "RobotsError", code: "ROBOTS_ERR_WASM" });
    expect([isRobotsError(reset), isRobotsError(lookalike)]).toEqual([false, false]);
  });
});

describe("URL objects", () => {
  it("with a scheme that has no robots.txt are refused as such", () => {
    for (const url of [new URL("ws://example.com/"), new URL("gopher://example.com/x")]) {
      expect(() => originOf(url)).toThrowError(withCode("ROBOTS_ERR_UNSUPPORTED_SCHEME"));
      expect(() => robotsUrl(url)).toThrowError(withCode("ROBOTS_ERR_UNSUPPORTED_SCHEME"));
    }
  });
});

describe("string batches with a line feed inside a URL", () => {
  it("decide the last URL too (its end offset is written)", () => {
    const robots = Robots.parse("User-agent: *\nDisallow: /x\n");
    const batch = robots.classifyWithLines(["http://a.com/y\nz", "http://a.com/x"], "bot");
    expect(Array.from(batch.allowed)).toEqual([1, 0]);
    expect(Array.from(batch.lines)).toEqual([0, 2]);
    expect(Array.from(robots.classify(["http://a.com/y\nz", "http://a.com/x"], "bot"))).toEqual([1, 0]);
    robots.dispose();
  });
});

describe("error messages about functions", () => {
  it("an option given a function says \"a function\", not its source", () => {
    expect(() => new RobotsCache({ ttl: (() => 1) as never })).toThrowError(withCode("ROBOTS_ERR_INVALID_OPTION", /, got a function$/));
  });
});

describe("byte batches at any byte offset", () => {
  it("a batch 7 bytes past an 8-byte boundary, as long as its scratch region, leaves the engine intact", () => {
    const engine = loadEngine(readFileSync(new URL("../build/release.wasm", import.meta.url)));
    const robots = parseWith(engine, "User-agent: *\nDisallow: /x\n");
    const text = new TextEncoder().encode("http://a.com/x\n".repeat(68)); // 1,020 bytes
    const holder = new Uint8Array(text.length + 8);
    holder.set(text, 7);
    expect(Array.from(robots.classify(holder.subarray(7, 7 + text.length), "bot"))).toEqual(new Array(68).fill(0));
    expectEngineIntact(engine);
    robots.dispose();
  });
});

describe("UTF-16 is told by its whole byte-order mark", () => {
  it("a body starting with FE but not FE FF is read as UTF-8 bytes", () => {
    const body = new Uint8Array([0xfe, 0x0a, ...new TextEncoder().encode("User-agent: *\nDisallow: /x\n")]);
    const robots = Robots.parse(body);
    expect(robots.input).toMatchObject({ encoding: "utf-8", bom: false });
    expect(robots.isAllowed("http://a.com/x", "bot")).toBe(false);
    robots.dispose();
  });
});

describe("input metadata", () => {
  it("bom says whether the bytes read start with EF, not the whole body (maxBytes: 0 reads none)", () => {
    initSync();
    const robots = Robots.parse("\uFEFFUser-agent: *\nDisallow: /\n", { maxBytes: 0 });
    expect(robots.input).toMatchObject({ parsedBytes: 0, truncated: true, bom: false });
    robots.dispose();
  });

  it("lint reports a lone EF (a cut byte-order mark) as a bom, as the parser skips it", () => {
    initSync();
    const robots = Robots.parse(new Uint8Array([0xef]), { keepSource: true });
    expect(robots.input.bom).toBe(true);
    expect(robots.lint().findings.map((finding) => finding.code)).toContain("bom");
    robots.dispose();
  });
});

describe("matchingRules with many matching rules", () => {
  it("lists all 501 and leaves the engine's memory intact", () => {
    const engine = loadEngine(readFileSync(new URL("../build/release.wasm", import.meta.url)));
    const body = `User-agent: *\n${Array.from({ length: 500 }, (_, i) => `Disallow: /${"a".repeat(i + 1)}`).join("\n")}\nAllow: /\n`;
    const many = parseWith(engine, body);
    const rules = many.matchingRules(`http://x/${"a".repeat(600)}`, "bot");
    expect(rules).toHaveLength(501);
    expect(rules[0]).toMatchObject({ kind: "disallow", pattern: `/${"a".repeat(500)}`, line: 501 });
    expectEngineIntact(engine);
    many.dispose();
  });
});

describe("after dispose(), metadata read before is not served from memory", () => {
  it("lines and groups throw ROBOTS_ERR_DISPOSED even when they were read before", () => {
    const robots = Robots.parse("User-agent: a\nDisallow: /\n");
    expect(robots.lines.map((line) => line.kind)).toEqual(["user-agent", "disallow", "empty"]);
    expect(robots.groups).toHaveLength(1);
    robots.dispose();
    expect(() => robots.lines).toThrowError(withCode("ROBOTS_ERR_DISPOSED"));
    expect(() => robots.groups).toThrowError(withCode("ROBOTS_ERR_DISPOSED"));
  });
});

/** A write past a scratch region corrupts the engine's heap: a new table on it must still parse and answer. */
function expectEngineIntact(engine: Engine): void {
  const other = parseWith(engine, "User-agent: *\nDisallow: /y\n");
  expect(other.isAllowed("http://a.com/y", "bot")).toBe(false);
  other.dispose();
}

describe("what a Robots hands out cannot be changed by a caller", () => {
  it.each([
    ["WASM", (body: string) => Robots.parse(body, { keepSource: true })],
    ["reference", (body: string) => ReferenceRobots.parse(body, { keepSource: true })],
  ])("%s: input, groups (with their user-agent lines), lines and records are frozen, and lint reads the originals", (_, parse) => {
    initSync();
    const robots = parse("User-agent: a\nDisallow: /x\nCrawl-delay: 5\n");
    const handedOut = [robots.input, robots.groups, robots.groups[0], robots.groups[0].userAgents, robots.groups[0].userAgents[0], robots.lines, robots.lines[0], robots.records, robots.records[0]];
    for (const value of handedOut) expect(Object.isFrozen(value)).toBe(true);
    expect(() => {
      (robots.input as { bytes: number }).bytes = 999;
    }).toThrow(TypeError);
    expect(robots.lint().findings).toEqual([expect.objectContaining({ code: "ignored-record" })]);
  });
});
