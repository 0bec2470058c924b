/**
 * fast-check's seed and run count for a property: fixed so CI is reproducible, and overridden by
 * FC_SEED and FC_RUNS to fuzz further (`FC_SEED=1 FC_RUNS=10000 npx vitest run`).
 */
export function fuzzRuns(seed: number, numRuns: number): { seed: number; numRuns: number } {
  return { seed: Number(process.env.FC_SEED ?? seed), numRuns: Number(process.env.FC_RUNS ?? numRuns) };
}
