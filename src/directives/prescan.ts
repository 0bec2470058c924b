/**
 * The encoding a page declares in itself: an XML declaration at its start, or a `<meta charset>` or
 * `<meta http-equiv="content-type" content="...; charset=...">`, which a browser uses when neither
 * a byte order mark nor the Content-Type names one. The HTML standard's prescan (13.2.3.2) reads
 * the first 1024 bytes as bytes; Chromium, the browser the tests compare with, reads them and on
 * while the page is in its head, through a tokenizer (a meta tag inside a script is text), and so
 * does this. It matters to a scanner of bytes for encodings that are not ASCII-compatible: a page
 * that declares ISO-2022-JP can write `<!--` in two-byte mode (a comment in bytes, kanji in the
 * browser) to hide a real tag from a byte reader or show it a forged one, and one that declares
 * ISO-2022-KR has no markup at all in a browser.
 */

import { decodeAttributeValue } from "./charref.js";
import { isSpace } from "./list.js";

/** Bytes read whatever the page holds (HTML 13.2.3.2: "the first 1024 bytes"); past them, only while in the head. */
export const PRESCAN_BYTES = 1024;

const SLASH = 0x2f;
const LESS = 0x3c;
const EQUALS = 0x3d;
const GREATER = 0x3e;
const DASH = 0x2d;
const BANG = 0x21;

function isLetter(byte: number): boolean {
  return (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a);
}

function lower(byte: number): number {
  return byte >= 0x41 && byte <= 0x5a ? byte + 0x20 : byte;
}

/** Whether `bytes` at `at` start with the ASCII `word` (lower case), in any case. */
function startsWith(bytes: Uint8Array, at: number, word: string): boolean {
  if (at + word.length > bytes.length) return false;
  for (let i = 0; i < word.length; i++) if (lower(bytes[at + i]!) !== word.charCodeAt(i)) return false;
  return true;
}

/** The Encoding standard's "get an encoding": a label's encoding name, or undefined for no encoding. */
export type EncodingOf = (label: string) => string | undefined;

/**
 * Elements whose content is text to the tokenizer until their end tag (raw text, RCDATA; script
 * data has escapes of its own, scriptEnd): a `<meta charset>` inside them declares nothing, as
 * Chromium's charset parser (a tokenizer) reads them, where the standard's byte prescan would take it.
 */
const TEXT_ELEMENTS: ReadonlySet<string> = new Set(["style", "textarea", "title", "xmp", "iframe", "noembed", "noframes"]);

/** Start tags that keep the reading in the head (Chromium's HTMLMetaCharsetParser), and `html` and `head`. */
const HEAD_ELEMENTS: ReadonlySet<string> = new Set(["script", "noscript", "style", "link", "meta", "object", "title", "base"]);

/** The input ended inside a tag, a comment or a text element: nothing after it is markup (a tokenizer emits no such token). */
const CUT = -1;

/**
 * The encoding a page declares, or undefined: the first meta tag that declares a label naming an
 * encoding (a bogus one is passed over), else an XML declaration at its start (`<?xml
 * version="1.0" encoding="iso-2022-jp"?>`, or its first bytes in UTF-16), with UTF-16 read as
 * UTF-8 and x-user-defined as windows-1252 (the bytes declaring it are ASCII), as the HTML
 * standard's prescan and Chromium read them. Chromium reads meta tags in its first PRESCAN_BYTES
 * and on while the page is still in its head (a long title or comment first), through a
 * tokenizer: a meta tag in a script, a style or another element of text content declares nothing
 * there. Linear in the page: each byte is read a bounded number of times.
 */
export function prescanEncoding(bytes: Uint8Array, encodingOf: EncodingOf): string | undefined {
  return metaEncoding(bytes, encodingOf) ?? xmlEncoding(bytes, encodingOf);
}

