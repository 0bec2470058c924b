/**
 * Misuse of the public API gets a RobotsError with a code, never a TypeError, a trap or a silent
 * wrong answer: the cases an audit of every export with hostile arguments found. The main entry
 * and the reference answer alike.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import {
  encodeUrl, extractMetaTags, IndexingDirectives, initSync, parseCrawlDelay, parseDirectiveDate, parseRequestRate, Robots,
  RobotsCache, type RobotsErrorCode, fetchRobots, MAX_URL_BYTES,
} from "../src/index.js";
import { RobotsWorkerPool } from "../src/parallel.js";
import { Robots as ReferenceRobots } from "../src/reference/index.js";
import { loadEngine } from "../src/wasm.js";
import { leb128, name, section } from "../bench/wasm-binary.js";
import { withCode } from "./support/robots-error.js";

initSync();

/** The code of what `run` throws (or rejects with); undefined if it succeeds; the error itself if it is no RobotsError. */
async function codeOf(run: () => unknown): Promise<RobotsErrorCode | undefined | unknown> {
  try {
    await run();
    return undefined;
  } catch (error) {
    return (error as { name?: string }).name === "RobotsError" ? (error as { code: RobotsErrorCode }).code : error;
  }
}

/** A Uint8Array whose buffer was transferred away: length 0, and set()/slice() on it throw. */
function detached(text: string): Uint8Array {
  const bytes = new TextEncoder().encode(text);
  structuredClone(bytes.buffer, { transfer: [bytes.buffer] });
  return bytes;
}

const RULES = "User-agent: *\nDisallow: /private/\n";
// eslint-disable-next-line no-sparse-arrays
const sparse = <T>(value: T): T[] => [, value] as T[];

