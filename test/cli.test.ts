/** The `robots` binary as a real subprocess (built by `npm run build` into dist/). */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { robots, root } from "./support/cli.js";
import { reference } from "./support/implementations.js";

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
    expect(stderr).toMatch(new RegExp(`^robots check: ${urls.length} URLs, ${urls.length - disallowed} allowed, ${disallowed} disallowed in [\\d.]+ s \\([\\d,]+ URLs/s\\)\\n$`));
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
    [["check", "--robots", "examples/robots.txt", "--agent", "x", "--bogus"], /Unknown option '--bogus'/],
    [["check", "--robots", "examples/robots.txt", "--agent", "x", "--profile", "bing"], /--profile must be google or rfc9309/],
    [["check", "--robots", "examples/robots.txt", "--agent", "x", "--max-bytes=-5"], /--max-bytes must be/],
    [["frobnicate"], /unknown command "frobnicate"/],
  ])("fails with one clear line and exit code 2: %j", (args, message) => {
    const { code, stdout, stderr } = robots(args, "");
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toMatch(message);
    expect(stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(stderr).toMatch(/^robots: /);
  });

  it("prints help and version", () => {
    const help = robots(["check", "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("Usage: robots check --robots FILE --agent NAME");
    expect(robots(["--help"]).stdout).toContain("Commands:");
    const version = robots(["--version"]);
    expect(version.stdout.trim()).toBe(JSON.parse(readFileSync(`${root}package.json`, "utf8")).version);
  });
});
