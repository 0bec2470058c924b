/**
 * `robots check` as a Unix filter: 1,000,000 generated URLs streamed through standard input
 * while the output is read, in memory that does not grow with the input. The child's peak RSS
 * (process.resourceUsage().maxRSS, written at exit by a preloaded module) is compared with the
 * input size and with a run on 300,000 URLs, by which the heap has settled. And as a filter whose reader stops early
 * (`| head`): it stops quietly when its output pipe closes.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { bin, robots, root, shellQuote } from "./support/cli.js";

const work = mkdtempSync(join(tmpdir(), "robots-stream-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const ROBOTS = join(work, "robots.txt");
writeFileSync(ROBOTS, "User-agent: *\nDisallow: /private/\nAllow: /private/public/\nDisallow: /*.pdf$\n");

/** URL i: every 4th under /private/ (disallowed), every 8th of those under /private/public/ (allowed); padded to about 100 bytes. */
function url(i: number): string {
  const path = i % 4 === 0 ? (i % 32 === 0 ? "/private/public/" : "/private/") : "/pages/";
  return `https://www.example.com${path}item-${i}?ref=stream-test&padding=${"x".repeat(40)}\n`;
}

interface StreamRun {
  inputBytes: number;
  lines: number;
  disallowed: number;
  /** Peak resident set size of the child, in bytes. */
  peakRss: number;
}

/** Streams `count` URLs into `robots check` and counts its output lines as they arrive. */
async function streamCheck(count: number): Promise<StreamRun> {
  const rssFile = join(work, `rss-${count}`);
  const child = spawn(process.execPath, ["--import", join(root, "test/support/report-rss.mjs"), bin, "check", "--robots", ROBOTS, "--agent", "x", "-q", "-"], {
    env: { ...process.env, ROBOTS_TEST_RSS_FILE: rssFile },
    stdio: ["pipe", "pipe", "inherit"],
  });
  let lines = 0;
  let disallowed = 0;
  let atLineStart = true;
  child.stdout.on("data", (chunk: Buffer) => {
    for (let i = 0; i < chunk.length; i++) {
      if (atLineStart && chunk[i] === 0x64) disallowed++; // "d"isallowed
      atLineStart = chunk[i] === 0x0a;
      if (atLineStart) lines++;
    }
  });
  const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
  let inputBytes = 0;
  const batch = 1000;
  for (let i = 0; i < count; i += batch) {
    let text = "";
    for (let j = i; j < Math.min(count, i + batch); j++) text += url(j);
    inputBytes += text.length;
    if (!child.stdin.write(text)) await new Promise((resolve) => child.stdin.once("drain", resolve));
  }
  child.stdin.end();
  expect(await exited).toBe(0);
  return { inputBytes, lines, disallowed, peakRss: Number(readFileSync(rssFile, "utf8")) * 1024 };
}

function expectedDisallowed(count: number): number {
  let disallowed = 0;
  for (let i = 0; i < count; i += 4) if (i % 32 !== 0) disallowed++;
  return disallowed;
}

describe("robots check streaming standard input", () => {
  it("classifies 1,000,000 URLs in memory that does not grow with the input", async () => {
    const small = await streamCheck(300_000);
    const large = await streamCheck(1_000_000);
    expect(small.lines).toBe(300_000);
    expect(large.lines).toBe(1_000_000);
    expect(large.disallowed).toBe(expectedDisallowed(1_000_000));
    const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
    console.log(`input ${mb(small.inputBytes)}: peak RSS ${mb(small.peakRss)}; input ${mb(large.inputBytes)}: peak RSS ${mb(large.peakRss)}`);
    // Holding the input (or the output) would take at least its size on top of the runtime.
    expect(large.peakRss).toBeLessThan(large.inputBytes);
    // More than three times the input: the peak grows by far less than the extra input (the heap
    // settles by 300,000 URLs, at about 99 MB here, and 1,000,000 and 3,000,000 peak 2 to 4 MB
    // above it; 100,000 URLs peak lower, at about 78 MB, before the heap has grown to its size).
    expect(large.peakRss - small.peakRss).toBeLessThan((large.inputBytes - small.inputBytes) / 4);
  });
});

describe("robots check in a pipeline whose reader stops early", () => {
  it("stops quietly with status 0 when its output pipe closes (| head)", () => {
    const urls = join(work, "many-urls.txt");
    let text = "";
    for (let i = 0; i < 200_000; i++) text += url(i);
    writeFileSync(urls, text);
    const command = `set -o pipefail; ${shellQuote(process.execPath)} ${shellQuote(bin)} check --robots ${shellQuote(ROBOTS)} --agent x ${shellQuote(urls)} | head -n 3`;
    const result = spawnSync("bash", ["-c", command], { encoding: "utf8" });
    expect(result.stdout.split("\n").filter(Boolean)).toHaveLength(3);
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
  });
});