describe("new on the classes that a factory makes (plain JavaScript; TypeScript refuses it)", () => {
  // As a caller without types would write them: the body where the private arguments go.
  const construct = (Class: unknown, ...args: unknown[]) => () => new (Class as new (...args: unknown[]) => unknown)(...args);

  it.each([
    ["Robots", construct(Robots, RULES)],
    ["Robots with no argument", construct(Robots)],
    ["the reference's Robots", construct(ReferenceRobots, RULES)],
    ["IndexingDirectives", construct(IndexingDirectives, { headers: "noindex" })],
    ["RobotsWorkerPool", construct(RobotsWorkerPool, RULES, { workers: 1 })],
  ])("%s is ROBOTS_ERR_NOT_CONSTRUCTIBLE, naming its factory", (_, run) => {
    expect(run).toThrow(withCode("ROBOTS_ERR_NOT_CONSTRUCTIBLE", /has no public constructor: use (Robots\.parse|IndexingDirectives\.parse|RobotsWorkerPool\.create)\(/));
  });

  it("leaves nothing for the finalizer: a process that collected the half-built object lives on", () => {
    // Before the check, the finalizer freed "the table" of such an object at the next collection,
    // and its TypeError there ended the process. The built package, in a process of its own.
    const script = `
      const { initSync, Robots } = await import(${JSON.stringify(new URL("../dist/index.js", import.meta.url).href)});
      initSync();
      try { new Robots("User-agent: *\\nDisallow: /"); } catch {}
      for (let i = 0; i < 5; i++) { globalThis.gc(); await new Promise((resolve) => setTimeout(resolve, 20)); }
      console.log("alive");`;
    const child = spawnSync(process.execPath, ["--expose-gc", "--input-type=module", "-e", script], { encoding: "utf8" });
    expect([child.status, child.stdout.trim(), child.stderr]).toEqual([0, "alive", ""]);
  });
});

describe("agents and URLs in sparse arrays (holes are undefined, which every() and forEach() skip)", () => {
  it.each([["main", Robots], ["reference", ReferenceRobots]] as const)("%s: every query with a hole among its agents is ROBOTS_ERR_INVALID_AGENT", async (_, Implementation) => {
    const robots = Implementation.parse(RULES);
    const agents = sparse("bot");
    for (const run of [
      () => robots.isAllowed("http://a.com/", agents), () => robots.explain("http://a.com/", agents),
      () => robots.matchingRules("http://a.com/", agents), () => robots.classify(["http://a.com/"], agents),
      () => robots.classifyWithLines(["http://a.com/"], agents), () => robots.groupsFor(agents), () => robots.crawlDelay(agents),
    ]) {
      expect(await codeOf(run)).toBe("ROBOTS_ERR_INVALID_AGENT");
    }
    expect(await codeOf(() => robots.classify(sparse("http://a.com/"), "bot"))).toBe("ROBOTS_ERR_INVALID_URL");
    robots.dispose();
  });

  it("the cache and the directives refuse them too; the cache's classify refuses a hole among its URLs", async () => {
    const cache = new RobotsCache({ fetch: async () => new Response(RULES) });
    expect(await codeOf(() => cache.isAllowed("http://a.com/", sparse("bot")))).toBe("ROBOTS_ERR_INVALID_AGENT");
    expect(await codeOf(() => cache.classify(sparse("http://a.com/"), "bot"))).toBe("ROBOTS_ERR_INVALID_URL");
    expect(await codeOf(() => IndexingDirectives.parse({ headers: "noindex" }).resolve(sparse("googlebot")))).toBe("ROBOTS_ERR_INVALID_AGENT");
    // The same calls without the hole answer.
    expect(await cache.classify(["http://a.com/private/x", "http://a.com/"], "bot")).toMatchObject({ allowed: new Uint8Array([0, 1]) });
  });
});

describe("after dispose(), everything is ROBOTS_ERR_DISPOSED, before any argument is looked at", () => {
  it.each([["main", Robots], ["reference", ReferenceRobots]] as const)("%s", async (_, Implementation) => {
    const robots = Implementation.parse(RULES);
    expect(robots.profile).toBe("google");
    robots.dispose();
    for (const run of [
      () => robots.profile, () => robots.input, () => robots.isAllowed(5 as unknown as string, 5 as unknown as string),
      () => robots.classify(null as unknown as string[], "bot"), () => robots.crawlDelay(7 as unknown as string),
    ]) {
      expect(await codeOf(run)).toBe("ROBOTS_ERR_DISPOSED");
    }
  });
});

describe("a Uint8Array whose buffer was transferred away reads as empty, as its length says", () => {
  it.each([["main", Robots], ["reference", ReferenceRobots]] as const)("%s: Robots.parse, with and without keepSource", (_, Implementation) => {
    for (const keepSource of [false, true]) {
      const robots = Implementation.parse(detached(RULES), { keepSource });
      expect(robots.input.bytes).toBe(0);
      expect(robots.isAllowed("http://a.com/private/x", "bot")).toBe(true);
      robots.dispose();
    }
  });

  it("IndexingDirectives.parse and extractMetaTags", () => {
    expect(extractMetaTags(detached('<meta name="robots" content="noindex">'))).toEqual([]);
    expect(IndexingDirectives.parse({ html: detached('<meta name="robots" content="noindex">') }).resolve("x").index).toBe(true);
  });
});

describe("text helpers check that they are given text", () => {
  it.each([undefined, null, 42, {}, Symbol("x"), 1n])("%s", async (value) => {
    const text = value as unknown as string;
    expect(await codeOf(() => parseDirectiveDate(text))).toBe("ROBOTS_ERR_INVALID_BODY");
    expect(await codeOf(() => parseCrawlDelay(text))).toBe("ROBOTS_ERR_INVALID_BODY");
    expect(await codeOf(() => parseRequestRate(text))).toBe("ROBOTS_ERR_INVALID_BODY");
    expect(await codeOf(() => encodeUrl(text))).toBe("ROBOTS_ERR_INVALID_URL");
  });
});

describe("option values that cannot be printed or used", () => {
  it("an option error never fails while describing the value (no prototype, symbol, bigint)", async () => {
    for (const value of [Object.create(null), Symbol("x"), 1n, [1]]) {
      expect(await codeOf(() => new RobotsCache({ userAgent: value }))).toBe("ROBOTS_ERR_INVALID_OPTION");
      expect(await codeOf(() => Robots.parse(RULES, { profile: value }))).toBe("ROBOTS_ERR_INVALID_OPTION");
      expect(await codeOf(() => Robots.parse(RULES, { maxBytes: value }))).toBe("ROBOTS_ERR_INVALID_OPTION");
      expect(await codeOf(() => IndexingDirectives.parse({ headers: "noindex" }).resolve("x", { policy: value }))).toBe("ROBOTS_ERR_INVALID_OPTION");
    }
    expect(() => Robots.parse(RULES, { profile: 1n as never })).toThrow(/profile must be "google" or "rfc9309", got 1n/);
  });

  it("timeouts longer than Node's timers (2^31 - 1 ms, which fire at once) are refused", async () => {
    expect(await codeOf(() => new RobotsCache({ connectTimeout: 2 ** 31 }))).toBe("ROBOTS_ERR_INVALID_OPTION");
    expect(await codeOf(() => fetchRobots("http://a.com/robots.txt", { totalTimeout: 1e10 }))).toBe("ROBOTS_ERR_INVALID_OPTION");
    expect(await codeOf(() => new RobotsCache({ connectTimeout: 2 ** 31 - 1, totalTimeout: 2 ** 31 - 1 }))).toBeUndefined();
  });
});

describe("an injected fetch that does not give a Response is a failed fetch (an outcome), not an exception", () => {
  it.each([
    ["null", null],
    ["an empty object", {}],
    ["a status and headers but no body", { status: 200, headers: new Headers() }],
  ])("%s: unreachable, network-error", async (_, value) => {
    const result = await fetchRobots("http://a.com/robots.txt", { fetch: (async () => value) as unknown as typeof fetch });
    expect(result).toMatchObject({ outcome: "unreachable", reason: "network-error", detail: "the fetch function gave something other than a Response" });
  });

  it("a response whose headers cannot be read is a network error, not a rejection", async () => {
    const headers = { get: () => { throw new Error("broken headers"); } };
    const result = await fetchRobots("http://a.com/robots.txt", { fetch: (async () => ({ status: 200, headers, body: null })) as unknown as typeof fetch });
    expect(result).toMatchObject({ outcome: "unreachable", reason: "network-error", detail: "broken headers" });
  });

  it("a redirect a browser's fetch hides (opaqueredirect, status 0) is a network error that says so, not an HTTP 0", async () => {
    const hidden = { type: "opaqueredirect", status: 0, headers: new Headers(), body: null };
    const result = await fetchRobots("http://a.com/robots.txt", { fetch: (async () => hidden) as unknown as typeof fetch });
    expect(result).toMatchObject({ outcome: "unreachable", reason: "network-error", detail: expect.stringMatching(/opaqueredirect/) });
  });

  it("a Response given synchronously is read", async () => {
    const result = await fetchRobots("http://a.com/robots.txt", { fetch: (() => new Response(RULES)) as unknown as typeof fetch });
    expect(result).toMatchObject({ outcome: "ok", bytes: RULES.length });
  });
});

describe("the cache takes URL objects wherever it takes a page URL", () => {
  it("isAllowed, explain, crawlDelay, sitemaps and describe", async () => {
    const cache = new RobotsCache({ fetch: async () => new Response(`${RULES}Crawl-delay: 2\n`) });
    const page = new URL("http://a.com/private/x");
    expect(await cache.isAllowed(page, "bot")).toBe(false);
    expect(await cache.explain(page, "bot")).toMatchObject({ allowed: false, line: 2 });
    expect(await cache.crawlDelay(page, "bot")).toBe(2);
    expect(await cache.sitemaps(page)).toEqual([]);
    expect(await cache.describe(page)).toMatchObject({ policy: "rules" });
  });
});

describe("saved cache data that toJSON() cannot have written is ROBOTS_ERR_INVALID_CACHE_DATA", () => {
  it("holes, times that are not finite, unknown reasons, an origin twice, an ok fetch without its body", async () => {
    const cache = new RobotsCache({ fetch: async () => new Response(RULES) });
    await cache.isAllowed("http://a.com/", "bot");
    const data = JSON.parse(JSON.stringify(cache));
    const entry = data.entries[0];
    expect(RobotsCache.fromJSON(data)).toBeInstanceOf(RobotsCache);
    for (const bad of [
      { ...data, entries: sparse(entry) },
      { ...data, entries: [{ ...entry, expiresAt: Number.NaN }] },
      { ...data, entries: [{ ...entry, fetch: { ...entry.fetch, fetchedAt: Infinity } }] },
      { ...data, entries: [{ ...entry, fetch: { ...entry.fetch, reason: "felt-like-it" } }] },
      { ...data, entries: [entry, entry] },
      // Loaded, it would allow every URL of the origin.
      { ...data, entries: [{ ...entry, good: null }] },
    ]) {
      expect(await codeOf(() => RobotsCache.fromJSON(bad))).toBe("ROBOTS_ERR_INVALID_CACHE_DATA");
    }
  });
});

describe("the worker pool checks its options before it starts a thread", () => {
  it.each([
    ["null options", null],
    ["options that are not an object", 42],
    ["a misspelt option", { worker: 2 }],
  ])("%s: ROBOTS_ERR_INVALID_OPTION", async (_, options) => {
    expect(await codeOf(() => RobotsWorkerPool.create(RULES, options as never))).toBe("ROBOTS_ERR_INVALID_OPTION");
  });

  // The worker counts below come with a bad maxBytes, checked after the count, so that no test
  // starts a thread: the message says which check refused (a pool that lost its cap fails on
  // maxBytes instead of starting a million threads).
  it("takes 256 workers: the check that refuses the count passes it, and maxBytes is what is refused", async () => {
    await expect(RobotsWorkerPool.create(RULES, { workers: 256, maxBytes: -1 })).rejects.toThrowError(expect.objectContaining({ message: expect.stringMatching(/^maxBytes/) }));
  });

  it.each([1e6, 257, 0, 1.5])("%s workers: ROBOTS_ERR_INVALID_OPTION about the worker count", async (workers) => {
    await expect(RobotsWorkerPool.create(RULES, { workers, maxBytes: -1 })).rejects.toThrowError(
      expect.objectContaining({ code: "ROBOTS_ERR_INVALID_OPTION", message: expect.stringMatching(/^workers must be an integer from 1 to 256/) }),
    );
  });
});

describe("a WebAssembly module that is not the engine is refused when it is loaded", () => {
  it("an empty module: ROBOTS_ERR_WASM naming what it lacks", () => {
    const empty = new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]);
    expect(() => loadEngine(empty)).toThrowError(expect.objectContaining({ code: "ROBOTS_ERR_WASM", message: expect.stringMatching(/not the robots-wasm engine/) }));
  });

  it("a module with a memory and no functions: ROBOTS_ERR_WASM naming a missing function", () => {
    const memoryOnly = new Uint8Array([
      0, 0x61, 0x73, 0x6d, 1, 0, 0, 0,
      5, 3, 1, 0, 1, // memory section: one memory of at least one page
      7, 10, 1, 6, ...new TextEncoder().encode("memory"), 2, 0, // export section: that memory as "memory"
    ]);
    expect(() => loadEngine(memoryOnly)).toThrowError(expect.objectContaining({ code: "ROBOTS_ERR_WASM", message: expect.stringMatching(/has no function/) }));
  });

  it("a module with every function of the engine but no memory: ROBOTS_ERR_WASM saying so", () => {
    const engine = new WebAssembly.Module(readFileSync(new URL("../build/release.wasm", import.meta.url)));
    const names = WebAssembly.Module.exports(engine).filter((entry) => entry.kind === "function").map((entry) => entry.name);
    // One empty function `() -> ()`, exported under each of those names.
    const functionsOnly = new Uint8Array([
      0, 0x61, 0x73, 0x6d, 1, 0, 0, 0,
      ...section(1, [1, 0x60, 0, 0]), // type 0: () -> ()
      ...section(3, [1, 0]), // function 0 has type 0
      ...section(7, [...leb128(names.length), ...names.flatMap((exported) => [...name(exported), 0, 0])]), // each: function 0
      ...section(10, [1, 2, 0, 0x0b]), // its body: no locals, end
    ]);
    expect(() => loadEngine(functionsOnly)).toThrowError(expect.objectContaining({ code: "ROBOTS_ERR_WASM", message: expect.stringMatching(/no memory/) }));
  });
});

