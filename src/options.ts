import { describeValue, RobotsError } from "./errors.js";
import type { AgentQuery, ParseOptions, Profile } from "./types.js";

/** Google's fetch limit and the RFC 9309 minimum: 500 KiB. */
export const DEFAULT_MAX_BYTES = 512_000;

export interface ResolvedParseOptions {
  profile: Profile;
  /** Infinity when unlimited. */
  maxBytes: number;
  keepSource: boolean;
}

/**
 * Checks that an options argument is absent or an object holding only `known` keys (a misspelt
 * option would otherwise be ignored without a word): `ROBOTS_ERR_INVALID_OPTION` if not.
 */
export function checkOptionNames(options: unknown, known: readonly string[]): void {
  if (options === undefined) return;
  if (options === null || typeof options !== "object") {
    throw new RobotsError("ROBOTS_ERR_INVALID_OPTION", "options must be an object");
  }
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) {
      throw new RobotsError("ROBOTS_ERR_INVALID_OPTION", `unknown option "${key}" (known: ${known.join(", ")})`);
    }
  }
}

/** The names of `Robots.parse` options (the worker pool takes them too). */
export const PARSE_OPTION_NAMES: readonly string[] = ["profile", "maxBytes", "keepSource"];

/** Validates `Robots.parse` options; unknown keys and bad values throw `ROBOTS_ERR_INVALID_OPTION`. */
export function resolveParseOptions(options: ParseOptions | undefined): ResolvedParseOptions {
  checkOptionNames(options, PARSE_OPTION_NAMES);
  if (options === undefined) return { profile: "google", maxBytes: DEFAULT_MAX_BYTES, keepSource: false };
  const profile = options.profile ?? "google";
  if (profile !== "google" && profile !== "rfc9309") {
    throw new RobotsError("ROBOTS_ERR_INVALID_OPTION", `profile must be "google" or "rfc9309", got ${describeValue(profile)}`);
  }
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const validLimit = maxBytes === Infinity || (Number.isSafeInteger(maxBytes) && maxBytes >= 0);
  if (typeof maxBytes !== "number" || !validLimit) {
    throw new RobotsError("ROBOTS_ERR_INVALID_OPTION", `maxBytes must be a non-negative integer or Infinity, got ${describeValue(maxBytes)}`);
  }
  const keepSource = options.keepSource ?? false;
  if (typeof keepSource !== "boolean") {
    throw new RobotsError("ROBOTS_ERR_INVALID_OPTION", `keepSource must be a boolean, got ${describeValue(keepSource)}`);
  }
  return { profile, maxBytes: Math.min(maxBytes, MAX_BODY_BYTES), keepSource };
}

/**
 * A copy of an array whose every element is a string; `refuse` throws for the first that is not.
 * Each element is read once: a getter or a Proxy that answers differently on a second read, or
 * that calls back into the library, runs before the library's work starts, never inside it. An
 * index loop, not `every()`, which skips the holes of a sparse array (`[, "a"]`).
 */
export function copyStrings(array: readonly unknown[], refuse: (element: unknown, index: number) => never): string[] {
  const length = array.length;
  const copy = new Array<string>(length);
  for (let i = 0; i < length; i++) {
    const element = array[i];
    if (typeof element !== "string") refuse(element, i);
    copy[i] = element as string;
  }
  return copy;
}

/** Checks an agent query and returns it as a list of its own (one agent or several whose groups merge). */
export function agentList(agent: AgentQuery): readonly string[] {
  const refuse = (): never => {
    throw new RobotsError("ROBOTS_ERR_INVALID_AGENT", "agent must be a string or an array of strings");
  };
  if (typeof agent === "string") return [agent];
  return Array.isArray(agent) ? copyStrings(agent, refuse) : refuse();
}

/**
 * The longest URL the engines decide, in UTF-8 bytes (a line of a byte batch, without its LF):
 * far past any real URL (servers refuse request lines of some kilobytes), and short of what the
 * engine's memory holds while it works on one (a few times its length), so that a stray giant
 * line gets an answer instead of exhausting memory.
 */
export const MAX_URL_BYTES = 16 << 20;

/**
 * The most of a robots.txt that is parsed, whatever `maxBytes` says (`Infinity` included): far
 * past any real file (the corpus's largest is 3.6 MiB; Google reads 500 KiB), short of what the
 * engine's memory holds with the compiled table (a 1.1 GB file failed the parse with an internal
 * error, and the CLI read /dev/zero to 22 GB under `--max-bytes Infinity`).
 */
export const MAX_BODY_BYTES = 256 << 20;

export function assertUrl(url: unknown): asserts url is string {
  if (typeof url !== "string") {
    throw new RobotsError("ROBOTS_ERR_INVALID_URL", `URL must be a string, got ${urlTypeOf(url)}`);
  }
  assertUrlLength(url, "URL");
}