describe("robots check on lines split between reads", () => {
  /**
   * A file is read in chunks of 4 MiB and a pipe in chunks of 64 KiB: lines end up split between
   * two reads, and a line longer than a pipe chunk spans several. Every line must be decided once,
   * whole and in order, with and without --count.
   */
  const lines: string[] = [];
  for (let i = 0; i < 60_000; i++) lines.push(url(i).slice(0, -1));
  // 300 KB: five pipe chunks at least; under /private/, so disallowed only if read whole.
  lines.splice(30_000, 0, `https://www.example.com/private/${"y".repeat(300_000)}.html`);
  // A short first line moves the 4 MiB read boundary off a line end (checked below).
  lines.unshift("https://www.example.com/");
  const input = `${lines.join("\n")}\n`;
  const file = join(work, "split-lines.txt");
  writeFileSync(file, input);
  const expected = lines.map((line, i) => `${line.includes("/private/") && !line.includes("/private/public/") ? "disallowed" : "allowed"}\t${line}`);
  const disallowed = expected.filter((line) => line.startsWith("disallowed")).length;

  it.each([
    ["a file (4 MiB reads)", [file], undefined],
    ["standard input (pipe reads)", ["-"], input],
  ])("decides every line of %s whole and in order", (_, source, stdin) => {
    expect(input.length).toBeGreaterThan(4 << 20);
    expect(input[(4 << 20) - 1]).not.toBe("\n");
    const result = robots(["check", "--robots", ROBOTS, "--agent", "x", "-q", ...source], stdin);
    expect(result.code).toBe(0);
    const out = result.stdout.split("\n");
    expect(out.pop()).toBe("");
    expect(out.map((line) => line.slice(0, line.lastIndexOf("\t")))).toEqual(expected);
    const counts = robots(["check", "--robots", ROBOTS, "--agent", "x", "-q", "--count", ...source], stdin);
    expect(counts).toEqual({ code: 0, stdout: `allowed\t${lines.length - disallowed}\ndisallowed\t${disallowed}\n`, stderr: "" });
    expect(robots(["check", "--robots", ROBOTS, "--agent", "x", "-q", "--count", "--workers", "2", ...source], stdin)).toEqual(counts);
  });
});

describe("robots check on URL lists that are not plain UTF-8 lines", () => {
  it("skips a UTF-8 byte-order mark, so the first URL is decided as written", () => {
    const file = join(work, "bom.txt");
    writeFileSync(file, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("https://a.com/private/x\nhttps://a.com/y\n")]));
    expect(robots(["check", "--robots", ROBOTS, "--agent", "x", "-q", file]).stdout).toBe("disallowed\thttps://a.com/private/x\t2\nallowed\thttps://a.com/y\t0\n");
  });

  const WITH_MARK = "is UTF-16 (it starts with a byte-order mark); save the URL list as UTF-8";
  const WITHOUT_MARK = "looks like UTF-16 without a byte-order mark (a NUL in every other byte); save the URL list as UTF-8";
  it.each([
    ["UTF-16LE", Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("https://a.com/private/x\r\n", "utf16le")]), WITH_MARK],
    ["UTF-16BE", Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from("https://a.com/private/x\r\n", "utf16le").swap16()]), WITH_MARK],
    // iconv -t UTF-16LE writes no mark.
    ["UTF-16LE", Buffer.from("https://a.com/private/x\nhttps://a.com/y\n", "utf16le"), WITHOUT_MARK],
    ["UTF-16BE", Buffer.from("https://a.com/private/x\nhttps://a.com/y\n", "utf16le").swap16(), WITHOUT_MARK],
    // Characters past Latin-1 among the first: no NUL in their pairs, or one in the other place (U+4E00, U+0100, U+3000).
    ["UTF-16LE", Buffer.from("/\u4f8b/\u4f8b/\u4f8b/x\n/private/\u4f8b\n", "utf16le"), WITHOUT_MARK],
    ["UTF-16LE", Buffer.from("https://e.com/\u4e00\u0100\u3000/a\nhttps://e.com/private/b\n", "utf16le"), WITHOUT_MARK],
    ["UTF-16BE", Buffer.from("https://e.com/\u4e00\u0100\u3000/a\nhttps://e.com/private/b\n", "utf16le").swap16(), WITHOUT_MARK],
    ["UTF-16LE", Buffer.from("https://\u4f8b\u3048.jp/\u65e5\u672c\u8a9e\u306e\u30da\u30fc\u30b8\u3067\u3059\u3088\u306d\u65e5\u672c\u8a9e\u306e\u30da\u30fc\u30b8\u3067\u3059\n/private/b\n", "utf16le"), WITHOUT_MARK],
    // Past Latin-1 first, ASCII after, within the 32 pairs read; four characters, the fewest read; three NULs in four pairs in one place, the least.
    ["UTF-16LE", Buffer.from("\u4f8b\u4f8b\u4f8b\u4f8b\u4f8b\u4f8b\u4f8b\u4f8b/private/a\n", "utf16le"), WITHOUT_MARK],
    ["UTF-16LE", Buffer.from("/ab\n", "utf16le"), WITHOUT_MARK],
    ["UTF-16LE", Buffer.from("abcdef\u4e00\u4e00", "utf16le"), WITHOUT_MARK],
  ])("refuses a %s list (its URLs would match no rule), with exit code 2: %#", (_, bytes, message) => {
    const file = join(work, "utf16.txt");
    writeFileSync(file, bytes);
    const result = robots(["check", "--robots", ROBOTS, "--agent", "x", "-q", file]);
    expect(result).toMatchObject({ code: 2, stdout: "" });
    expect(result.stderr).toContain(message);
  });

  it("decides a list with a NUL in a URL, or a short one, as bytes: only a NUL in every other byte of the start is UTF-16", () => {
    const file = join(work, "nul.txt");
    writeFileSync(file, "/a\0b\n/private/\0\n/c\n");
    expect(robots(["check", "--robots", ROBOTS, "--agent", "x", "-q", file]).stdout).toBe("allowed\t/a\0b\t0\ndisallowed\t/private/\0\t2\nallowed\t/c\t0\n");
    writeFileSync(file, Buffer.from("/x\n", "utf16le"));
    expect(robots(["check", "--robots", ROBOTS, "--agent", "x", "-q", file]).code).toBe(0);
    // Three NULs in one place of their pairs (four are needed); four against three (three in four
    // are needed in one place); NULs in both places.
    for (const list of ["/a\0b\0c\0d\n/e\n", "/\0\0a\0\0b\0\0c\0/d\n", `/${"\0".repeat(8)}/x\n`]) {
      writeFileSync(file, list);
      const result = robots(["check", "--robots", ROBOTS, "--agent", "x", "-q", file]);
      expect([result.code, result.stdout.split("\n").length - 1], JSON.stringify(list)).toEqual([0, list.split("\n").length - 1]);
    }
  });

  it("names the line of a URL longer than MAX_URL_BYTES (exit code 2)", () => {
    const file = join(work, "long-line.txt");
    writeFileSync(file, `/a\n/b\n/c\n/${"d".repeat(16 << 20)}\n/e\n`);
    const result = robots(["check", "--robots", ROBOTS, "--agent", "x", "-q", file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`robots: check: line 4 of "${file}" is longer than 16777216 bytes, more than a URL may be`);
  });

  it("refuses a line longer than any URL without reading it whole (exit code 2)", () => {
    // 1 MiB reads through a pipe: the check fires once a batch and MAX_URL_BYTES are gathered.
    const command = `head -c ${40 << 20} /dev/zero | tr '\\0' a | ${shellQuote(process.execPath)} ${shellQuote(bin)} check --robots ${shellQuote(ROBOTS)} --agent x -q`;
    const result = spawnSync("bash", ["-c", command], { encoding: "utf8" });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("has a line longer than 16777216 bytes, more than a URL may be");
  });
});

