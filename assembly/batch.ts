// Deciding a batch of URLs. Paths that the match plan's DFA decides are queued and walked four at
// a time (dfa.ts: interleaved walks overlap their table loads); the others are decided one by one.

import { Dfa, dfaBestRanks4, GAVE_UP } from "./dfa";
import { LOOK_UP, lookUp, pathInPlace, pathLength, pathPointer, prepareUrl, ruleOfRank, verdictOf } from "./match";
import { lineEnd } from "./normalize";
import { bestRank, MatchPlan } from "./plan";
import { RuleField, RuleTable } from "./table";

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

/** The queue: (path, length) u32 pairs, the URLs' positions in the batch, and the answers. */
const lanes: usize = heap.alloc(32);
const laneUrls: usize = heap.alloc(16);
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
    if (rule == LOOK_UP) {
      const dfa = changetype<MatchPlan>(table.plan).dfa;
      // A path in scratch is overwritten by the next URL's: it cannot wait in the queue.
      if (dfa && pathInPlace && !changetype<Dfa>(dfa).gaveUp) {
        store<u32>(lanes + (queued << 3), <u32>pathPointer);
        store<u32>(lanes + (queued << 3), <u32>pathLength, 4);
        store<u32>(laneUrls + (queued << 2), done);
        queued++;
        if (queued == 4) {
          decideQueue(table, changetype<Dfa>(dfa), verdicts, details, mode);
          queued = 0;
        }
        done++;
        continue;
      }
      rule = lookUp(table, pathPointer, pathLength);
    }
    writeAnswer(table, done, rule, verdicts, details, mode);
    done++;
  }
  for (let k: usize = 0; k < queued; k++) {
    const rule = lookUp(table, <usize>load<u32>(lanes + (k << 3)), <usize>load<u32>(lanes + (k << 3), 4));
    writeAnswer(table, load<u32>(laneUrls + (k << 2)), rule, verdicts, details, mode);
  }
  return done;
}

function decideQueue(table: RuleTable, dfa: Dfa, verdicts: usize, details: usize, mode: u32): void {
  dfaBestRanks4(dfa, lanes, laneRanks);
  const plan = changetype<MatchPlan>(table.plan);
  for (let k: usize = 0; k < 4; k++) {
    let rank = load<u32>(laneRanks + (k << 2));
    // The DFA gave up on its cache: the tree decides.
    if (rank == GAVE_UP) rank = bestRank(table, plan, <usize>load<u32>(lanes + (k << 3)), <usize>load<u32>(lanes + (k << 3), 4));
    writeAnswer(table, load<u32>(laneUrls + (k << 2)), ruleOfRank(table, rank), verdicts, details, mode);
  }
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
