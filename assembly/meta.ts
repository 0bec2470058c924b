// The robots meta tag scanner: finds every `<meta name=...>` start tag of an HTML page without
// building a DOM. It follows the HTML living standard's tokenizer where it decides what is a tag
// (comments, bogus comments, raw text, RCDATA and script data, attribute quoting, EOF inside a
// tag) and a small part of tree construction (head or body, noscript, template contents).
// Character references are left to the host: values cross as byte ranges, flagged when they hold
// a `&`, and a reference never changes where a value ends.
//
// Known deviations from a full HTML5 parser: foreign content (`<svg>`, `<math>`: their `<style>`,
// `<title>`, `<script>` and `<![CDATA[` are read with HTML rules, so a self-closing `<title/>`
// there opens RCDATA and hides the tags after it, valid as the page is); and, on malformed pages,
// `<frameset>` and `<select>` insertion modes, character references that decode to
// whitespace in head text, and a `<noscript>` in the body whose end the tree builder decides
// differently: a `</noscript>` ignored because a special element inside is still open, or a
// noscript left open inside a `<p>` that a later block element closes. A NUL in head text ends
// the head, as the standard says and parse5 does; Chromium ignores it.
//
// Linear time: every loop moves forward and looks ahead a bounded number of bytes (at most the
// length of a tag name such as "plaintext"). Memory: one result record per meta tag found.
// Speed: byte searches (text, quoted values, raw text) go 16 bytes at a time with SIMD; the
// bytes inside tags go through one 256-byte class table.

import { equalsLower, isAlpha, startsWithLower } from "./chars";
import { Vec } from "./vec";

/** u32 fields per meta tag in the result. */
export const META_FIELDS: u32 = 7;

export const enum MetaField {
  /** Byte offset of the tag's `<`. */
  TAG_START,
  /** Byte offset just after the tag's `>`. */
  TAG_END,
  NAME_START,
  NAME_LENGTH,
  CONTENT_START,
  CONTENT_LENGTH,
  /** MetaFlag bits. */
  FLAGS,
}

export const enum MetaFlag {
  /** The tag has a `content` attribute (possibly empty). */
  HAS_CONTENT = 1,
  /** The element goes into `<head>` (explicit or implied); otherwise into `<body>`. */
  IN_HEAD = 2,
  /** The element is inside a `<noscript>` (read as markup: scripting disabled). */
  IN_NOSCRIPT = 4,
  /** The name value holds a `&`: the host decodes character references. */
  NAME_HAS_REFERENCE = 8,
  CONTENT_HAS_REFERENCE = 16,
  /** Written `<meta ... />`. */
  SELF_CLOSING = 32,
}

/** Bytes the tokenizer looks at. */
const enum Byte {
  TAB = 0x09,
  SPACE = 0x20,
  BANG = 0x21,
  DOUBLE_QUOTE = 0x22,
  AMPERSAND = 0x26,
  SINGLE_QUOTE = 0x27,
  MINUS = 0x2d,
  SLASH = 0x2f,
  LT = 0x3c,
  EQUALS = 0x3d,
  GT = 0x3e,
  QUESTION = 0x3f,
}

/** Tree construction, reduced to what decides head or body: the insertion modes up to "in body". */
const enum Mode {
  /** "initial", "before html" and "before head". */
  BEFORE_HEAD,
  IN_HEAD,
  /** "in head noscript" (scripting disabled). */
  HEAD_NOSCRIPT,
  AFTER_HEAD,
  BODY,
}

/** Tag names that change the tokenizer's state or the insertion mode. */
const enum Tag {
  OTHER,
  META,
  SCRIPT,
  STYLE,
  XMP,
  IFRAME,
  NOEMBED,
  NOFRAMES,
  TITLE,
  TEXTAREA,
  PLAINTEXT,
  TEMPLATE,
  NOSCRIPT,
  HTML,
  HEAD,
  BODY,
  BR,
  BASE,
  BASEFONT,
  BGSOUND,
  LINK,
}

/** Script data states (HTML 13.2.5.4 and the escaped / double escaped states after it). */
const enum Script {
  DATA,
  ESCAPED,
  ESCAPED_DASH,
  ESCAPED_DASH_DASH,
  DOUBLE_ESCAPED,
  DOUBLE_ESCAPED_DASH,
  DOUBLE_ESCAPED_DASH_DASH,
}

