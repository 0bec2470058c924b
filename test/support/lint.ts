/** The lint report of a robots.txt through the public API (parsed with its source kept, then disposed). */
import { Robots, type LintReport, type ParseOptions } from "../../src/index.js";

export function lintReport(body: string | Uint8Array, options: ParseOptions = {}): LintReport {
  const robots = Robots.parse(body, { ...options, keepSource: true });
  try {
    return robots.lint();
  } finally {
    robots.dispose();
  }
}
