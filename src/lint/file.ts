/**
 * Findings about the file as a whole: HTML served as robots.txt, byte-order marks, encodings and
 * the size limit.
 */
import { finding } from "./catalog.js";
import type { LintInput } from "./input.js";
import type { SourceLine } from "./source.js";
import { lineContent, quote } from "./text.js";
import type { LintFinding } from "./types.js";
import { binaryToBytes, bytesToBinary } from "../reference/bytes.js";
import { utf8BomPrefixLength } from "../reference/lines.js";
import type { InputInfo } from "../types.js";

/** A line that starts an HTML (or XML) document or its main elements, not a stray `<br>` in a comment. */
const HTML_START = /^<(?:!doctype\s+html|html[\s>]|head[\s>]|body[\s>]|\?xml\s)/i;

/**
 * The line that shows the body is an HTML or XML page, if any: a document tag, or markup on the
 * first line with text when the file has no groups (a file of rules under a stray tag or an HTML
 * comment is a robots.txt, and is linted as one).
 */
export function htmlLine(source: readonly SourceLine[], hasGroups: boolean): SourceLine | undefined {
  const first = source.find((line) => lineContent(line) !== "");
  if (first !== undefined && isMarkup(first) && !hasGroups) return first;
  return source.find((line) => isMarkup(line) && HTML_START.test(lineContent(line)));
}

function isMarkup(line: SourceLine): boolean {
  return line.raw.trimStart().startsWith("<");
}

/**
 * A line the html-body finding speaks for, which gets no finding of its own: in a page, a line of
 * markup; in a page without rules (a 404 page), every line, its styles and scripts too.
 */
