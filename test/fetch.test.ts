/**
 * fetchRobots against real HTTP servers on 127.0.0.1 (node:http): every outcome of the policy
 * table in docs/crawler-policy.md section 2. The platform fetch is never mocked here, except in
 * the last suite, which checks the injection point itself.
 */
import { Readable } from "node:stream";
import { runInNewContext } from "node:vm";
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fetchRobots, MAX_REDIRECTS } from "../src/index.js";
import { ageOf, maxAgeOf } from "../src/fetch-outcome.js";
import { drip, endless, redirect, silent, startServer, status, text, useServers } from "./support/robots-server.js";
import { fuzzRuns } from "./support/fuzz.js";

const RULES = "User-agent: *\nDisallow: /private/\n";
/** Generous for loaded machines: only the timeout tests wait for a timeout, and they set their own. */
const TIMEOUTS = { connectTimeout: 10_000, totalTimeout: 20_000 };

const net = useServers("site", "other");

function fetchPath(path: string, options = {}) {
  net.site.reset();
  return fetchRobots(`${net.site.origin}${path}`, { ...TIMEOUTS, ...options });
}

describe("RFC 9309 2.3.1.1: successful access", () => {
  it("returns the body of a 200 with its metadata, sending the configured User-agent", async () => {
    net.site.route("/robots.txt", text(RULES, { "cache-control": "public, max-age=600" }));
    const result = await fetchPath("/robots.txt", { userAgent: "ExampleBot/1.0" });
    expect(result).toMatchObject({
      url: `${net.site.origin}/robots.txt`, finalUrl: `${net.site.origin}/robots.txt`, redirects: 0, status: 200,
      outcome: "ok", reason: "ok", detail: "HTTP 200", bytes: RULES.length, truncated: false, maxAge: 600, age: null,
    });
    expect(new TextDecoder().decode(result.body)).toBe(RULES);
    expect(net.site.headers[0]["user-agent"]).toBe("ExampleBot/1.0");
  });

  it.each(["text/html; charset=utf-8", "application/octet-stream", "image/png"])(
    "accepts any content type (%s): the body is returned for parsing",
    async (type) => {
      const body = "<html><body>Not here</body></html>\nUser-agent: *\nDisallow: /x\n";
      net.site.route("/typed", text(body, { "content-type": type }));
      const result = await fetchPath("/typed");
      expect(result.outcome).toBe("ok");
      expect(new TextDecoder().decode(result.body)).toBe(body);
    },
  );

  it.each([
    ["gzip", gzipSync],
    ["deflate", deflateSync],
    ["br", brotliCompressSync],
  ] as const)("decodes a %s-encoded body", async (encoding, compress) => {
    net.site.route("/encoded", text(compress(Buffer.from(RULES)), { "content-encoding": encoding }));
    const result = await fetchPath("/encoded");
    expect(result.outcome).toBe("ok");
    expect(new TextDecoder().decode(result.body)).toBe(RULES);
  });

  it("keeps a body of exactly maxBytes whole, and cuts one byte more", async () => {
    const body = RULES + "#".repeat(512_000 - RULES.length);
    net.site.route("/exact", text(body));
    net.site.route("/over", text(body + "#"));
    expect(await fetchPath("/exact", { maxBytes: 512_000 })).toMatchObject({ outcome: "ok", truncated: false, bytes: 512_000, detail: "HTTP 200" });
    expect(await fetchPath("/over", { maxBytes: 512_000 })).toMatchObject({ outcome: "ok", truncated: true, bytes: 512_000, detail: "HTTP 200, cut at 512000 bytes" });
  });

  it("reads 512,000 bytes of an endless body, then closes the connection instead of reading on", async () => {
    const stream = endless(RULES, "# padding padding padding padding\n");
    net.site.route("/endless", stream.handler);
    const result = await fetchPath("/endless", { maxBytes: 512_000 });
    expect(result).toMatchObject({ outcome: "ok", truncated: true, bytes: 512_000, detail: "HTTP 200, cut at 512000 bytes" });
    expect(result.body.length).toBe(512_000);
    expect(new TextDecoder().decode(result.body.subarray(0, RULES.length))).toBe(RULES);
    // The server learns that the client hung up; what it managed to write stays bounded by the
    // socket buffers, not by the endless body.
    await stream.last().closed;
    expect(stream.last().open).toBe(false);
    expect(stream.last().written).toBeLessThan(64 << 20);
  });

  it("refuses a size limit below the RFC's 500 KiB minimum", async () => {
    await expect(fetchRobots(`${net.site.origin}/robots.txt`, { maxBytes: 1000 })).rejects.toMatchObject({
      code: "ROBOTS_ERR_INVALID_OPTION",
      message: expect.stringContaining("maxBytes must be an integer of at least 512000"),
    });
  });
});

