// Deciding a batch of URLs. Paths that lie in the batch's bytes are queued, and the queue decided
// together: four at a time by the match plan's DFA (dfa.ts: interleaved walks overlap their table
// loads), else one by one. Most lines of a batch share a scheme and authority, and their paths
// are found and queued by a loop of their own (queueKnownLines).

import { Char } from "./chars";
import { Dfa, dfaBestRanks4, GAVE_UP } from "./dfa";
import { LOOK_UP, lookUp, pathInPlace, pathLength, pathPointer, prepareUrl, ROBOTS_TXT_PATH, ruleOfRank, verdictOf } from "./match";
import { knownBytes, knownLength, lineEnd } from "./normalize";
import { bytesEqual } from "./pattern";
import { MatchPlan, verdictOfRank } from "./plan";
import { Profile, RuleField, RuleTable, Scope } from "./table";
import { bestRank } from "./walk";

/** matchBatch mode bits (src/wasm.ts MatchMode). */
const enum Mode {
  /** Write the u32 matching line per URL to `details` (0: no rule matched). */
  LINES = 1,
  /** Write the u32 winning rule index + 1 per URL to `details` (0: none). */
  RULES = 2,
  /** Newline batches: remove one CR before each LF. */
  STRIP_CR = 4,
}

/** The count meaning "every line of the batch, none after a final LF". */
const ALL_LINES: u32 = 0xffffffff;

/**
 * The queue of paths waiting for a decision: (path, length) u32 pairs, the URLs' positions in the
 * batch, and the answers of four. A multiple of four lanes (dfa.ts walks four paths at once).
 */
const QUEUE_LANES: usize = 64;
const lanes: usize = heap.alloc(QUEUE_LANES << 3);
const laneUrls: usize = heap.alloc(QUEUE_LANES << 2);
const laneRanks: usize = heap.alloc(16);

/** See index.ts matchBatch. */
export function decideBatch(
  table: RuleTable, urls: usize, urlsLength: usize, offsets: usize, count: u32,
  verdicts: usize, details: usize, mode: u32,
): u32 {
  const stripCr = (mode & Mode.STRIP_CR) != 0;
  let lineStart: usize = 0;
  let done: u32 = 0;
  let queued: usize = 0;
  while (done < count) {
    if (offsets == 0 && knownLength != 0 && table.plan != null && table.scope != Scope.NONE && table.selectedRules.length != 0) {
      const taken = queueKnownLines(table, urls, lineStart, urlsLength, done, count, queued, stripCr);
      if (taken != 0) {
        done += taken;
        queued += taken;
        lineStart = nextLineStart;
        if (queued == QUEUE_LANES) {
          decideQueue(table, queued, verdicts, details, mode);
          queued = 0;
        }
        continue;
      }
    }
    let rule: i32;
    if (offsets != 0) {
      const start = <usize>load<u32>(offsets + (<usize>done << 2));
      const end = <usize>load<u32>(offsets + (<usize>(done + 1) << 2));
      rule = prepareUrl(table, urls, start, end, false, false);
    } else {
      if (lineStart > urlsLength || (count == ALL_LINES && lineStart == urlsLength)) break;
      rule = prepareUrl(table, urls, lineStart, urlsLength, true, stripCr);
      lineStart = lineEnd + 1;
    }
    // A path in scratch is overwritten by the next URL's: it cannot wait in the queue.
    if (rule == LOOK_UP && pathInPlace) {
      store<u32>(lanes + (queued << 3), <u32>pathPointer);
      store<u32>(lanes + (queued << 3), <u32>pathLength, 4);
      store<u32>(laneUrls + (queued << 2), done);
      queued++;
      if (queued == QUEUE_LANES) {
        decideQueue(table, queued, verdicts, details, mode);
        queued = 0;
      }
      done++;
      continue;
    }
    if (rule == LOOK_UP) rule = lookUp(table, pathPointer, pathLength);
    writeAnswer(table, done, rule, verdicts, details, mode);
    done++;
  }
  decideQueue(table, queued, verdicts, details, mode);
  return done;
}

