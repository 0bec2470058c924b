// A lazily built DFA over the rules of a small selection: one table lookup per path byte decides
// a URL, however the rules mix literals, `*` and `$`. Most robots.txt files are small, and there
// the tree walk plus a mask test per root wildcard (walk.ts) costs more than reading the path once.
//
// The NFA has one *position* per pattern byte and one final position per rule (rules are the
// selection's distinct patterns, known by rank as in plan.ts). A `*` position loops on every byte;
// a literal position advances on its byte. A DFA state is the set of live positions, built the
// first time a (state, byte class) transition is taken (as RE2 does), so only the states paths
// actually reach exist. A state also knows the best rank matched on the way to it (the final
// position of a rule without `$` is a match of a prefix of the path), so a walk reads nothing but
// transitions; positions that cannot beat that rank are dropped. Each state keeps:
// - best: the best rank matched so far;
// - answer: the best rank if the path ends here (best, or a `$` rule ending here);
// and a state without positions left is *done*: the rest of the path cannot change its answer.
// Transitions into a done state are flagged so that a walk stops there.
//
// States live in a bounded cache. When it is full it is emptied and refilled from the current
// state (RE2's reset); if it fills again within fewer URLs than it holds states, the DFA gives up
// for good and the plan's tree answers instead.

import { NO_RANK, RuleField, RuleFlag, RuleTable } from "./table";
import { Char } from "./chars";
import { bytesEqual } from "./pattern";
import { Vec } from "./vec";

/** dfaBestRank's answer when the DFA has given up: ask the tree. */
export const GAVE_UP: u32 = 0xfffffffe;

/** What a position is (bits 8-9 of its word; bits 0-7 hold a literal's byte class, 12-31 the rank). */
const enum Kind {
  LITERAL = 0,
  STAR = 1,
  /** The end of a rule without `$`: reaching it is a match. */
  FINAL = 2,
  /** The end of a `$` rule: a match only if the path ends there. */
  FINAL_ANCHORED = 3,
}
const RANK_SHIFT: u32 = 12;
/** Ranks must fit in the position word. */
const MAX_RANK: u32 = (1 << (32 - RANK_SHIFT)) - 1;

/** u32 fields at the start of each state's row, before its transitions (a u16 per byte class). */
const enum RowField {
  BEST = 0,
  ANSWER = 1,
  /** The state's positions: a u16 list in `sets` (none: the state is done). */
  SET_START = 2,
  SET_COUNT = 3,
  COUNT = 4,
}
const ROW_HEADER: usize = RowField.COUNT << 2;
/** Rows are multiples of this, so that bit 0 of a transition is free for STOP. */
const ROW_ALIGN: usize = 16;

/**
 * A transition is a u16: the target's row offset in units of 8 bytes (always even), with bit 0
 * (STOP) set when the target is done; UNKNOWN (odd too) until it is built.
 */
const UNKNOWN: u32 = 0xffff;
const STOP: u32 = 1;
/** Rows stay below 0xfffe units of 8 bytes, so that every offset fits in a transition. */
const ROWS_LIMIT: usize = 0xfffe << 3;

/** Selections with more NFA positions than this use the tree (tests set 0 to turn the DFA off). */
let positionLimit: u32 = 4096;
/**
 * Cached states per DFA before a reset; the rows also stay under ROWS_LIMIT (512 KiB), and the
 * position lists under SET_BYTES (past it by one list at most), so that a DFA holds at most about
 * 1.3 MB with its hash. The cache grows only as paths reach new states. A million varied URLs on
 * the 2 KB benchmark file reach 13,000 transitions (700 KB in all): with half these rows and lists
 * the cache was reset four times per pass, and the refills made the pass 13% slower.
 */
let stateLimit: u32 = 16384;
let giveUpOnThrash = true;
const SET_BYTES: usize = 512 << 10;

/**
 * Whether a selection of `rules` rules may get a DFA: each rule takes at least one position. (A
 * larger one might fit after its repeated patterns are dropped, but finding them costs more than
 * such rare files gain: the tree answers them.)
 */
export function dfaMayFit(rules: u32): bool {
  return rules <= positionLimit;
}