describe("a URL longer than MAX_URL_BYTES gets ROBOTS_ERR_INVALID_URL, not an engine failure", () => {
  initSync();
  const over = `/${"a".repeat(MAX_URL_BYTES)}`; // one byte too many
  const exact = `/${"a".repeat(MAX_URL_BYTES - 1)}`;

  it.each([
    ["WASM", (body: string) => Robots.parse(body)],
    ["reference", (body: string) => ReferenceRobots.parse(body)],
  ])("%s: a string, a string in a batch and a line of a byte batch; one of exactly the limit is decided", (_, parse) => {
    const robots = parse("User-agent: *\nDisallow: /a\n");
    expect(() => robots.isAllowed(over, "x")).toThrow(withCode("ROBOTS_ERR_INVALID_URL", /more than a URL may be/));
    // Two bytes each: half as many characters are enough.
    expect(() => robots.isAllowed(`/${"é".repeat(MAX_URL_BYTES / 2)}`, "x")).toThrow(withCode("ROBOTS_ERR_INVALID_URL"));
    expect(() => robots.classify(["/b", over], "x")).toThrow(withCode("ROBOTS_ERR_INVALID_URL", /^URL at index 1 /));
    expect(() => robots.classify(Buffer.from(`/b\n/c\n${over}\n/d\n`), "x")).toThrow(withCode("ROBOTS_ERR_INVALID_URL", /^URL at index 2 of the batch/));
    expect(robots.isAllowed(exact, "x")).toBe(false);
    // A CR before the LF (or at the end) is not part of the URL.
    expect([...robots.classify(Buffer.from(`${exact}\r\n/b\r\n${exact}\r`), "x")]).toEqual([0, 1, 0]);
    expect(() => robots.classify(Buffer.from(`${exact}b\r\n`), "x")).toThrow(withCode("ROBOTS_ERR_INVALID_URL"));
    expect([...robots.classify(Buffer.from(`/b\n${exact}\n/c`), "x")]).toEqual([1, 0, 1]);
  });

  it("a worker pool refuses it as the engine does", async () => {
    // The built pool: its workers run the built worker script.
    const { RobotsWorkerPool: BuiltPool } = await import("../dist/parallel.js");
    const pool = await BuiltPool.create("User-agent: *\nDisallow: /a\n", { workers: 1 });
    try {
      await expect(pool.classify(Buffer.from(`/b\n${over}`), "x")).rejects.toThrow(withCode("ROBOTS_ERR_INVALID_URL"));
      expect([...(await pool.classify(["/b", "/a"], "x"))]).toEqual([1, 0]);
    } finally {
      await pool.close();
    }
  });
});

