/**
 * The CLI's text helpers on their own: what reaches a terminal from outside text (printable), the
 * colours and when they apply (paletteFor), and the progress line's numbers and pace (Progress).
 * The subprocess tests (cli-commands.test.ts) show them at work; these pin the details.
 */
import { Writable } from "node:stream";
import { afterEach, describe, expect, it, vi } from "vitest";
import { paletteFor } from "../src/cli/colour.js";
import { groupLines, jsonPieces, jsonText, printable, printableDeep } from "../src/cli/format.js";
import { Progress } from "../src/cli/progress.js";

describe("printable", () => {
  it("writes every control a terminal acts on as an escape, and keeps the tab", () => {
    expect(printable("a\tb")).toBe("a\tb");
    expect(printable("\x00\x08\x0a\x0d\x1b[2J")).toBe("\\x00\\x08\\x0a\\x0d\\x1b[2J");
    expect(printable("\x1f \x7f")).toBe("\\x1f \\x7f");
    // C1 controls (0x9b is a one-byte CSI on some terminals) as two hex digits.
    expect(printable("\x80\x9b\x9f")).toBe("\\x80\\x9b\\x9f");
    expect(printable("\xa0é")).toBe("\xa0é");
  });

  it("escapes the bidirectional overrides and isolates that reorder text on screen, and nothing near them", () => {
    expect(printable("\u202a\u202e")).toBe("\\u202a\\u202e");
    expect(printable("\u2066\u2069")).toBe("\\u2066\\u2069");
    expect(printable("\u2029\u202f\u2065\u206a")).toBe("\u2029\u202f\u2065\u206a");
  });

  it("reaches every string of plain objects and arrays, also objects without a prototype, and leaves other objects", () => {
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { text: "\x1b]0;x\x07" });
    const when = new Date(0);
    const shown = printableDeep({ list: ["\x1b"], bare, when, count: 3 });
    expect(shown).toEqual({ list: ["\\x1b"], bare: { text: "\\x1b]0;x\\x07" }, when, count: 3 });
    expect(shown.when).toBe(when);
  });
});

describe("jsonText", () => {
  it("escapes what JSON.stringify leaves and a terminal acts on (DEL, C1, bidi overrides), and reads back the same", () => {
    const value = { "k\u202e": ["a\u007fb\u0080c\u009bd\u202ae\u2066f\u2069", "\u001b[2J", "\u00a0\u200e ok"] };
    const text = jsonText(value, 2);
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    expect(text).toContain("a\\u007fb\\u0080c\\u009bd\\u202ae\\u2066f\\u2069");
    expect(JSON.parse(text)).toEqual(value);
  });
});

describe("jsonPieces", () => {
  it("joins to jsonText(value, 2) and a line feed, with long arrays in pieces of a thousand elements", () => {
    const element = (i: number) => ({ line: i, message: `m\u009b${i}`, nested: { list: [i, "x"], empty: [] }, none: undefined });
    const value = { profile: "google", findings: Array.from({ length: 2_500 }, (_, i) => element(i)), agents: [], counts: { error: 1 }, one: [element(0)], skipped: undefined };
    const pieces = [...jsonPieces(value)];
    expect(pieces.join("")).toBe(`${jsonText(value, 2)}\n`);
    expect(pieces.length).toBeGreaterThanOrEqual(3 + 3);
    expect(Math.max(...pieces.map((piece) => piece.length))).toBeLessThan(1000 * 200);
    expect([...jsonPieces({})].join("")).toBe(`${jsonText({}, 2)}\n`);
    // What JSON.stringify leaves out or writes as null, and toJSON at the top and inside.
    const odd = { a: [undefined, () => 1, Symbol("s"), new Date(0), { toJSON: () => undefined }], f: () => 1, u: undefined, d: new Date(0), t: { toJSON: () => undefined } };
    expect([...jsonPieces(odd)].join("")).toBe(`${jsonText(odd, 2)}\n`);
    const own = { toJSON: () => ({ list: [1, 2] }) };
    expect([...jsonPieces(own)].join("")).toBe(`${jsonText(own, 2)}\n`);
    // toJSON gets its key (an array's own toJSON included), as from JSON.stringify.
    const keyed = { f: { toJSON: (key: string) => `key=${key}` }, list: Object.assign([1], { toJSON: () => "whole" }), items: [{ toJSON: (key: string) => key }] };
    expect([...jsonPieces(keyed)].join("")).toBe(`${jsonText(keyed, 2)}\n`);
  });
});

describe("groupLines", () => {
  it("names one group, two joined by 'and', more in a list", () => {
    expect(groupLines([3])).toBe("the group at line 3");
    expect(groupLines([3, 10])).toBe("the groups at lines 3 and 10");
    expect(groupLines([1, 4, 9])).toBe("the groups at lines 1, 4 and 9");
  });
});

describe("paletteFor", () => {
  const terminal = { isTTY: true };
  const colours = (env: NodeJS.ProcessEnv, stream: { isTTY?: boolean } = terminal): string => paletteFor(stream, env).red("x");

  it("colours a terminal, with each colour closed by its own reset so the rest of the line keeps its style", () => {
    const palette = paletteFor(terminal, { TERM: "xterm" });
    expect(palette.red("x")).toBe("\x1b[31mx\x1b[39m");
    expect(palette.green("x")).toBe("\x1b[32mx\x1b[39m");
    expect(palette.yellow("x")).toBe("\x1b[33mx\x1b[39m");
    expect(palette.cyan("x")).toBe("\x1b[36mx\x1b[39m");
    expect(palette.bold("x")).toBe("\x1b[1mx\x1b[22m");
    expect(palette.dim("x")).toBe("\x1b[2mx\x1b[22m");
  });

  it("never colours a pipe or file, with NO_COLOR set to anything but empty, or on TERM=dumb", () => {
    expect(colours({ TERM: "xterm" }, {})).toBe("x");
    expect(colours({ TERM: "xterm" }, { isTTY: false })).toBe("x");
    expect(colours({ TERM: "xterm", NO_COLOR: "1" })).toBe("x");
    expect(colours({ TERM: "xterm", NO_COLOR: "0" })).toBe("x");
    expect(colours({ TERM: "xterm", NO_COLOR: "" })).toBe("\x1b[31mx\x1b[39m");
    expect(colours({ TERM: "dumb" })).toBe("x");
    expect(colours({})).toBe("\x1b[31mx\x1b[39m");
  });
});

