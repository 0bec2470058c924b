/**
 * The `robots` commands as a real subprocess (build first: `npm run build`): explain, lint,
 * allowed, check's formats, help, errors and exit codes, and what a terminal sees (progress,
 * colour) through a pseudo-terminal.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { bin, robots, robotsOnTerminal, root } from "./support/cli.js";
import { reference } from "./support/implementations.js";
import type { LintReport } from "../src/types.js";

const work = mkdtempSync(join(tmpdir(), "robots-cli-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A file with the Crawl-delay pitfall (FooBot shares the * group) and a second foobot group. */
const EXPLAIN_FILE = join(work, "robots.txt");
writeFileSync(
  EXPLAIN_FILE,
  ["User-agent: FooBot/2.1", "Crawl-delay: 5", "User-agent: *", "Disallow: /", "Allow: /public", "Disallow: /public/private", "", "User-agent: foobot", "Disallow: /public", ""].join("\n"),
);
const lintFixture = (name: string): string => `test/fixtures/lint/${name}`;
const ESC = "\x1b[";

describe("robots explain", () => {
  it("prints the verdict, the deciding rule in context, the merged groups and why, and the rules that lost", () => {
    const { code, stdout, stderr } = robots(["explain", EXPLAIN_FILE, "http://a.com/public/x", "--agent", "foobot"]);
    expect(code).toBe(0);
    expect(stderr).toBe("");
    expect(stdout).toBe(
      [
        "allowed: http://a.com/public/x",
        "  for foobot (google profile)",
        "",
        "Decided by line 5: Allow /public (priority 7)",
        "    3 | User-agent: *",
        "    4 | Disallow: /",
        "  > 5 | Allow: /public",
        "    6 | Disallow: /public/private",
        "    7 | ",
        "",
        "Groups:",
        "  the groups at lines 1 and 8 name foobot, merged: 4 rules",
        '    line 1: "User-agent: FooBot/2.1", read as "FooBot"',
        '    line 8: "User-agent: foobot"',
        '  shared with "*" (line 3): a run of user-agent lines is one group',
        "",
        "Also matched, but lost:",
        "  line 9: Disallow /public (priority 7): same priority: allow wins a tie",
        "  line 4: Disallow / (priority 1): shorter than the winner (1 < 7)",
        "",
      ].join("\n"),
    );
  });

  it("shows a source line of 120 characters whole, and says how `* bot` was read", () => {
    const file = join(work, "wide.txt");
    const wide = `Disallow: /${"a".repeat(109)}`; // 120 characters: the widest line shown uncut
    writeFileSync(file, `User-agent: * bot\n${wide}\nDisallow: /${"b".repeat(110)}\n`);
    const { stdout } = robots(["explain", file, `http://a.com/${"a".repeat(109)}`, "--agent", "foo"]);
    expect(stdout).toContain(`  > 2 | ${wide}\n`);
    expect(stdout).toContain(`    3 | Disallow: /${"b".repeat(108)}…\n`);
    expect(stdout).toContain('    line 1: "User-agent: * bot", read as *\n');
  });

  it("says when the * group applies (global fallback), when it is ignored, and when nothing applies", () => {
    const fallback = robots(["explain", EXPLAIN_FILE, "http://a.com/x", "--agent", "Other", "--context", "0"]).stdout;
    expect(fallback).toContain("disallowed: http://a.com/x\n");
    expect(fallback).toContain("Decided by line 4: Disallow / (priority 1)\n  > 4 | Disallow: /\n");
    expect(fallback).toContain("no group names Other, so the group at line 1 for * applies (the global fallback): 3 rules");
    const file = join(work, "two-groups.txt");
    writeFileSync(file, "User-agent: *\nDisallow: /\n\nUser-agent: quxbot\nDisallow:\n");
    const ignored = robots(["explain", file, "/x", "--agent", "QuxBot"]).stdout;
    expect(ignored).toContain("Decided by line 5: Disallow (empty) (priority 0: an empty pattern never disallows)");
    expect(ignored).toContain("the group at line 1 for * does not apply, because a group names the agent");
    writeFileSync(file, "User-agent: a\nDisallow: /\n");
    const nothing = robots(["explain", file, "/x", "--agent", "b"]).stdout;
    expect(nothing).toContain("No rule matched, so the URL is allowed.");
    expect(nothing).toContain("no group names b and there is no * group: every URL is allowed");
    // An empty agent is still named.
    expect(robots(["explain", file, "/x", "--agent", ""]).stdout).toContain('  for "" (google profile)\n');
  });

  it("says why the robots.txt itself is allowed under Disallow: / in the rfc9309 profile, and not in google's", () => {
    const file = join(work, "all-blocked.txt");
    writeFileSync(file, "User-agent: *\nDisallow: /\n");
    const rfc = robots(["explain", file, "https://a.com/robots.txt?x=1", "--agent", "b", "--profile", "rfc9309"]);
    expect(rfc.stdout).toContain("allowed: https://a.com/robots.txt?x=1\n");
    expect(rfc.stdout).toContain("The robots.txt itself is always allowed in the rfc9309 profile (RFC 9309 2.2.2), whatever the rules say.");
    expect(JSON.parse(robots(["explain", "--json", "--profile", "rfc9309", file, "/robots.txt", "--agent", "b"]).stdout)).toMatchObject({ allowed: true, robotsTxt: true, line: 0 });
    const google = robots(["explain", file, "https://a.com/robots.txt", "--agent", "b"]).stdout;
    expect(google).toContain("Decided by line 2: Disallow / (priority 1)");
    expect(JSON.parse(robots(["explain", "--json", file, "/robots.txt", "--agent", "b"]).stdout)).toMatchObject({ allowed: false, robotsTxt: false });
  });

  it("gives the same facts as JSON, and as the library does", () => {
    const { code, stdout } = robots(["explain", "--json", EXPLAIN_FILE, "http://a.com/public/private/x", "--agent", "other"]);
    expect(code).toBe(0);
    const details = JSON.parse(stdout);
    const oracle = reference.parse(readFileSync(EXPLAIN_FILE));
    expect(details).toMatchObject({ allowed: false, line: 6, scope: "global", agents: ["other"], ignoredGlobalGroups: [] });
    expect(details.rule).toEqual(oracle.matchingRules("http://a.com/public/private/x", "other")[0]);
    expect(details.groups).toEqual([oracle.groups[0]]);
    expect(details.lost.map((rule: { line: number; reason: string }) => [rule.line, rule.reason])).toEqual([
      [5, "shorter than the winner (7 < 15)"],
      [4, "shorter than the winner (1 < 15)"],
    ]);
  });
});