/** For tests: the size limits, and whether a thrashing cache gives up (off: it only resets). */
export function setDfaLimits(positions: u32, states: u32, giveUp: bool): void {
  positionLimit = min<u32>(positions, 0xffff);
  stateLimit = max<u32>(states, 2);
  giveUpOnThrash = giveUp;
}

@unmanaged
export class Dfa {
  /** The class of each byte value (256 bytes); 0 for bytes no pattern holds. */
  classes: usize;
  classCount: u32;
  /** One u32 word per NFA position (see Kind). */
  positions: usize;
  positionCount: u32;
  /** The first position of each rule: the start state holds them all. */
  ruleStarts: usize;
  ruleCount: u32;
  rowBytes: u32;
  /** State rows: RowField.COUNT fields, then a transition per class; rowBytes is a multiple of ROW_ALIGN. */
  rows: Vec;
  /** The position lists of the states (u16). */
  sets: Vec;
  /** Open addressing from a position list to its row offset + 1 (0: empty slot). */
  slots: usize;
  slotCount: u32;
  stateCount: u32;
  maxStates: u32;
  startRow: u32;
  /** Scratch while a state is built: a bit per position, and the sorted list. */
  bits: usize;
  list: usize;
  urlsSinceReset: u32;
  resets: u32;
  gaveUp: bool;

  bytes(): usize {
    return offsetof<Dfa>() + 256 + (<usize>this.positionCount << 2) + (<usize>this.ruleCount << 2) + this.rows.capacity +
      this.sets.capacity + (<usize>this.slotCount << 2) + bitWords(this.positionCount) * 8 + (<usize>this.positionCount << 1);
  }

  free(): void {
    if (laneClassesOf == changetype<usize>(this)) laneClassesOf = 0;
    heap.free(this.classes);
    heap.free(this.positions);
    heap.free(this.ruleStarts);
    this.rows.free();
    this.sets.free();
    heap.free(this.slots);
    heap.free(this.bits);
    heap.free(this.list);
    heap.free(changetype<usize>(this));
  }
}

// @ts-ignore: decorator
@inline function bitWords(positions: u32): usize {
  return (<usize>positions + 63) >> 6;
}

// @ts-ignore: decorator
@inline function positionWord(dfa: Dfa, position: u32): u32 {
  return load<u32>(dfa.positions + (<usize>position << 2));
}

// ---- Building --------------------------------------------------------------------------------

/**
 * A DFA over the `count` distinct ranks at `ranks` (ascending), or null when the selection is too
 * large for one (then the tree decides).
 */
export function buildDfa(table: RuleTable, ranks: usize, count: u32): Dfa | null {
  if (count == 0) return null;
  const pool = table.pool.data;
  let positionCount: u32 = 0;
  for (let i: u32 = 0; i < count; i++) {
    const rank = load<u32>(ranks + (<usize>i << 2));
    if (rank > MAX_RANK) return null;
    positionCount += bodyLength(table, table.selectedRules.u32At(rank)) + 1;
    if (positionCount > positionLimit) return null;
  }

  const dfa = changetype<Dfa>(heap.alloc(offsetof<Dfa>()));
  // Byte classes: one per byte some pattern holds as a literal, 0 for the rest.
  dfa.classes = heap.alloc(256);
  memory.fill(dfa.classes, 0, 256);
  let classCount: u32 = 1;
  for (let i: u32 = 0; i < count; i++) {
    const rule = table.selectedRules.u32At(load<u32>(ranks + (<usize>i << 2)));
    const pattern = pool + table.ruleField(rule, RuleField.PATTERN_START);
    const length = bodyLength(table, rule);
    for (let p: u32 = 0; p < length; p++) {
      const c = <usize>load<u8>(pattern + p);
      if (c != Char.STAR && load<u8>(dfa.classes + c) == 0) store<u8>(dfa.classes + c, classCount++);
    }
  }
  dfa.classCount = classCount;

  dfa.positions = heap.alloc(<usize>positionCount << 2);
  dfa.positionCount = positionCount;
  dfa.ruleStarts = heap.alloc(<usize>count << 2);
  dfa.ruleCount = count;
  let at: u32 = 0;
  for (let i: u32 = 0; i < count; i++) {
    const rank = load<u32>(ranks + (<usize>i << 2));
    const rule = table.selectedRules.u32At(rank);
    const pattern = pool + table.ruleField(rule, RuleField.PATTERN_START);
    const length = bodyLength(table, rule);
    const rankBits = rank << RANK_SHIFT;
    store<u32>(dfa.ruleStarts + (<usize>i << 2), at);
    for (let p: u32 = 0; p < length; p++) {
      const c = <usize>load<u8>(pattern + p);
      const word = c == Char.STAR ? Kind.STAR << 8 : (Kind.LITERAL << 8) | <u32>load<u8>(dfa.classes + c);
      store<u32>(dfa.positions + (<usize>(at++) << 2), rankBits | word);
    }
    const anchored = (table.ruleField(rule, RuleField.FLAGS) & RuleFlag.ANCHORED) != 0;
    store<u32>(dfa.positions + (<usize>(at++) << 2), rankBits | ((anchored ? Kind.FINAL_ANCHORED : Kind.FINAL) << 8));
  }

  dfa.rowBytes = <u32>((ROW_HEADER + (<usize>classCount << 1) + ROW_ALIGN - 1) & ~(ROW_ALIGN - 1));
  dfa.maxStates = <u32>max<usize>(2, min<usize>(<usize>stateLimit, ROWS_LIMIT / <usize>dfa.rowBytes));
  // The hash grows with the states (a DFA that decides a few URLs stays small).
  dfa.slotCount = 64;
  dfa.slots = heap.alloc(64 << 2);
  dfa.rows = Vec.create(<usize>dfa.rowBytes * 16);
  dfa.sets = Vec.create(<usize>positionCount << 1);
  dfa.bits = heap.alloc(bitWords(positionCount) << 3);
  dfa.list = heap.alloc(<usize>positionCount << 1);
  dfa.gaveUp = false;
  dfa.resets = 0;
  reset(dfa);
  return dfa;
}

