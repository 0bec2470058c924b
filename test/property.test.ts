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

const seed = Number(process.env.FC_SEED ?? 20261122);
const numRuns = Number(process.env.FC_RUNS ?? 2000);
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

  it.each(profiles)("on newline-separated byte batches (%s)", (profile) => {
    const encoder = new TextEncoder();
    fc.assert(
      fc.property(robotsBody, fc.array(url.filter((u) => !u.includes("\n") && !u.includes("\r")), { maxLength: 20 }), fc.constantFrom("\n", "\r\n"), (body, urls, eol) => {
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
});