/** HTML whitespace after input preprocessing: tab, LF, FF, CR (read as LF) and space. */
// @ts-ignore: decorator
@inline function isSpace(c: u32): bool {
  return c == Byte.SPACE || (c - Byte.TAB < 5 && c != 0x0b);
}

/** Bytes that end a tag name: whitespace, `/`, `>`. */
// @ts-ignore: decorator
@inline function endsTagName(c: u32): bool {
  return isSpace(c) || c == Byte.SLASH || c == Byte.GT;
}

/** Bits of BYTE_CLASSES. */
const enum Class {
  /** Tab, LF, FF, CR, space. */
  SPACE = 1,
  /** Whitespace, `/`, `>`: the end of a tag name (13.2.5.8). */
  TAG_NAME_END = 2,
  /** Whitespace, `/`, `>`, `=`: the end of an attribute name (13.2.5.33). */
  ATTRIBUTE_NAME_END = 4,
  /** Whitespace, `>`: the end of an unquoted attribute value (13.2.5.38). */
  UNQUOTED_END = 8,
}

/**
 * Class bits per byte (256 bytes): one load per byte in the loops that run over every tag. Rows
 * of 16 from 0x00; set: 0x09 0x0A 0x0C 0x0D 0x20 (15), `/` 0x2F (6), `=` 0x3D (4), `>` 0x3E (14).
 */
const BYTE_CLASSES = memory.data<u8>([
  0, 0, 0, 0, 0, 0, 0, 0, 0, 15, 15, 0, 15, 15, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  15, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 6,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 14, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
]);

/** The byte at `p` has a bit of `classes`. */
// @ts-ignore: decorator
@inline function hasClass(p: usize, classes: u32): bool {
  return (<u32>load<u8>(BYTE_CLASSES + <usize>load<u8>(p)) & classes) != 0;
}

/** The first address in [p, end) whose byte has a bit of `classes`, or end. */
// @ts-ignore: decorator
@inline function findClass(p: usize, end: usize, classes: u32): usize {
  while (p < end && !hasClass(p, classes)) p++;
  return p;
}

/** The first address in [p, end) that is not whitespace, or end. */
// @ts-ignore: decorator
@inline function skipSpace(p: usize, end: usize): usize {
  while (p < end && hasClass(p, Class.SPACE)) p++;
  return p;
}

// Scanner state for one page (the module is single-threaded; scanMetaTags resets it).
let mode: u32 = Mode.BEFORE_HEAD;
let templateDepth: u32 = 0;
let noscriptDepth: u32 = 0;
/** Set by readAttributes: the tag ended with `>` (false: EOF, the tag is dropped). */
let tagClosed: bool = false;
let selfClosing: bool = false;
/** The first `name` and `content` attributes of the last meta tag (HTML: the first one wins). */
let hasName: bool = false;
let hasContent: bool = false;
let nameStart: usize = 0;
let nameEnd: usize = 0;
let contentStart: usize = 0;
let contentEnd: usize = 0;

/**
 * Scans `length` bytes of HTML at `html` and returns a Vec of META_FIELDS u32 per meta tag that
 * has a `name` attribute, in document order, offsets relative to `html`.
 */
export function scanMetaTags(html: usize, length: usize): Vec {
  const out = Vec.create(16 * (META_FIELDS << 2));
  mode = Mode.BEFORE_HEAD;
  templateDepth = 0;
  noscriptDepth = 0;
  const end = html + length;
  let p = html;
  // A UTF-8 byte order mark is not text (the decoder drops it), so it does not start the body.
  if (length >= 3 && load<u8>(p) == 0xef && load<u8>(p + 1) == 0xbb && load<u8>(p + 2) == 0xbf) p += 3;
  while (p < end) {
    if (mode == Mode.BODY || templateDepth != 0) {
      p = findByte(p, end, Byte.LT);
    } else {
      // Before the body, text that is not whitespace ends the head.
      while (p < end) {
        const c = <u32>load<u8>(p);
        if (c == Byte.LT) break;
        if (!isSpace(c)) seeText();
        p++;
      }
    }
    if (p >= end) break;
    p = readMarkup(p, end, html, out);
  }
  return out;
}

