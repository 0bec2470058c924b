/**
 * The record a line's author meant, where it differs from the one the parsers read.
 *
 * A line with no colon after its first word but one later (`Disallow /search?q=a:b`,
 * `Sitemap http://example.com/s.xml`) is split at that later colon: the parsers read the key
 * `Disallow /search?q=a`, a disallow by its prefix, with the value `b`. Findings about such a
 * value, and fixes built from it, would mislead; the author meant the first word as the key and
 * the rest of the line as the value. But a key of several words whose value reads as one for
 * its directive (`Disallow all: /private/`) is a long key, read as meant.
 */
import { binaryToUtf8, trimAsciiSpace, type ByteString } from "../reference/bytes.js";
import { classifyKey, type KeyKind } from "../reference/keys.js";
import { recordContent, type ParsedLine } from "../reference/line.js";

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

/** An absolute http(s) URL: what a sitemap must be. */
export function isAbsoluteHttpUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const { protocol } = new URL(value);
  return protocol === "http:" || protocol === "https:";
}

/** The value is a sound one for a directive: a path or nothing for a rule, a URL for a sitemap, a name or `*` for an agent. */
function readsWell(kind: KeyKind, value: ByteString): boolean {
  switch (kind) {
    case "allow":
    case "disallow":
      return value === "" || value.startsWith("/") || value.startsWith("*");
    case "sitemap":
      return isAbsoluteHttpUrl(binaryToUtf8(value));
    case "user-agent":
      return /^[*A-Za-z_-]/.test(value);
    default:
      // A key of several words that is no directive: the line is ignored whatever its value.
      return false;
  }
}

/** The record meant by a line whose bytes read are `read`, parsed as `parsed`. */
export function meantRecord(read: ByteString, parsed: ParsedLine): MeantRecord {
  const { key, value, kind, typo } = parsed;
  const asRead: MeantRecord = { key, value, kind: kind === "empty" || kind === "comment" || kind === "invalid" ? "unknown" : kind, typo, colonInValue: false };
  const keyEnd = key.search(KEY_END);
  // No whitespace in the key, or a key that needs it (`User agent:`, an accepted misspelling).
  if (keyEnd === -1) return asRead;
  const firstWord = classifyKey(key.slice(0, keyEnd));
  if (firstWord.kind === "unknown" || readsWell(asRead.kind, value)) return asRead;
  // The text starts with the key (both are trimmed), so the first word ends at the same offset.
  const rest = trimAsciiSpace(recordContent(read).content.slice(keyEnd));
  return { key: key.slice(0, keyEnd), value: rest, kind: firstWord.kind, typo: firstWord.typo, colonInValue: true };
}