describe("bytes made in another realm (a vm context) are bytes", () => {
  it("as a body, a URL batch and a page", () => {
    initSync();
    const foreign = (text: string) => runInNewContext(`new Uint8Array([${[...Buffer.from(text)].join(",")}])`) as Uint8Array;
    expect(foreign("x") instanceof Uint8Array).toBe(false);
    const robots = Robots.parse(foreign("User-agent: *\nDisallow: /a\n"));
    expect([...robots.classify(foreign("/a\n/b\n"), "x")]).toEqual([0, 1]);
    expect([...ReferenceRobots.parse(foreign("User-agent: *\nDisallow: /a\n")).classify(foreign("/a\n/b\n"), "x")]).toEqual([0, 1]);
    expect(extractMetaTags(foreign('<meta name="robots" content="noindex">'))).toHaveLength(1);
    robots.dispose();
  });
});

describe("a worker pool left open does not keep the process alive", () => {
  it("the process ends after its batch, without close()", () => {
    const script = `
      const { RobotsWorkerPool } = await import(${JSON.stringify(new URL("../dist/parallel.js", import.meta.url).href)});
      const pool = await RobotsWorkerPool.create("User-agent: *\\nDisallow: /p\\n", { workers: 2 });
      const verdicts = await pool.classify(["/p", "/q"], "x");
      console.log([...verdicts].join(","));
    `;
    const child = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8", timeout: 20_000 });
    expect(child.signal).toBeNull();
    expect({ status: child.status, stdout: child.stdout }).toEqual({ status: 0, stdout: "0,1\n" });
  });

  it.each([
    ["never used", ""],
    ["given only empty batches", "await pool.classify([], 'x'); await pool.classify(new Uint8Array(0), 'x');"],
    ["whose only call was refused before anything was sent", "await pool.classify([1], 'x').catch(() => undefined);"],
  ])("the process ends with a pool %s (no part was ever sent)", (_, calls) => {
    const script = `
      const { RobotsWorkerPool } = await import(${JSON.stringify(new URL("../dist/parallel.js", import.meta.url).href)});
      const pool = await RobotsWorkerPool.create("User-agent: *\\nDisallow: /p\\n", { workers: 2 });
      ${calls}
      console.log("done");
    `;
    const child = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8", timeout: 20_000 });
    expect(child.signal).toBeNull();
    expect({ status: child.status, stdout: child.stdout }).toEqual({ status: 0, stdout: "done\n" });
  });
});

