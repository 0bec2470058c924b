/**
 * The HTML standard's prescan of a page's first bytes for the encoding it declares in a `<meta
 * charset>` or `<meta http-equiv="content-type" content="...; charset=...">` (HTML 13.2.3.2,
 * "prescan a byte stream to determine its encoding"), which a browser uses when neither a byte
 * order mark nor the Content-Type names one. It matters to a scanner of bytes only for encodings
 * that are not ASCII-compatible: a page that declares ISO-2022-JP can write `<!--` in two-byte
 * mode (a hidden comment in bytes, kanji in the browser) or hide a real tag inside what reads as
 * a comment in bytes, and one that declares ISO-2022-KR has no markup at all in a browser.
 */

/** How many bytes the prescan reads (HTML 13.2.3.2: "the first 1024 bytes"). */
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
 * The encoding a page's first PRESCAN_BYTES declare, or undefined: the first meta tag that
 * declares a label that names an encoding (a bogus one is passed over), with UTF-16 read as UTF-8
 * and x-user-defined as windows-1252, as the standard says (the bytes declaring it are ASCII).
 */
export function prescanEncoding(page: Uint8Array, encodingOf: EncodingOf): string | undefined {
  const bytes = page.subarray(0, PRESCAN_BYTES);
  let at = 0;
  while (at < bytes.length) {
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
    } else if (bytes[at] === LESS && at + 1 < bytes.length && (isLetter(bytes[at + 1]!) || (bytes[at + 1] === SLASH && at + 2 < bytes.length && isLetter(bytes[at + 2]!)))) {
      // Another tag: past its name, then past its attributes.
      at++;
      while (at < bytes.length && !isSpace(bytes[at]!) && bytes[at] !== GREATER) at++;
      for (let attribute = readAttribute(bytes, at); attribute !== undefined; attribute = readAttribute(bytes, attribute.end)) at = attribute.end;
      at = skipToAttributeEnd(bytes, at);
    } else if (bytes[at] === LESS && at + 1 < bytes.length && (bytes[at + 1] === 0x21 || bytes[at + 1] === SLASH || bytes[at + 1] === 0x3f)) {
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
