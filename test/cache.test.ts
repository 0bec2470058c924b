/**
 * RobotsCache against real HTTP servers on 127.0.0.1 (node:http), with a fake clock for
 * everything about time: docs/crawler-policy.md sections 2 to 4. The eviction bounds are also
 * checked against a model over random sequences of questions, through an injected fetch.
 */
import fc from "fast-check";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { initSync, Robots, RobotsCache, type RobotsCacheOptions } from "../src/index.js";
import { defaultEngine } from "../src/init.js";
import { resolveCacheOptions } from "../src/crawler-options.js";
import { redirect, silent, startServer, status, type TestServer, text, useServers } from "./support/robots-server.js";
import { fuzzRuns } from "./support/fuzz.js";
import { withCode } from "./support/robots-error.js";

initSync();

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const START = Date.UTC(2025, 0, 1);
const RULES = "User-agent: *\nDisallow: /private/\nAllow: /private/open\nCrawl-delay: 3\nSitemap: https://example.com/sitemap.xml\n";

let now = START;
const net = useServers("site", "mirror", "third");

/** What the cache counts for a fetch's strings: two bytes a character of its URLs and detail. */
function stringBytes(fetch: { url: string; finalUrl: string; detail: string }): number {
  return 2 * (fetch.url.length + fetch.finalUrl.length + fetch.detail.length);
}
const everyServer = () => [net.site, net.mirror, net.third];

afterEach(() => {
  vi.restoreAllMocks();
});

/** A fresh cache on the fake clock, the clock at START, request logs empty. */
function freshCache(options: RobotsCacheOptions = {}): RobotsCache {
  now = START;
  for (const server of everyServer()) server.reset();
  return new RobotsCache({ now: () => now, ...options });
}

describe("crawler-policy 4: a page is decided by the URL a crawler requests for it", () => {
  it.each([
    ["a `..` segment", "/public/../private/x"],
    ["a `.` segment", "/./private/x"],
    ["a backslash", "\\private\\x"],
    ["a tab", "/pri\tvate/x"],
  ])("%s: the WHATWG parser's path (what fetch sends) meets the rules", async (_, path) => {
    net.site.route("/robots.txt", text(RULES));
    const cache = freshCache();
    const page = `${net.site.origin}${path}`;
    expect(await cache.explain(page, "ExampleBot")).toMatchObject({ allowed: false, line: 2 });
    expect(await cache.isAllowed(page, "ExampleBot")).toBe(false);
    expect((await cache.classify([page, `${net.site.origin}/public`], "ExampleBot")).allowed).toEqual(new Uint8Array([0, 1]));
  });
});

describe("crawler-policy 4: answers per page", () => {
  it("follows the rules of a 200, with the deciding line, fetching robots.txt once", async () => {
    net.site.route("/robots.txt", text(RULES));
    const cache = freshCache();
    const denied = await cache.explain(`${net.site.origin}/private/x`, "ExampleBot");
    expect(denied).toEqual({
      allowed: false, reason: "rule", line: 2, rule: { kind: "disallow", pattern: "/private/", group: "global" },
      robotsUrl: `${net.site.origin}/robots.txt`, stale: false, fetch: expect.objectContaining({ status: 200, outcome: "ok", fetchedAt: START }),
    });
    expect(await cache.explain(`${net.site.origin}/private/open`, "ExampleBot")).toMatchObject({ allowed: true, reason: "rule", line: 3 });
    expect(await cache.explain(`${net.site.origin}/public`, "ExampleBot")).toMatchObject({ allowed: true, reason: "no-rule", line: 0 });
    expect(await cache.isAllowed(`${net.site.origin}/private/y`, "ExampleBot")).toBe(false);
    expect(await cache.crawlDelay(net.site.origin, "ExampleBot")).toBe(3);
    expect(await cache.sitemaps(`${net.site.origin}/any/page`)).toEqual(["https://example.com/sitemap.xml"]);
    expect(net.site.requests).toEqual(["/robots.txt"]);
  });

  it("parses a 200 HTML page like any body: no valid rule, everything allowed", async () => {
    net.site.route("/robots.txt", text("<!doctype html>\n<html><body><h1>Welcome</h1><p>Disallow: /</p></body></html>\n", { "content-type": "text/html" }));
    const cache = freshCache();
    expect(await cache.explain(`${net.site.origin}/anything`, "ExampleBot")).toMatchObject({ allowed: true, reason: "no-rule" });
    expect(await cache.describe(net.site.origin)).toMatchObject({ policy: "rules", groups: 0, stale: false });
  });

  it("RFC 9309 2.5: applies the rules within the first 512,000 bytes and ignores those after", async () => {
    const padding = "# padding\n".repeat(52_000);
    net.site.route("/robots.txt", text(`${RULES}${padding}User-agent: *\nDisallow: /late/\n`));
    const cache = freshCache();
    expect(await cache.isAllowed(`${net.site.origin}/private/x`, "ExampleBot")).toBe(false);
    expect(await cache.isAllowed(`${net.site.origin}/late/x`, "ExampleBot")).toBe(true);
    expect((await cache.describe(net.site.origin)).fetch).toMatchObject({ truncated: true, bytes: 512_000 });
  });

  it.each([401, 403, 404, 410])("RFC 9309 2.3.1.3: HTTP %i means unavailable: everything allowed", async (code) => {
    net.site.route("/robots.txt", status(code));
    const cache = freshCache();
    expect(await cache.explain(`${net.site.origin}/private/x`, "ExampleBot")).toMatchObject({
      allowed: true, reason: "unavailable", line: 0, fetch: expect.objectContaining({ status: code }),
    });
    expect(await cache.crawlDelay(net.site.origin, "ExampleBot")).toBeUndefined();
    expect(await cache.sitemaps(net.site.origin)).toEqual([]);
  });

  it.each([429, 500, 503])("RFC 9309 2.3.1.4: HTTP %i means unreachable: everything disallowed", async (code) => {
    net.site.route("/robots.txt", status(code));
    const cache = freshCache();
    expect(await cache.explain(`${net.site.origin}/public`, "ExampleBot")).toMatchObject({ allowed: false, reason: "unreachable" });
    expect(await cache.describe(net.site.origin)).toMatchObject({ policy: "disallow-all", expiresAt: START + 10 * MINUTE });
  });

  it("maps 429 to unavailable when configured so", async () => {
    net.site.route("/robots.txt", status(429));
    const cache = freshCache({ on429: "unavailable" });
    expect(await cache.explain(`${net.site.origin}/public`, "ExampleBot")).toMatchObject({ allowed: true, reason: "unavailable" });
  });

  it("RFC 9309 2.3.1.4: a server that never answers is unreachable", async () => {
    net.site.route("/robots.txt", silent);
    const cache = freshCache({ connectTimeout: 30 });
    expect(await cache.explain(`${net.site.origin}/public`, "ExampleBot")).toMatchObject({
      allowed: false, reason: "unreachable", fetch: expect.objectContaining({ reason: "timeout" }),
    });
  });

  it("RFC 9309 2.3.1.2: rules found through five redirects apply to the original origin", async () => {
    for (let i = 0; i < 5; i++) net.site.route(i === 0 ? "/robots.txt" : `/r${i}`, redirect(`/r${i + 1}`));
    net.site.route("/r5", text(RULES));
    const cache = freshCache();
    expect(await cache.explain(`${net.site.origin}/private/x`, "ExampleBot")).toMatchObject({ allowed: false, reason: "rule" });
  });

  it("RFC 9309 2.3.1.2: six redirects, or a loop, count as unavailable with the reason redirect-limit", async () => {
    for (let i = 0; i < 6; i++) net.site.route(i === 0 ? "/robots.txt" : `/r${i}`, redirect(`/r${i + 1}`));
    net.site.route("/r6", text(RULES));
    net.mirror.route("/robots.txt", redirect("/loop"));
    net.mirror.route("/loop", redirect("/robots.txt"));
    const cache = freshCache();
    expect(await cache.explain(`${net.site.origin}/private/x`, "ExampleBot")).toMatchObject({
      allowed: true, reason: "redirect-limit", fetch: expect.objectContaining({ reason: "redirect-limit" }),
    });
    expect(await cache.explain(`${net.mirror.origin}/private/x`, "ExampleBot")).toMatchObject({
      allowed: true, reason: "redirect-limit", fetch: expect.objectContaining({ reason: "redirect-loop" }),
    });
    expect(net.site.requests).not.toContain("/r6");
  });

  it("applies rules found on another port to the original origin only", async () => {
    net.site.route("/robots.txt", redirect(`${net.mirror.origin}/robots.txt`));
    net.mirror.route("/robots.txt", text("User-agent: *\nDisallow: /\n"));
    const cache = freshCache();
    expect(await cache.isAllowed(`${net.site.origin}/page`, "ExampleBot")).toBe(false);
    expect((await cache.describe(net.site.origin)).fetch.finalUrl).toBe(`${net.mirror.origin}/robots.txt`);
    expect(cache.size).toBe(1);
    // The mirror's own pages are governed by its own fetch, cached under its own origin.
    await cache.isAllowed(`${net.mirror.origin}/page`, "ExampleBot");
    expect(net.mirror.requests).toEqual(["/robots.txt", "/robots.txt"]);
    expect(cache.size).toBe(2);
  });
});

