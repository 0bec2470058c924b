/** Batch boundaries: empty and single batches, the last line, chunking, memory growth, multi-megabyte files, the raw count. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ALL_LINES, loadEngine, MatchMode } from "../src/wasm.js";
import { implementations, reference, wasmImplementations } from "./support/implementations.js";
import { encodeAgents, putBytes } from "./support/raw-exports.js";

const encoder = new TextEncoder();
const ROBOTS = "User-agent: *\nDisallow: /private\nAllow: /private/ok\nDisallow: /*.pdf$\n";

/** Deterministic URLs of the given length, a third of them under /private. */
function makeUrls(count: number, length: number): string[] {
  const urls: string[] = [];
  for (let i = 0; i < count; i++) {
    const head = `http://example.com/${["private", "public", "private/ok"][i % 3]}/${i}/`;
    const tail = i % 7 === 0 ? ".pdf" : "";
    urls.push(head + "x".repeat(Math.max(0, length - head.length - tail.length)) + tail);
  }
  return urls;
}

describe.each(implementations)("$name batches", (impl) => {
  it("answer an empty batch with an empty result", () => {
    const robots = impl.parse(ROBOTS);
    expect(robots.classify([], "a")).toEqual(new Uint8Array(0));
    expect(robots.classify(new Uint8Array(0), "a")).toEqual(new Uint8Array(0));
    const { allowed, lines } = robots.classifyWithLines([], "a");
    expect(allowed.length + lines.length).toBe(0);
    robots.dispose();
  });

  it("answer a batch of one like isAllowed", () => {
    const robots = impl.parse(ROBOTS);
    expect(Array.from(robots.classify(["http://example.com/private/x"], "a"))).toEqual([0]);
    expect(Array.from(robots.classify(encoder.encode("http://example.com/private/ok/1"), "a"))).toEqual([1]);
    expect(robots.classifyWithLines(["/x.pdf"], "a").lines[0]).toBe(4);
    robots.dispose();
  });

  it("decide one URL in isAllowed and explain as a batch of one does, whatever it holds", () => {
    // `/*y$` matches a URL with an LF only if the URL is read past its LF.
    const body = `${ROBOTS}Disallow: /*y$\nDisallow: /*\u00fc$\n`;
    const robots = impl.parse(body);
    const expected = reference.parse(body);
    const urls = [
      "http://example.com/private\nx", "http://example.com/ok\nprivate", "http://example.com/ok\ny", "http://example.com/a\r\n", "http://example.com/\u00fc",
      "http://example.com/private/ok/\ud800", "", "/private/ok", `http://example.com/${"ab".repeat(50_000)}.pdf`, "http://example.com/\u4e2d\u00fc",
    ];
    const batch = robots.classifyWithLines(urls, "a");
    urls.forEach((url, i) => {
      const explanation = robots.explain(url, "a");
      expect(explanation, JSON.stringify(url)).toEqual(expected.explain(url, "a"));
      expect(robots.isAllowed(url, "a")).toBe(explanation.allowed);
      expect([batch.allowed[i], batch.lines[i]]).toEqual([explanation.allowed ? 1 : 0, explanation.line]);
    });
    robots.dispose();
  });

  it("end the last line's path at the end of the batch, not at the next LF in memory", () => {
    // A batch is copied into memory where an earlier, longer one lay: the path of its last line,
    // which no LF ends, stops at the batch's end and not at the stale bytes after it.
    const robots = impl.parse("User-agent: *\nDisallow: /abcd\n");
    expect(Array.from(robots.classify(encoder.encode("https://a.com/x\nhttps://a.com/abcdef\n"), "FooBot"))).toEqual([1, 0]);
    expect(Array.from(robots.classify(encoder.encode("https://a.com/x\nhttps://a.com/abc"), "FooBot"))).toEqual([1, 1]);
    expect(Array.from(robots.classify(["https://a.com/x", "https://a.com/abcdef"], "FooBot"))).toEqual([1, 0]);
    expect(Array.from(robots.classify(["https://a.com/x", "https://a.com/abc"], "FooBot"))).toEqual([1, 1]);
    robots.dispose();
  });

  it("keep input order across internal chunks (40,000 URLs as strings and as bytes)", () => {
    const robots = impl.parse(ROBOTS);
    const urls = makeUrls(40_000, 260);
    const fromStrings = robots.classifyWithLines(urls, "a");
    const fromBytes = robots.classifyWithLines(encoder.encode(urls.join("\r\n")), "a");
    expect(fromStrings.allowed.length).toBe(urls.length);
    expect(fromBytes.allowed).toEqual(fromStrings.allowed);
    expect(fromBytes.lines).toEqual(fromStrings.lines);
    for (const i of [0, 1, 2, 7, 16_383, 16_384, 16_385, 32_768, 39_999]) {
      expect(fromStrings.allowed[i], urls[i]).toBe(robots.isAllowed(urls[i], "a") ? 1 : 0);
      expect(fromStrings.lines[i]).toBe(robots.explain(urls[i], "a").line);
    }
    robots.dispose();
  });

  it("grow memory for one very long URL in both profiles", () => {
    for (const profile of ["google", "rfc9309"] as const) {
      const robots = impl.parse("User-agent: *\nDisallow: /*é$\nDisallow: /*%2A\n", { profile });
      const long = `http://example.com/${"%41é*".repeat(400_000)}`;
      const expected = reference.parse("User-agent: *\nDisallow: /*é$\nDisallow: /*%2A\n", { profile }).explain(long, "a");
      expect(robots.explain(long, "a")).toEqual(expected);
      expect(robots.explain(`${long}é`, "a").allowed).toBe(profile === "google");
      robots.dispose();
    }
  });

  it("compile a robots.txt of several MB when the limit is raised, and cut it at the default limit", () => {
    const lines = ["User-agent: *"];
    for (let i = 0; i < 120_000; i++) lines.push(i % 5 === 0 ? `Allow: /section-${i}/*.html$` : `Disallow: /section-${i}/`);
    const body = lines.join("\n");
    expect(body.length).toBeGreaterThan(3_000_000);
    const full = impl.parse(body, { maxBytes: Infinity });
    expect(full.input.truncated).toBe(false);
    expect(full.explain("http://example.com/section-119999/x", "a")).toMatchObject({ allowed: false, line: 120_001 });
    expect(full.explain("http://example.com/section-119995/a/b.html", "a")).toMatchObject({ allowed: true, line: 119_997 });
    full.dispose();
    const cut = impl.parse(body);
    expect(cut.input.truncated).toBe(true);
    expect(cut.explain("http://example.com/section-119999/x", "a").line).toBeLessThan(120_001);
    expect(cut.lines.length).toBeLessThan(30_000);
    expect(cut.isAllowed("http://example.com/section-1/x", "a")).toBe(false);
    cut.dispose();
  });
});