describe("RFC 9309 2.3.1.2: redirects", () => {
  /** /hop/0 -> /hop/1 -> ... -> /hop/n, which serves the rules. */
  function chain(hops: number): void {
    for (let i = 0; i < hops; i++) net.site.route(`/hop/${i}`, redirect(`/hop/${i + 1}`, [301, 302, 303, 307, 308][i % 5]));
    net.site.route(`/hop/${hops}`, text(RULES));
  }

  it.each([1, 2, 3, 4, 5])("follows a chain of %i redirect(s) and returns the final body", async (hops) => {
    chain(hops);
    const result = await fetchPath("/hop/0");
    expect(result).toMatchObject({ outcome: "ok", redirects: hops, finalUrl: `${net.site.origin}/hop/${hops}`, url: `${net.site.origin}/hop/0` });
    expect(new TextDecoder().decode(result.body)).toBe(RULES);
    expect(net.site.requests).toEqual(Array.from({ length: hops + 1 }, (_, i) => `/hop/${i}`));
  });

  it("follows a Location sent twice with the same value (fetch joins the copies with a comma), relative or absolute", async () => {
    net.site.route("/twice", (_request, response) => {
      response.writeHead(301, [["location", "/rules"], ["location", "/rules"]]);
      response.end();
    });
    net.site.route("/thrice", (_request, response) => {
      const target = `${net.site.origin}/rules`;
      response.writeHead(302, [["location", target], ["location", target], ["location", target]]);
      response.end();
    });
    net.site.route("/rules", text(RULES));
    for (const path of ["/twice", "/thrice"]) {
      const result = await fetchPath(path);
      expect(result).toMatchObject({ outcome: "ok", redirects: 1, finalUrl: `${net.site.origin}/rules` });
      expect(net.site.requests).toEqual([path, "/rules"]);
    }
  });

  it("treats a sixth redirect as unavailable without requesting its target", async () => {
    chain(MAX_REDIRECTS + 1);
    const result = await fetchPath("/hop/0");
    expect(result).toMatchObject({ outcome: "unavailable", reason: "redirect-limit", redirects: 5, status: 301, bytes: 0 });
    expect(result.detail).toBe(`more than 5 redirects (next: ${net.site.origin}/hop/6)`);
    expect(net.site.requests).toHaveLength(6);
  });

  it("detects a loop and treats it as unavailable", async () => {
    net.site.route("/loop/a", redirect("/loop/b"));
    net.site.route("/loop/b", redirect(`${net.site.origin}/loop/a`));
    const result = await fetchPath("/loop/a");
    expect(result).toMatchObject({ outcome: "unavailable", reason: "redirect-loop", redirects: 1 });
    expect(result.detail).toBe(`redirect loop back to ${net.site.origin}/loop/a`);
    expect(net.site.requests).toEqual(["/loop/a", "/loop/b"]);
  });

  it("follows a redirect to another port (another origin)", async () => {
    net.other.route("/robots.txt", text("User-agent: *\nDisallow: /elsewhere/\n"));
    net.site.route("/moved", redirect(`${net.other.origin}/robots.txt`));
    const result = await fetchPath("/moved");
    expect(result).toMatchObject({ outcome: "ok", redirects: 1, finalUrl: `${net.other.origin}/robots.txt` });
    expect(new TextDecoder().decode(result.body)).toContain("/elsewhere/");
  });

  it("resolves a relative Location against the redirecting URL", async () => {
    net.site.route("/a/b/start", redirect("../final"));
    net.site.route("/a/final", text(RULES));
    expect(await fetchPath("/a/b/start")).toMatchObject({ outcome: "ok", finalUrl: `${net.site.origin}/a/final` });
  });

  it("never sends credentials from a Location to the redirect target (crawler-policy 5)", async () => {
    net.other.reset();
    net.other.route("/secret", text(RULES));
    net.site.route("/with-credentials", redirect(`http://user:password@127.0.0.1:${net.other.port}/secret`));
    const result = await fetchPath("/with-credentials");
    expect(result).toMatchObject({ outcome: "ok", finalUrl: `${net.other.origin}/secret` });
    expect(net.other.headers[0].authorization).toBeUndefined();
  });

  it.each([
    ["ftp://127.0.0.1/robots.txt", "redirect to a ftp: URL refused"],
    ["file:///etc/passwd", "redirect to a file: URL refused"],
    ["http://[::1", 'HTTP 301 to an invalid Location "http://[::1"'],
  ])("refuses a redirect to %s (crawler-policy 5: redirects never leave http/https)", async (location, detail) => {
    net.site.route("/bad-redirect", redirect(location));
    const result = await fetchPath("/bad-redirect");
    expect(result).toMatchObject({ outcome: "unavailable", reason: "redirect-invalid", detail });
    expect(net.site.requests).toEqual(["/bad-redirect"]);
  });

  it("reads a Location written in raw UTF-8 as UTF-8, as browsers do, and other bytes as they are", async () => {
    // node:http writes each character of a header as one byte: these strings put raw bytes on the wire.
    net.site.route("/to-utf8", redirect(Buffer.from("/röbots.txt").toString("latin1")));
    net.site.route("/to-latin1", redirect("/r\u00f6bots-latin1.txt"));
    net.site.route("/r%C3%B6bots.txt", text(RULES));
    net.site.route("/r%C3%B6bots-latin1.txt", text(RULES));
    expect(await fetchPath("/to-utf8")).toMatchObject({ outcome: "ok", finalUrl: `${net.site.origin}/r%C3%B6bots.txt` });
    // A lone 0xF6 byte is not UTF-8: read as the character it is in Latin-1, ö.
    expect(await fetchPath("/to-latin1")).toMatchObject({ outcome: "ok", finalUrl: `${net.site.origin}/r%C3%B6bots-latin1.txt` });
  });

  it("treats a redirect without a Location as unavailable, and follows a 300's (the server's preferred choice, RFC 9110 15.4.1)", async () => {
    net.site.route("/no-location", status(302));
    net.site.route("/no-choice", status(300));
    net.site.route("/choices", status(300, { location: "/robots.txt" }));
    net.site.route("/robots.txt", text(RULES));
    expect(await fetchPath("/no-location")).toMatchObject({ outcome: "unavailable", reason: "redirect-invalid", detail: "HTTP 302 without a Location" });
    expect(await fetchPath("/no-choice")).toMatchObject({ outcome: "unavailable", reason: "redirect-invalid", detail: "HTTP 300 without a Location" });
    expect(await fetchPath("/choices")).toMatchObject({ outcome: "ok", redirects: 1, finalUrl: `${net.site.origin}/robots.txt`, bytes: RULES.length });
  });
});