describe("RFC 9309 2.4: caching with max-age and a fake clock", () => {
  it("keeps a copy 24 hours, then fetches again and follows the new rules", async () => {
    net.site.route("/robots.txt", text(RULES));
    const cache = freshCache();
    expect(await cache.isAllowed(`${net.site.origin}/private/x`, "ExampleBot")).toBe(false);
    expect((await cache.describe(net.site.origin)).expiresAt).toBe(START + DAY);
    net.site.route("/robots.txt", text("User-agent: *\nDisallow: /other/\n"));
    now = START + DAY - 1;
    expect(await cache.isAllowed(`${net.site.origin}/private/x`, "ExampleBot")).toBe(false);
    expect(net.site.requests).toHaveLength(1);
    now = START + DAY;
    expect(await cache.isAllowed(`${net.site.origin}/private/x`, "ExampleBot")).toBe(true);
    expect(await cache.isAllowed(`${net.site.origin}/other/x`, "ExampleBot")).toBe(false);
    expect(net.site.requests).toHaveLength(2);
  });

  it("honours a max-age shorter than the cap", async () => {
    net.site.route("/robots.txt", text(RULES, { "cache-control": "max-age=3600" }));
    const cache = freshCache();
    await cache.isAllowed(`${net.site.origin}/`, "ExampleBot");
    expect(await cache.describe(net.site.origin)).toMatchObject({ expiresAt: START + HOUR, fetch: expect.objectContaining({ maxAge: 3600 }) });
    now = START + HOUR - 1;
    await cache.isAllowed(`${net.site.origin}/`, "ExampleBot");
    expect(net.site.requests).toHaveLength(1);
    now = START + HOUR;
    await cache.isAllowed(`${net.site.origin}/`, "ExampleBot");
    expect(net.site.requests).toHaveLength(2);
  });

  it.each([
    ["600", START + HOUR - 600_000],
    // Older than its max-age: as max-age=0, kept for minTtl (a minute by default).
    ["7200", START + 60_000],
    // Not delta-seconds: no Age.
    ["1.5", START + HOUR],
    // Two Age fields: the first counts (RFC 9111 5.1).
    ["60, 120", START + HOUR - 60_000],
  ])("counts an Age of %s against max-age=3600: a CDN's copy is that much older (RFC 9111 4.2.3)", async (age, expiresAt) => {
    net.site.route("/robots.txt", text(RULES, { "cache-control": "max-age=3600", age }));
    const cache = freshCache();
    expect(await cache.describe(net.site.origin)).toMatchObject({ expiresAt, fetch: expect.objectContaining({ maxAge: 3600 }) });
  });

  it("does not shorten the default ttl by an Age without max-age", async () => {
    net.site.route("/robots.txt", text(RULES, { age: "3600" }));
    const cache = freshCache();
    expect(await cache.describe(net.site.origin)).toMatchObject({ expiresAt: START + DAY, fetch: expect.objectContaining({ age: 3600, maxAge: null }) });
  });

  it("refetches when the clock steps back past the fetch: a copy is not kept longer than its lifetime", async () => {
    net.site.route("/robots.txt", status(503));
    const cache = freshCache();
    expect(await cache.isAllowed(`${net.site.origin}/x`, "ExampleBot")).toBe(false);
    net.site.route("/robots.txt", text(RULES));
    now = START - 2 * DAY;
    expect(await cache.isAllowed(`${net.site.origin}/x`, "ExampleBot")).toBe(true);
    expect(net.site.requests).toHaveLength(2);
  });

  it("refuses a URL longer than MAX_URL_BYTES in classify before any fetch, by its index in the list", async () => {
    const cache = freshCache();
    const long = `${net.site.origin}/${"a".repeat(16 << 20)}`;
    await expect(cache.classify([`${net.site.origin}/`, long], "ExampleBot")).rejects.toThrow(/^URL at index 1: the URL is \d+ bytes long/);
    expect(net.site.requests).toHaveLength(0);
  });

  it("refuses such a URL in isAllowed and explain before any fetch too, whatever the site's policy", async () => {
    const cache = freshCache();
    const long = `${net.site.origin}/${"a".repeat(16 << 20)}`;
    await expect(cache.isAllowed(long, "ExampleBot")).rejects.toThrow(expect.objectContaining({ code: "ROBOTS_ERR_INVALID_URL" }));
    await expect(cache.explain(long, "ExampleBot")).rejects.toThrow(expect.objectContaining({ code: "ROBOTS_ERR_INVALID_URL" }));
    expect(net.site.requests).toHaveLength(0);
  });

  it("answers crawlDelay, sitemaps and describe for such a URL: they need only its origin", async () => {
    net.site.route("/robots.txt", text("User-agent: *\nCrawl-delay: 5\nSitemap: https://example.com/s.xml\n"));
    const cache = freshCache();
    const long = `${net.site.origin}/${"a".repeat(16 << 20)}`;
    expect(await cache.crawlDelay(long, "ExampleBot")).toBe(5);
    expect(await cache.sitemaps(long)).toEqual(["https://example.com/s.xml"]);
    expect((await cache.describe(long)).fetch?.status).toBe(200);
  });

  it("caps a max-age longer than the cap (24 hours by default)", async () => {
    net.site.route("/robots.txt", text(RULES, { "cache-control": "max-age=604800" }));
    const cache = freshCache();
    expect((await cache.describe(net.site.origin)).expiresAt).toBe(START + DAY);
  });

  it.each([
    [2 * DAY / 1000, START + 2 * DAY],
    [7 * DAY / 1000, START + 3 * DAY],
  ])("lengthens up to a configured cap: max-age=%i expires at START + its lifetime", async (maxAge, expiresAt) => {
    net.site.route("/robots.txt", text(RULES, { "cache-control": `max-age=${maxAge}` }));
    const cache = freshCache({ maxTtl: 3 * DAY });
    expect((await cache.describe(net.site.origin)).expiresAt).toBe(expiresAt);
  });

  it("keeps even a max-age=0 answer for minTtl, so robots.txt is not fetched before every page", async () => {
    net.site.route("/robots.txt", text(RULES, { "cache-control": "max-age=0" }));
    const cache = freshCache();
    expect((await cache.describe(net.site.origin)).expiresAt).toBe(START + MINUTE);
  });

  it("caches 4xx answers for the same lifetime as rules", async () => {
    net.site.route("/robots.txt", status(404, { "cache-control": "max-age=7200" }));
    const cache = freshCache();
    expect((await cache.describe(net.site.origin)).expiresAt).toBe(START + 2 * HOUR);
  });
});

