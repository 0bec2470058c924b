/**
 * The record a line's author meant, where it differs from the one the parsers read.
 *
 * A line with no colon after its first word but one later (`Disallow /search?q=a:b`,
 * `Sitemap http://example.com/s.xml`) is split at that later colon: the parsers read the key
 * `Disallow /search?q=a`, a disallow by its prefix, with the value `b`. Findings about such a
 * value, and fixes built from it, would mislead; the author meant the first word as the key and
 * the rest of the line as the value.
 */
import type { SourceLine } from "./source.js";
import { NUL, trimAsciiSpace, type ByteString } from "../reference/bytes.js";
import { classifyKey, type KeyKind } from "../reference/keys.js";

export interface MeantRecord {
  /** The key as written: the first word when the colon is inside the value. */
  key: ByteString;
  /** The value as written, trimmed: the rest of the line when the colon is inside the value. */
  value: ByteString;
  /** What `key` is read as. */
  kind: KeyKind;
  /** `key` is an accepted misspelling. */
  typo: boolean;
  /** The line has no colon after its key but one inside its value. */
  colonInValue: boolean;
}

const KEY_END = /[ \t]/;

/** What the line says without its comment and after a NUL, trimmed, as the line parser reads it. */
function recordText(line: SourceLine): ByteString {
  const nul = line.read.indexOf(String.fromCharCode(NUL));
  const beforeNul = nul === -1 ? line.read : line.read.slice(0, nul);
  const hash = beforeNul.indexOf("#");
  return trimAsciiSpace(hash === -1 ? beforeNul : beforeNul.slice(0, hash));
}

export function meantRecord(line: SourceLine): MeantRecord {
  const { key, value, kind, typo } = line.parsed;
  const asRead: MeantRecord = { key, value, kind: kind === "empty" || kind === "comment" || kind === "invalid" ? "unknown" : kind, typo, colonInValue: false };
  const keyEnd = key.search(KEY_END);
  // No whitespace in the key, or a key that needs it (`User agent:`, an accepted misspelling).
  if (keyEnd === -1) return asRead;
  const firstWord = classifyKey(key.slice(0, keyEnd));
  if (firstWord.kind === "unknown") return asRead;
  // The text starts with the key (both are trimmed), so the first word ends at the same offset.
  const rest = trimAsciiSpace(recordText(line).slice(keyEnd));
  return { key: key.slice(0, keyEnd), value: rest, kind: firstWord.kind, typo: firstWord.typo, colonInValue: true };
}
