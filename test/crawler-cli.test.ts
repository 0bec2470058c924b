/**
 * `robots fetch` and `robots check --fetch` as real subprocesses (dist/, built by `npm run
 * build`) against HTTP servers on 127.0.0.1. Spawned asynchronously: the servers live in this
 * process and must keep answering while the CLI runs.
 */
import { describe, expect, it } from "vitest";
import { robotsAsync as robots } from "./support/cli.js";
import { redirect, silent, startServer, status, text, useServers } from "./support/robots-server.js";

const RULES = "User-agent: *\nDisallow: /private/\nSitemap: https://example.com/sitemap.xml\n";


const net = useServers("site", "other");

describe("robots fetch", () => {
  it("prints the robots.txt URL, the outcome, the policy and the expiry", async () => {
    net.site.route("/robots.txt", text(RULES, { "cache-control": "max-age=7200" }));
    const { code, stdout, stderr } = await robots(["fetch", `${net.site.origin}/some/page?x=1`]);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const rows = stdout.trimEnd().split("\n");
    expect(rows.slice(0, 4)).toEqual([
      `robots.txt: ${net.site.origin}/robots.txt`,
      `outcome:    ok: HTTP 200, ${RULES.length} bytes`,
      "policy:     the file's rules (1 group)",
      "sitemaps:   https://example.com/sitemap.xml",
    ]);
    expect(rows[4]).toMatch(/^expires: {4}\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z \(in (2 h|1 h 59 min)\)$/);
  });

  it("gives an hour as `1 h`", async () => {
    net.site.route("/robots.txt", text(RULES, { "cache-control": "max-age=3600" }));
    const { stdout } = await robots(["fetch", net.site.origin]);
    expect(stdout).toMatch(/^expires: {4}\S+ \(in (1 h|59 min)\)$/m);
  });

  it("adds the verdict for the URL with --agent", async () => {
    net.site.route("/robots.txt", text(RULES));
    const { stdout } = await robots(["fetch", `${net.site.origin}/private/page`, "--agent", "ExampleBot"]);
    expect(stdout).toContain("verdict:    disallowed for ExampleBot (line 2: Disallow /private/)\n");
  });

  it("shows redirects, and an unreachable robots.txt as disallow all", async () => {
    net.site.route("/robots.txt", redirect(`${net.other.origin}/robots.txt`));
    net.other.route("/robots.txt", status(503));
    const { code, stdout } = await robots(["fetch", net.site.origin, "--agent", "ExampleBot"]);
    expect(code).toBe(0);
    expect(stdout).toContain(`redirects:  1, to ${net.other.origin}/robots.txt\n`);
    expect(stdout).toContain("outcome:    unreachable (server-error): HTTP 503\n");
    expect(stdout).toContain("policy:     disallow all (robots.txt unreachable: retry later)\n");
    expect(stdout).toContain("verdict:    disallowed for ExampleBot (unreachable)\n");
    expect(stdout).toMatch(/expires: {4}\S+ \(in 10 min\)/);
  });

  it("applies --connect-timeout, --on-network-failure and --on-429", async () => {
    net.site.route("/robots.txt", silent);
    expect((await robots(["fetch", net.site.origin, "--connect-timeout", "50"])).stdout).toContain(
      "outcome:    unreachable (timeout): no response within 50 ms\n",
    );
    const counted = (await robots(["fetch", net.site.origin, "--connect-timeout", "50", "--on-network-failure", "unavailable"])).stdout;
    expect(counted).toContain("outcome:    unavailable (timeout): no response within 50 ms\n");
    // A robots.txt may well exist: the policy says why everything is allowed.
    expect(counted).toContain("policy:     allow all (fetch failed, counted as unavailable)\n");
    net.site.route("/robots.txt", status(429));
    expect((await robots(["fetch", net.site.origin, "--on-429", "unavailable"])).stdout).toContain("policy:     allow all (429 counted as unavailable)\n");
    net.site.route("/robots.txt", status(404));
    expect((await robots(["fetch", net.site.origin])).stdout).toContain("policy:     allow all (no robots.txt)\n");
  });

  it("prints JSON with --json", async () => {
    net.site.route("/robots.txt", status(404));
    const { stdout } = await robots(["fetch", "--json", `${net.site.origin}/x`, "--agent", "ExampleBot", "--user-agent", "ExampleBot/2.0"]);
    const state = JSON.parse(stdout);
    expect(state).toMatchObject({
      origin: net.site.origin, policy: "allow-all", fetch: { status: 404, outcome: "unavailable", reason: "client-error" },
      verdict: { allowed: true, reason: "unavailable" },
    });
    expect(net.site.headers.at(-1)?.["user-agent"]).toBe("ExampleBot/2.0");
  });

  it.each([
    [["fetch"], /^robots: fetch: URL is required/],
    [["fetch", "mailto:someone@example.com"], /^robots: fetch: "mailto:" URLs have no robots.txt/],
    [["fetch", "example.com"], /^robots: fetch: not an absolute URL: "example.com"/],
    [["fetch", "ftp://files.example/pub"], /^robots: fetch: cannot fetch ftp URLs: only http and https \("ftp:\/\/files.example\/pub"\)\n$/],
    // Absolute URLs that the URL parser refuses for their host or port.
    [["fetch", "http://a b.com/"], /^robots: fetch: not a valid URL \(its host or port cannot be parsed\): "http:\/\/a b.com\/"\n$/],
    [["fetch", "http://a.com:99999/"], /^robots: fetch: not a valid URL \(its host or port cannot be parsed\)/],
    [["fetch", "http://127.0.0.1:9/", "--on-429", "maybe"], /^robots: fetch: --on-429 must be "unreachable" or "unavailable"/],
    [["fetch", "http://127.0.0.1:9/", "--on-network-failure", "maybe"], /^robots: fetch: --on-network-failure must be "unreachable" or "unavailable"/],
    [["fetch", "http://127.0.0.1:9/", "--timeout", "soon"], /^robots: fetch: --timeout must be a positive whole number of milliseconds, got "soon"/],
    [["fetch", "http://127.0.0.1:9/", "--max-bytes", "1000"], /^robots: fetch: --max-bytes must be an integer of at least 512000/],
    // Past the largest timer Node sets: the cache refuses it, and the message names the flag.
    [["fetch", "http://127.0.0.1:9/", "--timeout", "99999999999"], /^robots: fetch: --timeout must be a positive number of milliseconds, at most 2147483647/],
    [["fetch", "http://127.0.0.1:9/", "--connect-timeout", "3000000000"], /^robots: fetch: --connect-timeout must be a positive number of milliseconds, at most 2147483647/],
  ])("fails with one line and exit code 2: %j", async (args, message) => {
    const { code, stdout, stderr } = await robots(args);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toMatch(message);
    expect(stderr.trimEnd().split("\n")).toHaveLength(1);
  });

  it("applies --profile, lists every sitemap, counts groups and gives hours with their minutes", async () => {
    net.site.route("/robots.txt", text("User-agent: *\nDisallow: /\n", { "cache-control": "max-age=5400" }));
    const url = `${net.site.origin}/robots.txt`;
    expect((await robots(["fetch", url, "--agent", "x"])).stdout).toContain("verdict:    disallowed for x (line 2: Disallow /)\n");
    // RFC 9309 2.2.2: the robots.txt URL itself is always allowed.
    const rfc = (await robots(["fetch", url, "--agent", "x", "--profile", "rfc9309"])).stdout;
    expect(rfc).toContain("verdict:    allowed for x (no-rule)\n");
    expect(rfc).toMatch(/^expires: {4}\S+ \(in 1 h (30|29) min\)$/m);
    net.site.route("/robots.txt", text("Sitemap: https://a.example/1.xml\nSitemap: https://a.example/2.xml\n"));
    const sitemaps = (await robots(["fetch", net.site.origin])).stdout;
    expect(sitemaps).toContain("policy:     the file's rules (0 groups)\n");
    expect(sitemaps).toContain("sitemaps:   https://a.example/1.xml https://a.example/2.xml\n");
  });

  it("merges the groups of every --agent for the verdict", async () => {
    net.site.route("/robots.txt", text("User-agent: a\nDisallow: /x/y\n\nUser-agent: b\nAllow: /x\n"));
    const { stdout } = await robots(["fetch", `${net.site.origin}/x/y`, "--agent", "b", "--agent", "a"]);
    expect(stdout).toContain("verdict:    disallowed for b, a (line 2: Disallow /x/y)\n");
  });

  it("names --profile in its error", async () => {
    const { code, stderr } = await robots(["fetch", "http://127.0.0.1:9/", "--profile", "bogus"]);
    expect([code, stderr]).toEqual([2, 'robots: fetch: --profile must be "google" or "rfc9309", got "bogus"\n']);
  });

  it("has help, listed by robots --help", async () => {
    expect((await robots(["fetch", "--help"])).stdout).toContain("Usage: robots fetch [options] URL");
    expect((await robots(["--help"])).stdout).toMatch(/\n {2}fetch +Fetch a site's robots.txt/);
  });
});

describe("robots check --fetch", () => {
  it("classifies URLs of several sites, each by its own robots.txt fetched once, in input order", async () => {
    net.site.reset();
    net.other.reset();
    net.site.route("/robots.txt", text(RULES));
    net.other.route("/robots.txt", status(500));
    const input = [
      `${net.site.origin}/private/a`,
      `${net.other.origin}/public`,
      "not a url",
      `${net.site.origin}/public`,
      `${net.site.origin}/private/b\r`,
      // A URL, but not one the platform fetch can fetch: disallowed like a line that is not a URL.
      "ftp://example.com/x",
    ].join("\n");
    const { code, stdout, stderr } = await robots(["check", "--fetch", "--agent", "ExampleBot"], `${input}\n`);
    expect(code).toBe(0);
    expect(stdout).toBe(
      [
        `disallowed\t${net.site.origin}/private/a\t2`,
        `disallowed\t${net.other.origin}/public\t0`,
        "disallowed\tnot a url\t0",
        `allowed\t${net.site.origin}/public\t0`,
        `disallowed\t${net.site.origin}/private/b\t2`,
        "disallowed\tftp://example.com/x\t0",
        "",
      ].join("\n"),
    );
    expect(net.site.requests).toEqual(["/robots.txt"]);
    expect(net.other.requests).toEqual(["/robots.txt"]);
    expect(stderr).toContain("robots check --fetch: 2 not-a-url, 2 rule, 1 unreachable, 1 no-rule\n");
  });

  it("requests a line that is not UTF-8 with its bytes from 0x80 up as %XX, in both profiles, as --robots matches them in rfc9309", async () => {
    net.site.route("/robots.txt", text("User-agent: *\nDisallow: /caf%E9\nDisallow: /caf%C3%A9x\n"));
    const input = Buffer.concat([Buffer.from(`${net.site.origin}/caf`), Buffer.from([0xe9]), Buffer.from(`\n${net.site.origin}/caf\u00e9x\n`)]);
    for (const profile of ["google", "rfc9309"]) {
      const { stdout } = await robots(["check", "--fetch", "--agent", "x", "--profile", profile, "-q"], input);
      expect(stdout.trimEnd().split("\n").map((line) => line.split("\t")[2]), profile).toEqual(["2", "3"]);
    }
  });

  it("decides a line longer than MAX_URL_BYTES once encoded as not a URL, and the others as usual", async () => {
    net.site.route("/robots.txt", text(RULES));
    // 6 MB of UTF-8, 18 MB once percent-encoded.
    const input = `${net.site.origin}/private/a\n${net.site.origin}/${"\u00e9".repeat(3_000_000)}\n${net.site.origin}/public\n`;
    const { code, stdout, stderr } = await robots(["check", "--fetch", "--agent", "x", "--format", "jsonl"], input);
    expect(code).toBe(0);
    expect(stdout.trimEnd().split("\n").map((line) => (JSON.parse(line) as { allowed: boolean }).allowed)).toEqual([false, false, true]);
    expect(stderr).toMatch(/^robots check --fetch: (?=.*\b1 rule\b)(?=.*\b1 not-a-url\b)(?=.*\b1 no-rule\b)[^\n]*$/m);
  });

  it("fetches at most 8 origins at once after a line too long once encoded (the batch was retried line by line, all at once)", async () => {
    let inFlight = 0;
    let most = 0;
    const servers = await Promise.all(Array.from({ length: 12 }, () => startServer()));
    try {
      for (const server of servers) {
        server.route("/robots.txt", (_request, response) => {
          most = Math.max(most, ++inFlight);
          setTimeout(() => {
            inFlight--;
            text(RULES)(_request, response);
          }, 200);
        });
      }
      const long = `${net.site.origin}/${" ".repeat(6 << 20)}x\n`; // 6 MB, over 16 MiB once %20-encoded
      const input = long + servers.map((server) => `${server.origin}/private/a\n`).join("");
      const { code, stdout } = await robots(["check", "--fetch", "--agent", "x", "-q"], input);
      expect(code).toBe(0);
      expect(stdout.trimEnd().split("\n").map((line) => line.split("\t")[0])).toEqual(Array.from({ length: 13 }, () => "disallowed"));
      expect(most).toBeGreaterThan(1);
      expect(most).toBeLessThanOrEqual(8);
    } finally {
      await Promise.all(servers.map((server) => server.close()));
    }
  });

  it("reads a last line without LF, drops a CR before LF, and applies --profile", async () => {
    net.site.route("/robots.txt", text("User-agent: *\nDisallow: /*.pdf$\nDisallow: /robots.txt\n"));
    const input = `${net.site.origin}/a.pdf\r\n${net.site.origin}/robots.txt`;
    const google = await robots(["check", "--fetch", "--agent", "x", "-q"], input);
    expect(google.stdout).toBe(`disallowed\t${net.site.origin}/a.pdf\t2\ndisallowed\t${net.site.origin}/robots.txt\t3\n`);
    const rfc = await robots(["check", "--fetch", "--agent", "x", "--profile", "rfc9309", "-q"], input);
    expect(rfc.stdout).toBe(`disallowed\t${net.site.origin}/a.pdf\t2\nallowed\t${net.site.origin}/robots.txt\t0\n`);
  });

  it("writes the reasons' summary unless -q, and none for no URLs", async () => {
    net.site.route("/robots.txt", text(RULES));
    const quiet = await robots(["check", "--fetch", "--agent", "x", "-q"], `${net.site.origin}/private/z\n`);
    expect([quiet.code, quiet.stderr]).toEqual([0, ""]);
    const empty = await robots(["check", "--fetch", "--agent", "x"], "");
    expect(empty.stdout).toBe("");
    expect(empty.stderr).toMatch(/^robots check: 0 URLs, 0 allowed, 0 disallowed in [\d.]+ s \(0 URLs\/s\)\n$/);
  });

  it.each([
    [["--fetch", "--workers", "2"], "robots: check: --workers does not apply to --fetch\n"],
    [["--robots", "examples/robots.txt", "--timeout", "5"], "robots: check: --timeout needs --fetch\n"],
    [["--robots", "examples/robots.txt", "--user-agent", "x"], "robots: check: --user-agent needs --fetch\n"],
    [["--fetch", "--rule"], "robots: check: --rule needs --robots (with --fetch every site has its own file)\n"],
  ])("refuses options that do not go together: %j", async (args, message) => {
    expect(await robots(["check", "--agent", "x", ...args], "")).toEqual({ code: 2, stdout: "", stderr: message });
  });

  it("takes --workers 1 with --fetch (one thread is what it runs on)", async () => {
    net.site.route("/robots.txt", text(RULES));
    const { code, stdout } = await robots(["check", "--fetch", "--agent", "x", "--workers", "1", "-q"], `${net.site.origin}/private/z\n`);
    expect([code, stdout]).toEqual([0, `disallowed\t${net.site.origin}/private/z\t2\n`]);
  });

  it("works with the other output formats and refuses --robots together with --fetch", async () => {
    net.site.route("/robots.txt", text(RULES));
    const { stdout } = await robots(["check", "--fetch", "--agent", "x", "--format", "jsonl", "-q"], `${net.site.origin}/private/z\n`);
    expect(JSON.parse(stdout)).toEqual({ url: `${net.site.origin}/private/z`, allowed: false, line: 2 });
    const both = await robots(["check", "--fetch", "--robots", "examples/robots.txt", "--agent", "x"], "");
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/^robots: check: --fetch and --robots cannot be used together/);
  });
});
