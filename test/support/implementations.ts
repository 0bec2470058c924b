/**
 * The implementations every behaviour test runs against: the WASM release build, the WASM debug
 * build (bounds checks and assertions on) and the pure-TypeScript reference.
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
  name: "wasm-release" | "wasm-debug" | "reference";
  parse(body: string | Uint8Array, options?: ParseOptions): RobotsTxt;
}

function wasmImplementation(name: "wasm-release" | "wasm-debug", file: string): Implementation {
  const binary = readFileSync(fileURLToPath(new URL(`../../build/${file}`, import.meta.url)));
  const engine = loadEngine(binary);
  return { name, parse: (body, options) => parseWith(engine, body, options) };
}

const reference: Implementation = { name: "reference", parse: (body, options) => ReferenceRobots.parse(body, options) };

const wanted = (process.env.ROBOTS_IMPLS ?? "wasm-release,wasm-debug,reference").split(",");

export const implementations: Implementation[] = [
  ...(wanted.includes("wasm-release") ? [wasmImplementation("wasm-release", "release.wasm")] : []),
  ...(wanted.includes("wasm-debug") ? [wasmImplementation("wasm-debug", "debug.wasm")] : []),
  ...(wanted.includes("reference") ? [reference] : []),
];

/** The WASM builds only (for differential tests against the reference). */
export const wasmImplementations = implementations.filter((impl) => impl.name !== "reference");
export { reference };