// The engine's decision order uses a counting sort up to priority 65,536 and a comparison sort
// beyond. The reference's matcher is quadratic on paths this long, so the expectations are
// written out (robots-txt.md 3: longest pattern first, allow on ties).
describe.each(wasmImplementations)("$name decision order", (impl) => {
  it("orders rules by priority past 65,536 bytes of pattern (rfc9309 has no line limit)", () => {
    const long = "/a" + "b".repeat(70_000);
    const body = `User-agent: *\nAllow: /a\nDisallow: ${long}\nAllow: ${long}\nDisallow: /a*c\n`;
    const robots = impl.parse(body, { profile: "rfc9309", maxBytes: Infinity });
    const urls = [`http://x${long}`, `http://x${long}c`, "http://x/abc", "http://x/ab"];
    const { allowed, lines } = robots.classifyWithLines(urls, "bot");
    expect(Array.from(allowed)).toEqual([1, 1, 0, 1]);
    expect(Array.from(lines)).toEqual([4, 4, 5, 2]);
    robots.dispose();
  });
});

// The tree walk files its state after a path's first eight bytes, and later paths that start
// with the same bytes resume there (shortcuts.ts). Paths of one batch that share those
// bytes but part before, at or after them must still get the reference's answers, the second
// batch (every walk resumed) as the first; few rules keep the shortcut table small (64 slots),
// so that the 300 distinct first eight bytes here also collide.
describe.each(wasmImplementations)("$name walks that resume after a path's first eight bytes", (impl) => {
  // Nodes at every depth around eight bytes; wildcard rules at more than three of them under `/a`
  // (such walks are not filed); literal and `$` rules that end before, at and after the eighth
  // byte, under `/lit/` with no wildcard rule on the way.
  const body = [
    "User-agent: *",
    "Disallow: /a*x", "Allow: /ab*y", "Disallow: /abc*z", "Allow: /abcd*w", "Disallow: /abcde*v",
    "Disallow: /abcdefg", "Allow: /abcdefgh", "Disallow: /abcdefghi", "Allow: /abcdefg$",
    "Disallow: /shop/", "Allow: /shop/a", "Disallow: /shop/ab*q", "Allow: /shop/abc$", "Disallow: /shop/abcd",
    "Disallow: /s", "Allow: /sh*p", "Disallow: /*.pdf$", "Allow: /shopping/*", "Disallow: /shopx",
    "Disallow: /lit/abc", "Allow: /lit/abcd", "Disallow: /lit/abcde", "Allow: /lit/ab$",
  ].join("\n");
  const heads = ["/abcdefghij", "/abcdefgh", "/abcdefg", "/abcdexyz", "/shop/abcd", "/shop/abc", "/shop/a", "/shopping", "/shopxyzw", "/sxxxxxxx", "/lit/abcdef", "/lit/abcd", "/lit/abc", "/lit/abx", "/lit/ab"];
  const tails = ["", "x", "y", "z", "w", "v", "q", ".pdf", "/p", "/a.pdf", "?y=1"];
  const paths: string[] = [];
  for (const head of heads) for (const tail of tails) paths.push(head + tail);
  // Keys no rule shares: each takes a slot, so that the slots of the others are taken over.
  for (let i = 0; i < 300; i++) paths.push(`/k${String(i).padStart(6, "0")}/shop/ab${tails[i % tails.length]}`);
  const urls = paths.map((path) => `http://example.com${path}`);
  const expected = reference.parse(body).classifyWithLines(urls, "bot");

  it("answer as the reference, in one batch and again (strings and bytes)", () => {
    const robots = impl.parse(body);
    for (let round = 0; round < 2; round++) {
      expect(robots.classifyWithLines(urls, "bot")).toEqual(expected);
      expect(robots.classifyWithLines(encoder.encode(urls.join("\n")), "bot")).toEqual(expected);
    }
    // One at a time, in reverse order (other walks filed the shortcuts).
    for (let i = urls.length - 1; i >= 0; i--) expect(robots.isAllowed(urls[i], "bot"), urls[i]).toBe(expected.allowed[i] === 1);
    robots.dispose();
  });
});

