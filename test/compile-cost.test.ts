/**
 * The cost of compiling a file (parse, then the first URL, which builds the match plan and expands
 * the nodes of the tree it walks into) grows linearly with the file's bytes, for files shaped to
 * make the plan's build super-linear:
 * - nested literal prefixes (`/b`, `/ab`, `/aab`, ...: a chain of nodes one byte apart, each
 *   expanded with the members below it; plan.ts expandNode and commonPrefix), alone and with long
 *   rules that share the whole chain;
 * - wildcard patterns, and wildcard rules' literal prefixes, that share their first and last
 *   bytes and differ only in between, so that a hash of their ends alone puts them all in one
 *   slot of an open-addressing set (distinct.ts distinctRanks, plan.ts indexCrowdedPrefixes);
 * - patterns, and literal prefixes, chosen offline so that their hashes share their low bits
 *   (test/fixtures/hash-flood/): a set that only hashed them would probe past every one before
 *   (byte-groups.ts firstOfEqual, which sorts them instead once its probes pass a budget).
 * Each is timed with perByteRatio (no wall-clock threshold) and checked against the reference.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loadEngine } from "../src/wasm.js";
import { compileOnce } from "./support/compile-once.js";
import { fuzzRuns } from "./support/fuzz.js";
import { FLOOD_BITS, FLOOD_COUNT, FLOOD_LEADS, floods } from "./support/hash-flood.js";
import { perByteRatio } from "./support/linear-time.js";
import { reference, wasmImplementations } from "./support/implementations.js";

/**
 * The release build without its DFA, so that a small file and a large one take the same way
 * through the plan: the DFA is tried for selections of at most 4,096 rules only (and gives up on
 * these files' thousands of positions), so the small files alone would pay for the try.
 */
const engine = loadEngine(readFileSync(fileURLToPath(new URL("../build/release.wasm", import.meta.url))));
engine.exports.configureDfa(0, 0, 0);

interface Shape {
  name: string;
  /** The file for size n. */
  body(n: number): string;
  /** The first URL for size n: it builds the plan, and expands the nodes it walks into. */
  firstUrl(n: number): string;
  /** Sizes whose files are 16 times apart in bytes. */
  sizes: [small: number, large: number];
  /** The bound on the per-byte ratio. */
  bound: number;
  /** The size of the file compared with the reference (the debug builds and the reference are slower). */
  checked: number;
  /** URLs to compare with the reference, on a file of size n. */
  urls(n: number): string[];
}

const site = "https://example.com";
const pad = (i: number) => String(i).padStart(6, "0");
const lines = (n: number, line: (i: number) => string) => Array.from({ length: n }, (_, i) => line(i)).join("\n");
/** A third of the rules allow, so that verdicts vary. */
const kind = (i: number) => (i % 3 === 0 ? "Allow" : "Disallow");

/**
 * Nested prefixes make a file of n rules hold about n²/2 bytes and a chain of n nodes. Reading
 * every prefix below a node at every node of the chain costs bytes^1.5, not bytes² (a ratio of 4
 * at 16 times the bytes, 3.8 to 4 as measured), so the bound for these sits lower, at 2 (about 1
 * when linear).
 */
const NESTED_BOUND = 2;

/** The fixture's strings, whose hashes (with their lead) share their low FLOOD_BITS bits. */
const flood = (name: keyof typeof FLOOD_LEADS) =>
  readFileSync(fileURLToPath(new URL(`fixtures/hash-flood/${name}.txt`, import.meta.url)), "utf8").split("\n").filter(Boolean);
const floodPatterns = flood("patterns");
const floodPrefixes = flood("prefixes");

