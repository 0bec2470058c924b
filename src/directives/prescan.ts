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

/** Bytes read whatever the page holds (HTML 13.2.3.2: "the first 1024 bytes"); past them, only while in the head. */
export const PRESCAN_BYTES = 1024;

const TAB = 0x09;
const LF = 0x0a;
const FF = 0x0c;
const CR = 0x0d;
const SPACE = 0x20;
const SLASH = 0x2f;
const LESS = 0x3c;
const EQUALS = 0x3d;
const GREATER = 0x3e;

function isSpace(byte: number): boolean {
  return byte === TAB || byte === LF || byte === FF || byte === CR || byte === SPACE;
}

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
 * Elements whose content is text to the tokenizer until their end tag (raw text, RCDATA, script
 * data): a `<meta charset>` inside them declares nothing, as Chromium's charset parser (a
 * tokenizer) reads them, where the standard's byte prescan would take it.
 */
const TEXT_ELEMENTS: ReadonlySet<string> = new Set(["script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes"]);

/** Start tags that keep the reading in the head (Chromium's HTMLMetaCharsetParser), and `html` and `head`. */
const HEAD_ELEMENTS: ReadonlySet<string> = new Set(["script", "noscript", "style", "link", "meta", "object", "title", "base"]);

/**
 * The encoding a page declares, or undefined: an XML declaration at its start (`<?xml version="1.0"
 * encoding="iso-2022-jp"?>`, or its first bytes in UTF-16), else the first meta tag that declares
 * a label naming an encoding (a bogus one is passed over), with UTF-16 read as UTF-8 and
 * x-user-defined as windows-1252 (the bytes declaring it are ASCII), as the HTML standard's
 * prescan and Chromium read them. Chromium reads meta tags in its first PRESCAN_BYTES and on while
 * the page is still in its head (a long title or comment first), through a tokenizer: a meta tag
 * in a script, a style or another element of text content declares nothing there.
 */
export function prescanEncoding(bytes: Uint8Array, encodingOf: EncodingOf): string | undefined {
  const xml = xmlEncoding(bytes, encodingOf);
  if (xml !== undefined) return xml;
  let at = 0;
  let inHead = true;
  while (at < bytes.length && (inHead || at < PRESCAN_BYTES)) {
    if (bytes[at] !== LESS) {
      const next = bytes.indexOf(LESS, at);
      if (next < 0) return undefined;
      at = next;
      continue;
    }
    if (startsWith(bytes, at, "<!--")) {
      // To the `>` of the first `-->`, whose dashes may be the opener's (`<!-->` ends at once).
      const end = indexOfSequence(bytes, at + 2, "-->");
      if (end < 0) return undefined;
      at = end + 3;
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
      at += end ? 2 : 1;
      let name = "";
      while (at < bytes.length && !isSpace(bytes[at]!) && bytes[at] !== GREATER && bytes[at] !== SLASH) name += String.fromCharCode(lower(bytes[at++]!));
      for (let attribute = readAttribute(bytes, at); attribute !== undefined; attribute = readAttribute(bytes, attribute.end)) at = attribute.end;
      at = skipToAttributeEnd(bytes, at);
      if (!HEAD_ELEMENTS.has(name) && (end || (name !== "html" && name !== "head"))) inHead = false;
      if (end) continue;
      if (name === "plaintext") return undefined;
      if (TEXT_ELEMENTS.has(name)) {
        const close = endTagOf(bytes, at, name);
        if (close < 0) return undefined;
        at = close;
      }
    } else if (at + 1 < bytes.length && (bytes[at + 1] === 0x21 || bytes[at + 1] === SLASH || bytes[at + 1] === 0x3f)) {
      // `<!`, `</` (not a tag) and `<?`: to the next `>`.
      const end = bytes.indexOf(GREATER, at + 2);
      if (end < 0) return undefined;
      at = end + 1;
    } else {
      at++;
    }
  }
  return undefined;
}

/** Where the end tag of a text element (`</script` and a space, `/` or `>`, any case) starts after `from`, or -1. */
function endTagOf(bytes: Uint8Array, from: number, name: string): number {
  for (let at = bytes.indexOf(LESS, from); at >= 0; at = bytes.indexOf(LESS, at + 1)) {
    if (bytes[at + 1] !== SLASH || !startsWith(bytes, at + 2, name)) continue;
    const after = bytes[at + 2 + name.length];
    if (after === undefined || isSpace(after) || after === SLASH || after === GREATER) return at;
  }
  return -1;
}

/**
 * The encoding of an XML declaration that starts the page: UTF-16 when its first characters are
 * `<?x` in UTF-16 (no byte order mark), else the label of its `encoding` pseudo-attribute when it
 * names an encoding (UTF-16 read as UTF-8, as for a meta tag: the bytes are ASCII).
 */