describe("a worker pool's body", () => {
  it("is sent to each worker as the bytes it parses, not the whole buffer a view lies in", () => {
    const script = `
      const { RobotsWorkerPool } = await import(${JSON.stringify(new URL("../dist/parallel.js", import.meta.url).href)});
      let big = Buffer.alloc(256 << 20, 0x20);
      const rules = Buffer.from("User-agent: *\\nDisallow: /p\\n");
      rules.copy(big, 0);
      const body = new Uint8Array(big.buffer, big.byteOffset, rules.length);
      const before = process.memoryUsage().rss;
      const pool = await RobotsWorkerPool.create(body, { workers: 2 });
      big = null;
      globalThis.gc();
      const grown = process.memoryUsage().rss - before;
      console.log([...(await pool.classify(["/p", "/q"], "x"))].join(","), grown < 128 * 2 ** 20 ? "small" : \`grew \${grown}\`);
      await pool.close();
    `;
    const child = spawnSync(process.execPath, ["--expose-gc", "--input-type=module", "-e", script], { encoding: "utf8", timeout: 30_000 });
    expect({ status: child.status, stdout: child.stdout, stderr: child.stderr }).toEqual({ status: 0, stdout: "0,1 small\n", stderr: "" });
  });
});

describe("a worker pool started from a script on standard input", () => {
  it("starts its workers when --input-type comes from NODE_OPTIONS (workers read it again from their environment)", () => {
    const script = `
      const { RobotsWorkerPool } = await import(${JSON.stringify(new URL("../dist/parallel.js", import.meta.url).href)});
      const pool = await RobotsWorkerPool.create("User-agent: *\\nDisallow: /p\\n", { workers: 2 });
      console.log([...(await pool.classify(["/p", "/q"], "x"))].join(","));
      await pool.close();
    `;
    const env = { ...process.env, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --input-type=module`.trim() };
    const child = spawnSync(process.execPath, [], { input: script, env, encoding: "utf8", timeout: 30_000 });
    expect({ status: child.status, stdout: child.stdout, stderr: child.stderr }).toEqual({ status: 0, stdout: "0,1\n", stderr: "" });
  });
});

describe("a worker pool whose worker stops while it starts", () => {
  /**
   * A preloaded module that stops worker thread 1 (before it is ready, or 300 ms after it loaded,
   * when it is ready) and holds thread 2's start for a second, so that the pool is still starting.
   */
  const preload = (when: "before ready" | "after ready") => `
    import { isMainThread, threadId } from "node:worker_threads";
    if (!isMainThread && threadId === 1) ${when === "before ready" ? "process.exit(3);" : "setTimeout(() => process.exit(9), 300);"}
    if (!isMainThread && threadId === 2) { const until = Date.now() + 1000; while (Date.now() < until); }
  `;

  it.each(["before ready", "after ready"] as const)("rejects create() with ROBOTS_ERR_WASM when it stops %s, and the process ends", (when) => {
    const dir = mkdtempSync(join(tmpdir(), "robots-pool-"));
    try {
      const preloadFile = join(dir, "stop-worker.mjs");
      writeFileSync(preloadFile, preload(when));
      const script = `
        const { RobotsWorkerPool } = await import(${JSON.stringify(new URL("../dist/parallel.js", import.meta.url).href)});
        try {
          await RobotsWorkerPool.create("User-agent: *\\nDisallow: /p\\n", { workers: 2 });
          console.log("created");
        } catch (error) {
          console.log(error.code, /stopped \\(exit code \\d\\)/.test(error.message));
        }
      `;
      const child = spawnSync(process.execPath, ["--import", pathToFileURL(preloadFile).href, "--input-type=module", "-e", script], { encoding: "utf8", timeout: 30_000 });
      expect(child.signal).toBeNull();
      expect({ status: child.status, stdout: child.stdout }).toEqual({ status: 0, stdout: "ROBOTS_ERR_WASM true\n" });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** A check that the engine answers rightly: a fresh Robots and one parsed before the hostile call. */
function engineHealthy(before: Robots): void {
  expect(Robots.parse("User-agent: *\nDisallow: /x\n").isAllowed("https://a.com/x", "bot")).toBe(false);
  expect([before.isAllowed("https://a.com/x", "bot"), before.isAllowed("https://a.com/y", "bot")]).toEqual([false, true]);
}

describe("a caller's array or typed array read once, through the language's own accessors", () => {
  const rules = "User-agent: googlebot\nDisallow: /g\n\nUser-agent: *\nDisallow: /x\n";

  it("a Uint8Array that says it is shorter than it is (a subclass, an own length) is read whole, everywhere", () => {
    initSync();
    const before = Robots.parse(rules);
    class Short extends Uint8Array {
      override get length(): number {
        return 1;
      }
    }
    const short = (text: string) => {
      const bytes = new Short(Buffer.byteLength(text));
      bytes.set(Buffer.from(text));
      return bytes;
    };
    const body = `User-agent: *\nDisallow: /q\n${"#".repeat(5000)}\n`;
    expect(Robots.parse(short(body)).isAllowed("https://a.com/q", "bot")).toBe(false);
    const own = Buffer.from(body);
    Object.defineProperty(own, "length", { value: 1 });
    expect(Robots.parse(own).isAllowed("https://a.com/q", "bot")).toBe(false);
    expect([...before.classify(short("/x\n/y\n/x\n"), "bot")]).toEqual([0, 1, 0]);
    expect(extractMetaTags(short(`<meta name="robots" content="noindex">${" ".repeat(5000)}<meta name=a>`))).toHaveLength(2);
    expect(IndexingDirectives.parse({ html: short(`<meta name="robots" content="noindex">${" ".repeat(5000)}`) }).resolve("x").index).toBe(false);
    engineHealthy(Robots.parse("User-agent: *\nDisallow: /x\n"));
    before.dispose();
  });

  it("a typed array of another kind that calls itself a Uint8Array is no Uint8Array", async () => {
    class Liar extends Uint16Array {}
    Object.defineProperty(Liar.prototype, Symbol.toStringTag, { get: () => "Uint8Array" });
    expect(await codeOf(() => Robots.parse(new Liar(8) as unknown as Uint8Array))).toBe("ROBOTS_ERR_INVALID_BODY");
    expect(await codeOf(() => RobotsWorkerPool.create(new Liar(8) as unknown as Uint8Array, { workers: 1 }))).toBe("ROBOTS_ERR_INVALID_BODY");
  });

  it("URL and agent arrays whose getters answer differently on each read, in the engine and the pool", async () => {
    const before = Robots.parse(rules);
    let reads = 0;
    const urls: string[] = [];
    Object.defineProperty(urls, 0, { get: () => (++reads <= 1 ? "/x" : `/${"y".repeat(300_000)}`), enumerable: true });
    urls.length = 1;
    expect([...before.classify(urls, "bot")]).toEqual([0]);
    reads = 0;
    const agents: string[] = [];
    Object.defineProperty(agents, 0, { get: () => (++reads <= 1 ? "otherbot" : "googlebot"), enumerable: true });
    expect(before.isAllowed("https://a.com/g", agents)).toBe(true);
    // The selection it made is for the agent it read, not for one read later.
    expect(before.isAllowed("https://a.com/g", "googlebot")).toBe(false);
    expect(before.groupsFor("googlebot")).toEqual({ scope: "specific", groups: [0] });
    engineHealthy(before);
    const { RobotsWorkerPool: BuiltPool } = await import("../dist/parallel.js");
    const pool = await BuiltPool.create(rules, { workers: 1 });
    try {
      reads = 0;
      expect([...(await pool.classify(urls, "bot"))]).toEqual([0]);
      expect([...(await pool.classify(["https://a.com/x", "https://a.com/y"], "bot"))]).toEqual([0, 1]);
    } finally {
      await pool.close();
    }
    before.dispose();
  });

  it("a getter that disposes the Robots, or parses another, runs before the work: ROBOTS_ERR_DISPOSED, and the other is untouched", async () => {
    const robots = Robots.parse(rules);
    let other: Robots | undefined;
    const agents: string[] = [];
    Object.defineProperty(agents, 0, {
      get() {
        if (other === undefined) {
          robots.dispose();
          other = Robots.parse(rules); // may reuse the disposed table's memory
        }
        return "otherbot";
      },
    });
    for (const run of [() => robots.isAllowed("https://a.com/g", agents), () => robots.classify(["/x", "/y"], agents), () => robots.explain("/g", agents),
      () => robots.matchingRules("/g", agents), () => robots.groupsFor(agents)]) {
      expect(await codeOf(run)).toBe("ROBOTS_ERR_DISPOSED");
    }
    expect([other!.isAllowed("https://a.com/g", "googlebot"), other!.isAllowed("https://a.com/x", "googlebot")]).toEqual([false, true]);
    other!.dispose();
  });

  it("a getter that calls classify again on the same Robots does not disturb the outer call", () => {
    const robots = Robots.parse("User-agent: *\nDisallow: /x\n");
    let reads = 0;
    const urls = ["https://a.com/x", "https://a.com/y"];
    Object.defineProperty(urls, 1, {
      get() {
        if (++reads === 1) robots.classify(Array<string>(5000).fill(`https://a.com/${"q".repeat(100)}`), "bot");
        return "https://a.com/y";
      },
    });
    expect([...robots.classify(urls, "bot")]).toEqual([0, 1]);
    robots.dispose();
  });
});

