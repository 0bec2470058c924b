/**
 * URLs whose last byte is the last byte of WASM linear memory. The engine reads paths, labels,
 * keys and masks sixteen bytes at a time, and near the end of memory it must fall back to narrower
 * reads: a vector load past the end would trap. Each URL is placed at the very end of memory
 * through the raw exports (alone, then all of a case's URLs as one newline batch) and its answer
 * must equal the reference's.
 */
import fc from "fast-check";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadEngine, type Engine } from "../src/wasm.js";
import { robotsCase } from "./support/generators.js";
import { reference } from "./support/implementations.js";
import { encodeAgents, putBytes } from "./support/raw-exports.js";
import type { Profile } from "../src/types.js";

const binary = readFileSync(new URL("../build/release.wasm", import.meta.url));
const encoder = new TextEncoder();
const AGENT = "FooBot";
const LINES_MODE = 1;
const ALL_LINES = 0xffffffff;

/** The release build with its match plan set up as each strategy needs. */
const setups = [
  { name: "shipped settings (lazy DFA first)", configure: (_engine: Engine) => {} },
  { name: "tree only", configure: (engine: Engine) => engine.exports.configureDfa(0, 0, 0) },
  {
    name: "tree with every wildcard rule in the gram index",
    configure: (engine: Engine) => {
      engine.exports.configureDfa(0, 0, 0);
      engine.exports.configureWildcardIndex(0);
    },
  },
];

/**
 * Linear memory whose last page the allocator never hands out: pages the host grows are not added
 * to the heap (it adds only the pages it grows itself), so bytes written there stay put.
 */
class MemoryEdge {
  #ownPage = -1;
  constructor(private readonly engine: Engine) {}

  /** Writes `bytes` so that they end at the last byte of memory; returns their address. */
  place(bytes: Uint8Array): number {
    const memory = this.engine.exports.memory;
    if (this.#ownPage !== memory.buffer.byteLength - 65_536) this.#ownPage = memory.grow(1) * 65_536;
    const pointer = memory.buffer.byteLength - bytes.length;
    new Uint8Array(memory.buffer).set(bytes, pointer);
    return pointer;
  }

  get size(): number {
    return this.engine.exports.memory.buffer.byteLength;
  }
}

describe.each(setups)("URLs that end at the last byte of memory ($name)", ({ configure }) => {
  it.each<Profile>(["google", "rfc9309"])("get the reference's verdict and line (%s)", (profile) => {
    const engine = loadEngine(binary);
    configure(engine);
    const x = engine.exports;
    const edge = new MemoryEdge(engine);
    const agents = encodeAgents(AGENT);

    /** Decides `count` URLs at `pointer` (LF-separated when `offsets` is 0); returns verdicts and lines. */
    const decide = (table: number, pointer: number, length: number, offsets: number, count: number, lines: number) => {
      const verdicts = x.allocate(lines);
      const details = x.allocate(lines * 4);
      const done = x.matchBatch(table, pointer, length, offsets, count, verdicts, details, LINES_MODE);
      const result = {
        done,
        allowed: Array.from(new Uint8Array(x.memory.buffer, verdicts, done)),
        lines: Array.from(new Uint32Array(x.memory.buffer.slice(details, details + done * 4))),
      };
      x.release(verdicts);
      x.release(details);
      return result;
    };

    fc.assert(
      fc.property(robotsCase, ([body, urls]) => {
        const expected = reference.parse(body, { profile }).classifyWithLines(urls, AGENT);
        const bodyPointer = putBytes(engine, body instanceof Uint8Array ? body : encoder.encode(body));
        const table = x.compile(bodyPointer, body.length, profile === "google" ? 0 : 1);
        x.release(bodyPointer);
        const agentsPointer = putBytes(engine, agents);
        x.selectAgents(table, agentsPointer, agents.length);
        x.release(agentsPointer);
        const offsets = x.allocate(8);
        try {
          urls.forEach((url, i) => {
            const bytes = encoder.encode(url);
            new Uint32Array(x.memory.buffer, offsets, 2).set([0, bytes.length]);
            // The first call may grow memory (scratch, the plan's tree): the second is the test.
            let answer = decide(table, edge.place(bytes), bytes.length, offsets, 1, 1);
            const size = edge.size;
            answer = decide(table, edge.place(bytes), bytes.length, offsets, 1, 1);
            expect(edge.size, "memory grew during the call").toBe(size);
            expect(answer, JSON.stringify(url)).toEqual({ done: 1, allowed: [expected.allowed[i]], lines: [expected.lines[i]] });
          });
          // The same URLs as one newline batch at the end of memory (its own scan of each line).
          const plain = urls.map((url, i) => ({ url, i })).filter(({ url }) => !/[\r\n]/.test(url));
          if (plain.length > 0) {
            const batch = encoder.encode(plain.map(({ url }) => url).join("\n"));
            decide(table, edge.place(batch), batch.length, 0, ALL_LINES, plain.length);
            const answer = decide(table, edge.place(batch), batch.length, 0, ALL_LINES, plain.length);
            expect(answer).toEqual({
              done: plain.length,
              allowed: plain.map(({ i }) => expected.allowed[i]),
              lines: plain.map(({ i }) => expected.lines[i]),
            });
          }
        } finally {
          x.release(offsets);
          x.freeTable(table);
        }
      }),
      { seed: 20261124, numRuns: 150 },
    );
  });
});