/** Pattern bytes without the final `$`. */
// @ts-ignore: decorator
@inline function bodyLength(table: RuleTable, rule: u32): u32 {
  const anchored = (table.ruleField(rule, RuleField.FLAGS) & RuleFlag.ANCHORED) != 0;
  return table.ruleField(rule, RuleField.PATTERN_LENGTH) - (anchored ? 1 : 0);
}

/** Empties the state cache and adds the start state. */
function reset(dfa: Dfa): void {
  dfa.rows.length = 0;
  dfa.sets.length = 0;
  dfa.stateCount = 0;
  memory.fill(dfa.slots, 0, <usize>dfa.slotCount << 2);
  dfa.urlsSinceReset = 0;
  clearBits(dfa);
  for (let i: u32 = 0; i < dfa.ruleCount; i++) addClosure(dfa, load<u32>(dfa.ruleStarts + (<usize>i << 2)));
  dfa.startRow = internState(dfa, NO_RANK);
}

function clearBits(dfa: Dfa): void {
  memory.fill(dfa.bits, 0, bitWords(dfa.positionCount) << 3);
}

/** Adds a position and, through `*` positions (which may match nothing), the ones after it. */
// @ts-ignore: decorator
@inline function addClosure(dfa: Dfa, position: u32): void {
  while (true) {
    const word = dfa.bits + (<usize>(position >> 6) << 3);
    store<u64>(word, load<u64>(word) | ((<u64>1) << (position & 63)));
    if (((positionWord(dfa, position) >> 8) & 3) != Kind.STAR) return;
    position++;
  }
}

/**
 * The state of the positions marked in `bits`, reached with `best` matched before: found in the
 * cache or added to it (the caller has made room). Returns its row offset.
 */