function metaEncoding(bytes: Uint8Array, encodingOf: EncodingOf): string | undefined {
  let at = 0;
  let inHead = true;
  while (at < bytes.length && (inHead || at < PRESCAN_BYTES)) {
    if (bytes[at] !== LESS) {
      at = bytes.indexOf(LESS, at);
      if (at < 0) return undefined;
      continue;
    }
    if (startsWith(bytes, at, "<!--")) {
      at = commentEnd(bytes, at);
    } else if (startsWith(bytes, at, "<meta") && at + 5 < bytes.length && (isSpace(bytes[at + 5]!) || bytes[at + 5] === SLASH)) {
      const meta = readMeta(bytes, at + 5, encodingOf);
      if (meta.encoding !== undefined) {
        if (meta.encoding === "utf-16le" || meta.encoding === "utf-16be") return "utf-8";
        return meta.encoding === "x-user-defined" ? "windows-1252" : meta.encoding;
      }
      at = meta.end;
    } else if (at + 1 < bytes.length && (isLetter(bytes[at + 1]!) || (bytes[at + 1] === SLASH && at + 2 < bytes.length && isLetter(bytes[at + 2]!)))) {
      // Another tag: its name, then past its attributes.
      const end = bytes[at + 1] === SLASH;
      const nameStart = at + (end ? 2 : 1);
      at = nameStart;
      while (at < bytes.length && !isSpace(bytes[at]!) && bytes[at] !== GREATER && bytes[at] !== SLASH) at++;
      const name = tagName(bytes, nameStart, at);
      at = skipAttributes(bytes, at);
      if (at === CUT) return undefined;
      if (!HEAD_ELEMENTS.has(name) && (end || (name !== "html" && name !== "head"))) inHead = false;
      if (end) continue;
      if (name === "plaintext") return undefined;
      if (name === "script") at = scriptEnd(bytes, at);
      else if (TEXT_ELEMENTS.has(name)) at = endTagOf(bytes, at, name);
    } else if (at + 1 < bytes.length && (bytes[at + 1] === 0x21 || bytes[at + 1] === SLASH || bytes[at + 1] === 0x3f)) {
      // `<!`, `</` (not a tag) and `<?`: to the next `>`.
      const close = bytes.indexOf(GREATER, at + 2);
      at = close < 0 ? CUT : close + 1;
    } else {
      at++;
    }
    if (at === CUT) return undefined;
  }
  return undefined;
}

/**
 * Past the comment that starts at `at` (`<!--`): at its first `-->` or `--!>` (dashes may repeat),
 * or at once for `<!-->` and `<!--->`, as the tokenizer ends comments; CUT without an end.
 */
function commentEnd(bytes: Uint8Array, at: number): number {
  if (bytes[at + 4] === GREATER) return at + 5;
  if (bytes[at + 4] === DASH && bytes[at + 5] === GREATER) return at + 6;
  for (let dash = bytes.indexOf(DASH, at + 4); dash >= 0; dash = bytes.indexOf(DASH, dash + 1)) {
    if (bytes[dash + 1] !== DASH) continue;
    let after = dash + 2;
    while (bytes[after] === DASH) after++;
    if (bytes[after] === GREATER) return after + 1;
    if (bytes[after] === BANG && bytes[after + 1] === GREATER) return after + 2;
    dash = after - 1;
  }
  return CUT;
}

/** Whether the bytes at `at` are `<` or `</` (`end`) and `name` (any case) and then a space, `/` or `>`. */
function isTagOf(bytes: Uint8Array, at: number, name: string, end: boolean): boolean {
  if (bytes[at] !== LESS) return false;
  const nameAt = at + (end ? 2 : 1);
  if (end && bytes[at + 1] !== SLASH) return false;
  if (!startsWith(bytes, nameAt, name)) return false;
  const after = bytes[nameAt + name.length];
  return after !== undefined && (isSpace(after) || after === SLASH || after === GREATER);
}

/** Where the end tag of a text element starts after `from` (its `<`), or CUT. */
function endTagOf(bytes: Uint8Array, from: number, name: string): number {
  for (let at = bytes.indexOf(LESS, from); at >= 0; at = bytes.indexOf(LESS, at + 1)) {
    if (isTagOf(bytes, at, name, true)) return at;
  }
  return CUT;
}

