/**
 * The page side: decodes a page that is not ASCII-compatible (UTF-16, ISO-2022-JP), writes the bytes into WASM memory, makes one scan call
 * and turns the numbers it returns (offsets, lengths, flags) into meta tags. Strings are sliced
 * here, from bytes the host already holds; they never cross the boundary.
 */
import { RobotsError } from "../errors.js";
import { isUint8Array, plainBytes } from "../options.js";
import type { Engine } from "../wasm.js";
import { decodeAttributeValue } from "./charref.js";
import { prescanEncoding } from "./prescan.js";
import type { MetaTag, PageInput } from "./types.js";

/** u32 fields per tag and flag bits: assembly/meta.ts MetaField and MetaFlag. */
const META_FIELDS = 7;
const MetaFlag = { hasContent: 1, inHead: 2, inNoscript: 4, nameReference: 8, contentReference: 16, selfClosing: 32 } as const;

const utf8Encoder = new TextEncoder();

/** What the scanner reads: bytes as given, or text to be written as UTF-8. */
type PageBytes = { kind: "bytes"; bytes: Uint8Array } | { kind: "text"; text: string };

/**
 * A page's encoding as the HTML and Encoding standards decide it: a byte order mark first (UTF-8,
 * UTF-16LE or UTF-16BE), else the caller's label (the Content-Type's charset), resolved as
 * TextDecoder resolves labels (`unicode`, `ucs-2` and `utf-16` are UTF-16LE, `latin1` is
 * windows-1252; an unknown label is kept as given, and its names and contents read as UTF-8),
 * else the one the page declares (prescan.ts: an XML declaration, a meta tag in its head), else UTF-8.
 */
function pageEncoding(bytes: Uint8Array, declared: string | undefined): { encoding: string; bom: boolean } {
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { encoding: "utf-8", bom: true };
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return { encoding: "utf-16le", bom: true };
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return { encoding: "utf-16be", bom: true };
  // A label that names no encoding is as if none were given (HTML 13.2.3.1: only a supported
  // transport charset skips the sniffing); a server's `charset=bogus` must not turn the prescan off.
  const given = declared ? encodingOf(declared) : undefined;
  if (given !== undefined) return { encoding: given, bom: false };
  return { encoding: prescanEncoding(bytes, encodingOf) ?? declared ?? "utf-8", bom: false };
}

/** The Encoding standard's "get an encoding" for a label: its encoding's name, or undefined for none. */
function encodingOf(label: string): string | undefined {
  const trimmed = label.trim().toLowerCase();
  // Node's TextDecoder refuses these labels; the standard decodes them all as "replacement".
  if (REPLACEMENT_LABELS.has(trimmed)) return "replacement";
  try {
    return new TextDecoder(trimmed).encoding;
  } catch {
    return undefined;
  }
}

/**
 * The labels of the Encoding standard's "replacement" encoding: it decodes a page (of any length
 * but 0) to one U+FFFD, so that a browser finds no markup in it. These are the encodings whose
 * bytes could smuggle markup past a filter that reads them as ASCII.
 */
const REPLACEMENT_LABELS: ReadonlySet<string> = new Set(["csiso2022kr", "hz-gb-2312", "iso-2022-cn", "iso-2022-cn-ext", "iso-2022-kr", "replacement"]);

/**
 * Encodings that are not ASCII-compatible (Encoding standard 4.2, besides "replacement"): their
 * bytes 0x21 to 0x7e stand for other characters too (ISO-2022-JP's two-byte mode writes `<!--`
 * for 次⑬), so a page in one is decoded first and scanned as UTF-8.
 */
const DECODED_FIRST: ReadonlySet<string> = new Set(["utf-16le", "utf-16be", "iso-2022-jp"]);

/**
 * A page in an encoding of DECODED_FIRST as text (a UTF-16 BOM dropped); undefined where the
 * platform has no decoder for it (ISO-2022-JP needs Node's full ICU): it is then scanned as bytes.
 */
function decodedFirst(html: Uint8Array, encoding: string): string | undefined {
  try {
    return new TextDecoder(encoding).decode(html);
  } catch {
    return undefined;
  }
}

/**
 * Only ASCII-compatible encodings can be scanned as bytes: a UTF-16 page (known by its BOM, or
 * declared by the caller from Content-Type) or an ISO-2022-JP one is decoded first and scanned as
 * UTF-8; a page in the replacement encoding has no tags.
 */
