/**
 * Fetches a robots.txt with the platform's transport (node-transport.ts in Node) or an injected `fetch`: a plain GET, redirects
 * followed by hand so that hops can be counted and targets checked, a timeout for the response
 * and one for the whole fetch, and at most `maxBytes` of body read. Every failure becomes an
 * outcome of the policy table (fetch-outcome.ts); only misuse throws.
 */
import type { FetchRobotsOptions, RobotsFetchResult } from "./crawler-types.js";
import { isPlatformFetch, type ResolvedFetchOptions, resolveFetchOptions } from "./crawler-options.js";
import { describeValue, RobotsError } from "./errors.js";
import { parsedUrl } from "./location.js";
import { isUint8Array } from "./options.js";
import {
  ageOf, isRedirectStatus, maxAgeOf, type OutcomeOf, outcomeOfFailure, outcomeOfStatus, REDIRECT_FAILURE,
} from "./fetch-outcome.js";

/** RFC 9309 2.3.1.2: crawlers SHOULD follow at least five consecutive redirects. */
export const MAX_REDIRECTS = 5;

const EMPTY: Uint8Array = new Uint8Array(0);

/** A fetch that ended without a usable response (a network failure or a timeout); turned into a result by `fetchWith`. */
class FetchFailure extends Error {
  constructor(readonly reason: "network-error" | "timeout", detail: string) {
    super(detail);
  }
}

/** Where the fetch has got to, so that a failure can say which URL and hop it happened at. */
interface Progress {
  start: URL;
  url: URL;
  redirects: number;
  status: number | null;
  maxAge: number | null;
  age: number | null;
}

/**
 * Fetches a robots.txt URL (see `robotsUrl`) and maps what happens to an outcome: a 2xx body,
 * "unavailable" (4xx, failed redirects) or "unreachable" (5xx, network failures, timeouts).
 */
export async function fetchRobots(url: string | URL, options?: FetchRobotsOptions): Promise<RobotsFetchResult> {
  return fetchWith(url, resolveFetchOptions(options));
}

/** `fetchRobots` with options already resolved (the cache passes its own). */
export async function fetchWith(url: string | URL, options: ResolvedFetchOptions): Promise<RobotsFetchResult> {
  const start = fetchableUrl(url, options);
  const progress: Progress = { start, url: start, redirects: 0, status: null, maxAge: null, age: null };
  const total = new AbortController();
  const timer = setTimeout(() => total.abort(), options.totalTimeout);
  try {
    return await follow(progress, options, total.signal);
  } catch (error) {
    if (!(error instanceof FetchFailure)) throw error;
    return resultOf(progress, outcomeOfFailure(error.reason, options), error.message);
  } finally {
    clearTimeout(timer);
  }
}

function fetchableUrl(given: string | URL, options: ResolvedFetchOptions): URL {
  const parsed = parsedUrl(given);
  const refusal = unfetchableScheme(parsed.protocol, options.fetch);
  if (refusal !== undefined) throw new RobotsError("ROBOTS_ERR_UNSUPPORTED_SCHEME", refusal);
  return withoutCredentials(parsed);
}

/** Why `fetch` cannot fetch a scheme, or undefined when it can: the platform's fetch has no ftp, an injected one may. */
export function unfetchableScheme(protocol: string, fetch: typeof globalThis.fetch): string | undefined {
  if (protocol === "http:" || protocol === "https:") return undefined;
  if (protocol !== "ftp:") return `cannot fetch a robots.txt over "${protocol}" (only http and https)`;
  return isPlatformFetch(fetch) ? "the platform fetch cannot fetch ftp URLs: pass a `fetch` function that can" : undefined;
}

/** crawler-policy 5: credentials in URLs are never sent, to the first host or a redirect target. */
function withoutCredentials(url: URL): URL {
  const clean = new URL(url);
  clean.username = "";
  clean.password = "";
  clean.hash = "";
  return clean;
}