describe("hostile values elsewhere get typed errors or plain answers", () => {
  it("a URL object without a URL in it, to the cache and the location helpers", async () => {
    const cache = new RobotsCache({ fetch: async () => new Response("") });
    const fake = Object.create(URL.prototype) as URL;
    expect(await codeOf(() => cache.classify([fake] as unknown as string[], "bot"))).toBe("ROBOTS_ERR_INVALID_URL");
    expect(await codeOf(() => cache.isAllowed(fake, "bot"))).toBe("ROBOTS_ERR_INVALID_URL");
    const { originOf, robotsUrl } = await import("../src/index.js");
    expect(await codeOf(() => originOf(fake))).toBe("ROBOTS_ERR_INVALID_URL");
    expect(await codeOf(() => robotsUrl(fake))).toBe("ROBOTS_ERR_INVALID_URL");
  });

  it("fetchRobots takes a string or a URL, nothing it would have to convert", async () => {
    const fetch = async () => new Response("User-agent: *\n");
    for (const url of [["https://a.com/robots.txt"], { toString: () => "https://b.com/robots.txt" }, null]) {
      expect(await codeOf(() => fetchRobots(url as unknown as string, { fetch })), String(url)).toBe("ROBOTS_ERR_INVALID_URL");
    }
  });

  it("an injected fetch's headers that are not strings are absent, and a body stream without cancel is read", async () => {
    const body = () => new Response("User-agent: *\nDisallow: /\n").body!;
    const odd = async () => ({ status: 200, headers: { get: () => 5 }, body: body() }) as unknown as Response;
    expect(await fetchRobots("https://a.com/robots.txt", { fetch: odd })).toMatchObject({ outcome: "ok", age: null, maxAge: null });
    const noCancel = async () => {
      const reader = body().getReader();
      const stream = { getReader: () => ({ read: () => reader.read() }) };
      return { status: 200, headers: new Headers(), body: stream } as unknown as Response;
    };
    expect(await fetchRobots("https://a.com/robots.txt", { fetch: noCancel })).toMatchObject({ outcome: "ok", bytes: 26 });
  });

  it("nested or cyclic X-Robots-Tag arrays, and a now that only says it is a Date", () => {
    const cyclic: unknown[] = [];
    cyclic.push(cyclic);
    for (const value of [cyclic, [["noindex"]]]) {
      expect(() => IndexingDirectives.parse({ headers: { "x-robots-tag": value as string[] } })).toThrow(withCode("ROBOTS_ERR_INVALID_OPTION"));
    }
    const page = IndexingDirectives.parse({ headers: "noindex" });
    expect(() => page.resolve("x", { now: { [Symbol.toStringTag]: "Date" } as unknown as Date })).toThrow(withCode("ROBOTS_ERR_INVALID_OPTION"));
  });

  it("the lint catalogue is frozen: no caller's change reaches another caller's findings", async () => {
    const { LINT_CODES } = await import("../src/index.js");
    expect(() => ((LINT_CODES["missing-colon"] as { severity: string }).severity = "info")).toThrow(TypeError);
    expect(Object.isFrozen(LINT_CODES)).toBe(true);
    expect(Robots.parse("User-agent: *\nDisallow /x\n", { keepSource: true }).lint().findings[0]).toMatchObject({ code: "missing-colon", severity: "warning" });
  });

  it("a cache clock that gives no finite time is ROBOTS_ERR_INVALID_OPTION, before anything is kept", async () => {
    for (const time of [Number.NaN, Infinity, "12"]) {
      const cache = new RobotsCache({ fetch: async () => new Response("User-agent: *\n"), now: () => time as number });
      expect(await codeOf(() => cache.isAllowed("https://a.com/", "bot")), String(time)).toBe("ROBOTS_ERR_INVALID_OPTION");
      expect(cache.toJSON().entries).toEqual([]);
    }
  });

  it("saved cache data with a reason that is not a string is refused", async () => {
    const cache = new RobotsCache({ fetch: async () => new Response("User-agent: *\n") });
    await cache.describe("https://a.com/");
    const data = JSON.parse(JSON.stringify(cache.toJSON())) as { entries: { fetch: { reason: unknown } }[] };
    data.entries[0].fetch.reason = ["ok"];
    expect(await codeOf(() => RobotsCache.fromJSON(data as never))).toBe("ROBOTS_ERR_INVALID_CACHE_DATA");
  });

  it("the worker pool reads inherited options as Robots.parse does", async () => {
    const options = Object.create({ profile: "rfc9309" }) as { profile: "rfc9309"; workers?: number };
    options.workers = 1;
    const { RobotsWorkerPool: BuiltPool } = await import("../dist/parallel.js");
    const pool = await BuiltPool.create("User-agent: *\nDisallow: /\n", options);
    try {
      expect([...(await pool.classify(["https://a.com/robots.txt"], "bot"))]).toEqual([...Robots.parse("User-agent: *\nDisallow: /\n", Object.create({ profile: "rfc9309" })).classify(["https://a.com/robots.txt"], "bot")]);
      expect([...(await pool.classify(["https://a.com/robots.txt"], "bot"))]).toEqual([1]);
    } finally {
      await pool.close();
    }
  });
});
