/** What the commands share: argument parsing (node:util `parseArgs`), parse options, reading the robots.txt. */
import { closeSync, openSync, readSync } from "node:fs";
import type { ParseArgsConfig } from "node:util";
import { CliError } from "./cli-error.js";
import { DEFAULT_MAX_BYTES, init, MAX_BODY_BYTES, Robots } from "../index.js";
import { printable } from "./format.js";
import type { ParseOptions } from "../types.js";

type OptionsConfig = NonNullable<ParseArgsConfig["options"]>;

/** `--profile` and `--max-bytes`: how every command reads the robots.txt. */
export const PARSE_OPTIONS = {
  profile: { type: "string", default: "google" },
  "max-bytes": { type: "string", default: "512000" },
} as const satisfies OptionsConfig;

export const PARSE_OPTIONS_HELP = `  --profile NAME      google (default: Google's reference parser) or rfc9309 (the RFC's text)
  --max-bytes N       Bytes of robots.txt to parse (default 512000; "Infinity" for no limit
                      up to 256 MiB); at most 16 MiB more is read`;

/**
 * `-h, --help` and `--debug`, accepted by every command. main.ts reads `--debug` itself; the command
 * parses it too, so that it takes no option's place (`--agent --debug urls.txt` is a missing value).
 */
export const COMMON_OPTIONS = {
  help: { type: "boolean", short: "h", default: false },
  debug: { type: "boolean", default: false },
} as const satisfies OptionsConfig;

/** A `parseArgs` config for a command: its options plus COMMON_OPTIONS, positionals allowed, unknown options refused. */
export function commandConfig<const T extends OptionsConfig>(args: string[], options: T) {
  return { args, allowPositionals: true as const, strict: true as const, options: { ...options, ...COMMON_OPTIONS } };
}

/**
 * Runs a command's node:util `parseArgs` call (with `...COMMON_OPTIONS` among its options); its
 * errors (unknown option, missing value) become one-line CLI errors. The call stays in the
 * command so that TypeScript infers the parsed values from its options.
 */
export function parseCommand<T>(command: string, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    throw new CliError(`${command}: ${argumentProblem(command, error as Error & { code?: string })}`);
  }
}

/**
 * A parseArgs error in the CLI's words: its own are written for programs that call it (an unknown
 * option's runs to three sentences about positional arguments; a missing value after which an
 * option follows is "ambiguous"). A message of another shape (another Node version) is kept, on
 * one line.
 */