/** Decides the first `count` queued paths: four at a time by the plan's DFA, the rest one by one. */
function decideQueue(table: RuleTable, count: usize, verdicts: usize, details: usize, mode: u32): void {
  if (count == 0) return;
  // Queued paths were prepared for lookUp: the plan exists.
  const plan = changetype<MatchPlan>(table.plan);
  const dfa = plan.dfa;
  let k: usize = 0;
  if (dfa) {
    for (; k + 4 <= count; k += 4) {
      dfaBestRanks4(changetype<Dfa>(dfa), lanes + (k << 3), laneRanks);
      for (let j: usize = 0; j < 4; j++) {
        let rank = load<u32>(laneRanks + (j << 2));
        const lane = k + j;
        // The DFA gave up on its cache: the tree decides.
        if (rank == GAVE_UP) rank = bestRank(table, plan, <usize>load<u32>(lanes + (lane << 3)), <usize>load<u32>(lanes + (lane << 3), 4));
        writeRankAnswer(table, plan, load<u32>(laneUrls + (lane << 2)), rank, verdicts, details, mode);
      }
    }
  }
  for (; k < count; k++) {
    const rank = bestRank(table, plan, <usize>load<u32>(lanes + (k << 3)), <usize>load<u32>(lanes + (k << 3), 4));
    writeRankAnswer(table, plan, load<u32>(laneUrls + (k << 2)), rank, verdicts, details, mode);
  }
}

/** Where queueKnownLines stopped: the start of the first line it did not take. */
let nextLineStart: usize = 0;

/**
 * The common line of a batch, taken in a loop without calls (so that its state stays in
 * registers): it starts with the scheme and authority of a recent URL (normalize.ts knownBytes)
 * and a `/`, and its path needs nothing done to it, so it is queued where it lies. prepareUrl
 * would find the same path: after those bytes its scan stops at the first `#`, NUL (google) or LF,
 * and a path that RFC 9309 rewrites (`%`, `*`, `$`, bytes >= 0x80) or allows (/robots.txt) is left
 * to it. Queues lines from `lineStart` (URL number `url`) until one is not such a line, `count`
 * URLs are done, or the queue (`queued` lanes taken) is full; returns how many it queued.
 */
function queueKnownLines(
  table: RuleTable, base: usize, lineStart: usize, limit: usize, url: u32, count: u32, queued: usize, stripCr: bool,
): u32 {
  // One loop per profile, each with only the tests its profile needs.
  return table.profile == Profile.RFC9309
    ? queueLines(true, base, lineStart, limit, url, count, queued, stripCr)
    : queueLines(false, base, lineStart, limit, url, count, queued, stripCr);
}

