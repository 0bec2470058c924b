/**
 * The gram index (assembly/grams-probe.ts) on paths that repeat a rule's gram: a probe must stay
 * linear in the path, whatever the rules that share the gram, and each rule must still be found
 * where its key is in place at a later occurrence only. The files carry a literal rule of 4,100
 * bytes, more NFA positions than the DFA takes, so that the release build decides every path with
 * the tree and the index, as it does for large files.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseWith } from "../src/robots.js";
import { loadEngine } from "../src/wasm.js";
import { fuzzRuns } from "./support/fuzz.js";
import { QUAD_FLOOD_BITS, QUAD_FLOOD_COUNT, quadBucket } from "./support/hash-flood.js";
import { perByteRatio } from "./support/linear-time.js";
import { implementations, reference, wasmImplementations } from "./support/implementations.js";
import type { Profile, RobotsTxt } from "../src/types.js";

const release = implementations.find((impl) => impl.name === "wasm-release");
if (!release) throw new Error("the linear-time checks need the release build (ROBOTS_IMPLS must include wasm-release)");

/** Past the DFA's 4,096 positions. */
const NO_DFA_RULE = `Disallow: /${"z".repeat(4100)}`;

function file(rules: string[]): string {
  return `User-agent: *\n${rules.join("\n")}\n${NO_DFA_RULE}\n`;
}

function times<T>(n: number, f: (i: number) => T): T[] {
  return Array.from({ length: n }, (_, i) => f(i));
}

/** The digits of i as one-byte segments (`1*2*3`): segments too short for a quad of their own. */
function digitSegments(i: number): string {
  return String(i).split("").join("*");
}

/** Rules `/*abcd*1*2*Q` that all file under the quad `abcd` (their only one). */
function sharedQuadRules(n: number): string[] {
  return times(n, (i) => `Disallow: /*abcd*${digitSegments(i)}*Q`);
}

/** Quads that fall in one bucket of the gram index under its first multiplier (test/fixtures/hash-flood/). */
const floodQuads = readFileSync(fileURLToPath(new URL("fixtures/hash-flood/quads.txt", import.meta.url)), "utf8").split("\n").filter(Boolean);

/** Rules `/*<quad>*Q`, the first n of the flooding quads, a third of them Allow. */
function floodRules(n: number): string[] {
  return floodQuads.slice(0, n).map((quad, i) => `${i % 3 === 0 ? "Allow" : "Disallow"}: /*${quad}*Q`);
}

interface Probe {
  robots: RobotsTxt;
  url: string;
}

/** The release build's parse of `body`, its plan built by a first URL. */
function probe(body: string, url: string): Probe {
  const robots = release!.parse(body);
  robots.isAllowed(url, "FooBot");
  return { robots, url };
}

function ratio(small: Probe, large: Probe): number {
  try {
    return perByteRatio(({ robots, url }) => robots.isAllowed(url, "FooBot"), small, large);
  } finally {
    small.robots.dispose();
    large.robots.dispose();
  }
}

describe("the hash-flood quads", () => {
  it("fall in one bucket of the gram index's first multiplier (else: npx vite-node scripts/write-hash-flood.ts)", () => {
    expect(floodQuads).toHaveLength(QUAD_FLOOD_COUNT);
    expect(new Set(floodQuads).size).toBe(QUAD_FLOOD_COUNT);
    expect(floodQuads.filter((quad) => quad.length !== 4 || quadBucket(quad, QUAD_FLOOD_BITS) !== 0)).toEqual([]);
  });

  // The engine's own hash, not its copy in hash-flood.ts.
  it("make the engine build its gram index again, and a big bucket of one quad does not", () => {
    const engine = loadEngine(readFileSync(fileURLToPath(new URL("../build/release.wasm", import.meta.url))));
    const rebuilds = (body: string) => {
      const before = engine.exports.floodCount(1);
      const robots = parseWith(engine, body);
      robots.isAllowed("https://x.com/x", "FooBot");
      robots.dispose();
      return engine.exports.floodCount(1) - before;
    };
    expect(rebuilds(file(floodRules(QUAD_FLOOD_COUNT)))).toBe(1);
    // A quad and an end quad of the same bytes once shared a bucket under every multiplier, and
    // counted as two grams there: a big bucket of one quad was built three times.
    expect(rebuilds(file([...sharedQuadRules(200), "Allow: /*1*2*3*4*5*6*abcd$"]))).toBe(0);
  });
});

