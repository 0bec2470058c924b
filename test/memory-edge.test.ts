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
import { fuzzRuns } from "./support/fuzz.js";

const binary = readFileSync(new URL("../build/release.wasm", import.meta.url));
const encoder = new TextEncoder();
const AGENT = "FooBot";
const LINES_MODE = 1;
const ALL_LINES = 0xffffffff;
const { seed, numRuns } = fuzzRuns(20261124, 150);

/**
 * Cases the random ones rarely reach, each a read that would cross the end of memory if its guard
 * were one byte short: a key of seven bytes compared eight at a time, at the end of a path
 * (`$`-anchored) and in a path long enough to be probed with stamps; a segment searched from
 * sixteen bytes before the end.
 */
const EDGE_EXAMPLES: [[Uint8Array<ArrayBuffer>, string[]]][] = [
  [[encoder.encode("User-agent: *\nDisallow: /p*abcdefg$\n"), ["https://e.com/pXabcdefg", "https://e.com/pXabcdefh"]]],
  [[encoder.encode("User-agent: *\nDisallow: /p*abcdefg\n"), [`https://e.com/p${"0".repeat(200)}abcdefg`, `https://e.com/p${"0".repeat(200)}abcdefh`]]],
  [[encoder.encode("User-agent: *\nDisallow: /*ab\n"), [`https://e.com/${"x".repeat(14)}ab`, `https://e.com/${"x".repeat(14)}ac`]]],
];

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
 * Linear memory whose last pages the allocator never hands out: pages the host grows are not added
 * to the heap (it adds only the pages it grows itself), so bytes written there stay put.
 */
class MemoryEdge {
  /** The pages this harness grew last, [start, end) in bytes; -1 before the first. */
  #ownStart = -1;
  #ownEnd = -1;
  constructor(private readonly engine: Engine) {}

  /**
   * Writes `bytes` so that they end at the last byte of memory; returns their address. They must
   * lie wholly in pages grown here: a batch longer than those pages would overwrite the heap's
   * last blocks below them (six URLs of 16 KB make a 100 KB batch).
   */
  place(bytes: Uint8Array): number {
    const memory = this.engine.exports.memory;
    const end = memory.buffer.byteLength;
    if (end !== this.#ownEnd || end - this.#ownStart < bytes.length) {
      this.#ownStart = memory.grow(Math.max(1, Math.ceil(bytes.length / 65_536))) * 65_536;
      this.#ownEnd = memory.buffer.byteLength;
    }
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

    /**
     * Places `bytes` at the end of memory and decides `count` URLs there (LF-separated when
     * `offsets` is 0); returns verdicts and lines, and whether memory grew during the call. The
     * output is allocated first, so that no growth moves the end of memory past the URLs.
     */
    const decide = (table: number, bytes: Uint8Array, offsets: number, count: number, lines: number) => {
      const verdicts = x.allocate(lines);
      const details = x.allocate(lines * 4);
      const pointer = edge.place(bytes);
      const size = edge.size;
      const done = x.matchBatch(table, pointer, bytes.length, offsets, count, verdicts, details, LINES_MODE);
      const result = {
        done,
        allowed: Array.from(new Uint8Array(x.memory.buffer, verdicts, done)),
        lines: Array.from(new Uint32Array(x.memory.buffer.slice(details, details + done * 4))),
      };
      x.release(verdicts);
      x.release(details);
      return { result, grew: edge.size !== size };
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
            decide(table, bytes, offsets, 1, 1);
            const { result, grew } = decide(table, bytes, offsets, 1, 1);
            expect(grew, "memory grew during the call").toBe(false);
            expect(result, JSON.stringify(url)).toEqual({ done: 1, allowed: [expected.allowed[i]], lines: [expected.lines[i]] });
          });
          // The same URLs as one newline batch at the end of memory (its own scan of each line).
          // A final empty URL leaves the batch ending in an LF (or empty), and no line follows a
          // final LF: the engine decides one URL fewer, as the host's newline batches count them.
          const plain = urls.map((url, i) => ({ url, i })).filter(({ url }) => !/[\r\n]/.test(url));
          const lines = plain.at(-1)?.url === "" ? plain.slice(0, -1) : plain;
          if (plain.length > 0) {
            const batch = encoder.encode(plain.map(({ url }) => url).join("\n"));
            decide(table, batch, 0, ALL_LINES, plain.length);
            const { result } = decide(table, batch, 0, ALL_LINES, plain.length);
            expect(result).toEqual({
              done: lines.length,
              allowed: lines.map(({ i }) => expected.allowed[i]),
              lines: lines.map(({ i }) => expected.lines[i]),
            });
          }
        } finally {
          x.release(offsets);
          x.freeTable(table);
        }
      }),
      { seed, numRuns, examples: EDGE_EXAMPLES },
    );
  });
});