describe("robots explain, the details", () => {
  const file = join(work, "details.txt");
  writeFileSync(file, ["User-agent: *", "Disallow: /a", "Disallow: /a", "Allow: /x/index.html", "Disallow: /x", "#5", "#6", "#7", "#8", "#9", "#10", "Disallow: /last"].join("\n"));
  const explain = (url: string, ...args: string[]) => robots(["explain", file, url, "--agent", "z", ...args]).stdout;

  it("names the earlier line as the winner of a tie", () => {
    expect(explain("/a")).toContain("  line 3: Disallow /a (priority 2): same priority and kind: the earlier line 2 wins\n");
  });

  it("says when the winner is the directory Google derives from an index.html allow rule", () => {
    expect(explain("/x/")).toContain("Decided by line 4: Allow /x/$ (priority 4, the directory of an index.html allow rule (Google-specific))\n");
  });

  it("says which of the agents asked about a group names, not all of them", () => {
    const several = join(work, "several-agents.txt");
    writeFileSync(several, "User-agent: foo\nDisallow: /b\n\nUser-agent: *\nDisallow: /a\n");
    const { stdout } = robots(["explain", several, "/b", "--agent", "foo", "--agent", "bar"]);
    expect(stdout).toContain("  for foo, bar (google profile)\n");
    expect(stdout).toContain("  the group at line 1 names foo: 1 rule\n");
  });

  it("names only that rule so: not a written `/$` rule on a line that mentions index.html, nor a pattern that holds it", () => {
    const written = join(work, "written-index.txt");
    writeFileSync(written, "User-agent: *\nDisallow: /\nAllow: /d/index.html/$\nAllow: /e/$ # was /e/index.html\n");
    for (const profile of ["google", "rfc9309"]) {
      const run = (url: string) => robots(["explain", written, url, "--agent", "z", "--profile", profile]).stdout;
      expect(run("/d/index.html/")).toContain("Decided by line 3: Allow /d/index.html/$ (priority 15)\n");
      expect(run("/e/")).toContain("Decided by line 4: Allow /e/$ (priority 4)\n");
    }
  });

  it("shows the context up to the file's last line, numbered in one width", () => {
    expect(explain("/last", "--context", "3")).toContain(["     9 | #8", "    10 | #9", "    11 | #10", "  > 12 | Disallow: /last", "", "Groups:"].join("\n"));
  });

  it("shows no empty line after the last one when the file ends with a line feed", () => {
    const file = join(work, "final-lf.txt");
    writeFileSync(file, "User-agent: *\nDisallow: /p\n");
    expect(robots(["explain", file, "/p", "--agent", "x"]).stdout).toContain("    1 | User-agent: *\n  > 2 | Disallow: /p\n\nGroups:");
  });

  it("merges the groups of every --agent", () => {
    const merged = join(work, "merged.txt");
    writeFileSync(merged, "User-agent: a\nDisallow: /a\n\nUser-agent: b\nDisallow: /b\n");
    expect(robots(["explain", merged, "/b", "--agent", "a", "--agent", "b"]).stdout).toMatch(/^disallowed: \/b\n {2}for a, b \(google profile\)\n\nDecided by line 5: Disallow \/b/);
  });
});

