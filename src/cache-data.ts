/**
 * The cache as plain data (`RobotsCache.toJSON()`): bodies in base64 and the metadata of their
 * fetches, so that a crawler can save the cache or share it with another process. Compiled
 * tables are not data: they are rebuilt from the bodies on load.
 */
import { failed, type CacheEntry } from "./cache-entry.js";
import type { FetchReason, RobotsCacheData, RobotsCacheEntryData, RobotsFetchInfo } from "./crawler-types.js";
import { describeValue, RobotsError } from "./errors.js";
import { originOf } from "./location.js";

const FORMAT = "robots-wasm/cache";
const VERSION = 1;

/** Characters per `String.fromCharCode` call: well below engines' argument limits. */
const BASE64_CHUNK = 0x8000;

export function cacheDataOf(entries: Iterable<CacheEntry>): RobotsCacheData {
  const data: RobotsCacheEntryData[] = [];
  for (const entry of entries) {
    data.push({
      origin: entry.origin,
      fetch: { ...entry.fetch },
      expiresAt: entry.expiresAt,
      unreachableSince: entry.unreachableSince,
      good: entry.good === null ? null : { fetch: { ...entry.good.fetch }, body: toBase64(entry.good.body) },
    });
  }
  return { format: FORMAT, version: VERSION, entries: data };
}

/** An entry of saved data with its body decoded; throws `ROBOTS_ERR_INVALID_CACHE_DATA` on anything else. */
export interface LoadedEntry extends Omit<RobotsCacheEntryData, "good"> {
  good: { fetch: RobotsFetchInfo; body: Uint8Array } | null;
}

export function loadCacheData(data: unknown): LoadedEntry[] {
  const value = data as Partial<RobotsCacheData> | null;
  if (value === null || typeof value !== "object" || value.format !== FORMAT || !Array.isArray(value.entries)) {
    invalid(`not a robots-wasm cache (expected { format: "${FORMAT}", version, entries })`);
  }
  if (value.version !== VERSION) invalid(`cache data version ${describeValue(value.version)} is not supported (expected ${VERSION})`);
  // Array.from, not map(): map skips the holes of a sparse array, which would come back as holes.
  const entries = Array.from(value.entries as unknown[], (entry, index) => loadEntry(entry as RobotsCacheEntryData, index));
  const origins = new Set<string>();
  entries.forEach(({ origin }, index) => {
    if (origins.has(origin)) invalid(`entry ${index}: origin ${origin} is saved twice`);
    origins.add(origin);
  });
  return entries;
}

function loadEntry(entry: RobotsCacheEntryData, index: number): LoadedEntry {
  const where = `entry ${index}`;
  if (entry === null || typeof entry !== "object" || typeof entry.origin !== "string") invalid(`${where}: no origin`);
  let origin: string;
  try {
    origin = originOf(entry.origin);
  } catch (error) {
    invalid(`${where}: ${(error as Error).message}`);
  }
  if (origin !== entry.origin) invalid(`${where}: origin ${JSON.stringify(entry.origin)} is not canonical (${origin})`);
  if (!isFetchInfo(entry.fetch)) invalid(`${where}: fetch metadata missing or malformed`);
  if (!isTime(entry.expiresAt) || !(entry.unreachableSince === null || isTime(entry.unreachableSince))) {
    invalid(`${where}: expiresAt and unreachableSince must be times (finite numbers)`);
  }
  // When failures began (carriedOver): set by a failed fetch, cleared by an answer from the server.
  // (Not checked against fetchedAt: a clock stepped back puts a later fetch before it.)
  if (!failed(entry.fetch) && entry.unreachableSince !== null) invalid(`${where}: failures counted for a fetch that did not fail`);
  if (failed(entry.fetch) && entry.unreachableSince === null) invalid(`${where}: a failed fetch without the time its failures began`);
  const { good } = entry;
  if (good !== null && (typeof good !== "object" || !isFetchInfo(good.fetch) || typeof good.body !== "string")) {
    invalid(`${where}: good copy malformed`);
  }
  if (entry.fetch.outcome === "ok" && good === null) invalid(`${where}: an "ok" fetch without its body`);
  // The cache keeps a good copy only while it is current (an "ok" fetch) or through failed fetches
  // after it (cache-entry.ts carriedOver: unreachable, or a network failure counted unavailable);
  // an "unavailable" answer drops it. Loaded, such a copy would be a second policy for one origin.
  if (good !== null && entry.fetch.outcome === "unavailable" && !failed(entry.fetch)) invalid(`${where}: an "unavailable" answer with a good copy`);
  if (good !== null && good.fetch.outcome !== "ok") invalid(`${where}: a good copy of a fetch that was not "ok"`);
  return {
    ...entry,
    fetch: knownFetchInfo(entry.fetch),
    good: good === null ? null : { fetch: knownFetchInfo(good.fetch), body: fromBase64(good.body, where) },
  };
}

/**
 * The metadata as the cache keeps it: the known fields only (a field added to saved data by hand
 * would be handed out and saved again), and data saved before `age` was kept as without an Age header.
 */
function knownFetchInfo(fetch: RobotsFetchInfo): RobotsFetchInfo {
  const { url, finalUrl, redirects, status, outcome, reason, detail, bytes, truncated, maxAge, fetchedAt } = fetch;
  return { url, finalUrl, redirects, status, outcome, reason, detail, bytes, truncated, maxAge, age: fetch.age ?? null, fetchedAt };
}

const OUTCOMES = new Set(["ok", "unavailable", "unreachable"]);
/** Every FetchReason: a Record, so that the compiler notices a reason added to the type and not here. */
const REASONS: Record<FetchReason, true> = {
  ok: true, "client-error": true, "rate-limited": true, "server-error": true, "redirect-limit": true,
  "redirect-loop": true, "redirect-invalid": true, "network-error": true, timeout: true,
};

/** A time or count as saved: a finite number (JSON has no NaN, but a hand-built object may). */
function isTime(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value);
}

function isFetchInfo(value: unknown): value is RobotsFetchInfo {
  if (value === null || typeof value !== "object") return false;
  const info = value as Record<string, unknown>;
  return (
    typeof info.url === "string" && typeof info.finalUrl === "string" && isTime(info.redirects) &&
    (info.status === null || isTime(info.status)) && OUTCOMES.has(info.outcome as string) &&
    typeof info.reason === "string" && Object.hasOwn(REASONS, info.reason) && typeof info.detail === "string" && isTime(info.bytes) &&
    typeof info.truncated === "boolean" && (info.maxAge === null || isTime(info.maxAge)) &&
    // Saved before `age` was kept: read as absent.
    (info.age === undefined || info.age === null || isTime(info.age)) &&
    isTime(info.fetchedAt)
  );
}

function invalid(message: string): never {
  throw new RobotsError("ROBOTS_ERR_INVALID_CACHE_DATA", message);
}

function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let at = 0; at < bytes.length; at += BASE64_CHUNK) {
    binary += String.fromCharCode(...bytes.subarray(at, at + BASE64_CHUNK));
  }
  return btoa(binary);
}

function fromBase64(text: string, where: string): Uint8Array {
  let binary: string;
  try {
    binary = atob(text);
  } catch (error) {
    invalid(`${where}: body is not base64 (${(error as Error).message})`);
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
