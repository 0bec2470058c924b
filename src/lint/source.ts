/**
 * The text of a robots.txt, line by line, numbered as the parser numbers them. The linter reads
 * it where the engine's metadata has no text (keys and values as written, HTML, encodings); the
 * line splitting and the key/value split are the reference implementation's, so that both agree
 * with the engines by construction.
 */
import { bytesToBinary, binaryToUtf8, type ByteString } from "../reference/bytes.js";
import { meantRecord, type MeantRecord } from "./meant.js";
import { parseLine, type ParsedLine } from "../reference/line.js";
import { splitLines } from "../reference/lines.js";
import { profileSwitches } from "../reference/profile.js";
import { prepareInput } from "../input.js";
import { resolveParseOptions } from "../options.js";
import type { ParseOptions, Profile } from "../types.js";

export interface SourceLine {
  /** 1-based. */
  number: number;
  /** The whole line's bytes (a binary string), even past the profile's line limit. */
  raw: ByteString;
  /** The bytes the parser read of the line: `raw` cut to the profile's line limit. */
  read: ByteString;
  /** The line as the parser read it (cut to the limit): kind, key and value as written. */
  parsed: ParsedLine;
  /** The record its author meant (meant.ts): the parsed one, unless a colon in the value split it. */
  meant: MeantRecord;
}

/** The lines of the bytes a parser read (after the size limit and any UTF-16 transcoding). */
export function readSource(bytes: Uint8Array, profile: Profile): SourceLine[] {
  const { maxLineBytes } = profileSwitches(profile);
  return splitLines(bytesToBinary(bytes), Infinity).map(({ number, text }) => {
    const read = text.length > maxLineBytes ? text.slice(0, maxLineBytes) : text;
    const parsed = parseLine(read);
    return { number, raw: text, read, parsed, meant: meantRecord(read, parsed) };
  });
}

/** Bytes of a line as text for people (invalid UTF-8 becomes U+FFFD). */
export const displayText = binaryToUtf8;

/**
 * The lines of a robots.txt as text, numbered as `lines`, `explain` and the lint report number
 * them (index 0 is line 1): for showing a rule in context. The body is read as `Robots.parse`
 * reads it (size limit, UTF-16, BOM); invalid UTF-8 becomes U+FFFD.
 */
export function sourceLines(body: string | Uint8Array, options?: ParseOptions): string[] {
  const { maxBytes } = resolveParseOptions(options);
  // Lines are shown whole, not cut at the profile's line limit.
  return splitLines(bytesToBinary(prepareInput(body, maxBytes).bytes), Infinity).map((line) => binaryToUtf8(line.text));
}
