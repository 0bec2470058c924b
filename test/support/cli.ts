/** Runs the built `robots` binary (dist/cli/main.js, from `npm run build`) as a real subprocess. */
import { spawn, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

export const root = fileURLToPath(new URL("../../", import.meta.url));
export const bin = `${root}dist/cli/main.js`;

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * A command still running after this long hangs (a worker pool left open, say): it is killed and
 * its status is null, so the test fails. A guard, not a measure of speed: spawnSync blocks the
 * test's thread, so vitest's own timeout could not end the wait.
 */
const HANG_MS = 120_000;

/** The CLI with pipes for stdin, stdout and stderr (so never a terminal), run from the repository root. */
export function robots(args: string[], input?: string | Buffer, env: NodeJS.ProcessEnv = process.env): CliResult {
  const result = spawnSync(process.execPath, [bin, ...args], { cwd: root, input, env, encoding: "utf8", maxBuffer: 64 << 20, timeout: HANG_MS });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/**
 * The CLI spawned asynchronously, for tests whose HTTP server lives in the test's own process
 * (spawnSync would block the thread that must answer the CLI's requests).
 */
export function robotsAsync(args: string[], input: string | Buffer = ""): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd: root });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (data: string) => (stdout += data));
    child.stderr.setEncoding("utf8").on("data", (data: string) => (stderr += data));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

/** Single-quotes an argument for /bin/sh. */
export function shellQuote(arg: string): string {
  return `'${arg.replace(/'/g, "'\\''")}'`;
}

/**
 * The CLI on a pseudo-terminal (util-linux `script`): what a person at a terminal sees, stdout and
 * stderr together, raw (escape sequences and carriage returns kept). `redirect` is appended to
 * the shell command, for example `> out.tsv` to keep stdout off the terminal.
 */
export function robotsOnTerminal(args: string[], env: NodeJS.ProcessEnv = process.env, redirect = ""): CliResult {
  const command = `${[process.execPath, bin, ...args].map(shellQuote).join(" ")} ${redirect}`;
  const result = spawnSync("script", ["-q", "-e", "-c", command, "/dev/null"], { cwd: root, env, encoding: "utf8", maxBuffer: 64 << 20, timeout: HANG_MS });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}
