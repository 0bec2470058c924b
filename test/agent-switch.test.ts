/**
 * Agents asked for in turn: a crawler checks each URL for Googlebot and then Googlebot-Image, so a
 * table returns to selections it made before. It keeps the last few with their match plans
 * (assembly/kept-selections.ts): the answers must be those of a fresh selection, a return must not
 * rebuild the plan, and the kept plans must be freed with the table.
 */
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseWith } from "../src/robots.js";
import { loadEngine } from "../src/wasm.js";
import { agentQuery, robotsCase } from "./support/generators.js";
import { reference, wasmImplementations } from "./support/implementations.js";
import { fuzzRuns } from "./support/fuzz.js";

const { seed, numRuns } = fuzzRuns(20261127, 300);
const binary = readFileSync(new URL("../build/release.wasm", import.meta.url));

/** Six groups, each named by one agent and holding rules of its own, and a `*` group. */
function sixGroups(rulesPerGroup: number): string {
  const lines: string[] = [];
  for (const name of ["a", "b", "c", "d", "e", "f", "*"]) {
    lines.push(`User-agent: ${name === "*" ? "*" : `bot-${name}`}`);
    for (let r = 0; r < rulesPerGroup; r++) {
      lines.push(`${r % 3 ? "Disallow" : "Allow"}: /${name === "*" ? "any" : name}/${r}/`);
      if (r % 4 === 0) lines.push(`Disallow: /*${name === "*" ? "any" : name}${r}*.pdf$`);
    }
    lines.push("");
  }
  return lines.join("\n");
}

const SIX_AGENTS = ["bot-a", "bot-b", "bot-c", "bot-d", "bot-e", "bot-f", "other"];
const PROBES = ["/a/3/x", "/b/4/", "/c/5/y", "/any/6/", "/x/a0y.pdf", "/q/b8.pdf", "/d/7/", "/e/1/", "/f/2/z", "/zz/any12.pdf"];

describe.each(wasmImplementations)("$name answers agents asked for in turn as the reference does", (wasm) => {
  it("for random files, URLs and sequences of agents that return to earlier ones", () => {
    const sequence = fc.array(agentQuery, { minLength: 4, maxLength: 12 });
    fc.assert(
      fc.property(robotsCase, sequence, fc.constantFrom("google", "rfc9309" as const), ([body, urls], agents, profile) => {
        const actual = wasm.parse(body, { profile });
        const expected = reference.parse(body, { profile });
        try {
          for (const agent of agents) {
            const label = JSON.stringify(agent);
            expect(actual.groupsFor(agent), label).toEqual(expected.groupsFor(agent));
            const batch = actual.classifyWithLines(urls, agent);
            const oracle = expected.classifyWithLines(urls, agent);
            expect(Array.from(batch.allowed), label).toEqual(Array.from(oracle.allowed));
            expect(Array.from(batch.lines), label).toEqual(Array.from(oracle.lines));
            expect(actual.explain(urls[0], agent), label).toEqual(expected.explain(urls[0], agent));
          }
        } finally {
          actual.dispose();
          expected.dispose();
        }
      }),
      { seed, numRuns },
    );
  });

  it("for seven selections taken in rotation, more than a table keeps", () => {
    const body = sixGroups(40);
    const actual = wasm.parse(body);
    const expected = reference.parse(body);
    try {
      for (let round = 0; round < 3; round++) {
        // Forwards, backwards and by twos: returns to kept selections and to evicted ones.
        const order = round === 0 ? SIX_AGENTS : round === 1 ? [...SIX_AGENTS].reverse() : SIX_AGENTS.filter((_, i) => i % 2 === 0);
        for (const agent of [...order, ...order]) {
          for (const path of PROBES) {
            expect(actual.explain(path, agent), `${agent} ${path}`).toEqual(expected.explain(path, agent));
          }
        }
      }
    } finally {
      actual.dispose();
      expected.dispose();
    }
  });
});

describe("returning to an earlier selection", () => {
  const engine = loadEngine(binary);

  /** Milliseconds for `calls` isAllowed calls, the agent of each call given by `agentOf`. */
  function timeCalls(robots: ReturnType<typeof parseWith>, calls: number, agentOf: (i: number) => string): number {
    let best = Infinity;
    for (let round = 0; round < 5; round++) {
      const started = performance.now();
      for (let i = 0; i < calls; i++) robots.isAllowed(`/c/${i % 500}/page`, agentOf(i));
      best = Math.min(best, performance.now() - started);
    }
    return best;
  }

  it("costs no more than staying with one agent (no plan is rebuilt)", () => {
    // Each group's plan takes milliseconds to build; a URL takes microseconds. Rebuilding at
    // every change of agent made the alternating calls hundreds of times slower.
    const robots = parseWith(engine, sixGroups(3_000), { maxBytes: Infinity });
    try {
      const one = timeCalls(robots, 2_000, () => "bot-c");
      const alternating = timeCalls(robots, 2_000, (i) => (i % 2 ? "bot-c" : "bot-d"));
      const sameGroups = timeCalls(robots, 2_000, (i) => (i % 2 ? "Googlebot" : "Googlebot-Image"));
      expect(alternating / one).toBeLessThan(4);
      expect(sameGroups / one).toBeLessThan(4);
    } finally {
      robots.dispose();
    }
  });

  it("keeps a plan per kept selection in tableBytes, and at most four", () => {
    const robots = parseWith(engine, sixGroups(300));
    try {
      robots.isAllowed("/a/1/", "bot-a");
      const one = robots.tableBytes;
      robots.isAllowed("/b/1/", "bot-b");
      const two = robots.tableBytes;
      expect(two).toBeGreaterThan(one);
      for (const agent of SIX_AGENTS) robots.isAllowed("/x/1/", agent);
      const capped = robots.tableBytes;
      for (let round = 0; round < 5; round++) for (const agent of SIX_AGENTS) robots.isAllowed("/x/1/", agent);
      expect(robots.tableBytes).toBe(capped);
      // Four selections with a plan each (groups of the same size): about four times one.
      expect(capped).toBeLessThan(one * 5);
    } finally {
      robots.dispose();
    }
  });

  it("frees the kept selections with the table: memory stays flat over parse, rotate, dispose cycles", () => {
    const own = loadEngine(binary);
    const cycle = (i: number) => {
      const robots = parseWith(own, sixGroups(20 + (i % 30)));
      for (const agent of SIX_AGENTS) robots.classify(PROBES, agent);
      robots.dispose();
    };
    for (let i = 0; i < 300; i++) cycle(i);
    const warm = own.exports.memory.buffer.byteLength;
    for (let i = 300; i < 3_000; i++) cycle(i);
    expect(own.exports.memory.buffer.byteLength).toBe(warm);
  });
});