/** Throws when `url` is longer than MAX_URL_BYTES in UTF-8 (counted only when it may be). */
export function assertUrlLength(url: string, what: string): void {
  if (url.length * 3 <= MAX_URL_BYTES) return;
  const bytes = utf8Length(url);
  if (bytes > MAX_URL_BYTES) throw new RobotsError("ROBOTS_ERR_INVALID_URL", `${what} is ${bytes} bytes long, more than a URL may be (${MAX_URL_BYTES} bytes)`);
}

/** UTF-8 length of a string as it is encoded (a lone surrogate becomes U+FFFD, three bytes). */
function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit < 0xdc00 && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * The index of the first line of a byte batch that is longer than MAX_URL_BYTES (without its LF
 * and a CR before it, as the batch reads it), or -1. Each step finds the last LF within reach of
 * the line start, so a batch of ordinary lines costs a few steps.
 */
export function overlongLine(bytes: Uint8Array): number {
  let start = 0;
  while (bytes.length - start > MAX_URL_BYTES) {
    const newline = bytes.lastIndexOf(0x0a, start + MAX_URL_BYTES);
    if (newline >= start) {
      start = newline + 1;
      continue;
    }
    // The longest line there may be: MAX_URL_BYTES, then a CR that the batch drops.
    const at = start + MAX_URL_BYTES;
    if (bytes[at] === 0x0d && (at + 1 === bytes.length || bytes[at + 1] === 0x0a)) {
      start = at + 2;
      continue;
    }
    let line = 0;
    for (let lf = bytes.indexOf(0x0a); lf !== -1 && lf < start; lf = bytes.indexOf(0x0a, lf + 1)) line++;
    return line;
  }
  return -1;
}

function assertLineLengths(bytes: Uint8Array): void {
  const line = overlongLine(bytes);
  if (line >= 0) throw new RobotsError("ROBOTS_ERR_INVALID_URL", `URL at index ${line} of the batch is more than ${MAX_URL_BYTES} bytes long, more than a URL may be`);
}

/** What a URL argument that is not a string is, as a message says it: a WHATWG URL gets a hint. */
function urlTypeOf(value: unknown): string {
  if (value === null) return "null";
  return value instanceof URL ? "a URL object (pass its href)" : typeof value;
}

/**
 * Checks a URL batch and returns the library's own copy: a `Uint8Array` of lines (a plain view of
 * the same bytes, see plainBytes), or an array whose every element is a string (each read once).
 */
export function urlBatch(urls: unknown): readonly string[] | Uint8Array {
  if (isUint8Array(urls)) {
    const bytes = plainBytes(urls);
    assertLineLengths(bytes);
    return bytes;
  }
  if (!Array.isArray(urls)) {
    throw new RobotsError("ROBOTS_ERR_INVALID_URL", "URLs must be an array of strings or a Uint8Array of lines");
  }
  const copy = copyStrings(urls, (url, i) => {
    throw new RobotsError("ROBOTS_ERR_INVALID_URL", `URL at index ${i} must be a string, got ${urlTypeOf(url)}`);
  });
  copy.forEach((url, i) => assertUrlLength(url, `URL at index ${i}`));
  return copy;
}

// The typed arrays' own accessors, which a subclass or an own property cannot override: a value
// that says it is shorter than it is would size a region of WASM memory that `set` then overruns.
const TypedArrayPrototype = Object.getPrototypeOf(Uint8Array.prototype) as object;
const intrinsic = (key: PropertyKey) => Object.getOwnPropertyDescriptor(TypedArrayPrototype, key)!.get!;
const tagOf = intrinsic(Symbol.toStringTag);
const bufferOf = intrinsic("buffer");
const byteOffsetOf = intrinsic("byteOffset");
const byteLengthOf = intrinsic("byteLength");

/**
 * A Uint8Array, also one made in another realm (a `vm` context, an iframe), where `instanceof`
 * says no: the typed arrays' own tag getter reads what it is from the array's internal slot.
 */
export function isUint8Array(value: unknown): value is Uint8Array {
  return ArrayBuffer.isView(value) && tagOf.call(value) === "Uint8Array";
}

/**
 * A plain Uint8Array over the same bytes, made with the typed arrays' own accessors: what the
 * library reads (`length`, `subarray`, ...) is then what the bytes are, whatever a subclass, an
 * own property or another realm says. A detached array is empty.
 */
export function plainBytes(bytes: Uint8Array): Uint8Array {
  const length = byteLengthOf.call(bytes) as number;
  if (length === 0) return new Uint8Array(0);
  return new Uint8Array(bufferOf.call(bytes) as ArrayBufferLike, byteOffsetOf.call(bytes) as number, length);
}
