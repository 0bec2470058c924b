/**
 * Details of the crawler side and the engine's input checks that other suites leave open:
 * percent-encoding by URL part, the form a cached page is matched in, Cache-Control parsing,
 * unusual statuses, cache data validation, parse options, agent queries and the URL length limit
 * at its boundary. No network: every fetch is injected.
 */
import { afterAll, describe, expect, it } from "vitest";
import { encodeUrl, fetchRobots, initSync, MAX_URL_BYTES, Robots, RobotsCache, type RobotsCacheData } from "../src/index.js";
import { Robots as ReferenceRobots } from "../src/reference/index.js";
import { withCode } from "./support/robots-error.js";

initSync();

const ORIGIN = "http://a.example";

/** A fetch answering every request with a 200 of `body`, headers as given. */
function serving(body: string, headers: Record<string, string> = {}): typeof fetch {
  return async () => new Response(body, { headers });
}

/**
 * A response-like object (what fetchRobots reads: status, headers.get, body), for what a Response
 * refuses to hold: a status outside 200-599 (a RangeError), a header value of any form.
 */
function responseLike(status: number, headers: Record<string, string> = {}) {
  return { status, headers: { get: (name: string) => headers[name.toLowerCase()] ?? null }, body: null };
}

describe("encodeUrl: a `?` inside the fragment stays part of the fragment", () => {
  it("escapes the fragment's set after `#...?` (a backtick), not the query's (a quote)", () => {
    // WHATWG: after `#` everything is fragment, `?` included; `'` is escaped only in a query.
    expect(encodeUrl("http://a/p#f?'`")).toBe("http://a/p#f?'%60");
    // Before the `#`, the `?` does start the query.
    expect(encodeUrl("http://a/p?'`#f")).toBe("http://a/p?%27`#f");
  });
});

describe("RobotsCache: the fragment of a page is no part of what the rules see", () => {
  // A rule cannot hold a `#` (robots-txt.md 1: it starts a comment, `Disallow: /*#` is
  // `Disallow: /*`); a rule anchored at the end (`/*x$`) would match `/q#x` with its fragment.
  it("allows http://a.example/q#x under `Disallow: /*x$` (a client never sends the fragment)", async () => {
    const cache = new RobotsCache({ fetch: serving("User-agent: *\nDisallow: /*x$\n") });
    expect(await cache.isAllowed(`${ORIGIN}/q#x`, "b")).toBe(true);
    expect(await cache.explain(`${ORIGIN}/q#x`, "b")).toMatchObject({ allowed: true, reason: "no-rule", line: 0 });
    expect(await cache.isAllowed(`${ORIGIN}/qx`, "b")).toBe(false);
  });

  it("does not count the fragment against MAX_URL_BYTES: only the URL as requested must fit", async () => {
    // The engine drops a fragment too (robots-txt.md 3); the cache's own length check, before
    // any fetch, is where a fragment kept in the requested form would show.
    const cache = new RobotsCache({ fetch: serving("User-agent: *\nDisallow: /q\n") });
    const page = `${ORIGIN}/q#${"x".repeat(MAX_URL_BYTES)}`;
    expect(await cache.explain(page, "b")).toMatchObject({ allowed: false, reason: "rule", line: 2 });
    expect((await cache.classify([page, `${ORIGIN}/p`], "b")).allowed).toEqual(new Uint8Array([0, 1]));
  });

  it("reads `Disallow: /*#` as `Disallow: /*`: the `#` starts a comment", async () => {
    const cache = new RobotsCache({ fetch: serving("User-agent: *\nDisallow: /*#\n") });
    expect(await cache.explain(`${ORIGIN}/q#x`, "b")).toMatchObject({ allowed: false, reason: "rule", line: 2, rule: { kind: "disallow", pattern: "/*" } });
  });
});

