#!/usr/bin/env node
/**
 * The `robots` command. The only code that prints or exits; everything it does goes through the
 * public API.
 */
import { readFileSync } from "node:fs";
import { runCheck, CHECK_HELP } from "./check.js";
import { CliError } from "./cli-error.js";

const HELP = `Usage: robots <command> [options]

Commands:
  check     Classify URLs (one per line) against a robots.txt

Options:
  -h, --help     Show help (also: robots <command> --help)
  -v, --version  Show the version
      --debug    Show stack traces of internal errors

Example:
  robots check --robots examples/robots.txt --agent Googlebot examples/urls.txt
`;

function version(): string {
  const manifest = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };
  return manifest.version;
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case undefined:
    case "-h":
    case "--help":
    case "help":
      process.stdout.write(command === undefined ? HELP : rest[0] === "check" ? CHECK_HELP : HELP);
      return command === undefined ? 2 : 0;
    case "-v":
    case "--version":
      process.stdout.write(`${version()}\n`);
      return 0;
    case "check":
      return runCheck(rest);
    default:
      throw new CliError(`unknown command "${command}" (try: robots --help)`);
  }
}

const debug = process.argv.includes("--debug");
main(process.argv.slice(2).filter((arg) => arg !== "--debug")).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (debug) console.error(error);
    else process.stderr.write(`robots: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = error instanceof CliError ? error.exitCode : 1;
  },
);
