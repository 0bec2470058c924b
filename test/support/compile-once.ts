/**
 * Compiling a file the way the cost tests time it: parse (no size limit), then one URL, which
 * builds the match plan (and the nodes of the tree it walks into), then dispose.
 */
import { parseWith } from "../../src/robots.js";
import type { loadEngine } from "../../src/wasm.js";

export function compileOnce(engine: ReturnType<typeof loadEngine>, body: string, url: string, agent = "FooBot"): void {
  const robots = parseWith(engine, body, { maxBytes: Infinity });
  try {
    robots.isAllowed(url, agent);
  } finally {
    robots.dispose();
  }
}
