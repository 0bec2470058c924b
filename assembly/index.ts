// The only module that exports to the host. Everything crosses as numbers: pointers into linear
// memory, lengths, counts. See src/wasm.ts for the host side of this interface.

import { decideBatch } from "./batch";
import { matchAll as matchAllRules, releaseLongPath } from "./match";
import { selectAgents as select } from "./select";
import { keptBytes } from "./kept-selections";
import { buildPlan, expandWholeTree, MatchPlan, setWildcardIndexLimit } from "./plan";
import { setDfaLimits } from "./dfa";
import { groupsSorted } from "./byte-groups";
import { indexesRebuilt } from "./grams-build";
import { compileRobots } from "./parse";
import { AGENT_FIELDS, RECORD_FIELDS, RuleField, RuleFlag, RuleTable, Scope } from "./table";
import { Char } from "./chars";
import { countByte } from "./scan";
import { formatTsv as writeTsv } from "./tsv";

/** Allocates `size` bytes for the host (input buffers, result arrays). */
export function allocate(size: usize): usize {
  return heap.alloc(size);
}

/** Frees memory from `allocate`. */
export function release(pointer: usize): void {
  heap.free(pointer);
}

/** Parses `length` bytes of robots.txt at `body` (profile 0 = google, 1 = rfc9309); returns a table handle. */
export function compile(body: usize, length: usize, profile: u32): usize {
  return changetype<usize>(compileRobots(body, length, profile));
}

/** Frees a table and everything it owns. */
export function freeTable(table: usize): void {
  changetype<RuleTable>(table).free();
}

/** Selects the groups for the agents encoded at `agents` (u32 length + bytes, repeated); returns the scope (0 none, 1 specific, 2 global). */
export function selectAgents(table: usize, agents: usize, agentsLength: usize): u32 {
  return select(changetype<RuleTable>(table), agents, agentsLength);
}

/** Number of LF bytes in [bytes, bytes + length). */
export function countNewlines(bytes: usize, length: usize): u32 {
  return countByte(bytes, 0, length, Char.LF);
}

/**
 * Decides `count` URLs for the current agent selection. URL i is urls[offsets[i], offsets[i+1])
 * when `offsets` is non-zero, else the i-th LF-separated line of urls[0, urlsLength) (with
 * count 0xffffffff: every line, so the host need not count them first). Writes a verdict byte per
 * URL (1 = allowed) and the detail the mode asks for (batch.ts Mode); returns the number of URLs
 * decided.
 */
export function matchBatch(
  table: usize, urls: usize, urlsLength: usize, offsets: usize, count: u32,
  verdicts: usize, details: usize, mode: u32,
): u32 {
  const done = decideBatch(changetype<RuleTable>(table), urls, urlsLength, offsets, count, verdicts, details, mode);
  // Once per call, not per URL: the batch loop carries no test for it.
  releaseLongPath();
  return done;
}

/** Every selected rule matching one URL, winner first; see match.ts. */
export function matchAll(table: usize, url: usize, urlLength: usize, out: usize, capacity: u32): u32 {
  const found = matchAllRules(changetype<RuleTable>(table), url, urlLength, out, capacity);
  releaseLongPath();
  return found;
}

export function ruleLine(table: usize, rule: u32): u32 {
  return changetype<RuleTable>(table).ruleField(rule, RuleField.LINE);
}

/** 1 for allow, 0 for disallow. */
export function ruleIsAllow(table: usize, rule: u32): u32 {
  return changetype<RuleTable>(table).ruleField(rule, RuleField.FLAGS) & RuleFlag.ALLOW;
}

export function ruleGroup(table: usize, rule: u32): u32 {
  return changetype<RuleTable>(table).ruleField(rule, RuleField.GROUP);
}

export function rulePriority(table: usize, rule: u32): u32 {
  return changetype<RuleTable>(table).ruleField(rule, RuleField.PRIORITY);
}

/** 1 for the Google-specific `/dir/$` twin of an `/dir/index.htm...` allow rule. */
export function ruleIsIndexPage(table: usize, rule: u32): u32 {
  return (changetype<RuleTable>(table).ruleField(rule, RuleField.FLAGS) & RuleFlag.INDEX_PAGE) >> 1;
}

export function rulePatternPointer(table: usize, rule: u32): usize {
  const t = changetype<RuleTable>(table);
  return t.pool.data + t.ruleField(rule, RuleField.PATTERN_START);
}

export function rulePatternLength(table: usize, rule: u32): u32 {
  return changetype<RuleTable>(table).ruleField(rule, RuleField.PATTERN_LENGTH);
}

/** Number of compiled rules (index-page twins included). */
export function ruleCount(table: usize): u32 {
  return changetype<RuleTable>(table).ruleCount;
}

export function groupCount(table: usize): u32 {
  return changetype<RuleTable>(table).groupCount;
}

/** One byte per group, 1 if it decides for the agents of the last selectAgents call. */
export function selectedGroupsPointer(table: usize): usize {
  return changetype<RuleTable>(table).selectedGroups.data;
}