function argumentProblem(command: string, error: Error & { code?: string }): string {
  const message = error.message;
  // An option with a short form is written "'-q, --quiet'": the long name is meant.
  const names = /^(?:Unknown option|Option) '(-[^' ,]*)(?:, (--[^' ]+))?/.exec(message);
  const option = names?.[2] ?? names?.[1];
  if (option !== undefined) {
    if (error.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
      return `unknown option ${option} (see robots ${command} --help; an argument that starts with "-" and is no option goes after --)`;
    }
    if (/argument missing/.test(message)) return `${option} needs a value`;
    if (/ambiguous/.test(message)) return `${option} needs a value, and the next argument starts with "-" (write ${option}=VALUE if that is its value)`;
    if (/does not take an argument/.test(message)) return `${option} takes no value`;
  }
  return message.replace(/\s*\n\s*/g, " ");
}

/**
 * A whole number typed on the command line, or NaN: decimal digits only, because Number() reads
 * "" as 0 (`--max-bytes=` would read no robots.txt at all), "1e9" as a billion and "0x10" as 16.
 */
export function wholeNumber(text: string): number {
  return /^[0-9]+$/.test(text) ? Number(text) : Number.NaN;
}

/** `--profile` and `--max-bytes` as `Robots.parse` options. */
export function parseOptions(command: string, values: { profile?: string; "max-bytes"?: string }): ParseOptions {
  const profile = values.profile ?? "google";
  if (profile !== "google" && profile !== "rfc9309") {
    throw new CliError(`${command}: --profile must be google or rfc9309, got "${profile}"`);
  }
  const text = values["max-bytes"] ?? "512000";
  const maxBytes = text === "Infinity" ? Infinity : wholeNumber(text);
  if (!(maxBytes === Infinity || (Number.isSafeInteger(maxBytes) && maxBytes >= 0))) {
    throw new CliError(`${command}: --max-bytes must be a non-negative integer or Infinity, got "${text}"`);
  }
  return { profile, maxBytes };
}

/** Exactly `names.length` positional arguments, named in the error message. */
export function positionalArgs(command: string, positionals: string[], names: readonly string[]): string[] {
  if (positionals.length < names.length) {
    throw new CliError(`${command}: ${names[positionals.length]} is required (usage: robots ${command} ${names.join(" ")})`);
  }
  if (positionals.length > names.length) {
    throw new CliError(`${command}: unexpected argument "${positionals[names.length]}" (usage: robots ${command} ${names.join(" ")})`);
  }
  return positionals;
}

/**
 * Bytes read past `--max-bytes`: enough for every report on the file (its size, where the limit
 * cut), while an endless input (`/dev/zero`, `yes |`) or a huge file is not read whole.
 */
export const READ_PAST_LIMIT = 16 << 20;

/**
 * At most `limit` bytes of a file, or of standard input for `-`, read in chunks; `complete` is
 * false when more was there (one byte past the limit is read to know).
 */
export function readAtMost(file: string, limit: number): { bytes: Buffer; complete: boolean } {
  const fd = file === "-" ? 0 : openSync(file, "r");
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(READ_CHUNK, limit + 1 - total));
      const read = readWaiting(fd, chunk);
      if (read === 0) return { bytes: Buffer.concat(chunks, total), complete: true };
      chunks.push(chunk.subarray(0, read));
      total += read;
      if (total > limit) return { bytes: Buffer.concat(chunks, limit), complete: false };
    }
  } finally {
    if (fd !== 0) closeSync(fd);
  }
}

const READ_CHUNK = 1 << 20;

/**
 * readSync that waits for data on a non-blocking descriptor (a standard input some parent set
 * non-blocking answers EAGAIN while its writer has not written yet).
 */
function readWaiting(fd: number, chunk: Buffer): number {
  for (;;) {
    try {
      return readSync(fd, chunk, 0, chunk.length, null);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EAGAIN") throw error;
      Atomics.wait(PAUSE, 0, 0, 5);
    }
  }
}
const PAUSE = new Int32Array(new SharedArrayBuffer(4));

/** The robots.txt named on the command line: a file, or `-` for standard input, up to READ_PAST_LIMIT past `maxBytes`; `complete` false when there was more. */
function readRobotsFile(command: string, file: string, maxBytes: number): { bytes: Buffer; complete: boolean } {
  let read: { bytes: Buffer; complete: boolean };
  try {
    read = readAtMost(file, maxBytes + READ_PAST_LIMIT);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new CliError(`${command}: cannot read robots.txt ${printable(JSON.stringify(file))}: ${reason}`);
  }
  if (!read.complete) {
    process.stderr.write(`robots ${command}: read the first ${read.bytes.length} bytes of ${printable(JSON.stringify(fileLabel(file)))} (16 MiB past --max-bytes); the rest is not read\n`);
  }
  return read;
}

/** How the commands show which file they read. */
export function fileLabel(file: string): string {
  return file === "-" ? "<stdin>" : file;
}

/**
 * Reads and parses the robots.txt named on the command line. `complete` is false when the file
 * went on past what was read: the parsed input's size is then only what was read.
 */
export async function loadRobots(command: string, file: string, options: ParseOptions): Promise<{ body: Buffer; robots: Robots; complete: boolean }> {
  const { bytes: body, complete } = readRobotsFile(command, file, Math.min(options.maxBytes ?? DEFAULT_MAX_BYTES, MAX_BODY_BYTES));
  await init();
  return { body, robots: Robots.parse(body, options), complete };
}

/** Repeated `--agent` values: required, their groups merge. */
export function requireAgents(command: string, agents: string[] | undefined): string[] {
  if (agents === undefined || agents.length === 0) throw new CliError(`${command}: --agent NAME is required`);
  return agents;
}
