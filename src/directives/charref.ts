/**
 * Character references in attribute values (HTML living standard 13.2.5.72 to 13.2.5.80):
 * numeric references in full, named references for the names that matter in robots metas.
 *
 * Named references outside NAMED are left as written (a full HTML5 parser knows 2,231 names):
 * NAMED holds every name of an ASCII character (so every way to spell a directive, such as
 * `unavailable&UnderBar;after`), the Latin-1 ones and common typography. Within an attribute, a
 * legacy reference without `;` (`&amp`, `&lt`, `&nbsp`, ...) is decoded only when the next
 * character is neither `=` nor alphanumeric, as the standard requires for historical reasons.
 */

/**
 * The 96 legacy names for U+00A0 to U+00FF, in code point order (HTML 4's Latin-1 set; HTML5
 * keeps them, with and without the semicolon).
 */
const LATIN1_NAMES = (
  "nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr deg plusmn sup2 sup3 " +
  "acute micro para middot cedil sup1 ordm raquo frac14 frac12 frac34 iquest Agrave Aacute Acirc Atilde Auml " +
  "Aring AElig Ccedil Egrave Eacute Ecirc Euml Igrave Iacute Icirc Iuml ETH Ntilde Ograve Oacute Ocirc Otilde " +
  "Ouml times Oslash Ugrave Uacute Ucirc Uuml Yacute THORN szlig agrave aacute acirc atilde auml aring aelig " +
  "ccedil egrave eacute ecirc euml igrave iacute icirc iuml eth ntilde ograve oacute ocirc otilde ouml divide " +
  "oslash ugrave uacute ucirc uuml yacute thorn yuml"
).split(" ");

/** Names recognised without a semicolon: Latin-1 and the ten others of HTML5's legacy list. */
const LEGACY = new Map<string, string>([
  ...LATIN1_NAMES.map((name, i) => [name, String.fromCharCode(0xa0 + i)] as [string, string]),
  ["amp", "&"], ["AMP", "&"], ["lt", "<"], ["LT", "<"], ["gt", ">"], ["GT", ">"], ["quot", '"'], ["QUOT", '"'],
  ["COPY", "\u00a9"], ["REG", "\u00ae"],
]);

/** Names that need their semicolon: the legacy ones, punctuation, and common typography. */
const NAMED = new Map<string, string>([
  ...LEGACY,
  ["apos", "'"], ["comma", ","], ["colon", ":"], ["period", "."], ["lowbar", "_"], ["hyphen", "\u2010"],
  ["dash", "\u2010"], ["sol", "/"], ["num", "#"], ["excl", "!"], ["quest", "?"], ["lpar", "("], ["rpar", ")"],
  ["semi", ";"], ["equals", "="], ["plus", "+"], ["ast", "*"], ["commat", "@"], ["percnt", "%"], ["dollar", "$"],
  ["lsqb", "["], ["rsqb", "]"], ["lcub", "{"], ["rcub", "}"], ["Tab", "\t"], ["NewLine", "\n"],
  // The other names of ASCII characters (HTML's named character reference table).
  ["midast", "*"], ["lbrack", "["], ["rbrack", "]"], ["bsol", "\\"], ["Hat", "^"], ["UnderBar", "_"], ["grave", "`"],
  ["DiacriticalGrave", "`"], ["lbrace", "{"], ["rbrace", "}"], ["verbar", "|"], ["vert", "|"], ["VerticalLine", "|"],
  ["fjlig", "fj"],
  ["ndash", "\u2013"], ["mdash", "\u2014"], ["lsquo", "\u2018"], ["rsquo", "\u2019"], ["ldquo", "\u201c"],
  ["rdquo", "\u201d"], ["hellip", "\u2026"], ["bull", "\u2022"], ["trade", "\u2122"], ["euro", "\u20ac"],
  ["ensp", "\u2002"], ["emsp", "\u2003"], ["thinsp", "\u2009"], ["zwnj", "\u200c"], ["zwj", "\u200d"],
]);

/** Longest legacy name (frac12, Agrave, ...). */
const LONGEST_LEGACY = 6;