describe("RFC 9309 2.3.1.3 and 2.3.1.4: status codes", () => {
  it.each([
    [401, "unavailable", "client-error"],
    [403, "unavailable", "client-error"],
    [404, "unavailable", "client-error"],
    [410, "unavailable", "client-error"],
    [429, "unreachable", "rate-limited"],
    [500, "unreachable", "server-error"],
    [503, "unreachable", "server-error"],
  ] as const)("maps HTTP %i to %s (%s) and keeps no body", async (code, outcome, reason) => {
    net.site.route(`/status/${code}`, status(code));
    const result = await fetchPath(`/status/${code}`);
    expect(result).toMatchObject({ status: code, outcome, reason, detail: `HTTP ${code}`, bytes: 0 });
    expect(result.body.length).toBe(0);
  });

  it("counts a 407 (a proxy wants credentials) as unreachable, a network error: the robots.txt was not reached", async () => {
    net.site.route("/status/407", status(407));
    const result = await fetchPath("/status/407");
    expect(result).toMatchObject({ status: 407, outcome: "unreachable", reason: "network-error", detail: "HTTP 407" });
  });

  it("maps 429 to unavailable on request (RFC 9309 groups it with 4xx; Google with 5xx)", async () => {
    net.site.route("/status/429", status(429));
    expect(await fetchPath("/status/429", { on429: "unavailable" })).toMatchObject({ outcome: "unavailable", reason: "rate-limited" });
  });
});