/** First address in [p, end) holding `target`, or end. */
// @ts-ignore: decorator
@inline function findByte(p: usize, end: usize, target: u32): usize {
  // Sixteen bytes at a time (SIMD): the position of the first equal byte comes from its bitmask.
  if (p < end && <u32>load<u8>(p) == target) return p; // markup often follows markup at once
  const pattern = i8x16.splat(<i8>target);
  while (p + 16 <= end) {
    const found = i8x16.bitmask(i8x16.eq(v128.load(p), pattern));
    if (found != 0) return p + <usize>ctz(found);
    p += 16;
  }
  while (p < end && <u32>load<u8>(p) != target) p++;
  return p;
}

/** Text that is not whitespace: the head is over ("anything else" in each mode before "in body"). */
function seeText(): void {
  if (templateDepth == 0) mode = Mode.BODY;
}

/** Reads what starts with the `<` at `p`; returns where the data state resumes. */
// @ts-ignore: decorator
@inline function readMarkup(p: usize, end: usize, html: usize, out: Vec): usize {
  if (p + 1 >= end) {
    seeText(); // a lone `<` at the end is text
    return end;
  }
  const c = <u32>load<u8>(p + 1);
  if (isAlpha(c)) return readStartTag(p, end, html, out);
  if (c == Byte.SLASH) {
    const q = p + 2;
    if (q >= end) {
      seeText(); // `</` at EOF is text
      return end;
    }
    const d = <u32>load<u8>(q);
    if (isAlpha(d)) return readEndTag(q, end);
    if (d == Byte.GT) return q + 1; // `</>` is dropped
    return skipBogusComment(q, end);
  }
  if (c == Byte.BANG) {
    if (p + 3 < end && load<u8>(p + 2) == Byte.MINUS && load<u8>(p + 3) == Byte.MINUS) return skipComment(p + 4, end);
    // DOCTYPE, `<![CDATA[` outside foreign content and anything else after `<!` end at the first `>`.
    return skipBogusComment(p + 2, end);
  }
  if (c == Byte.QUESTION) return skipBogusComment(p + 1, end);
  seeText(); // `<` followed by anything else is text
  return p + 1;
}

/** A bogus comment ends at the first `>` (or EOF). */
function skipBogusComment(p: usize, end: usize): usize {
  const q = findByte(p, end, Byte.GT);
  return q < end ? q + 1 : end;
}

/**
 * A comment, `p` just after `<!--`: ends at `-->` or `--!>`, or at once for `<!-->` and
 * `<!--->` (abrupt closing). Nested `<!--` changes nothing about where it ends.
 */
function skipComment(p: usize, end: usize): usize {
  if (p < end) {
    const c = load<u8>(p);
    if (c == Byte.GT) return p + 1;
    if (c == Byte.MINUS && p + 1 < end && load<u8>(p + 1) == Byte.GT) return p + 2;
  }
  let i = p;
  while (true) {
    i = findByte(i, end, Byte.MINUS);
    if (i + 2 >= end) return end;
    if (load<u8>(i + 1) == Byte.MINUS) {
      const c = load<u8>(i + 2);
      if (c == Byte.GT) return i + 3;
      if (c == Byte.BANG && i + 3 < end && load<u8>(i + 3) == Byte.GT) return i + 4;
    }
    i++;
  }
}

/**
 * For name lengths 2 to 9, a bit per first letter (a = bit 0) of the names namedTag knows: most
 * tags (div, img, span, li, button, ...) are known to be OTHER from two loads.
 */
const FIRST_LETTERS = memory.data<u32>([0x2, 0x800000, 0x1882, 0xc0000, 0x40100, 0x2002, 0x82002, 0x8000]);

/** The tag name at [start, start + length), ASCII case-insensitively; it starts with a letter. */
// @ts-ignore: decorator
@inline function tagOf(start: usize, length: usize): u32 {
  if (length - 2 > 7) return Tag.OTHER; // the names namedTag knows have 2 to 9 bytes
  const letters = load<u32>(FIRST_LETTERS + ((length - 2) << 2));
  return (letters >> ((<u32>load<u8>(start) | 0x20) - 0x61)) & 1 ? namedTag(start, length) : Tag.OTHER;
}