describe("fetchRobots: Cache-Control as RFC 9111 5.2 reads it, through an injected fetch", () => {
  async function maxAgeFrom(cacheControl: string, asObject = false): Promise<number | null> {
    const result = await fetchRobots(`${ORIGIN}/robots.txt`, {
      fetch: asObject ? async () => responseLike(200, { "cache-control": cacheControl }) as never : serving("", { "cache-control": cacheControl }),
    });
    return result.maxAge;
  }

  it("reads `\\\"` inside a quoted argument as a quote, so the string goes on past it", async () => {
    // The argument is `a", max-age=5, b`: no max-age directive in it.
    expect(await maxAgeFrom('foo="a\\", max-age=5, b"')).toBeNull();
  });

  it("counts the first max-age even when it is invalid: a later one does not replace it", async () => {
    expect(await maxAgeFrom("max-age=7200.5, max-age=60")).toBeNull();
  });

  it("trims spaces after an unquoted argument", async () => {
    expect(await maxAgeFrom("max-age=60 , public")).toBe(60);
  });

  it("reads nothing after a closing quote before the next comma as a directive", async () => {
    expect(await maxAgeFrom('private="x" max-age=5')).toBeNull();
  });

  it("skips a tab after `=`, as a space, before a quoted argument", async () => {
    expect(await maxAgeFrom('max-age=\t"60"')).toBe(60);
    // The same from a response-like object, whose headers are not normalized by Headers.
    expect(await maxAgeFrom('max-age=\t"60"', true)).toBe(60);
  });
});

describe("fetchRobots: a final status outside 2xx-5xx is a server error (Google)", () => {
  it.each([600, 103, 199])("HTTP %i -> unreachable, server-error", async (code) => {
    const result = await fetchRobots(`${ORIGIN}/robots.txt`, { fetch: async () => responseLike(code) as never });
    expect(result).toMatchObject({ status: code, outcome: "unreachable", reason: "server-error", detail: `HTTP ${code}` });
  });
});

describe("RobotsCache: a redirect that cannot be followed is no redirect limit", () => {
  it("explains a 302 without a Location as unavailable, everything allowed", async () => {
    const cache = new RobotsCache({ fetch: async () => new Response("", { status: 302 }) });
    expect(await cache.explain(`${ORIGIN}/x`, "bot")).toMatchObject({
      allowed: true, reason: "unavailable", fetch: expect.objectContaining({ status: 302, reason: "redirect-invalid" }),
    });
  });

  it("still explains too many redirects as redirect-limit", async () => {
    let hop = 0;
    const cache = new RobotsCache({ fetch: async () => new Response(null, { status: 301, headers: { location: `/r${hop++}` } }) });
    expect(await cache.explain(`${ORIGIN}/x`, "bot")).toMatchObject({ allowed: true, reason: "redirect-limit" });
  });
});

describe("RobotsCache.fromJSON: malformed fetch metadata is refused", () => {
  /** Real data of one origin with a good copy, through JSON text. */
  async function savedData(): Promise<RobotsCacheData> {
    const cache = new RobotsCache({ fetch: serving("User-agent: *\nDisallow: /private/\n"), now: () => 0 });
    await cache.isAllowed(`${ORIGIN}/`, "bot");
    return JSON.parse(JSON.stringify(cache.toJSON()));
  }

  it("loads the data unchanged (the baseline of the cases below)", async () => {
    const data = await savedData();
    expect(data.entries[0]!.fetch.status).toBe(200);
    expect(RobotsCache.fromJSON(data, { now: () => 0 }).toJSON()).toEqual(data);
  });

  it("refuses a status that is a string", async () => {
    const data = await savedData();
    (data.entries[0]!.fetch as { status: unknown }).status = "200";
    expect(() => RobotsCache.fromJSON(data)).toThrowError(withCode("ROBOTS_ERR_INVALID_CACHE_DATA"));
  });

  it("refuses a good copy whose fetch metadata holds only an outcome", async () => {
    const data = await savedData();
    (data.entries[0]!.good as { fetch: unknown }).fetch = { outcome: "ok" };
    expect(() => RobotsCache.fromJSON(data)).toThrowError(withCode("ROBOTS_ERR_INVALID_CACHE_DATA", /good copy malformed/));
  });
});