/**
 * Where the end tag of a script starts after `from`, or CUT, through the tokenizer's script data
 * states: `<!--` escapes (to `-->`), and inside an escape a `<script` tag escapes twice, where a
 * `</script>` only ends the inner one (`<script><!--<script></script><meta charset=x>--></script>`
 * is one script).
 */
function scriptEnd(bytes: Uint8Array, from: number): number {
  let state: "data" | "escaped" | "double" = "data";
  for (let at = from; at < bytes.length; at++) {
    const byte = bytes[at];
    if (byte === DASH) {
      if (state !== "data" && bytes[at + 1] === DASH) {
        let after = at + 2;
        while (bytes[after] === DASH) after++;
        if (bytes[after] === GREATER) state = "data";
        at = after - 1;
      }
      continue;
    }
    if (byte !== LESS) {
      // To the next byte that can change the state.
      const less = bytes.indexOf(LESS, at);
      const dash = state === "data" ? -1 : bytes.indexOf(DASH, at);
      const next = less < 0 ? dash : dash < 0 ? less : Math.min(less, dash);
      if (next < 0) return CUT;
      at = next - 1;
      continue;
    }
    if (state === "data" && startsWith(bytes, at, "<!--")) {
      state = "escaped";
      // The dashes of `<!--` may end it at once (`<!-->`).
      at += 1;
    } else if (isTagOf(bytes, at, "script", true)) {
      if (state !== "double") return at;
      state = "escaped";
    } else if (state === "escaped" && isTagOf(bytes, at, "script", false)) {
      state = "double";
    }
  }
  return CUT;
}

/**
 * The encoding of an XML declaration that starts the page: UTF-16 when its first characters are
 * `<?x` in UTF-16 (no byte order mark), else the label of its `encoding` pseudo-attribute when it
 * names an encoding (UTF-16 read as UTF-8, as for a meta tag: the bytes are ASCII). As Chromium
 * reads it: lower-case `<?xml` only, the declaration up to the first `>` however far that is (not
 * only in the first PRESCAN_BYTES), and in it the first `encoding` followed, past bytes up to
 * space and past 0x7F (Chromium compares a signed char with space), by `=` and a quoted value.
 */
function xmlEncoding(bytes: Uint8Array, encodingOf: EncodingOf): string | undefined {
  const starts = (...pattern: number[]) => pattern.every((byte, i) => bytes[i] === byte);
  if (starts(0x3c, 0, 0x3f, 0, 0x78, 0)) return "utf-16le";
  if (starts(0, 0x3c, 0, 0x3f, 0, 0x78)) return "utf-16be";
  if (!starts(0x3c, 0x3f, 0x78, 0x6d, 0x6c)) return undefined;
  const end = bytes.indexOf(GREATER, 5);
  if (end < 0) return undefined;
  // Searched in the bytes, and only what follows it decoded: a declaration may run for megabytes.
  let name = 5;
  while (name + ENCODING.length <= end && !ENCODING.every((byte, i) => bytes[name + i] === byte)) name++;
  if (name + ENCODING.length > end) return undefined;
  const label = /^[\0- \x80-\xff]*=[\0- \x80-\xff]*(?:"([^"]*)"|'([^']*)')/.exec(latin1.decode(bytes.subarray(name + ENCODING.length, end)));
  if (label === null) return undefined;
  const encoding = encodingOf(label[1] ?? label[2]!);
  return encoding === "utf-16le" || encoding === "utf-16be" ? "utf-8" : encoding;
}

const latin1 = new TextDecoder("latin1");
/** `encoding`, in that case, as the XML declaration's pseudo-attribute is searched. */
const ENCODING = [..."encoding"].map((c) => c.charCodeAt(0));