describe("crawler-policy 3: concurrent questions share one fetch", () => {
  it("makes exactly one request for 100 concurrent isAllowed calls, and one per refresh", async () => {
    net.site.route("/robots.txt", (_request, response) => {
      setTimeout(() => text(RULES)(_request, response), 20);
    });
    const cache = freshCache();
    const ask = () => Promise.all(Array.from({ length: 100 }, (_, i) => cache.isAllowed(`${net.site.origin}/private/${i}`, "ExampleBot")));
    expect(await ask()).toEqual(new Array(100).fill(false));
    expect(net.site.requests).toHaveLength(1);
    now = START + DAY;
    expect(await ask()).toEqual(new Array(100).fill(false));
    expect(net.site.requests).toHaveLength(2);
  });

  it("shares the fetch between different kinds of question", async () => {
    net.site.route("/robots.txt", text(RULES));
    const cache = freshCache();
    const answers = await Promise.all([
      cache.isAllowed(`${net.site.origin}/a`, "ExampleBot"),
      cache.explain(`${net.site.origin}/private/b`, "ExampleBot"),
      cache.crawlDelay(net.site.origin, "ExampleBot"),
      cache.sitemaps(net.site.origin),
      cache.classify([`${net.site.origin}/c`, `${net.site.origin}/private/d`], "ExampleBot"),
      cache.describe(net.site.origin),
    ]);
    expect(answers[0]).toBe(true);
    expect(answers[1]).toMatchObject({ allowed: false });
    expect(answers[2]).toBe(3);
    expect(net.site.requests).toHaveLength(1);
  });
});

