/** Public types of the crawler layer: fetching robots.txt, caching it, and answering per page. */
import type { MatchedRule, Profile } from "./types.js";

/** What a fetch of robots.txt means for crawling (RFC 9309 2.3.1). */
export type FetchOutcome =
  /** 2xx: the body's rules apply. */
  | "ok"
  /** 4xx, or redirects that lead nowhere: there is no robots.txt, everything is allowed. */
  | "unavailable"
  /** 5xx, network failure, timeout: everything is disallowed until a later fetch succeeds. */
  | "unreachable";

/** Why a fetch ended as it did; `detail` in `RobotsFetchInfo` says it in words. */
export type FetchReason =
  /** A 2xx response. */
  | "ok"
  /** A 4xx response other than 407 and 429. */
  | "client-error"
  /** 429 Too Many Requests: unreachable by default, unavailable with `on429: "unavailable"`. */
  | "rate-limited"
  /** A 5xx response (or a status outside 200-599). */
  | "server-error"
  /** More than five redirects. */
  | "redirect-limit"
  /** A redirect back to a URL of the same chain. */
  | "redirect-loop"
  /** A redirect without a usable `Location`, to a scheme other than http and https, or a 3xx that is no redirect (304, 305, 306). */
  | "redirect-invalid"
  /** Connection refused or reset, DNS failure, a body cut short or undecodable, a proxy's 407. */
  | "network-error"
  /** No response within `connectTimeout`, or the whole fetch not done within `totalTimeout`. */
  | "timeout";

/** The metadata of one fetch of robots.txt (everything but the body). Plain data: JSON-safe. */
export interface RobotsFetchInfo {
  /** The robots.txt URL asked for. */
  url: string;
  /** The last URL requested, after redirects (a failed last hop's URL, which gave no response). */
  finalUrl: string;
  /** Redirects followed. */
  redirects: number;
  /** HTTP status of the last response that arrived (a redirect's, when the hop after it failed); null when none arrived. */
  status: number | null;
  outcome: FetchOutcome;
  reason: FetchReason;
  /** The reason in words: "HTTP 503", "no response within 10000 ms", "ECONNRESET", ... */
  detail: string;
  /** Body bytes kept (at most `maxBytes`; 0 unless the outcome is "ok"). */
  bytes: number;
  /** The body was longer than `maxBytes`; the rest was not read. */
  truncated: boolean;
  /** `Cache-Control: max-age` of the last response, in seconds; null when absent. */
  maxAge: number | null;
  /** The `Age` header of the last response (how long caches in between held it), in seconds; null when absent or invalid. */
  age: number | null;
  /** When the fetch finished, in milliseconds since the epoch (in a `RobotsCache`, by its clock). */
  fetchedAt: number;
}

/** A fetch's metadata and, for a 2xx response, the body as received (decoded, cut at `maxBytes`). */
export interface RobotsFetchResult extends RobotsFetchInfo {
  body: Uint8Array;
}

export interface FetchRobotsOptions {
  /**
   * The `User-Agent` header sent. Default `"robots-wasm"`; a crawler should send its own. A header
   * value: no line break, NUL or character past U+00FF.
   */
  userAgent?: string;
  /** Milliseconds (more than 0) until the response's status and headers arrive, per request (default 10,000). */
  connectTimeout?: number;
  /** Milliseconds (more than 0) for the whole fetch, redirects and body included (default 30,000). */
  totalTimeout?: number;
  /** Body bytes read; the rest is not. At least 512,000 (RFC 9309 2.5); default 512,000. */
  maxBytes?: number;
  /** 429 Too Many Requests means "unreachable" (default, as Google does) or "unavailable" (as RFC 9309's 4xx). */
  on429?: "unreachable" | "unavailable";
  /**
   * A network failure (refused, reset, DNS, a body cut short, a proxy's 407) or a timeout means
   * "unreachable" (default, as RFC 9309 2.3.1.4: disallow all) or "unavailable" (allow all). Either
   * way a cache keeps the rules of a good copy fetched before (up to `unreachableLimit`) and tries
   * again after `retryInterval`: the failure said nothing about the site's rules.
   */
  onNetworkFailure?: "unreachable" | "unavailable";
  /**
   * The fetch function (default: in Node, a GET over node:http and node:https that closes its
   * connection and decodes strictly, src/node-transport.ts; elsewhere the platform's `fetch`); for
   * tests and custom transports (ftp, a proxy).
   */
  fetch?: typeof globalThis.fetch;
}

/** What a robots.txt fetch leads to when the crawler asks about a page. */
export type CrawlPolicy = "rules" | "allow-all" | "disallow-all";

