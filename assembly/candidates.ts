// A candidate: a wildcard rule as the match plan tries it, in one 32-byte entry (rank, pattern,
// byte and pair masks). Plans of large files do not fit in the CPU caches, so trying a candidate
// should touch one entry, read in sequence with its neighbours, and the pattern bytes, instead of
// the rank's rule fields, its masks and its pattern in three places.

import { pathHoldsMasks, storeRuleMasks } from "./mask";
import { bytesEqual, matchesAfterPrefix } from "./pattern";
import { RuleField, RuleFlag, RuleTable } from "./table";

export const CANDIDATE_BYTES: usize = 32;

const enum Field {
  RANK = 0,
  /** Address of the pattern bytes in the table's pool (fixed once the table is parsed). */
  PATTERN = 4,
  /** Pattern length << 1 | 1 if `$`-anchored. */
  LENGTH = 8,
  PREFIX = 12,
  /** The byte mask and the pair mask (mask.ts): two u64. */
  MASKS = 16,
}

/** Writes the candidate entry of the rule of `rank` at `at`. */
export function writeCandidate(table: RuleTable, rank: u32, at: usize): void {
  const rule = table.selectedRules.u32At(rank);
  const pattern = table.pool.data + table.ruleField(rule, RuleField.PATTERN_START);
  const length = table.ruleField(rule, RuleField.PATTERN_LENGTH);
  const anchored = (table.ruleField(rule, RuleField.FLAGS) & RuleFlag.ANCHORED) != 0;
  store<u32>(at, rank, Field.RANK);
  store<u32>(at, <u32>pattern, Field.PATTERN);
  store<u32>(at, (length << 1) | (anchored ? 1 : 0), Field.LENGTH);
  store<u32>(at, table.ruleField(rule, RuleField.PREFIX_LENGTH), Field.PREFIX);
  storeRuleMasks(pattern, length, at + Field.MASKS);
}

// @ts-ignore: decorator
@inline export function candidateRank(at: usize): u32 {
  return load<u32>(at, Field.RANK);
}

/**
 * Whether the path holds every byte the candidate needs: the cheap test that comes first, inline,
 * so that most candidates cost no call.
 */
// @ts-ignore: decorator
@inline export function candidateMayMatch(at: usize, path: usize, length: usize): bool {
  return pathHoldsMasks(at + Field.MASKS, path, length);
}

/**
 * The rank of the first candidate among the entries [from, to) (in rank order, their prefix
 * already matched) that matches the path and beats `best`; else `best`.
 */
// @ts-ignore: decorator
@inline export function bestCandidate(from: usize, to: usize, path: usize, length: usize, best: u32): u32 {
  for (let entry = from; entry < to; entry += CANDIDATE_BYTES) {
    const rank = candidateRank(entry);
    if (rank >= best) break;
    if (candidateMayMatch(entry, path, length) && candidateMatches(entry, path, length, false)) return rank;
  }
  return best;
}

/**
 * Whether the candidate at `at`, having passed candidateMayMatch, matches the path; `checkPrefix`
 * false when the tree walk has already matched its literal prefix.
 */
export function candidateMatches(at: usize, path: usize, length: usize, checkPrefix: bool): bool {
  const prefix = <usize>load<u32>(at, Field.PREFIX);
  if (prefix > length) return false;
  const pattern = <usize>load<u32>(at, Field.PATTERN);
  if (checkPrefix && !bytesEqual(path, pattern, prefix)) return false;
  const lengthField = load<u32>(at, Field.LENGTH);
  return matchesAfterPrefix(path, length, pattern, <usize>(lengthField >> 1), prefix, (lengthField & 1) != 0);
}