function internState(dfa: Dfa, best: u32): u32 {
  // The sorted position list, and the state's ranks.
  let accept = best;
  let count: u32 = 0;
  const words = bitWords(dfa.positionCount);
  for (let w: usize = 0; w < words; w++) {
    let bits = load<u64>(dfa.bits + (w << 3));
    while (bits != 0) {
      const position = <u32>((w << 6) + <usize>ctz(bits));
      bits &= bits - 1;
      const word = positionWord(dfa, position);
      if (((word >> 8) & 3) == Kind.FINAL) accept = min(accept, word >> RANK_SHIFT);
      store<u16>(dfa.list + (<usize>count << 1), position);
      count++;
    }
  }
  // Positions that cannot beat the best match never matter again; FINAL positions have given it.
  let kept: u32 = 0;
  let answer = accept;
  for (let i: u32 = 0; i < count; i++) {
    const position = <u32>load<u16>(dfa.list + (<usize>i << 1));
    const word = positionWord(dfa, position);
    const rank = word >> RANK_SHIFT;
    const kind = (word >> 8) & 3;
    if (kind == Kind.FINAL || rank >= accept) continue;
    if (kind == Kind.FINAL_ANCHORED) answer = min(answer, rank);
    store<u16>(dfa.list + (<usize>kept << 1), position);
    kept++;
  }

  const hash = listHash(dfa.list, kept, accept);
  const mask = dfa.slotCount - 1;
  let slot = hash & mask;
  while (true) {
    const entry = load<u32>(dfa.slots + (<usize>slot << 2));
    if (entry == 0) break;
    const row = dfa.rows.data + <usize>(entry - 1);
    if (load<u32>(row, RowField.BEST << 2) == accept && load<u32>(row, RowField.SET_COUNT << 2) == kept &&
      bytesEqual(dfa.sets.data + (<usize>load<u32>(row, RowField.SET_START << 2) << 1), dfa.list, <usize>kept << 1)) {
      return entry - 1;
    }
    slot = (slot + 1) & mask;
  }

  if ((dfa.stateCount + 1) * 2 > dfa.slotCount) {
    growSlots(dfa);
    slot = hash & (dfa.slotCount - 1);
    while (load<u32>(dfa.slots + (<usize>slot << 2)) != 0) slot = (slot + 1) & (dfa.slotCount - 1);
  }
  const rowOffset = <u32>dfa.rows.length;
  const rows = dfa.rows;
  if (rows.length + dfa.rowBytes > rows.capacity) {
    // Doubling, but never past the cache's size.
    const capacity = min<usize>(rows.capacity << 1, <usize>dfa.maxStates * dfa.rowBytes);
    rows.data = heap.realloc(rows.data, capacity);
    rows.capacity = capacity;
  }
  const row = rows.data + rows.length;
  rows.length += dfa.rowBytes;
  store<u32>(row, accept, RowField.BEST << 2);
  store<u32>(row, answer, RowField.ANSWER << 2);
  store<u32>(row, <u32>(dfa.sets.length >> 1), RowField.SET_START << 2);
  store<u32>(row, kept, RowField.SET_COUNT << 2);
  memory.fill(row + ROW_HEADER, 0xff, <usize>dfa.classCount << 1);
  dfa.sets.pushBytes(dfa.list, <usize>kept << 1);
  store<u32>(dfa.slots + (<usize>slot << 2), rowOffset + 1);
  dfa.stateCount++;
  return rowOffset;
}

/** Doubles the hash and files every cached state again. */
function growSlots(dfa: Dfa): void {
  heap.free(dfa.slots);
  dfa.slotCount <<= 1;
  dfa.slots = heap.alloc(<usize>dfa.slotCount << 2);
  memory.fill(dfa.slots, 0, <usize>dfa.slotCount << 2);
  const mask = dfa.slotCount - 1;
  for (let offset: usize = 0; offset < dfa.rows.length; offset += dfa.rowBytes) {
    const row = dfa.rows.data + offset;
    const set = dfa.sets.data + (<usize>load<u32>(row, RowField.SET_START << 2) << 1);
    let slot = listHash(set, load<u32>(row, RowField.SET_COUNT << 2), load<u32>(row, RowField.BEST << 2)) & mask;
    while (load<u32>(dfa.slots + (<usize>slot << 2)) != 0) slot = (slot + 1) & mask;
    store<u32>(dfa.slots + (<usize>slot << 2), <u32>offset + 1);
  }
}

// @ts-ignore: decorator
@inline function listHash(list: usize, count: u32, accept: u32): u32 {
  let h: u32 = (count * 0x9e3779b1) ^ accept;
  for (let i: u32 = 0; i < count; i++) {
    h = (h ^ <u32>load<u16>(list + (<usize>i << 1))) * 0x85ebca6b;
    h ^= h >>> 15;
  }
  return h;
}

/**
 * Builds the transition of the state at `rowOffset` on byte class `cls` and returns the target's
 * row offset, or GAVE_UP. A full cache is reset first (the target is then the only state besides
 * the start state), so the caller must re-read the rows.
 */