describe("the gram index stays linear in the path", () => {
  // Rules of different quads that a site chose to share a bucket: a path of those quads read the
  // whole bucket at each of them (the rules fail its byte masks: no `Q`), rules x path. The index
  // is built again with another multiplier, under which they spread.
  it("reads a bucket flooded by rules of different quads no more than any (rules and path 16 times)", () => {
    const small = probe(file(floodRules(128)), `https://x.com/${floodQuads.slice(0, 128).join("")}`);
    const large = probe(file(floodRules(2048)), `https://x.com/${floodQuads.join("")}`);
    expect(ratio(small, large)).toBeLessThan(4);
  });

  // Every rule shares the quad `abcd` and fails the path's byte masks (no `Q`): each occurrence
  // of `abcd` read the whole bucket again, so the cost was rules x occurrences.
  it("reads a bucket of rules sharing a quad once, however often the path repeats it (rules and path 16 times)", () => {
    const small = probe(file(sharedQuadRules(250)), `https://x.com/${"abcd".repeat(250)}`);
    const large = probe(file(sharedQuadRules(4000)), `https://x.com/${"abcd".repeat(4000)}`);
    expect(ratio(small, large)).toBeLessThan(4);
  });

  // A path of at most 128 bytes after the prefix is probed without stamps, but a bucket of rules
  // sharing a quad was read again at each place of the quad in such a path, up to 125 (40,000
  // rules: 2.3 ms for 31 places, 0.12 for one). An index with a bucket of more than 64 entries
  // probes short paths with stamps too.
  it("reads a big bucket once on a short path too, however often the path holds its quad (31 places against one)", () => {
    const robots = release!.parse(file(sharedQuadRules(4000)));
    const once = "https://x.com/abcdxyz";
    const often = `https://x.com/${"abcd".repeat(31)}`;
    try {
      robots.isAllowed(once, "FooBot");
      // Each timing decides 16 URLs: the short path 16 times, or the path of 31 places 16 times.
      const cost = perByteRatio((urls: string[]) => urls.forEach((url) => robots.isAllowed(url, "FooBot")), [once], Array<string>(16).fill(often));
      expect(cost).toBeLessThan(4);
    } finally {
      robots.dispose();
    }
  });

  // The same rules on a path that holds every byte they need: the key `abcd` is in place at every
  // occurrence and the rest of each rule fails, which was a search of the path per rule and
  // occurrence. Each rule is now matched once.
  it("decides a rule whose key is in place at every occurrence once (path 16 times, rules fixed)", () => {
    const body = file(sharedQuadRules(40));
    const small = probe(body, `https://x.com/${"abcd".repeat(250)}Q0123456789`);
    const large = probe(body, `https://x.com/${"abcd".repeat(4000)}Q0123456789`);
    expect(ratio(small, large)).toBeLessThan(4);
  });

  // Rules whose key is longer than the quad they file under, all the same key, on a path that
  // repeats the quad but never holds the key (and holds every byte and pair the rules need): no
  // occurrence decides them, and each read the whole bucket again. Now the bucket costs a compare
  // of the key they share.
  it("reads a bucket whose rules share a key that is never in place once (rules and path 16 times)", () => {
    const rules = (n: number) => times(n, (i) => `Disallow: /*abcdefgh*${digitSegments(i)}*Q`);
    const small = probe(file(rules(250)), `https://x.com/${"abcdX".repeat(200)}defghQ0123456789`);
    const large = probe(file(rules(4000)), `https://x.com/${"abcdX".repeat(3200)}defghQ0123456789`);
    expect(ratio(small, large)).toBeLessThan(4);
  });

  // A segment before the key that the path holds only after the last occurrence of the key.
  it("decides a rule whose earlier segment follows every occurrence of its key once (path 16 times)", () => {
    const body = file(["Disallow: /*xyz*abcd", ...times(20, (i) => `Disallow: /*q${i}*r`)]);
    const small = probe(body, `https://x.com/${"abcd".repeat(1000)}xyz`);
    const large = probe(body, `https://x.com/${"abcd".repeat(16000)}xyz`);
    expect(ratio(small, large)).toBeLessThan(4);
  });

  // A segment after the key that the path does not hold (its bytes and pairs it does).
  it("decides a rule whose later segment the path lacks once (path 16 times)", () => {
    const body = file(["Disallow: /*abcd*xyz", ...times(20, (i) => `Disallow: /*q${i}*r`)]);
    const small = probe(body, `https://x.com/${"abcd".repeat(1000)}xyyz`);
    const large = probe(body, `https://x.com/${"abcd".repeat(16000)}xyyz`);
    expect(ratio(small, large)).toBeLessThan(4);
  });
});

