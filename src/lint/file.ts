/**
 * Findings about the file as a whole: HTML served as robots.txt, byte-order marks, encodings and
 * the size limit.
 */
import { finding } from "./catalog.js";
import type { LintInput } from "./input.js";
import type { SourceLine } from "./source.js";
import { lineContent, quote } from "./text.js";
import type { LintFinding } from "./types.js";
import { binaryToBytes } from "../reference/bytes.js";
import type { InputInfo } from "../types.js";

/** A line that starts an HTML (or XML) document or its main elements, not a stray `<br>` in a comment. */
const HTML_START = /^<(?:!doctype\s+html|html[\s>]|head[\s>]|body[\s>]|\?xml\s)/i;

/** The line that shows the body is an HTML or XML page, if any: a document tag, or markup on the first line with text. */
export function htmlLine(source: readonly SourceLine[]): SourceLine | undefined {
  const startsWithTag = (line: SourceLine): boolean => line.raw.trimStart().startsWith("<");
  const first = source.find((line) => lineContent(line) !== "");
  if (first !== undefined && startsWithTag(first)) return first;
  return source.find((line) => startsWithTag(line) && HTML_START.test(lineContent(line)));
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/** `bytes` is UTF-8; with `openEnd`, an incomplete sequence at the end (a cut) is allowed. */
function isUtf8(bytes: Uint8Array, openEnd: boolean): boolean {
  try {
    strictUtf8.decode(bytes, { stream: openEnd });
    if (openEnd) strictUtf8.decode(); // resets the decoder, ignoring the open sequence
    return true;
  } catch {
    return false;
  }
}

function invalidUtf8Finding(bytes: Uint8Array, source: readonly SourceLine[], input: InputInfo): LintFinding[] {
  if (isUtf8(bytes, input.truncated)) return [];
  const last = source.length - 1;
  const bad = source.filter((line, i) => !isUtf8(binaryToBytes(line.raw), i === last && input.truncated));
  if (bad.length === 0) return [];
  const more = bad.length > 1 ? ` (and ${bad.length - 1} more line${bad.length > 2 ? "s" : ""})` : "";
  return [finding("invalid-utf8", bad[0].number, `bytes that are not UTF-8${more}: paths with them match only byte for byte, text shows as garbage`, "save the file as UTF-8 and percent-encode non-ASCII characters in paths")];
}

function bomFindings(robots: LintInput["robots"]): LintFinding[] {
  const { encoding, bom } = robots.input;
  if (encoding !== "utf-8") {
    return [finding("utf-16", 1, `the file is ${encoding.toUpperCase()}: decoded here, but Google's parser and most crawlers read it as garbage and find no rules`, "save it as UTF-8")];
  }
  if (!bom) return [];
  return [finding("bom", 1, "the file starts with a UTF-8 byte-order mark: Google and RFC 9309 parsers skip it, some older ones read it as part of the first key", "save it as UTF-8 without a BOM")];
}

export function fileFindings(input: LintInput): LintFinding[] {
  const { robots, source, bytes } = input;
  const found = bomFindings(robots);
  const html = htmlLine(source);
  if (html !== undefined) {
    found.push(finding("html-body", html.number, `this is an HTML or XML page, not a robots.txt (${quote(lineContent(html))}): crawlers find no rules in it`, "serve a plain-text robots.txt at /robots.txt, or a 404 if you have none"));
  }
  // A UTF-16 body was transcoded: its UTF-8 is valid by construction.
  if (robots.input.encoding === "utf-8") found.push(...invalidUtf8Finding(bytes, source, robots.input));
  if (robots.input.truncated) {
    const { bytes, parsedBytes } = robots.input;
    found.push(finding("size-limit", source.length, `the file is ${bytes.toLocaleString("en-US")} bytes; only ${parsedBytes.toLocaleString("en-US")} are read, everything from this line on is ignored`, "shorten the file: merge rules with wildcards, put the important ones first"));
  }
  return found;
}