describe("RFC 9309 2.3.1: any chain of redirects ending in any status (fast-check, a real server)", () => {
  const { seed, numRuns } = fuzzRuns(20261126, 150);
  const followed = fc.constantFrom(300, 301, 302, 303, 307, 308);
  /** The final status: any from 200 to 599 (a redirect status there is one more hop, without a Location). */
  const final = fc.integer({ min: 200, max: 599 });

  /** The RFC's table, written out here rather than imported, for the final status of a chain. */
  function expectedOf(code: number): { outcome: string; reason: string } {
    if (code >= 200 && code <= 299) return { outcome: "ok", reason: "ok" };
    if (code === 429) return { outcome: "unreachable", reason: "rate-limited" };
    if (code === 407) return { outcome: "unreachable", reason: "network-error" };
    if (code >= 400 && code <= 499) return { outcome: "unavailable", reason: "client-error" };
    if (code >= 300 && code <= 399) return { outcome: "unavailable", reason: "redirect-invalid" };
    return { outcome: "unreachable", reason: "server-error" };
  }

  it("follows up to five redirects and maps the last status by the RFC's table; a sixth hop is the limit", async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(followed, { maxLength: 7 }), final, async (hops, code) => {
        run++;
        // Each run has its own paths, so that no route of an earlier run is reused.
        const path = (i: number) => `/p${run}/hop${i}`;
        hops.forEach((hop, i) => net.site.route(path(i), redirect(path(i + 1), hop)));
        net.site.route(path(hops.length), code >= 200 && code <= 299 ? text(RULES, {}, code) : status(code));
        const result = await fetchPath(path(0));
        if (hops.length > MAX_REDIRECTS) {
          expect(result).toMatchObject({ outcome: "unavailable", reason: "redirect-limit" });
          expect(net.site.requests).toHaveLength(MAX_REDIRECTS + 1);
          return;
        }
        // Each URL once: a 421 (Misdirected Request) is not asked again, as each fetch has a new connection.
        expect(net.site.requests).toEqual(hops.map((_, i) => path(i)).concat(path(hops.length)));
        // A 407 comes from a proxy: the robots.txt was not reached (a network error).
        const expected = code === 407 ? { outcome: "unreachable", reason: "network-error" } : expectedOf(code);
        expect(result).toMatchObject({ ...expected, status: code, finalUrl: `${net.site.origin}${path(hops.length)}` });
        // A body counts only from a 2xx: the rules of anything else are never read.
        const bodyless = code === 204 || code === 205;
        expect(result.body.length).toBe(code >= 200 && code <= 299 && !bodyless ? RULES.length : 0);
      }),
      { seed, numRuns },
    );
  });
});