describe("RFC 9309 2.3.1.4 and 2.4: unreachable refreshes keep the last good copy for 30 days", () => {
  async function goodThenFailing(options: RobotsCacheOptions = {}) {
    net.site.route("/robots.txt", text(RULES));
    const cache = freshCache(options);
    await cache.isAllowed(`${net.site.origin}/`, "ExampleBot");
    net.site.route("/robots.txt", status(503));
    now = START + DAY;
    return cache;
  }

  it("answers from the last good copy, marked stale, while refreshes fail", async () => {
    const cache = await goodThenFailing();
    const failedAt = START + DAY;
    expect(await cache.explain(`${net.site.origin}/private/x`, "ExampleBot")).toMatchObject({
      allowed: false, reason: "rule", line: 2, stale: true, fetch: expect.objectContaining({ status: 503, outcome: "unreachable" }),
    });
    expect(await cache.explain(`${net.site.origin}/public`, "ExampleBot")).toMatchObject({ allowed: true, reason: "no-rule", stale: true });
    expect(await cache.describe(net.site.origin)).toMatchObject({
      policy: "rules", stale: true, unreachableSince: failedAt, expiresAt: failedAt + 10 * MINUTE,
      rulesFetch: expect.objectContaining({ status: 200, fetchedAt: START }),
    });
    // Retried after retryInterval; the failures' start stays where it was.
    now = failedAt + 10 * MINUTE;
    await cache.isAllowed(`${net.site.origin}/`, "ExampleBot");
    expect(net.site.requests).toHaveLength(3);
    expect(await cache.describe(net.site.origin)).toMatchObject({ stale: true, unreachableSince: failedAt });
  });

  it("keeps the copy up to 30 days of failures, then allows everything (the RFC's unavailable)", async () => {
    const cache = await goodThenFailing();
    const failedAt = START + DAY;
    await cache.isAllowed(`${net.site.origin}/`, "ExampleBot");
    now = failedAt + 30 * DAY - 1;
    expect(await cache.explain(`${net.site.origin}/private/x`, "ExampleBot")).toMatchObject({ allowed: false, reason: "rule", stale: true });
    now = failedAt + 30 * DAY;
    expect(await cache.explain(`${net.site.origin}/private/x`, "ExampleBot")).toMatchObject({ allowed: true, reason: "unreachable", stale: false });
    expect(await cache.describe(net.site.origin)).toMatchObject({ policy: "allow-all", rulesFetch: null });
    // The first refresh past the limit drops the copy, and its memory with it: the latest fetch's strings stay.
    const withCopy = cache.bytes;
    now = failedAt + 30 * DAY + 10 * MINUTE;
    expect(await cache.isAllowed(`${net.site.origin}/private/x`, "ExampleBot")).toBe(true);
    expect(cache.bytes).toBe(stringBytes((await cache.describe(net.site.origin)).fetch));
    expect(cache.bytes).toBeLessThan(withCopy / 10);
  });

  it("allows a site whose fetch fails on the network when onNetworkFailure is \"unavailable\", and tries again after retryInterval", async () => {
    const cache = freshCache({ onNetworkFailure: "unavailable", fetch: () => Promise.reject(new TypeError("fetch failed")) });
    expect(await cache.explain(`${net.site.origin}/private/x`, "ExampleBot")).toMatchObject({
      allowed: true, reason: "unavailable", fetch: expect.objectContaining({ outcome: "unavailable", reason: "network-error" }),
    });
    expect(await cache.describe(net.site.origin)).toMatchObject({ policy: "allow-all", expiresAt: START + 10 * MINUTE, unreachableSince: START });
  });

  it.each([
    ["a server that stops answering", () => net.site.route("/robots.txt", silent), "timeout"],
    ["a connection cut before the response", () => net.site.route("/robots.txt", (_request, response) => response.socket?.destroy()), "network-error"],
  ] as const)("keeps the copy through %s when network failures count as unavailable: the failure says nothing of the rules", async (_, fail, reason) => {
    net.site.route("/robots.txt", text(RULES));
    const cache = freshCache({ onNetworkFailure: "unavailable", connectTimeout: 30 });
    await cache.isAllowed(`${net.site.origin}/`, "ExampleBot");
    fail();
    const failedAt = START + DAY;
    now = failedAt;
    expect(await cache.explain(`${net.site.origin}/private/x`, "ExampleBot")).toMatchObject({
      allowed: false, reason: "rule", stale: true, fetch: expect.objectContaining({ outcome: "unavailable", reason }),
    });
    expect(await cache.describe(net.site.origin)).toMatchObject({
      policy: "rules", stale: true, unreachableSince: failedAt, expiresAt: failedAt + 10 * MINUTE,
    });
    // Past 30 days of failures the option's answer stands.
    now = failedAt + 30 * DAY;
    expect(await cache.explain(`${net.site.origin}/private/x`, "ExampleBot")).toMatchObject({ allowed: true, reason: "unavailable", stale: false });
  });

  it("disallows a site never fetched successfully for 30 days of failures, then allows everything", async () => {
    net.site.route("/robots.txt", status(503));
    const cache = freshCache();
    expect(await cache.explain(`${net.site.origin}/public`, "ExampleBot")).toMatchObject({ allowed: false, reason: "unreachable" });
    // Retried every retryInterval; the failures' start stays at the first.
    now = START + 30 * DAY - 1;
    expect(await cache.explain(`${net.site.origin}/public`, "ExampleBot")).toMatchObject({ allowed: false, reason: "unreachable" });
    expect(await cache.describe(net.site.origin)).toMatchObject({ policy: "disallow-all", unreachableSince: START });
    now = START + 30 * DAY;
    expect(await cache.explain(`${net.site.origin}/public`, "ExampleBot")).toMatchObject({ allowed: true, reason: "unreachable" });
    expect(await cache.describe(net.site.origin)).toMatchObject({ policy: "allow-all", rulesFetch: null });
  });

  it("counts 30 days of failures from the last answer: a 4xx in between starts the count again", async () => {
    net.site.route("/robots.txt", status(503));
    const cache = freshCache();
    await cache.isAllowed(`${net.site.origin}/public`, "ExampleBot");
    net.site.route("/robots.txt", status(404));
    now = START + 29 * DAY;
    expect(await cache.explain(`${net.site.origin}/public`, "ExampleBot")).toMatchObject({ allowed: true, reason: "unavailable" });
    expect(await cache.describe(net.site.origin)).toMatchObject({ unreachableSince: null });
    net.site.route("/robots.txt", status(503));
    now = START + 31 * DAY;
    expect(await cache.explain(`${net.site.origin}/public`, "ExampleBot")).toMatchObject({ allowed: false, reason: "unreachable" });
    expect(await cache.describe(net.site.origin)).toMatchObject({ policy: "disallow-all", unreachableSince: START + 31 * DAY });
  });

  it("disallows everything after 30 days when configured so", async () => {
    const cache = await goodThenFailing({ afterUnreachableLimit: "disallow-all" });
    await cache.isAllowed(`${net.site.origin}/`, "ExampleBot");
    now = START + DAY + 30 * DAY;
    expect(await cache.explain(`${net.site.origin}/public`, "ExampleBot")).toMatchObject({ allowed: false, reason: "unreachable" });
  });

  it("returns to fresh rules when the server recovers", async () => {
    const cache = await goodThenFailing();
    await cache.isAllowed(`${net.site.origin}/`, "ExampleBot");
    net.site.route("/robots.txt", text("User-agent: *\nDisallow: /new/\n"));
    now = START + DAY + HOUR;
    expect(await cache.explain(`${net.site.origin}/new/x`, "ExampleBot")).toMatchObject({ allowed: false, stale: false });
    expect(await cache.describe(net.site.origin)).toMatchObject({ unreachableSince: null, stale: false });
  });

  it("disallows everything when there is no good copy: a first fetch failing, or a 4xx before the failures", async () => {
    net.site.route("/robots.txt", status(404));
    const cache = freshCache();
    expect(await cache.isAllowed(`${net.site.origin}/x`, "ExampleBot")).toBe(true);
    net.site.route("/robots.txt", status(500));
    now = START + DAY;
    expect(await cache.explain(`${net.site.origin}/x`, "ExampleBot")).toMatchObject({ allowed: false, reason: "unreachable" });
  });
});