// matchBatch reads "the i-th LF-separated line" (assembly/index.ts): a batch that ends in LF has
// an empty line after it, which an explicit count decides (an empty URL, path `/`), where
// 0xffffffff (every line) stops before it. The API always passes exact counts.
describe("matchBatch through the raw exports", () => {
  it("decides the empty line after a final LF when the count includes it", () => {
    const engine = loadEngine(readFileSync(new URL("../build/release.wasm", import.meta.url)));
    const x = engine.exports;
    const body = encoder.encode("User-agent: *\nDisallow: /\nAllow: /$\n");
    const table = x.compile(putBytes(engine, body), body.length, 0);
    const agents = encodeAgents("FooBot");
    x.selectAgents(table, putBytes(engine, agents), agents.length);
    const urls = encoder.encode("https://a.com/x\n");
    const decide = (count: number) => {
      const verdicts = x.allocate(4);
      const details = x.allocate(16);
      const done = x.matchBatch(table, putBytes(engine, urls), urls.length, 0, count, verdicts, details, MatchMode.lines);
      return { done, lines: Array.from(new Uint32Array(x.memory.buffer.slice(details, details + done * 4))) };
    };
    expect(decide(2)).toEqual({ done: 2, lines: [2, 3] });
    expect(decide(ALL_LINES)).toEqual({ done: 1, lines: [2] });
    x.freeTable(table);
  });
});
