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
  return { profile, maxBytes, keepSource };
}

/**
 * True if `value` is an array whose every element is a string. An index loop, not `every()`,
 * which skips the holes of a sparse array (`[, "a"]`) and would let `undefined` through.
 */
export function isStringArray(value: unknown): value is readonly string[] {
  if (!Array.isArray(value)) return false;
  for (let i = 0; i < value.length; i++) if (typeof value[i] !== "string") return false;
  return true;
}

/** Checks an agent query and returns it as a list (one agent or several whose groups merge). */
export function agentList(agent: AgentQuery): readonly string[] {
  if (typeof agent === "string") return [agent];
  if (isStringArray(agent)) return agent;
  throw new RobotsError("ROBOTS_ERR_INVALID_AGENT", "agent must be a string or an array of strings");
}

export function assertUrl(url: unknown): asserts url is string {
  if (typeof url !== "string") {
    throw new RobotsError("ROBOTS_ERR_INVALID_URL", `URL must be a string, got ${urlTypeOf(url)}`);
  }
}

/** What a URL argument that is not a string is, as a message says it: a WHATWG URL gets a hint. */
function urlTypeOf(value: unknown): string {
  if (value === null) return "null";
  return value instanceof URL ? "a URL object (pass its href)" : typeof value;
}

/** Checks a URL batch: a `Uint8Array` of lines, or an array whose every element is a string. */
export function assertUrlBatch(urls: unknown): asserts urls is readonly string[] | Uint8Array {
  if (urls instanceof Uint8Array) return;
  if (!Array.isArray(urls)) {
    throw new RobotsError("ROBOTS_ERR_INVALID_URL", "URLs must be an array of strings or a Uint8Array of lines");
  }
  for (let i = 0; i < urls.length; i++) {
    if (typeof urls[i] !== "string") {
      throw new RobotsError("ROBOTS_ERR_INVALID_URL", `URL at index ${i} must be a string, got ${urlTypeOf(urls[i])}`);
    }
  }
}
