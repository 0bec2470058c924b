import { RobotsError } from "./errors.js";
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
  if (typeof body !== "string" && !(body instanceof Uint8Array)) {
    throw new RobotsError("ROBOTS_ERR_INVALID_BODY", "robots.txt body must be a string or a Uint8Array");
  }
}

export function prepareInput(body: unknown, maxBytes: number): PreparedInput {
  assertBody(body);
  const raw = typeof body === "string" ? utf8.encode(body) : body;

  const truncated = raw.length > maxBytes;
  const limited = truncated ? raw.subarray(0, maxBytes) : raw;
  const utf16 = utf16Encoding(limited);
  if (utf16 !== undefined) {
    // UTF-16 robots.txt files exist in the wild (saved by Windows editors); decode them so that
    // their rules are not lost. The decoder drops the BOM.
    const text = new TextDecoder(utf16).decode(limited);
    const bytes = utf8.encode(text);
    return { bytes, info: { bytes: raw.length, parsedBytes: bytes.length, truncated, encoding: utf16, bom: true } };
  }
  return {
    bytes: limited,
    info: { bytes: raw.length, parsedBytes: limited.length, truncated, encoding: "utf-8", bom: startsWithUtf8BomPrefix(limited) },
  };
}

function utf16Encoding(bytes: Uint8Array): "utf-16le" | "utf-16be" | undefined {
  if (bytes.length < 2) return undefined;
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be";
  return undefined;
}

function startsWithUtf8BomPrefix(bytes: Uint8Array): boolean {
  // Google skips any prefix of EF BB BF, so a lone EF counts (decision 4).
  return bytes.length > 0 && bytes[0] === 0xef;
}
