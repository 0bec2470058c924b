// The matcher: agent selection once per batch, then for each URL its path, and the first rule in
// decision order whose pattern matches it.

import { Char, toLower } from "./chars";
import { locatePath, normalizePath, pathEnd, pathNeedsSlash, pathStart } from "./normalize";
import { AGENT_FIELDS, AgentField, Profile, RuleField, RuleFlag, RuleTable, Scope } from "./table";
import { Vec } from "./vec";

/** Segments at least this long are searched with Knuth-Morris-Pratt, so a hostile pattern stays linear. */
const KMP_MIN_SEGMENT: usize = 16;

/** Grow-only scratch space shared by all tables: the current path, and KMP failure links. */
let pathScratch: Vec = Vec.create(4096);
let failureScratch: Vec = Vec.create(256);

/**
 * Chooses the groups that decide for the agents encoded at `agents` (a sequence of u32 length +
 * bytes) and lists their rules in decision order. The result is cached on the table, so calling
 * again with the same agents costs one comparison. Returns the Scope.
 */
export function selectAgents(table: RuleTable, agents: usize, agentsLength: usize): u32 {
  const cached = table.selectedFor;
  if (table.selectionValid && cached.length == agentsLength && memory.compare(cached.data, agents, agentsLength) == 0) {
    return table.scope;
  }
  cached.length = 0;
  cached.pushBytes(agents, agentsLength);

  const groupCount = <usize>table.groupCount;
  const selected = table.selectedGroups;
  selected.length = 0;
  memory.fill(selected.reserve(groupCount), 0, groupCount);
  selected.length = groupCount;

  // RFC 9309 2.2.1: the groups naming one of the agents decide; only if there are none, `*` does.
  const agentCount = <u32>(table.agents.length / (AGENT_FIELDS << 2));
  let anySpecific = false;
  let anyGlobal = false;
  for (let a: u32 = 0; a < agentCount; a++) {
    const base = a * AGENT_FIELDS;
    if (table.agents.u32At(base + AgentField.GLOBAL)) {
      anyGlobal = true;
      continue;
    }
    const token = table.pool.data + table.agents.u32At(base + AgentField.TOKEN_START);
    const tokenLength = <usize>table.agents.u32At(base + AgentField.TOKEN_LENGTH);
    if (namesAnyAgent(token, tokenLength, agents, agentsLength)) {
      store<u8>(selected.data + table.agents.u32At(base + AgentField.GROUP), 1);
      anySpecific = true;
    }
  }
  if (!anySpecific && anyGlobal) {
    for (let a: u32 = 0; a < agentCount; a++) {
      const base = a * AGENT_FIELDS;
      if (table.agents.u32At(base + AgentField.GLOBAL)) store<u8>(selected.data + table.agents.u32At(base + AgentField.GROUP), 1);
    }
  }
  table.scope = anySpecific ? Scope.SPECIFIC : anyGlobal ? Scope.GLOBAL : Scope.NONE;

  const rules = table.selectedRules;
  rules.length = 0;
  const count = table.ruleCount;
  for (let i: u32 = 0; i < count; i++) {
    const rule = table.order.u32At(i);
    if (load<u8>(selected.data + table.ruleField(rule, RuleField.GROUP))) rules.pushU32(rule);
  }
  table.selectionValid = true;
  return table.scope;
}

/** Whether a lower-case group token equals one of the queried agents, ignoring ASCII case. */
function namesAnyAgent(token: usize, tokenLength: usize, agents: usize, agentsLength: usize): bool {
  let at: usize = 0;
  while (at + 4 <= agentsLength) {
    const length = <usize>load<u32>(agents + at);
    const name = agents + at + 4;
    at += 4 + length;
    if (length != tokenLength) continue;
    let equal = true;
    for (let i: usize = 0; i < length; i++) {
      if (toLower(load<u8>(name + i)) != <u32>load<u8>(token + i)) {
        equal = false;
        break;
      }
    }
    if (equal) return true;
  }
  return false;
}

/** Index of the first occurrence of needle in haystack[from, to), or -1. */
function indexOf(hay: usize, from: usize, to: usize, needle: usize, needleLength: usize): isize {
  if (needleLength == 0) return <isize>from;
  if (to - from < needleLength) return -1;
  if (needleLength >= KMP_MIN_SEGMENT) return indexOfKmp(hay, from, to, needle, needleLength);
  const first = load<u8>(needle);
  const last = to - needleLength;
  for (let i = from; i <= last; i++) {
    if (load<u8>(hay + i) != first) continue;
    if (memory.compare(hay + i + 1, needle + 1, needleLength - 1) == 0) return <isize>i;
  }
  return -1;
}

/** Knuth-Morris-Pratt search: O(hay + needle) whatever the bytes. */
function indexOfKmp(hay: usize, from: usize, to: usize, needle: usize, needleLength: usize): isize {
  failureScratch.length = 0;
  const fail = failureScratch.reserve(needleLength << 2);
  store<u32>(fail, 0);
  let k: usize = 0;
  for (let i: usize = 1; i < needleLength; i++) {
    const c = load<u8>(needle + i);
    while (k > 0 && load<u8>(needle + k) != c) k = load<u32>(fail + ((k - 1) << 2));
    if (load<u8>(needle + k) == c) k++;
    store<u32>(fail + (i << 2), <u32>k);
  }
  let q: usize = 0;
  for (let i = from; i < to; i++) {
    const c = load<u8>(hay + i);
    while (q > 0 && load<u8>(needle + q) != c) q = load<u32>(fail + ((q - 1) << 2));
    if (load<u8>(needle + q) == c) q++;
    if (q == needleLength) return <isize>(i + 1 - needleLength);
  }
  return -1;
}

