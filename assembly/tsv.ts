// The TSV lines of `robots check`, written here rather than in JavaScript: at millions of URLs,
// a JavaScript loop writing a line per URL cost more than classifying the URL (about 150 ns
// against 60 on the 2 KB benchmark file). Here a line is a few vector stores.

import { Char } from "./chars";
import { findByte } from "./scan";

/**
 * Bytes a line may add to its URL and its rule text: "disallowed\t", "\t", ten digits, "\n",
 * and the slack of the 16-byte stores that write them (each store may run past what it writes;
 * the next one overwrites the excess).
 */
export const TSV_LINE_OVERHEAD: usize = 48;

/** "allowed\t" and "disallowed\t", 16 bytes each (zero padded), copied by one vector store. */
const ALLOWED_TEXT: usize = asciiBlock("allowed\t");
const DISALLOWED_TEXT: usize = asciiBlock("disallowed\t");

function asciiBlock(text: string): usize {
  const block = heap.alloc(16);
  memory.fill(block, 0, 16);
  for (let i = 0; i < text.length; i++) store<u8>(block + <usize>i, <u8>text.charCodeAt(i));
  return block;
}

/**
 * Copies `length` bytes from `from` to `to` sixteen at a time. It may write up to 15 bytes past
 * `to + length` (the caller's slack) and reads past `from + length` only within memory.
 */
// @ts-ignore: decorator
@inline function copyWide(to: usize, from: usize, length: usize, memoryEnd: usize): void {
  if (from + length + 16 > memoryEnd) {
    memory.copy(to, from, length);
    return;
  }
  for (let i: usize = 0; i < length; i += 16) v128.store(to + i, v128.load(from + i));
}

/** Writes `value` in decimal at `at`; returns the end. */
// @ts-ignore: decorator
@inline function writeDecimal(at: usize, value: u32): usize {
  let digits: usize = 1;
  for (let rest = value; rest >= 10; rest /= 10) digits++;
  for (let i = digits; i > 0; i--) {
    store<u8>(at + i - 1, Char.DIGIT_0 + value % 10);
    value /= 10;
  }
  return at + digits;
}

/** What formatTsv returns when its input does not fit: a caller's bug, never a trap. */
export const TSV_DOES_NOT_FIT: isize = -1;

/**
 * Writes one line per URL of the newline batch [batch, batch + length) to `out`: "allowed" or
 * "disallowed", a tab, the URL (its line, without one CR before the LF), a tab, the matching line
 * number from `lines` (u32 per URL), and with `ruleOffsets` a tab and the text of that line
 * (robots.txt line n < `ruleLineCount` is [ruleOffsets[n], ruleOffsets[n + 1]) of `ruleText`);
 * then an LF. `verdicts` holds a byte per URL (1: allowed). `out` holds `capacity` bytes, which
 * must be `length` + `count` * TSV_LINE_OVERHEAD plus the rule texts written. Returns the bytes
 * written, or TSV_DOES_NOT_FIT, before writing the line that would not fit, if a line would pass
 * `capacity`, the batch has fewer than `count` lines, or a line number has no rule text.
 */
export function formatTsv(
  batch: usize, length: usize, verdicts: usize, lines: usize, count: u32,
  ruleOffsets: usize, ruleLineCount: u32, ruleText: usize, out: usize, capacity: usize,
): isize {
  const memoryEnd = <usize>memory.size() << 16;
  const outEnd = out + capacity;
  let from: usize = 0;
  let at = out;
  for (let i: u32 = 0; i < count; i++) {
    if (from > length) return TSV_DOES_NOT_FIT;
    let end = findByte(batch, from, length, Char.LF);
    const next = end + 1;
    if (end > from && load<u8>(batch + end - 1) == Char.CR) end--;
    const line = load<u32>(lines + (<usize>i << 2));
    let textStart: usize = 0;
    let textLength: usize = 0;
    if (ruleOffsets != 0) {
      if (line >= ruleLineCount) return TSV_DOES_NOT_FIT;
      textStart = <usize>load<u32>(ruleOffsets + (<usize>line << 2));
      textLength = <usize>load<u32>(ruleOffsets + (<usize>(line + 1) << 2)) - textStart;
    }
    // One compare per line: the caller's sizing gives each line exactly this much room.
    if (outEnd - at < end - from + textLength + TSV_LINE_OVERHEAD) return TSV_DOES_NOT_FIT;
    const allowed = load<u8>(verdicts + <usize>i) != 0;
    v128.store(at, v128.load(allowed ? ALLOWED_TEXT : DISALLOWED_TEXT));
    at += allowed ? 8 : 11;
    copyWide(at, batch + from, end - from, memoryEnd);
    at += end - from;
    store<u8>(at++, Char.TAB);
    at = writeDecimal(at, line);
    if (ruleOffsets != 0) {
      store<u8>(at++, Char.TAB);
      copyWide(at, ruleText + textStart, textLength, memoryEnd);
      at += textLength;
    }
    store<u8>(at++, Char.LF);
    from = next;
  }
  return <isize>(at - out);
}
