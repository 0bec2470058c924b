/** The `robots` binary as a real subprocess (built by `npm run build` into dist/). */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { bin, robots, root, shellQuote } from "./support/cli.js";
import { reference } from "./support/implementations.js";

const work = mkdtempSync(join(tmpdir(), "robots-cli-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("robots check", () => {
  it("classifies the bundled example like the reference, one TSV line per URL, summary on stderr", () => {
    const { code, stdout, stderr } = robots(["check", "--robots", "examples/robots.txt", "--agent", "Googlebot", "examples/urls.txt"]);
    expect(code).toBe(0);
    const urls = readFileSync(`${root}examples/urls.txt`, "utf8").trimEnd().split("\n");
    expect(urls.length).toBeGreaterThanOrEqual(10_000);
    const rows = stdout.trimEnd().split("\n").map((row) => row.split("\t"));
    expect(rows.length).toBe(urls.length);
    const oracle = reference.parse(readFileSync(`${root}examples/robots.txt`));
    const expected = oracle.classifyWithLines(urls, "Googlebot");
    rows.forEach(([verdict, url, line], i) => {
      expect(url).toBe(urls[i]);
      expect(verdict).toBe(expected.allowed[i] ? "allowed" : "disallowed");
      expect(Number(line)).toBe(expected.lines[i]);
    });
    const disallowed = rows.filter(([verdict]) => verdict === "disallowed").length;
    const grouped = (count: number) => count.toLocaleString("en-US");
    expect(stderr).toMatch(new RegExp(`^robots check: ${grouped(urls.length)} URLs, ${grouped(urls.length - disallowed)} allowed, ${grouped(disallowed)} disallowed in [\\d.]+ s \\([\\d,]+ URLs/s\\)\\n$`));
  });

  it("reads URLs from stdin, keeps CRLF input intact in the output and merges repeated --agent", () => {
    const { code, stdout } = robots(
      ["check", "--robots", "examples/robots.txt", "--agent", "Bingbot", "--agent", "AhrefsBot", "-q", "-"],
      "https://www.example.com/static/a.css\r\nhttps://www.example.com/news/archive/x\r\nhttps://www.example.com/ok",
    );
    expect(code).toBe(0);
    expect(stdout).toBe(
      "disallowed\thttps://www.example.com/static/a.css\t100\n" +
        "disallowed\thttps://www.example.com/news/archive/x\t116\n" +
        "allowed\thttps://www.example.com/ok\t0\n",
    );
  });

  it("writes the same lines as TSV as it does as JSON lines, whatever the URLs, line numbers and rule texts", () => {
    // The TSV lines are written by the engine (assembly/tsv.ts) and JSON lines by JavaScript:
    // each checks the other. URLs of every length around the writer's 16-byte steps, CRLF and LF,
    // empty lines, tabs, raw UTF-8 and a last line without LF; six-digit line numbers; rule
    // texts with comments, tabs and non-ASCII bytes.
    const robotsTxt =
      "User-agent: *\nDisallow: /*.pdf$\t# documents\nAllow: /caf\u00e9/*\n" + "#\n".repeat(120_000) +
      "Disallow: /x\nDisallow: /a\tb # tab\nAllow: /x/y\n";
    let seed = 7;
    const next = (n: number) => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 8) % n;
    const pieces = ["a", "x", "x/y", "caf\u00e9", "doc.pdf", "%20", "\t", "\u65b0", "?q=1", "/"];
    const lines: string[] = [];
    for (let i = 0; i < 3000; i++) {
      let path = "/";
      const length = next(4) === 0 ? 12 + next(40) : next(12);
      while (path.length < length) path += pieces[next(pieces.length)];
      lines.push(next(10) === 0 ? "" : `http://a.com${path}`);
    }
    const input = lines.map((line, i) => line + (i % 3 === 0 ? "\r\n" : "\n")).join("").replace(/\r?\n$/, "");
    const robotsFile = join(work, "long-robots.txt");
    writeFileSync(robotsFile, robotsTxt);
    for (const rule of [[], ["--rule"]]) {
      const args = ["check", "--robots", robotsFile, "--agent", "x", "-q", ...rule, "-"];
      const tsv = robots(args, input);
      const jsonl = robots([...args, "--format", "jsonl"], input);
      expect(tsv.code).toBe(0);
      const records = jsonl.stdout.trimEnd().split("\n").map((line) => JSON.parse(line));
      const rows = tsv.stdout.split("\n");
      expect(rows.pop()).toBe("");
      expect(rows).toHaveLength(lines.length);
      expect(records.some((record) => record.line > 100_000)).toBe(true);
      rows.forEach((row, i) => {
        // The URL may hold tabs: the verdict is before the first tab, the line number (and rule) after the last ones.
        const fields = row.split("\t");
        const tail = rule.length === 0 ? 1 : 2;
        const record = records[i];
        expect(fields[0]).toBe(record.allowed ? "allowed" : "disallowed");
        expect(fields.slice(1, -tail).join("\t")).toBe(record.url);
        expect(record.url).toBe(lines[i]);
        expect(Number(fields[fields.length - tail])).toBe(record.line);
        if (rule.length !== 0) expect(fields[fields.length - 1]).toBe(record.rule);
      });
    }
  });

  it("applies the rfc9309 profile on request", () => {
    const input = "https://www.example.com/de/%73uche\n";
    expect(robots(["check", "--robots", "examples/robots.txt", "--agent", "x", "-q"], input).stdout).toMatch(/^allowed\t/);
    expect(robots(["check", "--robots", "examples/robots.txt", "--agent", "x", "-q", "--profile", "rfc9309"], input).stdout).toMatch(/^disallowed\t/);
  });

  it.each([
    [["check", "--agent", "x"], /--robots FILE is required/],
    [["check", "--robots", "examples/robots.txt"], /--agent NAME is required/],
    [["check", "--robots", "nope.txt", "--agent", "x"], /cannot read robots.txt "nope.txt": ENOENT/],
    [["check", "--robots", "examples/robots.txt", "--agent", "x", "nope-urls.txt"], /cannot read URLs from "nope-urls.txt": ENOENT/],
    [["check", "--robots", "examples/robots.txt", "--agent", "x", "--bogus"], /unknown option --bogus \(see robots check --help/],
    [["check", "--robots", "examples/robots.txt", "--agent", "x", "--profile", "bing"], /--profile must be google or rfc9309/],
    [["check", "--robots", "examples/robots.txt", "--agent", "x", "--max-bytes=-5"], /--max-bytes must be/],
    // Number() reads "" as 0 (no robots.txt read at all), "1e9" as a billion (threads until memory runs out).
    [["check", "--robots", "examples/robots.txt", "--agent", "x", "--max-bytes="], /--max-bytes must be a non-negative integer or Infinity, got ""/],
    [["check", "--robots", "examples/robots.txt", "--agent", "x", "--workers", "1e9"], /--workers must be an integer from 1 to 256, got "1e9"/],
    [["check", "--robots", "examples/robots.txt", "--agent", "x", "--workers", "257"], /--workers must be an integer from 1 to 256/],
    // 256 passes the worker check: the missing file is what fails.
    [["check", "--robots", "nope.txt", "--agent", "x", "--workers", "256"], /cannot read robots.txt "nope.txt": ENOENT/],
    [["check", "--robots", "examples/robots.txt", "--agent", "x", "a.txt", "b.txt"], /check: one URL file at most, got 2/],
    [["check", "--robots", "examples/robots.txt", "--agent", "x", "--rule", "--count"], /--rule adds a column .* --count does not print/],
    [["check", "--fetch", "--agent", "x", "--timeout", "0"], /--timeout must be a positive whole number of milliseconds, got "0"/],
    [["check", "--fetch", "--agent", "x", "--user-agent", "a\nb"], /--user-agent must be a string without control characters/],
    [["explain", "examples/robots.txt", "https://a.com/", "--agent", "x", "--context", ""], /--context must be a non-negative integer, got ""/],
    [["fetch", "http://127.0.0.1:9/", "--max-bytes", "abc"], /--max-bytes must be a whole number of bytes, got "abc"/],
    [["help", "check", "extra"], /help: unexpected argument "extra"/],
    [["--version", "extra"], /--version: unexpected argument "extra"/],
    [["frobnicate"], /unknown command "frobnicate"/],
  ])("fails with one clear line and exit code 2: %j", (args, message) => {
    const { code, stdout, stderr } = robots(args, "");
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toMatch(message);
    expect(stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(stderr).toMatch(/^robots: /);
  });

  it("prints the usage on stderr with exit code 2 when run without a command", () => {
    const { code, stdout, stderr } = robots([], "");
    expect([code, stdout]).toEqual([2, ""]);
    expect(stderr).toMatch(/^Usage: robots <command>/);
  });

  it("reads nothing of the robots.txt with --max-bytes 0: every URL is allowed", () => {
    const counts = robots(["check", "--robots", "examples/robots.txt", "--agent", "x", "--max-bytes", "0", "--count", "-q"], "https://www.example.com/de/suche\n");
    expect(counts).toEqual({ code: 0, stdout: "allowed\t1\ndisallowed\t0\n", stderr: "" });
  });

  it("writes a rule's tab as a space, so that --rule stays the fourth column", () => {
    const file = join(work, "tab-in-rule.txt");
    writeFileSync(file, "User-agent: *\nDisallow:\t/private\n");
    const { stdout } = robots(["check", "--robots", file, "--agent", "x", "--rule", "-q"], "https://example.com/private/x\n");
    expect(stdout).toBe("disallowed\thttps://example.com/private/x\t2\tDisallow: /private\n");
  });

  it("gives --rule's text without the comment, trimmed, every tab a space, in both formats", () => {
    const file = join(work, "rule-text.txt");
    writeFileSync(file, "User-agent: *\n\tDisallow:\t\t/a\t# private\tnote\n");
    const args = ["check", "--robots", file, "--agent", "x", "--rule", "-q"];
    expect(robots(args, "/a\n").stdout).toBe("disallowed\t/a\t2\tDisallow:  /a\n");
    expect(JSON.parse(robots([...args, "--format", "jsonl"], "/a\n").stdout)).toEqual({ url: "/a", allowed: false, line: 2, rule: "Disallow:  /a" });
  });

  it("escapes the terminal controls of --rule's text in TSV, and leaves them to JSON's escapes in jsonl", () => {
    const file = join(work, "escape-in-rule.txt");
    writeFileSync(file, "User-agent: *\nDisallow: /b\u001b[31m\u0007\n");
    const args = ["check", "--robots", file, "--agent", "x", "--rule", "-q"];
    // The URL is the caller's own input, written as read; the rule is the file's.
    const url = "/b\u001b[31m\u0007";
    expect(robots(args, `${url}\n`).stdout).toBe(`disallowed\t${url}\t2\tDisallow: /b\\x1b[31m\\x07\n`);
    expect(JSON.parse(robots([...args, "--format", "jsonl"], `${url}\n`).stdout)).toEqual({ url, allowed: false, line: 2, rule: `Disallow: ${url}` });
  });

  it("gives --rule's text as far as --max-bytes read it", () => {
    const file = join(work, "rule-cut.txt");
    writeFileSync(file, "User-agent: *\nDisallow: /abcdef\n");
    const { stdout } = robots(["check", "--robots", file, "--agent", "x", "--rule", "--max-bytes", "28", "-q"], "/abcx\n");
    expect(stdout).toBe("disallowed\t/abcx\t2\tDisallow: /abc\n");
  });

  it("prints help and version", () => {
    const help = robots(["check", "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("Usage: robots check --robots FILE --agent NAME");
    expect(robots(["--help"]).stdout).toContain("Commands:");
    const version = robots(["--version"]);
    expect(version.stdout.trim()).toBe(JSON.parse(readFileSync(`${root}package.json`, "utf8")).version);
    // The short forms and `robots help` say the same.
    expect(robots(["-h"])).toEqual(robots(["--help"]));
    expect(robots(["help"])).toEqual(robots(["--help"]));
    expect(robots(["-v"])).toEqual(version);
  });

  it.each(["toString", "constructor", "__proto__"])("takes %s, a name every object has, for an unknown command", (name) => {
    for (const args of [[name], ["help", name]]) {
      const { code, stdout, stderr } = robots(args, "");
      expect([code, stdout, stderr]).toEqual([2, "", `robots: unknown command "${name}" (try: robots --help)\n`]);
    }
  });

  it("reads --max-bytes Infinity (so spelt) as no limit", () => {
    const file = join(work, "past-512000.txt");
    writeFileSync(file, `User-agent: *\n${"#".repeat(520_000)}\nDisallow: /x\n`);
    const count = (maxBytes: string[]) => robots(["check", "--robots", file, "--agent", "a", "--count", "-q", ...maxBytes], "/x\n");
    expect(count([]).stdout).toBe("allowed\t1\ndisallowed\t0\n");
    expect(count(["--max-bytes", "Infinity"]).stdout).toBe("allowed\t0\ndisallowed\t1\n");
    expect(count(["--max-bytes", "infinity"])).toMatchObject({ code: 2, stdout: "" });
  });

  it("names standard input <stdin> in lint's findings", () => {
    const { stdout } = robots(["lint", "-"], "User-agent: *\nDisallow: /x\nFoo: bar\n");
    expect(stdout).toMatch(/^<stdin>:3: warning: unknown key `Foo`/);
  });
});

describe("output that cannot be written, and text that must not reach a terminal raw", () => {
  const shell = (command: string) => spawnSync("bash", ["-c", `set -o pipefail; ${command}`], { cwd: root, encoding: "utf8" });
  const cli = `${shellQuote(process.execPath)} ${shellQuote(bin)}`;

  it("an unexpected failure (here a write that throws) exits 2, never 1, which allowed gives for disallowed", () => {
    const preload = 'data:text/javascript,process.stdout.write = () => { throw new TypeError("injected failure"); };';
    const result = spawnSync(process.execPath, ["--import", preload, bin, "allowed", "examples/robots.txt", "Googlebot", "/"], { cwd: root, encoding: "utf8" });
    expect([result.status, result.stdout, result.stderr]).toEqual([2, "", "robots: injected failure\n"]);
  });

  it("allowed keeps its answer as its status when the reader closes the pipe without reading", () => {
    // The reader closes its end at once; `allowed` exits 1 for a disallowed URL whether or not its line was read.
    const disallowed = shell(`${cli} allowed examples/robots.txt Googlebot https://www.example.com/cart | (exec 0<&-; sleep 0.5)`);
    expect(disallowed.status).toBe(1);
    expect(disallowed.stderr).toBe("");
    expect(shell(`${cli} allowed examples/robots.txt Googlebot https://www.example.com/ | (exec 0<&-; sleep 0.5)`).status).toBe(0);
  });

  it("lint keeps its answer (2: errors) when its reader stops early, in text and JSON, even with a report of many pieces", () => {
    // A report of thousands of findings is written in pieces, waiting for the pipe: a closed one
    // never drains, and the command ended with no status (0).
    const file = join(work, "typos.txt");
    writeFileSync(file, `User-agent: *\n${"Disallow: p\n".repeat(5_000)}`); // pattern-without-slash: an error each
    for (const json of [[], ["--json"]]) {
      const result = shell(`${cli} lint ${[...json, shellQuote(file)].join(" ")} | head -c 100 > /dev/null`);
      expect(result.status, json.join(" ")).toBe(2);
    }
  });

  it("a full disk is an error (2) naming the command, never a verdict", () => {
    const result = shell(`${cli} allowed examples/robots.txt Googlebot https://www.example.com/ > /dev/full`);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^robots: allowed: cannot write the output: ENOSPC/);
  });

  it("check carries on when its standard error is closed (2>&1 | head), and exits 0", () => {
    const result = shell(`printf 'https://www.example.com/a\\n' | ${cli} check --robots examples/robots.txt --agent Googlebot --count 2>&1 | head -n 1`);
    expect(result.stdout).toBe("allowed\t1\n");
    expect(result.status).toBe(0);
  });

  it("a URL file that cannot be read for any reason (here a symlink loop) is a one-line error", () => {
    const loop = join(work, "loop-a");
    symlinkSync(join(work, "loop-b"), loop);
    symlinkSync(loop, join(work, "loop-b"));
    const { code, stderr } = robots(["check", "--robots", "examples/robots.txt", "--agent", "x", loop]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^robots: check: cannot read URLs from ".*loop-a": ELOOP\n$/);
  });

  it("shows the controls in robots.txt lines, patterns and page directives as escapes", () => {
    const file = join(work, "escapes.txt");
    writeFileSync(file, "User-agent: *\nDisalow: /y\x1b[31m\u202e\nDisallow: /x\x1b]0;title\x07\n");
    const lint = robots(["lint", file]);
    expect(lint.stdout).toContain("Disalow: /y\\x1b[31m\\u202e");
    const explain = robots(["explain", file, "https://a.com/x\x1b]0;title\x07", "--agent", "x"]);
    expect(explain.stdout).toContain("Disallow /x\\x1b]0;title\\x07");
    const page = join(work, "escapes.html");
    writeFileSync(page, '<meta name="robots" content="noindex\x1b[2J">');
    expect(robots(["meta", page, "--agent", "x"]).stdout).toContain("noindex\\x1b[2J");
    for (const { stdout } of [lint, explain]) expect(stdout).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e]/);
    // --json keeps the text as it is (JSON escapes what it must).
    expect(JSON.parse(robots(["lint", "--json", file]).stdout).findings[0].fix).toContain("\x1b[31m");
  });
});
