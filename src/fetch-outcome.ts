/**
 * The policy table of a robots.txt fetch: what an HTTP status, a failed redirect or a network
 * failure means for crawling. Kept apart from the HTTP code so that the table reads as the RFC.
 */
import type { FetchOutcome, FetchReason } from "./crawler-types.js";

export interface OutcomeOf {
  outcome: FetchOutcome;
  reason: FetchReason;
}

/**
 * The statuses followed as redirects (crawler-policy: follow 3xx). A 300's Location is the
 * server's preferred choice, which a user agent may follow (RFC 9110 15.4.1); without one it has no
 * single target. The other 3xx (304, 305, 306) have none.
 */
const REDIRECT_STATUSES = new Set([300, 301, 302, 303, 307, 308]);

export function isRedirectStatus(status: number): boolean {
  return REDIRECT_STATUSES.has(status);
}

/** How the caller counts a 429 and a network failure (RobotsCacheOptions on429, onNetworkFailure). */
export interface OutcomeChoices {
  on429: "unreachable" | "unavailable";
  onNetworkFailure: "unreachable" | "unavailable";
}

/** The outcome of a final (non-redirect) response. */
export function outcomeOfStatus(status: number, { on429, onNetworkFailure }: OutcomeChoices): OutcomeOf {
  // RFC 9309 2.3.1.1: a successful response: follow the rules of its body.
  if (status >= 200 && status < 300) return { outcome: "ok", reason: "ok" };
  // Google-specific: 429 is treated as a server error by Google; RFC 9309 groups it with 4xx.
  if (status === 429) return { outcome: on429, reason: "rate-limited" };
  // 407 comes from a proxy between the crawler and the site: the robots.txt was not reached, as
  // when a connection fails (Node's fetch, outside a browser, reports it as a network error).
  if (status === 407) return { outcome: onNetworkFailure, reason: "network-error" };
  // RFC 9309 2.3.1.3: 400-499 mean the robots.txt is unavailable: the crawler may access anything.
  if (status >= 400 && status < 500) return { outcome: "unavailable", reason: "client-error" };
  // RFC 9309 2.3.1.2: a 3xx that cannot be followed finds no robots.txt, as too many redirects.
  if (status >= 300 && status < 400) return { outcome: "unavailable", reason: "redirect-invalid" };
  // RFC 9309 2.3.1.4: 500-599 make the robots.txt unreachable: disallow everything. Google-specific:
  // any other status (1xx surfacing as final, 6xx and beyond) is handled as a server error too.
  return { outcome: "unreachable", reason: "server-error" };
}

/** RFC 9309 2.3.1.2: more than five redirects, or a loop, may be treated as unavailable. */
export const REDIRECT_FAILURE: Record<"limit" | "loop" | "invalid", OutcomeOf> = {
  limit: { outcome: "unavailable", reason: "redirect-limit" },
  loop: { outcome: "unavailable", reason: "redirect-loop" },
  invalid: { outcome: "unavailable", reason: "redirect-invalid" },
};

/**
 * RFC 9309 2.3.1.4: network errors and timeouts make the robots.txt unreachable, as 5xx, unless
 * the caller counts them as unavailable (crawler policy: "unless configured otherwise").
 */
export function outcomeOfFailure(reason: "network-error" | "timeout", { onNetworkFailure }: OutcomeChoices): OutcomeOf {
  return { outcome: onNetworkFailure, reason };
}

/**
 * `Cache-Control: max-age` in seconds, or null. Google's caching rule names only max-age; other
 * directives (no-cache, no-store, s-maxage) are ignored, and the cache's minTtl keeps a crawler
 * from fetching robots.txt before every page. As RFC 9111 reads it: the first max-age counts
 * (4.2.1), a value that is not delta-seconds (`7200.5`) is none, one too large for an integer is
 * 2^31 (1.2.2), and `max-age=` inside another directive's quoted argument is no directive.
 */
export function maxAgeOf(cacheControl: string | null): number | null {
  if (cacheControl === null) return null;
  for (const { name, value } of cacheDirectives(cacheControl)) {
    if (name !== "max-age") continue;
    return deltaSeconds(value);
  }
  return null;
}

/**
 * The `Age` header in seconds, or null: how long a cache in between (a CDN) has held the answer,
 * which counts against its max-age (RFC 9111 4.2.3). Of a list (two fields, joined with a comma)
 * the first member counts (5.1); one that is not delta-seconds is none.
 */
export function ageOf(age: string | null): number | null {
  return age === null ? null : deltaSeconds(age.split(",")[0].trim());
}

/** RFC 9111 1.2.2: digits only; one too large for an integer is 2^31. */
function deltaSeconds(value: string | undefined): number | null {
  return value !== undefined && /^\d+$/.test(value) ? Math.min(Number(value), MAX_DELTA_SECONDS) : null;
}

const MAX_DELTA_SECONDS = 2 ** 31;

/**
 * The directives of a Cache-Control value (RFC 9111 5.2: `name[=token|quoted-string]`, comma
 * separated), names lower-cased and arguments unquoted: one pass, commas inside quotes kept.
 */
function* cacheDirectives(text: string): Generator<{ name: string; value: string | undefined }> {
  let i = 0;
  while (i < text.length) {
    let name = "";
    while (i < text.length && text[i] !== "," && text[i] !== "=") name += text[i++];
    let value: string | undefined;
    if (text[i] === "=") {
      i++;
      while (text[i] === " " || text[i] === "\t") i++;
      value = "";
      if (text[i] === '"') {
        for (i++; i < text.length && text[i] !== '"'; i++) value += text[i] === "\\" && i + 1 < text.length ? text[++i] : text[i];
        i++; // the closing quote
        while (i < text.length && text[i] !== ",") i++; // anything after it belongs to nothing
      } else {
        while (i < text.length && text[i] !== ",") value += text[i++];
        value = value.trim();
      }
    }
    i++; // the comma
    yield { name: name.trim().toLowerCase(), value };
  }
}