export function coveredByHtml(input: LintInput, line: SourceLine): boolean {
  return input.html !== undefined && (input.rules === 0 || isMarkup(line));
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/** `bytes` is UTF-8; with `openEnd`, an incomplete sequence at the end (a cut) is allowed. */
function isUtf8(bytes: Uint8Array, openEnd: boolean): boolean {
  try {
    // A cut file is decoded as a stream that is never flushed: flushing a fatal decoder throws on
    // the sequence the cut left open. A decoder of its own, then dropped: the stream call leaves
    // it holding the open bytes, which the next call would go on from.
    if (openEnd) new TextDecoder("utf-8", { fatal: true }).decode(bytes, { stream: true });
    else strictUtf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** Bytes of a byte-order mark the parser skips: EF BB BF, or any start of it (`EF BC 83` loses its EF). */
function skippedBomBytes(bytes: Uint8Array): number {
  return utf8BomPrefixLength(bytesToBinary(bytes.subarray(0, 3)));
}

function invalidUtf8Finding(bytes: Uint8Array, source: readonly SourceLine[], input: InputInfo): LintFinding[] {
  // What the parser reads: after the BOM bytes it skipped, which may split a character.
  if (isUtf8(bytes.subarray(skippedBomBytes(bytes)), input.truncated)) return [];
  const last = source.length - 1;
  const bad = source.filter((line, i) => !isUtf8(binaryToBytes(line.raw), i === last && input.truncated));
  if (bad.length === 0) return [];
  const more = bad.length > 1 ? ` (and ${bad.length - 1} more line${bad.length > 2 ? "s" : ""})` : "";
  return [finding("invalid-utf8", bad[0].number, `bytes that are not UTF-8${more}: paths with them match only byte for byte, text shows as garbage`, "save the file as UTF-8 and percent-encode non-ASCII characters in paths")];
}

/** Bytes looked at to tell UTF-16 without a BOM. */
const UTF16_SAMPLE_BYTES = 4096;

/**
 * The byte order of a file that looks like UTF-16 without a byte-order mark: ASCII text in UTF-16
 * has a NUL in every other byte (odd offsets little-endian, even ones big-endian), which no
 * robots.txt in an 8-bit encoding has. Only a BOM makes it certain, so such a file is reported,
 * not decoded.
 */
export function bomlessUtf16(bytes: Uint8Array): "UTF-16LE" | "UTF-16BE" | undefined {
  const length = Math.min(bytes.length, UTF16_SAMPLE_BYTES) & ~1;
  if (length < 8) return undefined;
  let evenNuls = 0;
  let oddNuls = 0;
  for (let i = 0; i < length; i += 2) {
    if (bytes[i] === 0) evenNuls++;
    if (bytes[i + 1] === 0) oddNuls++;
  }
  const pairs = length / 2;
  if (oddNuls >= pairs * 0.6 && evenNuls <= pairs * 0.1) return "UTF-16LE";
  if (evenNuls >= pairs * 0.6 && oddNuls <= pairs * 0.1) return "UTF-16BE";
  return undefined;
}

function bomFindings({ robots, bytes, rules, utf16: bomless }: LintInput): LintFinding[] {
  const { encoding, bom } = robots.input;
  if (encoding !== "utf-8") {
    return [finding("utf-16", 1, `the file is ${encoding.toUpperCase()}: decoded here, but Google's parser and most crawlers read it as garbage and find no rules`, "save it as UTF-8")];
  }
  if (bomless !== undefined) {
    // Told from the first 4 KB: ASCII rules after them are still read.
    const read = rules === 0 ? "it holds no rules" : `only the ${rules === 1 ? "rule" : `${rules.toLocaleString("en-US")} rules`} written in single bytes ${rules === 1 ? "is" : "are"} read`;
    return [finding("utf-16", 1, `the file looks like ${bomless} without a byte-order mark (every other byte is NUL): read as bytes, here as by every crawler, ${read}`, "save it as UTF-8")];
  }
  if (!bom) return [];
  const skipped = skippedBomBytes(bytes);
  // A whole BOM, or all that was read of one.
  if (skipped === 3 || skipped === bytes.length) {
    return [finding("bom", 1, "the file starts with a UTF-8 byte-order mark: Google and RFC 9309 parsers skip it, some older ones read it as part of the first key", "save it as UTF-8 without a BOM")];
  }
  // `EF BB` then text: the parser skips a start of a BOM too (as Google's does), but the bytes are
  // no character. (A character that starts with EF, `EF BC 83`, loses that byte: invalid-utf8.)
  if (skipped < bytes.length && bytes[skipped] < 0x80) {
    const written = Array.from(bytes.subarray(0, skipped), (byte) => byte.toString(16).toUpperCase()).join(" ");
    return [finding("bom", 1, `the file starts with ${written}, part of a UTF-8 byte-order mark: Google's parser and this one skip it, but it is no character, and other parsers read it as part of the first key`, "remove those bytes")];
  }
  return [];
}

export function fileFindings(input: LintInput): LintFinding[] {
  const { robots, source, bytes, html, rules } = input;
  const found = bomFindings(input);
  if (html !== undefined) {
    // Rules around the markup are read (Google's parser skips lines it cannot read): say so.
    const effect = rules === 0
      ? "crawlers find no rules in it"
      : `Google's parser still reads the ${rules === 1 ? "rule" : `${rules.toLocaleString("en-US")} rules`} in it, other crawlers may refuse the whole file`;
    found.push(finding("html-body", html.number, `this is an HTML or XML page, not a robots.txt (${quote(lineContent(html))}): ${effect}`, "serve a plain-text robots.txt at /robots.txt, or a 404 if you have none"));
  }
  // A UTF-16 body was transcoded: its UTF-8 is valid by construction.
  if (robots.input.encoding === "utf-8") found.push(...invalidUtf8Finding(bytes, source, robots.input));
  if (robots.input.truncated) found.push(sizeLimitFinding(robots.input, source));
  return found;
}

/** Where the size limit cut the file: at the start of the last line read, after it, or inside it. */
function sizeLimitFinding(input: InputInfo, source: readonly SourceLine[]): LintFinding {
  const last = source[source.length - 1];
  const count = (n: number): string => n.toLocaleString("en-US");
  // A UTF-16 file is cut as UTF-16 and read as UTF-8: its two counts are in different units.
  const read = input.encoding === "utf-8"
    ? `the file is ${count(input.bytes)} bytes; only ${count(input.parsedBytes)} are read`
    : `the file is ${count(input.bytes)} bytes of ${input.encoding.toUpperCase()}; only part is read (${count(input.parsedBytes)} bytes once decoded to UTF-8)`;
  const fix = "shorten the file: merge rules with wildcards, put the important ones first";
  if (last.raw === "") return finding("size-limit", last.number, `${read}, everything from this line on is ignored`, fix);
  if (!input.cutInLine) return finding("size-limit", last.number, `${read}, everything after this line is ignored`, fix);
  const { kind, value, hasComment } = last.parsed;
  const rule = kind === "allow" || kind === "disallow";
  let effect = "";
  // A comment began before the cut: the record itself is whole.
  if (hasComment) effect = " (only its comment is cut)";
  else if (rule && value === "") effect = ", a rule that does nothing";
  else if (rule) effect = ": if the pattern went on, it now matches more URLs than written";
  return finding("size-limit", last.number, `${read}: this line is cut, and read as ${quote(lineContent(last))}${effect}; everything after it is ignored`, fix);
}
