/**
 * Tests for what a mutation audit of the day's changes (kept selections, commonPrefix,
 * patternHash, the gram probe's stamps, released scratch, bounded directive lists) found
 * untested, each verified to fail on its mutant.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { extractMetaTags, IndexingDirectives, initSync } from "../src/index.js";
import { runMeta } from "../src/cli/meta.js";
import { parseWith } from "../src/robots.js";
import { KEPT_SCRATCH_BYTES, loadEngine } from "../src/wasm.js";
import { compileOnce } from "./support/compile-once.js";
import { perByteRatio } from "./support/linear-time.js";
import { encodeAgents, putBytes } from "./support/raw-exports.js";
import { reference, wasmImplementations } from "./support/implementations.js";
import { fuzzRuns } from "./support/fuzz.js";
import { memoryInUse } from "./support/memory-in-use.js";

const binary = readFileSync(new URL("../build/release.wasm", import.meta.url));

/** Six groups of the same shape, each named by one agent, and a `*` group. */
function sixGroups(rulesPerGroup: number): string {
  const lines: string[] = [];
  for (const name of ["a", "b", "c", "d", "e", "f"]) {
    lines.push(`User-agent: bot-${name}`);
    for (let r = 0; r < rulesPerGroup; r++) lines.push(`${r % 3 ? "Disallow" : "Allow"}: /${name}/${r}/`);
    lines.push("");
  }
  lines.push("User-agent: *", "Disallow: /any/", "");
  return lines.join("\n");
}

describe("kept selections: three besides the current one, least recently used given up first", () => {
  const engine = loadEngine(binary);

  it("keeps a selection's grown plan while it is among the last four, and gives up the least recently used", () => {
    const robots = parseWith(engine, sixGroups(200));
    try {
      // A plan grows the nodes its paths reach: one asked every rule's path holds them all.
      const expand = (name: string) => {
        for (let r = 0; r < 200; r++) robots.isAllowed(`/${name}/${r}/x`, `bot-${name}`);
      };
      const touch = (name: string) => robots.isAllowed("/z", `bot-${name}`);
      for (const name of ["a", "b", "c", "d"]) expand(name);
      const four = robots.tableBytes;
      // a was three selections back: kept with its grown plan, not rebuilt.
      touch("a");
      expect(robots.tableBytes).toBe(four);
      // e is new: the least recently used (b, as a was used again) goes with its grown plan.
      touch("e");
      const afterE = robots.tableBytes;
      expect(afterE).toBeLessThan(four);
      // d, c and a are kept, grown.
      for (const name of ["d", "c", "a"]) {
        touch(name);
        expect(robots.tableBytes).toBe(afterE);
      }
    } finally {
      robots.dispose();
    }
  });

  it("agents that fall to the groups of the current selection share it: no second selection or plan", () => {
    const robots = parseWith(engine, sixGroups(200));
    try {
      // The longest agent first: the table's copy of the agents asked for has its room.
      for (let r = 0; r < 200; r++) robots.isAllowed(`/any/${r}/x`, "Googlebot-Image");
      const one = robots.tableBytes;
      // Googlebot, other and Googlebot-Image again all fall to `*`: the same selection, its plan as grown.
      for (const agent of ["Googlebot", "other", "Googlebot-Image"]) {
        robots.isAllowed("/z", agent);
        expect(robots.tableBytes).toBe(one);
      }
    } finally {
      robots.dispose();
    }
  });

  it("counts a kept selection's rule list and plan in tableBytes (raw exports)", () => {
    const body = new TextEncoder().encode(sixGroups(400));
    const bodyPointer = putBytes(engine, body);
    const table = engine.exports.compile(bodyPointer, body.length, 0);
    const select = (name: string) => {
      const agents = encodeAgents(name);
      const pointer = putBytes(engine, agents);
      engine.exports.selectAgents(table, pointer, agents.length);
      engine.exports.release(pointer);
    };
    try {
      select("bot-a");
      const current = engine.exports.tableBytes(table);
      // bot-a's selection is kept, with its 400 rules (a u32 each) and no plan; bot-b's is new.
      select("bot-b");
      const keptNoPlan = engine.exports.tableBytes(table);
      expect(keptNoPlan - current).toBeGreaterThanOrEqual(400 * 4);
      // bot-b's whole plan, then bot-b kept in turn: its plan is counted as the current one was.
      const withPlan = engine.exports.expandPlan(table);
      const plan = withPlan - keptNoPlan;
      expect(plan).toBeGreaterThan(400 * 4);
      select("bot-c");
      expect(engine.exports.tableBytes(table) - withPlan).toBeGreaterThanOrEqual(400 * 4);
    } finally {
      engine.exports.freeTable(table);
      engine.exports.release(bodyPointer);
    }
  });
});