describe("Progress", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A Progress on fake time, and the lines it drew (the `\r\x1b[K` before each dropped). */
  function progressOnFakeTime(totalBytes: number | undefined, columns?: number): { progress: Progress; drawn: string[] } {
    vi.useFakeTimers({ toFake: ["performance"] });
    const drawn: string[] = [];
    const out = Object.assign(new Writable({
      write(chunk: Buffer, _encoding, done) {
        drawn.push(chunk.toString().replace(/^\r\x1b\[K/, ""));
        done();
      },
    }), { columns });
    return { progress: new Progress(out, totalBytes), drawn };
  }

  it("shows URLs, URLs/s, the bar, the share read and the time left (not the whole time)", () => {
    const { progress, drawn } = progressOnFakeTime(1000);
    vi.advanceTimersByTime(2000);
    progress.update(50_000, 250);
    // A quarter read in 2 s: 6 s left.
    expect(drawn).toEqual(["robots check: 50,000 URLs, 25,000 URLs/s [#####...............] 25%, ETA 6s"]);
  });

  it("writes minutes with two-digit seconds", () => {
    const { progress, drawn } = progressOnFakeTime(100);
    vi.advanceTimersByTime(65_000);
    progress.update(130, 50);
    // Half read in 65 s: 65 s left.
    expect(drawn).toEqual(["robots check: 130 URLs, 2 URLs/s [##########..........] 50%, ETA 1m05s"]);
  });

  it("cuts the line to the terminal's width (a wrapped line is not redrawn in place)", () => {
    const { progress, drawn } = progressOnFakeTime(1000);
    vi.advanceTimersByTime(2000);
    progress.update(12_345_678, 250);
    expect(drawn[0]!.length).toBeGreaterThan(40);
    const narrow = progressOnFakeTime(1000, 40);
    vi.advanceTimersByTime(2000);
    narrow.progress.update(12_345_678, 250);
    // One column short of the width: a line that fills it wraps the cursor on some terminals.
    expect(narrow.drawn).toEqual(["robots check: 12,345,678 URLs, 6,172,83"]);
  });

  it("redraws at most every 100 ms", () => {
    const { progress, drawn } = progressOnFakeTime(undefined);
    vi.advanceTimersByTime(1000);
    progress.update(1, 0);
    vi.advanceTimersByTime(99);
    progress.update(2, 0);
    expect(drawn).toHaveLength(1);
    vi.advanceTimersByTime(1);
    progress.update(3, 0);
    expect(drawn).toHaveLength(2);
    // No size known: no bar and no time left.
    expect(drawn[1]).toBe("robots check: 3 URLs, 3 URLs/s");
  });

  it("says URL for a single one (the rate keeps its unit, URLs/s)", () => {
    const { progress, drawn } = progressOnFakeTime(undefined);
    vi.advanceTimersByTime(1000);
    progress.update(1, 0);
    expect(drawn).toEqual(["robots check: 1 URL, 1 URLs/s"]);
  });

  it("stops the bar at 100% when more is read than the size said (a growing file)", () => {
    const { progress, drawn } = progressOnFakeTime(100);
    vi.advanceTimersByTime(1000);
    progress.update(7, 150);
    expect(drawn).toEqual(["robots check: 7 URLs, 7 URLs/s [####################] 100%, ETA 0s"]);
  });

  it("clears its line only if it drew one", () => {
    const quiet = progressOnFakeTime(undefined);
    quiet.progress.clear();
    expect(quiet.drawn).toEqual([]);
    const { progress, drawn } = progressOnFakeTime(undefined);
    progress.update(2, 0);
    progress.clear();
    expect(drawn).toEqual(["robots check: 2 URLs, 0 URLs/s", ""]);
  });

  it("cuts a line exactly as wide as the terminal too: one that fills the width wraps on some terminals", () => {
    const line = "robots check: 50,000 URLs, 25,000 URLs/s [#####...............] 25%, ETA 6s";
    const { progress, drawn } = progressOnFakeTime(1000, line.length);
    vi.advanceTimersByTime(2000);
    progress.update(50_000, 250);
    expect(drawn).toEqual([line.slice(0, -1)]);
  });

  it("draws no bar for an input that was empty when it was measured (a file still being written)", () => {
    // A size of 0 says nothing of how much is left.
    const { progress, drawn } = progressOnFakeTime(0);
    vi.advanceTimersByTime(2000);
    progress.update(10, 100);
    expect(drawn).toEqual(["robots check: 10 URLs, 5 URLs/s"]);
  });

  it("shows the share read rounded down: 100% only once all is read", () => {
    const { progress, drawn } = progressOnFakeTime(1000);
    vi.advanceTimersByTime(2000);
    progress.update(999, 999);
    expect(drawn).toEqual(["robots check: 999 URLs, 500 URLs/s [####################] 99%, ETA 0s"]);
  });
});