/** Why a page is allowed or disallowed. */
export type CrawlReason =
  /** A rule of the robots.txt decided (see `line` and `rule`). */
  | "rule"
  /** The robots.txt has no rule for the page: allowed. */
  | "no-rule"
  /** There is no robots.txt (4xx): allowed. */
  | "unavailable"
  /** The robots.txt could not be fetched (5xx, network, timeout): disallowed, or what `afterUnreachableLimit` says. */
  | "unreachable"
  /** Too many redirects, or a loop: treated as unavailable, allowed. */
  | "redirect-limit";

export interface CrawlExplanation {
  allowed: boolean;
  reason: CrawlReason;
  /** 1-based line of the deciding rule; 0 when no rule decided. */
  line: number;
  /** The deciding rule, when `reason` is "rule". */
  rule?: MatchedRule;
  /** The robots.txt URL that governs the page. */
  robotsUrl: string;
  /** The answer comes from the last good copy, kept because refreshes fail (RFC 9309 2.4). */
  stale: boolean;
  /** The latest fetch of the robots.txt. */
  fetch: RobotsFetchInfo;
}

/** Verdicts for a batch of pages, in input order. */
export interface CrawlBatchResult {
  /** 1 = allowed, 0 = disallowed. */
  allowed: Uint8Array;
  /** Line of the deciding rule, 0 when no rule decided. */
  lines: Uint32Array;
  reasons: CrawlReason[];
}

/** What the cache holds for an origin. */
export interface RobotsOriginState {
  origin: string;
  robotsUrl: string;
  policy: CrawlPolicy;
  /** The rules come from the last good copy, kept because refreshes fail. */
  stale: boolean;
  /** The latest fetch. */
  fetch: RobotsFetchInfo;
  /** The fetch whose body supplies the rules (the latest, or the last good one when stale); null without rules. */
  rulesFetch: RobotsFetchInfo | null;
  /** When the cache will fetch again (milliseconds since the epoch). */
  expiresAt: number;
  /** When the current run of failed fetches began (unreachable, or a network failure); null when the latest fetch did not fail. */
  unreachableSince: number | null;
  /** Sitemap URLs of the rules in force. */
  sitemaps: readonly string[];
  /** Groups of the rules in force (0 without rules). */
  groups: number;
}

export interface RobotsCacheOptions extends FetchRobotsOptions {
  /** Parsing profile of the cached files (default `"google"`). */
  profile?: Profile;
  /**
   * Lifetime of a fetched robots.txt without `max-age`, in ms (default 24 h). It must lie within
   * [`minTtl`, `maxTtl`]: a `ttl` above 24 h needs a `maxTtl` at least as long.
   */
  ttl?: number;
  /** The most a `Cache-Control: max-age` may lengthen the lifetime to, in ms (default 24 h, RFC 9309 2.4). */
  maxTtl?: number;
  /** The least lifetime, in ms, even with `max-age=0` (default 1 min): robots.txt is not fetched before every page. */
  minTtl?: number;
  /** How long an unreachable answer stands before the next attempt, in ms (default 10 min). */
  retryInterval?: number;
  /**
   * How long a run of failed fetches (unreachable) lasts before `afterUnreachableLimit` applies, in ms
   * (default 30 days, RFC 9309 2.3.1.4): until then the last good copy serves, or, for a site never
   * fetched successfully, everything is disallowed.
   */
  unreachableLimit?: number;
  /** The policy once `unreachableLimit` has passed: "allow-all" (default: the RFC's "unavailable") or "disallow-all". */
  afterUnreachableLimit?: "allow-all" | "disallow-all";
  /** Origins kept at most (default 10,000); the least recently used go first. */
  maxEntries?: number;
  /** Bytes kept at most (default 256 MiB): bodies, compiled tables, and the fetches' URLs and details (two bytes a character). */
  maxTotalBytes?: number;
  /** Origins fetched at once by one `classify` call (default 8). */
  concurrency?: number;
  /** The clock, in milliseconds since the epoch (default `Date.now`); for tests and replays. */
  now?: () => number;
}

/** One origin in `RobotsCache.toJSON()`. */
export interface RobotsCacheEntryData {
  origin: string;
  fetch: RobotsFetchInfo;
  expiresAt: number;
  unreachableSince: number | null;
  /** The last 2xx copy: its fetch and its body in base64. */
  good: { fetch: RobotsFetchInfo; body: string } | null;
}

/** `RobotsCache.toJSON()`: what it needs to rebuild every entry, least recently used first. */
export interface RobotsCacheData {
  format: "robots-wasm/cache";
  version: 1;
  entries: RobotsCacheEntryData[];
}