describe("scratch regions past 1 MiB", () => {
  it("gives back the region of a URL of 400,000 characters (1.2 MB), and keeps that of 300,000 (0.9 MB)", () => {
    expect(KEPT_SCRATCH_BYTES).toBe(1 << 20);
    const engine = loadEngine(binary);
    const robots = parseWith(engine, "User-agent: *\nDisallow: /a\n");
    try {
      // Three bytes a character at most: 900,000 bytes, kept for the next call.
      robots.isAllowed(`http://x/${"b".repeat(300_000)}`, "bot");
      const { allocate, release } = engine.exports;
      const calls = { allocate: 0, release: 0 };
      engine.exports.allocate = (size) => (calls.allocate++, allocate(size));
      engine.exports.release = (pointer) => (calls.release++, release(pointer));
      robots.isAllowed(`http://x/${"b".repeat(300_000)}`, "bot");
      expect(calls).toEqual({ allocate: 0, release: 0 });
      // 1.2 MB: the kept region freed for a larger one, and that one freed after the call.
      robots.isAllowed(`http://x/${"c".repeat(400_000)}`, "bot");
      expect(calls).toEqual({ allocate: 1, release: 2 });
    } finally {
      robots.dispose();
    }
  });

  it.each([
    ["a robots.txt of 2 MB", (engine: ReturnType<typeof loadEngine>) => parseWith(engine, `User-agent: *\n${"Disallow: /x\n".repeat(170_000)}`, { maxBytes: Infinity }).dispose()],
    ["an agent name of 1.2 MB", (engine: ReturnType<typeof loadEngine>) => {
      const robots = parseWith(engine, "User-agent: *\nDisallow: /a\n");
      robots.isAllowed("/a", ["x".repeat(1_200_000)]);
      robots.dispose();
    }],
  ] as const)("gives back the region of %s when the call returns", (_, call) => {
    const engine = loadEngine(binary);
    // The regions made small first.
    const robots = parseWith(engine, "User-agent: *\nDisallow: /a\n");
    robots.isAllowed("/a", "bot");
    robots.dispose();
    const { allocate, release } = engine.exports;
    const calls = { allocate: 0, release: 0 };
    engine.exports.allocate = (size) => (calls.allocate++, allocate(size));
    engine.exports.release = (pointer) => (calls.release++, release(pointer));
    call(engine);
    // The small region freed for a large one, and the large one freed after the call.
    expect(calls).toEqual({ allocate: 1, release: 2 });
  });

});

describe("every scratch region a large call grew is given back when it returns", () => {
  const encoder = new TextEncoder();
  const long = `/${"c".repeat(400_000)}`;
  it.each([
    ["classifyWithLines of 1.2 MB of lines", (robots: ReturnType<typeof parseWith>) => robots.classifyWithLines(encoder.encode("/a\n".repeat(400_000)), "bot")],
    ["matchingRules of a long URL", (robots: ReturnType<typeof parseWith>) => robots.matchingRules(long, "bot")],
    ["explain of a long URL", (robots: ReturnType<typeof parseWith>) => robots.explain(long, "bot")],
  ] as const)("%s", (_, call) => {
    const engine = loadEngine(binary);
    const robots = parseWith(engine, "User-agent: *\nDisallow: /a\n");
    try {
      call(robots);
      const regions = (engine as unknown as { regions: Map<string, { capacity: number }> }).regions;
      expect(regions.size).toBeGreaterThan(0);
      for (const [name, region] of regions) expect(region.capacity, name).toBeLessThanOrEqual(KEPT_SCRATCH_BYTES);
    } finally {
      robots.dispose();
    }
  });
});

describe("matchingRules of a long path gives back the engine's scratch", () => {

  it("a path rewritten through the path scratch (RFC 9309 decodes %41) holds no memory after the call", () => {
    const held = (url: string | undefined) => {
      const engine = loadEngine(binary);
      const robots = parseWith(engine, "User-agent: *\nDisallow: /A\n", { profile: "rfc9309" });
      if (url !== undefined) expect(robots.matchingRules(url, "bot")).toHaveLength(1);
      robots.dispose();
      return memoryInUse(engine);
    };
    expect(held(`http://x/${"%41".repeat(1_000_000)}`) - held(undefined)).toBeLessThan(KEPT_SCRATCH_BYTES);
  });
});