/** Bytes [start, end) as text, ASCII letters lower-cased (what the prescan compares). */
function lowerText(bytes: Uint8Array, start: number, end: number): string {
  return latin1.decode(bytes.subarray(start, end)).replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

/** The longest tag name the reading tells apart (`plaintext`): longer ones are all other tags. */
const LONGEST_NAME = 9;

/** A tag's name, lower-cased, or "" for a name longer than any the reading tells apart. */
function tagName(bytes: Uint8Array, start: number, end: number): string {
  if (end - start > LONGEST_NAME) return "";
  let name = "";
  for (let at = start; at < end; at++) name += String.fromCharCode(lower(bytes[at]!));
  return name;
}

/** Past a tag's attributes from `at` and its `>`, or CUT when the input ends first. */
function skipAttributes(bytes: Uint8Array, from: number): number {
  let at = from;
  for (let attribute = readAttribute(bytes, at); attribute !== "none"; attribute = readAttribute(bytes, at)) {
    if (attribute === "cut") return CUT;
    at = attribute.end;
  }
  return skipToAttributeEnd(bytes, at);
}

/** After a tag's last attribute: the `>` that ends it (get an attribute stops there) and past it. */
function skipToAttributeEnd(bytes: Uint8Array, at: number): number {
  let next = at;
  while (next < bytes.length && (isSpace(bytes[next]!) || bytes[next] === SLASH)) next++;
  return next < bytes.length && bytes[next] === GREATER ? next + 1 : next;
}

/**
 * A `<meta` tag's attributes from `from`: the encoding it declares, if it declares one that
 * exists (a `charset` attribute, or a `content` one with `http-equiv="content-type"`), and where
 * the tag ends (CUT when the input ends inside it). Values are read with their character
 * references decoded, as the tokenizer hands them over (`iso&#45;2022-jp`).
 */
function readMeta(bytes: Uint8Array, from: number, encodingOf: EncodingOf): { encoding: string | undefined; end: number } {
  // The three names that matter, each read at its first occurrence only (later ones are repeats).
  const seen = { "http-equiv": false, content: false, charset: false };
  let gotPragma = false;
  let needPragma: boolean | undefined;
  // null: a charset attribute naming no encoding (the standard's "failure").
  let charset: string | null | undefined;
  let at = from;
  for (let attribute = readAttribute(bytes, at); attribute !== "none"; attribute = readAttribute(bytes, at)) {
    if (attribute === "cut") return { encoding: undefined, end: CUT };
    at = attribute.end;
    const name = NAMES.find((known) => nameIs(bytes, attribute.nameStart, attribute.nameEnd, known));
    if (name === undefined || seen[name]) continue;
    seen[name] = true;
    // Most meta tags' contents are no declaration: not read as text unless they say charset.
    if (name === "content" && !holdsCharset(bytes, attribute.valueStart, attribute.valueEnd)) continue;
    const value = lowerText(bytes, attribute.valueStart, attribute.valueEnd);
    const decoded = value.includes("&") ? decodeAttributeValue(value) : value;
    if (name === "http-equiv") {
      // Compared as it is: Chromium trims no spaces (nor NBSP, which trim() would).
      if (decoded === "content-type") gotPragma = true;
    } else if (name === "content") {
      const label = charsetInContent(decoded);
      const fromContent = label === undefined ? undefined : encodingOf(label);
      if (fromContent !== undefined && charset === undefined) {
        charset = fromContent;
        needPragma = true;
      }
    } else {
      charset = encodingOf(decoded) ?? null;
      needPragma = false;
    }
  }
  const end = skipToAttributeEnd(bytes, at);
  if (needPragma === undefined || (needPragma && !gotPragma) || charset === undefined || charset === null) return { encoding: undefined, end };
  return { encoding: charset, end };
}

/** Whether bytes [start, end) hold `charset` in any case, or a character reference (which may spell it). */
function holdsCharset(bytes: Uint8Array, start: number, end: number): boolean {
  for (let at = start; at < end; at++) {
    const byte = bytes[at];
    if (byte === 0x26 || ((byte === 0x63 || byte === 0x43) && at + 7 <= end && startsWith(bytes, at, "charset"))) return true;
  }
  return false;
}

/** The attribute names a meta tag's declaration is read from. */
const NAMES = ["http-equiv", "content", "charset"] as const;

/** Whether bytes [start, end) are `name` (lower case), in any case: no string is made for a name that does not matter. */
function nameIs(bytes: Uint8Array, start: number, end: number, name: string): boolean {
  return end - start === name.length && startsWith(bytes, start, name);
}

/** An attribute as read: where its name and value lie, and where reading stopped. */
interface Attribute {
  nameStart: number;
  nameEnd: number;
  valueStart: number;
  valueEnd: number;
  end: number;
}

/**
 * HTML 13.2.3.2 "get an attribute" from `from`: "none" at the tag's `>`, "cut" when the input
 * ends first (the tag never ends), else the attribute, its name and value as ranges of bytes
 * (read as text only for the few names that matter).
 */
function readAttribute(bytes: Uint8Array, from: number): Attribute | "none" | "cut" {
  let at = from;
  while (at < bytes.length && (isSpace(bytes[at]!) || bytes[at] === SLASH)) at++;
  if (at >= bytes.length) return "cut";
  if (bytes[at] === GREATER) return "none";
  // The name, to `=` (not as its first byte), a space, `/` or `>`.
  const nameStart = at;
  for (;; at++) {
    if (at >= bytes.length) return "cut";
    const byte = bytes[at]!;
    if ((byte === EQUALS && at > nameStart) || isSpace(byte) || byte === SLASH || byte === GREATER) break;
  }
  const nameEnd = at;
  if (isSpace(bytes[at]!)) {
    while (at < bytes.length && isSpace(bytes[at]!)) at++;
    if (at >= bytes.length) return "cut";
    if (bytes[at] !== EQUALS) return { nameStart, nameEnd, valueStart: at, valueEnd: at, end: at };
  } else if (bytes[at] !== EQUALS) {
    return { nameStart, nameEnd, valueStart: at, valueEnd: at, end: at };
  }
  at++;
  while (at < bytes.length && isSpace(bytes[at]!)) at++;
  if (at >= bytes.length) return "cut";
  const quote = bytes[at]!;
  if (quote === 0x22 || quote === 0x27) {
    const close = bytes.indexOf(quote, at + 1);
    return close < 0 ? "cut" : { nameStart, nameEnd, valueStart: at + 1, valueEnd: close, end: close + 1 };
  }
  if (quote === GREATER) return { nameStart, nameEnd, valueStart: at, valueEnd: at, end: at };
  const valueStart = at;
  while (at < bytes.length && !isSpace(bytes[at]!) && bytes[at] !== GREATER) at++;
  return at >= bytes.length ? "cut" : { nameStart, nameEnd, valueStart, valueEnd: at, end: at };
}

/**
 * HTML 2.5.9 "extracting a character encoding from a meta element": the label after the first
 * `charset` that is followed by `=` in a `content` value (`text/html; charset=iso-2022-jp`), up to
 * a space or `;`, or between quotes that close; undefined when there is none.
 */
export function charsetInContent(content: string): string | undefined {
  const lowered = content.toLowerCase();
  let from = 0;
  for (;;) {
    const found = lowered.indexOf("charset", from);
    if (found < 0) return undefined;
    let at = found + 7;
    while (at < content.length && isSpace(content.charCodeAt(at))) at++;
    if (content[at] !== "=") {
      from = at;
      continue;
    }
    at++;
    while (at < content.length && isSpace(content.charCodeAt(at))) at++;
    if (at >= content.length) return undefined;
    const quote = content[at];
    if (quote === '"' || quote === "'") {
      const close = content.indexOf(quote, at + 1);
      return close < 0 ? undefined : content.slice(at + 1, close);
    }
    let end = at;
    while (end < content.length && !isSpace(content.charCodeAt(end)) && content[end] !== ";") end++;
    return content.slice(at, end);
  }
}