async function follow(progress: Progress, options: ResolvedFetchOptions, total: AbortSignal): Promise<RobotsFetchResult> {
  const seen = new Set([progress.url.href]);
  for (;;) {
    const answer = await request(progress.url, options, total);
    progress.status = answer.status;
    progress.maxAge = maxAgeOf(answer.cacheControl);
    progress.age = ageOf(answer.age);
    if (!isRedirectStatus(answer.status)) return finish(progress, answer.response, options, total);
    discard(answer.response);
    const target = redirectTarget(answer, progress.url);
    if (typeof target === "string") return resultOf(progress, REDIRECT_FAILURE.invalid, target);
    // A loop is reported as such even within the hop limit: following it cannot succeed.
    if (seen.has(target.href)) return resultOf(progress, REDIRECT_FAILURE.loop, `redirect loop back to ${target.href}`);
    if (progress.redirects === MAX_REDIRECTS) {
      return resultOf(progress, REDIRECT_FAILURE.limit, `more than ${MAX_REDIRECTS} redirects (next: ${target.href})`);
    }
    seen.add(target.href);
    progress.url = target;
    progress.redirects++;
  }
}

async function finish(
  progress: Progress, response: Response, options: ResolvedFetchOptions, total: AbortSignal,
): Promise<RobotsFetchResult> {
  const outcome = outcomeOfStatus(response.status, options);
  const detail = `HTTP ${response.status}`;
  if (outcome.outcome !== "ok") {
    discard(response);
    return resultOf(progress, outcome, detail);
  }
  const { body, truncated } = await readLimited(response, options.maxBytes, total, options.totalTimeout);
  return resultOf(progress, outcome, truncated ? `${detail}, cut at ${options.maxBytes} bytes` : detail, body, truncated);
}

function resultOf(progress: Progress, outcome: OutcomeOf, detail: string, body = EMPTY, truncated = false): RobotsFetchResult {
  return {
    url: progress.start.href,
    finalUrl: progress.url.href,
    redirects: progress.redirects,
    status: progress.status,
    ...outcome,
    detail,
    bytes: body.length,
    truncated,
    maxAge: progress.maxAge,
    age: progress.age,
    fetchedAt: Date.now(),
    body,
  };
}

/** What a response said, read once where a failure to read it is a network error (an injected fetch's headers may throw). */
interface Answer {
  response: Response;
  status: number;
  cacheControl: string | null;
  age: string | null;
  location: string | null;
}

/** One GET, without following redirects; rejects with a `FetchFailure`. */
async function request(url: URL, options: ResolvedFetchOptions, total: AbortSignal): Promise<Answer> {
  const connect = new AbortController();
  const timer = setTimeout(() => connect.abort(), options.connectTimeout);
  const signal = AbortSignal.any([total, connect.signal]);
  // Called without a receiver: browsers' fetch throws when called as a method of another object.
  const fetch = options.fetch;
  try {
    // Uncompressed: an injected fetch (Node's own among them) may decode a gzip, deflate or br body
    // cut short without an error, so a cut compressed body would read as a shorter file, where a
    // cut plain one is a network error. The node transport decodes strictly (node-transport.ts).
    const headers = { "user-agent": options.userAgent, "accept-encoding": "identity" };
    // Promise.resolve: an injected fetch may answer synchronously.
    const response: unknown = await untilAborted(Promise.resolve(fetch(url, { method: "GET", redirect: "manual", headers, signal })), signal);
    if (!isResponse(response)) throw new FetchFailure("network-error", "the fetch function gave something other than a Response");
    // A browser's fetch answers redirect: "manual" so, with no status and no Location to follow.
    if (response.type === "opaqueredirect") {
      throw new FetchFailure("network-error", "the fetch hid a redirect (an opaqueredirect response), which cannot be followed");
    }
    // The Fetch standard's network error (Response.error(): status 0), which an injected fetch may
    // answer instead of rejecting: no server answered, so it is not a server error.
    if (response.type === "error") throw new FetchFailure("network-error", "the fetch answered a network error (a Response of type \"error\")");
    // An injected fetch's headers may answer with other things than strings: those are absent.
    const header = (name: string) => {
      const value: unknown = response.headers.get(name);
      return typeof value === "string" ? value : null;
    };
    return { response, status: response.status, cacheControl: header("cache-control"), age: header("age"), location: header("location") };
  } catch (error) {
    if (error instanceof FetchFailure) throw error;
    if (total.aborted) throw new FetchFailure("timeout", `not complete within ${options.totalTimeout} ms`);
    if (connect.signal.aborted) throw new FetchFailure("timeout", `no response within ${options.connectTimeout} ms`);
    throw new FetchFailure("network-error", networkDetail(error));
  } finally {
    clearTimeout(timer);
  }
}