/** Files whose rules share a gram that the URLs below repeat, with rules that match at a later occurrence only. */
const cases: { name: string; body: string; urls: string[] }[] = [
  {
    // The index built again under another multiplier, with rules of every kind of gram beside the flood.
    name: "rules of quads that share a bucket, with rules filed by pairs and by end grams",
    body: file([
      "Disallow: /",
      ...floodRules(200),
      ...times(40, (i) => `Allow: /*${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(65 + Math.floor(i / 26))}`),
      ...times(40, (i) => `Allow: /*-*${(1_000 + i).toString(36)}$`),
      ...times(40, (i) => `Allow: /*~*${String.fromCharCode(97 + (i % 26))}$`),
    ]),
    urls: [
      "https://x.com/zz/cA/", "https://x.com/zz/cA", `https://x.com/-/${(1_007).toString(36)}`, "https://x.com/~/k",
      "https://x.com/-/none", `https://x.com/${floodQuads[3]}Q`, `https://x.com/${floodQuads[4]}`,
    ],
  },
  {
    name: "rules of quads that share a bucket",
    body: file(floodRules(QUAD_FLOOD_COUNT)),
    urls: [
      `https://x.com/${floodQuads.slice(0, 300).join("")}`,
      `https://x.com/${floodQuads.slice(0, 300).join("")}Q`,
      `https://x.com/x${floodQuads[7]}yQ`,
      `https://x.com/${floodQuads[9]}Q`,
      `https://x.com/${floodQuads[2_000]}/Q/${floodQuads[1_999]}`,
      `https://x.com/Q${floodQuads[30]}`,
      `https://x.com/${floodQuads[4]!.slice(0, 3)}Q`,
    ],
  },
  {
    name: "rules sharing a quad",
    body: file([...sharedQuadRules(300), "Allow: /*abcd*7*Q", "Disallow: /*abcdabcd*9", ...times(40, (i) => `Allow: /*abcdefgh*${digitSegments(i)}*Q`)]),
    urls: [
      `https://x.com/${"abcd".repeat(200)}`,
      `https://x.com/${"abcd".repeat(200)}Q0123456789`,
      `https://x.com/${"abcd".repeat(200)}7Q`,
      `https://x.com/${"abcd".repeat(200)}2Q`,
      `https://x.com/${"abcd".repeat(200)}1*2*Q`,
      `https://x.com/9abcd${"abcd".repeat(200)}Q`,
      `https://x.com/abcd9${"abcd".repeat(3)}x9`,
      `https://x.com/abc${"abcd".repeat(100)}`,
      `https://x.com/${"abcdX".repeat(100)}defghQ0123456789`,
      `https://x.com/${"abcdX".repeat(100)}abcdefgh3Q`,
      `https://x.com/${"abcdX".repeat(100)}abcdefgh3${"abcdX".repeat(100)}Q`,
    ],
  },
  {
    name: "a segment before the key",
    body: file([
      "Disallow: /*xyz*abcd", "Allow: /*p*abcd*q", "Disallow: /*xyz*abcd$", "Allow: /*k*abcd*k$",
      ...times(20, (i) => `Disallow: /*q${i}*r`),
    ]),
    urls: [
      `https://x.com/${"abcd".repeat(300)}xyz`,
      // The key is in place before `xyz` many times, and after it once, last.
      `https://x.com/${"abcd".repeat(300)}xyzabcd`,
      `https://x.com/${"abcd".repeat(300)}xyzabc`,
      `https://x.com/${"abcd".repeat(300)}xyzabcdzz`,
      `https://x.com/abcd${"p".repeat(30)}abcdq`,
      `https://x.com/${"abcd".repeat(30)}pabcd${"abcd".repeat(30)}q`,
      `https://x.com/abcdk${"abcd".repeat(30)}kk`,
      `https://x.com/kabcd${"abcd".repeat(30)}k`,
      `https://x.com/q7${"abcd".repeat(30)}r`,
    ],
  },
  {
    name: "a segment after the key",
    body: file(["Disallow: /*abcd*xyz", "Allow: /*abcd*xyz*q", "Allow: /*abcdab*zz", ...times(20, (i) => `Disallow: /*q${i}*r`)]),
    urls: [
      `https://x.com/${"abcd".repeat(300)}xyyz`,
      `https://x.com/${"abcd".repeat(300)}xyz`,
      `https://x.com/${"abcd".repeat(300)}xyzq`,
      `https://x.com/xyz${"abcd".repeat(300)}q`,
      `https://x.com/zz${"abcd".repeat(300)}zz`,
      `https://x.com/abcd${"ab".repeat(300)}abcdabzz`,
    ],
  },
];