// @ts-ignore: decorator
@inline function queueLines(
  rfc: bool, base: usize, lineStart: usize, limit: usize, url: u32, count: u32, queued: usize, stripCr: bool,
): u32 {
  const known = <usize>knownLength;
  // Sixteen known bytes or more (most origins): compared as two overlapping vectors.
  const wide = known >= 16;
  const head = v128.load(knownBytes);
  const tail = v128.load(knownBytes + (wide ? known - 16 : 0));
  const memoryEnd = <usize>memory.size() << 16;
  let start = lineStart;
  let slot = queued;
  let taken: u32 = 0;
  while (slot < QUEUE_LANES && url + taken < count) {
    if (start + known > limit) break;
    const line = base + start;
    if (wide ? v128.any_true(v128.or(v128.xor(v128.load(line), head), v128.xor(v128.load(line + known - 16), tail))) : !bytesEqual(line, knownBytes, known)) break;
    const at = start + known - 1;
    if (load<u8>(base + at) != Char.SLASH) break;
    // The first 64 bytes of the path in one go (most paths end there: no loop exit to mispredict),
    // then sixteen at a time; bytes past the limit are ignored, bytes past memory never read.
    let end = at + 1;
    let readable = true;
    let found = false;
    if (base + end + 64 <= memoryEnd) {
      const p = base + end;
      const mask = <u64>stopMask(rfc, v128.load(p)) | (<u64>stopMask(rfc, v128.load(p, 16)) << 16) |
        (<u64>stopMask(rfc, v128.load(p, 32)) << 32) | (<u64>stopMask(rfc, v128.load(p, 48)) << 48);
      if (mask != 0) {
        end += <usize>ctz(mask);
        found = true;
      } else {
        end += 64;
      }
    }
    while (!found && end < limit) {
      if (base + end + 16 > memoryEnd) {
        readable = false;
        break;
      }
      const mask = stopMask(rfc, v128.load(base + end));
      if (mask != 0) {
        end += <usize>ctz(mask);
        break;
      }
      end += 16;
    }
    if (!readable) break;
    if (end > limit) end = limit;
    if (end < limit && load<u8>(base + end) != Char.LF) break;
    let to = end;
    if (stripCr && load<u8>(base + to - 1) == Char.CR) to--;
    // RFC 9309 allows /robots.txt itself: prepareUrl decides such lines.
    if (rfc && to - at >= 11 && bytesEqual(base + at, ROBOTS_TXT_PATH, 11)) break;
    store<u32>(lanes + (slot << 3), <u32>(base + at));
    store<u32>(lanes + (slot << 3), <u32>(to - at), 4);
    store<u32>(laneUrls + (slot << 2), url + taken);
    slot++;
    taken++;
    start = end + 1;
  }
  nextLineStart = start;
  return taken;
}

/**
 * A bit per byte of `x` that ends the scan of a path in queueLines: `#`, LF, and NUL (google) or
 * `%`, `*`, `$` and bytes >= 0x80 (rfc9309: paths it rewrites are left to prepareUrl).
 */
// @ts-ignore: decorator
@inline function stopMask(rfc: bool, x: v128): u32 {
  let hits = v128.or(i8x16.eq(x, i8x16.splat(<i8>Char.HASH)), i8x16.eq(x, i8x16.splat(<i8>Char.LF)));
  if (rfc) {
    hits = v128.or(v128.or(hits, i8x16.eq(x, i8x16.splat(<i8>Char.PERCENT))), v128.or(i8x16.eq(x, i8x16.splat(<i8>Char.STAR)), i8x16.eq(x, i8x16.splat(<i8>Char.DOLLAR))));
    // bitmask collects sign bits: bytes >= 0x80 mark themselves.
    hits = v128.or(hits, x);
  } else {
    hits = v128.or(hits, i8x16.eq(x, i8x16.splat(0)));
  }
  return i8x16.bitmask(hits);
}

/** writeAnswer for a rank of the plan: verdicts alone come from the plan's table of them. */
// @ts-ignore: decorator
@inline function writeRankAnswer(table: RuleTable, plan: MatchPlan, url: u32, rank: u32, verdicts: usize, details: usize, mode: u32): void {
  if (mode & (Mode.LINES | Mode.RULES)) writeAnswer(table, url, ruleOfRank(table, rank), verdicts, details, mode);
  else store<u8>(verdicts + url, verdictOfRank(plan, rank));
}

// @ts-ignore: decorator
@inline function writeAnswer(table: RuleTable, url: u32, rule: i32, verdicts: usize, details: usize, mode: u32): void {
  store<u8>(verdicts + url, verdictOf(table, rule));
  if (mode & Mode.LINES) {
    store<u32>(details + (<usize>url << 2), rule < 0 ? 0 : table.ruleField(<u32>rule, RuleField.LINE));
  } else if (mode & Mode.RULES) {
    store<u32>(details + (<usize>url << 2), <u32>(rule + 1));
  }
}