/** Numeric references to C1 controls mean Windows-1252 characters (HTML 13.2.5.80's table). */
const C1_REPLACEMENTS: Readonly<Record<number, number>> = {
  0x80: 0x20ac, 0x82: 0x201a, 0x83: 0x0192, 0x84: 0x201e, 0x85: 0x2026, 0x86: 0x2020, 0x87: 0x2021,
  0x88: 0x02c6, 0x89: 0x2030, 0x8a: 0x0160, 0x8b: 0x2039, 0x8c: 0x0152, 0x8e: 0x017d, 0x91: 0x2018,
  0x92: 0x2019, 0x93: 0x201c, 0x94: 0x201d, 0x95: 0x2022, 0x96: 0x2013, 0x97: 0x2014, 0x98: 0x02dc,
  0x99: 0x2122, 0x9a: 0x0161, 0x9b: 0x203a, 0x9c: 0x0153, 0x9e: 0x017e, 0x9f: 0x0178,
};

const isAlphanumeric = (c: number) => (c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a);
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isHexDigit = (c: number) => isDigit(c) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x66);

/** The character a numeric reference stands for (13.2.5.80 numeric character reference end state). */
function numericCharacter(code: number): string {
  if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return "\ufffd";
  return String.fromCodePoint(C1_REPLACEMENTS[code] ?? code);
}

/** Decodes the character references of an attribute value. */
export function decodeAttributeValue(value: string): string {
  let amp = value.indexOf("&");
  if (amp < 0) return value;
  let out = "";
  let copied = 0;
  while (amp >= 0) {
    const decoded = decodeReferenceAt(value, amp);
    if (decoded !== undefined) {
      out += value.slice(copied, amp) + decoded.text;
      copied = decoded.end;
    }
    amp = value.indexOf("&", decoded?.end ?? amp + 1);
  }
  return out + value.slice(copied);
}

/** The reference starting with the `&` at `at`, or undefined when there is none to decode. */
function decodeReferenceAt(value: string, at: number): { text: string; end: number } | undefined {
  let i = at + 1;
  if (value.charCodeAt(i) === 0x23 /* # */) {
    i++;
    const hex = (value.charCodeAt(i) | 0x20) === 0x78; /* x */
    if (hex) i++;
    const digitsStart = i;
    let code = 0;
    while (i < value.length && (hex ? isHexDigit(value.charCodeAt(i)) : isDigit(value.charCodeAt(i)))) {
      // Past 0x10FFFF the value only needs to stay out of range.
      if (code <= 0x10ffff) code = code * (hex ? 16 : 10) + parseInt(value[i]!, 16);
      i++;
    }
    if (i === digitsStart) return undefined; // `&#` or `&#x` without digits stays as written
    if (value.charCodeAt(i) === 0x3b /* ; */) i++;
    return { text: numericCharacter(code), end: i };
  }
  while (i < value.length && isAlphanumeric(value.charCodeAt(i))) i++;
  const run = value.slice(at + 1, i);
  if (run.length === 0) return undefined;
  if (value.charCodeAt(i) === 0x3b) {
    const named = NAMED.get(run);
    if (named !== undefined) return { text: named, end: i + 1 };
  }
  for (let length = Math.min(run.length, LONGEST_LEGACY); length >= 2; length--) {
    const legacy = LEGACY.get(run.slice(0, length));
    if (legacy === undefined) continue;
    // In an attribute, `&amp` before `=` or an alphanumeric stays as written.
    const next = value.charCodeAt(at + 1 + length);
    if (next === 0x3d || isAlphanumeric(next)) return undefined;
    return { text: legacy, end: at + 1 + length };
  }
  return undefined;
}

/** Escapes text for a double-quoted attribute value (`&`, `"`, `<`, `>`). */
export function escapeAttributeValue(text: string): string {
  return text.replace(/[&"<>]/g, (c) => (c === "&" ? "&amp;" : c === '"' ? "&quot;" : c === "<" ? "&lt;" : "&gt;"));
}

/** The names this decoder knows (for the test that checks them against a full HTML5 parser). */
export function knownReferenceNames(): { named: readonly string[]; legacy: readonly string[] } {
  return { named: [...NAMED.keys()], legacy: [...LEGACY.keys()] };
}