describe("crawler-policy 3: bounded by entries and bytes, least recently used out", () => {
  /** Fetches the three origins in order and returns their compiled tables, in parse order. */
  async function fill(cache: RobotsCache, order: TestServer[]): Promise<Robots[]> {
    const parse = vi.spyOn(Robots, "parse");
    for (const server of order) await cache.isAllowed(`${server.origin}/`, "ExampleBot");
    return parse.mock.results.map((result) => result.value as Robots);
  }

  /** An ok entry: table, body, and its fetch's strings twice (as the latest fetch and as the good copy's). */
  async function bytesOf(cache: RobotsCache, server: TestServer, robots: Robots, body: string): Promise<number> {
    const { fetch } = await cache.describe(server.origin);
    return robots.tableBytes + new TextEncoder().encode(body).length + 2 * stringBytes(fetch);
  }

  it("evicts the least recently used origin beyond maxEntries and frees its table", async () => {
    for (const server of everyServer()) server.route("/robots.txt", text(RULES));
    const cache = freshCache({ maxEntries: 2 });
    const [first, second, last] = await fill(cache, everyServer());
    expect(cache.size).toBe(2);
    expect(() => first.tableBytes).toThrow(withCode("ROBOTS_ERR_DISPOSED"));
    const held = (await bytesOf(cache, net.mirror, second, RULES)) + (await bytesOf(cache, net.third, last, RULES));
    expect(cache.bytes).toBe(held);
    // The evicted origin is fetched again when asked about; the others are still cached.
    await cache.isAllowed(`${net.site.origin}/`, "ExampleBot");
    await cache.isAllowed(`${net.third.origin}/`, "ExampleBot");
    expect([net.site.requests.length, net.third.requests.length]).toEqual([2, 1]);
  });

  it("counts use, not insertion: the origin asked about last survives", async () => {
    for (const server of everyServer()) server.route("/robots.txt", text(RULES));
    const cache = freshCache({ maxEntries: 2 });
    await fill(cache, [net.site, net.mirror]);
    await cache.isAllowed(`${net.site.origin}/again`, "ExampleBot");
    await cache.isAllowed(`${net.third.origin}/`, "ExampleBot");
    expect(cache.toJSON().entries.map((entry) => entry.origin)).toEqual([net.site.origin, net.third.origin]);
  });

  it("evicts beyond maxTotalBytes, counting bodies and compiled tables", async () => {
    const big = `User-agent: *\n${Array.from({ length: 2_000 }, (_, i) => `Disallow: /dir-${i}/*.php$`).join("\n")}\n`;
    for (const server of everyServer()) server.route("/robots.txt", text(big));
    const probe = Robots.parse(big);
    probe.isAllowed("/", "ExampleBot"); // a table grows when it first answers for an agent
    // The entry's fetch strings: its URLs (as long as the other servers') and "HTTP 200", twice.
    const entryBytes = probe.tableBytes + big.length + 2 * 2 * (2 * `${net.site.origin}/robots.txt`.length + "HTTP 200".length);
    probe.dispose();
    const cache = freshCache({ maxTotalBytes: Math.floor(entryBytes * 2.5) });
    const [first, second, last] = await fill(cache, everyServer());
    expect(cache.size).toBe(2);
    expect(cache.bytes).toBe((await bytesOf(cache, net.mirror, second, big)) + (await bytesOf(cache, net.third, last, big)));
    expect(cache.bytes).toBeLessThanOrEqual(entryBytes * 2.5);
    expect(() => first.isAllowed("/", "x")).toThrow(/disposed/);
  });

  it("reuses freed WASM memory: evicting and refetching for ever does not grow linear memory", async () => {
    const big = `User-agent: *\n${Array.from({ length: 3_000 }, (_, i) => `Disallow: /d${i}/*x$`).join("\n")}\n`;
    for (const server of everyServer()) server.route("/robots.txt", text(big));
    const cache = freshCache({ maxEntries: 1 });
    const servers = everyServer();
    const round = async (count: number) => {
      for (let i = 0; i < count; i++) await cache.isAllowed(`${servers[i % 3].origin}/`, "ExampleBot");
    };
    await round(30);
    const memory = defaultEngine("the test").exports.memory;
    const warm = memory.buffer.byteLength;
    await round(150);
    // Without dispose on eviction, 150 tables of this size would need several more megabytes.
    expect(memory.buffer.byteLength).toBe(warm);
    expect(cache.size).toBe(1);
  });

  it("counts the strings of each fetch kept: a server's long redirect target is bounded too", async () => {
    // A Location of 2,000 0xFF bytes that redirects to itself: its finalUrl and the loop's detail
    // are 12,000 characters each (percent-encoded); a server of longer ones (15,000 bytes, 90,000
    // characters each) made 2,000 entries hold 363 MiB that the byte bound did not see.
    for (const server of everyServer()) {
      server.route("/robots.txt", redirect("\xff".repeat(2_000)));
      server.route(`/${"%C3%BF".repeat(2_000)}`, redirect("\xff".repeat(2_000)));
    }
    const cache = freshCache({ maxTotalBytes: 80_000 });
    await fill(cache, [net.site]);
    const { fetch } = await cache.describe(net.site.origin);
    expect(fetch).toMatchObject({ reason: "redirect-loop" });
    expect(fetch.finalUrl.length).toBeGreaterThan(12_000);
    expect(cache.bytes).toBe(stringBytes(fetch));
    expect(cache.bytes).toBeGreaterThan(48_000);
    // Two such entries pass the bound: the least recently used goes.
    await fill(cache, [net.mirror, net.third]);
    expect(cache.toJSON().entries.map((entry) => entry.origin)).toEqual([net.third.origin]);
  });

  it("clear() drops every entry and frees its table", async () => {
    net.site.route("/robots.txt", text(RULES));
    const cache = freshCache();
    const [robots] = await fill(cache, [net.site]);
    cache.clear();
    expect([cache.size, cache.bytes]).toEqual([0, 0]);
    expect(() => robots.sitemaps).toThrow(/disposed/);
  });
});

describe("crawler-policy 3: the bounds under any sequence of questions (fast-check, an injected fetch)", () => {
  const { seed, numRuns } = fuzzRuns(20261126, 100);
  /** Origin k's robots.txt: k rules, so that origins differ in size. */
  const bodyOf = (k: number) => `User-agent: *\n${Array.from({ length: k * 40 }, (_, i) => `Disallow: /o${k}/p${i}/*.x$`).join("\n")}\n`;
  const originNamed = (k: number) => `https://o${k}.example`;

  /** A cache on a frozen clock whose fetch serves bodyOf and logs the origins it fetched. */
  function cacheFetching(options: RobotsCacheOptions, fetched: string[]): RobotsCache {
    return new RobotsCache({
      ...options,
      now: () => START,
      fetch: async (input) => {
        const { origin } = new URL(String(input));
        fetched.push(origin);
        return new Response(bodyOf(Number(/o(\d+)/.exec(origin)![1])));
      },
    });
  }

  it("keeps the most recently used maxEntries origins, in that order, and fetches only the others", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 4 }), fc.array(fc.integer({ min: 0, max: 6 }), { minLength: 1, maxLength: 30 }), async (maxEntries, asks) => {
        const fetched: string[] = [];
        const cache = cacheFetching({ maxEntries }, fetched);
        // The model: origins from least to most recently used, and the fetches a miss makes.
        const model: string[] = [];
        const misses: string[] = [];
        for (const k of asks) {
          const origin = originNamed(k);
          const at = model.indexOf(origin);
          if (at >= 0) model.splice(at, 1);
          else misses.push(origin);
          model.push(origin);
          if (model.length > maxEntries) model.shift();
          await cache.isAllowed(`${origin}/o${k}/p1/a.x`, "ExampleBot");
          expect(cache.toJSON().entries.map((entry) => entry.origin)).toEqual(model);
        }
        expect(fetched).toEqual(misses);
        cache.clear();
      }),
      { seed, numRuns },
    );
  });

  it("stays within maxTotalBytes, unless the origin just asked about exceeds it alone", async () => {
    const one = cacheFetching({}, []);
    await one.isAllowed(`${originNamed(6)}/`, "ExampleBot");
    const largest = one.bytes;
    one.clear();
    let runsWithEvictions = 0;
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 3 * largest }), fc.array(fc.integer({ min: 0, max: 6 }), { minLength: 1, maxLength: 30 }), async (maxTotalBytes, asks) => {
        const cache = cacheFetching({ maxTotalBytes }, []);
        const asked = new Set<string>();
        for (const k of asks) {
          asked.add(originNamed(k));
          await cache.isAllowed(`${originNamed(k)}/o${k}/p2/b.x`, "ExampleBot");
          const origins = cache.toJSON().entries.map((entry) => entry.origin);
          expect(origins.at(-1)).toBe(originNamed(k));
          if (cache.bytes > maxTotalBytes) expect(origins).toEqual([originNamed(k)]);
        }
        if (cache.size < asked.size) runsWithEvictions++;
        cache.clear();
        expect([cache.size, cache.bytes]).toEqual([0, 0]);
      }),
      { seed, numRuns },
    );
    // Not vacuous: the byte bound evicted origins in many runs.
    expect(runsWithEvictions).toBeGreaterThan(numRuns / 4);
  });
});