function preparePage(html: unknown, encoding: string | undefined): { page: PageBytes; input: PageInput } {
  const declared = encoding?.trim().toLowerCase();
  if (typeof html === "string") {
    // `bytes` is the UTF-8 length, known once the text is written.
    return { page: { kind: "text", text: html }, input: { bytes: 0, encoding: "utf-8", bom: html.charCodeAt(0) === 0xfeff, transcoded: false, truncated: false } };
  }
  if (!isUint8Array(html)) throw new RobotsError("ROBOTS_ERR_INVALID_BODY", "a page must be a string or a Uint8Array");
  return prepareBytes(plainBytes(html), declared);
}

/** preparePage for bytes, read through a plain view (plainBytes). */
function prepareBytes(html: Uint8Array, declared: string | undefined): { page: PageBytes; input: PageInput } {
  const { encoding: found, bom } = pageEncoding(html, declared);
  // Decoded from its first MAX_PAGE_BYTES at most: a longer text can pass V8's longest string
  // (a 600 MB ISO-2022-JP page failed to decode, and was scanned as bytes, which it must not be).
  const cut = html.length > MAX_PAGE_BYTES;
  const text = DECODED_FIRST.has(found) ? decodedFirst(cut ? html.subarray(0, MAX_PAGE_BYTES) : html, found) : undefined;
  if (text !== undefined) {
    return { page: { kind: "text", text }, input: { bytes: html.length, encoding: found, bom, transcoded: true, truncated: cut } };
  }
  if (found === "replacement") {
    return { page: { kind: "text", text: html.length > 0 ? "\ufffd" : "" }, input: { bytes: html.length, encoding: found, bom, transcoded: true, truncated: false } };
  }
  return { page: { kind: "bytes", bytes: html }, input: { bytes: html.length, encoding: found, bom, transcoded: false, truncated: false } };
}

/** UTF-8 length of a string (lone surrogates count as the 3 bytes of U+FFFD, as TextEncoder writes them). */
function utf8Length(text: string): number {
  let length = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) length += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      length += 2; // 4 bytes for 2 UTF-16 units
      i++;
    } else length += 2;
  }
  return length;
}

/**
 * The most of a page the scanner reads: far past any page (Googlebot reads the first 15 MB of
 * HTML). The page and the scan's list of tags live in the engine's memory, whose blocks stop at 1
 * GiB: a page of 369 MB of `<meta name>` tags, or of 1.1 GB of text, failed the scan (an internal
 * error) and left its memory behind; the first MAX_PAGE_BYTES are read instead (`input.truncated`).
 */
export const MAX_PAGE_BYTES = 256 << 20;

/**
 * Writes the page into the engine's "html" scratch region, up to MAX_PAGE_BYTES (a text up to its
 * last whole character within them); returns its address, byte length and whether it was cut.
 */
function writePage(engine: Engine, page: PageBytes): { pointer: number; length: number; truncated: boolean } {
  if (page.kind === "bytes") {
    const length = Math.min(page.bytes.length, MAX_PAGE_BYTES);
    const pointer = engine.scratch("html", length);
    // A detached array (its buffer transferred) reads as empty, as its length says; set() would throw.
    if (length > 0) engine.bytes.set(page.bytes.subarray(0, length), pointer);
    return { pointer, length, truncated: length < page.bytes.length };
  }
  const { text } = page;
  // Most pages are ASCII: try the string's own length first, measure only when that is too small.
  let room = Math.min(text.length, MAX_PAGE_BYTES);
  let pointer = engine.scratch("html", room);
  let { read, written } = utf8Encoder.encodeInto(text, engine.bytes.subarray(pointer, pointer + room));
  if (read < text.length && room < MAX_PAGE_BYTES) {
    room = Math.min(utf8Length(text), MAX_PAGE_BYTES);
    pointer = engine.scratch("html", room);
    ({ read, written } = utf8Encoder.encodeInto(text, engine.bytes.subarray(pointer, pointer + room)));
  }
  return { pointer, length: written, truncated: read < text.length };
}

const decoders = new Map<string, TextDecoder>();

/** How many decoders are kept (for tests: the set stays bounded whatever labels pages declare). */
export function keptDecoders(): number {
  return decoders.size;
}