describe("the hash-flood fixtures", () => {
  it.each(Object.entries(FLOOD_LEADS))("%s flood the hash (else: npx vite-node scripts/write-hash-flood.ts)", (name, lead) => {
    const strings = flood(name as keyof typeof FLOOD_LEADS);
    expect(strings).toHaveLength(FLOOD_COUNT);
    expect(new Set(strings).size).toBe(FLOOD_COUNT);
    expect(strings.filter((string) => !floods(lead + string, FLOOD_BITS))).toEqual([]);
  });

  // The engine's own hash, not its copy in hash-flood.ts: a file of the flood gives its grouping
  // up for a sort, and one of as many other strings of the same shape does not.
  it.each([
    ["patterns", (strings: string[]) => strings.map((letters) => `Disallow: /*${letters}`)],
    ["prefixes", (strings: string[]) => strings.map((letters) => `Disallow: /${letters}*q`)],
  ] as const)("%s make the engine sort, and others of their shape do not", (name, rules) => {
    const others = Array.from({ length: 2_000 }, (_, i) => `${(i * 7_919).toString(36)}zz`.slice(0, 6));
    const sorts = (strings: string[]) => {
      const before = engine.exports.floodCount(0);
      compile([`User-agent: *\n${rules(strings).join("\n")}\n`, `${site}/x`]);
      return engine.exports.floodCount(0) - before;
    };
    expect(sorts(flood(name).slice(0, 2_000))).toBe(1);
    expect(sorts(others)).toBe(0);
  });
});

/**
 * The prefix flood's first n / 128 prefixes have 17 more rules each, more than a node lists (plan.ts
 * nodeWildcardLimit), so that the gram index gets some; the file has n wildcard rules in all.
 */
const CROWDED_EVERY = 128;
const CROWDED_RULES = 17;