function xmlEncoding(bytes: Uint8Array, encodingOf: EncodingOf): string | undefined {
  const starts = (...pattern: number[]) => pattern.every((byte, i) => bytes[i] === byte);
  if (starts(0x3c, 0, 0x3f, 0, 0x78, 0)) return "utf-16le";
  if (starts(0, 0x3c, 0, 0x3f, 0, 0x78)) return "utf-16be";
  if (!startsWith(bytes, 0, "<?xml")) return undefined;
  const end = bytes.indexOf(GREATER, 5);
  if (end < 0) return undefined;
  const declaration = String.fromCharCode(...bytes.subarray(5, Math.min(end, 5 + PRESCAN_BYTES)));
  const label = /\sencoding\s*=\s*(?:"([^"]*)"|'([^']*)')/.exec(declaration);
  if (label === null) return undefined;
  const encoding = encodingOf(label[1] ?? label[2]!);
  return encoding === "utf-16le" || encoding === "utf-16be" ? "utf-8" : encoding;
}

/** After a tag's last attribute: the `>` that ends it (get an attribute stops there) and past it. */
function skipToAttributeEnd(bytes: Uint8Array, at: number): number {
  let next = at;
  while (next < bytes.length && (isSpace(bytes[next]!) || bytes[next] === SLASH)) next++;
  return next < bytes.length && bytes[next] === GREATER ? next + 1 : next;
}

function indexOfSequence(bytes: Uint8Array, from: number, word: string): number {
  for (let at = from; at + word.length <= bytes.length; at++) if (startsWith(bytes, at, word)) return at;
  return -1;
}

/**
 * A `<meta` tag's attributes from `from`: the encoding it declares, if it declares one that
 * exists (a `charset` attribute, or a `content` one with `http-equiv="content-type"`), and where
 * the tag ends.
 */
function readMeta(bytes: Uint8Array, from: number, encodingOf: EncodingOf): { encoding: string | undefined; end: number } {
  const seen = new Set<string>();
  let gotPragma = false;
  let needPragma: boolean | undefined;
  // null: a charset attribute naming no encoding (the standard's "failure").
  let charset: string | null | undefined;
  let at = from;
  for (let attribute = readAttribute(bytes, at); attribute !== undefined; attribute = readAttribute(bytes, at)) {
    at = attribute.end;
    const { name, value } = attribute;
    if (seen.has(name)) continue;
    seen.add(name);
    if (name === "http-equiv") {
      if (value === "content-type") gotPragma = true;
    } else if (name === "content") {
      const label = charsetInContent(value);
      const fromContent = label === undefined ? undefined : encodingOf(label);
      if (fromContent !== undefined && charset === undefined) {
        charset = fromContent;
        needPragma = true;
      }
    } else if (name === "charset") {
      charset = encodingOf(value) ?? null;
      needPragma = false;
    }
  }
  const end = skipToAttributeEnd(bytes, at);
  if (needPragma === undefined || (needPragma && !gotPragma) || charset === undefined || charset === null) return { encoding: undefined, end };
  return { encoding: charset, end };
}

/**
 * HTML 13.2.3.2 "get an attribute": its name and value, lower-cased as the prescan reads them
 * (ASCII only; other bytes are kept as Latin-1 characters, which no encoding label holds), and
 * where reading stopped; undefined at `>` or the end of the bytes.
 */
function readAttribute(bytes: Uint8Array, from: number): { name: string; value: string; end: number } | undefined {
  let at = from;
  while (at < bytes.length && (isSpace(bytes[at]!) || bytes[at] === SLASH)) at++;
  if (at >= bytes.length || bytes[at] === GREATER) return undefined;
  let name = "";
  let value = "";
  // The name, to `=` (not as its first byte), a space, `/` or `>`.
  for (;; at++) {
    if (at >= bytes.length) return undefined;
    const byte = bytes[at]!;
    if (byte === EQUALS && name !== "") {
      at++;
      break;
    }
    if (isSpace(byte)) {
      while (at < bytes.length && isSpace(bytes[at]!)) at++;
      if (at >= bytes.length) return undefined;
      if (bytes[at] !== EQUALS) return { name, value, end: at };
      at++;
      break;
    }
    if (byte === SLASH || byte === GREATER) return { name, value, end: at };
    name += String.fromCharCode(lower(byte));
  }
  while (at < bytes.length && isSpace(bytes[at]!)) at++;
  if (at >= bytes.length) return undefined;
  const quote = bytes[at]!;
  if (quote === 0x22 || quote === 0x27) {
    for (at++; ; at++) {
      if (at >= bytes.length) return undefined;
      if (bytes[at] === quote) return { name, value, end: at + 1 };
      value += String.fromCharCode(lower(bytes[at]!));
    }
  }
  if (quote === GREATER) return { name, value, end: at };
  for (; ; at++) {
    if (at >= bytes.length) return undefined;
    const byte = bytes[at]!;
    if (isSpace(byte) || byte === GREATER) return { name, value, end: at };
    value += String.fromCharCode(lower(byte));
  }
}

/**
 * HTML 2.5.9 "extracting a character encoding from a meta element": the label after the first
 * `charset` that is followed by `=` in a `content` value (`text/html; charset=iso-2022-jp`), up to
 * a space or `;`, or between quotes that close; undefined when there is none.
 */
export function charsetInContent(content: string): string | undefined {
  let from = 0;
  for (;;) {
    const found = content.toLowerCase().indexOf("charset", from);
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