describe("crawler-policy 4: classify a batch over many origins", () => {
  const ORIGINS = 50;
  const URLS = 10_000;
  const CONCURRENCY = 4;
  let servers: TestServer[] = [];
  let active = 0;
  let mostActive = 0;

  /** Origin i: rules for most, 404 when i % 10 is 8, 503 when it is 9. */
  function kindOf(i: number): "rules" | "404" | "503" {
    return i % 10 === 8 ? "404" : i % 10 === 9 ? "503" : "rules";
  }

  beforeAll(async () => {
    servers = await Promise.all(Array.from({ length: ORIGINS }, () => startServer()));
    servers.forEach((server, i) => {
      const respond = kindOf(i) === "rules" ? text(`User-agent: *\nDisallow: /private-${i % 7}/\nAllow: /private-${i % 7}/open\n`) : status(Number(kindOf(i)));
      server.route("/robots.txt", (request, response) => {
        active++;
        mostActive = Math.max(mostActive, active);
        // Held briefly so that fetches overlap and the concurrency bound is exercised.
        setTimeout(() => {
          active--;
          respond(request, response);
        }, 20);
      });
    });
  });

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()));
  });

  /** URL k: its origin, and a path that hits the disallow, the allow, or no rule. */
  function urlOf(k: number): { url: string; allowed: number; line: number; reason: string } {
    const o = (k * 7) % ORIGINS;
    const base = servers[o].origin;
    const kind = kindOf(o);
    if (kind === "404") return { url: `${base}/private-${o % 7}/x${k}`, allowed: 1, line: 0, reason: "unavailable" };
    if (kind === "503") return { url: `${base}/public/${k}`, allowed: 0, line: 0, reason: "unreachable" };
    switch (k % 4) {
      case 0: return { url: `${base}/private-${o % 7}/x${k}`, allowed: 0, line: 2, reason: "rule" };
      case 1: return { url: `${base}/private-${o % 7}/open${k}`, allowed: 1, line: 3, reason: "rule" };
      case 2: return { url: `${base}/public/${k}`, allowed: 1, line: 0, reason: "no-rule" };
      default: return { url: `${base}/private-${(o + 1) % 7}/y`, allowed: 1, line: 0, reason: "no-rule" };
    }
  }

  it("answers 10,000 URLs over 50 origins in input order, one fetch and one engine call per origin", async () => {
    const expected = Array.from({ length: URLS }, (_, k) => urlOf(k));
    const calls = vi.spyOn(Robots.prototype, "classifyWithLines");
    const cache = freshCache({ concurrency: CONCURRENCY });
    const result = await cache.classify(expected.map((e) => e.url), "ExampleBot");
    expect(Array.from(result.allowed)).toEqual(expected.map((e) => e.allowed));
    expect(Array.from(result.lines)).toEqual(expected.map((e) => e.line));
    expect(result.reasons).toEqual(expected.map((e) => e.reason));
    expect(servers.map((server) => server.requests.length)).toEqual(new Array(ORIGINS).fill(1));
    const ruleOrigins = servers.filter((_, i) => kindOf(i) === "rules").length;
    expect(calls).toHaveBeenCalledTimes(ruleOrigins);
    expect(mostActive).toBeLessThanOrEqual(CONCURRENCY);
    expect(mostActive).toBeGreaterThan(1);
    expect(cache.size).toBe(ORIGINS);
    // A second batch is answered from the cache.
    await cache.classify(expected.slice(0, 100).map((e) => e.url), "ExampleBot");
    expect(servers.map((server) => server.requests.length)).toEqual(new Array(ORIGINS).fill(1));
  });

  it("throws for an invalid URL with its index, before fetching anything", async () => {
    const cache = freshCache();
    servers.forEach((server) => server.reset());
    const urls = [`${servers[0].origin}/a`, "mailto:x@example.com", `${servers[1].origin}/b`];
    await expect(cache.classify(urls, "ExampleBot")).rejects.toMatchObject({
      code: "ROBOTS_ERR_UNSUPPORTED_SCHEME", message: expect.stringMatching(/^URL at index 1: /),
    });
    expect(servers[0].requests.length + servers[1].requests.length).toBe(0);
  });

  it("answers an empty batch without fetching", async () => {
    const cache = freshCache();
    expect(await cache.classify([], "ExampleBot")).toEqual({ allowed: new Uint8Array(0), lines: new Uint32Array(0), reasons: [] });
  });
});