describe("RFC 9309 2.3.1.4: network errors and timeouts make robots.txt unreachable", () => {
  it("times out a server that never answers (connect timeout)", async () => {
    net.site.route("/silent", silent);
    const result = await fetchPath("/silent", { connectTimeout: 30 });
    expect(result).toMatchObject({ outcome: "unreachable", reason: "timeout", status: null, detail: "no response within 30 ms" });
  });

  it("times out a body that drips past the total timeout, and hangs up", async () => {
    const stream = drip(5);
    net.site.route("/drip", stream.handler);
    const result = await fetchPath("/drip", { totalTimeout: 60 });
    expect(result).toMatchObject({ outcome: "unreachable", reason: "timeout", status: 200, detail: "not complete within 60 ms" });
    await stream.last().closed;
    expect(stream.last().open).toBe(false);
  });

  it("treats a connection reset mid-body as unreachable", async () => {
    net.site.route("/reset", (request, response) => {
      response.writeHead(200, { "content-length": "1000" });
      response.write(RULES);
      setTimeout(() => request.socket.resetAndDestroy(), 10);
    });
    const result = await fetchPath("/reset");
    expect(result).toMatchObject({ outcome: "unreachable", reason: "network-error", status: 200, bytes: 0 });
    expect(result.detail).toBe("the connection closed before the body's end (ECONNRESET)");
  });

  it("treats a body cut short of its Content-Length as unreachable, not as a shorter file", async () => {
    net.site.route("/short", (request, response) => {
      response.writeHead(200, { "content-length": "1000" });
      response.write(RULES);
      setTimeout(() => request.socket.end(), 10);
    });
    expect(await fetchPath("/short")).toMatchObject({ outcome: "unreachable", reason: "network-error", bytes: 0 });
  });

  it("asks for the body uncompressed: a cut compressed one would decode without an error, as a shorter file", async () => {
    const full = `User-agent: *\n${"Allow: /page\n".repeat(3000)}Disallow: /\n`;
    // A server that compresses when asked, and whose compressed answer is cut short.
    net.site.route("/robots.txt", (request, response) => {
      if (!/gzip/.test(String(request.headers["accept-encoding"] ?? ""))) {
        response.writeHead(200, { "content-type": "text/plain" });
        response.end(full);
        return;
      }
      const cut = gzipSync(full).subarray(0, -200);
      response.writeHead(200, { "content-encoding": "gzip", "content-length": String(cut.length) });
      response.end(cut);
    });
    const result = await fetchPath("/robots.txt");
    expect(net.site.headers[0]["accept-encoding"]).toBe("identity");
    expect(result).toMatchObject({ outcome: "ok", bytes: full.length });
  });

  it("keeps the first maxBytes when the connection fails right after them (all that is kept arrived)", async () => {
    net.site.route("/exact-then-reset", (request, response) => {
      response.writeHead(200, { "content-length": "1000000" });
      response.write(`User-agent: *\nDisallow: /x\n#${"a".repeat(512_000 - 28)}`); // exactly 512,000 bytes
      setTimeout(() => request.socket.resetAndDestroy(), 50);
    });
    expect(await fetchPath("/exact-then-reset", { maxBytes: 512_000 })).toMatchObject({ outcome: "ok", truncated: true, bytes: 512_000 });
  });

  it("treats an undecodable gzip body as unreachable", async () => {
    net.site.route("/bad-gzip", text("this is not gzip", { "content-encoding": "gzip" }));
    expect(await fetchPath("/bad-gzip")).toMatchObject({ outcome: "unreachable", reason: "network-error" });
  });

  it("treats a refused connection as unreachable", async () => {
    const closed = await startServer();
    await closed.close();
    const result = await fetchRobots(`${closed.origin}/robots.txt`, TIMEOUTS);
    expect(result).toMatchObject({ outcome: "unreachable", reason: "network-error", status: null });
    expect(result.detail).toMatch(/ECONNREFUSED/);
  });
});

describe("fetchRobots: misuse throws typed errors", () => {
  it.each([
    ["not a url", "ROBOTS_ERR_INVALID_URL"],
    ["mailto:someone@example.com", "ROBOTS_ERR_UNSUPPORTED_SCHEME"],
    ["file:///robots.txt", "ROBOTS_ERR_UNSUPPORTED_SCHEME"],
    ["ftp://127.0.0.1/robots.txt", "ROBOTS_ERR_UNSUPPORTED_SCHEME"],
  ])("%s -> %s", async (url, code) => {
    await expect(fetchRobots(url)).rejects.toMatchObject({ name: "RobotsError", code });
  });

  it("rejects unknown options", async () => {
    await expect(fetchRobots(`${net.site.origin}/robots.txt`, { timeout: 5 } as never)).rejects.toMatchObject({
      code: "ROBOTS_ERR_INVALID_OPTION",
    });
  });
});