describe("robots lint", () => {
  it("shows each agent's crawl-delay, the agents no group applies to, and no blank line before the agents when nothing was found", () => {
    const file = join(work, "lint-agents.txt");
    writeFileSync(file, "User-agent: a\nDisallow: /x\nDisallow: /y\n");
    expect(robots(["lint", file]).stdout).toBe(
      ["Agents", "  a: the group at line 1, 2 rules", "  * (every other agent): no group applies, everything is allowed", "", "0 errors, 0 warnings, 0 info", ""].join("\n"),
    );
    writeFileSync(file, "User-agent: a\nCrawl-delay: 4\nDisallow: /x\n");
    expect(robots(["lint", file]).stdout).toContain("\n  a: the group at line 1, 1 rule, crawl-delay 4 s\n");
  });

  it("lines the fix up under the line's text whatever the width of its number", () => {
    const file = join(work, "lint-wide.txt");
    writeFileSync(file, `User-agent: a\n${"#\n".repeat(8)}Disalow: /y\n`);
    expect(robots(["lint", file]).stdout).toContain("  10 | Disalow: /y\n       fix: write `Disallow: /y`\n");
  });

  it("prints each finding with file:line, severity, message, code, the line and a fix, then the agents; exit 0 without errors", () => {
    const { code, stdout } = robots(["lint", lintFixture("typo.txt")]);
    expect(code).toBe(0);
    expect(stdout).toBe(
      [
        "test/fixtures/lint/typo.txt:2: warning: `Disalow` is read as Disallow by Google (an accepted misspelling); other crawlers ignore the line [typo]",
        "  2 | Disalow: /private/",
        "      fix: write `Disallow: /private/`",
        "",
        "Agents",
        "  * (every other agent): the group at line 1, 1 rule",
        "",
        "0 errors, 1 warning, 0 info",
        "",
      ].join("\n"),
    );
  });

  it("exits 0 when clean, 1 on warnings with --strict, 2 on errors", () => {
    const clean = robots(["lint", "--strict", lintFixture("clean.txt")]);
    expect(clean.code).toBe(0);
    expect(clean.stdout).toContain("0 errors, 0 warnings, 0 info\n");
    expect(clean.stdout).toContain("  Googlebot: the group at line 2, 2 rules\n");
    expect(robots(["lint", "--strict", lintFixture("typo.txt")]).code).toBe(1);
    expect(robots(["lint", lintFixture("ignored-record.txt"), "--strict"]).code).toBe(0); // info only
    expect(robots(["lint", lintFixture("rule-outside-group.txt")]).code).toBe(2);
  });

  it("prints the library's report with --json, reads standard input with -, and honours --max-bytes", () => {
    const body = readFileSync(`${root}${lintFixture("line-between-user-agents.txt")}`);
    const { code, stdout } = robots(["lint", "--json", "-"], body);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual(reference.parse(body, { keepSource: true }).lint());
    const cut = JSON.parse(robots(["lint", "--json", "--max-bytes", "34", lintFixture("size-limit.txt")]).stdout);
    expect(cut.findings.map((finding: { code: string }) => finding.code)).toEqual(["size-limit"]);
  });
});

