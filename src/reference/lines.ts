/**
 * Splitting the body into numbered lines (decisions 4, 5, 6).
 */
import { CR, LF, type ByteString } from "./bytes.js";

export interface RawLine {
  /** 1-based line number, counted per terminator. */
  number: number;
  /** The line's bytes without its terminator, cut to the profile's line limit. */
  text: ByteString;
  /** Bytes were dropped because the line was longer than the limit. */
  tooLong: boolean;
}

const UTF8_BOM = [0xef, 0xbb, 0xbf];

/**
 * Length of the (possibly partial) UTF-8 BOM at the start of the body: 0 to 3.
 * Google-specific: the first bytes are compared with EF BB BF one by one and skipped while they
 * match, so `EF` alone or `EF BB` are skipped too (decision 4).
 */
export function utf8BomPrefixLength(body: ByteString): number {
  let length = 0;
  while (length < UTF8_BOM.length && length < body.length && body.charCodeAt(length) === UTF8_BOM[length]) length++;
  return length;
}

/**
 * Every LF, CR or CRLF ends a line (the LF of a CRLF is part of its terminator, not a line of its
 * own), and after the last terminator one more, possibly empty, line is always counted: an empty
 * body has one line, `"a\n"` has two (decision 5).
 *
 * Lines longer than `maxLineBytes` keep their first `maxLineBytes` bytes (decision 6). NUL bytes
 * are ordinary here: they end a line's *content*, which is the line parser's business.
 */
export function splitLines(body: ByteString, maxLineBytes: number): RawLine[] {
  const lines: RawLine[] = [];
  const emit = (start: number, end: number): void => {
    const tooLong = end - start > maxLineBytes;
    const text = body.slice(start, tooLong ? start + maxLineBytes : end);
    lines.push({ number: lines.length + 1, text, tooLong });
  };

  let lineStart = utf8BomPrefixLength(body);
  let i = lineStart;
  while (i < body.length) {
    const code = body.charCodeAt(i);
    if (code === LF || code === CR) {
      emit(lineStart, i);
      const isCrLf = code === CR && body.charCodeAt(i + 1) === LF;
      i += isCrLf ? 2 : 1;
      lineStart = i;
    } else {
      i++;
    }
  }
  emit(lineStart, body.length);
  return lines;
}