function step(dfa: Dfa, rowOffset: u32, cls: u32): u32 {
  clearBits(dfa);
  const row = dfa.rows.data + <usize>rowOffset;
  const best = load<u32>(row, RowField.BEST << 2);
  const set = dfa.sets.data + (<usize>load<u32>(row, RowField.SET_START << 2) << 1);
  const count = load<u32>(row, RowField.SET_COUNT << 2);
  for (let i: u32 = 0; i < count; i++) {
    const position = <u32>load<u16>(set + (<usize>i << 1));
    const word = positionWord(dfa, position);
    const kind = (word >> 8) & 3;
    if (kind == Kind.STAR) addClosure(dfa, position);
    else if (kind == Kind.LITERAL && (word & 0xff) == cls) addClosure(dfa, position + 1);
    // A final position has no transition: a `$` rule needs the path to end there.
  }
  if (dfa.stateCount >= dfa.maxStates || dfa.sets.length >= SET_BYTES) {
    // Reset with the target's positions kept aside in `bits` (reset rebuilds the start state in
    // them, so the target is interned first, into the emptied cache).
    // The first fill may be warm-up; a second one as fast means the paths need more states
    // than the cache holds.
    if (giveUpOnThrash && dfa.resets > 0 && dfa.urlsSinceReset < dfa.maxStates) {
      dfa.gaveUp = true;
      return GAVE_UP;
    }
    dfa.resets++;
    const saved = heap.alloc(bitWords(dfa.positionCount) << 3);
    memory.copy(saved, dfa.bits, bitWords(dfa.positionCount) << 3);
    reset(dfa);
    memory.copy(dfa.bits, saved, bitWords(dfa.positionCount) << 3);
    heap.free(saved);
    return internState(dfa, best);
  }
  const target = internState(dfa, best);
  // `rows` may have moved while the target was added. A done state's own transitions lead back
  // to it without STOP, so that walks in step can keep going through it.
  const rows = dfa.rows.data;
  const stop = isDone(rows + <usize>target) && !isDone(rows + <usize>rowOffset);
  store<u16>(rows + <usize>rowOffset + ROW_HEADER + (<usize>cls << 1), (target >> 3) | (stop ? STOP : 0));
  return target;
}

// ---- Matching --------------------------------------------------------------------------------

// @ts-ignore: decorator
@inline function isDone(row: usize): bool {
  return load<u32>(row, RowField.SET_COUNT << 2) == 0;
}

// @ts-ignore: decorator
@inline function answerOf(row: usize): u32 {
  return load<u32>(row, RowField.ANSWER << 2);
}

/** The best rank matching the path, NO_RANK for none, or GAVE_UP when the tree must decide. */
export function dfaBestRank(dfa: Dfa, path: usize, length: usize): u32 {
  if (dfa.gaveUp) return GAVE_UP;
  dfa.urlsSinceReset++;
  return walk(dfa, dfa.startRow, path, 0, length);
}

/** Walks path[from, length) from the state at `rowOffset`. */
function walk(dfa: Dfa, rowOffset: u32, path: usize, from: usize, length: usize): u32 {
  const classes = dfa.classes;
  let rows = dfa.rows.data;
  let row = rows + <usize>rowOffset;
  if (isDone(row)) return answerOf(row);
  for (let i = from; i < length; i++) {
    const cls = <usize>load<u8>(classes + <usize>load<u8>(path + i));
    const next = <u32>load<u16>(row + ROW_HEADER + (cls << 1));
    if ((next & STOP) == 0) {
      row = rows + (<usize>next << 3);
      continue;
    }
    if (next != UNKNOWN) return answerOf(rows + (<usize>(next ^ STOP) << 3));
    const target = step(dfa, <u32>(row - rows), <u32>cls);
    if (target == GAVE_UP) return GAVE_UP;
    rows = dfa.rows.data;
    row = rows + <usize>target;
    // The rest of the path cannot change the answer.
    if (isDone(row)) return answerOf(row);
  }
  return answerOf(row);
}

/**
 * Decides four paths at once, given as (address, length) u32 pairs at `lanes`; writes their four
 * answers (as dfaBestRank's) to `out`. One walk waits on each of its table loads; walks in step
 * overlap theirs. The paths are taken shortest first and read in step, byte i of each at once:
 * four walks until the shortest path ends, then three, then two, then the longest alone. A done
 * walk stays in its state until its path ends.
 */
