/**
 * When the engine's defences against flooded hashes act, counted by its `floodCount` export:
 * the grouping of patterns and prefixes gives up its hash set for a sort past a budget of probes
 * (assembly/byte-groups.ts: 8 a string, plus 64), and the gram index is built again under another
 * multiplier when a bucket holds more than 32 entries of other grams than its first
 * (assembly/grams-build.ts). Ordinary files, the corpus's among them, trip neither; and a file that
 * trips them gets its memory back when it is disposed. compile-cost.test.ts and match-cost.test.ts
 * hold what the floods cost.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parseWith } from "../src/robots.js";
import { loadEngine } from "../src/wasm.js";
import { compileOnce } from "./support/compile-once.js";
import { corpusBody, corpusEntries } from "./support/fixtures.js";
import { memoryInUse } from "./support/memory-in-use.js";

const binary = readFileSync(fileURLToPath(new URL("../build/release.wasm", import.meta.url)));
const engine = loadEngine(binary);
const fixture = (name: string) =>
  readFileSync(fileURLToPath(new URL(`fixtures/hash-flood/${name}.txt`, import.meta.url)), "utf8").split("\n").filter(Boolean);
const patterns = fixture("patterns");
const quads = fixture("quads");

/** Past the DFA's 4,096 positions, so that every file here builds the tree and the gram index. */
const NO_DFA_RULE = `Disallow: /${"z".repeat(4100)}`;

/** What compiling `rules` for FooBot (parse, then the first URL, which builds the plan) adds to each flood count. */
function floods(rules: string[], on = engine): { sorted: number; rebuilt: number } {
  const sorted = on.exports.floodCount(0);
  const rebuilt = on.exports.floodCount(1);
  compileOnce(on, `User-agent: *\n${rules.join("\n")}\n${NO_DFA_RULE}\n`, "https://x.com/x");
  return { sorted: on.exports.floodCount(0) - sorted, rebuilt: on.exports.floodCount(1) - rebuilt };
}

/** n ordinary wildcard patterns (`/*0zz`, `/*5vzz`, ...), whose hashes spread. */
const ordinary = (n: number) => Array.from({ length: n }, (_, i) => `Disallow: /*${(i * 7_919).toString(36)}zz`);
const floodPatterns = (n: number) => patterns.slice(0, n).map((letters) => `Disallow: /*${letters}`);
const floodQuads = (n: number) => quads.slice(0, n).map((quad) => `Disallow: /*${quad}*Q`);

describe("the grouping's budget of probes", () => {
  it("leaves a small file alone, however its strings collide (the 64 probes every set may take)", () => {
    // 20 patterns in one run of slots take 190 probes past others, under 21 x 8 + 64.
    expect(floods(floodPatterns(20)).sorted).toBe(0);
    expect(floods(floodPatterns(30)).sorted).toBe(1);
  });

  it("leaves a large file with a cluster of colliding strings alone (8 probes a string on average)", () => {
    // 100 strings in one run of slots among 2,000 that spread: 4,950 probes past others, under 2,101 x 8 + 64.
    expect(floods([...ordinary(2_000), ...floodPatterns(100)]).sorted).toBe(0);
    expect(floods([...ordinary(2_000), ...floodPatterns(250)]).sorted).toBe(1);
  });
});

describe("the gram index's flooded bucket", () => {
  it("is one with more than 32 entries of other grams than its first", () => {
    // 33 and 34 rules: 128 buckets, all of them in bucket 0 under the first multiplier.
    expect(floods(floodQuads(33)).rebuilt).toBe(0);
    expect(floods(floodQuads(34)).rebuilt).toBe(1);
  });
});

describe("ordinary files", () => {
  it("of the corpus trip no defence, for any of four agents", () => {
    const agents = ["Googlebot", "Bingbot", "FooBot", "Googlebot-Image"];
    const before = [engine.exports.floodCount(0), engine.exports.floodCount(1)];
    for (const entry of corpusEntries()) {
      const robots = parseWith(engine, corpusBody(entry), { maxBytes: Infinity });
      try {
        for (const agent of agents) robots.isAllowed("https://x.com/x", agent);
      } finally {
        robots.dispose();
      }
    }
    expect({ sorted: engine.exports.floodCount(0) - before[0]!, rebuilt: engine.exports.floodCount(1) - before[1]! }).toEqual({ sorted: 0, rebuilt: 0 });
  });
});

describe("a file that trips a defence", () => {
  // The sort and the rebuild each free what the hash set or the first index held.
  it.each([
    ["a sorted grouping", () => floodPatterns(2_000)],
    ["a rebuilt gram index", () => floodQuads(2_048)],
  ] as const)("gives its memory back: %s", (_, rules) => {
    // An engine of its own, whose memory only these compiles lay out (a leak held 7 and 15 MiB here).
    const own = loadEngine(binary);
    const body = rules();
    for (let i = 0; i < 3; i++) expect(floods(body, own)).not.toEqual({ sorted: 0, rebuilt: 0 });
    const held = memoryInUse(own);
    for (let i = 0; i < 100; i++) floods(body, own);
    expect(memoryInUse(own) - held).toBeLessThan(64 << 10);
  });
});
