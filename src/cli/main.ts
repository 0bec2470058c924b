#!/usr/bin/env node
/**
 * The `robots` command. The only code that prints or exits; everything it does goes through the
 * public API. Each command lives in its own file (`<command>.ts`) exporting a run function and a
 * help text; this file is the dispatch table.
 */
import { readFileSync } from "node:fs";
import { ALLOWED_HELP, runAllowed } from "./allowed.js";
import { CHECK_HELP, runCheck } from "./check.js";
import { CliError } from "./cli-error.js";
import { EXPLAIN_HELP, runExplain } from "./explain.js";
import { FETCH_HELP, runFetch } from "./fetch.js";
import { LINT_HELP, runLint } from "./lint.js";
import { META_HELP, runMeta } from "./meta.js";

interface Command {
  run(args: string[]): Promise<number>;
  help: string;
  /** One line for `robots --help`. */
  summary: string;
}

const COMMANDS: Record<string, Command> = {
  check: { run: runCheck, help: CHECK_HELP, summary: "Classify URLs (one per line) against a robots.txt" },
  explain: { run: runExplain, help: EXPLAIN_HELP, summary: "Explain the verdict for one URL: deciding rule, groups, rules that lost" },
  lint: { run: runLint, help: LINT_HELP, summary: "Check a robots.txt for mistakes, with line numbers and fixes" },
  allowed: { run: runAllowed, help: ALLOWED_HELP, summary: "Exit 0 if an agent may fetch a URL, 1 if not (like Google's robots binary)" },
  fetch: { run: runFetch, help: FETCH_HELP, summary: "Fetch a site's robots.txt as a crawler would: outcome, policy, expiry" },
  meta: { run: runMeta, help: META_HELP, summary: "What a page's robots meta tags and X-Robots-Tag headers allow an agent" },
};

function mainHelp(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length)) + 2;
  const commands = Object.entries(COMMANDS)
    .map(([name, command]) => `  ${name.padEnd(width)}${command.summary}`)
    .join("\n");
  return `Usage: robots <command> [options]

Commands:
${commands}

Options:
  -h, --help     Show help (also: robots <command> --help, robots help <command>)
  -v, --version  Show the version
      --debug    Show stack traces of internal errors

Examples:
  robots check --robots examples/robots.txt --agent Googlebot examples/urls.txt
  robots explain examples/robots.txt https://www.example.com/static/a.css --agent Bingbot
  robots lint examples/robots.txt
  robots allowed examples/robots.txt Googlebot https://www.example.com/
  robots fetch https://www.example.com/private/page --agent Googlebot
  robots meta page.html --agent Googlebot --header "X-Robots-Tag: noarchive"
`;
}

function version(): string {
  const manifest = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };
  return manifest.version;
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  switch (name) {
    case undefined:
      process.stderr.write(mainHelp());
      return 2;
    case "-h":
    case "--help":
      process.stdout.write(mainHelp());
      return 0;
    case "help": {
      const topic = rest[0];
      if (topic !== undefined && !Object.hasOwn(COMMANDS, topic)) throw new CliError(`unknown command "${topic}" (try: robots --help)`);
      process.stdout.write(topic === undefined ? mainHelp() : COMMANDS[topic].help);
      return 0;
    }
    case "-v":
    case "--version":
      process.stdout.write(`${version()}\n`);
      return 0;
    default:
      if (!Object.hasOwn(COMMANDS, name)) throw new CliError(`unknown command "${name}" (try: robots --help)`);
      return COMMANDS[name].run(rest);
  }
}

// A reader that stops early (`robots check ... | head`) closes the pipe: the command stops quietly
// with status 0, as Unix filters do, instead of dying of an unhandled EPIPE error.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code !== "EPIPE") process.stderr.write(`robots: cannot write the output: ${error.message}\n`);
  process.exit(error.code === "EPIPE" ? 0 : 1);
});

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