const profiles: Profile[] = ["google", "rfc9309"];

describe.each(wasmImplementations)("$name agrees with the reference on paths that repeat a gram", (impl) => {
  it.each(cases.flatMap((c) => profiles.map((profile) => ({ ...c, profile }))))("$name ($profile)", ({ body, urls, profile }) => {
    const actual = impl.parse(body, { profile });
    const expected = reference.parse(body, { profile });
    try {
      const oracle = expected.classifyWithLines(urls, "FooBot");
      const batch = actual.classifyWithLines(urls, "FooBot");
      expect(Array.from(batch.allowed)).toEqual(Array.from(oracle.allowed));
      expect(Array.from(batch.lines)).toEqual(Array.from(oracle.lines));
      // One at a time as well: a batch and a single URL take different ways out of the engine.
      for (const url of urls) expect(actual.explain(url, "FooBot"), url).toEqual(expected.explain(url, "FooBot"));
    } finally {
      actual.dispose();
      expected.dispose();
    }
  });
});

// Long paths (probed with stamps) over a few bytes, against rules of segments of those bytes: keys
// in place at some occurrences and not others, shared by several rules, decided at a later place.
const piece = fc.constantFrom("ab", "abcd", "bcda", "cd", "x", "abcdx", "dab", "c");
const segment = fc.array(piece, { minLength: 1, maxLength: 3 }).map((pieces) => pieces.join(""));
const wildcardRule = fc.tuple(fc.boolean(), fc.array(segment, { minLength: 1, maxLength: 4 }), fc.boolean())
  .map(([allow, segments, anchored]) => `${allow ? "Allow" : "Disallow"}: /*${segments.join("*")}${anchored ? "$" : ""}`);
const longPath = fc.array(piece, { minLength: 40, maxLength: 120 }).map((pieces) => `https://x.com/${pieces.join("")}`);
const { seed, numRuns } = fuzzRuns(20261127, 150);

/** Short paths too, against files with a bucket of more than 64 rules, whose index probes every path with stamps. */
const shortPath = fc.array(piece, { minLength: 1, maxLength: 30 }).map((pieces) => `https://x.com/${pieces.join("")}`);
const anyPath = fc.oneof(longPath, shortPath);
/** Files of few rules (short paths probed without stamps), or with a big bucket: 70 or more rules sharing `abcd` beside them. */
const rulesWithBigBucket = fc.tuple(fc.array(wildcardRule, { minLength: 20, maxLength: 60 }), fc.constantFrom(0, 70, 120))
  .map(([rules, shared]) => [...rules, ...times(shared, (i) => `${i % 2 ? "Allow" : "Disallow"}: /*abcd*${digitSegments(i)}*x`)]);

describe.each(wasmImplementations)("$name agrees with the reference on long and short paths over few bytes", (impl) => {
  it.each(profiles)("%s", (profile) => {
    fc.assert(
      fc.property(rulesWithBigBucket, fc.array(anyPath, { minLength: 1, maxLength: 4 }), (rules, urls) => {
        const body = file(rules);
        const actual = impl.parse(body, { profile });
        const expected = reference.parse(body, { profile });
        try {
          expect(Array.from(actual.classifyWithLines(urls, "FooBot").lines)).toEqual(Array.from(expected.classifyWithLines(urls, "FooBot").lines));
        } finally {
          actual.dispose();
          expected.dispose();
        }
      }),
      { seed, numRuns },
    );
  });
});
