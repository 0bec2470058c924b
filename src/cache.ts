/**
 * `RobotsCache`: one robots.txt per origin, fetched once, trusted for its lifetime, kept through
 * failed refreshes, bounded in entries and bytes, and answering a crawler's questions per page.
 */
import { type CacheEntry, carriedOver, entryBytes, fetchInfoOf, type GoodCopy, type InForce, inForce, lifetimeOf } from "./cache-entry.js";
import { cacheDataOf, loadCacheData } from "./cache-data.js";
import type {
  CrawlBatchResult, CrawlExplanation, CrawlReason, RobotsCacheData, RobotsCacheOptions, RobotsFetchResult, RobotsOriginState,
} from "./crawler-types.js";
import { type ResolvedCacheOptions, resolveCacheOptions } from "./crawler-options.js";
import { describeValue, isRobotsError, RobotsError } from "./errors.js";
import { fetchWith, unfetchableScheme } from "./fetch.js";
import { init, initSync } from "./init.js";
import { requestedPage } from "./location.js";
import { agentList, assertUrlLength } from "./options.js";
import { forEachLimited } from "./pool.js";
import { Robots } from "./robots.js";
import type { AgentQuery } from "./types.js";

/** Called with the entry once a fetch is stored, or with the error when it could not be. */
type Waiter = (entry: CacheEntry | undefined, error?: unknown) => void;

/**
 * A page's origin (the cache key) and the URL its rules are matched against: the one a crawler's
 * HTTP client requests (see requestedPage). A scheme `fetch` cannot fetch is refused.
 */
export function pageOf(url: string | URL, fetch: typeof globalThis.fetch): { origin: string; href: string } {
  const page = requestedPage(url);
  const refusal = unfetchableScheme(page.origin.slice(0, page.origin.indexOf("//")), fetch);
  if (refusal !== undefined) throw new RobotsError("ROBOTS_ERR_UNSUPPORTED_SCHEME", refusal);
  return page;
}

/**
 * pageOf for a page to decide, which must also be no longer than a URL may be: checked before
 * anything is fetched, so that a URL the engine would refuse costs no request (`check --fetch`
 * uses it to find such lines before a batch, which one of them would refuse whole).
 */
export function requestablePage(url: string | URL, fetch: typeof globalThis.fetch): { origin: string; href: string } {
  const page = pageOf(url, fetch);
  assertUrlLength(page.href, "the URL");
  return page;
}

export class RobotsCache {
  /** Rebuilds a cache from `toJSON()` output (the engine is loaded synchronously to compile the bodies). */
  static fromJSON(data: RobotsCacheData, options?: RobotsCacheOptions): RobotsCache {
    const cache = new RobotsCache(options);
    const loaded = loadCacheData(data);
    initSync();
    for (const { good, ...entry } of loaded) {
      cache.#insert({ ...entry, good: good === null ? null : cache.#compile(good.fetch, good.body), bytes: 0 });
    }
    return cache;
  }

  readonly #options: ResolvedCacheOptions;
  /** In least-recently-used order: a use moves an entry to the end. */
  readonly #entries = new Map<string, CacheEntry>();
  /** Origins being fetched, with the questions waiting for them (one fetch per origin). */
  readonly #flights = new Map<string, Waiter[]>();
  #bytes = 0;

  constructor(options?: RobotsCacheOptions) {
    this.#options = resolveCacheOptions(options);
  }

  /** Origins held. */
  get size(): number {
    return this.#entries.size;
  }

  /** Bytes held: kept bodies, their compiled tables, and the strings of the fetches kept (two bytes a character). */
  get bytes(): number {
    return this.#bytes;
  }

