/**
 * The matching engine at its internal block and table sizes, where an off-by-one would show only
 * past the first block: pairs of a path probed in blocks of 32 offsets (grams-probe.ts), and a lazy
 * DFA (dfa.ts) whose state cache fills the rows a 16-bit transition can address, or is capped just
 * past the rows it starts with; the walk's shortcuts (shortcuts.ts) in a tree of more than 65,536
 * nodes. Every setup of the engine (tree, gram index, DFA given up) must agree with the reference,
 * or, where the reference would take minutes, with the rule that must win.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseWith } from "../src/robots.js";
import { loadEngine } from "../src/wasm.js";
import { implementations, reference, wasmImplementations } from "./support/implementations.js";

describe.each(implementations)("$name", (impl) => {
  // Eighteen rules under `/` whose only segment is two bytes long: more than 16 rules need pairs,
  // so the gram index files them by pair and probes each pair of the path, in blocks of 32.
  it("finds a pair-filed rule at the last offset of a block of 32 pairs, in a batch and alone", () => {
    const body = `User-agent: *\n${[..."abcdefghi"].flatMap((c) => [`Disallow: /*${c}1`, `Disallow: /*${c}2`]).join("\n")}\n`;
    // `i2` starts 31 bytes after the prefix `/`.
    const urls = [`https://a.com/${"z".repeat(31)}i2`, `https://a.com/${"z".repeat(31)}i3`];
    const robots = impl.parse(body);
    try {
      expect(Array.from(robots.classifyWithLines(urls, "FooBot").lines)).toEqual([19, 0]);
      expect(urls.map((url) => robots.classifyWithLines([url], "FooBot").lines[0])).toEqual([19, 0]);
    } finally {
      robots.dispose();
    }
  });

  // Twelve rules `/*Ai*Bi` and one that holds many other bytes (wide rows): the paths that hold a
  // subset of the A letters reach 4,096 DFA states, more than 512 KiB of rows hold.
  it("decides paths that reach thousands of DFA states with wide rows", () => {
    const a = "ABCDEFGHIJKL";
    const b = "MNOPQRSTUVWX";
    const filler = "abcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()+,;=:@";
    const body = `User-agent: *\n${[...a].map((c, i) => `Disallow: /*${c}*${b[i]}`).join("\n")}\nDisallow: /${filler}\n`;
    const urls: string[] = [];
    for (let set = 0; set < 1 << a.length; set++) {
      const letters = [...a].filter((_, i) => set & (1 << i)).join("");
      urls.push(`https://x.com/${letters}`, `https://x.com/${letters}${b[set % a.length]}`);
    }
    const robots = impl.parse(body);
    const expected = reference.parse(body);
    try {
      expect(Array.from(robots.classify(urls, "FooBot"))).toEqual(Array.from(expected.classify(urls, "FooBot")));
    } finally {
      robots.dispose();
      expected.dispose();
    }
  });
});

describe.each(wasmImplementations)("$name, past 16-bit node ids", (impl) => {
  // A shortcut (shortcuts.ts) holds the nodes it passed as 24-bit ids: a file whose tree has
  // more than 65,536 nodes (expanded here by classifying a path into each) must get them back whole.
  it("resumes a walk from a shortcut filed with node ids above 65,535", () => {
    const rules = [
      ...Array.from({ length: 80_000 }, (_, n) => `Disallow: /a${n}`),
      ...Array.from({ length: 6_000 }, (_, n) => `Disallow: /bxy${n}`),
      "Disallow: /bcd*z",
      "Disallow: /bcdef1q",
      "Disallow: /bcdef2q",
    ];
    const robots = impl.parse(`User-agent: *\n${rules.join("\n")}\n`, { maxBytes: Infinity });
    try {
      robots.classify(Array.from({ length: 80_000 }, (_, n) => `https://e.com/a${n}`), "FooBot");
      // Line 86,002 is `Disallow: /bcd*z`; the second call resumes from the first's shortcut.
      const expected = { allowed: false, line: 86_002, rule: { kind: "disallow", pattern: "/bcd*z", group: "global" } };
      expect(robots.explain("https://e.com/bcdef1xyz", "FooBot")).toEqual(expected);
      expect(robots.explain("https://e.com/bcdef1xyz", "FooBot")).toEqual(expected);
      expect(robots.explain("https://e.com/bcdef1q", "FooBot").line).toBe(86_003);
    } finally {
      robots.dispose();
    }
  });
});

describe("a DFA whose state cache is capped past its first rows", () => {
  // The cache starts with room for 16 states and grows up to the cap (configureDfa's second
  // argument); at the cap it is reset. The other setups' caps (3 and 8 below the first rows, the
  // shipped one far above what a test reaches) never make the growth stop at the cap: a state
  // interned one past it would be written past the room grown (17 and 20 leave no slack; 33 does).
  it.each([17, 20, 33])("with a cap of %i states, decides paths that need more, as the reference does", (cap) => {
    const engine = loadEngine(readFileSync(new URL("../build/release.wasm", import.meta.url)));
    engine.exports.configureDfa(4096, cap, 0);
    const body = "User-agent: *\nDisallow: /*abcdefghijklmnopqrstuvwxyz\nAllow: /*abcdefghijklm$\n";
    const letters = "abcdefghijklmnopqrstuvwxyz";
    const urls = Array.from({ length: 3 }, () => [...letters].map((_, i) => `https://e.com/${letters.slice(0, i + 1)}`)).flat();
    urls.push("https://e.com/xyz", `https://e.com/${letters}${letters}`);
    const robots = parseWith(engine, body);
    const expected = reference.parse(body);
    try {
      expect(urls.map((url) => robots.explain(url, "FooBot"))).toEqual(urls.map((url) => expected.explain(url, "FooBot")));
      expect(Array.from(robots.classifyWithLines(urls, "FooBot").lines)).toEqual(Array.from(expected.classifyWithLines(urls, "FooBot").lines));
    } finally {
      robots.dispose();
      expected.dispose();
    }
  });
});