describe("fetchRobots: the injected fetch function (no server)", () => {
  it("is called instead of the platform fetch, and may fetch ftp", async () => {
    const seen: string[] = [];
    const result = await fetchRobots("ftp://files.example/robots.txt", {
      fetch: async (input) => {
        seen.push(String(input));
        return new Response(RULES);
      },
    });
    expect(seen).toEqual(["ftp://files.example/robots.txt"]);
    expect(result).toMatchObject({ outcome: "ok", bytes: RULES.length });
  });

  it("maps a DNS failure to unreachable with the resolver's message", async () => {
    const result = await fetchRobots("http://no-such-host.example/robots.txt", {
      fetch: () => Promise.reject(new TypeError("fetch failed", { cause: new Error("getaddrinfo ENOTFOUND no-such-host.example") })),
    });
    expect(result).toMatchObject({ outcome: "unreachable", reason: "network-error", detail: "fetch failed: getaddrinfo ENOTFOUND no-such-host.example" });
  });

  it("counts a 407 it returns as unreachable, as the platform fetch does (a proxy answered, not the site)", async () => {
    const result = await fetchRobots("http://behind-proxy.example/robots.txt", { fetch: async () => new Response("", { status: 407 }) });
    expect(result).toMatchObject({ status: 407, outcome: "unreachable", reason: "network-error", detail: "HTTP 407", bytes: 0 });
  });

  it("counts network failures, timeouts and a 407 as unavailable with onNetworkFailure: \"unavailable\"", async () => {
    const options = { onNetworkFailure: "unavailable" as const, connectTimeout: 20 };
    const refused = () => Promise.reject(new TypeError("fetch failed", { cause: new Error("connect ECONNREFUSED 127.0.0.1:9") }));
    expect(await fetchRobots("http://a.example/robots.txt", { ...options, fetch: refused })).toMatchObject({ outcome: "unavailable", reason: "network-error" });
    expect(await fetchRobots("http://a.example/robots.txt", { ...options, fetch: () => new Promise<Response>(() => undefined) })).toMatchObject({
      outcome: "unavailable", reason: "timeout",
    });
    expect(await fetchRobots("http://a.example/robots.txt", { ...options, fetch: async () => new Response("", { status: 407 }) })).toMatchObject({
      outcome: "unavailable", reason: "network-error", status: 407,
    });
    // A 5xx is not a network failure: still unreachable.
    expect(await fetchRobots("http://a.example/robots.txt", { ...options, fetch: async () => new Response("", { status: 503 }) })).toMatchObject({
      outcome: "unreachable", reason: "server-error",
    });
  });

  it("still times out when the fetch function ignores the abort signal", async () => {
    const result = await fetchRobots("http://stuck.example/robots.txt", { fetch: () => new Promise<Response>(() => undefined), connectTimeout: 20 });
    expect(result).toMatchObject({ outcome: "unreachable", reason: "timeout" });
  });

  it("strips credentials from the first URL too", async () => {
    const seen: string[] = [];
    await fetchRobots("http://user:secret@example.com/robots.txt#x", {
      fetch: async (input) => {
        seen.push(String(input));
        return new Response("");
      },
    });
    expect(seen).toEqual(["http://example.com/robots.txt"]);
  });
});

/** An injected fetch answering by path, recording the paths requested. */
function routed(routes: Record<string, () => Response>) {
  const requested: string[] = [];
  const fetch = async (input: string | URL | Request) => {
    const path = new URL(String(input)).pathname;
    requested.push(path);
    return routes[path]?.() ?? new Response("", { status: 404 });
  };
  return { fetch, requested };
}

