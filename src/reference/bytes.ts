/**
 * Byte helpers. The reference works on "binary strings": JavaScript strings in which every
 * char code is one byte (0-255). That keeps the code readable (ordinary string operations,
 * `charCodeAt`, `slice`) while never decoding robots.txt content as text: non-UTF-8 bytes, NULs
 * and garbage pass through unchanged. Only user-facing strings (record values, sitemaps) are
 * decoded, and only at the end.
 */

/** A string whose char codes are bytes (0-255). A type alias, for documentation only. */
export type ByteString = string;

const utf8Encoder = new TextEncoder();
// Non-fatal: invalid UTF-8 becomes U+FFFD instead of throwing (robots.txt content never throws).
// ignoreBOM: a byte-order mark inside the file is an ordinary character, kept (robots-txt.md 1).
const utf8Decoder = new TextDecoder("utf-8", { ignoreBOM: true });

// String.fromCharCode takes its bytes as arguments; chunks keep us under engines' argument limits.
const CHUNK = 0x2000;

export function bytesToBinary(bytes: Uint8Array): ByteString {
  let out = "";
  for (let start = 0; start < bytes.length; start += CHUNK) {
    // `apply` takes the typed array as an array-like directly (a spread would iterate it: slow).
    out += String.fromCharCode.apply(null, bytes.subarray(start, start + CHUNK) as unknown as number[]);
  }
  return out;
}

export function binaryToBytes(binary: ByteString): Uint8Array {
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** A JavaScript string (a URL, say) as the bytes of its UTF-8 encoding. */
export function utf8ToBinary(text: string): ByteString {
  return bytesToBinary(utf8Encoder.encode(text));
}

/** Bytes decoded as UTF-8 for the user; invalid sequences become U+FFFD. */
export function binaryToUtf8(binary: ByteString): string {
  return utf8Decoder.decode(binaryToBytes(binary));
}

/**
 * ASCII-only lower-casing: A-Z become a-z, every other char is kept. `String#toLowerCase` would
 * also fold non-ASCII characters (the Kelvin sign becomes `k`), which a byte engine never does.
 */
export function asciiLower(text: string): string {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    out += code >= 0x41 && code <= 0x5a ? String.fromCharCode(code + 0x20) : text[i];
  }
  return out;
}

/** `text` starts with `lowerPrefix` (given in lower case), ignoring ASCII case. */
export function startsWithIgnoreAsciiCase(text: string, lowerPrefix: string): boolean {
  if (text.length < lowerPrefix.length) return false;
  for (let i = 0; i < lowerPrefix.length; i++) {
    const code = text.charCodeAt(i);
    const lower = code >= 0x41 && code <= 0x5a ? code + 0x20 : code;
    if (lower !== lowerPrefix.charCodeAt(i)) return false;
  }
  return true;
}

export const TAB = 0x09;
export const LF = 0x0a;
export const VT = 0x0b;
export const FF = 0x0c;
export const CR = 0x0d;
export const SPACE = 0x20;
export const NUL = 0x00;

/** The whitespace trimmed around lines, keys and values (decision 8; Google: `absl::StripAsciiWhitespace`). */
export function isTrimmedSpace(code: number): boolean {
  return code === SPACE || code === TAB || code === VT || code === FF;
}

/** Removes decision-8 whitespace from both ends. */
export function trimAsciiSpace(text: ByteString): ByteString {
  let start = 0;
  let end = text.length;
  while (start < end && isTrimmedSpace(text.charCodeAt(start))) start++;
  while (end > start && isTrimmedSpace(text.charCodeAt(end - 1))) end--;
  return text.slice(start, end);
}
