/**
 * Details of the `robots` commands that the other CLI tests leave open (found by mutating
 * src/cli/*.ts): the layout of `robots --help`, singular and plural wording, exit codes and
 * limits at their boundaries, the fetch outcomes' texts; and, imported directly, the progress
 * line's edges and when a pipe's lines are decided. The CLI runs as a real subprocess (build
 * first: `npm run build`).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import { lineBatches } from "../src/cli/line-batches.js";
import { bin, robots, robotsAsync, robotsOnTerminal, root } from "./support/cli.js";
import { redirect, text, useServers } from "./support/robots-server.js";

const work = mkdtempSync(join(tmpdir(), "robots-cli-details-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const ESC = "\x1b[";


describe("robots --help", () => {
  it("lines the commands' summaries up two spaces past the longest name", () => {
    // The other tests only ask for some space after each name.
    expect(robots(["--help"]).stdout).toContain(
      [
        "Commands:",
        "  check    Classify URLs (one per line) against a robots.txt",
        "  explain  Explain the verdict for one URL: deciding rule, groups, rules that lost",
        "  lint     Check a robots.txt for mistakes, with line numbers and fixes",
        "  allowed  Exit 0 if an agent may fetch a URL, 1 if not (like Google's robots binary)",
        "  fetch    Fetch a site's robots.txt as a crawler would: outcome, policy, expiry",
        "  meta     What a page's robots meta tags and X-Robots-Tag headers allow an agent",
        "",
      ].join("\n"),
    );
  });
});

describe("errors", () => {
  it("says only http and https are fetched for an ftp URL in capitals or after spaces too, as the URL parser reads them", () => {
    // Else the library's advice (pass a `fetch` that can) would reach the command line.
    for (const url of ["FTP://files.example/pub", " ftp://files.example/pub"]) {
      expect(robots(["fetch", url])).toEqual({ code: 2, stdout: "", stderr: `robots: fetch: cannot fetch ftp URLs: only http and https (${JSON.stringify(url)})\n` });
    }
  });

  it("escapes control characters an error echoes from the arguments, as it does file names", () => {
    expect(robots(["\u001b[2Jx"])).toEqual({ code: 2, stdout: "", stderr: expect.stringMatching(/^robots: [^\u001b]*\\x1b\[2Jx[^\u001b]*\n$/) });
    expect(robots(["check", "--robots", "examples/robots.txt", "--agent", "x", "--format", "\u001b[31mX"]).stderr).toBe('robots: check: --format must be tsv or jsonl, got "\\x1b[31mX"\n');
  });

  it("prints only the first line of an error whose message holds a line feed (here one typed into --header)", () => {
    // An error is one line on stderr; the argument is echoed as typed, so the rest is cut.
    const page = join(work, "page.html");
    writeFileSync(page, "<p>x</p>");
    expect(robots(["meta", page, "--agent", "x", "--header", "Content-Type: a\nb"])).toEqual({
      code: 2,
      stdout: "",
      stderr: 'robots: meta: --header must be "X-Robots-Tag: VALUE", got "Content-Type: a\n',
    });
  });
});

describe("robots explain, the context", () => {
  it("numbers the context lines in the width of the last one shown, wider than the deciding line's", () => {
    const file = join(work, "context-width.txt");
    writeFileSync(file, "User-agent: *\n#2\n#3\n#4\n#5\n#6\n#7\n#8\nDisallow: /n\n#10\n#11\n");
    expect(robots(["explain", file, "/n", "--agent", "x"]).stdout).toContain("     7 | #7\n     8 | #8\n  >  9 | Disallow: /n\n    10 | #10\n    11 | #11\n");
  });
});

describe("robots explain, several * groups", () => {
  const file = join(work, "two-star-groups.txt");
  writeFileSync(file, "User-agent: *\nDisallow: /a\n\nUser-agent: q\nDisallow: /b\n\nUser-agent: *\nDisallow: /c\n");

  it("says the * groups apply (plural) when several merge as the fallback", () => {
    expect(robots(["explain", file, "/a", "--agent", "z"]).stdout).toContain(
      "  no group names z, so the groups at lines 1 and 7 for * apply (the global fallback), merged: 2 rules\n",
    );
  });

  it("says the * groups do not apply (plural) when a group names the agent", () => {
    expect(robots(["explain", file, "/b", "--agent", "q"]).stdout).toContain("  the groups at lines 1 and 7 for * do not apply, because a group names the agent\n");
  });
});

describe("robots lint, the agents", () => {
  it("marks an agent whose groups merge", () => {
    const file = join(work, "merged-agent.txt");
    writeFileSync(file, "User-agent: a\nDisallow: /x\n\nUser-agent: a\nDisallow: /y\n");
    expect(robots(["lint", file]).stdout).toContain("\n  a: the groups at lines 1 and 4 (merged), 2 rules\n");
  });
});

describe("counts of a thousand or more, grouped as every count the CLI shows", () => {
  const rules = join(work, "rules-1200.txt");
  writeFileSync(rules, `User-agent: *\n${Array.from({ length: 1200 }, (_, i) => `Disallow: /x${i}\n`).join("")}`);
  const noColons = join(work, "no-colons-1200.txt");
  writeFileSync(noColons, `User-agent: *\n${Array.from({ length: 1200 }, (_, i) => `Disallow /x${i}\n`).join("")}`);
  const delays = join(work, "delays-1200.txt");
  writeFileSync(delays, `User-agent: *\n${"Crawl-delay: 1\n".repeat(1200)}Disallow: /x\n`);

  it("in lint's agents and summary (warnings and info too)", () => {
    expect(robots(["lint", rules]).stdout).toContain("\n  * (every other agent): the group at line 1, 1,200 rules\n");
    expect(robots(["lint", noColons]).stdout).toMatch(/\n0 errors, 1,200 warnings, \d+ info\n$/);
    expect(robots(["lint", delays]).stdout).toMatch(/\n0 errors, \d+ warnings?, 1,200 info\n$/);
  });

  it("in explain's rule count", () => {
    expect(robots(["explain", rules, "/y", "--agent", "a"]).stdout).toContain("(the global fallback): 1,200 rules\n");
  });

  it("with a comma whatever the locale (the summary is read by scripts)", () => {
    const german = { ...process.env, LC_ALL: "de_DE.UTF-8", LANG: "de_DE.UTF-8" };
    const urls = Array.from({ length: 1500 }, (_, i) => `/p/${i}`).join("\n");
    expect(robots(["check", "--robots", rules, "--agent", "a", "--count"], urls, german).stderr).toMatch(/^robots check: 1,500 URLs, 1,500 allowed, 0 disallowed in /);
  });
});

describe("robots lint --strict", () => {
  it("exits 2, not 1, when there are errors and warnings both", () => {
    // --strict makes warnings exit 1 only when there is no error.
    const file = join(work, "error-and-warning.txt");
    writeFileSync(file, "Disallow: /a\nUser-agent: *\nDisalow: /b\n");
    const { code, stdout } = robots(["lint", "--strict", file]);
    expect(code).toBe(2);
    expect(stdout).toContain("\n1 error, 1 warning, 0 info\n");
  });
});

describe("robots check, the summary", () => {
  it("gives the time in milliseconds and the rate with thousands separators", () => {
    // 20,000 URLs are classified far faster than 1,000 a second.
    const { stderr } = robots(["check", "--robots", "examples/robots.txt", "--agent", "Googlebot", "--count", "examples/urls.txt"]);
    expect(stderr).toMatch(/^robots check: 20,000 URLs, \d{1,2},\d{3} allowed, \d{1,2},\d{3} disallowed in \d+\.\d{3} s \(\d{1,3}(,\d{3})+ URLs\/s\)\n$/);
  });
});

describe("robots fetch and check --fetch", () => {
  const net = useServers("site");

  it("says why a redirect that cannot be followed allows everything", async () => {
    net.site.route("/robots.txt", redirect("ftp://files.example/robots.txt"));
    const { code, stdout } = await robotsAsync(["fetch", net.site.origin]);
    expect(code).toBe(0);
    // No sitemaps row when the file lists none, and no redirects row when the redirect was not followed.
    expect(stdout).toMatch(
      new RegExp(`^robots\\.txt: ${net.site.origin}/robots\\.txt\\noutcome: {4}unavailable \\(redirect-invalid\\): redirect to a ftp: URL refused\\npolicy: {5}allow all \\(a redirect that cannot be followed\\)\\nexpires: {4}\\S+ \\(in (24 h|23 h 59 min)\\)\\n$`),
    );
  });

  it("requests the byte 0x80 of a line that is not UTF-8 as %80, as every byte from 0x80 up", async () => {
    // README: "A line that is not UTF-8 is requested with its bytes from 0x80 up as `%XX`".
    net.site.route("/robots.txt", text("User-agent: *\nDisallow: /a%80\n"));
    const input = Buffer.concat([Buffer.from(`${net.site.origin}/a`), Buffer.from([0x80]), Buffer.from("\n")]);
    const { code, stdout } = await robotsAsync(["check", "--fetch", "--agent", "x", "-q", "--format", "jsonl"], input);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ allowed: false, line: 2 });
  });
});

describe("robots meta", () => {
  it("names each AI directive once in the ai row, however many tags and headers give it", () => {
    const page = join(work, "ai.html");
    writeFileSync(page, '<meta name="robots" content="noai, noimageai"><meta name="googlebot" content="noai">');
    const { code, stdout } = robots(["meta", page, "--agent", "googlebot", "--header", "X-Robots-Tag: noai"]);
    expect(code).toBe(0);
    expect(stdout).toContain("\nai                noai, noimageai\n");
  });
});

describe("on a terminal", () => {
  it("colours an info finding cyan, apart from warnings (yellow) and errors (red)", () => {
    const file = join(work, "info.txt");
    writeFileSync(file, "User-agent: *\nCrawl-delay: 10\nDisallow: /x\n");
    const { stdout } = robotsOnTerminal(["lint", file], { ...process.env, NO_COLOR: "", TERM: "xterm" });
    expect(stdout).toContain(`${ESC}36minfo${ESC}39m: Google ignores Crawl-delay`);
  });
});

describe("reading the robots.txt", () => {
  it("reads a file of exactly 16 MiB past --max-bytes whole, and says so from one byte more", () => {
    // "At most 16 MiB more is read": a file that ends right there was read whole, without a note.
    const exact = join(work, "exact.txt");
    writeFileSync(exact, Buffer.alloc(16 << 20, "#"));
    expect(robots(["allowed", "--max-bytes", "0", exact, "a", "/"])).toEqual({ code: 0, stdout: "user-agent 'a' with URI '/': ALLOWED\n", stderr: "" });
    const over = join(work, "over.txt");
    writeFileSync(over, Buffer.alloc((16 << 20) + 1, "#"));
    expect(robots(["allowed", "-q", "--max-bytes", "0", over, "a", "/"])).toEqual({
      code: 0,
      stdout: "",
      stderr: `robots allowed: read the first ${16 << 20} bytes of "${over}" (16 MiB past --max-bytes); the rest is not read\n`,
    });
  });
});


describe("batches of a pipe's reads", () => {
  it("decides the lines sent so far once the input pauses (50 ms), without waiting for a batch's worth", async () => {
    // A co-process writes a URL and waits for its verdict; here the pause is a second long.
    async function* reads() {
      yield Buffer.from("a\n");
      await new Promise((resolve) => setTimeout(resolve, 1000));
      yield Buffer.from("b\n");
    }
    const batches: string[] = [];
    for await (const { batch } of lineBatches(Readable.from(reads()), "urls.txt", 256 << 10)) batches.push(batch.toString());
    expect(batches).toEqual(["a\n", "b\n"]);
  });

  it("waits for more after a full pipe read (64 KiB) even when the input then pauses: more is on its way", async () => {
    // Only a read shorter than a full pipe's is worth deciding at a pause (README: 50 ms).
    const full = Buffer.alloc(64 << 10, "a");
    full[full.length - 1] = 0x0a;
    async function* reads() {
      yield full;
      await new Promise((resolve) => setTimeout(resolve, 200));
      yield Buffer.from("b\n");
    }
    const sizes: number[] = [];
    for await (const { batch } of lineBatches(Readable.from(reads()), "urls.txt", 256 << 10)) sizes.push(batch.length);
    expect(sizes).toEqual([(64 << 10) + 2]);
  });
});