  /** Whether `agent` may crawl the page, fetching its origin's robots.txt if the cache has none in force. */
  async isAllowed(pageUrl: string | URL, agent: AgentQuery): Promise<boolean> {
    const { origin, href } = this.#page(pageUrl);
    const agents = agentList(agent);
    return this.#use(origin, (entry) => {
      const force = this.#inForce(entry);
      return force.policy === "rules" ? force.robots.isAllowed(href, agents) : force.policy === "allow-all";
    });
  }

  /** The verdict with its reason: the deciding rule and line, or what the fetch of robots.txt gave. */
  async explain(pageUrl: string | URL, agent: AgentQuery): Promise<CrawlExplanation> {
    const { origin, href } = this.#page(pageUrl);
    const agents = agentList(agent);
    return this.#use(origin, (entry) => {
      const force = this.#inForce(entry);
      const about = { robotsUrl: robotsUrlOf(origin), fetch: { ...entry.fetch } };
      if (force.policy !== "rules") {
        return { allowed: force.policy === "allow-all", reason: force.reason, line: 0, stale: false, ...about };
      }
      const explanation = force.robots.explain(href, agents);
      return { ...explanation, reason: explanation.line > 0 ? "rule" : "no-rule", stale: force.stale, ...about };
    });
  }

  /**
   * Verdicts for pages of many origins, in input order: URLs are grouped by origin, each origin
   * is fetched once (at most `concurrency` at a time) and each group is decided in one engine call.
   */
  async classify(pageUrls: readonly string[], agent: AgentQuery): Promise<CrawlBatchResult> {
    const { groups, hrefs } = this.#groupByOrigin(pageUrls);
    const agents = agentList(agent);
    const allowed = new Uint8Array(pageUrls.length);
    const lines = new Uint32Array(pageUrls.length);
    const reasons = new Array<CrawlReason>(pageUrls.length);
    await forEachLimited([...groups], this.#options.concurrency, ([origin, indices]) =>
      this.#use(origin, (entry) => {
        const force = this.#inForce(entry);
        if (force.policy !== "rules") {
          const verdict = force.policy === "allow-all" ? 1 : 0;
          for (const i of indices) {
            allowed[i] = verdict;
            reasons[i] = force.reason;
          }
          return;
        }
        const batch = force.robots.classifyWithLines(indices.map((i) => hrefs[i]), agents);
        indices.forEach((i, k) => {
          allowed[i] = batch.allowed[k];
          lines[i] = batch.lines[k];
          reasons[i] = batch.lines[k] > 0 ? "rule" : "no-rule";
        });
      }),
    );
    return { allowed, lines, reasons };
  }

  /** Crawl-delay in seconds for the agent on the page's origin, from the rules in force. */
  async crawlDelay(url: string | URL, agent: AgentQuery): Promise<number | undefined> {
    const agents = agentList(agent);
    return this.#use(this.#originOf(url), (entry) => {
      const force = this.#inForce(entry);
      return force.policy === "rules" ? force.robots.crawlDelay(agents) : undefined;
    });
  }

  /** Sitemap URLs of the origin's robots.txt in force (none without rules). */
  async sitemaps(url: string | URL): Promise<readonly string[]> {
    return this.#use(this.#originOf(url), (entry) => {
      const force = this.#inForce(entry);
      return force.policy === "rules" ? force.robots.sitemaps : [];
    });
  }

  /** What the cache holds for the page's origin (fetching it if needed): the fetch, the policy, the expiry. */
  async describe(url: string | URL): Promise<RobotsOriginState> {
    const origin = this.#originOf(url);
    return this.#use(origin, (entry) => {
      const force = this.#inForce(entry);
      const rules = force.policy === "rules" ? force : undefined;
      return {
        origin,
        robotsUrl: robotsUrlOf(origin),
        policy: force.policy,
        stale: rules?.stale ?? false,
        fetch: { ...entry.fetch },
        rulesFetch: rules === undefined ? null : { ...rules.copy.fetch },
        expiresAt: entry.expiresAt,
        unreachableSince: entry.unreachableSince,
        sitemaps: rules?.robots.sitemaps ?? [],
        groups: rules?.robots.groups.length ?? 0,
      };
    });
  }

  /** Drops every entry and frees the compiled tables. Fetches under way still store their result. */
  clear(): void {
    for (const [origin, entry] of this.#entries) this.#evict(origin, entry);
  }

  /** Everything needed to rebuild the cache, least recently used first (see `fromJSON`). */
  toJSON(): RobotsCacheData {
    return cacheDataOf(this.#entries.values());
  }

  /** The clock, read: a time that is not a finite number would be saved as data fromJSON refuses. */
  #now(): number {
    const time: unknown = this.#options.now();
    if (typeof time !== "number" || !Number.isFinite(time)) {
      throw new RobotsError("ROBOTS_ERR_INVALID_OPTION", `now() must return a finite number of milliseconds, got ${describeValue(time)}`);
    }
    return time;
  }

  /** The cache key of a page, checked before anything is fetched. */
  #originOf(url: string | URL): string {
    return pageOf(url, this.#options.fetch).origin;
  }

  #page(url: string | URL): { origin: string; href: string } {
    return requestablePage(url, this.#options.fetch);
  }

  /** Indices of the URLs per origin, in input order, and each URL as requested; an invalid URL throws with its index. */
  #groupByOrigin(urls: readonly string[]): { groups: Map<string, number[]>; hrefs: string[] } {
    if (!Array.isArray(urls)) throw new RobotsError("ROBOTS_ERR_INVALID_URL", "URLs must be an array of strings");
    const groups = new Map<string, number[]>();
    const hrefs = new Array<string>(urls.length);
    // An index loop: forEach skips the holes of a sparse array, which would leave verdicts unset.
    for (let index = 0; index < urls.length; index++) {
      const url = urls[index];
      let origin: string;
      try {
        ({ origin, href: hrefs[index] } = this.#page(url));
      } catch (error) {
        // The caller's own errors (a revoked Proxy) pass through as they are.
        if (!isRobotsError(error)) throw error;
        throw new RobotsError(error.code, `URL at index ${index}: ${error.message}`, { cause: error });
      }
      const group = groups.get(origin);
      if (group === undefined) groups.set(origin, [index]);
      else group.push(index);
    }
    return { groups, hrefs };
  }

  #inForce(entry: CacheEntry): InForce {
    return inForce(entry, this.#now(), this.#options);
  }

  /**
   * Runs `use` on the origin's entry, fetching first when there is none in force. `use` runs
   * synchronously right after the entry is found or stored, so no eviction can come between.
   */
  #use<T>(origin: string, use: (entry: CacheEntry) => T): Promise<T> {
    const entry = this.#entries.get(origin);
    if (entry !== undefined && isCurrent(entry, this.#now())) {
      this.#entries.delete(origin);
      this.#entries.set(origin, entry);
      try {
        return Promise.resolve(this.#answer(entry, use));
      } catch (error) {
        return Promise.reject(error);
      }
    }
    return new Promise<T>((resolve, reject) => {
      let waiters = this.#flights.get(origin);
      if (waiters === undefined) {
        waiters = [];
        this.#flights.set(origin, waiters);
        void this.#refresh(origin, waiters);
      }
      waiters.push((stored, error) => {
        if (stored === undefined) return reject(error);
        try {
          resolve(this.#answer(stored, use));
        } catch (useError) {
          reject(useError);
        }
      });
    });
  }

  async #refresh(origin: string, waiters: Waiter[]): Promise<void> {
    let entry: CacheEntry | undefined;
    let failure: unknown;
    try {
      await init();
      entry = this.#store(origin, await fetchWith(robotsUrlOf(origin), this.#options));
    } catch (error) {
      failure = error;
    }
    this.#flights.delete(origin);
    for (const waiter of waiters) waiter(entry, failure);
  }

  /** Turns a fetch into the origin's entry, handing on what a failed refresh keeps. */
  #store(origin: string, result: RobotsFetchResult): CacheEntry {
    const fetch = fetchInfoOf(result, this.#now());
    const previous = this.#entries.get(origin);
    const carried = carriedOver(previous, fetch, this.#options);
    const good = fetch.outcome === "ok" ? this.#compile(fetch, result.body) : carried.good;
    const entry = {
      origin, fetch, good, unreachableSince: carried.unreachableSince,
      expiresAt: fetch.fetchedAt + lifetimeOf(fetch, this.#options), bytes: 0,
    };
    this.#insert(entry);
    return entry;
  }

  #compile(fetch: CacheEntry["fetch"], body: Uint8Array): GoodCopy {
    // The whole body: the fetch that read it applied its maxBytes, which for a body saved by
    // another cache (fromJSON) may be larger than this one's.
    return { fetch, body, robots: Robots.parse(body, { profile: this.#options.profile, maxBytes: Infinity }) };
  }

  /**
   * Runs `use` and then measures the entry again: a table grows when it first answers for an
   * agent (its selection and match plan), and the byte bound counts what is really held.
   */
  #answer<T>(entry: CacheEntry, use: (entry: CacheEntry) => T): T {
    try {
      return use(entry);
    } finally {
      this.#measure(entry);
    }
  }

  /** Adds (or replaces) an entry as the most recent. A replaced table is freed unless carried over. */
  #insert(entry: CacheEntry): void {
    const replaced = this.#entries.get(entry.origin);
    if (replaced !== undefined) {
      this.#entries.delete(entry.origin);
      this.#bytes -= replaced.bytes;
      if (replaced.good !== null && replaced.good !== entry.good) replaced.good.robots.dispose();
    }
    entry.bytes = 0;
    this.#entries.set(entry.origin, entry);
    this.#measure(entry);
  }

  /** Updates an entry's bytes, then evicts the least recently used beyond the bounds. */
  #measure(entry: CacheEntry): void {
    if (this.#entries.get(entry.origin) !== entry) return;
    const bytes = entryBytes(entry);
    this.#bytes += bytes - entry.bytes;
    entry.bytes = bytes;
    const { maxEntries, maxTotalBytes } = this.#options;
    for (const [origin, oldest] of this.#entries) {
      // The entry in use stays even when it alone exceeds the byte bound.
      if (oldest === entry || (this.#entries.size <= maxEntries && this.#bytes <= maxTotalBytes)) break;
      this.#evict(origin, oldest);
    }
  }

  /** Removes an entry and frees its compiled table's WASM memory. */
  #evict(origin: string, entry: CacheEntry): void {
    this.#entries.delete(origin);
    this.#bytes -= entry.bytes;
    entry.good?.robots.dispose();
  }
}

function robotsUrlOf(origin: string): string {
  return `${origin}/robots.txt`;
}

/**
 * The entry is in force at `now`: before it expires, and not fetched "in the future". A clock
 * stepped back would otherwise stretch every lifetime by the step (RFC 9309 2.4: a copy is not
 * used for more than 24 hours).
 */
function isCurrent(entry: CacheEntry, now: number): boolean {
  return now < entry.expiresAt && now >= entry.fetch.fetchedAt;
}
