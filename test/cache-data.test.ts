/**
 * RobotsCache.toJSON / fromJSON as data, through an injected fetch and clock (no server): what
 * the cache writes loads back byte for byte, and what it cannot write is refused with
 * ROBOTS_ERR_INVALID_CACHE_DATA.
 */
import { describe, expect, it } from "vitest";
import { initSync, RobotsCache, type RobotsCacheData, type RobotsCacheOptions } from "../src/index.js";
import { withCode } from "./support/robots-error.js";

initSync();

const RULES = "User-agent: *\nDisallow: /private/\n";
const ORIGIN = "https://example.com";

/** A fetch answering each request with the next of `answers` (the last one repeats); a string is a 200 body, an Error a network failure. */
function scripted(...answers: (string | number | Error)[]): typeof fetch {
  let next = 0;
  return async () => {
    const answer = answers[Math.min(next++, answers.length - 1)];
    if (answer instanceof Error) throw answer;
    return typeof answer === "string" ? new Response(answer) : new Response("", { status: answer });
  };
}

/** The clock and the cache on it; each `at(t)` moves the clock. */
function clocked(options: RobotsCacheOptions) {
  let time = 0;
  const cache = new RobotsCache({ now: () => time, ...options });
  return { cache, at: (t: number) => (time = t) };
}

/** toJSON through JSON text, as a crawler saving the cache to a file does. */
const saved = (cache: RobotsCache): RobotsCacheData => JSON.parse(JSON.stringify(cache.toJSON()));

/** Options for a loaded cache that must answer from its data: any fetch fails the test. */
const noFetch: RobotsCacheOptions = {
  now: () => 0,
  fetch: () => {
    throw new Error("the loaded cache fetched");
  },
};

/** Data of one origin after the given answers, one question per answer; the clock at 0, 100, 200... */
async function dataAfter(...answers: (string | number | Error)[]): Promise<RobotsCacheData> {
  // ttl 0: every question fetches again, so each answer becomes the latest fetch.
  const { cache, at } = clocked({ fetch: scripted(...answers), ttl: 0, minTtl: 0, maxTtl: 0, retryInterval: 0 });
  for (let i = 0; i < answers.length; i++) {
    at(i * 100);
    await cache.isAllowed(`${ORIGIN}/`, "bot");
  }
  return saved(cache);
}

