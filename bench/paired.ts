/**
 * The throughput ratio of two workloads, measured in alternating turns.
 *
 * The quarter target compares the 512 KiB file's batched throughput with the 2 KB file's. Each
 * workload's own measurement runs minutes after the other's, and this VM's speed moves between two
 * levels by a third within minutes: on the same build, ratios taken that way ranged from 0.14 to
 * 0.23. Here the two batches run one after the other, round after round (the order swapped each
 * round), so that both halves of each round's ratio see the same machine; the median of the
 * rounds' ratios is reported.
 */
import { Robots } from "../src/index.js";
import { median, PARSE_OPTIONS, sinkAdd } from "./measure.js";
import { AGENT } from "./workloads.js";

/** What a pair needs of a workload: its file, its URL bytes and how many URLs they hold. */
export interface PairInput {
  name: string;
  body: Uint8Array;
  bytes: Uint8Array;
  urls: number;
}

export interface PairedRatio {
  /** The workloads, `fast` the one whose throughput is the denominator. */
  fast: string;
  slow: string;
  rounds: number;
  /** Median over the rounds of slow's throughput / fast's (fast's time / slow's). */
  ratio: number;
  /** The lowest and highest round ratio. */
  lowest: number;
  highest: number;
  /** Median ns per URL of each, over the same rounds. */
  fastNsPerUrl: number;
  slowNsPerUrl: number;
}

/** Classifies both batches `rounds` times in alternation (after two warm passes each). */
export function pairedRatio(fast: PairInput, slow: PairInput, rounds = 11): PairedRatio {
  const robots = [Robots.parse(fast.body, PARSE_OPTIONS), Robots.parse(slow.body, PARSE_OPTIONS)] as const;
  const inputs = [fast, slow] as const;
  const time = (which: 0 | 1) => {
    const started = performance.now();
    sinkAdd(robots[which].classify(inputs[which].bytes, AGENT)[0]!);
    return performance.now() - started;
  };
  for (let pass = 0; pass < 2; pass++) {
    time(0);
    time(1);
  }
  const fastMs: number[] = [];
  const slowMs: number[] = [];
  const ratios: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const ms = [0, 0];
    for (const which of round % 2 === 0 ? ([0, 1] as const) : ([1, 0] as const)) ms[which] = time(which);
    fastMs.push(ms[0]!);
    slowMs.push(ms[1]!);
    ratios.push(ms[0]! / ms[1]!);
  }
  for (const parsed of robots) parsed.dispose();
  const perUrl = (ms: number, input: PairInput) => (ms * 1e6) / input.urls;
  return {
    fast: fast.name,
    slow: slow.name,
    rounds,
    ratio: median(ratios),
    lowest: Math.min(...ratios),
    highest: Math.max(...ratios),
    fastNsPerUrl: perUrl(median(fastMs), fast),
    slowNsPerUrl: perUrl(median(slowMs), slow),
  };
}
