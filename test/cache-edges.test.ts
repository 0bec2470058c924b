/**
 * RobotsCache and fetchRobots at their edges: the metadata of a redirect that cannot be followed,
 * header values, option limits, what describe() and explain() report and copy, freeing a replaced
 * copy, what fromJSON refuses, loading the engine on first use, stale copies, and the total timeout.
 * Every fetch is injected: no network.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { fetchRobots, initSync, Robots, RobotsCache } from "../src/index.js";
import { withCode } from "./support/robots-error.js";

initSync();

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const RULES = "User-agent: a\nDisallow: /\n\nUser-agent: *\nDisallow: /x\n";
/** Rules with a crawl-delay and a sitemap: what a stale copy must still answer. */
const DELAY_RULES = "User-agent: *\nDisallow: /private/\nCrawl-delay: 3\nSitemap: https://example.com/sitemap.xml\n";

/** An injected fetch whose answer the test changes between requests. */
function switchable(first: () => Response) {
  let answer = first;
  return { fetch: async () => answer(), set: (next: () => Response) => { answer = next; } };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("fetch metadata", () => {
  it("a redirect that cannot be followed keeps the max-age of that last response", async () => {
    const fetch = async () => new Response(null, { status: 301, headers: { "cache-control": "max-age=120" } });
    expect(await fetchRobots("https://example.com/robots.txt", { fetch })).toMatchObject({
      outcome: "unavailable", reason: "redirect-invalid", status: 301, maxAge: 120,
    });
  });

  it("accepts and sends a User-Agent with Latin-1 characters (a header value is bytes up to U+00FF)", async () => {
    const userAgent = "Robot/1.0 (caf\u00e9)";
    let sent: string | null = null;
    const fetch = async (_url: unknown, init?: RequestInit) => {
      sent = new Headers(init?.headers).get("user-agent");
      return new Response("", { status: 404 });
    };
    await fetchRobots("https://example.com/robots.txt", { userAgent, fetch });
    expect(sent).toBe(userAgent);
    expect(() => new RobotsCache({ userAgent })).not.toThrow();
  });
});

describe("cache options", () => {
  it.each([{ ttl: Infinity, maxTtl: Infinity }, { unreachableLimit: Infinity }, { retryInterval: Infinity }])(
    "refuses an infinite number of milliseconds: %j",
    (options) => {
      expect(() => new RobotsCache(options)).toThrowError(withCode("ROBOTS_ERR_INVALID_OPTION"));
    },
  );
});

describe("describe()", () => {
  it("counts every group of the rules in force, not only those of one agent", async () => {
    const cache = new RobotsCache({ fetch: async () => new Response(RULES) });
    expect(await cache.describe("https://example.com/")).toMatchObject({ policy: "rules", groups: 2 });
  });

  it("while a stale copy serves, fetch is the latest (failed) fetch and rulesFetch the copy's", async () => {
    let now = 0;
    const answers = switchable(() => new Response(RULES));
    const cache = new RobotsCache({ now: () => now, fetch: answers.fetch });
    await cache.isAllowed("https://example.com/", "bot");
    answers.set(() => new Response("", { status: 503 }));
    now = DAY;
    expect(await cache.describe("https://example.com/")).toMatchObject({
      policy: "rules", stale: true,
      fetch: expect.objectContaining({ status: 503, outcome: "unreachable" }),
      rulesFetch: expect.objectContaining({ status: 200, outcome: "ok" }),
    });
  });
});

describe("memory of replaced copies", () => {
  it("frees the table of a good copy that an unavailable (404) refresh replaces", async () => {
    let now = 0;
    const answers = switchable(() => new Response(RULES));
    const parse = vi.spyOn(Robots, "parse");
    const cache = new RobotsCache({ now: () => now, fetch: answers.fetch });
    await cache.isAllowed("https://example.com/", "bot");
    const [robots] = parse.mock.results.map((result) => result.value as Robots);
    answers.set(() => new Response("", { status: 404 }));
    now = DAY;
    const { fetch, policy } = await cache.describe("https://example.com/");
    expect([policy, fetch.outcome]).toEqual(["allow-all", "unavailable"]);
    // What stays is the 404's strings (two bytes a character).
    expect(cache.bytes).toBe(2 * (fetch.url.length + fetch.finalUrl.length + fetch.detail.length));
    expect(() => robots.tableBytes).toThrowError(withCode("ROBOTS_ERR_DISPOSED"));
  });
});

describe("fromJSON", () => {
  it.each([["a string", "yesterday"], ["NaN", NaN], ["Infinity", Infinity]])("refuses an unreachableSince that is %s", async (_, since) => {
    const cache = new RobotsCache({ fetch: async () => new Response("", { status: 503 }) });
    await cache.isAllowed("https://example.com/", "bot");
    const data = cache.toJSON();
    expect(data.entries[0].unreachableSince).toEqual(expect.any(Number));
    const bad = { ...data, entries: [{ ...data.entries[0], unreachableSince: since as number }] };
    expect(() => RobotsCache.fromJSON(bad)).toThrowError(withCode("ROBOTS_ERR_INVALID_CACHE_DATA"));
  });
});

describe("the total timeout", () => {
  it("ends a fetch still waiting for headers even when the connect timeout is far away", async () => {
    let signal: AbortSignal | undefined;
    const fetch = (_url: unknown, init?: RequestInit) => {
      signal = init?.signal ?? undefined;
      return new Promise<Response>(() => undefined); // never answers, ignores its signal
    };
    const result = await fetchRobots("https://example.com/robots.txt", { fetch, connectTimeout: 2 ** 31 - 1, totalTimeout: 20 });
    expect(result).toMatchObject({ outcome: "unreachable", reason: "timeout", detail: "not complete within 20 ms" });
    // The request's own signal was aborted too, so that a fetch that honours it stops its transfer.
    expect(signal?.aborted).toBe(true);
  }, 5_000); // on a regression the fetch would wait for the connect timeout (24 days): fail fast
});

describe("the cache's answers are copies", () => {
  it("changing an explanation's fetch does not change what the cache holds", async () => {
    const cache = new RobotsCache({ fetch: async () => new Response("User-agent: *\nDisallow: /x\n") });
    const explanation = await cache.explain("https://example.com/x", "bot");
    explanation.fetch.status = 999;
    expect((await cache.describe("https://example.com/")).fetch.status).toBe(200);
    expect(cache.toJSON().entries[0].fetch.status).toBe(200);
  });
});

describe("the URL the cache matches: the page as requested", () => {
  it("a `;` in the host (which the URL parser accepts) does not start the path, in any entry point", async () => {
    const cache = new RobotsCache({ fetch: async () => new Response("User-agent: *\nDisallow: /p\n") });
    for (const url of ["http://a;b.com/p", "http://a%3Bb.com/p", "http://u;x@a.com/p#f"]) {
      expect(await cache.isAllowed(url, "bot"), url).toBe(false);
      expect(await cache.explain(url, "bot"), url).toMatchObject({ allowed: false, line: 2 });
    }
    expect((await cache.classify(["http://a;b.com/p", "http://a;b.com/q"], "bot")).lines).toEqual(new Uint32Array([2, 0]));
    // In the rfc9309 profile too, and the userinfo and fragment play no part.
    const rfc = new RobotsCache({ fetch: async () => new Response("User-agent: *\nDisallow: /p$\n"), profile: "rfc9309" });
    expect(await rfc.isAllowed("http://u;x@a;b.com/p#frag", "bot")).toBe(false);
  });

  it("an empty query keeps its `?`, as Robots.isAllowed reads the same URL", async () => {
    const body = "User-agent: *\nDisallow: /*?\n";
    const cache = new RobotsCache({ fetch: async () => new Response(body) });
    for (const url of ["http://h/p?", "http://h/p?#a", "http://a;b.com/p?", "http://h/p", "http://h/p#?"]) {
      expect(await cache.isAllowed(url, "bot"), url).toBe(Robots.parse(body).isAllowed(url, "bot"));
    }
    expect(await cache.explain("http://h/p?", "bot")).toMatchObject({ allowed: false, line: 2 });
  });
});

describe("an injected fetch's answer", () => {
  it("with a status that is not a number is not a Response: unreachable, network-error", async () => {
    const fetch = async () => ({ status: "200", headers: new Headers(), body: null }) as unknown as Response;
    expect(await fetchRobots("https://example.com/robots.txt", { fetch })).toMatchObject({
      outcome: "unreachable", reason: "network-error", status: null,
    });
  });
});

describe("the cache before init", () => {
  it("loads the engine itself when it first needs to compile a robots.txt", async () => {
    vi.resetModules();
    const { RobotsCache: FreshCache } = await import("../src/cache.js");
    const cache = new FreshCache({ fetch: async () => new Response(DELAY_RULES) });
    expect(await cache.isAllowed("https://example.com/private/x", "bot")).toBe(false);
  });

  it("fromJSON loads the engine itself", async () => {
    initSync();
    const saved = new RobotsCache({ fetch: async () => new Response(DELAY_RULES) });
    await saved.isAllowed("https://example.com/", "bot");
    const data = JSON.parse(JSON.stringify(saved));
    vi.resetModules();
    const { RobotsCache: FreshCache } = await import("../src/cache.js");
    expect(await FreshCache.fromJSON(data).isAllowed("https://example.com/private/x", "bot")).toBe(false);
  });
});

describe("the cache", () => {
  it("refuses an ftp page with the platform fetch before fetching, naming its index in classify", async () => {
    await expect(new RobotsCache().classify(["ftp://files.example/x"], "bot")).rejects.toThrowError(
      withCode("ROBOTS_ERR_UNSUPPORTED_SCHEME", /^URL at index 0: /),
    );
  });

  it("answers crawlDelay and sitemaps from a stale copy, as isAllowed does", async () => {
    let now = 0;
    let status = 200;
    const cache = new RobotsCache({ now: () => now, fetch: async () => new Response(status === 200 ? DELAY_RULES : "", { status }) });
    await cache.isAllowed("https://example.com/", "bot");
    status = 503;
    now = 24 * 3_600_000;
    expect(await cache.describe("https://example.com/")).toMatchObject({ policy: "rules", stale: true });
    expect(await cache.crawlDelay("https://example.com/", "bot")).toBe(3);
    expect(await cache.sitemaps("https://example.com/")).toEqual(["https://example.com/sitemap.xml"]);
  });

  it("fromJSON refuses fetch metadata whose finalUrl is not a string", async () => {
    initSync();
    const cache = new RobotsCache({ fetch: async () => new Response("", { status: 404 }) });
    await cache.isAllowed("https://example.com/", "bot");
    const data = cache.toJSON();
    const bad = { ...data, entries: [{ ...data.entries[0], fetch: { ...data.entries[0].fetch, finalUrl: 5 as never } }] };
    expect(() => RobotsCache.fromJSON(bad)).toThrowError(withCode("ROBOTS_ERR_INVALID_CACHE_DATA"));
  });
});

describe("the cache's classify", () => {
  it.each([["a number", 5], ["a Set", new Set(["https://example.com/"])], ["an array-like object", { length: 1, 0: "https://example.com/" }]])(
    "refuses %s with ROBOTS_ERR_INVALID_URL, before fetching",
    async (_, urls) => {
      let fetched = 0;
      const cache = new RobotsCache({ fetch: async () => (fetched++, new Response("")) });
      await expect(cache.classify(urls as never, "bot")).rejects.toThrowError(withCode("ROBOTS_ERR_INVALID_URL"));
      expect(fetched).toBe(0);
    },
  );
});