/**
 * The decoder of an encoding, one per encoding the platform knows (a bounded set); an unknown
 * label, which a server's Content-Type can make anything, shares the UTF-8 one and is not kept.
 */
function decoderFor(encoding: string): TextDecoder {
  let decoder = decoders.get(encoding);
  if (decoder === undefined) {
    try {
      // ignoreBOM: a U+FEFF at the start of a name or content is a character of it, as the
      // tokenizer sees it; only the page's first bytes can be a byte order mark (pageEncoding).
      decoder = new TextDecoder(encoding, { ignoreBOM: true });
    } catch {
      return decoderFor("utf-8"); // names and contents are read as UTF-8
    }
    decoders.set(encoding, decoder);
  }
  return decoder;
}

/**
 * An attribute value as the tokenizer hands it over: input preprocessing turns CR LF and lone CR
 * into LF, a NUL in a value becomes U+FFFD, then character references are decoded.
 */
function attributeValue(raw: string, hasReference: boolean): string {
  let value = raw;
  if (value.includes("\r")) value = value.replace(/\r\n?/g, "\n");
  if (value.includes("\0")) value = value.replaceAll("\0", "\ufffd");
  return hasReference ? decodeAttributeValue(value) : value;
}

/**
 * Names and contents up to this length are shared between the tags that repeat them (a page of a
 * million `<meta name=robots ...>` holds one `robots`), through a map of at most SHARED_VALUES
 * values per scan; longer ones are rarely repeated and cost more to compare than to keep.
 */
const SHARED_LENGTH = 64;
const SHARED_VALUES = 1024;

/** `value`, or an equal string already handed out for an earlier tag of the scan. */
function shared(values: Map<string, string>, value: string): string {
  if (value.length > SHARED_LENGTH) return value;
  const known = values.get(value);
  if (known !== undefined) return known;
  if (values.size < SHARED_VALUES) values.set(value, value);
  return value;
}

export interface ScannedPage {
  tags: MetaTag[];
  input: PageInput;
}

/** Scans a page with a given engine (tests use it to run the debug build). */
export function scanPageWith(engine: Engine, html: string | Uint8Array, encoding?: string): ScannedPage {
  const prepared = preparePage(html, encoding);
  const { exports } = engine;
  let scan: number | undefined;
  try {
    const { pointer, length, truncated } = writePage(engine, prepared.page);
    const bytesGiven = typeof html === "string" ? (truncated ? utf8Length(html) : length) : prepared.input.bytes;
    const input = { ...prepared.input, bytes: bytesGiven, truncated: truncated || prepared.input.truncated };
    scan = engine.call(() => exports.scanMetaTags(pointer, length));
    const count = exports.metaTagCount(scan);
    // No engine call until the loop is done: the views stay valid and nothing needs copying.
    const fields = engine.words;
    const bytes = engine.bytes.subarray(pointer, pointer + length);
    const decoder = decoderFor(input.transcoded ? "utf-8" : input.encoding);
    const text = (start: number, byteLength: number) => decoder.decode(bytes.subarray(start, start + byteLength));
    const tags: MetaTag[] = new Array(count);
    const values = new Map<string, string>();
    for (let i = 0, at = exports.metaTagsPointer(scan) >>> 2; i < count; i++, at += META_FIELDS) {
      const flags = fields[at + 6]!;
      const name = shared(values, attributeValue(text(fields[at + 2]!, fields[at + 3]!), (flags & MetaFlag.nameReference) !== 0));
      const content = flags & MetaFlag.hasContent
        ? shared(values, attributeValue(text(fields[at + 4]!, fields[at + 5]!), (flags & MetaFlag.contentReference) !== 0))
        : null;
      tags[i] = {
        name,
        content,
        offset: fields[at]!,
        length: fields[at + 1]! - fields[at]!,
        inHead: (flags & MetaFlag.inHead) !== 0,
        inNoscript: (flags & MetaFlag.inNoscript) !== 0,
        selfClosing: (flags & MetaFlag.selfClosing) !== 0,
      };
    }
    return { tags, input };
  } finally {
    // Also after a failed scan: the page's region goes back either way.
    if (scan !== undefined) engine.call(() => exports.freeMetaTags(scan!));
    // A page of megabytes leaves its region to the allocator (Engine.releaseScratch).
    engine.releaseScratch("html");
  }
}