describe("Robots.parse: keepSource", () => {
  it("refuses a value that is not a boolean with ROBOTS_ERR_INVALID_OPTION", () => {
    expect(() => Robots.parse("", { keepSource: "yes" as never })).toThrowError(withCode("ROBOTS_ERR_INVALID_OPTION", /keepSource/));
  });

  it("is off when an options object leaves it out: lint() then has no source", () => {
    const robots = Robots.parse("User-agent: *\nDisallow: /\n", { profile: "google" });
    expect(() => robots.lint()).toThrowError(withCode("ROBOTS_ERR_NO_SOURCE"));
    robots.dispose();
  });
});

describe("agent queries are compared as given", () => {
  it("does not trim the asked-about agent: ` googlebot` names no group (robots-txt.md 2)", () => {
    const body = "User-agent: googlebot\nDisallow: /\n";
    const robots = Robots.parse(body);
    expect(robots.isAllowed(`${ORIGIN}/x`, " googlebot")).toBe(true);
    expect(robots.isAllowed(`${ORIGIN}/x`, "googlebot")).toBe(false);
    robots.dispose();
    // The reference implementation agrees.
    const reference = ReferenceRobots.parse(body);
    expect(reference.isAllowed(`${ORIGIN}/x`, " googlebot")).toBe(true);
    expect(reference.isAllowed(`${ORIGIN}/x`, "googlebot")).toBe(false);
  });
});

describe("MAX_URL_BYTES: a URL of exactly the limit is decided", () => {
  it("classifies a byte batch of one line of exactly MAX_URL_BYTES bytes, no LF after it", () => {
    const line = new Uint8Array(MAX_URL_BYTES).fill(0x61);
    line[0] = 0x2f;
    const robots = Robots.parse("User-agent: *\nDisallow: /a\n");
    expect(robots.classify(line, "bot")).toEqual(new Uint8Array([0]));
    robots.dispose();
  });

  it("counts a 2-byte character (é) as 2 bytes: 16,000,009 bytes of UTF-8 are within the limit", () => {
    const url = `http://a/${"é".repeat(8_000_000)}`;
    const robots = Robots.parse("User-agent: *\nDisallow: /\n");
    expect(robots.isAllowed(url, "bot")).toBe(false);
    robots.dispose();
  });

  it("counts a surrogate pair (😀) as 4 bytes: 16,760,009 bytes of UTF-8 are within the limit", () => {
    const url = `http://a/${"😀".repeat(4_190_000)}`;
    const robots = Robots.parse("User-agent: *\nDisallow: /\n");
    expect(robots.isAllowed(url, "bot")).toBe(false);
    robots.dispose();
  });
});

describe("MAX_URL_BYTES: a URL past the limit is refused, its bytes counted as it is encoded", () => {
  const robots = Robots.parse("User-agent: *\nDisallow: /\n");
  afterAll(() => robots.dispose());

  it("counts U+0800, the first 3-byte character, as 3 bytes", () => {
    const url = `ab${"\u0800".repeat(5_592_405)}`; // 2 + 16,777,215 bytes: one past the limit
    expect(() => robots.isAllowed(url, "bot")).toThrowError(withCode("ROBOTS_ERR_INVALID_URL", /^URL is 16777217 bytes long, more than a URL may be \(16777216 bytes\)$/));
  });

  it("counts a surrogate pair as 4 bytes, one URL or in a batch", () => {
    const url = `/\u{1F600}${"a".repeat(MAX_URL_BYTES - 4)}`; // 1 + 4 + (MAX_URL_BYTES - 4) bytes
    expect(() => robots.isAllowed(url, "bot")).toThrowError(withCode("ROBOTS_ERR_INVALID_URL", /^URL is 16777217 bytes long/));
    expect(() => robots.classify(["/a", url], "bot")).toThrowError(withCode("ROBOTS_ERR_INVALID_URL", /^URL at index 1 is 16777217 bytes long/));
  });

  it("counts a high surrogate not followed by a low one as U+FFFD (3 bytes), and what follows on its own", () => {
    const url = `http://a/${"\ud800\u0800".repeat(2_796_202)}`; // 9 + 2,796,202 x 6 bytes
    expect(() => robots.isAllowed(url, "bot")).toThrowError(withCode("ROBOTS_ERR_INVALID_URL", /^URL is 16777221 bytes long/));
  });
});
