/**
 * What the cache keeps per origin, which policy that means at a given time, and how long it
 * may be trusted. Pure functions of an entry and the clock; the cache does the bookkeeping.
 */
import type { CrawlPolicy, CrawlReason, RobotsFetchInfo, RobotsFetchResult } from "./crawler-types.js";
import type { ResolvedCacheOptions } from "./crawler-options.js";
import type { Robots } from "./robots.js";

/** The last 2xx copy of an origin's robots.txt: the body is kept so that the cache can be saved. */
export interface GoodCopy {
  fetch: RobotsFetchInfo;
  body: Uint8Array;
  robots: Robots;
}

export interface CacheEntry {
  origin: string;
  /** The latest fetch. */
  fetch: RobotsFetchInfo;
  /** The entry answers until then (ms); afterwards the next question fetches again. */
  expiresAt: number;
  /** When the current run of failed fetches began (see failed); null when the latest fetch did not fail. */
  unreachableSince: number | null;
  /** The last 2xx copy: current after an "ok" fetch, kept through failed ones. */
  good: GoodCopy | null;
  /** Body, compiled table and the strings of its fetches (fetchStringBytes), for the cache's byte bound. */
  bytes: number;
}

/** The policy an entry stands for at a time, with the rules when there are some. */
export type InForce =
  | { policy: "rules"; robots: Robots; stale: boolean; copy: GoodCopy }
  | { policy: Exclude<CrawlPolicy, "rules">; reason: Exclude<CrawlReason, "rule" | "no-rule"> };

/**
 * Whether a fetch failed to reach the robots.txt: it was unreachable (5xx, and by default a
 * network failure, a timeout or a 429), or it failed on the network and the caller counts that as
 * unavailable (onNetworkFailure). Either way the server said nothing about its rules: the last good
 * copy stands (crawler policy: "when a refresh fails with a server or network error, keep using
 * the last good copy"), and the fetch is tried again soon.
 */
export function failed(fetch: RobotsFetchInfo): boolean {
  return fetch.outcome === "unreachable" || fetch.reason === "network-error" || fetch.reason === "timeout";
}

export function inForce(entry: CacheEntry, now: number, options: ResolvedCacheOptions): InForce {
  const { fetch, good } = entry;
  if (fetch.outcome === "ok" && good !== null) return { policy: "rules", robots: good.robots, stale: false, copy: good };
  if (failed(fetch)) {
    // RFC 9309 2.3.1.4: unreachable means complete disallow; a crawler may keep using a cached
    // copy (RFC 9309 2.4: "unless the robots.txt file is unreachable") for a reasonably long
    // time, after which it may treat the file as unavailable. A network failure counted as
    // unavailable allows everything where there is no copy to keep.
    const unreachable = fetch.outcome === "unreachable";
    const longUnreachable = now - (entry.unreachableSince ?? now) >= options.unreachableLimit;
    const withoutCopy: InForce = unreachable ? { policy: "disallow-all", reason: "unreachable" } : { policy: "allow-all", reason: "unavailable" };
    if (longUnreachable) return unreachable ? { policy: options.afterUnreachableLimit, reason: "unreachable" } : withoutCopy;
    return good !== null ? { policy: "rules", robots: good.robots, stale: true, copy: good } : withoutCopy;
  }
  const redirects = fetch.reason === "redirect-limit" || fetch.reason === "redirect-loop";
  return { policy: "allow-all", reason: redirects ? "redirect-limit" : "unavailable" };
}

/**
 * How long a fetched answer stands: what is left of `max-age` after its `Age` (RFC 9111 4.2.3:
 * a CDN's copy is that much older) if given, within [minTtl, maxTtl]; else `ttl`.
 */
export function lifetimeOf(fetch: RobotsFetchInfo, options: ResolvedCacheOptions): number {
  // Failed fetches are retried sooner: RFC 9309 2.3.1.4 asks to disallow only "for now".
  if (failed(fetch)) return options.retryInterval;
  const wanted = fetch.maxAge === null ? options.ttl : Math.max(0, fetch.maxAge - (fetch.age ?? 0)) * 1000;
  return Math.min(Math.max(wanted, options.minTtl), options.maxTtl);
}

/** The metadata of a fetch result, timed by the cache's clock. */
export function fetchInfoOf(result: RobotsFetchResult, fetchedAt: number): RobotsFetchInfo {
  const { body: _body, ...info } = result;
  return { ...info, fetchedAt };
}

/**
 * Bytes of a fetch's strings, two a character: its URLs and detail are the server's to choose (a
 * redirect to a 15,000-byte Location of 0xFF bytes made a 90,000-character `finalUrl` and as
 * long a `detail`: 2,000 such origins held 363 MiB that the byte bound did not see).
 */
export function fetchStringBytes(fetch: RobotsFetchInfo): number {
  return 2 * (fetch.url.length + fetch.finalUrl.length + fetch.detail.length);
}

/**
 * What an entry holds: the latest fetch's strings, and the good copy's fetch strings, body and
 * table (its fetch is counted even when it is the latest one, so that a cache saved and loaded
 * again, where the two are copies, counts the same).
 */
export function entryBytes(entry: CacheEntry): number {
  const { fetch, good } = entry;
  const goodBytes = good === null ? 0 : fetchStringBytes(good.fetch) + good.body.length + good.robots.tableBytes;
  return fetchStringBytes(fetch) + goodBytes;
}

/**
 * What the previous entry hands on to the next fetch's: after an answer from the server nothing;
 * after a failure (see failed) the good copy (until the long-unreachable limit) and when the
 * failures began.
 */
export function carriedOver(
  previous: CacheEntry | undefined, fetch: RobotsFetchInfo, options: ResolvedCacheOptions,
): { good: GoodCopy | null; unreachableSince: number | null } {
  if (!failed(fetch)) return { good: null, unreachableSince: null };
  const since = previous?.unreachableSince ?? fetch.fetchedAt;
  const good = fetch.fetchedAt - since >= options.unreachableLimit ? null : previous?.good ?? null;
  return { good, unreachableSince: since };
}
