/**
 * Reading one line: NUL, comment, whitespace, key/value split and key kind (decisions 7-10).
 */
import { NUL, SPACE, TAB, trimAsciiSpace, type ByteString } from "./bytes.js";
import { classifyKey, type KeyKind } from "./keys.js";

export type ParsedLineKind = "empty" | "comment" | "invalid" | KeyKind;

export interface ParsedLine {
  kind: ParsedLineKind;
  hasComment: boolean;
  typo: boolean;
  missingColon: boolean;
  /** The key as written, trimmed ("" unless the line is a record). */
  key: ByteString;
  /** The value as written, trimmed, not escaped ("" unless the line is a record). */
  value: ByteString;
}

const HASH = 0x23;
const COLON = 0x3a;

function isSpaceOrTab(code: number): boolean {
  return code === SPACE || code === TAB;
}

function indexWhere(text: ByteString, from: number, test: (code: number) => boolean): number {
  for (let i = from; i < text.length; i++) if (test(text.charCodeAt(i))) return i;
  return -1;
}

/** What a line says: up to a NUL and a comment, trimmed (decisions 7 and 8). */
export function recordContent(line: ByteString): { content: ByteString; hasComment: boolean } {
  // Google-specific: the line is a C string, so a NUL ends its content (decision 7).
  const nul = line.indexOf(String.fromCharCode(NUL));
  const beforeNul = nul === -1 ? line : line.slice(0, nul);
  // RFC 9309 2.2.3: `#` starts a comment, even inside a value (decision 8).
  const hash = beforeNul.indexOf(String.fromCharCode(HASH));
  return { content: trimAsciiSpace(hash === -1 ? beforeNul : beforeNul.slice(0, hash)), hasComment: hash !== -1 };
}

export function parseLine(line: ByteString): ParsedLine {
  const result: ParsedLine = { kind: "invalid", hasComment: false, typo: false, missingColon: false, key: "", value: "" };
  const { content, hasComment } = recordContent(line);
  result.hasComment = hasComment;
  if (content === "") {
    result.kind = result.hasComment ? "comment" : "empty";
    return result;
  }

  // Key and value are split at the first colon (decision 9).
  let separator = content.indexOf(String.fromCharCode(COLON));
  if (separator === -1) {
    // Google-specific: people forget the colon, so a space or tab may stand in for it, but
    // only when the line is exactly two words (`user-agent FooBot`, not `disallow /a b`).
    separator = indexWhere(content, 0, isSpaceOrTab);
    if (separator === -1) return result; // one word: no separator at all
    const valueStart = indexWhere(content, separator, (code) => !isSpaceOrTab(code));
    if (indexWhere(content, valueStart, isSpaceOrTab) !== -1) return result; // three or more words
    result.missingColon = true;
  }

  const key = trimAsciiSpace(content.slice(0, separator));
  // `: value` has no key: not a record. (With a whitespace separator the key cannot be empty,
  // since the content was trimmed, so `missingColon` is still false here.)
  if (key === "") return result;
  const { kind, typo } = classifyKey(key);
  result.kind = kind;
  result.typo = typo;
  result.key = key;
  result.value = trimAsciiSpace(content.slice(separator + 1));
  return result;
}