describe("toJSON / fromJSON: every kind of entry the cache writes loads back", () => {
  it.each([
    ["ok", [RULES], "ok", true],
    ["unavailable (404)", [404], "unavailable", false],
    ["unreachable with no copy ever (503)", [503], "unreachable", false],
    // status null: the fetch never got a response. Written by the cache itself, so it must load.
    ["unreachable on the network (status null)", [new TypeError("fetch failed")], "unreachable", false],
    ["unreachable after a good copy (kept)", [RULES, 503], "unreachable", true],
    ["ok again after failures", [RULES, 503, RULES], "ok", true],
    ["unavailable after a good copy (dropped)", [RULES, 404], "unavailable", false],
  ] as const)("%s", async (_, answers, outcome, hasCopy) => {
    const data = await dataAfter(...answers);
    expect(data.entries[0].fetch.outcome).toBe(outcome);
    expect(data.entries[0].good !== null).toBe(hasCopy);
    const loaded = RobotsCache.fromJSON(data, noFetch);
    expect(saved(loaded)).toEqual(data);
  });

  it("keeps the network failure's status null, and answers it as unreachable without fetching", async () => {
    const { cache } = clocked({ fetch: scripted(new TypeError("fetch failed")) });
    await cache.isAllowed(`${ORIGIN}/`, "bot");
    const data = saved(cache);
    expect(data.entries[0].fetch).toMatchObject({ status: null, outcome: "unreachable", reason: "network-error" });
    const loaded = RobotsCache.fromJSON(data, noFetch);
    expect(await loaded.describe(ORIGIN)).toMatchObject({ policy: "disallow-all", fetch: expect.objectContaining({ status: null }) });
  });

  // Bodies are turned into base64 in chunks of 0x8000 bytes: the bytes at a chunk's edge must survive.
  it.each([0x7fff, 0x8000, 0x8001, 0x10000, 0x10001])("saves a body of %i bytes byte for byte", async (length) => {
    const text = `User-agent: *\nDisallow: /private/\n#${"x".repeat(length - RULES.length - 2)}\n`;
    expect(text.length).toBe(length);
    const { cache } = clocked({ fetch: scripted(text) });
    await cache.isAllowed(`${ORIGIN}/`, "bot");
    const data = saved(cache);
    expect(Buffer.from(data.entries[0].good!.body, "base64").toString("latin1")).toBe(text);
    expect(saved(RobotsCache.fromJSON(data, noFetch))).toEqual(data);
  });

  it("keeps the rule whose last byte is byte 32,767 of the body (the last of the first chunk)", async () => {
    const text = `User-agent: *\n#${"x".repeat(32_740)}\nDisallow: /p\n`;
    expect(text.indexOf("/p\n") + 1).toBe(32_767);
    const { cache } = clocked({ fetch: scripted(text) });
    await cache.isAllowed(`${ORIGIN}/`, "bot");
    const loaded = RobotsCache.fromJSON(saved(cache), noFetch);
    // Lose that byte and the rule reads "Disallow: /": every page disallowed.
    expect(await loaded.isAllowed(`${ORIGIN}/x`, "bot")).toBe(true);
    expect(await loaded.isAllowed(`${ORIGIN}/p`, "bot")).toBe(false);
  });

  it("rebuilds a saved body whole, when the loading cache reads fewer bytes per fetch than the saving one", async () => {
    // The fetch applied its limit when it read the body; the saved body is what the rules were.
    const text = `User-agent: *\n#${"x".repeat(700_000)}\nDisallow: /late\n`;
    const { cache } = clocked({ fetch: scripted(text), maxBytes: 1_000_000 });
    expect(await cache.isAllowed(`${ORIGIN}/late`, "bot")).toBe(false);
    const loaded = RobotsCache.fromJSON(saved(cache), noFetch);
    expect(await loaded.isAllowed(`${ORIGIN}/late`, "bot")).toBe(false);
  });

  it("loads data saved before the Age header was kept, as without one", async () => {
    const { cache } = clocked({ fetch: scripted(RULES, 503) });
    await cache.isAllowed(`${ORIGIN}/`, "bot");
    const data = saved(cache);
    const entry = data.entries[0];
    delete (entry.fetch as { age?: unknown }).age;
    delete (entry.good!.fetch as { age?: unknown }).age;
    const loaded = RobotsCache.fromJSON(data, noFetch);
    expect((await loaded.describe(ORIGIN)).fetch.age).toBeNull();
    expect(saved(loaded).entries[0].good!.fetch.age).toBeNull();
    expect(() => RobotsCache.fromJSON({ ...data, entries: [{ ...entry, fetch: { ...entry.fetch, age: "1" } }] } as unknown as RobotsCacheData, noFetch)).toThrow(
      expect.objectContaining({ code: "ROBOTS_ERR_INVALID_CACHE_DATA" }),
    );
  });

  it("keeps only the known fields of saved metadata", async () => {
    const { cache } = clocked({ fetch: scripted(RULES) });
    await cache.isAllowed(`${ORIGIN}/`, "bot");
    const data = saved(cache);
    (data.entries[0].fetch as unknown as Record<string, unknown>).extra = "x";
    const loaded = RobotsCache.fromJSON(data, noFetch);
    expect((await loaded.describe(ORIGIN)).fetch).not.toHaveProperty("extra");
    expect(saved(loaded).entries[0].fetch).not.toHaveProperty("extra");
  });

  it("gives copies: changing the saved data does not change the cache", async () => {
    const { cache } = clocked({ fetch: scripted(RULES) });
    await cache.isAllowed(`${ORIGIN}/`, "bot");
    const data = cache.toJSON();
    data.entries[0].fetch.status = 500;
    data.entries[0].good!.fetch.status = 500;
    expect(await cache.describe(ORIGIN)).toMatchObject({
      fetch: expect.objectContaining({ status: 200 }), rulesFetch: expect.objectContaining({ status: 200 }),
    });
  });
});