describe("toJSON / fromJSON: a cache saved and loaded", () => {
  it("answers the same after a round trip through JSON text, without fetching", async () => {
    const binaryRules = `User-agent: *\nDisallow: /caf\u00e9/\n# \u00ff\u0000\u00fe\n`;
    net.site.route("/robots.txt", text(new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(binaryRules), 0xff, 0xfe])));
    net.mirror.route("/robots.txt", status(404));
    net.third.route("/robots.txt", text(RULES, { "cache-control": "max-age=3600" }));
    const cache = freshCache();
    await cache.isAllowed(`${net.site.origin}/`, "ExampleBot");
    await cache.isAllowed(`${net.mirror.origin}/`, "ExampleBot");
    await cache.isAllowed(`${net.third.origin}/`, "ExampleBot");
    net.third.route("/robots.txt", status(503));
    now = START + HOUR;
    await cache.isAllowed(`${net.third.origin}/`, "ExampleBot");

    const saved = JSON.stringify(cache);
    const loaded = RobotsCache.fromJSON(JSON.parse(saved), { now: () => now });
    const requests = everyServer().map((server) => server.requests.length);
    const questions = [`${net.site.origin}/caf%C3%A9/x`, `${net.mirror.origin}/x`, `${net.third.origin}/private/x`, `${net.third.origin}/public`];
    for (const url of questions) expect(await loaded.explain(url, "ExampleBot")).toEqual(await cache.explain(url, "ExampleBot"));
    expect(await loaded.explain(`${net.third.origin}/private/x`, "ExampleBot")).toMatchObject({ allowed: false, stale: true });
    expect(everyServer().map((server) => server.requests.length)).toEqual(requests);
    expect(loaded.toJSON()).toEqual(JSON.parse(saved));
    expect(loaded.bytes).toBe(cache.bytes);
  });

  it.each([
    ["null", null],
    ["another format", { format: "other", version: 1, entries: [] }],
    ["a newer version", { format: "robots-wasm/cache", version: 2, entries: [] }],
    ["a non-canonical origin", { format: "robots-wasm/cache", version: 1, entries: [{ origin: "HTTP://Example.com:80" }] }],
    ["an entry without fetch metadata", { format: "robots-wasm/cache", version: 1, entries: [{ origin: "http://example.com", expiresAt: 0, unreachableSince: null, good: null }] }],
  ])("refuses %s with ROBOTS_ERR_INVALID_CACHE_DATA", (_, data) => {
    expect(() => RobotsCache.fromJSON(data as never)).toThrow(withCode("ROBOTS_ERR_INVALID_CACHE_DATA"));
  });
});

