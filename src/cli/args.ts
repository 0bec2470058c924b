/** What the commands share: argument parsing (node:util `parseArgs`), parse options, reading the robots.txt. */
import { readFileSync } from "node:fs";
import type { ParseArgsConfig } from "node:util";
import { CliError } from "./cli-error.js";
import { init, Robots } from "../index.js";
import type { ParseOptions } from "../types.js";

type OptionsConfig = NonNullable<ParseArgsConfig["options"]>;

/** `--profile` and `--max-bytes`: how every command reads the robots.txt. */
export const PARSE_OPTIONS = {
  profile: { type: "string", default: "google" },
  "max-bytes": { type: "string", default: "512000" },
} as const satisfies OptionsConfig;

export const PARSE_OPTIONS_HELP = `  --profile NAME      google (default: Google's reference parser) or rfc9309 (the RFC's text)
  --max-bytes N       Bytes of robots.txt to read (default 512000; "Infinity" for no limit)`;

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
    // One line: some of parseArgs' messages span several.
    throw new CliError(`${command}: ${(error as Error).message.replace(/\s*\n\s*/g, " ")}`);
  }
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

/** The robots.txt named on the command line: a file, or `-` for standard input. */
function readRobotsFile(command: string, file: string): Buffer {
  try {
    return readFileSync(file === "-" ? 0 : file);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new CliError(`${command}: cannot read robots.txt "${file}": ${reason}`);
  }
}

/** How the commands show which file they read. */
export function fileLabel(file: string): string {
  return file === "-" ? "<stdin>" : file;
}

/** Reads and parses the robots.txt named on the command line. */
export async function loadRobots(command: string, file: string, options: ParseOptions): Promise<{ body: Buffer; robots: Robots }> {
  const body = readRobotsFile(command, file);
  await init();
  return { body, robots: Robots.parse(body, options) };
}

/** Repeated `--agent` values: required, their groups merge. */
export function requireAgents(command: string, agents: string[] | undefined): string[] {
  if (agents === undefined || agents.length === 0) throw new CliError(`${command}: --agent NAME is required`);
  return agents;
}