/** The response's target, or why it has none that may be followed. */
function redirectTarget({ status, location: header }: Answer, from: URL): URL | string {
  if (header === null) return `HTTP ${status} without a Location`;
  const location = utf8HeaderValue(oneOfCopies(header));
  let target: URL;
  try {
    target = new URL(location, from);
  } catch {
    return `HTTP ${status} to an invalid Location ${JSON.stringify(location.slice(0, 200))}`;
  }
  // crawler-policy 5: redirects never leave http and https.
  if (target.protocol !== "http:" && target.protocol !== "https:") {
    return `redirect to a ${target.protocol} URL refused`;
  }
  return withoutCredentials(target);
}

/**
 * One of the copies when a header value is the same value sent several times: fetch joins
 * repeated headers with ", ", and a server that sends its Location twice (a common misconfiguration,
 * which browsers follow) would otherwise send the crawler to `/robots.txt,%20/robots.txt`.
 */
function oneOfCopies(value: string): string {
  const parts = value.split(", ");
  for (let copies = parts.length; copies >= 2; copies--) {
    if (parts.length % copies !== 0) continue;
    const one = parts.slice(0, parts.length / copies).join(", ");
    if (Array.from({ length: copies }, () => one).join(", ") === value) return one;
  }
  return value;
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * A header value as text. Fetch gives each of its bytes as one character (Latin-1), but a server
 * that writes a non-ASCII Location (which RFC 9110 forbids, and which happens) writes UTF-8, and
 * browsers read it so: `/röbots.txt` must not become `/r%C3%83%C2%B6bots.txt`. Bytes that are not
 * UTF-8 stay as they were.
 */
function utf8HeaderValue(value: string): string {
  if (!/[\u0080-\u00ff]/.test(value) || /[^\u0000-\u00ff]/.test(value)) return value;
  try {
    return strictUtf8.decode(Uint8Array.from(value, (char) => char.charCodeAt(0)));
  } catch {
    return value;
  }
}

/**
 * Reads at most `maxBytes` (plus the chunk that crosses the limit, which shows that there is
 * more), then cancels the stream: the transfer stops and the rest is never buffered.
 */
async function readLimited(
  response: Response, maxBytes: number, total: AbortSignal, totalTimeout: number,
): Promise<{ body: Uint8Array; truncated: boolean }> {
  if (response.body === null) return { body: EMPTY, truncated: false };
  // A body read before (a wrapper that hands out one Response twice) would read as an empty file,
  // which allows everything.
  if (response.bodyUsed === true) throw new FetchFailure("network-error", "the response's body was already read");
  const chunks: Uint8Array[] = [];
  let size = 0;
  let reader: BodyReader | undefined;
  try {
    // Inside the try: a body already read or locked (a fetch wrapper that hands out one Response
    // twice) fails here, and that is a failed fetch, not an exception for the caller.
    reader = bodyReader(response.body);
    for (;;) {
      const { done, value } = await untilAborted(reader.read(), total);
      if (done) return { body: joinChunks(chunks, size), truncated: false };
      if (!isUint8Array(value)) throw new Error("the body stream gave something other than bytes");
      chunks.push(value);
      size += value.length;
      // RFC 9309 2.5: parse the first maxBytes, ignore the rest.
      if (size > maxBytes) return { body: joinChunks(chunks, maxBytes), truncated: true };
    }
  } catch (error) {
    // All that is kept arrived: what fails after it would have been cut anyway.
    if (size >= maxBytes && size > 0) return { body: joinChunks(chunks, maxBytes), truncated: true };
    if (total.aborted) throw new FetchFailure("timeout", `not complete within ${totalTimeout} ms`);
    // A reset or a close before Content-Length: a truncated body is unreachable, not a shorter file.
    throw new FetchFailure("network-error", networkDetail(error));
  } finally {
    if (reader !== undefined) quietly(reader.cancel);
  }
}

/** A body read chunk by chunk: a web stream's reader, or the iterator of an async-iterable body. */
interface BodyReader {
  read(): Promise<{ done?: boolean; value?: unknown }>;
  cancel: () => Promise<unknown> | undefined;
}

/**
 * A reader of a Response's body: a web ReadableStream, or a Node stream as node-fetch gives
 * (async-iterable, no getReader), which custom transports (proxies) often use.
 */
function bodyReader(body: unknown): BodyReader {
  const stream = body as Partial<ReadableStream<Uint8Array>> & Partial<AsyncIterable<unknown>>;
  if (typeof stream.getReader === "function") {
    const reader = stream.getReader();
    return { read: () => reader.read(), cancel: () => reader.cancel() };
  }
  const iterator = stream[Symbol.asyncIterator]!();
  // Destroyed, not only returned: return() waits behind a read still pending (a stalled body
  // after a timeout), and the connection would stay open.
  const destroy = (body as { destroy?: () => void }).destroy;
  return { read: () => iterator.next(), cancel: () => (destroy?.call(body), iterator.return?.()) };
}

/** Runs a clean-up that may fail, or be missing from an injected fetch's stream, without a word. */
function quietly(cleanUp: () => Promise<unknown> | undefined): void {
  Promise.resolve().then(cleanUp).catch(() => undefined);
}

function joinChunks(chunks: readonly Uint8Array[], length: number): Uint8Array {
  const body = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    if (at === length) break;
    const part = chunk.subarray(0, length - at);
    body.set(part, at);
    at += part.length;
  }
  return body;
}

