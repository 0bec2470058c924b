import { RobotsError } from "./errors.js";
import { isUint8Array, plainBytes } from "./options.js";
import type { InputInfo } from "./types.js";

const utf8 = new TextEncoder();

export interface PreparedInput {
  /** The bytes the parser reads. */
  bytes: Uint8Array;
  info: InputInfo;
}

/**
 * Turns a robots.txt body into the bytes the parser reads: strings become UTF-8, the size limit
 * cuts the raw bytes, and a UTF-16 body (known by its BOM) is transcoded to UTF-8.
 */
/** Checks a robots.txt body's type: a string or a Uint8Array, else `ROBOTS_ERR_INVALID_BODY`. */
export function assertBody(body: unknown): asserts body is string | Uint8Array {
  if (typeof body !== "string" && !isUint8Array(body)) {
    throw new RobotsError("ROBOTS_ERR_INVALID_BODY", "robots.txt body must be a string or a Uint8Array");
  }
}

export function prepareInput(body: unknown, maxBytes: number): PreparedInput {
  assertBody(body);
  const raw = typeof body === "string" ? utf8.encode(body) : plainBytes(body);

  const truncated = raw.length > maxBytes;
  const limited = truncated ? raw.subarray(0, maxBytes) : raw;
  const utf16 = utf16Encoding(limited);
  if (utf16 !== undefined) {
    // UTF-16 robots.txt files exist in the wild (saved by Windows editors); decode them so that
    // their rules are not lost. The decoder drops the BOM.
    const text = new TextDecoder(utf16).decode(limited);
    const bytes = utf8.encode(text);
    const cutInLine = truncated && cutsLine(raw, maxBytes, utf16);
    return { bytes, info: { bytes: raw.length, parsedBytes: bytes.length, truncated, cutInLine, encoding: utf16, bom: true } };
  }
  const cutInLine = truncated && cutsLine(raw, maxBytes, "utf-8");
  return {
    bytes: limited,
    info: { bytes: raw.length, parsedBytes: limited.length, truncated, cutInLine, encoding: "utf-8", bom: utf8BomBytes(limited, limited.length) > 0 },
  };
}

const CR = 0x0d;
const LF = 0x0a;

/**
 * The size limit `cut` falls inside a line: neither the code unit before it nor the one after it
 * ends a line, so the line's start is read as if it were the whole line. A cut through a UTF-16
 * code unit always does: the half unit is read as a replacement character.
 */
function cutsLine(raw: Uint8Array, cut: number, encoding: InputInfo["encoding"]): boolean {
  // A cut inside or right after the (skipped) UTF-8 BOM is at the first line's start.
  if (encoding === "utf-8") return cut > utf8BomBytes(raw, cut) && !isLineEnd(raw[cut - 1]) && !isLineEnd(raw[cut]);
  if (cut % 2 === 1) return true;
  const unit = (at: number): number => (encoding === "utf-16le" ? raw[at] | (raw[at + 1] << 8) : (raw[at] << 8) | raw[at + 1]);
  // The BOM (the first unit) starts the first line: a cut right after it is at a line's start.
  return cut > 2 && !isLineEnd(unit(cut - 2)) && !isLineEnd(unit(cut));
}

const UTF8_BOM = [0xef, 0xbb, 0xbf];

/**
 * How many of the first `limit` bytes are a (possibly partial) UTF-8 BOM, which the parser skips:
 * Google skips any prefix of EF BB BF, so a lone EF counts (decision 4).
 */
function utf8BomBytes(raw: Uint8Array, limit: number): number {
  let length = 0;
  while (length < UTF8_BOM.length && length < limit && raw[length] === UTF8_BOM[length]) length++;
  return length;
}

function isLineEnd(code: number): boolean {
  return code === CR || code === LF;
}

function utf16Encoding(bytes: Uint8Array): "utf-16le" | "utf-16be" | undefined {
  if (bytes.length < 2) return undefined;
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be";
  return undefined;
}

