/**
 * The CI benchmark gate's judging (bench/gate-checks.ts): `.ci/run` relies on it to fail a
 * submission whose engine got slower relative to its peers, and a healthy run never shows whether
 * a regression would fail it. Here the measurements are made up; nothing is timed.
 */
import { describe, expect, it } from "vitest";
import { FLOORS, type GateMeasurement, type GateRatio, type GateSize, judgeGate } from "../bench/gate-checks.js";

const SIZES: GateSize[] = ["2k", "50k", "512k"];
const RATIOS = Object.keys(FLOORS) as GateRatio[];

/** A measurement whose every ratio is `scale` times its floor for `size`, and whose answers agree. */
function measurementAt(size: GateSize, scale: (ratio: GateRatio) => number): GateMeasurement {
  return {
    batchedVsRobotsParser: FLOORS.batchedVsRobotsParser[size] * scale("batchedVsRobotsParser"),
    batchedNsPerUrl: 100,
    referenceNsPerUrl: 100 * FLOORS.batchedVsReference[size] * scale("batchedVsReference"),
    robotsParserParseMs: 1_000,
    wasmParsePlanMs: 1_000 / (FLOORS.compileVsRobotsParser[size] * scale("compileVsRobotsParser")),
    wasmParseWholePlanMs: 1_000 / (FLOORS.wholeCompileVsRobotsParser[size] * scale("wholeCompileVsRobotsParser")),
    disagreements: 0,
    compared: 50_000,
  };
}

function allAt(scale: (size: GateSize, ratio: GateRatio) => number): Map<GateSize, GateMeasurement> {
  return new Map(SIZES.map((size) => [size, measurementAt(size, (ratio) => scale(size, ratio))]));
}

describe("the CI benchmark gate's judging", () => {
  it("passes a run whose every ratio is at or above its floor, and reports all twelve", () => {
    for (const scale of [1.0001, 2]) {
      const { checks, failures } = judgeGate(allAt(() => scale));
      expect(failures).toEqual([]);
      expect(checks).toHaveLength(SIZES.length * RATIOS.length);
      expect(checks.every((check) => check.ok)).toBe(true);
    }
  });

  it("fails on any one ratio below its own floor, naming it", () => {
    for (const size of SIZES) {
      for (const ratio of RATIOS) {
        const { checks, failures } = judgeGate(allAt((s, r) => (s === size && r === ratio ? 0.97 : 1.01)));
        expect(failures).toHaveLength(1);
        const failed = checks.filter((check) => !check.ok);
        expect(failed.map((check) => [check.name.split(":")[0], check.ratio, check.floor])).toEqual([[size, ratio, FLOORS[ratio][size]]]);
        expect(failures[0]).toContain(failed[0].name);
        expect(failures[0]).toContain("below its floor");
      }
    }
  });

  it("fails when WASM and the reference disagree on any URL, however fast", () => {
    const measurements = allAt(() => 10);
    measurements.set("50k", { ...measurements.get("50k")!, disagreements: 1 });
    expect(judgeGate(measurements).failures).toEqual([
      "50k: WASM and the reference disagree on 1 of 50000 URLs (a correctness bug, see npm test)",
    ]);
  });

  it("fails a ratio that is not a number (a broken measurement never passes)", () => {
    const measurements = allAt(() => 2);
    measurements.set("2k", { ...measurements.get("2k")!, wasmParsePlanMs: Number.NaN, batchedVsRobotsParser: Number.NaN });
    const failed = judgeGate(measurements).checks.filter((check) => !check.ok).map((check) => check.ratio);
    expect(failed).toEqual(["batchedVsRobotsParser", "compileVsRobotsParser"]);
  });
});
