/** Defaults and validation of the fetcher's and the cache's options. */
import type { FetchRobotsOptions, RobotsCacheOptions } from "./crawler-types.js";
import { describeValue, RobotsError } from "./errors.js";
import { nodeFetch } from "./node-transport.js";
import { checkOptionNames, DEFAULT_MAX_BYTES } from "./options.js";
import type { Profile } from "./types.js";

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export interface ResolvedFetchOptions {
  userAgent: string;
  connectTimeout: number;
  totalTimeout: number;
  maxBytes: number;
  on429: "unreachable" | "unavailable";
  onNetworkFailure: "unreachable" | "unavailable";
  fetch: typeof globalThis.fetch;
}

export interface ResolvedCacheOptions extends ResolvedFetchOptions {
  profile: Profile;
  ttl: number;
  maxTtl: number;
  minTtl: number;
  retryInterval: number;
  unreachableLimit: number;
  afterUnreachableLimit: "allow-all" | "disallow-all";
  maxEntries: number;
  maxTotalBytes: number;
  concurrency: number;
  now: () => number;
}

interface OptionSpec {
  fallback: () => unknown;
  valid: (value: unknown) => boolean;
  expected: string;
}

const positiveInteger = (value: unknown) => Number.isSafeInteger(value) && (value as number) > 0;
const milliseconds: Omit<OptionSpec, "fallback"> = {
  valid: (value) => typeof value === "number" && Number.isFinite(value) && value >= 0,
  expected: "a non-negative number of milliseconds",
};
/** The longest timer Node keeps: a longer one fires after 1 ms, with a warning. */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** A timeout: 0 would fail every fetch before it began. */
const timeout: Omit<OptionSpec, "fallback"> = {
  valid: (value) => typeof value === "number" && value > 0 && value <= MAX_TIMER_MS,
  expected: `a positive number of milliseconds, at most ${MAX_TIMER_MS} (about 24.8 days)`,
};
/**
 * A User-Agent header value: no line break or NUL (which the Fetch standard refuses, and which would
 * otherwise surface as a failed fetch of every robots.txt) and no character past U+00FF (headers are bytes).
 */
const headerValue: Omit<OptionSpec, "fallback"> = {
  valid: (value) => typeof value === "string" && /^[^\0-\x08\x0a-\x1f\x7f\u0100-\uffff]*$/.test(value),
  expected: "a string without control characters (a tab aside) or characters past U+00FF (a header value)",
};
const oneOf = (...values: string[]): Omit<OptionSpec, "fallback"> => ({
  valid: (value) => values.includes(value as string),
  expected: values.map((value) => JSON.stringify(value)).join(" or "),
});

/** The transport when none is injected: node:http(s) in Node (node-transport.ts says why), else the platform's fetch. */
export function platformFetch(): typeof globalThis.fetch {
  return typeof process === "object" && typeof process.versions?.node === "string" ? nodeFetch : globalThis.fetch;
}

/** Whether `fetch` is a platform transport (no ftp), not an injected function. */
export function isPlatformFetch(fetch: typeof globalThis.fetch): boolean {
  return fetch === nodeFetch || fetch === globalThis.fetch;
}

const FETCH_SPECS: Record<keyof ResolvedFetchOptions, OptionSpec> = {
  userAgent: { fallback: () => "robots-wasm", ...headerValue },
  connectTimeout: { fallback: () => 10 * SECOND, ...timeout },
  totalTimeout: { fallback: () => 30 * SECOND, ...timeout },
  // RFC 9309 2.5: the parsing limit MUST be at least 500 KiB; there is no "unlimited", because a
  // hostile server can send a body without end.
  maxBytes: {
    fallback: () => DEFAULT_MAX_BYTES,
    valid: (value) => Number.isSafeInteger(value) && (value as number) >= DEFAULT_MAX_BYTES,
    expected: `an integer of at least ${DEFAULT_MAX_BYTES} (RFC 9309 2.5)`,
  },
  on429: { fallback: () => "unreachable", ...oneOf("unreachable", "unavailable") },
  onNetworkFailure: { fallback: () => "unreachable", ...oneOf("unreachable", "unavailable") },
  fetch: { fallback: platformFetch, valid: (value) => typeof value === "function", expected: "a function" },
};

const CACHE_SPECS: Record<keyof ResolvedCacheOptions, OptionSpec> = {
  ...FETCH_SPECS,
  profile: { fallback: () => "google", ...oneOf("google", "rfc9309") },
  // RFC 9309 2.4: crawlers SHOULD NOT use a cached robots.txt for more than 24 hours.
  ttl: { fallback: () => DAY, ...milliseconds },
  maxTtl: { fallback: () => DAY, ...milliseconds },
  minTtl: { fallback: () => MINUTE, ...milliseconds },
  retryInterval: { fallback: () => 10 * MINUTE, ...milliseconds },
  // RFC 9309 2.3.1.4: "a reasonably long period of time (for example, 30 days)".
  unreachableLimit: { fallback: () => 30 * DAY, ...milliseconds },
  afterUnreachableLimit: { fallback: () => "allow-all", ...oneOf("allow-all", "disallow-all") },
  maxEntries: { fallback: () => 10_000, valid: positiveInteger, expected: "a positive integer" },
  maxTotalBytes: { fallback: () => 256 << 20, valid: positiveInteger, expected: "a positive integer" },
  concurrency: { fallback: () => 8, valid: positiveInteger, expected: "a positive integer" },
  now: { fallback: () => Date.now, valid: (value) => typeof value === "function", expected: "a function" },
};

function resolve<T>(options: object | undefined, specs: Record<string, OptionSpec>): T {
  checkOptionNames(options, Object.keys(specs));
  const given = (options ?? {}) as Record<string, unknown>;
  const resolved: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(specs)) {
    const value = given[key] ?? spec.fallback();
    if (!spec.valid(value)) {
      throw new RobotsError("ROBOTS_ERR_INVALID_OPTION", `${key} must be ${spec.expected}, got ${describeValue(value)}`);
    }
    resolved[key] = value;
  }
  return resolved as T;
}

export function resolveFetchOptions(options: FetchRobotsOptions | undefined): ResolvedFetchOptions {
  return resolve(options, FETCH_SPECS);
}

export function resolveCacheOptions(options: RobotsCacheOptions | undefined): ResolvedCacheOptions {
  const resolved = resolve<ResolvedCacheOptions>(options, CACHE_SPECS);
  if (!(resolved.minTtl <= resolved.ttl && resolved.ttl <= resolved.maxTtl)) {
    throw new RobotsError(
      "ROBOTS_ERR_INVALID_OPTION",
      `ttl must lie between minTtl and maxTtl, got minTtl ${resolved.minTtl}, ttl ${resolved.ttl}, maxTtl ${resolved.maxTtl}`,
    );
  }
  return resolved;
}