/** Drops a body that will not be read, closing its transfer. */
function discard(response: Response): void {
  const body = response.body as (Partial<ReadableStream> & { destroy?: () => void }) | null;
  // A Node stream (node-fetch) has no cancel: destroying it closes the transfer.
  quietly(() => {
    if (typeof body?.cancel === "function") return body.cancel();
    body?.destroy?.();
    return undefined;
  });
}

/**
 * Settles with `work`, or rejects when `signal` aborts: the timeouts hold even for a fetch
 * function or a body stream that ignores the signal.
 */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/**
 * What the fetch reads of a response: a status, headers and a body stream (or none), a web stream
 * or an async-iterable one (node-fetch). Duck-typed, so that a Response of another implementation
 * (a polyfill, another realm, node-fetch) passes.
 */
function isResponse(value: unknown): value is Response {
  if (value === null || typeof value !== "object") return false;
  const { status, headers, body } = value as Partial<Response>;
  const stream = body as (Partial<ReadableStream> & Partial<AsyncIterable<unknown>>) | null | undefined;
  return typeof status === "number" && typeof headers?.get === "function" &&
    (stream === null || typeof stream?.getReader === "function" || typeof stream?.[Symbol.asyncIterator] === "function");
}

/** undici reports "fetch failed" or "terminated" with the socket error as the cause. */
function networkDetail(error: unknown): string {
  const message = error instanceof Error ? error.message : describeValue(error);
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : undefined;
  // A cause without a message (Node's fetch gives one for an HTTP 407) adds nothing.
  return cause === undefined || cause === "" || cause === message ? message : `${message}: ${cause}`;
}
