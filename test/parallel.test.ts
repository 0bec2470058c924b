/**
 * The worker pool (robots-wasm/parallel) gives the same answers as one thread, in input order.
 * It runs the built package (dist/), since worker threads load JavaScript files.
 */
import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { initSync, isRobotsError, Robots } from "../dist/index.js";
import { RobotsWorkerPool } from "../dist/parallel.js";
import { defaultWorkerCount, partCounts, splitAtLines, workerThreads } from "../dist/parallel-protocol.js";
import { url } from "./support/generators.js";
import { fuzzRuns } from "./support/fuzz.js";
import { withCode } from "./support/robots-error.js";

const root = new URL("../", import.meta.url);
const body = readFileSync(new URL("examples/robots.txt", root));
const urlBytes = readFileSync(new URL("examples/urls.txt", root));
const urls = urlBytes.toString("utf8").trimEnd().split("\n");

initSync();
const single = Robots.parse(body);
const pools: RobotsWorkerPool[] = [];
afterAll(async () => {
  await Promise.all(pools.map((pool) => pool.close()));
  single.dispose();
});

describe("RobotsWorkerPool", () => {
  it("classifies bytes and strings on two workers exactly as one thread does", async () => {
    const pool = await RobotsWorkerPool.create(body, { workers: 2 });
    pools.push(pool);
    expect(pool.size).toBe(2);
    for (const agent of ["Googlebot", ["Bingbot", "AhrefsBot"], "other"]) {
      const expected = single.classifyWithLines(urlBytes, agent);
      // A Node Buffer, as read from a file: the pool must copy, not move, the caller's memory.
      const fromBytes = await pool.classifyWithLines(urlBytes, agent);
      expect(fromBytes.allowed).toEqual(expected.allowed);
      expect(fromBytes.lines).toEqual(expected.lines);
      const fromStrings = await pool.classifyWithLines([...urls, "", "http://x.com/a\nb"], agent);
      const expectedStrings = single.classifyWithLines([...urls, "", "http://x.com/a\nb"], agent);
      expect(fromStrings.allowed).toEqual(expectedStrings.allowed);
      expect(fromStrings.lines).toEqual(expectedStrings.lines);
    }
    expect(urlBytes.byteLength).toBeGreaterThan(0);
    expect(await pool.classify([], "Googlebot")).toEqual(new Uint8Array(0));
    expect(await pool.classify(new Uint8Array(0), "Googlebot")).toEqual(new Uint8Array(0));
  });

  it("writes byte parts straight into the workers' memory once they have made room, and makes more for larger parts", async () => {
    const pool = await RobotsWorkerPool.create(body, { workers: 2 });
    pools.push(pool);
    const parts = () => pool[partCounts]();
    const twice = new TextEncoder().encode(`${urls.join("\n")}\n${urls.slice().reverse().join("\n")}`);
    const check = async (batch: Uint8Array) => expect(await pool.classifyWithLines(batch, "Googlebot")).toEqual(single.classifyWithLines(batch, "Googlebot"));
    // The first part each worker slot (two per worker) takes finds no landing and goes through a
    // shared buffer; the worker then makes one, where the later parts land.
    await check(urlBytes);
    const first = parts();
    expect(first.copied).toBe(4);
    expect(first.landed).toBeGreaterThan(0);
    const perBatch = first.copied + first.landed;
    // The same again: every part lands.
    await check(urlBytes);
    expect(parts()).toEqual({ landed: first.landed + perBatch, copied: 4 });
    // Parts twice as large: each slot's first goes through a buffer while its landing grows, the
    // rest land; then all of them, and smaller ones too.
    await check(twice);
    expect(parts().copied).toBe(8);
    await check(twice);
    await check(urlBytes.subarray(0, urlBytes.length >> 1));
    expect(parts().copied).toBe(8);
  });

  it("writes string parts into the workers' memory as lines once they have made room, and clones a part with an LF in a string", async () => {
    const pool = await RobotsWorkerPool.create(body, { workers: 2 });
    pools.push(pool);
    const parts = () => pool[partCounts]();
    // CRs stay part of their strings, as one thread keeps them; non-ASCII is written as UTF-8.
    const strings = urls.map((url, i) => (i % 5 === 0 ? `${url}\r` : i % 7 === 0 ? `${url}/\u00fc\u4e2d` : url));
    const check = async (batch: string[]) => expect(await pool.classifyWithLines(batch, "Googlebot")).toEqual(single.classifyWithLines(batch, "Googlebot"));
    // Each slot's first part is cloned while its worker makes a landing; the later parts land.
    await check(strings);
    const first = parts();
    expect(first.copied).toBe(0);
    expect(first.landed).toBeGreaterThan(0);
    const perBatch = 16;
    await check(strings);
    expect(parts().landed).toBe(first.landed + perBatch);
    // One string with an LF: its part is cloned (as a line it would read as two), the rest land.
    const withLineFeed = strings.slice();
    withLineFeed[5] = "http://www.example.com/a\nb";
    await check(withLineFeed);
    expect(parts().landed).toBe(first.landed + 2 * perBatch - 1);
    expect(parts().copied).toBe(0);
  });

  it("answers random string batches as one thread does, parts landed or cloned (fast-check)", async () => {
    // `$` rules tell whether a string's last byte was kept: a CR must stay part of its string.
    const anchored = "User-agent: *\nDisallow: /*a$\nDisallow: /*/$\nAllow: /*\u00fc$\n";
    const pool = await RobotsWorkerPool.create(anchored, { workers: 2 });
    pools.push(pool);
    const oneThread = Robots.parse(anchored);
    // Strings as the property tests make them, and raw ones (CR, LF, surrogates), in batches of
    // varied sizes, so that parts land in landings made by earlier batches, or are cloned.
    const raw = fc.array(fc.constantFrom("http://example.com/", "a", "/", "\r", "\u00fc", "\ud800", "*"), { maxLength: 8 }).map((units) => units.join(""));
    // An LF is rare, so that most parts land (a part with one is cloned).
    const withLineFeed = raw.map((text) => `${text}\n${text}`);
    const strings = fc.array(fc.oneof({ weight: 100, arbitrary: url }, { weight: 100, arbitrary: raw }, { weight: 1, arbitrary: withLineFeed }), { maxLength: 300 });
    await fc.assert(
      fc.asyncProperty(strings, fc.constantFrom("Googlebot", "other"), async (batch, agent) => {
        expect(await pool.classifyWithLines(batch, agent)).toEqual(oneThread.classifyWithLines(batch, agent));
      }),
      fuzzRuns(20261126, 150),
    );
    expect(pool[partCounts]().landed).toBeGreaterThan(100);
    oneThread.dispose();
  });

  it("keeps concurrent byte batches apart, and reuses its shared buffers without reading stale bytes", async () => {
    const pool = await RobotsWorkerPool.create(body, { workers: 2 });
    pools.push(pool);
    const reversed = new TextEncoder().encode(urls.slice().reverse().join("\n"));
    const half = urlBytes.subarray(0, urlBytes.indexOf(0x0a, urlBytes.length >> 1) + 1);
    const few = new TextEncoder().encode("http://x.com/\nhttp://x.com/private/a");
    for (let round = 0; round < 3; round++) {
      // All in flight at once: each needs its own buffer; later rounds reuse larger idle ones.
      const batches = [urlBytes, reversed, half, few];
      const answers = await Promise.all(batches.map((batch) => pool.classifyWithLines(batch, "Googlebot")));
      answers.forEach((answer, i) => {
        const expected = single.classifyWithLines(batches[i], "Googlebot");
        expect(answer.allowed).toEqual(expected.allowed);
        expect(answer.lines).toEqual(expected.lines);
      });
    }
  });

  it("reads byte batches at every alignment, in ordinary and in shared memory", async () => {
    // Batches are copied to an address with their own remainder modulo 8 (src/alignment.ts): the
    // offsets must hold for every remainder, on one thread and across the pool.
    const pool = await RobotsWorkerPool.create(body, { workers: 2 });
    pools.push(pool);
    const expected = single.classifyWithLines(urlBytes, "Googlebot");
    for (const Buffer of [ArrayBuffer, SharedArrayBuffer]) {
      for (let offset = 0; offset < 8; offset++) {
        const view = new Uint8Array(new Buffer(urlBytes.length + 16), offset, urlBytes.length);
        view.set(urlBytes);
        const fromPool = await pool.classifyWithLines(view, "Googlebot");
        const fromOne = single.classifyWithLines(view, "Googlebot");
        for (const answer of [fromPool, fromOne]) {
          expect(answer.allowed).toEqual(expected.allowed);
          expect(answer.lines).toEqual(expected.lines);
        }
      }
    }
  });

  it("reads batches that lie in a SharedArrayBuffer where they are, several in one buffer at once", async () => {
    // Shared bytes are not copied: the workers read the caller's buffer at the batch's own offsets.
    const pool = await RobotsWorkerPool.create(body, { workers: 2 });
    pools.push(pool);
    const reversed = new TextEncoder().encode(urls.slice().reverse().join("\n"));
    const shared = new Uint8Array(new SharedArrayBuffer(urlBytes.length + reversed.length + 100));
    shared.set(urlBytes, 3);
    shared.set(reversed, urlBytes.length + 50);
    const first = shared.subarray(3, 3 + urlBytes.length);
    const second = shared.subarray(urlBytes.length + 50, urlBytes.length + 50 + reversed.length);
    const [a, b] = await Promise.all([pool.classifyWithLines(first, "Googlebot"), pool.classifyWithLines(second, "Googlebot")]);
    expect(a).toEqual(single.classifyWithLines(urlBytes, "Googlebot"));
    expect(b).toEqual(single.classifyWithLines(reversed, "Googlebot"));
    expect(first).toEqual(new Uint8Array(urlBytes));
  });

  it("uses the profile and size limit it was created with", async () => {
    const pool = await RobotsWorkerPool.create("User-agent: *\nDisallow: /%61\n", { workers: 2, profile: "rfc9309" });
    pools.push(pool);
    expect(Array.from(await pool.classify(["http://a.com/a", "http://a.com/b"], "x"))).toEqual([0, 1]);
  });

  it("starts a worker per core unless told how many", async () => {
    const pool = await RobotsWorkerPool.create("User-agent: *\nDisallow: /a\n");
    pools.push(pool);
    expect(pool.size).toBe(availableParallelism());
  });

  it("rejects bad options and use after close with typed errors", async () => {
    await expect(RobotsWorkerPool.create(body, { workers: 0 })).rejects.toMatchObject({ code: "ROBOTS_ERR_INVALID_OPTION" });
    await expect(RobotsWorkerPool.create(body, { profile: "bing" as "google" })).rejects.toMatchObject({ code: "ROBOTS_ERR_INVALID_OPTION" });
    const pool = await RobotsWorkerPool.create(body, { workers: 1 });
    await pool.close();
    await pool.close();
    await expect(pool.classify(["/"], "x")).rejects.toMatchObject({ code: "ROBOTS_ERR_DISPOSED" });
  });

  it("refuses a body that is neither text nor bytes with a RobotsError, before it starts a thread", async () => {
    for (const bad of [42, null, {}, new ArrayBuffer(4), new Uint16Array(2)]) {
      const error = await RobotsWorkerPool.create(bad as unknown as string, { workers: 2 }).catch((caught: unknown) => caught);
      expect(isRobotsError(error)).toBe(true);
      expect(error).toMatchObject({ code: "ROBOTS_ERR_INVALID_BODY" });
    }
  });

  it("fails every batch, in flight and later, with ROBOTS_ERR_WASM once a worker has died, instead of waiting for it", async () => {
    const pool = await RobotsWorkerPool.create(body, { workers: 2 });
    pools.push(pool);
    const inFlight = pool.classify(urlBytes, "Googlebot");
    await pool[workerThreads]()[0].terminate();
    await expect(inFlight).rejects.toMatchObject({ name: "RobotsError", code: "ROBOTS_ERR_WASM", message: expect.stringMatching(/a worker stopped/) });
    await expect(pool.classify(["http://a.com/"], "x")).rejects.toMatchObject({ code: "ROBOTS_ERR_WASM" });
    await pool.close();
    await expect(pool.classify(["http://a.com/"], "x")).rejects.toMatchObject({ code: "ROBOTS_ERR_DISPOSED" });
  });

  it("closes once: a second close() is the first one's promise, which ends after the workers have stopped", async () => {
    const pool = await RobotsWorkerPool.create(body, { workers: 2 });
    const threads = pool[workerThreads]();
    const inFlight = pool.classify(urlBytes, "Googlebot").then(() => "done", (error: { code: string }) => error.code);
    const first = pool.close();
    expect(pool.close()).toBe(first);
    await pool.close();
    // Stopped threads have no id; the batch in flight finished first or was failed by the close.
    expect(threads.map((thread) => thread.threadId)).toEqual([-1, -1]);
    expect(await inFlight).toMatch(/^(done|ROBOTS_ERR_DISPOSED)$/);
  });

  it("cuts byte batches at line ends into similar parts", () => {
    const text = new TextEncoder().encode("aaaa\nbb\ncccccc\nd\ne");
    const parts = splitAtLines(text, 3).map((part) => new TextDecoder().decode(part));
    expect(parts.join("")).toBe("aaaa\nbb\ncccccc\nd\ne");
    expect(parts.every((part, i) => i === parts.length - 1 || part.endsWith("\n"))).toBe(true);
    expect(parts.length).toBe(3);
    expect(splitAtLines(new Uint8Array(0), 4)).toEqual([]);
  });
});