describe("robots allowed", () => {
  it("exits 0 when allowed and 1 when disallowed, with Google's robots binary's line", () => {
    const yes = robots(["allowed", EXPLAIN_FILE, "Other", "http://a.com/public/x"]);
    expect(yes).toEqual({ code: 0, stdout: "user-agent 'Other' with URI 'http://a.com/public/x': ALLOWED\n", stderr: "" });
    const no = robots(["allowed", EXPLAIN_FILE, "FooBot", "http://a.com/private"]);
    expect(no).toEqual({ code: 1, stdout: "user-agent 'FooBot' with URI 'http://a.com/private': DISALLOWED\n", stderr: "" });
    expect(robots(["allowed", "-q", EXPLAIN_FILE, "FooBot", "http://a.com/private"])).toEqual({ code: 1, stdout: "", stderr: "" });
    expect(robots(["allowed", "--profile", "rfc9309", "-", "x", "http://a.com/robots.txt"], "User-agent: *\nDisallow: /\n").code).toBe(0);
    expect(robots(["allowed", "-", "x", "http://a.com/robots.txt"], "User-agent: *\nDisallow: /\n").code).toBe(1);
  });

  it("takes a whole User-Agent header as AGENT (a URL inside it is not a URL first), a product/version that looks like a host and path, and a scheme without //", () => {
    // `Bot:/1` has a scheme-like start but not `://`: an agent.
    for (const agent of ["Mozilla/5.0 (compatible; FooBot/2.1; +http://www.example.com/bot.html)", "Validator.nu/LV", "Bot:/1"]) {
      expect(robots(["allowed", EXPLAIN_FILE, agent, "http://a.com/private"])).toEqual({
        code: 1, stdout: `user-agent '${agent}' with URI 'http://a.com/private': DISALLOWED\n`, stderr: "",
      });
    }
  });

  it("shows the URL and the agent with their controls as escapes", () => {
    expect(robots(["allowed", EXPLAIN_FILE, "a\x1b[2J", "/public\x1b]0;x\x07"]).stdout).toBe(
      "user-agent 'a\\x1b[2J' with URI '/public\\x1b]0;x\\x07': ALLOWED\n",
    );
  });
});

describe("robots check output formats", () => {
  const urls = "http://a.com/public/x\nhttp://a.com/x\nhttp://a.com/public/private/y\n";

  it("gives --rule's text as the parser read it: up to a NUL byte, as up to a comment", () => {
    const file = join(work, "nul-rule.txt");
    writeFileSync(file, "User-agent: *\nDisallow: /a\0b # c\n");
    const { stdout } = robots(["check", "--robots", file, "--agent", "x", "--rule", "-q"], "http://x/a/1\n");
    expect(stdout).toBe("disallowed\thttp://x/a/1\t2\tDisallow: /a\n");
  });

  it("prints JSON lines, the matching rule's text on request, or only the counts", () => {
    const jsonl = robots(["check", "--robots", EXPLAIN_FILE, "--agent", "other", "--format", "jsonl", "--rule", "-q"], urls);
    expect(jsonl.code).toBe(0);
    expect(jsonl.stdout.trimEnd().split("\n").map((line) => JSON.parse(line))).toEqual([
      { url: "http://a.com/public/x", allowed: true, line: 5, rule: "Allow: /public" },
      { url: "http://a.com/x", allowed: false, line: 4, rule: "Disallow: /" },
      { url: "http://a.com/public/private/y", allowed: false, line: 6, rule: "Disallow: /public/private" },
    ]);
    const tsv = robots(["check", "--robots", EXPLAIN_FILE, "--agent", "other", "--rule", "-q"], `${urls}http://b.com/public\n`);
    expect(tsv.stdout.split("\n")[0]).toBe("allowed\thttp://a.com/public/x\t5\tAllow: /public");
    expect(robots(["check", "--robots", "-", "--agent", "x", "--rule", "-q", join(work, "none.txt")], "").code).toBe(2);
    const counts = robots(["check", "--robots", EXPLAIN_FILE, "--agent", "other", "--count", "-q"], urls);
    expect(counts).toEqual({ code: 0, stdout: "allowed\t1\ndisallowed\t2\n", stderr: "" });
    const jsonCounts = robots(["check", "--robots", EXPLAIN_FILE, "--agent", "other", "--count", "--format", "jsonl", "-q"], urls);
    expect(JSON.parse(jsonCounts.stdout)).toEqual({ urls: 3, allowed: 1, disallowed: 2 });
  });

  it("counts a single URL as one URL in the summary", () => {
    const { stderr } = robots(["check", "--robots", EXPLAIN_FILE, "--agent", "other"], "http://a.com/public/x\n");
    expect(stderr).toMatch(/^robots check: 1 URL, 1 allowed, 0 disallowed in [\d.]+ s \([\d,]+ URLs\/s\)\n$/);
  });

  it("draws no progress line when standard error is not a terminal: only the summary", () => {
    const { stderr } = robots(["check", "--robots", EXPLAIN_FILE, "--agent", "other", "examples/urls.txt"]);
    expect(stderr).toMatch(/^robots check: 20,000 URLs, 0 allowed, 20,000 disallowed in [\d.]+ s \([\d,]+ URLs\/s\)\n$/);
    expect(stderr).not.toContain("\r");
    expect(stderr).not.toContain(ESC);
  });
});