describe("misuse throws typed errors, before any fetch", () => {
  it.each([
    [() => new RobotsCache().isAllowed("mailto:x@example.com", "bot"), "ROBOTS_ERR_UNSUPPORTED_SCHEME"],
    [() => new RobotsCache().explain("/relative", "bot"), "ROBOTS_ERR_INVALID_URL"],
    [() => new RobotsCache().isAllowed("http://127.0.0.1:1/", 42 as never), "ROBOTS_ERR_INVALID_AGENT"],
  ])("%#: rejects with %s", async (run, code) => {
    await expect(run()).rejects.toThrow(withCode(code));
  });

  it("refuses ftp pages with the platform fetch, and fetches their robots.txt through an injected fetch", async () => {
    await expect(new RobotsCache().isAllowed("ftp://files.example/pub/x", "bot")).rejects.toThrow(withCode("ROBOTS_ERR_UNSUPPORTED_SCHEME"));
    const seen: string[] = [];
    const cache = new RobotsCache({
      fetch: async (input) => {
        seen.push(String(input));
        return new Response("User-agent: *\nDisallow: /pub/\n");
      },
    });
    expect(await cache.isAllowed("ftp://files.example/pub/x", "bot")).toBe(false);
    expect(seen).toEqual(["ftp://files.example/robots.txt"]);
  });

  it.each([
    [{ ttl: 2 * DAY }, /ttl must lie between minTtl and maxTtl/],
    [{ maxEntries: 0 }, /maxEntries must be a positive integer/],
    [{ afterUnreachableLimit: "maybe" }, /afterUnreachableLimit must be "allow-all" or "disallow-all"/],
    [{ maxBytes: 100 }, /maxBytes must be an integer of at least 512000/],
    [{ cacheSize: 5 }, /unknown option "cacheSize"/],
    [{ connectTimeout: 0 }, /connectTimeout must be a positive number of milliseconds/],
    [{ totalTimeout: -1 }, /totalTimeout must be a positive number of milliseconds/],
    [{ userAgent: "Bot/1.0\r\nX-Injected: 1" }, /userAgent must be a string without control characters/],
    [{ userAgent: "Bot\u0000" }, /userAgent must be a string without control characters/],
    // Every control but the tab: the fetch refuses such a header, and every site would be "unreachable".
    [{ userAgent: "Bot\u0001" }, /userAgent must be a string without control characters/],
    [{ userAgent: "Bot\u001b[0m" }, /userAgent must be a string without control characters/],
    [{ userAgent: "Bot\u007f" }, /userAgent must be a string without control characters/],
    [{ userAgent: "Bot \u2603" }, /userAgent must be a string without control characters \(a tab aside\) or characters past U\+00FF/],
  ])("refuses options %j", (options, message) => {
    expect(() => new RobotsCache(options as never)).toThrow(message);
  });
});

/** An injected fetch giving the same answer to every request. */
const respond = (body: string | null, init?: ResponseInit) => async () => new Response(body, init);

describe("the cache through an injected fetch (no server)", () => {
  it("RFC 9309 2.3.1.4: keeps an unreachable answer only retryInterval, whatever its max-age", async () => {
    const cache = new RobotsCache({ now: () => 1e6, fetch: respond("", { status: 503, headers: { "cache-control": "max-age=86400" } }) });
    expect((await cache.describe("https://example.com")).expiresAt - 1e6).toBe(10 * MINUTE);
  });

  it("describes an unavailable (404) origin as allow-all, not stale, with no groups, sitemaps or rules", async () => {
    const cache = new RobotsCache({ fetch: respond("", { status: 404 }) });
    expect(await cache.describe("https://example.com")).toMatchObject({
      policy: "allow-all", stale: false, groups: 0, sitemaps: [], rulesFetch: null,
    });
  });

  it.each([
    // RFC 9309 2.2.2: "The /robots.txt URI is implicitly allowed."
    ["rfc9309", true],
    // Google matches /robots.txt against the rules like any other path.
    ["google", false],
  ] as const)("parses with its profile option (%s): /robots.txt allowed is %s", async (profile, allowed) => {
    const cache = new RobotsCache({ profile, fetch: respond("User-agent: *\nDisallow: /\n") });
    expect(await cache.isAllowed("https://example.com/robots.txt", "bot")).toBe(allowed);
  });

  it("keeps entries whose bytes add up to exactly maxTotalBytes", async () => {
    const options = { fetch: respond(RULES) };
    const ask = async (cache: RobotsCache) => {
      for (const origin of ["https://a.example", "https://b.example"]) await cache.isAllowed(`${origin}/private/x`, "bot");
      return cache;
    };
    const total = (await ask(new RobotsCache(options))).bytes;
    expect((await ask(new RobotsCache({ ...options, maxTotalBytes: total }))).size).toBe(2);
    expect((await ask(new RobotsCache({ ...options, maxTotalBytes: total - 1 }))).size).toBe(1);
  });

  it.each([
    { minTtl: 0 }, { retryInterval: 0 }, { unreachableLimit: 0 }, { ttl: 0, minTtl: 0, maxTtl: 0 },
  ])("accepts 0 ms for %j", (options) => {
    expect(() => new RobotsCache(options)).not.toThrow();
  });
});

describe("the cache's defaults", () => {
  it("resolves the documented defaults", () => {
    expect(resolveCacheOptions(undefined)).toMatchObject({
      profile: "google", ttl: DAY, maxTtl: DAY, minTtl: MINUTE, retryInterval: 10 * MINUTE, unreachableLimit: 30 * DAY,
      afterUnreachableLimit: "allow-all", maxEntries: 10_000, maxTotalBytes: 256 * 2 ** 20, concurrency: 8,
      connectTimeout: 10_000, totalTimeout: 30_000, userAgent: "robots-wasm", maxBytes: 512_000,
    });
  });

  it("fetches at most 8 origins at a time", async () => {
    let inFlight = 0;
    let peak = 0;
    const cache = new RobotsCache({
      // Each answer waits for a timer, so every fetch the pool starts meanwhile is in flight.
      fetch: async () => {
        peak = Math.max(peak, ++inFlight);
        await new Promise((resolve) => setTimeout(resolve, 1));
        inFlight--;
        return new Response("", { status: 404 });
      },
    });
    await cache.classify(Array.from({ length: 20 }, (_, i) => `https://o${i}.example/`), "bot");
    expect(peak).toBe(8);
  });

  it("holds at most 10,000 origins", async () => {
    const cache = new RobotsCache({ fetch: respond("", { status: 404 }) });
    await cache.classify(Array.from({ length: 10_001 }, (_, i) => `https://o${i}.example/`), "bot");
    expect(cache.size).toBe(10_000);
  });
});
