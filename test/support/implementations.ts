/**
 * The implementations every behaviour test runs against: the WASM release build, the WASM debug
 * build (bounds checks and assertions on), the debug build with every wildcard rule sent through
 * the gram index of the match plan (which real files only use for long wildcard lists), and the
 * pure-TypeScript reference.
 *
 * ROBOTS_IMPLS=reference,wasm-debug narrows the list while developing; by default all three run,
 * and a missing WASM build is an error (run `npm run build:wasm`), never a silent skip.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Robots as ReferenceRobots } from "../../src/reference/index.js";
import { loadEngine } from "../../src/wasm.js";
import { parseWith } from "../../src/robots.js";
import type { ParseOptions, RobotsTxt } from "../../src/types.js";

export interface Implementation {
  name: "wasm-release" | "wasm-debug" | "wasm-gram-index" | "reference";
  parse(body: string | Uint8Array, options?: ParseOptions): RobotsTxt;
}

/** A WASM build; `wildcardIndexLimit` 0 sends every wildcard rule through the gram index. */
function wasmImplementation(name: Implementation["name"], file: string, wildcardIndexLimit?: number): Implementation {
  const binary = readFileSync(fileURLToPath(new URL(`../../build/${file}`, import.meta.url)));
  const engine = loadEngine(binary);
  if (wildcardIndexLimit !== undefined) engine.exports.configureWildcardIndex(wildcardIndexLimit);
  return { name, parse: (body, options) => parseWith(engine, body, options) };
}

const reference: Implementation = { name: "reference", parse: (body, options) => ReferenceRobots.parse(body, options) };

const wanted = (process.env.ROBOTS_IMPLS ?? "wasm-release,wasm-debug,wasm-gram-index,reference").split(",");

export const implementations: Implementation[] = [
  ...(wanted.includes("wasm-release") ? [wasmImplementation("wasm-release", "release.wasm")] : []),
  ...(wanted.includes("wasm-debug") ? [wasmImplementation("wasm-debug", "debug.wasm")] : []),
  ...(wanted.includes("wasm-gram-index") ? [wasmImplementation("wasm-gram-index", "debug.wasm", 0)] : []),
  ...(wanted.includes("reference") ? [reference] : []),
];

/** The WASM builds only (for differential tests against the reference). */
export const wasmImplementations = implementations.filter((impl) => impl.name !== "reference");
export { reference };