describe("the pool's default size", () => {
  it("is one worker per core, at most the limit (a machine with more cores still gets a pool)", () => {
    expect(defaultWorkerCount(2, 256)).toBe(2);
    expect(defaultWorkerCount(320, 256)).toBe(256);
    expect(defaultWorkerCount(0, 256)).toBe(1);
  });
});

describe("the pool and detached buffers", () => {
  it("reads a detached body as empty, as Robots.parse does (everything allowed)", async () => {
    const body = new TextEncoder().encode("User-agent: *\nDisallow: /\n");
    structuredClone(body.buffer, { transfer: [body.buffer] });
    const pool = await RobotsWorkerPool.create(body, { workers: 1 });
    try {
      expect([...(await pool.classify(["/a", "/b"], "x"))]).toEqual([1, 1]);
    } finally {
      await pool.close();
    }
  });

  it("refuses a byte batch detached while in flight with ROBOTS_ERR_INVALID_URL, and goes on working", async () => {
    const pool = await RobotsWorkerPool.create("User-agent: *\nDisallow: /p\n", { workers: 1 });
    try {
      const batch = new TextEncoder().encode(Array.from({ length: 20_000 }, (_, i) => (i % 2 ? "/p" : "/q")).join("\n"));
      const pending = pool.classify(batch, "x");
      structuredClone(batch.buffer, { transfer: [batch.buffer] });
      await expect(pending).rejects.toThrow(withCode("ROBOTS_ERR_INVALID_URL"));
      expect([...(await pool.classify(["/p", "/q"], "x"))]).toEqual([0, 1]);
    } finally {
      await pool.close();
    }
  });
});