export function dfaBestRanks4(dfa: Dfa, lanes: usize, out: usize): void {
  if (dfa.gaveUp) {
    for (let k: usize = 0; k < 4; k++) store<u32>(out + (k << 2), GAVE_UP);
    return;
  }
  dfa.urlsSinceReset += 4;
  if (laneClassesOf != changetype<usize>(dfa)) {
    for (let b: usize = 0; b < 256; b++) store<u16>(LANE_CLASSES + (b << 1), ROW_HEADER + (<usize>load<u8>(dfa.classes + b) << 1));
    laneClassesOf = changetype<usize>(dfa);
  }
  // Sort the lanes by length: keys are length << 2 | lane, sorted by a network of min/max.
  let k0 = load<u32>(lanes, 4) << 2;
  let k1 = (load<u32>(lanes, 12) << 2) | 1;
  let k2 = (load<u32>(lanes, 20) << 2) | 2;
  let k3 = (load<u32>(lanes, 28) << 2) | 3;
  let t = min(k0, k1); k1 = max(k0, k1); k0 = t;
  t = min(k2, k3); k3 = max(k2, k3); k2 = t;
  t = min(k0, k2); k2 = max(k0, k2); k0 = t;
  t = min(k1, k3); k3 = max(k1, k3); k1 = t;
  t = min(k1, k2); k2 = max(k1, k2); k1 = t;
  const p0 = lanePath(lanes, k0);
  const p1 = lanePath(lanes, k1);
  const p2 = lanePath(lanes, k2);
  const p3 = lanePath(lanes, k3);
  const start = dfa.rows.data + <usize>dfa.startRow;
  for (let k: usize = 0; k < 4; k++) store<u32>(LANE_ROWS + (k << 2), <u32>start);
  let i = walkInStep(dfa, 4, p0, p1, p2, p3, 0, <usize>(k0 >> 2));
  if (i == GAVE_UP) return walkAlone(dfa, lanes, out);
  store<u32>(out + (<usize>(k0 & 3) << 2), answerOf(load<u32>(LANE_ROWS)));
  i = walkInStep(dfa, 3, p0, p1, p2, p3, i, <usize>(k1 >> 2));
  if (i == GAVE_UP) return walkAlone(dfa, lanes, out);
  store<u32>(out + (<usize>(k1 & 3) << 2), answerOf(load<u32>(LANE_ROWS, 4)));
  i = walkInStep(dfa, 2, p0, p1, p2, p3, i, <usize>(k2 >> 2));
  if (i == GAVE_UP) return walkAlone(dfa, lanes, out);
  store<u32>(out + (<usize>(k2 & 3) << 2), answerOf(load<u32>(LANE_ROWS, 8)));
  // The longest alone (it may reset the cache: the others are answered).
  store<u32>(out + (<usize>(k3 & 3) << 2), walk(dfa, <u32>(<usize>load<u32>(LANE_ROWS, 12) - dfa.rows.data), p3, i, <usize>(k3 >> 2)));
}

/**
 * Per byte value, the offset of its transition in a row (ROW_HEADER + 2 * class), for the DFA at
 * laneClassesOf (0: none; Dfa.free clears it). A fixed address keeps the walk's loads off a
 * register: four walks in step need every register they can get.
 */
const LANE_CLASSES = memory.data(512, 16);
let laneClassesOf: usize = 0;
/** The row address of each of the four lanes while they walk in step (lane k of a stage of n: 4 - n + k). */
const LANE_ROWS = memory.data(16, 16);

/**
 * Walks the last `count` of the four sorted lanes in step over bytes [from, end); returns `end`,
 * or GAVE_UP when the cache was reset or gave up (the walks' states are lost).
 */
