/**
 * The implementations every behaviour test runs against, so that each strategy of the match plan
 * faces the reference:
 * - wasm-release: the release build as shipped (small selections go through the lazy DFA);
 * - wasm-debug: the debug build (bounds checks and assertions on) with a DFA cache of 8 states,
 *   so that walks keep resetting it;
 * - wasm-dfa-give-up: the debug build whose small DFA cache gives up at once (the tree then
 *   takes over mid-batch);
 * - wasm-tree: the debug build without the DFA (tree walk, node lists, gram index for crowded nodes);
 * - wasm-gram-index: the same with every wildcard rule sent through the gram index;
 * - reference: the pure-TypeScript implementation.
 *
 * ROBOTS_IMPLS=reference,wasm-debug narrows the list while developing; by default all run, and a
 * missing WASM build is an error (run `npm run build:wasm`), never a silent skip.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Robots as ReferenceRobots } from "../../src/reference/index.js";
import { loadEngine } from "../../src/wasm.js";
import { parseWith } from "../../src/robots.js";
import type { ParseOptions, RobotsTxt } from "../../src/types.js";

export interface Implementation {
  name: "wasm-release" | "wasm-debug" | "wasm-dfa-give-up" | "wasm-tree" | "wasm-gram-index" | "reference";
  parse(body: string | Uint8Array, options?: ParseOptions): RobotsTxt;
}

interface PlanSettings {
  /** Wildcard lists longer than this go to the gram index (0: all of them). */
  wildcardIndexLimit?: number;
  /** The DFA's limits (configureDfa): NFA positions (0: no DFA), cached states, give up when thrashing. */
  dfa?: [positions: number, states: number, giveUp: boolean];
}

function wasmImplementation(name: Implementation["name"], file: string, settings: PlanSettings = {}): Implementation {
  const binary = readFileSync(fileURLToPath(new URL(`../../build/${file}`, import.meta.url)));
  const engine = loadEngine(binary);
  if (settings.wildcardIndexLimit !== undefined) engine.exports.configureWildcardIndex(settings.wildcardIndexLimit);
  if (settings.dfa !== undefined) engine.exports.configureDfa(settings.dfa[0], settings.dfa[1], settings.dfa[2] ? 1 : 0);
  return { name, parse: (body, options) => parseWith(engine, body, options) };
}

const NO_DFA: PlanSettings["dfa"] = [0, 0, false];

const reference: Implementation = { name: "reference", parse: (body, options) => ReferenceRobots.parse(body, options) };

const wanted = (process.env.ROBOTS_IMPLS ?? "wasm-release,wasm-debug,wasm-dfa-give-up,wasm-tree,wasm-gram-index,reference").split(",");

export const implementations: Implementation[] = [
  ...(wanted.includes("wasm-release") ? [wasmImplementation("wasm-release", "release.wasm")] : []),
  ...(wanted.includes("wasm-debug") ? [wasmImplementation("wasm-debug", "debug.wasm", { dfa: [4096, 8, false] })] : []),
  ...(wanted.includes("wasm-dfa-give-up") ? [wasmImplementation("wasm-dfa-give-up", "debug.wasm", { dfa: [4096, 3, true] })] : []),
  ...(wanted.includes("wasm-tree") ? [wasmImplementation("wasm-tree", "debug.wasm", { dfa: NO_DFA })] : []),
  ...(wanted.includes("wasm-gram-index") ? [wasmImplementation("wasm-gram-index", "debug.wasm", { wildcardIndexLimit: 0, dfa: NO_DFA })] : []),
  ...(wanted.includes("reference") ? [reference] : []),
];

/** The WASM builds only (for differential tests against the reference). */
export const wasmImplementations = implementations.filter((impl) => impl.name !== "reference");
export { reference };