/**
 * A tag name of 2 to 9 bytes. The name's bytes, each ORed with 0x20, are packed little-endian
 * into a u64: for a name of letters only, a byte ORed with 0x20 equals its lower-case letter
 * exactly when it is that letter in either case. The constants are the packed lower-case names
 * ("meta" = 0x6174656d: 'm' 0x6d in the lowest byte).
 */
function namedTag(start: usize, length: usize): u32 {
  const n = min<usize>(length, 8);
  let key: u64 = 0;
  for (let i: usize = 0; i < n; i++) key |= <u64>(load<u8>(start + i) | 0x20) << (<u64>i << 3);
  switch (<u32>length) {
    case 2: return key == 0x7262 ? Tag.BR : Tag.OTHER;
    case 3: return key == 0x706d78 ? Tag.XMP : Tag.OTHER;
    case 4:
      if (key == 0x6174656d) return Tag.META;
      if (key == 0x6c6d7468) return Tag.HTML;
      if (key == 0x64616568) return Tag.HEAD;
      if (key == 0x79646f62) return Tag.BODY;
      if (key == 0x65736162) return Tag.BASE;
      return key == 0x6b6e696c ? Tag.LINK : Tag.OTHER;
    case 5:
      if (key == 0x656c797473) return Tag.STYLE;
      return key == 0x656c746974 ? Tag.TITLE : Tag.OTHER;
    case 6:
      if (key == 0x747069726373) return Tag.SCRIPT;
      return key == 0x656d61726669 ? Tag.IFRAME : Tag.OTHER;
    case 7:
      if (key == 0x6465626d656f6e) return Tag.NOEMBED;
      return key == 0x646e756f736762 ? Tag.BGSOUND : Tag.OTHER;
    case 8:
      if (key == 0x6165726174786574) return Tag.TEXTAREA;
      if (key == 0x6574616c706d6574) return Tag.TEMPLATE;
      if (key == 0x7470697263736f6e) return Tag.NOSCRIPT;
      if (key == 0x73656d6172666f6e) return Tag.NOFRAMES;
      return key == 0x746e6f6665736162 ? Tag.BASEFONT : Tag.OTHER;
    default: // 9: "plaintext" is "plaintex" + 't'
      return key == 0x7865746e69616c70 && (load<u8>(start + 8) | 0x20) == 0x74 ? Tag.PLAINTEXT : Tag.OTHER;
  }
}

/** The tags "in head" keeps in the head (and "after head" puts back into it). */
// @ts-ignore: decorator
@inline function belongsInHead(tag: u32): bool {
  return tag == Tag.META || tag == Tag.LINK || tag == Tag.TITLE || tag == Tag.STYLE || tag == Tag.SCRIPT ||
    tag == Tag.NOFRAMES || tag == Tag.TEMPLATE || tag == Tag.BASE || tag == Tag.BASEFONT || tag == Tag.BGSOUND;
}

/** The start tag's effect on the insertion mode (HTML 13.2.6.4.1 to 13.2.6.4.7, reduced). */
function enterStartTag(tag: u32): void {
  if (templateDepth != 0) {
    // Template contents are a separate fragment: only nesting matters.
    if (tag == Tag.TEMPLATE) templateDepth++;
    return;
  }
  while (true) {
    switch (mode) {
      case Mode.BEFORE_HEAD:
        if (tag == Tag.HTML) return;
        mode = Mode.IN_HEAD; // an implied <head>, or the explicit one
        if (tag == Tag.HEAD) return;
        continue;
      case Mode.IN_HEAD:
        if (tag == Tag.TEMPLATE) {
          templateDepth++;
          return;
        }
        if (belongsInHead(tag) || tag == Tag.HTML || tag == Tag.HEAD) return;
        if (tag == Tag.NOSCRIPT) {
          mode = Mode.HEAD_NOSCRIPT;
          return;
        }
        mode = Mode.AFTER_HEAD;
        continue;
      case Mode.HEAD_NOSCRIPT:
        if (tag == Tag.META || tag == Tag.LINK || tag == Tag.STYLE || tag == Tag.NOFRAMES || tag == Tag.BASEFONT ||
          tag == Tag.BGSOUND || tag == Tag.HTML || tag == Tag.HEAD || tag == Tag.NOSCRIPT) return;
        mode = Mode.IN_HEAD; // anything else closes the noscript and is read again in head
        continue;
      case Mode.AFTER_HEAD:
        if (tag == Tag.BODY) {
          mode = Mode.BODY;
          return;
        }
        if (tag == Tag.TEMPLATE) {
          templateDepth++;
          return;
        }
        if (belongsInHead(tag) || tag == Tag.HTML || tag == Tag.HEAD) return;
        mode = Mode.BODY;
        continue;
      default:
        if (tag == Tag.NOSCRIPT) noscriptDepth++;
        else if (tag == Tag.TEMPLATE) templateDepth++;
        return;
    }
  }
}

