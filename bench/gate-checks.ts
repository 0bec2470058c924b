/**
 * The CI benchmark gate's decision (bench/gate.ts measures, this judges): each ratio measured in
 * one run against its floor, and WASM's agreement with the reference. Kept apart from the
 * measuring so that test/bench-gate.test.ts can show that a ratio below its floor fails the gate.
 *
 * FLOORS: about half of the lowest of three runs on the development machine (2 logical CPUs,
 * shared and noisy; the measured ranges are beside each floor), so that noise passes and a real
 * regression fails. Raise them when the engine gets faster for good (run the gate three times,
 * take half of the middle value); never lower one to let a regression pass.
 */

export const FLOORS = {
  /**
   * WASM classify(bytes) per URL against robots-parser's isAllowed per URL, same URLs, same file
   * (measured 103-107x with the lazy DFA for small files, 343-371x, 2,312-2,410x with a lazy tree).
   */
  batchedVsRobotsParser: { "2k": 52, "50k": 180, "512k": 1180 },
  /**
   * WASM classify(bytes) per URL against the reference's classify(string[]) (measured 226-234x,
   * 529-868x, 2,935-4,310x; 50k swings most, so its floor is half of the lowest run).
   */
  batchedVsReference: { "2k": 117, "50k": 265, "512k": 2000 },
  /**
   * robots-parser's parse of the whole file against WASM parse + first classify, which builds the
   * match plan with its tree along one path (measured 2.68-5.46x, 8.68-11.3x, 12.4-14.3x).
   */
  compileVsRobotsParser: { "2k": 2.1, "50k": 4.8, "512k": 6.8 },
  /** The same with the whole plan built at once (expandPlan; measured 4.58-7.03x, 5.22-9.45x, 8.58-9.23x). */
  wholeCompileVsRobotsParser: { "2k": 3.1, "50k": 3.1, "512k": 4.6 },
} as const;

export type GateSize = keyof typeof FLOORS.batchedVsRobotsParser;
export type GateRatio = keyof typeof FLOORS;

/** What the gate measured for one generated workload, all in the same run. */
export interface GateMeasurement {
  /** WASM classify(bytes) throughput against robots-parser's isAllowed. */
  batchedVsRobotsParser: number;
  batchedNsPerUrl: number;
  referenceNsPerUrl: number;
  robotsParserParseMs: number;
  /** WASM parse + first classify (the plan built along one path). */
  wasmParsePlanMs: number;
  /** WASM parse + the whole plan (expandPlan). */
  wasmParseWholePlanMs: number;
  /** URLs on which WASM and the reference disagree, of `compared`. */
  disagreements: number;
  compared: number;
}

export interface GateCheck {
  name: string;
  ratio: GateRatio;
  measured: number;
  floor: number;
  /** False also for a ratio that is not a number (a broken measurement must not pass). */
  ok: boolean;
}

const CHECK_NAMES: Record<GateRatio, string> = {
  batchedVsRobotsParser: "WASM classify(bytes) vs robots-parser isAllowed",
  batchedVsReference: "WASM classify(bytes) vs reference classify",
  compileVsRobotsParser: "WASM compile (parse + plan) vs robots-parser parse",
  wholeCompileVsRobotsParser: "WASM compile (parse + whole plan) vs robots-parser parse",
};

function measuredRatios(m: GateMeasurement): Record<GateRatio, number> {
  return {
    batchedVsRobotsParser: m.batchedVsRobotsParser,
    batchedVsReference: m.referenceNsPerUrl / m.batchedNsPerUrl,
    compileVsRobotsParser: m.robotsParserParseMs / m.wasmParsePlanMs,
    wholeCompileVsRobotsParser: m.robotsParserParseMs / m.wasmParseWholePlanMs,
  };
}

/** Every check of the gate, in workload order, and a line per failure (empty: the gate passes). */
export function judgeGate(measurements: ReadonlyMap<GateSize, GateMeasurement>): { checks: GateCheck[]; failures: string[] } {
  const checks: GateCheck[] = [];
  const failures: string[] = [];
  for (const [size, measurement] of measurements) {
    const ratios = measuredRatios(measurement);
    for (const ratio of Object.keys(FLOORS) as GateRatio[]) {
      const measured = ratios[ratio];
      const floor = FLOORS[ratio][size];
      checks.push({ name: `${size}: ${CHECK_NAMES[ratio]}`, ratio, measured, floor, ok: measured >= floor });
    }
    if (measurement.disagreements !== 0) {
      failures.push(
        `${size}: WASM and the reference disagree on ${measurement.disagreements} of ${measurement.compared} URLs (a correctness bug, see npm test)`,
      );
    }
  }
  for (const check of checks) {
    if (!check.ok) failures.push(`${check.name}: ${check.measured.toFixed(2)}x is below its floor of ${check.floor}x (bench/gate-checks.ts FLOORS)`);
  }
  return { checks, failures };
}
