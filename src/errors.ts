/**
 * The one error class of the library. Content problems in a robots.txt never throw
 * (they become line metadata); these codes are for misuse of the API.
 */
export type RobotsErrorCode =
  /** `Robots.parse` (or anything needing the engine) before `init()` / `initSync()`. */
  | "ROBOTS_ERR_NOT_INITIALIZED"
  /** A method called on a `Robots` after `dispose()`, or a batch given to a closed `RobotsWorkerPool`. */
  | "ROBOTS_ERR_DISPOSED"
  /**
   * A URL that is not a string (or a URL batch that is neither `string[]` nor bytes), or one longer
   * than `MAX_URL_BYTES` (16 MiB of UTF-8, a line of a byte batch included).
   */
  | "ROBOTS_ERR_INVALID_URL"
  /** An agent that is not a string or an array of strings. */
  | "ROBOTS_ERR_INVALID_AGENT"
  /** `lint()` on a `Robots` parsed without `keepSource: true`. */
  | "ROBOTS_ERR_NO_SOURCE"
  /**
   * Text to read that is not text: a robots.txt body or a page that is neither a string nor a
   * `Uint8Array` (or a page object with a field other than html and headers), or a value given to `parseCrawlDelay`, `parseRequestRate` or `parseDirectiveDate`
   * that is not a string.
   */
  | "ROBOTS_ERR_INVALID_BODY"
  /**
   * An unknown option, or an option with a value of the wrong type or range (a source given to
   * `init()` or `initSync()` that is neither bytes nor a module, nor for `init()` a `Response`).
   */
  | "ROBOTS_ERR_INVALID_OPTION"
  /**
   * The WebAssembly module could not be loaded (bytes given to `init()` or `initSync()` that are
   * not this engine's module), or it failed internally (a bug: please report it), or
   * a worker of a `RobotsWorkerPool` died (out of memory, or stopped from outside): close the pool.
   */
  | "ROBOTS_ERR_WASM"
  /** A URL whose scheme has no robots.txt (only http, https and ftp have one), or that the fetcher cannot fetch. */
  | "ROBOTS_ERR_UNSUPPORTED_SCHEME"
  /** `RobotsCache.fromJSON` was given data that `toJSON()` did not produce (or a newer format). */
  | "ROBOTS_ERR_INVALID_CACHE_DATA"
  /**
   * `new` on a class that a factory makes: `Robots.parse`, `IndexingDirectives.parse`,
   * `RobotsWorkerPool.create` (TypeScript refuses such calls; plain JavaScript does not).
   */
  | "ROBOTS_ERR_NOT_CONSTRUCTIBLE";

export class RobotsError extends Error {
  override readonly name = "RobotsError";
  readonly code: RobotsErrorCode;

  constructor(code: RobotsErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

export function isRobotsError(value: unknown): value is RobotsError {
  return value instanceof RobotsError;
}

/**
 * Checks that a constructor was called by its own module, which passes it `token` (a symbol no
 * caller can get): `new Robots(body)` from plain JavaScript would otherwise build an object that
 * fails later with a TypeError, or in a finalizer, where nothing can catch it.
 */
export function assertConstructedBy(given: unknown, token: symbol, name: string, factory: string): void {
  if (given !== token) throw new RobotsError("ROBOTS_ERR_NOT_CONSTRUCTIBLE", `${name} has no public constructor: use ${factory}`);
}

/** Checks that a value passed as text to read is a string (`ROBOTS_ERR_INVALID_BODY`, naming `what`). */
export function assertText(value: unknown, what: string): asserts value is string {
  if (typeof value !== "string") {
    throw new RobotsError("ROBOTS_ERR_INVALID_BODY", `${what} must be a string, got ${value === null ? "null" : typeof value}`);
  }
}

/**
 * A value as an error message shows it; never throws, whatever the caller passed (a template
 * literal throws on a symbol, `String()` on an object without a prototype, `JSON.stringify` on a bigint).
 */
export function describeValue(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "function") return "a function";
  if (typeof value === "bigint") return `${value}n`;
  if (value !== null && typeof value === "object") return Array.isArray(value) ? "an array" : "an object";
  return String(value);
}