export function agentCount(table: usize): u32 {
  return <u32>(changetype<RuleTable>(table).agents.length / (AGENT_FIELDS << 2));
}

/** User-agent lines as u32 fields: group, global, token start, token length, line, value start, value length. */
export function agentsPointer(table: usize): usize {
  return changetype<RuleTable>(table).agents.data;
}

export function lineCount(table: usize): u32 {
  return <u32>(changetype<RuleTable>(table).lines.length >> 1);
}

/** Two bytes per line: LineKind, LineFlag bits. */
export function linesPointer(table: usize): usize {
  return changetype<RuleTable>(table).lines.data;
}

export function recordCount(table: usize): u32 {
  return <u32>(changetype<RuleTable>(table).records.length / (RECORD_FIELDS << 2));
}

/** Records as u32 fields: line, kind, group, key start, key length, value start, value length. */
export function recordsPointer(table: usize): usize {
  return changetype<RuleTable>(table).records.data;
}

/** Record keys and values and user-agent values (the records' and agents' text offsets point here). */
export function textPointer(table: usize): usize {
  return changetype<RuleTable>(table).text.data;
}

/** Bytes of linear memory the table holds (capacities of all its arrays). */
export function tableBytes(table: usize): usize {
  const t = changetype<RuleTable>(table);
  return offsetof<RuleTable>() + t.rules.capacity + t.order.capacity + t.pool.capacity + t.agents.capacity +
    t.records.capacity + t.text.capacity + t.lines.capacity + t.selectedFor.capacity + t.selectedGroups.capacity + t.selectedRules.capacity +
    (t.plan ? changetype<MatchPlan>(t.plan).bytes() : 0) + keptBytes(t);
}

/**
 * Builds the whole match plan of the current selection now (the tree otherwise grows as paths
 * reach it), so that the benchmark can report what a full plan costs. Returns tableBytes.
 */
export function expandPlan(table: usize): usize {
  const t = changetype<RuleTable>(table);
  if (t.selectionValid && t.scope != Scope.NONE && t.selectedRules.length > 0) {
    if (!t.plan) t.plan = buildPlan(t);
    expandWholeTree(t, changetype<MatchPlan>(t.plan));
  }
  return tableBytes(table);
}

/**
 * Nodes of the match plan with more wildcard rules than `limit` use the gram index (default 16).
 * For tests, which set 0 to send every wildcard rule through the index; plans built afterwards use it.
 */
export function configureWildcardIndex(limit: u32): void {
  setWildcardIndexLimit(limit);
}

/**
 * Limits of the lazy DFA (dfa.ts) for plans built afterwards: selections with more than
 * `positions` NFA positions use the tree (0: never the DFA), at most `states` states are cached,
 * and `giveUp` 0 keeps a thrashing cache resetting instead of handing over to the tree. For tests.
 */
export function configureDfa(positions: u32, states: u32, giveUp: u32): void {
  setDfaLimits(positions, states, giveUp != 0);
}

/**
 * How often the engine has met a hash flooded by a file since it started: 0, groupings of
 * patterns or prefixes given up for a sort (byte-groups.ts); 1, gram indexes built again under
 * another multiplier (grams-build.ts). For tests, which check that a file floods the engine's own
 * hashes and that an ordinary one does not.
 */
export function floodCount(kind: u32): u32 {
  return kind == 0 ? groupsSorted : indexesRebuilt;
}

// ---- Robots meta tags (assembly/meta.ts) ----------------------------------------------------

import { META_FIELDS, scanMetaTags as scanMeta } from "./meta";
import { Vec } from "./vec";

/** Scans `length` bytes of HTML for meta tags with a `name` attribute; returns a result handle. */
export function scanMetaTags(html: usize, length: usize): usize {
  return changetype<usize>(scanMeta(html, length));
}

/** Number of meta tags in a scan result. */
export function metaTagCount(scan: usize): u32 {
  return <u32>(changetype<Vec>(scan).length / (META_FIELDS << 2));
}

/** Seven u32 per meta tag: tag start, tag end, name start, name length, content start, content length, flags. */
export function metaTagsPointer(scan: usize): usize {
  return changetype<Vec>(scan).data;
}

/** Frees a scan result. */
export function freeMetaTags(scan: usize): void {
  changetype<Vec>(scan).free();
}

/**
 * `robots check`'s TSV lines for a classified newline batch (see assembly/tsv.ts); `ruleOffsets`
 * 0 for no rule text column. Returns the bytes written to `out`, or -1 if they would not fit in
 * `capacity` (or the batch or line numbers do not match the counts).
 */
export function formatTsv(
  batch: usize, length: usize, verdicts: usize, lines: usize, count: u32,
  ruleOffsets: usize, ruleLineCount: u32, ruleText: usize, out: usize, capacity: usize,
): isize {
  return writeTsv(batch, length, verdicts, lines, count, ruleOffsets, ruleLineCount, ruleText, out, capacity);
}
