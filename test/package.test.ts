/**
 * The package as `npm pack` makes it, installed into a project of its own: what it ships, its
 * exports map, its bin, and its types in a consumer's type check. The other suites import src/ or
 * dist/ from this checkout, which cannot see a file left out of `files`, an export pointing at
 * nothing, or a declaration that needs something only this repository has.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../", import.meta.url));
const work = mkdtempSync(join(tmpdir(), "robots-wasm-package-"));
const app = join(work, "app");
const installed = join(app, "node_modules", "robots-wasm");

interface PackedFile {
  path: string;
  mode: number;
}
let files: PackedFile[] = [];

function run(command: string, args: string[], cwd: string, input?: string): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(command, args, { cwd, encoding: "utf8", input, timeout: 60_000 });
}

beforeAll(() => {
  const packed = run("npm", ["pack", "--json", "--pack-destination", work], root);
  expect(packed.status, packed.stderr).toBe(0);
  const [{ filename, files: list }] = JSON.parse(packed.stdout) as [{ filename: string; files: PackedFile[] }];
  files = list;
  expect(run("tar", ["-xzf", join(work, filename), "-C", work], work).status).toBe(0);
  mkdirSync(join(app, "node_modules", "@assemblyscript"), { recursive: true });
  mkdirSync(join(app, "node_modules", "@types"), { recursive: true });
  renameSync(join(work, "package"), installed);
  // The package's one dependency, and Node's types for the type check, from this checkout.
  symlinkSync(join(root, "node_modules", "@assemblyscript", "loader"), join(app, "node_modules", "@assemblyscript", "loader"));
  symlinkSync(join(root, "node_modules", "@types", "node"), join(app, "node_modules", "@types", "node"));
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "app", private: true, type: "module" }));
  writeFileSync(join(app, "robots.txt"), "User-agent: *\nDisallow: /private/\n");
}, 120_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("the packed package", () => {
  it("ships dist/, the README and the behaviour page it links, the licence and package.json, and nothing else", () => {
    const paths = files.map((file) => file.path);
    expect(paths.filter((path) => !path.startsWith("dist/"))).toEqual(["LICENSE", "README.md", "docs/behaviour.md", "package.json"]);
    for (const entry of ["dist/index.js", "dist/index.d.ts", "dist/parallel.js", "dist/parallel-worker.js", "dist/reference/index.js", "dist/robots.wasm", "dist/cli/main.js"]) {
      expect(paths).toContain(entry);
    }
  });

  it("has an executable CLI, and source maps that carry their sources", () => {
    expect(files.find((file) => file.path === "dist/cli/main.js")!.mode & 0o111).not.toBe(0);
    const maps = files.filter((file) => file.path.endsWith(".js.map"));
    expect(maps.length).toBeGreaterThan(50);
    for (const { path } of maps) {
      const map = JSON.parse(readFileSync(join(installed, path), "utf8")) as { sources: string[]; sourcesContent?: string[] };
      expect(map.sourcesContent?.length, path).toBe(map.sources.length);
    }
  });

  it("declares the embedded engine as a string, not as its base64 text", () => {
    expect(readFileSync(join(installed, "dist/generated/release-wasm.d.ts"), "utf8")).toBe("export declare const releaseWasmBase64: string;\n");
  });

  // A script given to node -e, whose --input-type the pool's workers must not inherit.
  // Process-wide options (a larger heap, a title) are left to Node: a worker given them explicitly refuses them.
  it.each([[["--input-type=module"]], [["--input-type", "module"]], [["--max-old-space-size=512", "--title=robots-test", "--input-type=module"]]])("loads through its exports map: the engine, the worker pool, the reference, the .wasm file (node %j -e)", (inputType) => {
    const script = `
      import { createRequire } from "node:module";
      import { readFileSync } from "node:fs";
      import { init, Robots } from "robots-wasm";
      import { RobotsWorkerPool } from "robots-wasm/parallel";
      import { Robots as ReferenceRobots } from "robots-wasm/reference";
      await init();
      const body = readFileSync("robots.txt");
      const urls = ["https://a.com/private/x", "https://a.com/public"];
      const pool = await RobotsWorkerPool.create(body, { workers: 1 });
      const require = createRequire(import.meta.url);
      console.log(JSON.stringify({
        engine: [...Robots.parse(body).classify(urls, "bot")],
        pool: [...(await pool.classify(urls, "bot"))],
        reference: [...ReferenceRobots.parse(body).classify(urls, "bot")],
        wasm: WebAssembly.validate(readFileSync(require.resolve("robots-wasm/robots.wasm"))),
        version: require("robots-wasm/package.json").version,
      }));
      await pool.close();`;
    const child = run(process.execPath, [...inputType, "-e", script], app);
    expect(child.stderr).toBe("");
    const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string };
    expect(JSON.parse(child.stdout)).toEqual({ engine: [0, 1], pool: [0, 1], reference: [0, 1], wasm: true, version });
  });

  it("starts the pool's workers under process-wide Node options, from a script file", () => {
    writeFileSync(join(app, "pool-options.mjs"), `
      import { RobotsWorkerPool } from "robots-wasm/parallel";
      const pool = await RobotsWorkerPool.create("User-agent: *\\nDisallow: /p\\n", { workers: 2 });
      console.log(JSON.stringify([...(await pool.classify(["/p", "/q"], "bot"))]));
      await pool.close();`);
    const child = run(process.execPath, ["--max-old-space-size=512", "--stack-size=900", "--title=robots-test", "--enable-source-maps", "pool-options.mjs"], app);
    expect([child.stderr, child.stdout]).toEqual(["", "[0,1]\n"]);
  });

  it("loads from CommonJS: import() anywhere, require() where Node loads ES modules so (20.19 and later)", () => {
    const script = `
      const body = "User-agent: *\\nDisallow: /private/\\n";
      const required = process.features.require_module ? require("robots-wasm") : undefined;
      import("robots-wasm").then((imported) => {
        imported.initSync();
        const answers = [imported, required ?? imported].map((m) => m.Robots.parse(body).isAllowed("https://a.com/private/x", "bot"));
        console.log(JSON.stringify({ answers, same: required === undefined || required.Robots === imported.Robots }));
      });`;
    const child = run(process.execPath, ["--input-type=commonjs", "-e", script], app);
    expect([child.stderr, JSON.parse(child.stdout)]).toEqual(["", { answers: [false, false], same: true }]);
  });

  it("runs its bin as a user's shell would", () => {
    const { bin } = JSON.parse(readFileSync(join(installed, "package.json"), "utf8")) as { bin: { robots: string } };
    // Through its shebang, not through node.
    const check = run(join(installed, bin.robots), ["check", "--robots", "robots.txt", "--agent", "bot", "-q"], app, "https://a.com/private/x\n/public\n");
    expect([check.status, check.stdout, check.stderr]).toEqual([0, "disallowed\thttps://a.com/private/x\t2\nallowed\t/public\t0\n", ""]);
  });

  // A project's default libraries include the DOM's, where TypeScript declares `WebAssembly` and
  // `BufferSource`; Node projects often name their own without it. (The DOM's WebAssembly.Module
  // is an empty interface, which any value fits: only without it can a wrong source be refused.)
  it.each([
    ["the default libraries", {}, "await init(new WebAssembly.Module(new Uint8Array(0)));\ninitSync(new WebAssembly.Module(new Uint8Array(0)));"],
    ["ES2022 only, no DOM (a Node project)", { lib: ["ES2022"] }, [
      "// @ts-expect-error: a number is not a module's bytes (the parameter is typed, not any)\nvoid init(42);",
      "// @ts-expect-error: nor is a file name\nvoid init(\"robots.wasm\");",
      "// @ts-expect-error: a DataView is refused at run time, as WebAssembly refuses it\ninitSync(new DataView(new ArrayBuffer(0)));",
    ].join("\n")],
  ])("type-checks in a consumer project (NodeNext, strict, the package's declarations checked too): %s", (_name, libs, extra) => {
    writeFileSync(join(app, "consumer.ts"), `
      import { init, initSync, Robots, RobotsCache, IndexingDirectives, isRobotsError, type RobotsErrorCode, type LintReport } from "robots-wasm";
      import { RobotsWorkerPool } from "robots-wasm/parallel";
      import { Robots as ReferenceRobots } from "robots-wasm/reference";
      await init();
      const robots = Robots.parse("User-agent: *\\nDisallow: /", { profile: "rfc9309", keepSource: true });
      const allowed: boolean = robots.isAllowed("https://a.com/", ["a", "b"]);
      const verdicts: Uint8Array = ReferenceRobots.parse("").classify(["https://a.com/"], "a");
      const report: LintReport = robots.lint();
      const cache = new RobotsCache({ ttl: 60_000 });
      const page = IndexingDirectives.parse({ headers: "noindex" }).resolve("googlebot");
      const pool: Promise<RobotsWorkerPool> = RobotsWorkerPool.create("", { workers: 1 });
      const code: RobotsErrorCode | undefined = isRobotsError(allowed) ? allowed.code : undefined;
      await init(new Uint8Array(0));
      await init(new Int8Array(0));
      initSync(new Uint16Array(0).buffer);
      initSync(new Uint16Array(0));
      ${extra}
      export { verdicts, report, cache, page, pool, code };
    `);
    writeFileSync(join(app, "tsconfig.json"), JSON.stringify({
      compilerOptions: { module: "NodeNext", moduleResolution: "NodeNext", target: "ES2022", strict: true, noEmit: true, skipLibCheck: false, types: ["node"], ...libs },
      files: ["consumer.ts"],
    }));
    const tsc = run(process.execPath, [join(root, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.json"], app);
    expect(tsc.stdout + tsc.stderr).toBe("");
    expect(tsc.status).toBe(0);
  });
});