// @ts-ignore: decorator
@inline function walkInStep(dfa: Dfa, count: u32, p0: usize, p1: usize, p2: usize, p3: usize, from: usize, end: usize): usize {
  let i = from;
  while (true) {
    const rows = dfa.rows.data;
    i = stepLanes(count, p0, p1, p2, p3, i, end, rows);
    if (i == end) return i;
    // A lane's transition is missing, or leads into a done state: every lane takes this byte
    // here (a done walk stays in its state), its state built if missing.
    const resets = dfa.resets;
    for (let k = 4 - count; k < 4; k++) {
      const path = k == 0 ? p0 : k == 1 ? p1 : k == 2 ? p2 : p3;
      // Rows may have moved while an earlier lane's state was built: the row by its offset.
      const row = <usize>load<u32>(LANE_ROWS + (<usize>k << 2)) - rows;
      const offset = <usize>load<u16>(LANE_CLASSES + (<usize>load<u8>(path + i) << 1));
      const next = follow(dfa, row, offset - ROW_HEADER, <u32>load<u16>(dfa.rows.data + row + offset));
      if (next == GAVE_UP || dfa.resets != resets) return GAVE_UP;
      // Until every lane has moved, keep this lane's next state as an offset: rows may move.
      store<u32>(LANE_ROWS + (<usize>k << 2), next);
    }
    const moved = dfa.rows.data;
    for (let k = 4 - count; k < 4; k++) {
      store<u32>(LANE_ROWS + (<usize>k << 2), <u32>(moved + (<usize>load<u32>(LANE_ROWS + (<usize>k << 2)) << 3)));
    }
    i++;
  }
}

/**
 * The last `count` (a constant: the other lanes fold away) of the four lanes in step while every
 * transition is known and none leads into a done state. The loop makes no calls, so that the
 * lanes' paths and rows stay in registers. Returns where it stopped (`end`, or the byte whose
 * transition needs walkInStep; no lane has taken it).
 */
// @ts-ignore: decorator
@inline function stepLanes(count: u32, p0: usize, p1: usize, p2: usize, p3: usize, from: usize, end: usize, rows: usize): usize {
  let r0 = count > 3 ? <usize>load<u32>(LANE_ROWS) : 0;
  let r1 = count > 2 ? <usize>load<u32>(LANE_ROWS, 4) : 0;
  let r2 = <usize>load<u32>(LANE_ROWS, 8);
  let r3 = <usize>load<u32>(LANE_ROWS, 12);
  let i = from;
  for (; i < end; i++) {
    const n0 = count > 3 ? <u32>load<u16>(r0 + transitionOffset(p0 + i)) : 0;
    const n1 = count > 2 ? <u32>load<u16>(r1 + transitionOffset(p1 + i)) : 0;
    const n2 = <u32>load<u16>(r2 + transitionOffset(p2 + i));
    const n3 = <u32>load<u16>(r3 + transitionOffset(p3 + i));
    if (((n0 | n1 | n2 | n3) & STOP) != 0) break;
    if (count > 3) r0 = rows + (<usize>n0 << 3);
    if (count > 2) r1 = rows + (<usize>n1 << 3);
    r2 = rows + (<usize>n2 << 3);
    r3 = rows + (<usize>n3 << 3);
  }
  if (count > 3) store<u32>(LANE_ROWS, <u32>r0);
  if (count > 2) store<u32>(LANE_ROWS, <u32>r1, 4);
  store<u32>(LANE_ROWS, <u32>r2, 8);
  store<u32>(LANE_ROWS, <u32>r3, 12);
  return i;
}

/** The offset in a row of the transition on the byte at `at` (LANE_CLASSES). */
// @ts-ignore: decorator
@inline function transitionOffset(at: usize): usize {
  return <usize>load<u16>(LANE_CLASSES + (<usize>load<u8>(at) << 1));
}

/** The path address of the lane a sort key names. */
// @ts-ignore: decorator
@inline function lanePath(lanes: usize, key: u32): usize {
  return <usize>load<u32>(lanes + (<usize>(key & 3) << 3));
}

/** A lane's transition without STOP (built first if missing), or GAVE_UP. */
// @ts-ignore: decorator
@inline function follow(dfa: Dfa, rowOffset: usize, classOffset: usize, next: u32): u32 {
  if (next != UNKNOWN) return next & ~STOP;
  const target = step(dfa, <u32>rowOffset, <u32>(classOffset >> 1));
  return target == GAVE_UP ? GAVE_UP : target >> 3;
}

/** The four lanes of dfaBestRanks4, each walked from the start state. */
function walkAlone(dfa: Dfa, lanes: usize, out: usize): void {
  for (let k: usize = 0; k < 4; k++) {
    store<u32>(out + (k << 2), dfaBestRank(dfa, <usize>load<u32>(lanes + (k << 3)), <usize>load<u32>(lanes + (k << 3), 4)));
  }
}
