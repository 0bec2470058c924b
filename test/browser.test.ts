/**
 * The built package (dist/) loads and answers in a real browser: Debian's headless Chromium fetches
 * a page from a server on 127.0.0.1 that imports dist/index.js as an ES module (with an import map
 * for @assemblyscript/loader, as an unbundled site would), runs `init()` from the embedded binary
 * (no fs, no fetch of a .wasm file) and writes its answers into the page, which `--dump-dom` prints.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { init, Robots } from "../src/index.js";
import { CHROMIUM } from "./support/chromium.js";

const root = fileURLToPath(new URL("../", import.meta.url));

/**
 * A string batch as the browser writes it (TextEncoder.encodeInto, where Node uses Buffer.write):
 * non-ASCII, a lone surrogate, an empty string and a URL holding a line feed (the offsets path).
 */
const STRING_BATCH = ["https://a.com/private/\u00fc", "https://a.com/private/ok/\ud800x", "", "https://a.com/private\nx", "https://a.com/ok\u4e2d"];

const PAGE = `<!doctype html><html><head>
<script type="importmap">{"imports":{"@assemblyscript/loader":"/node_modules/@assemblyscript/loader/index.js"}}</script>
<script type="module">
import { init, Robots } from "/dist/index.js";
try {
  await init();
  const robots = Robots.parse("User-agent: *\\nDisallow: /private\\nAllow: /private/ok\\n");
  const answers = [
    robots.isAllowed("https://a.com/private/x", "bot"),
    robots.explain("https://a.com/private/ok/1", "bot"),
    Array.from(robots.classify(["https://a.com/", "https://a.com/private"], "bot")),
  ];
  const batch = robots.classifyWithLines(${JSON.stringify(STRING_BATCH)}, "bot");
  answers.push(Array.from(batch.allowed), Array.from(batch.lines));
  robots.dispose();
  document.body.textContent = "RESULT " + JSON.stringify(answers);
} catch (error) {
  document.body.textContent = "ERROR " + error;
}
</script></head><body>pending</body></html>`;

let server: Server;
let origin = "";

beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url === "/") {
      response.writeHead(200, { "content-type": "text/html" });
      response.end(PAGE);
      return;
    }
    const path = join(root, decodeURIComponent(request.url ?? "/"));
    const servable = path.startsWith(join(root, "dist")) || path.startsWith(join(root, "node_modules", "@assemblyscript"));
    if (!servable || !existsSync(path)) {
      response.writeHead(404);
      response.end();
      return;
    }
    response.writeHead(200, { "content-type": "text/javascript" });
    response.end(readFileSync(path));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function dumpDom(url: string): Promise<string> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install chromium (.ci/run does)`);
  const profile = mkdtempSync(join(tmpdir(), "robots-browser-"));
  const flags = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--no-first-run", `--user-data-dir=${profile}`, "--virtual-time-budget=10000", "--dump-dom", url,
  ];
  return new Promise((resolve, reject) => {
    execFile(CHROMIUM, flags, { timeout: 60_000, maxBuffer: 1 << 20 }, (error, stdout) => {
      rmSync(profile, { recursive: true, force: true });
      if (error) reject(error);
      else resolve(stdout);
    });
  });
}

describe("the package in headless Chromium", () => {
  it("loads from dist/ without fs and answers like Node", async () => {
    await init();
    const robots = Robots.parse("User-agent: *\nDisallow: /private\nAllow: /private/ok\n");
    const expected = robots.classifyWithLines(STRING_BATCH, "bot");
    robots.dispose();
    expect(Array.from(expected.allowed)).toEqual([0, 1, 1, 0, 1]);
    const dom = await dumpDom(`${origin}/`);
    const body = /<body>(.*)<\/body>/s.exec(dom)?.[1] ?? dom;
    expect(body.startsWith("RESULT "), body).toBe(true);
    expect(JSON.parse(body.slice("RESULT ".length))).toEqual([
      false,
      { allowed: true, line: 3, rule: { kind: "allow", pattern: "/private/ok", group: "global" } },
      [1, 0],
      Array.from(expected.allowed),
      Array.from(expected.lines),
    ]);
  });
});

describe("the package bundled for a browser", () => {
  it("bundles with esbuild --platform=browser, the crawler layer included: no Node module in its static graph", async () => {
    // The node transport imports node:http and the rest by a name in a variable, which a bundler
    // leaves alone: a literal import("node:http") failed every browser bundle of RobotsCache.
    const { build } = await import("esbuild");
    const result = await build({
      stdin: { contents: 'import { RobotsCache, fetchRobots, init } from "./dist/index.js"; export { RobotsCache, fetchRobots, init };', resolveDir: root },
      bundle: true, platform: "browser", format: "esm", write: false, logLevel: "silent",
      external: ["@assemblyscript/loader"],
    });
    expect(result.errors).toEqual([]);
    expect(result.outputFiles[0]!.text).toContain("RobotsCache");
  });
});