describe("toJSON / fromJSON: data the cache cannot have written is ROBOTS_ERR_INVALID_CACHE_DATA", () => {
  type Change = (data: RobotsCacheData) => unknown;
  const entryOf = (data: RobotsCacheData) => data.entries[0];
  it.each<[string, (string | number)[], Change]>([
    ["no version", [RULES], ({ version: _, ...rest }) => rest],
    ["an origin in capitals", [RULES], (data) => ({ ...data, entries: [{ ...entryOf(data), origin: "HTTPS://EXAMPLE.COM" }] })],
    ["truncated not a boolean", [RULES], (data) => ({ ...data, entries: [{ ...entryOf(data), fetch: { ...entryOf(data).fetch, truncated: "no" } }] })],
    ["a good copy without its body", [RULES], (data) => ({ ...data, entries: [{ ...entryOf(data), good: { ...entryOf(data).good, body: null } }] })],
    ["an unknown outcome", [404], (data) => ({ ...data, entries: [{ ...entryOf(data), fetch: { ...entryOf(data).fetch, outcome: "error" } }] })],
    // The cache drops the good copy on an "unavailable" answer (only unreachable ones keep it):
    // loaded, the copy would stand beside the answer that replaced it.
    ["an unavailable fetch with a good copy", [RULES], (data) => ({
      ...data, entries: [{ ...entryOf(data), fetch: { ...entryOf(data).fetch, status: 404, outcome: "unavailable", reason: "client-error" } }],
    })],
    ["a good copy of a fetch that was not ok", [RULES, 503], (data) => ({
      ...data, entries: [{ ...entryOf(data), good: { ...entryOf(data).good, fetch: { ...entryOf(data).good!.fetch, outcome: "unreachable", reason: "server-error" } } }],
    })],
    // The cache starts counting failures at the first failed fetch, and forgets them at an answer.
    ["an ok fetch with failures counted since some time", [RULES], (data) => ({ ...data, entries: [{ ...entryOf(data), unreachableSince: 0 }] })],
    ["a failed fetch without the time its failures began", [RULES, 503], (data) => ({ ...data, entries: [{ ...entryOf(data), unreachableSince: null }] })],
  ])("refuses %s", async (_, answers, change) => {
    const data = await dataAfter(...answers);
    expect(() => RobotsCache.fromJSON(data, noFetch)).not.toThrow();
    expect(() => RobotsCache.fromJSON(change(data) as RobotsCacheData, noFetch)).toThrow(withCode("ROBOTS_ERR_INVALID_CACHE_DATA"));
  });
});

describe("the good copy through unreachable fetches, as saved", () => {
  it("is kept until the failures last unreachableLimit, and dropped exactly at the limit", async () => {
    const { cache, at } = clocked({
      fetch: scripted(RULES, 503), ttl: 0, minTtl: 0, maxTtl: 0, retryInterval: 0, unreachableLimit: 1000,
    });
    const goodAt = async (t: number) => {
      at(t);
      await cache.isAllowed(`${ORIGIN}/`, "bot");
      return cache.toJSON().entries[0].good !== null;
    };
    expect(await goodAt(0)).toBe(true);
    // The failures begin at 100.
    expect(await goodAt(100)).toBe(true);
    expect(await goodAt(1099)).toBe(true);
    expect(await goodAt(1100)).toBe(false);
  });
});

describe("toJSON / fromJSON: a good copy kept through a network failure counted unavailable", () => {
  it("loads back, and answers with the kept rules", async () => {
    let time = 0;
    const cache = new RobotsCache({ now: () => time, onNetworkFailure: "unavailable", fetch: scripted(RULES, new TypeError("fetch failed")) });
    await cache.isAllowed(`${ORIGIN}/`, "bot");
    time = 25 * 3600_000; // expired: the refresh fails
    expect(await cache.isAllowed(`${ORIGIN}/private/x`, "bot")).toBe(false);
    const data = saved(cache);
    expect(data.entries[0]).toMatchObject({ fetch: { outcome: "unavailable", reason: "network-error" } });
    expect(data.entries[0].good).not.toBeNull();
    const loaded = RobotsCache.fromJSON(data, { ...noFetch, now: () => time });
    expect(await loaded.isAllowed(`${ORIGIN}/private/x`, "bot")).toBe(false);
    expect(saved(loaded)).toEqual(data);
  });
});