/** The end tag's effect on the insertion mode. */
function enterEndTag(tag: u32): void {
  if (templateDepth != 0) {
    if (tag == Tag.TEMPLATE) templateDepth--;
    return;
  }
  const leavesHead = tag == Tag.BODY || tag == Tag.HTML || tag == Tag.BR;
  while (true) {
    switch (mode) {
      case Mode.BEFORE_HEAD:
        if (tag != Tag.HEAD && !leavesHead) return;
        mode = Mode.IN_HEAD;
        continue;
      case Mode.IN_HEAD:
        if (tag != Tag.HEAD && !leavesHead) return;
        mode = Mode.AFTER_HEAD;
        if (tag == Tag.HEAD) return;
        continue;
      case Mode.HEAD_NOSCRIPT:
        if (tag == Tag.NOSCRIPT) {
          mode = Mode.IN_HEAD;
          return;
        }
        if (tag != Tag.BR) return;
        mode = Mode.IN_HEAD;
        continue;
      case Mode.AFTER_HEAD:
        if (leavesHead) mode = Mode.BODY;
        return;
      default:
        if (tag == Tag.NOSCRIPT && noscriptDepth != 0) noscriptDepth--;
        return;
    }
  }
}

/** The start tag whose `<` is at `p`. */
function readStartTag(p: usize, end: usize, html: usize, out: Vec): usize {
  const name = p + 1;
  let q = findClass(p + 2, end, Class.TAG_NAME_END);
  if (q >= end) return end; // EOF in a tag: no tag
  const tag = tagOf(name, q - name);
  const isMeta = tag == Tag.META;
  q = readTagRest(q, end, isMeta);
  if (!tagClosed) return end;
  // In the body, only noscript and template change the scanner's state.
  if (tag != Tag.OTHER || mode != Mode.BODY) enterStartTag(tag);
  switch (tag) {
    case Tag.META:
      if (hasName && templateDepth == 0) recordMeta(p, q, html, out);
      return q;
    case Tag.SCRIPT:
      return skipScriptData(q, end);
    case Tag.STYLE:
      return skipRawText(q, end, "style");
    case Tag.TITLE:
      return skipRawText(q, end, "title");
    case Tag.TEXTAREA:
      return skipRawText(q, end, "textarea");
    case Tag.XMP:
      return skipRawText(q, end, "xmp");
    case Tag.IFRAME:
      return skipRawText(q, end, "iframe");
    case Tag.NOEMBED:
      return skipRawText(q, end, "noembed");
    case Tag.NOFRAMES:
      return skipRawText(q, end, "noframes");
    case Tag.PLAINTEXT:
      return end; // everything after <plaintext> is text
  }
  return q;
}

/** The end tag whose name starts at `name` (just after `</`). */
function readEndTag(name: usize, end: usize): usize {
  let q = findClass(name + 1, end, Class.TAG_NAME_END);
  if (q >= end) return end;
  const tag = tagOf(name, q - name);
  q = readTagRest(q, end, false);
  if (!tagClosed) return end;
  if (tag != Tag.OTHER || mode != Mode.BODY) enterEndTag(tag);
  return q;
}

