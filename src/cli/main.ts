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
import { printable } from "./format.js";
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

Examples (a checkout of the project has the robots.txt and urls.txt in examples/):
  robots check --robots robots.txt --agent Googlebot urls.txt
  robots explain robots.txt https://www.example.com/static/a.css --agent Bingbot
  robots lint robots.txt
  robots allowed robots.txt Googlebot https://www.example.com/
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
      const [topic, extra] = rest;
      if (topic !== undefined && !Object.hasOwn(COMMANDS, topic)) throw new CliError(`unknown command "${topic}" (try: robots --help)`);
      if (extra !== undefined) throw new CliError(`help: unexpected argument "${extra}" (usage: robots help [COMMAND])`);
      process.stdout.write(topic === undefined ? mainHelp() : COMMANDS[topic].help);
      return 0;
    }
    case "-v":
    case "--version":
      if (rest.length > 0) throw new CliError(`--version: unexpected argument "${rest[0]}"`);
      process.stdout.write(`${version()}\n`);
      return 0;
    default:
      if (!Object.hasOwn(COMMANDS, name)) throw new CliError(`unknown command "${name}" (try: robots --help)`);
      running = name;
      return COMMANDS[name].run(rest);
  }
}

/** The arguments without the `--debug` flags that no command parses: those before the command's name, and all of them for `help` and `--version`. */
function withoutDebugOutsideCommand(args: string[], end: number): string[] {
  const isFlag = (arg: string, index: number) => arg === "--debug" && index < end;
  const first = args.findIndex((arg, index) => !isFlag(arg, index));
  if (first === -1) return [];
  const name = args[first];
  if (Object.hasOwn(COMMANDS, name)) return args.slice(first);
  return args.filter((arg, index) => !isFlag(arg, index));
}

/** The command running, for messages about its output. */
let running = "";

// A reader that stops early closes the pipe. `check` is a filter (`robots check ... | head`): it
// stops quietly with status 0, as Unix filters do. The other commands answer with their exit
// status too (`allowed`: 0 or 1, `lint`: the findings), which a reader that ignores their text
// still gets: they finish without writing, and their status stands.
let outputClosed = false;
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  // Writes after the close fail too (the stream is destroyed): the reader is gone, nothing to say.
  if (error.code === "EPIPE" || outputClosed) {
    outputClosed = true;
    if (running === "check") process.exit(0);
    return;
  }
  // Any other failure to write (a full disk): the output is incomplete, which is an error (2),
  // never a verdict (`allowed` exits 1 for "disallowed").
  process.stderr.write(`robots: ${running === "" ? "" : `${running}: `}cannot write the output: ${error.message}\n`);
  process.exit(2);
});
// A closed standard error (`2>&1 | head`) has no reader for the summary or for an error message:
// the command carries on, and its status stands.
process.stderr.on("error", () => undefined);

// A failure outside the command's own promise (Node's HTTP client failing to start its own
// WebAssembly when memory is short, as the engine loader touches it) would end the process with
// status 1, which `allowed` uses for "disallowed": it is an error (2), in one line.
for (const event of ["unhandledRejection", "uncaughtException"] as const) {
  process.on(event, (error: unknown) => {
    report(error);
    process.exit(2);
  });
}

/** A failure on stderr: its stack with `--debug`, else its message's first line. */
function report(error: unknown): void {
  if (debug) console.error(error);
  // Escaped: messages echo the arguments as typed, and an escape code there reached the terminal.
  else process.stderr.write(`robots: ${printable(error instanceof Error ? error.message.split("\n", 1)[0] : String(error))}\n`);
}

// `--debug` anywhere before `--`; after it, as every argument there, it is a file name. Before
// the command's name (and in `help` and `--version`) it is dropped here; a command parses it as
// one of its options, so that it never stands for an option's missing value.
const args = process.argv.slice(2);
const end = args.includes("--") ? args.indexOf("--") : args.length;
const debug = args.slice(0, end).includes("--debug");
main(withoutDebugOutsideCommand(args, end)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    report(error);
    // An unexpected failure is an error (2) too, never a verdict: `allowed` exits 1 for "disallowed".
    process.exitCode = error instanceof CliError ? error.exitCode : 2;
  },
);