describe("fetchRobots: responses of other kinds from an injected fetch", () => {
  /** A node-fetch Response: its body a Node stream (async-iterable, no getReader). */
  function nodeStreamResponse(status: number, chunks: Uint8Array[], onDestroy: () => void = () => undefined) {
    const body = Readable.from(chunks);
    body.on("close", onDestroy);
    return { status, headers: new Headers({ "content-type": "text/plain" }), body, type: "default" };
  }

  it("reads a body that is a Node stream (node-fetch), within the size limit", async () => {
    const encoder = new TextEncoder();
    const ok = await fetchRobots("http://a.test/robots.txt", { fetch: async () => nodeStreamResponse(200, [encoder.encode("User-agent: *\n"), encoder.encode("Disallow: /x\n")]) as never });
    expect(ok).toMatchObject({ outcome: "ok", status: 200, bytes: 27 });
    expect(new TextDecoder().decode(ok.body)).toBe("User-agent: *\nDisallow: /x\n");
    const big = await fetchRobots("http://a.test/robots.txt", { maxBytes: 512_000, fetch: async () => nodeStreamResponse(200, Array.from({ length: 40 }, () => new Uint8Array(16_384).fill(0x23))) as never });
    expect(big).toMatchObject({ outcome: "ok", truncated: true, bytes: 512_000 });
  });

  it("closes a Node stream body it does not read (a 404), and maps the status", async () => {
    let closed = false;
    const missing = await fetchRobots("http://a.test/robots.txt", { fetch: async () => nodeStreamResponse(404, [new Uint8Array(10)], () => (closed = true)) as never });
    expect(missing).toMatchObject({ outcome: "unavailable", status: 404 });
    await vi.waitFor(() => expect(closed).toBe(true));
  });

  it("counts a body already read or locked, or one whose reader fails, as unreachable instead of throwing", async () => {
    const used = new Response("User-agent: *\nDisallow: /\n");
    await used.text();
    const locked = new Response("User-agent: *\nDisallow: /\n");
    locked.body!.getReader();
    const failing = { status: 200, headers: new Headers(), body: { getReader() { throw new Error("boom"); } } };
    for (const response of [used, locked, failing]) {
      const result = await fetchRobots("http://a.test/robots.txt", { fetch: async () => response as never });
      expect(result).toMatchObject({ outcome: "unreachable", reason: "network-error", status: 200 });
    }
  });

  it("closes a Node stream body that stalls past the total timeout (a stalled read kept the connection open)", async () => {
    const body = new Readable({ read() {} });
    body.push(new TextEncoder().encode("User-agent: *\n"));
    const result = await fetchRobots("http://a.test/robots.txt", { totalTimeout: 200, fetch: async () => ({ status: 200, headers: new Headers(), body }) as never });
    expect(result).toMatchObject({ outcome: "unreachable", reason: "timeout" });
    await vi.waitFor(() => expect(body.destroyed).toBe(true));
  });

  it("counts a body read to its end before (then unlocked) as a network error, not an empty file that allows everything", async () => {
    const web = new Response("User-agent: *\nDisallow: /\n");
    const reader = web.body!.getReader();
    while (!(await reader.read()).done);
    reader.releaseLock();
    const node = { status: 200, headers: new Headers(), body: Readable.from([]), bodyUsed: true };
    for (const response of [web, node]) {
      expect(await fetchRobots("http://a.test/robots.txt", { fetch: async () => response as never })).toMatchObject({ outcome: "unreachable", reason: "network-error" });
    }
  });

  it("takes chunks made in another realm (a vm context) as bytes", async () => {
    const chunk = runInNewContext("new Uint8Array([0x23, 0x0a])") as Uint8Array;
    const result = await fetchRobots("http://a.test/robots.txt", { fetch: async () => ({ status: 200, headers: new Headers(), body: Readable.from([chunk]) }) as never });
    expect(result).toMatchObject({ outcome: "ok", bytes: 2 });
  });

  it("counts Response.error() (the Fetch standard's network error) as a network error, which onNetworkFailure may make unavailable", async () => {
    const fetch = async () => Response.error();
    expect(await fetchRobots("http://a.test/robots.txt", { fetch })).toMatchObject({ outcome: "unreachable", reason: "network-error" });
    expect(await fetchRobots("http://a.test/robots.txt", { fetch, onNetworkFailure: "unavailable" })).toMatchObject({ outcome: "unavailable", reason: "network-error" });
  });
});

describe("fetchRobots: statuses, redirects and metadata through an injected fetch", () => {
  it("does not follow a 304, even with a Location: a 3xx that cannot be followed is unavailable", async () => {
    const { fetch, requested } = routed({
      "/robots.txt": () => new Response(null, { status: 304, headers: { location: "/other.txt" } }),
      "/other.txt": () => new Response(RULES),
    });
    const result = await fetchRobots("http://a.example/robots.txt", { fetch });
    expect(result).toMatchObject({ status: 304, outcome: "unavailable", reason: "redirect-invalid", redirects: 0, detail: "HTTP 304" });
    expect(requested).toEqual(["/robots.txt"]);
  });

  it.each([200, 204, 299])("counts every 2xx as ok, up to 299 (HTTP %i)", async (code) => {
    const result = await fetchRobots("http://a.example/robots.txt", { fetch: async () => new Response(code === 204 ? null : "", { status: code }) });
    expect(result).toMatchObject({ status: code, outcome: "ok", reason: "ok" });
  });

  it("takes max-age from the final response, not from a redirect before it", async () => {
    const { fetch } = routed({
      "/robots.txt": () => new Response(null, { status: 301, headers: { location: "/moved.txt", "cache-control": "max-age=60" } }),
      "/moved.txt": () => new Response(RULES, { headers: { "cache-control": "max-age=3600" } }),
    });
    expect(await fetchRobots("http://a.example/robots.txt", { fetch })).toMatchObject({ redirects: 1, outcome: "ok", maxAge: 3600 });
  });

  it("reports a robots.txt that redirects to itself as a loop after one request, with no redirect followed", async () => {
    const { fetch, requested } = routed({
      "/robots.txt": () => new Response(null, { status: 301, headers: { location: "/robots.txt" } }),
    });
    const result = await fetchRobots("http://a.example/robots.txt", { fetch });
    expect(result).toMatchObject({ outcome: "unavailable", reason: "redirect-loop", redirects: 0 });
    expect(requested).toEqual(["/robots.txt"]);
  });

  it("names the total timeout when it ends a fetch that is still waiting for a response", async () => {
    const result = await fetchRobots("http://stuck.example/robots.txt", {
      fetch: () => new Promise<Response>(() => undefined), connectTimeout: 20_000, totalTimeout: 50,
    });
    expect(result).toMatchObject({ outcome: "unreachable", reason: "timeout", detail: "not complete within 50 ms" });
  });

  it("reads a 200 without a body as an empty, complete file", async () => {
    const result = await fetchRobots("http://a.example/robots.txt", { fetch: async () => new Response(null, { status: 200 }) });
    expect(result).toMatchObject({ outcome: "ok", bytes: 0, truncated: false, detail: "HTTP 200" });
  });

  it("times the fetch in milliseconds since the epoch, as Date.now()", async () => {
    const before = Date.now();
    const result = await fetchRobots("http://a.example/robots.txt", { fetch: async () => new Response(RULES) });
    expect(result.fetchedAt).toBeGreaterThanOrEqual(before);
    expect(result.fetchedAt).toBeLessThanOrEqual(Date.now());
  });
});