function recordMeta(start: usize, stop: usize, html: usize, out: Vec): void {
  let flags: u32 = 0;
  if (hasContent) flags |= MetaFlag.HAS_CONTENT;
  if (mode != Mode.BODY) flags |= MetaFlag.IN_HEAD;
  if (mode == Mode.HEAD_NOSCRIPT || noscriptDepth != 0) flags |= MetaFlag.IN_NOSCRIPT;
  if (selfClosing) flags |= MetaFlag.SELF_CLOSING;
  if (findByte(nameStart, nameEnd, Byte.AMPERSAND) < nameEnd) flags |= MetaFlag.NAME_HAS_REFERENCE;
  if (hasContent && findByte(contentStart, contentEnd, Byte.AMPERSAND) < contentEnd) flags |= MetaFlag.CONTENT_HAS_REFERENCE;
  const at = out.reserve(META_FIELDS << 2);
  store<u32>(at, <u32>(start - html));
  store<u32>(at, <u32>(stop - html), 4);
  store<u32>(at, <u32>(nameStart - html), 8);
  store<u32>(at, <u32>(nameEnd - nameStart), 12);
  store<u32>(at, hasContent ? <u32>(contentStart - html) : 0, 16);
  store<u32>(at, hasContent ? <u32>(contentEnd - contentStart) : 0, 20);
  store<u32>(at, flags, 24);
  out.length += META_FIELDS << 2;
}

/** readAttributes, with the commonest case first: `>` right after the name (`<p>`, `</div>`). */
// @ts-ignore: decorator
@inline function readTagRest(p: usize, end: usize, capture: bool): usize {
  if (!capture && p < end && load<u8>(p) == Byte.GT) {
    tagClosed = true;
    selfClosing = false;
    return p + 1;
  }
  return readAttributes(p, end, capture);
}

/**
 * The attributes of a tag, from just after its name to its `>` (HTML 13.2.5.32 to 13.2.5.40).
 * Returns the address after `>` and sets tagClosed; at EOF returns `end` with tagClosed false.
 * When `capture`, remembers the first `name` and `content` attribute values.
 */
function readAttributes(p: usize, end: usize, capture: bool): usize {
  tagClosed = false;
  selfClosing = false;
  if (capture) {
    hasName = false;
    hasContent = false;
  }
  while (p < end) {
    // Before attribute name.
    p = skipSpace(p, end);
    if (p >= end) return end;
    let c = <u32>load<u8>(p);
    if (c == Byte.GT) {
      tagClosed = true;
      return p + 1;
    }
    if (c == Byte.SLASH) {
      // Self-closing start tag state: anything but `>` is read again as an attribute start.
      p++;
      if (p < end && load<u8>(p) == Byte.GT) {
        selfClosing = true;
        tagClosed = true;
        return p + 1;
      }
      continue;
    }
    // Attribute name: the first byte belongs to it even when it is `=`.
    const attributeName = p;
    p = findClass(p + 1, end, Class.ATTRIBUTE_NAME_END);
    if (p >= end) return end;
    const attributeNameLength = p - attributeName;
    // After attribute name (whitespace is rare before `=`: test the byte first).
    c = load<u8>(p);
    if (isSpace(c)) {
      p = skipSpace(p + 1, end);
      if (p >= end) return end;
      c = load<u8>(p);
    }
    let valueStart = p;
    let valueEnd = p;
    if (c == Byte.EQUALS) {
      // Before attribute value.
      if (++p >= end) return end;
      c = load<u8>(p);
      if (isSpace(c)) {
        p = skipSpace(p + 1, end);
        if (p >= end) return end;
        c = load<u8>(p);
      }
      if (c == Byte.DOUBLE_QUOTE || c == Byte.SINGLE_QUOTE) {
        valueStart = p + 1;
        valueEnd = findByte(valueStart, end, c);
        if (valueEnd >= end) return end;
        p = valueEnd + 1;
      } else if (c == Byte.GT) {
        valueStart = valueEnd = p; // missing value: empty; the `>` closes the tag below
      } else {
        valueStart = p;
        p = findClass(p, end, Class.UNQUOTED_END);
        if (p >= end) return end;
        valueEnd = p;
      }
    }
    // An attribute without `=` has the empty value; what follows is read at the loop's top.
    if (capture) {
      if (!hasName && equalsLower(attributeName, attributeNameLength, "name")) {
        hasName = true;
        nameStart = valueStart;
        nameEnd = valueEnd;
      } else if (!hasContent && equalsLower(attributeName, attributeNameLength, "content")) {
        hasContent = true;
        contentStart = valueStart;
        contentEnd = valueEnd;
      }
    }
  }
  return end;
}

/** `</name` followed by whitespace, `/` or `>` at `p` (name: a lower-case literal of letters). */
function isEndTagOf(p: usize, end: usize, name: string): bool {
  const n = <usize>name.length;
  return p + 2 + n < end && load<u8>(p) == Byte.LT && load<u8>(p + 1) == Byte.SLASH &&
    startsWithLower(p + 2, n, name) && endsTagName(load<u8>(p + 2 + n));
}

