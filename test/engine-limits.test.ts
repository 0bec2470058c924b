/**
 * The matching engine at its internal block and table sizes, where an off-by-one would show only
 * past the first block: pairs of a path probed in blocks of 32 offsets (grams-probe.ts), and a lazy
 * DFA (dfa.ts) whose state cache fills the rows a 16-bit transition can address. Every setup of the
 * engine (tree, gram index, DFA given up) must agree with the reference.
 */
import { describe, expect, it } from "vitest";
import { implementations, reference } from "./support/implementations.js";

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