describe("bytesHash reads every byte of a short pattern too", () => {
  // As compile-cost.test.ts: the release build without its DFA, so that both files take one way.
  const engine = loadEngine(binary);
  engine.exports.configureDfa(0, 0, 0);
  const file = (n: number) => `User-agent: *\n${Array.from({ length: n }, (_, i) => `${i % 3 ? "Disallow" : "Allow"}: /*${i.toString(36).padStart(3, "0")}$`).join("\n")}\n`;
  const compile = ([body, url]: [string, string]) => compileOnce(engine, body, url, "bot");

  it("compiles distinct wildcard patterns of under eight bytes in time linear in the file, with no sort", () => {
    // Patterns of seven bytes at most (`/*0rs$`): a hash that lost any of their bytes files them
    // in few runs of slots, which the grouping would give up for a sort (byte-groups.ts), so
    // linear time alone does not show the hash reads them all.
    const small: [string, string] = [file(2_000), "/x/0rs"];
    const large: [string, string] = [file(32_000), "/x/0rs"];
    expect(large[0].length / small[0].length).toBeCloseTo(16, 0);
    const sorted = engine.exports.floodCount(0);
    expect(perByteRatio(compile, small, large)).toBeLessThan(4);
    expect(engine.exports.floodCount(0)).toBe(sorted);
    const expected = reference.parse(small[0]);
    const actual = parseWith(engine, small[0]);
    try {
      for (const target of ["/x/0rs", "/a/000", "/a/001", "/a/001x", "/1jz", "/1k0"]) expect(actual.explain(target, "bot")).toEqual(expected.explain(target, "bot"));
    } finally {
      actual.dispose();
    }
  });
});

/**
 * Prefixes of two letters sharing long runs: the match tree's groups share labels of many bytes
 * that end at any byte of an eight-byte word (commonPrefix), and the gram index sees paths that
 * repeat their grams past the 128 bytes after which it probes with stamps.
 */
describe.each(wasmImplementations)("$name agrees with the reference on rules over two letters", (wasm) => {
  const { seed, numRuns } = fuzzRuns(20261128, 150);
  // Random letters, or a run of `a` with one `b`: members that differ in one byte of a word only.
  const word = fc.oneof(
    fc.array(fc.constantFrom("a", "b"), { minLength: 0, maxLength: 40 }).map((letters) => letters.join("")),
    fc.tuple(fc.nat({ max: 40 }), fc.nat({ max: 40 })).map(([length, at]) => `${"a".repeat(at)}b${"a".repeat(length)}`),
  );
  const rule = fc.record({
    allow: fc.boolean(),
    parts: fc.array(word, { minLength: 1, maxLength: 3 }),
    end: fc.boolean(),
  }).map(({ allow, parts, end }) => `${allow ? "Allow" : "Disallow"}: /${parts.join("*")}${end ? "$" : ""}`);
  const path = fc.tuple(word, fc.nat({ max: 12 }), word).map(([head, times, tail]) => `/${head}${"ab".repeat(times * 12)}${tail}`);

  it("for prefixes that share up to 40 bytes and paths up to 400", () => {
    fc.assert(fc.property(fc.array(rule, { minLength: 1, maxLength: 40 }), fc.array(path, { minLength: 1, maxLength: 20 }), (rules, paths) => {
      const body = `User-agent: *\n${rules.join("\n")}\n`;
      for (const profile of ["google", "rfc9309"] as const) {
        const expected = reference.parse(body, { profile });
        const actual = wasm.parse(body, { profile });
        try {
          for (const target of paths) expect(actual.explain(target, "bot"), `${profile} ${target}`).toEqual(expected.explain(target, "bot"));
        } finally {
          actual.dispose?.();
        }
      }
    }), { seed, numRuns });
  });
});

describe("bounded directive lists", () => {
  initSync();

  it("keeps 256 invalid elements of a page, 32 from each of its sources, and counts the rest", () => {
    const tag = (i: number) => `<meta name=robots content="${Array.from({ length: 32 }, (_, k) => `noindex: ${i}-${k}`).join(", ")}">`;
    const page = IndexingDirectives.parse({ html: Array.from({ length: 9 }, (_, i) => tag(i)).join("") });
    expect(page.invalid).toHaveLength(256);
    expect(page.invalid.at(-1)!.text).toBe("noindex: 7-31");
    expect(page.omitted).toEqual({ directives: 0, unknown: 0, invalid: 32 });
    expect(page.resolve("bot").omitted).toEqual({ directives: 0, unknown: 0, invalid: 32 });
  });

  it("keeps the first of equally restrictive directives, where it was read, and counts the others", () => {
    const page = IndexingDirectives.parse({
      headers: ["noindex, max-snippet: 5, max-image-preview: standard"],
      html: "<meta name=robots content=\"noindex, max-snippet: 05, max-image-preview: Standard\">",
    });
    expect(page.directives.map((d) => `${d.text} [${d.source.type}]`)).toEqual([
      "noindex [header]", "max-snippet: 5 [header]", "max-image-preview: standard [header]",
    ]);
    expect(page.omitted).toEqual({ directives: 3, unknown: 0, invalid: 0 });
  });

  it.each([
    ["max-snippet", "-1", "3", { maxSnippet: 3 }],
    ["max-snippet", "3", "-1", { maxSnippet: 3 }],
    ["max-snippet", "7", "0", { maxSnippet: 0 }],
    ["max-video-preview", "-1", "4", { maxVideoPreview: 4 }],
    ["max-video-preview", "9", "2", { maxVideoPreview: 2 }],
    ["max-video-preview", "2", "-1", { maxVideoPreview: 2 }],
    ["max-image-preview", "large", "none", { maxImagePreview: "none" }],
    ["max-image-preview", "large", "standard", { maxImagePreview: "standard" }],
    ["max-image-preview", "standard", "large", { maxImagePreview: "standard" }],
    ["unavailable_after", "2031-05-01", "2030-01-01", { unavailableAfter: new Date("2030-01-01T00:00:00Z") }],
    ["unavailable_after", "2030-01-01", "2031-05-01", { unavailableAfter: new Date("2030-01-01T00:00:00Z") }],
  ] as const)("keeps the more restrictive of two %s values, %s then %s, from either source", (name, first, second, expected) => {
    for (const [headers, html] of [
      [[`${name}: ${first}, ${name}: ${second}`], ""],
      [[`${name}: ${first}`], `<meta name=robots content="${name}: ${second}">`],
    ] as const) {
      const page = IndexingDirectives.parse({ headers: [...headers], html });
      expect(page.directives).toHaveLength(1);
      expect(page.omitted.directives).toBe(1);
      expect(page.resolve("bot", { now: new Date("2020-01-01T00:00:00Z") })).toMatchObject(expected);
    }
  });

  it("reads a list that starts with a comma, or holds empty elements, element by element", () => {
    const page = IndexingDirectives.parse({ headers: [",noindex", "nofollow,,  ,max-snippet: 3,"] });
    expect(page.directives.map((d) => d.text)).toEqual(["noindex", "nofollow", "max-snippet: 3"]);
    expect(page.unknown).toEqual([]);
    expect(page.resolve("bot")).toMatchObject({ index: false, follow: false, maxSnippet: 3 });
  });

  it("names an agent whose every element was left out among the page's agents", () => {
    const junk = Array.from({ length: 32 }, (_, k) => `junk${k}`).join(", ");
    const page = IndexingDirectives.parse({
      html: `${`<meta name=robots content="${junk}">`.repeat(8)}<meta name=googlebot content="other">`,
    });
    expect(page.unknown).toHaveLength(256);
    expect(page.agents).toEqual(["googlebot"]);
    expect(page.resolve("googlebot").omitted).toEqual({ directives: 0, unknown: 1, invalid: 0 });
    expect(page.resolve("googlebot", { policy: "specific-overrides-generic" }).omitted).toEqual({ directives: 0, unknown: 1, invalid: 0 });
  });

  it("shares the name and content that many meta tags repeat", () => {
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    const heapUsed = () => (gc(), gc(), process.memoryUsage().heapUsed);
    const tags = 64_000;
    const html = new TextEncoder().encode("<meta name=robots content='noindex, nofollow, noarchive'>".repeat(tags));
    const before = heapUsed();
    const kept = extractMetaTags(html);
    const perTag = (heapUsed() - before) / tags;
    expect(kept).toHaveLength(tags);
    // About 90 bytes a tag (its object); a name and content of its own each took 160.
    expect(perTag).toBeLessThan(120);
    expect(kept[tags - 1]).toMatchObject({ name: "robots", content: "noindex, nofollow, noarchive" });
  });
});

describe("robots meta says what the bounded lists leave out", () => {
  /** runMeta on a page of `html`, what it prints. */
  async function meta(html: string): Promise<string> {
    const path = join(mkdtempSync(join(tmpdir(), "robots-day-")), "page.html");
    writeFileSync(path, html);
    let stdout = "";
    const spy = vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
      stdout += String(chunk);
      return true;
    });
    try {
      await runMeta([path, "--agent", "Googlebot"]);
    } finally {
      spy.mockRestore();
    }
    return stdout;
  }

  it("counts unknown, invalid and repeated ones in one row, a repeat in the singular", async () => {
    const junk = (prefix: string) => Array.from({ length: 34 }, (_, k) => `${prefix}${k}`).join(", ");
    const out = await meta(`<meta name=robots content="${junk("x")}, ${junk("noindex: ")}, nofollow, nofollow">`);
    expect(out).toMatch(/^omitted +2 unknown, 2 invalid, 1 repeated directive \(not listed\)$/m);
    const repeated = await meta("<meta name=robots content='noindex, noindex, noindex'>");
    expect(repeated).toMatch(/^omitted +2 repeated directives \(not listed\)$/m);
    expect(await meta("<meta name=robots content='noindex'>")).not.toMatch(/omitted/);
  });
});