describe("robots check --workers", () => {
  it("prints exactly what one thread prints, in input order: a file, and standard input in many batches", () => {
    const args = ["check", "--robots", "examples/robots.txt", "--agent", "Bingbot", "-q"];
    const single = robots([...args, "examples/urls.txt"]);
    expect(single.stdout.split("\n")).toHaveLength(20_001);
    expect(robots([...args, "--workers", "2", "examples/urls.txt"])).toEqual(single);
    // 100,000 URLs arrive through a pipe in small chunks: many batches, CRLF, no final line end.
    const paths = ["static/a.css", "news/archive/x", "de/suche?q=1", "ok"];
    const urls = Array.from({ length: 100_000 }, (_, i) => `https://www.example.com/${paths[i % 4]}/${i}`).join("\r\n");
    const expected = robots([...args, "--format", "jsonl", "--rule", "-"], urls);
    expect(expected.stdout.split("\n")).toHaveLength(100_001);
    expect(robots([...args, "--format", "jsonl", "--rule", "--workers", "3", "-"], urls)).toEqual(expected);
  });
});

describe("on a terminal", () => {
  it("draws a progress line on standard error (URLs, URLs/s, bar and ETA for a file), then clears it for the summary", () => {
    const out = join(work, "out.tsv");
    const terminal = { ...process.env, TERM: "xterm" };
    const { code, stdout } = robotsOnTerminal(["check", "--robots", "examples/robots.txt", "--agent", "Googlebot", "examples/urls.txt"], terminal, `> ${out}`);
    expect(code).toBe(0);
    expect(stdout).toMatch(/\r\x1b\[Krobots check: [\d,]+ URLs, [\d,]+ URLs\/s \[[#.]{20}\] \d+%, ETA \d+(m\d\d)?s/);
    // The progress line is cleared, and the summary takes its place.
    expect(stdout).toMatch(/URLs\/s[^\n]*\r\x1b\[Krobots check: 20,000 URLs, \d{1,2},\d{3} allowed, \d{1,2},\d{3} disallowed in [\d.]+ s/);
    expect(readFileSync(out, "utf8").split("\n")).toHaveLength(20_001);
    const quiet = robotsOnTerminal(["check", "-q", "--robots", "examples/robots.txt", "--agent", "Googlebot", "examples/urls.txt"], terminal, "> /dev/null");
    expect(quiet.stdout).toBe("");
    // A dumb terminal would show the redraws' escape codes as they are: the summary alone.
    const dumb = robotsOnTerminal(["check", "--robots", "examples/robots.txt", "--agent", "Googlebot", "examples/urls.txt"], { ...process.env, TERM: "dumb" }, "> /dev/null");
    expect(dumb.stdout).not.toContain("\x1b");
    expect(dumb.stdout).toMatch(/robots check: 20,000 URLs, [\d,]+ allowed/);
  });

  it("draws no progress line while the results go to the same terminal (its redraws would run into them); --count still has one", () => {
    const args = ["check", "--robots", "examples/robots.txt", "--agent", "Googlebot", "examples/urls.txt"];
    const { code, stdout } = robotsOnTerminal(args, { ...process.env, TERM: "xterm" });
    expect(code).toBe(0);
    expect(stdout).not.toContain("\r\x1b[K");
    expect(stdout).toMatch(/robots check: 20,000 URLs, [\d,]+ allowed/);
    expect(robotsOnTerminal([...args, "--count"], { ...process.env, TERM: "xterm" }).stdout).toMatch(/\r\x1b\[Krobots check: [\d,]+ URLs, [\d,]+ URLs\/s/);
  });

  it("colours the lint report and the verdict, except with NO_COLOR", () => {
    const coloured = robotsOnTerminal(["lint", lintFixture("typo.txt")], { ...process.env, NO_COLOR: "", TERM: "xterm" });
    expect(coloured.stdout).toContain(`${ESC}33mwarning${ESC}39m`);
    expect(robotsOnTerminal(["lint", lintFixture("rule-outside-group.txt")], { ...process.env, NO_COLOR: "", TERM: "xterm" }).stdout).toContain(`${ESC}31merror${ESC}39m`);
    expect(robotsOnTerminal(["explain", EXPLAIN_FILE, "/x", "--agent", "a"], { ...process.env, NO_COLOR: "", TERM: "xterm" }).stdout).toContain(`${ESC}31mdisallowed`);
    const plain = robotsOnTerminal(["lint", lintFixture("typo.txt")], { ...process.env, NO_COLOR: "1", TERM: "xterm" });
    expect(plain.stdout).toContain("warning");
    expect(plain.stdout).not.toContain(ESC);
  });
});

describe("help, version and errors", () => {
  it.each(["check", "explain", "lint", "allowed"])("robots %s --help shows usage and examples (also as robots help %s)", (command) => {
    const help = robots([command, "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(new RegExp(`^Usage: robots ${command} `));
    expect(help.stdout).toContain("\nExamples:\n");
    expect(robots(["help", command]).stdout).toBe(help.stdout);
    expect(robots(["--help"]).stdout).toMatch(new RegExp(`\n  ${command} +\\S`));
  });

  it.each([
    [["lint"], /^robots: lint: FILE is required \(usage: robots lint FILE\)$/],
    [["lint", "nope.txt"], /^robots: lint: cannot read robots.txt "nope.txt": ENOENT$/],
    [["lint", "a", "b"], /^robots: lint: unexpected argument "b"/],
    [["lint", "--colour", "x"], /^robots: lint: unknown option --colour \(see robots lint --help; an argument that starts with "-" and is no option goes after --\)$/],
    [["lint", "-q", "x"], /^robots: lint: unknown option -q \(see robots lint --help;/],
    [["lint", "x", "--strict=yes"], /^robots: lint: --strict takes no value$/],
    [["explain", EXPLAIN_FILE, "/x", "--agent"], /^robots: explain: --agent needs a value$/],
    [["explain", EXPLAIN_FILE, "/x"], /^robots: explain: --agent NAME is required$/],
    [["explain", EXPLAIN_FILE, "--agent", "x"], /^robots: explain: URL is required/],
    [["explain", EXPLAIN_FILE, "/x", "--agent", "x", "--context", "-1"], /^robots: explain: --context needs a value, and the next argument starts with "-" \(write --context=VALUE if that is its value\)$/],
    [["explain", EXPLAIN_FILE, "/x", "--agent", "x", "--context=-1"], /--context must be a non-negative integer/],
    [["explain", "nope.txt", "/x", "--agent", "x"], /cannot read robots.txt "nope.txt": ENOENT/],
    [["allowed", EXPLAIN_FILE, "Googlebot"], /^robots: allowed: URL is required/],
    [["allowed", "nope.txt", "a", "/"], /cannot read robots.txt "nope.txt": ENOENT/],
    // explain's order (URL, then agent) given to allowed.
    [["allowed", EXPLAIN_FILE, "http://a.com/private", "FooBot"], /^robots: allowed: AGENT "http:\/\/a\.com\/private" looks like a URL \(the arguments are FILE AGENT URL\)$/],
    [["allowed", EXPLAIN_FILE, "/private", "FooBot"], /^robots: allowed: AGENT "\/private" looks like a URL/],
    [["allowed", EXPLAIN_FILE, "www.example.com/private", "FooBot"], /^robots: allowed: AGENT "www\.example\.com\/private" looks like a URL/],
    // A URL with a scheme is refused whatever the agent after it (a product/version has a `/`, so
    // the host-and-path check does not apply) and whatever the scheme or its case.
    [["allowed", EXPLAIN_FILE, "http://a.com/private", "FooBot/2.1"], /^robots: allowed: AGENT "http:\/\/a\.com\/private" looks like a URL/],
    [["allowed", EXPLAIN_FILE, "ftp://a.com/private", "FooBot/2.1"], /^robots: allowed: AGENT "ftp:\/\/a\.com\/private" looks like a URL/],
    [["allowed", EXPLAIN_FILE, "HTTP://A.COM/private", "FooBot/2.1"], /^robots: allowed: AGENT "HTTP:\/\/A\.COM\/private" looks like a URL/],
    // An option with a short form is named by its long one.
    [["allowed", "--quiet=1", EXPLAIN_FILE, "a", "/"], /^robots: allowed: --quiet takes no value$/],
    [["check", "--robots", EXPLAIN_FILE, "--agent", "x", "--format", "csv"], /--format must be tsv or jsonl/],
    [["check", "--robots", EXPLAIN_FILE, "--agent", "x", "--workers", "0"], /--workers must be an integer from 1 to 256, got "0"/],
    [["check", "--robots", "-", "--agent", "x"], /cannot both come from standard input/],
    [["check", "--robots", "-", "--agent", "x", "/dev/stdin"], /cannot both come from standard input/],
    [["check", "--robots", "/dev/stdin", "--agent", "x"], /cannot both come from standard input/],
    [["check", "--robots", "/proc/self/fd/0", "--agent", "x", "/dev/fd/0"], /cannot both come from standard input/],
    [["check", "--robots", EXPLAIN_FILE, "--agent", "x", "test"], /cannot read URLs from "test": EISDIR/],
    [["help", "frobnicate"], /unknown command "frobnicate"/],
  ])("%j fails with one line on stderr and exit code 2", (args, message) => {
    const { code, stdout, stderr } = robots(args, "");
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(stderr.trimEnd()).toMatch(message);
  });

  it("shows the stack trace only with --debug", () => {
    expect(robots(["lint", "nope.txt"]).stderr).not.toMatch(/\n\s+at /);
    expect(robots(["lint", "nope.txt", "--debug"]).stderr).toMatch(/CliError: lint: cannot read robots.txt[^\n]*\n\s+at /);
  });

  it("reads --debug after -- as a file name, as every argument there", () => {
    writeFileSync(join(work, "--debug"), "/p\n/q\n");
    writeFileSync(join(work, "debug-rules.txt"), "User-agent: *\nDisallow: /p\n");
    // The URL list named `--debug` is read, not standard input.
    const result = spawnSync(process.execPath, [bin, "check", "--robots", "debug-rules.txt", "--agent", "G", "-q", "--", "--debug"], { cwd: work, input: "/stdin\n", encoding: "utf8" });
    expect([result.status, result.stdout]).toEqual([0, "disallowed\t/p\t2\nallowed\t/q\t0\n"]);
  });

  it("reads a robots.txt only 16 MiB past --max-bytes: an endless input gets an answer, and says so", () => {
    const endless = spawnSync(process.execPath, [bin, "lint", "/dev/zero"], { cwd: work, encoding: "utf8", timeout: 30_000 });
    expect(endless.status).toBe(2); // lint's errors (NUL bytes, the size limit)
    expect(endless.stdout).toMatch(/\d+ errors?, /);
    expect(endless.stderr).toContain(`robots lint: read the first ${512_000 + (16 << 20)} bytes of "/dev/zero" (16 MiB past --max-bytes); the rest is not read`);
    // Its size-limit finding does not take what was read for the file's size.
    const json = spawnSync(process.execPath, [bin, "lint", "/dev/zero", "--json"], { cwd: work, encoding: "utf8", timeout: 30_000, maxBuffer: 64 << 20 });
    const sizeLimit = (JSON.parse(json.stdout) as LintReport).findings.find((finding) => finding.code === "size-limit");
    expect(sizeLimit?.message).toMatch(/^the file is more than 17,289,216 bytes; only 512,000 are read/);
    const piped = spawnSync("bash", ["-c", `yes 'Disallow: /x' | "${process.execPath}" "${bin}" allowed --max-bytes 1000 - G https://a.com/x`], { cwd: work, encoding: "utf8", timeout: 30_000 });
    expect([piped.status, piped.stdout]).toEqual([0, "user-agent 'G' with URI 'https://a.com/x': ALLOWED\n"]);
    const meta = spawnSync(process.execPath, [bin, "meta", "/dev/zero", "--agent", "G"], { cwd: work, encoding: "utf8", timeout: 30_000 });
    expect([meta.status, meta.stderr]).toEqual([0, "robots meta: read the first 268435456 bytes of the page; the rest is not read\n"]);
  }, 60_000);

  it("reads a robots.txt from a standard input left non-blocking by its parent, waiting for the writer", () => {
    const script = `(sleep 0.5; printf 'User-agent: *\\nDisallow: /a\\n') | python3 -c "import os, sys; os.set_blocking(0, False); os.execvp(sys.argv[1], sys.argv[1:])" "${process.execPath}" "${bin}" allowed - foo http://x/a`;
    const result = spawnSync("bash", ["-c", script], { cwd: work, encoding: "utf8", timeout: 30_000 });
    expect([result.status, result.stdout, result.stderr]).toEqual([1, "user-agent 'foo' with URI 'http://x/a': DISALLOWED\n", ""]);
  });

  it("refuses a directory on standard input as a named one, and prints file names escaped, on one line", () => {
    writeFileSync(join(work, "dir-rules.txt"), "User-agent: *\nDisallow: /x\n");
    const directory = spawnSync("bash", ["-c", `"${process.execPath}" "${bin}" check --robots dir-rules.txt --agent G < .`], { cwd: work, encoding: "utf8" });
    expect([directory.status, directory.stderr]).toEqual([2, 'robots: check: cannot read URLs from "-": EISDIR\n']);
    for (const args of [["lint", "no\nsuch"], ["lint", "\u001b[31mred"], ["check", "--robots", "dir-rules.txt", "--agent", "G", "no\nsuch"], ["meta", "no\nsuch", "--agent", "G"]]) {
      const result = robots(args);
      expect(result.code, JSON.stringify(args)).toBe(2);
      expect(result.stderr.trimEnd().split("\n"), JSON.stringify(args)).toHaveLength(1);
      expect(result.stderr).not.toContain("\u001b");
    }
  });

  it("a failure outside the command (Node's own HTTP client failing to start under a memory limit) exits 2, never 1 (`allowed`'s disallowed)", () => {
    writeFileSync(join(work, "limit-rules.txt"), "User-agent: *\nDisallow: /x\n");
    const script = `ulimit -v 4000000; exec "${process.execPath}" "${bin}" allowed -q limit-rules.txt G https://a.com/y`;
    const result = spawnSync("bash", ["-c", script], { cwd: work, encoding: "utf8" });
    // Where the limit leaves room enough, the URL is allowed (0); else one line and 2.
    expect([0, 2]).toContain(result.status);
    if (result.status === 2) expect(result.stderr.trimEnd().split("\n")).toHaveLength(1);
  });

  it("never lets --debug stand in for an option's missing value", () => {
    writeFileSync(join(work, "debug-urls.txt"), "/p\n");
    writeFileSync(join(work, "debug-rules.txt"), "User-agent: *\nDisallow: /p\n");
    // `--agent --debug debug-urls.txt` lacks the agent: taking the file's name as the agent would
    // read standard input instead of the file.
    const missing = spawnSync(process.execPath, [bin, "check", "--robots", "debug-rules.txt", "--agent", "--debug", "debug-urls.txt"], { cwd: work, input: "/stdin\n", encoding: "utf8" });
    expect([missing.status, missing.stdout]).toEqual([2, ""]);
    expect(missing.stderr).toMatch(/check: --agent needs a value, and the next argument starts with "-"/);
    // Anywhere else, before or after the command's name, it is the flag.
    for (const args of [["--debug", "check"], ["check", "--debug"]]) {
      const [first, second] = args;
      const result = spawnSync(process.execPath, [bin, first, second, "--robots", "debug-rules.txt", "--agent", "G", "-q", "debug-urls.txt"], { cwd: work, encoding: "utf8" });
      expect([result.status, result.stdout]).toEqual([0, "disallowed\t/p\t2\n"]);
    }
    expect(robots(["help", "lint", "--debug"]).stdout).toMatch(/^Usage: robots lint/);
    expect(robots(["--version", "--debug"]).stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    expect(robots(["meta", "--debug", "--agent", "G", "nope.html"]).stderr).toMatch(/CliError: meta: [^\n]*\n\s+at /);
  });
});