const shapes: Shape[] = [
  {
    name: "nested literal prefixes (`/b`, `/ab`, `/aab`, ...)",
    body: (n) => `User-agent: *\n${lines(n, (i) => `${kind(i)}: /${"a".repeat(i)}b`)}\n`,
    firstUrl: (n) => `${site}/${"a".repeat(n)}`,
    // 126 KB and 2 MB.
    sizes: [491, 2_000],
    bound: NESTED_BOUND,
    checked: 150,
    // Rule i allows when i is a multiple of 3.
    urls: (n) => [`${site}/${"a".repeat(n)}`, `${site}/b`, `${site}/ab`, `${site}/${"a".repeat(99)}b`, `${site}/${"a".repeat(n - 1)}bc`, `${site}/${"a".repeat(n >> 2)}c`],
  },
  {
    name: "nested literal prefixes and as many long rules past their chain",
    body: (n) => `User-agent: *\n${lines(n, (i) => `${kind(i)}: /${"a".repeat(i)}b`)}\n${lines(n, (i) => `${kind(i + 1)}: /${"a".repeat(n)}${i}`)}\n`,
    firstUrl: (n) => `${site}/${"a".repeat(n + 1)}`,
    // 95 KB and 1.5 MB.
    sizes: [244, 1_000],
    bound: NESTED_BOUND,
    checked: 80,
    // Short rule i allows when i is a multiple of 3, long rule i when i + 1 is.
    urls: (n) => [`${site}/${"a".repeat(n + 1)}`, `${site}/${"a".repeat(n)}7`, `${site}/${"a".repeat(n)}8`, `${site}/${"a".repeat(n)}${n - 1}x`, `${site}/${"a".repeat(n - 1)}b`, `${site}/${"a".repeat(60)}b`, `${site}/${"a".repeat(n)}`],
  },
  {
    name: "wildcard patterns that differ only in their middle (`/aaaaaaa*000123zzzzzzzz`)",
    body: (n) => `User-agent: *\n${lines(n, (i) => `${kind(i)}: /aaaaaaa*${pad(i)}zzzzzzzz`)}\n${lines(8, (i) => `${kind(i + 1)}: /aaaaaaa*${pad(i * 7)}zzzzzzzz`)}\n`,
    firstUrl: () => `${site}/aaaaaaab`,
    // 66 KB and 1.1 MB.
    sizes: [2_000, 32_000],
    bound: 4,
    checked: 2_000,
    // Rule i allows when i is a multiple of 3; 7 and 21 are also repeated (by rules 1 and 3 of the eight).
    urls: (n) => [`${site}/aaaaaaab`, `${site}/aaaaaaa-000007zzzzzzzz`, `${site}/aaaaaaa000021zzzzzzzz`, `${site}/aaaaaaa${pad(n - 1)}zzzzzzzz`, `${site}/aaaaaaa/x/${pad(999)}zzzzzzzz/y`, `${site}/aaaaaaa${pad(n)}zzzzzzzz`, `${site}/aaaaaaa000014zzzzzzz`],
  },
  {
    name: "wildcard rules whose literal prefixes differ only in their middle (`/aaaaaaa000123zzzzzzzz*q`)",
    body: (n) => `User-agent: *\n${lines(n, (i) => `${kind(i)}: /aaaaaaa${pad(i)}zzzzzzzz*q${i % 5 === 0 ? "" : i % 5}`)}\n`,
    firstUrl: () => `${site}/aaaaaaab`,
    // 70 KB and 1.1 MB.
    sizes: [2_000, 32_000],
    bound: 4,
    checked: 2_000,
    // Rule i allows when i is a multiple of 3.
    urls: (n) => [`${site}/aaaaaaab`, `${site}/aaaaaaa000010zzzzzzzzq`, `${site}/aaaaaaa000015zzzzzzzz/q`, `${site}/aaaaaaa000011zzzzzzzz/q1`, `${site}/aaaaaaa000011zzzzzzzz/q2`, `${site}/aaaaaaa${pad(n - 1)}zzzzzzzzxq${(n - 1) % 5}`, `${site}/aaaaaaa${pad(n)}zzzzzzzzq`],
  },
  {
    name: "wildcard patterns whose hashes share their low bits (`/*bwgaaa`, `/*bdqaaa`, ...)",
    // n rules, so that the set has 2n slots, all of which the patterns' low bits flood.
    body: (n) => `User-agent: *\n${lines(n - 8, (i) => `${kind(i)}: /*${floodPatterns[i]}`)}\n${lines(8, (i) => `${kind(i + 1)}: /*${floodPatterns[i * 7]}`)}\n`,
    firstUrl: () => `${site}/x`,
    // 9.2 KB and 147 KB.
    sizes: [FLOOD_COUNT / 16, FLOOD_COUNT],
    bound: 4,
    checked: 1_024,
    // Rule i allows when i is a multiple of 3; patterns 0, 7, 14, ... are repeated by rules of the next kind.
    urls: () => [`${site}/x`, `${site}/a/${floodPatterns[5]}`, `${site}/${floodPatterns[3]}`, `${site}/${floodPatterns[7]}/b`, `${site}/${floodPatterns[21]}`, `${site}/${floodPatterns[1_000]}?q`, `${site}/${floodPatterns[2]!.slice(1)}`],
  },
  {
    name: "wildcard rules whose literal prefixes' hashes share their low bits (`/hkjaaa*q`, ...)",
    body: (n) => {
      const crowded = n / CROWDED_EVERY;
      const rules = lines(n - crowded * CROWDED_RULES, (i) => `${kind(i)}: /${floodPrefixes[i]}*q${i % 5 || ""}`);
      return `User-agent: *\n${rules}\n${lines(crowded, (i) => lines(CROWDED_RULES, (j) => `${kind(j)}: /${floodPrefixes[i]}*r${j}`))}\n`;
    },
    firstUrl: () => `${site}/x`,
    // 10 KB and 163 KB.
    sizes: [FLOOD_COUNT / 16, FLOOD_COUNT],
    bound: 4,
    checked: 1_024,
    // Rule i allows when i is a multiple of 3; prefixes 0 to 7 are crowded (their r rules allow when j is a multiple of 3).
    urls: () => [`${site}/x`, `${site}/${floodPrefixes[11]}/q1`, `${site}/${floodPrefixes[13]}q3`, `${site}/${floodPrefixes[10]}q`, `${site}/${floodPrefixes[1]}/r3`, `${site}/${floodPrefixes[2]}r4`, `${site}/${floodPrefixes[7]}q2`, `${site}/${floodPrefixes[5]}r1`],
  },
];

function compile([body, url]: [string, string]): void {
  compileOnce(engine, body, url);
}

describe("compiling a file costs time linear in its bytes", () => {
  it.each(shapes)("on $name", (shape) => {
    const [small, large] = shape.sizes.map((n): [string, string] => [shape.body(n), shape.firstUrl(n)]);
    expect(large![0].length / small![0].length).toBeCloseTo(16, 0);
    expect(perByteRatio(compile, small!, large!)).toBeLessThan(shape.bound);
  });
});

describe.each(wasmImplementations)("$name agrees with the reference", (wasm) => {
  it.each(shapes)("on $name", (shape) => {
    const n = shape.checked;
    const body = shape.body(n);
    const urls = shape.urls(n);
    const actual = wasm.parse(body, { maxBytes: Infinity });
    const expected = reference.parse(body, { maxBytes: Infinity });
    try {
      for (const agent of ["FooBot", "Googlebot"]) {
        const got = actual.classifyWithLines(urls, agent);
        const want = expected.classifyWithLines(urls, agent);
        expect(Array.from(got.allowed), `verdicts for ${agent}`).toEqual(Array.from(want.allowed));
        expect(Array.from(got.lines), `lines for ${agent}`).toEqual(Array.from(want.lines));
        // One URL at a time too, with the deciding rule.
        for (const url of urls) expect(actual.explain(url, agent), url).toEqual(expected.explain(url, agent));
      }
      // The URLs reach rules of both verdicts, and one reaches none.
      const { allowed, lines } = expected.classifyWithLines(urls, "FooBot");
      const matched = urls.map((_, i) => lines[i]! > 0);
      expect(matched.some((yes, i) => yes && allowed[i]), "a matching allow rule").toBe(true);
      expect(matched.some((yes, i) => yes && !allowed[i]), "a matching disallow rule").toBe(true);
      expect(matched.includes(false), "no matching rule").toBe(true);
    } finally {
      actual.dispose();
      expected.dispose();
    }
  });
});

/**
 * Files of flooding patterns and prefixes, repeated in any order and mixed with other rules, so
 * that the sorted grouping (byte-groups.ts, past its budget of probes) meets repeats in every
 * place: the first rule of each pattern in decision order must decide, and rules sharing a prefix
 * must be one crowded prefix.
 */
const floodRule = fc.tuple(fc.boolean(), fc.nat({ max: 200 }), fc.constantFrom("pattern", "prefix", "other"), fc.constantFrom("", "$", "*q", "/"))
  .map(([allow, i, kind, tail]) => {
    // A pattern floods only as written in the fixture, with no tail.
    const path = kind === "pattern" ? `/*${floodPatterns[i]}` : kind === "prefix" ? `/${floodPrefixes[i]}*q${tail}` : `/*x${i}${tail}`;
    return `${allow ? "Allow" : "Disallow"}: ${path}`;
  });
const floodUrl = fc.tuple(fc.nat({ max: 200 }), fc.constantFrom(floodPatterns, floodPrefixes), fc.constantFrom("", "q", "/q", "x7", "$"))
  .map(([i, strings, tail]) => `${site}/${strings[i]}${tail}`);
const floodRuns = fuzzRuns(20261127, 40);

describe.each(wasmImplementations)("$name agrees with the reference on files that flood the hash, with repeats", (wasm) => {
  it("in any order", () => {
    // The release engine of this file sorts for most of these files (counted below).
    let sorted = 0;
    fc.assert(
      fc.property(fc.array(floodRule, { minLength: 150, maxLength: 400 }), fc.array(floodUrl, { minLength: 5, maxLength: 20 }), (rules, urls) => {
        const body = `User-agent: *\n${rules.join("\n")}\n`;
        const before = engine.exports.floodCount(0);
        compile([body, urls[0]!]);
        sorted += engine.exports.floodCount(0) - before;
        const actual = wasm.parse(body);
        const expected = reference.parse(body);
        try {
          expect(Array.from(actual.classifyWithLines(urls, "FooBot").lines)).toEqual(Array.from(expected.classifyWithLines(urls, "FooBot").lines));
        } finally {
          actual.dispose();
          expected.dispose();
        }
      }),
      floodRuns,
    );
    // Both groupings (patterns, prefixes) in most runs.
    expect(sorted).toBeGreaterThan(floodRuns.numRuns);
  });
});