describe("a writer that waits for each verdict (a co-process, a terminal)", () => {
  it("gets the verdicts of what it sent once its input pauses, not when a batch's worth has gathered", async () => {
    const child = spawn(process.execPath, [bin, "check", "--robots", "examples/robots.txt", "--agent", "Googlebot", "-q"], { cwd: root });
    let stdout = "";
    const lines = () => stdout.split("\n").filter(Boolean);
    const waitForLines = (count: number) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no verdict for URL ${count} within 10 s (got: ${JSON.stringify(stdout)})`)), 10_000);
        const check = () => {
          if (lines().length >= count) {
            clearTimeout(timer);
            child.stdout.off("data", check);
            resolve();
          }
        };
        child.stdout.on("data", check);
        check();
      });
    child.stdout.setEncoding("utf8").on("data", (data: string) => (stdout += data));
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
    try {
      child.stdin.write("https://www.example.com/cart\n");
      await waitForLines(1);
      child.stdin.write("https://www.example.com/a\n");
      await waitForLines(2);
    } finally {
      child.stdin.end();
    }
    expect(await exited).toBe(0);
    expect(lines()).toEqual(["disallowed\thttps://www.example.com/cart\t51", "allowed\thttps://www.example.com/a\t0"]);
  }, 30_000);
});

describe("a failure while the input stays open", () => {
  it.each([[["--workers", "1"]], [["--workers", "2"]]])("ends the process with exit 2 after its error, without waiting for the writer to close (%j)", async (workers) => {
    const child = spawn(process.execPath, [bin, "check", "--robots", "examples/robots.txt", "--agent", "Googlebot", "-q", ...workers], { cwd: root });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (data: string) => (stderr += data));
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    // A UTF-16 list, refused; the writer then keeps its end open (as tail -f does).
    child.stdin.write(Buffer.from([0xff, 0xfe, 0x68, 0x00]));
    const timeout = new Promise<"still running">((resolve) => setTimeout(() => resolve("still running"), 10_000));
    try {
      expect(await Promise.race([exited, timeout])).toBe(2);
      expect(stderr).toBe('robots: check: "-" is UTF-16 (it starts with a byte-order mark); save the URL list as UTF-8\n');
    } finally {
      child.stdin.destroy();
      child.kill();
    }
  }, 30_000);
});