/** Reads the end tag found by isEndTagOf at `p` to its `>`. */
function skipEndTag(p: usize, end: usize, name: string): usize {
  const q = readAttributes(p + 2 + <usize>name.length, end, false);
  return tagClosed ? q : end;
}

/**
 * RAWTEXT and RCDATA (style, xmp, iframe, noembed, noframes; title, textarea): text up to the
 * element's own end tag, matched ASCII case-insensitively. Character references in RCDATA do not
 * change where it ends.
 */
function skipRawText(p: usize, end: usize, name: string): usize {
  while (true) {
    p = findByte(p, end, Byte.LT);
    if (p >= end) return end;
    if (isEndTagOf(p, end, name)) return skipEndTag(p, end, name);
    p++;
  }
}

/** The letters starting at `p`: their end. */
function skipLetters(p: usize, end: usize): usize {
  while (p < end && isAlpha(load<u8>(p))) p++;
  return p;
}

/**
 * Script data (HTML 13.2.5.4 and 13.2.5.15 to 13.2.5.31): ends at `</script`, except inside a
 * `<!--` ... `-->` region that opened another `<script` (double escaped), where it does not.
 */
function skipScriptData(p: usize, end: usize): usize {
  let state = Script.DATA;
  while (p < end) {
    if (state == Script.DATA) {
      p = findByte(p, end, Byte.LT);
      if (p >= end) return end;
      if (isEndTagOf(p, end, "script")) return skipEndTag(p, end, "script");
      if (p + 3 < end && load<u8>(p + 1) == Byte.BANG && load<u8>(p + 2) == Byte.MINUS && load<u8>(p + 3) == Byte.MINUS) {
        state = Script.ESCAPED_DASH_DASH; // the dashes of `<!--` count: `<!-->` leaves at once
        p += 4;
      } else {
        p++;
      }
      continue;
    }
    const c = <u32>load<u8>(p);
    const escaped = state <= Script.ESCAPED_DASH_DASH;
    if (c == Byte.MINUS) {
      // ESCAPED -> ESCAPED_DASH -> ESCAPED_DASH_DASH, which more dashes keep (the same when double escaped).
      if (state != Script.ESCAPED_DASH_DASH && state != Script.DOUBLE_ESCAPED_DASH_DASH) state++;
      p++;
      continue;
    }
    if (c == Byte.GT && (state == Script.ESCAPED_DASH_DASH || state == Script.DOUBLE_ESCAPED_DASH_DASH)) {
      state = Script.DATA;
      p++;
      continue;
    }
    if (c != Byte.LT) {
      state = escaped ? Script.ESCAPED : Script.DOUBLE_ESCAPED;
      p++;
      continue;
    }
    // `<` in an escaped state.
    if (p + 1 >= end) return end;
    const next = <u32>load<u8>(p + 1);
    if (escaped) {
      state = Script.ESCAPED;
      if (next == Byte.SLASH) {
        if (isEndTagOf(p, end, "script")) return skipEndTag(p, end, "script");
        p += 2; // the rest is read again as escaped text
      } else if (isAlpha(next)) {
        // Double escape start: `<script` followed by whitespace, `/` or `>` (consumed).
        const stop = skipLetters(p + 1, end);
        if (stop >= end) return end;
        if (endsTagName(load<u8>(stop))) {
          if (stop - p - 1 == 6 && startsWithLower(p + 1, 6, "script")) state = Script.DOUBLE_ESCAPED;
          p = stop + 1;
        } else {
          p = stop;
        }
      } else {
        p++;
      }
    } else {
      state = Script.DOUBLE_ESCAPED;
      if (next == Byte.SLASH) {
        // Double escape end: `</script` followed by whitespace, `/` or `>` (consumed).
        const stop = skipLetters(p + 2, end);
        if (stop >= end) return end;
        if (endsTagName(load<u8>(stop))) {
          if (stop - p - 2 == 6 && startsWithLower(p + 2, 6, "script")) state = Script.ESCAPED;
          p = stop + 1;
        } else {
          p = stop;
        }
      } else {
        p++;
      }
    }
  }
  return end;
}
