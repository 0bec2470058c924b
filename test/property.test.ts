/**
 * Differential properties: the WASM builds and the reference implementation must give the same
 * verdict, matching line and deciding rule for random robots.txt files and URLs, in both profiles.
 * The seed is fixed (override with FC_SEED) so CI is reproducible; fast-check prints the seed and
 * the shrunk counterexample on failure.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { agentQuery, robotsBody, robotsCase, url } from "./support/generators.js";
import { reference, wasmImplementations } from "./support/implementations.js";
import type { Profile } from "../src/types.js";
import { fuzzRuns } from "./support/fuzz.js";

const { seed, numRuns } = fuzzRuns(20261122, 2000);
const profiles: Profile[] = ["google", "rfc9309"];
/**
 * The runs are split into rounds of at most 250 (seed, seed + 1, ...), each its own test, so that
 * no test blocks the worker long enough for vitest's progress reports to time out.
 */
const ROUND = 250;
const rounds = Array.from({ length: Math.ceil(numRuns / ROUND) }, (_, i) => ({
  round: i + 1,
  seed: seed + i,
  runs: Math.min(ROUND, numRuns - i * ROUND),
}));
const cases = profiles.flatMap((profile) => rounds.map((round) => ({ profile, ...round })));

describe.each(wasmImplementations)("$name agrees with the reference", (wasm) => {
  it.each(cases)("on verdict, line and rule for random files and URLs ($profile, seed $seed)", ({ profile, seed, runs }) => {
    fc.assert(
      fc.property(robotsCase, fc.array(agentQuery, { minLength: 1, maxLength: 3 }), ([body, urls], agents) => {
        const expected = reference.parse(body, { profile });
        const actual = wasm.parse(body, { profile });
        try {
          for (const agent of agents) {
            for (const u of urls) {
              expect(actual.explain(u, agent), `explain(${JSON.stringify(u)}, ${JSON.stringify(agent)})`).toEqual(expected.explain(u, agent));
            }
            const batch = actual.classifyWithLines(urls, agent);
            const oracle = expected.classifyWithLines(urls, agent);
            expect(Array.from(batch.allowed)).toEqual(Array.from(oracle.allowed));
            // Verdicts alone take another way out of the engine (a verdict per rank, no rule fields).
            expect(Array.from(actual.classify(urls, agent)), "classify").toEqual(Array.from(oracle.allowed));
            expect(Array.from(batch.lines)).toEqual(Array.from(oracle.lines));
            expect(actual.crawlDelay(agent)).toEqual(expected.crawlDelay(agent));
            expect(actual.groupsFor(agent)).toEqual(expected.groupsFor(agent));
            expect(actual.matchingRules(urls[0], agent)).toEqual(expected.matchingRules(urls[0], agent));
          }
          expect(actual.lines).toEqual(expected.lines);
          expect(actual.records).toEqual(expected.records);
          expect(actual.sitemaps).toEqual(expected.sitemaps);
          expect(actual.groups).toEqual(expected.groups);
        } finally {
          actual.dispose();
          expected.dispose();
        }
      }),
      { seed, numRuns: runs },
    );
  });

  // Lines that share a scheme and authority take a loop of their own (batch.ts queueKnownLines):
  // URLs that hit the rules, some with a fragment, among the odd forms.
  it.each(profiles)("on newline-separated byte batches (%s)", (profile) => {
    const encoder = new TextEncoder();
    const line = (u: string) => !u.includes("\n") && !u.includes("\r");
    const batch = robotsCase.chain(([body, hits]) =>
      fc.tuple(
        fc.constant(body),
        fc.tuple(...hits.filter(line).map((u) => fc.constantFrom(u, u, `${u}#top`, `${u}#/x?y`))),
        fc.array(url.filter(line), { maxLength: 8 }),
      ).map(([file, withFragments, odd]) => [file, [...withFragments, ...odd]] as const),
    );
    fc.assert(
      fc.property(batch, fc.constantFrom("\n", "\r\n"), ([body, urls], eol) => {
        const actual = wasm.parse(body, { profile });
        const expected = reference.parse(body, { profile });
        try {
          const bytes = encoder.encode(urls.map((u) => u + eol).join(""));
          expect(Array.from(actual.classify(bytes, "FooBot"))).toEqual(Array.from(expected.classify(bytes, "FooBot")));
          expect(Array.from(actual.classify(bytes, "FooBot"))).toEqual(Array.from(actual.classify(urls, "FooBot")));
        } finally {
          actual.dispose();
          expected.dispose();
        }
      }),
      { seed, numRuns: Math.ceil(numRuns / 5) },
    );
  });

  // Wildcard rules that share a literal prefix with more than 16 others go to the gram index
  // (plan.ts, grams.ts): each is filed under a gram of one of its segments (its key) and tried
  // where a path holds that gram, by comparing the key in place. Several crowded prefixes (nested
  // ones too) share the index; keys recur in the paths, overlap, run past eight bytes, end `$`
  // rules, and stand between other segments.
  it.each(profiles)("on crowded prefixes, whose rules are tried where their grams are (%s)", (profile) => {
    const segments = ["abcd", "abcdabcd", "bcda", "page=", "page=2", "x", "xy", "ab", "a-long-segment-9", "a-long-segment-99", ".html", "%41b", "=1"];
    const prefixes = ["/", "/shop/", "/shop/a", "/blog/", ""];
    const rule = fc
      .tuple(fc.constantFrom("Allow", "Disallow"), fc.constantFrom(...prefixes), fc.array(fc.constantFrom(...segments), { minLength: 1, maxLength: 3 }), fc.constantFrom("", "", "$", "*"))
      .map(([key, prefix, parts, end]) => `${key}: ${prefix}*${parts.join("*")}${end}`);
    const path = fc
      .tuple(fc.constantFrom(...prefixes), fc.array(fc.constantFrom(...segments, "/", "?", "&", "zz"), { maxLength: 8 }))
      .map(([prefix, parts]) => `https://example.com${prefix.startsWith("/") ? prefix : `/${prefix}`}${parts.join("")}`);
    fc.assert(
      fc.property(fc.array(rule, { minLength: 40, maxLength: 160 }), fc.array(path, { minLength: 1, maxLength: 40 }), (rules, urls) => {
        const body = `User-agent: *\n${rules.join("\n")}\n`;
        const actual = wasm.parse(body, { profile });
        const expected = reference.parse(body, { profile });
        try {
          const oracle = expected.classifyWithLines(urls, "FooBot");
          const batch = actual.classifyWithLines(urls, "FooBot");
          expect(Array.from(batch.lines)).toEqual(Array.from(oracle.lines));
          expect(Array.from(batch.allowed)).toEqual(Array.from(oracle.allowed));
        } finally {
          actual.dispose();
          expected.dispose();
        }
      }),
      { seed, numRuns: Math.ceil(numRuns / 5) },
    );
  });

  // The match plan's tree grows as paths reach it (a node expands when a walk first enters it),
  // and a node with more than 16 edges finds them through a byte table. Rules here share short
  // prefixes that branch on dozens of bytes, and the URLs are decided in an order where some
  // nodes expand between two URLs of one batch and others only in a later batch.
  it.each(profiles)("on wide tree nodes, expanded as batches reach them (%s)", (profile) => {
    const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJ0123456789-_.~!'()+,;=:@%";
    const piece = fc.string({ unit: fc.constantFrom(...alphabet), minLength: 0, maxLength: 3 });
    const rule = fc.tuple(fc.constantFrom("Allow", "Disallow"), fc.constantFrom("/", "/w/", "/w/x"), piece, fc.constantFrom("", "*", "$", "*z", "*-$"))
      .map(([key, prefix, tail, end]) => `${key}: ${prefix}${tail}${end}`);
    const path = fc.tuple(fc.constantFrom("/", "/w/", "/w/x", "/w/xy"), piece, piece).map(([prefix, a, b]) => `https://example.com${prefix}${a}${b}`);
    fc.assert(
      fc.property(fc.array(rule, { minLength: 20, maxLength: 120 }), fc.array(path, { minLength: 1, maxLength: 60 }), (rules, urls) => {
        const body = `User-agent: *\n${rules.join("\n")}\n`;
        const actual = wasm.parse(body, { profile });
        const expected = reference.parse(body, { profile });
        try {
          const half = urls.length >> 1;
          const oracle = Array.from(expected.classifyWithLines(urls, "FooBot").lines);
          // First one URL, then the rest in two batches, then all again on the grown tree.
          const lines = [urls.slice(0, 1), urls.slice(1, half), urls.slice(Math.max(1, half))]
            .flatMap((batch) => (batch.length > 0 ? Array.from(actual.classifyWithLines(batch, "FooBot").lines) : []));
          expect(lines).toEqual(oracle);
          expect(Array.from(actual.classifyWithLines(urls, "FooBot").lines)).toEqual(oracle);
        } finally {
          actual.dispose();
          expected.dispose();
        }
      }),
      { seed, numRuns: Math.ceil(numRuns / 5) },
    );
  });
});