/**
 * Whether `pattern` matches a prefix of `path`, knowing its literal prefix already matched.
 * The pattern is split at `*` into literal segments; each is taken at its leftmost occurrence,
 * which is optimal for `*`-only patterns, so there is no backtracking. A final `$` pins the last
 * segment to the end of the path.
 */
function matchesAfterPrefix(path: usize, pathLength: usize, pattern: usize, patternLength: usize, prefix: usize, anchored: bool): bool {
  const end = anchored ? patternLength - 1 : patternLength;
  if (prefix == end) return !anchored || pathLength == prefix;
  let pos = prefix;
  let at = prefix + 1; // skip the `*` after the prefix
  while (true) {
    let star = at;
    while (star < end && load<u8>(pattern + star) != Char.STAR) star++;
    const segmentLength = star - at;
    if (star == end) {
      if (!anchored) return indexOf(path, pos, pathLength, pattern + at, segmentLength) >= 0;
      return pathLength - pos >= segmentLength &&
        memory.compare(path + pathLength - segmentLength, pattern + at, segmentLength) == 0;
    }
    const found = indexOf(path, pos, pathLength, pattern + at, segmentLength);
    if (found < 0) return false;
    pos = <usize>found + segmentLength;
    at = star + 1;
  }
  return false;
}

/** Whether a rule's pattern matches the path. */
function ruleMatches(table: RuleTable, rule: u32, path: usize, pathLength: usize): bool {
  const prefix = <usize>table.ruleField(rule, RuleField.PREFIX_LENGTH);
  if (prefix > pathLength) return false;
  const pattern = table.pool.data + table.ruleField(rule, RuleField.PATTERN_START);
  if (memory.compare(path, pattern, prefix) != 0) return false;
  const flags = table.ruleField(rule, RuleField.FLAGS);
  if ((flags & (RuleFlag.WILDCARD | RuleFlag.ANCHORED)) == 0) return true;
  const patternLength = <usize>table.ruleField(rule, RuleField.PATTERN_LENGTH);
  return matchesAfterPrefix(path, pathLength, pattern, patternLength, prefix, (flags & RuleFlag.ANCHORED) != 0);
}

/** The first selected rule matching the path, or -1. */
export function decide(table: RuleTable, path: usize, pathLength: usize): i32 {
  const selected = table.selectedRules;
  const count = selected.length >> 2;
  for (let i: usize = 0; i < count; i++) {
    const rule = selected.u32At(i);
    if (ruleMatches(table, rule, path, pathLength)) return <i32>rule;
  }
  return -1;
}

/**
 * Writes the indices of every selected rule matching the URL, in decision order (the winner
 * first), to `out` (room for `capacity`); returns how many match. For explanations, not batches.
 */
export function matchAll(table: RuleTable, url: usize, urlLength: usize, out: usize, capacity: u32): u32 {
  if (table.scope == Scope.NONE) return 0;
  preparePath(table, url, urlLength);
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
let pathPointer: usize = 0;
let pathLength: usize = 0;

function preparePath(table: RuleTable, url: usize, urlLength: usize): void {
  locatePath(url, urlLength);
  let start = pathStart;
  let end = pathEnd;
  const google = table.profile == Profile.GOOGLE;
  if (google) {
    // Google-specific: the path is handed to the matcher as a C string; a NUL ends it.
    for (let i = start; i < end; i++) {
      if (load<u8>(url + i) == 0) {
        end = i;
        break;
      }
    }
  }
  const needsSlash = pathNeedsSlash || start == end;
  if (google && !needsSlash) {
    pathPointer = url + start;
    pathLength = end - start;
    return;
  }
  const rawLength = end - start;
  const dst = pathScratch.reserve(rawLength * 3 + 1) ;
  let written: usize = 0;
  if (needsSlash) store<u8>(dst, Char.SLASH);
  if (needsSlash) written = 1;
  if (google) {
    memory.copy(dst + written, url + start, rawLength);
    written += rawLength;
  } else {
    written += normalizePath(url + start, rawLength, dst + written);
  }
  pathPointer = dst;
  pathLength = written;
}

/** RFC 9309 2.2.2: the robots.txt URI itself is implicitly allowed. */
function isRobotsTxtPath(path: usize, length: usize): bool {
  let end: usize = 0;
  while (end < length && load<u8>(path + end) != Char.QUESTION) end++;
  if (end != 11) return false;
  const expected = "/robots.txt";
  for (let i: usize = 0; i < 11; i++) {
    if (<u32>load<u8>(path + i) != <u32>expected.charCodeAt(<i32>i)) return false;
  }
  return true;
}

/** Decides one URL; returns the winning rule index or -1 (no rule: allowed). */
export function decideUrl(table: RuleTable, url: usize, urlLength: usize): i32 {
  if (table.scope == Scope.NONE || table.selectedRules.length == 0) return -1;
  preparePath(table, url, urlLength);
  if (table.profile == Profile.RFC9309 && isRobotsTxtPath(pathPointer, pathLength)) return -1;
  return decide(table, pathPointer, pathLength);
}

/** 1 if the winning rule (or its absence) allows the URL. */
// @ts-ignore: decorator
@inline export function verdictOf(table: RuleTable, rule: i32): u32 {
  if (rule < 0) return 1;
  const flags = table.ruleField(<u32>rule, RuleField.FLAGS);
  // An empty Disallow matches with priority 0 and decides nothing.
  return (flags & RuleFlag.ALLOW) != 0 || table.ruleField(<u32>rule, RuleField.PRIORITY) == 0 ? 1 : 0;
}