describe("fetchRobots: the default timeouts, on fake timers", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** The fetch's result once it has one (undefined until then): a mutant's longer timeout fails fast instead of hanging. */
  function watch(options: Parameters<typeof fetchRobots>[1]) {
    const seen: { result?: Awaited<ReturnType<typeof fetchRobots>> } = {};
    void fetchRobots("http://stuck.example/robots.txt", options).then((result) => (seen.result = result));
    return seen;
  }

  it("gives up waiting for a response after 10 s, and on the whole fetch after 30 s", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const silent = watch({ fetch: () => new Promise<Response>(() => undefined) });
    // A body that never ends: the response came, so only the total timeout can end the fetch.
    const endless = watch({ fetch: async () => new Response(new ReadableStream()) });
    await vi.advanceTimersByTimeAsync(9_999);
    expect(silent.result).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(silent.result).toMatchObject({ reason: "timeout", detail: "no response within 10000 ms" });
    await vi.advanceTimersByTimeAsync(19_999);
    expect(endless.result).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(endless.result).toMatchObject({ reason: "timeout", detail: "not complete within 30000 ms" });
  });
});

describe("Cache-Control: max-age", () => {
  it.each([
    ["max-age=600", 600],
    ["public, max-age=0", 0],
    ['private, max-age="120", must-revalidate', 120],
    ["s-maxage=60", null],
    // A directive that only ends in max-age is another directive.
    ["x-max-age=7200", null],
    // Directive names are case-insensitive (RFC 9111 5.2), and spaces around "=" are tolerated.
    ["Max-Age=600", 600],
    ["max-age = 60", 60],
    ["no-cache", null],
    [null, null],
    // RFC 9111: max-age= inside another directive's quoted argument is no directive (5.2) ...
    ['no-cache="set-cookie,max-age=5"', null],
    ['no-cache="set-cookie,max-age=5", max-age=60', 60],
    ['no-cache="a\\"b,max-age=5"', null],
    // ... the first max-age counts (4.2.1), a value that is not delta-seconds is none ...
    ["max-age=10, max-age=7200", 10],
    ["max-age=7200.5", null],
    ["max-age=-5", null],
    ["max-age", null],
    ["max-age=", null],
    // ... and one past any integer is 2^31 (1.2.2), finite, so that the fetch's data stays JSON.
    [`max-age=${"9".repeat(400)}`, 2 ** 31],
  ])("%s -> %s", (header, seconds) => {
    expect(maxAgeOf(header)).toBe(seconds);
  });
});

describe("the Age header (RFC 9111 5.1), which the cache counts against max-age", () => {
  it("is reported with the fetch, in seconds", async () => {
    net.site.route("/robots.txt", text(RULES, { "cache-control": "max-age=600", age: "120" }));
    expect(await fetchPath("/robots.txt")).toMatchObject({ outcome: "ok", maxAge: 600, age: 120 });
  });

  it.each([
    [null, null],
    ["0", 0],
    [" 42 ", 42],
    ["1.5", null],
    ["-1", null],
    ["", null],
    // A list (two Age fields): the first member counts (RFC 9111 5.1).
    ["60, 120", 60],
    ["x, 120", null],
    ["9".repeat(400), 2 ** 31],
  ])("%j -> %s", (header, seconds) => {
    expect(ageOf(header)).toBe(seconds);
  });
});
