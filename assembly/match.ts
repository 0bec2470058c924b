// Deciding URLs: the path of each URL as the profile compares it, then the best-ranked rule of the
// current selection that matches it, found through the selection's match plan.

import { Char } from "./chars";
import { isPlainAscii } from "./scan";
import { lineEnd, locatePath, normalizePath, pathEnd, pathNeedsSlash, pathStart } from "./normalize";
import { bytesEqual, releaseLongSearch, ruleMatches } from "./pattern";
import { buildPlan, MatchPlan } from "./plan";
import { NO_RANK, Profile, RuleTable, Scope } from "./table";
import { Vec } from "./vec";
import { bestRank, releaseLongWalk } from "./walk";
import { releaseProbeStamps } from "./grams-probe";

/** Bytes of pathScratch kept between calls: room for the rewritten form of any path of up to 1,365 bytes. */
const PATH_SCRATCH_BYTES: usize = 4096;

/** Scratch space shared by all tables for paths that must be rewritten; grows for long paths. */
let pathScratch: Vec = Vec.create(PATH_SCRATCH_BYTES);

/**
 * Gives back the room that deciding a long path took in every module's scratch (this path
 * scratch, the walk's visited nodes, KMP failure links, the gram probe's stamps) once it passed
 * SCRATCH_KEPT, so that one long URL does not hold that memory for every table parsed after it.
 * Once per call, not per URL: within a batch, the room a long path made serves the next long one.
 */
export function releaseLongPath(): void {
  pathScratch.releaseRoom(PATH_SCRATCH_BYTES);
  releaseLongWalk();
  releaseLongSearch();
  releaseProbeStamps();
}

/**
 * Writes the indices of every selected rule matching the URL, in decision order (the winner
 * first), to `out` (room for `capacity`); returns how many match. For explanations, not batches.
 */
export function matchAll(table: RuleTable, url: usize, urlLength: usize, out: usize, capacity: u32): u32 {
  preparePath(table, url, 0, urlLength, false, false);
  if (table.scope == Scope.NONE) return 0;
  if (table.profile == Profile.RFC9309 && isRobotsTxtPath(pathPointer, pathLength)) return 0;
  const selected = table.selectedRules;
  const count = selected.length >> 2;
  let found: u32 = 0;
  for (let i: usize = 0; i < count; i++) {
    const rule = selected.u32At(i);
    if (!ruleMatches(table, rule, pathPointer, pathLength)) continue;
    if (found < capacity) store<u32>(out + (<usize>found << 2), rule);
    found++;
  }
  return found;
}

/** Path of the URL as the matcher compares it, written or pointed to by pathPointer/pathLength. */
export let pathPointer: usize = 0;
export let pathLength: usize = 0;
/** Whether the path lies in the URL's own bytes (so it outlives the next URL), not in scratch. */
export let pathInPlace: bool = false;

/**
 * Finds the path of the URL at base[start..] (ending at `limit`, or in a line at its LF: see
 * locatePath) and puts it in the form the profile compares. `stripCr` drops a CR before the LF.
 */
// @ts-ignore: decorator
@inline function preparePath(table: RuleTable, base: usize, start: usize, limit: usize, inLine: bool, stripCr: bool): void {
  const google = table.profile == Profile.GOOGLE;
  // Google-specific: the path is handed to the matcher as a C string; a NUL ends it.
  locatePath(base, start, limit, google, inLine);
  let from = pathStart;
  let to = pathEnd;
  if (stripCr && to > from && to == lineEnd && load<u8>(base + to - 1) == Char.CR) to--;
  const needsSlash = pathNeedsSlash || from == to;
  // RFC 9309 rewrites only `%`, `*`, `$` and bytes >= 0x80 (normalizePath): most paths have none
  // and are compared where they are.
  pathInPlace = !needsSlash && (google || isPlainAscii(base + from, to - from, Char.PERCENT, Char.STAR, Char.DOLLAR));
  if (pathInPlace) {
    pathPointer = base + from;
    pathLength = to - from;
    return;
  }
  const rawLength = to - from;
  const dst = pathScratch.reserve(rawLength * 3 + 1);
  let written: usize = 0;
  if (needsSlash) {
    store<u8>(dst, Char.SLASH);
    written = 1;
  }
  if (google) {
    memory.copy(dst + written, base + from, rawLength);
    written += rawLength;
  } else {
    written += normalizePath(base + from, rawLength, dst + written);
  }
  pathPointer = dst;
  pathLength = written;
}

/** `/robots.txt`, the path RFC 9309 2.2.2 allows implicitly (11 bytes). */
export const ROBOTS_TXT_PATH = memory.data<u8>([0x2f, 0x72, 0x6f, 0x62, 0x6f, 0x74, 0x73, 0x2e, 0x74, 0x78, 0x74]);

/** RFC 9309 2.2.2: the robots.txt URI itself is implicitly allowed. */
function isRobotsTxtPath(path: usize, length: usize): bool {
  let end: usize = 0;
  while (end < length && load<u8>(path + end) != Char.QUESTION) end++;
  return end == 11 && bytesEqual(path, ROBOTS_TXT_PATH, 11);
}

/** prepareUrl's answer when the path must be looked up in the match plan. */
export const LOOK_UP: i32 = -2;

/**
 * Prepares the URL at base[start..] (see preparePath) and decides it if that needs no match
 * plan: returns the rule (-1: none, allowed) or LOOK_UP, when pathPointer/pathLength hold the
 * path for lookUp. In a line, `lineEnd` then says where the line ended.
 */
// @ts-ignore: decorator
@inline export function prepareUrl(table: RuleTable, base: usize, start: usize, limit: usize, inLine: bool, stripCr: bool): i32 {
  preparePath(table, base, start, limit, inLine, stripCr);
  if (table.scope == Scope.NONE || table.selectedRules.length == 0) return -1;
  if (table.profile == Profile.RFC9309 && isRobotsTxtPath(pathPointer, pathLength)) return -1;
  if (!table.plan) table.plan = buildPlan(table);
  return LOOK_UP;
}

/** The winning rule for a prepared path (prepareUrl gave LOOK_UP, so the plan exists), or -1. */
export function lookUp(table: RuleTable, path: usize, length: usize): i32 {
  return ruleOfRank(table, bestRank(table, changetype<MatchPlan>(table.plan), path, length));
}

// @ts-ignore: decorator
@inline export function ruleOfRank(table: RuleTable, rank: u32): i32 {
  return rank == NO_RANK ? -1 : <i32>table.selectedRules.u32At(rank);
}

/** 1 if the winning rule (or its absence) allows the URL. */
// @ts-ignore: decorator
@inline export function verdictOf(table: RuleTable, rule: i32): u32 {
  return rule < 0 ? 1 : table.ruleAllows(<u32>rule);
}
