/**
 * A check of linear time with no wall-clock threshold: the cost per byte of an input 16 times as
 * large, relative to the small one's, measured in the same run.
 */

/**
 * How much more a byte of `large` (16 times the size of `small`) costs than a byte of `small`: 1
 * for linear time, 16 for quadratic. Each timing does the same amount of input (`small` 16 times,
 * `large` once), so both are equally long and a busy machine's preemptions fall on both alike; the
 * two alternate, and the fastest of each counts (noise only ever adds time). Five rounds, and up
 * to fifteen while the ratio is above 2: on a machine busy with other processes a round's five
 * timings can all be slowed (a linear scanner once measured above 4 with two mutation runs beside
 * the suite), and more rounds bring it back near 1, where quadratic time stays near 16.
 */
export function perByteRatio<T>(run: (input: T) => void, small: T, large: T): number {
  let smallBest = Infinity;
  let largeBest = Infinity;
  for (let round = 0; round < 15 && (round < 5 || largeBest / smallBest > 2); round++) {
    let started = performance.now();
    for (let i = 0; i < 16; i++) run(small);
    smallBest = Math.min(smallBest, performance.now() - started);
    started = performance.now();
    run(large);
    largeBest = Math.min(largeBest, performance.now() - started);
  }
  return largeBest / smallBest;
}
