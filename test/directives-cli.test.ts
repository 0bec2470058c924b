/** `robots meta`: in process (runMeta) and as the real `robots` binary (built into dist/ by `npm run build`). */
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CliError } from "../src/cli/cli-error.js";
import { META_HELP, runMeta } from "../src/cli/meta.js";

const root = fileURLToPath(new URL("../", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "robots-meta-"));
const file = (name: string, content: string | Uint8Array) => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};

const PAGE = file("page.html", [
  "<!doctype html><html><head>",
  '<meta name="robots" content="max-snippet:50, noarchive, foo">',
  '<meta name="googlebot" content="nofollow, max-snippet:abc">',
  "</head><body><p>x</p>",
  '<noscript><meta name="robots" content="noimageindex"></noscript>',
  "</body></html>",
].join("\n"));

/** Runs runMeta, capturing what it prints. */
async function meta(args: string[]): Promise<{ code: number; stdout: string }> {
  let stdout = "";
  const spy = vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
    stdout += String(chunk);
    return true;
  });
  try {
    return { code: await runMeta(args), stdout };
  } finally {
    spy.mockRestore();
  }
}

afterEach(() => vi.restoreAllMocks());

describe("robots meta (runMeta)", () => {
  it("prints each answer with the directive and source that restricted it, then the diagnostics", async () => {
    const { code, stdout } = await meta([PAGE, "--agent", "Googlebot", "--header", "X-Robots-Tag: googlebot: unavailable_after: 25 Jun 2010 15:00:00 PST", "--now", "2026-01-01"]);
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split("\n");
    expect(lines[0]).toBe("agents: googlebot; policy: google");
    const row = (field: string) => lines.find((line) => line.startsWith(`${field} `))!.slice(18);
    expect(row("index")).toMatch(/^no +unavailable_after: 25 Jun 2010 15:00:00 PST \[X-Robots-Tag #1\]$/);
    expect(row("follow")).toMatch(/^no +nofollow \[meta "googlebot" at byte \d+ \(head\)\]$/);
    expect(row("max-snippet")).toMatch(/^50 +max-snippet:50 \[meta "robots" at byte 28 \(head\)\]$/);
    expect(row("image-index")).toMatch(/^no +noimageindex \[meta "robots" at byte \d+ \(body, noscript\)\]$/);
    expect(row("unavailable-after")).toMatch(/^2010-06-25T23:00:00.000Z \(expired\) +unavailable_after/);
    expect(row("archive")).toBe("yes");
    expect(lines).toContain('unknown           foo [meta "robots" at byte 28 (head)]');
    expect(lines.some((line) => /^invalid +max-snippet:abc \(invalid-value\)/.test(line))).toBe(true);
    expect(lines.some((line) => /^ignored +noarchive \(not-honoured-by-policy\)/.test(line))).toBe(true);
  });

  it("reads a date no Date can hold as an invalid directive, and refuses it as --now by the flag's name", async () => {
    const page = file("far.html", '<meta name="robots" content="unavailable_after: +300000-01-01">');
    const { code, stdout } = await meta([page, "--agent", "googlebot"]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^unavailable-after +none$/m);
    expect(stdout).toMatch(/^invalid +unavailable_after: \+300000-01-01 \(invalid-value\)/m);
    await expect(meta([page, "--agent", "g", "--now", "+300000-01-01"])).rejects.toThrow(/^meta: --now must be a date/);
  });

  it("says a tag's byte offset is in the page as UTF-8 when the page was decoded first (UTF-16)", async () => {
    const text = '\ufeff<meta name="robots" content="noindex">';
    const bytes = new Uint8Array(text.length * 2);
    for (let i = 0; i < text.length; i++) bytes[2 * i] = text.charCodeAt(i) & 0xff, bytes[2 * i + 1] = text.charCodeAt(i) >> 8;
    const { stdout } = await meta([file("utf16.html", bytes), "--agent", "x"]);
    expect(stdout).toMatch(/^index +no +noindex \[meta "robots" at byte 0 of the page as UTF-8 \(head\)\]$/m);
    expect((await meta([PAGE, "--agent", "x"])).stdout).not.toContain("as UTF-8");
  });

  it("reads --now without an offset as UTC, as the pages' dates are, whatever the machine's time zone", async () => {
    const header = "X-Robots-Tag: unavailable_after: 2025-12-03T13:09:53";
    const zone = process.env.TZ;
    try {
      for (const tz of ["UTC", "America/New_York", "Asia/Tokyo"]) {
        process.env.TZ = tz;
        const { stdout } = await meta([PAGE, "--agent", "x", "--header", header, "--now", "2025-12-03T13:00:00"]);
        expect(stdout.split("\n").find((line) => line.startsWith("index ")), tz).toMatch(/^index +yes/);
      }
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });

  it("prints every row: unlimited video, the AI directives, index-if-embedded, each obsolete one, the causes, the date as of --now", async () => {
    const page = file("rows.html", '<meta name="robots" content="max-video-preview:-1, notranslate, max-image-preview:standard, noodp, noydir, noindex, indexifembedded, noai, noimageai, unavailable_after: 2020-01-01">');
    const source = '[meta "robots" at byte 0 (head)]';
    const { stdout } = await meta([page, "--agent", "Googlebot", "--now", "2019-06-01T00:00:00Z"]);
    expect(stdout).toBe(
      [
        "agents: googlebot; policy: google",
        `index             no                        noindex ${source}`,
        "follow            yes",
        "snippet           yes",
        "max-snippet       unlimited",
        `max-image-preview standard                  max-image-preview:standard ${source}`,
        "max-video-preview unlimited",
        "image-index       yes",
        `translate         no                        notranslate ${source}`,
        "archive           yes",
        "index-if-embedded yes",
        `unavailable-after 2020-01-01T00:00:00.000Z  unavailable_after: 2020-01-01 ${source}`,
        "ai                noai, noimageai",
        `obsolete          noodp ${source}`,
        `obsolete          noydir ${source}`,
        "",
      ].join("\n"),
    );
  });

  it("reads the page's two-digit years near --now too (the time it was received)", async () => {
    const { stdout } = await meta([PAGE, "--agent", "x", "--now", "2150-01-01", "--header", "X-Robots-Tag: unavailable_after: Friday, 01-Jan-30 00:00:00 GMT"]);
    expect(stdout).toMatch(/\nunavailable-after 2130-01-01T00:00:00\.000Z \(expired\)/);
  });

  it("applies --policy and merges repeated --agent", async () => {
    const bing = await meta([PAGE, "--agent", "bingbot", "--policy", "bing"]);
    expect(bing.stdout).toMatch(/\narchive +no +noarchive/);
    const merged = await meta([PAGE, "--agent", "googlebot-news", "--agent", "googlebot"]);
    expect(merged.stdout).toMatch(/^agents: googlebot-news, googlebot;/);
    expect(merged.stdout).toMatch(/\nfollow +no /);
  });

  it("writes the controls a terminal acts on as \\u escapes in --json (C1 controls and bidi overrides; JSON.stringify leaves them)", async () => {
    const content = "noindex, x\u009b2Jy\u202ez\u007f";
    const page = file("controls.html", `<meta name="robots" content="${content}">`);
    const { stdout } = await meta([page, "--agent", "googlebot", "--json"]);
    expect(stdout).not.toMatch(/[\u007f-\u009f\u202a-\u202e]/);
    expect(stdout).toContain("x\\u009b2Jy\\u202ez\\u007f");
    expect(JSON.parse(stdout).metaTags[0].content).toBe(content);
  });

  it("prints JSON with --json: the resolution, the meta tags, the header values, the input", async () => {
    const { stdout } = await meta([PAGE, "--agent", "googlebot", "--json", "--header", "x-robots-tag: noindex"]);
    const json = JSON.parse(stdout);
    expect(json.resolution).toMatchObject({ index: false, follow: false, maxSnippet: 50, policy: "google", agents: ["googlebot"] });
    expect(json.metaTags).toHaveLength(3);
    expect(json.headerValues).toEqual(["noindex"]);
    expect(json.input).toMatchObject({ encoding: "utf-8", transcoded: false, truncated: false });
  });

  it("decodes a UTF-16 page and takes --encoding for pages without BOM", async () => {
    const text = '<meta name="robots" content="noindex">';
    const utf16 = new Uint8Array([0xff, 0xfe, ...[...text].flatMap((c) => [c.charCodeAt(0), 0])]);
    expect((await meta([file("utf16.html", utf16), "--agent", "x"])).stdout).toMatch(/\nindex +no /);
    const noBom = file("utf16-nobom.html", utf16.subarray(2));
    expect((await meta([noBom, "--agent", "x"])).stdout).toMatch(/\nindex +yes/);
    expect((await meta([noBom, "--agent", "x", "--encoding", "utf-16le"])).stdout).toMatch(/\nindex +no /);
  });

  it("prints its help", async () => {
    expect((await meta(["--help"])).stdout).toBe(META_HELP);
  });

  it.each([
    [["--agent", "x"], /one HTML file is required/],
    [[PAGE, PAGE, "--agent", "x"], /one HTML file is required \(or "-" for standard input\), got 2/],
    [[PAGE], /--agent NAME is required/],
    [[PAGE, "--agent", "x", "--policy", "duck"], /--policy must be one of google, bing, yandex, specific-overrides-generic/],
    [[PAGE, "--agent", "x", "--header", "Content-Type: text/html"], /--header must be "X-Robots-Tag: VALUE"/],
    [[PAGE, "--agent", "x", "--now", "someday"], /--now must be a date as unavailable_after takes them \(ISO 8601, RFC 822\), got "someday"/],
    [["nope.html", "--agent", "x"], /cannot read "nope.html": ENOENT/],
    [[PAGE, "--agent", "x", "--bogus"], /^meta: unknown option --bogus \(see robots meta --help/],
  ])("rejects %j with a CliError (exit code 2)", async (args, message) => {
    const error = await runMeta(args as string[]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CliError);
    expect((error as CliError).message).toMatch(message);
    expect((error as CliError).exitCode).toBe(2);
  });
});

describe("robots meta (the binary)", () => {
  const robots = (args: string[], input?: string) =>
    spawnSync(process.execPath, [`${root}dist/cli/main.js`, ...args], { cwd: root, input, encoding: "utf8" });

  it("is a command of `robots`, reading a file or standard input", () => {
    const fromFile = robots(["meta", PAGE, "--agent", "googlebot"]);
    expect(fromFile.status).toBe(0);
    expect(fromFile.stdout).toMatch(/^agents: googlebot; policy: google\nindex +yes\nfollow +no /);
    const fromStdin = robots(["meta", "-", "--agent", "x"], '<meta name="robots" content="none">');
    expect(fromStdin.stdout).toMatch(/\nindex +no +none \[meta "robots" at byte 0 \(head\)\]\nfollow +no +none/);
  });

  it("exits 2 with one line on stderr for bad arguments, and lists the command in --help", () => {
    const bad = robots(["meta", PAGE]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toBe("robots: meta: --agent NAME is required\n");
    // parseArgs' own message spans three lines and does not say the value is missing.
    const ambiguous = robots(["meta", PAGE, "--agent", "x", "--now", "-1"]);
    expect(ambiguous.status).toBe(2);
    expect(ambiguous.stderr).toBe('robots: meta: --now needs a value, and the next argument starts with "-" (write --now=VALUE if that is its value)\n');
    expect(robots(["meta", "--help"]).stdout).toBe(META_HELP);
    expect(robots(["--help"]).stdout).toMatch(/\n +meta +/);
  });
});
