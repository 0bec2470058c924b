/**
 * Where a page's robots.txt lives. The origin (scheme, host, port) is both the address of the
 * file and the key under which a crawler caches it.
 */
import { RobotsError } from "./errors.js";

/**
 * Schemes that have a robots.txt. RFC 9309 2.3 speaks of "other protocols" too; Google names
 * ftp as the third it fetches.
 */
const ROBOTS_SCHEMES = new Set(["http:", "https:", "ftp:"]);

/**
 * The origin of a URL as a robots.txt cache key: `scheme://host[:port]`, lower-case, the host in
 * its ASCII (punycode) form, the scheme's default port elided, userinfo dropped.
 *
 * RFC 9309 2.3: the rules apply only to the host, protocol and port where the file is hosted, so
 * `http` and `https`, `a.example` and `www.a.example`, `:8181` and the default port all differ.
 *
 * A trailing dot is removed (`example.com.` is `example.com`): in DNS both name the same host
 * (RFC 1034 3.1), so they share one robots.txt and one cache entry, as in Nutch's URL
 * normaliser. A host that is only dots, or that still ends in a dot after that, is invalid.
 */
export function originOf(url: string | URL): string {
  return originOfParsed(parseUrl(url));
}

function originOfParsed(parsed: URL): string {
  return `${parsed.protocol}//${hostOf(parsed)}${parsed.port === "" ? "" : `:${parsed.port}`}`;
}

/**
 * A page as a crawler requests it: its origin (the cache key) and its URL as the WHATWG parser
 * writes it, which is what an HTTP client sends (Node's fetch among them): backslashes read as
 * slashes, tabs and line breaks dropped, `.` and `..` segments resolved, spaces and non-ASCII
 * characters percent-encoded. `http://h/a/../p` fetches `/p`, so `/p`'s rules decide it. The
 * `href` is the form the rules are matched against (matchedForm).
 */
export function requestedPage(url: string | URL): { origin: string; href: string } {
  const parsed = parseUrl(url);
  return { origin: originOfParsed(parsed), href: matchedForm(parsed) };
}

/**
 * The URL the rules are matched against: scheme, host, path and query as requested, without the
 * userinfo and fragment, which a client never sends. A host may hold `;` (`http://a;b.com/p`),
 * where Google's path extraction (robots-txt.md 3) would start the path: it is escaped, as no
 * rule reads the host.
 */
function matchedForm(parsed: URL): string {
  // `search` is "" for an empty query too: the `?` is kept where the URL has one (`/p?` is not
  // `/p` to `Disallow: /*?`). The first `#` of an href starts its fragment.
  const emptyQuery = parsed.search === "" && parsed.href.split("#", 1)[0]!.endsWith("?");
  return `${parsed.protocol}//${parsed.host.replaceAll(";", "%3B")}${parsed.pathname}${emptyQuery ? "?" : parsed.search}`;
}

/**
 * The robots.txt URL that governs a page: always `/robots.txt` at the top of the page's origin
 * (RFC 9309 2.3: a file in a subdirectory is not a robots.txt).
 */
export function robotsUrl(pageUrl: string | URL): string {
  return `${originOf(pageUrl)}/robots.txt`;
}

/**
 * The text of a URL argument: a string, or a URL object's href (parsed again by the caller: an
 * object made with URL.prototype but no URL inside has none); anything else is
 * `ROBOTS_ERR_INVALID_URL`, never converted (an array or an object with `toString` is no URL).
 */
function urlText(given: unknown): string {
  let url = given;
  if (url instanceof URL) {
    try {
      url = url.href;
    } catch (error) {
      throw new RobotsError("ROBOTS_ERR_INVALID_URL", "URL object has no URL in it (its href cannot be read)", { cause: error });
    }
  }
  if (typeof url !== "string") {
    throw new RobotsError("ROBOTS_ERR_INVALID_URL", `URL must be a string or a URL, got ${url === null ? "null" : typeof url}`);
  }
  return url;
}

function parseUrl(given: string | URL): URL {
  return checkScheme(parsedUrl(given));
}

/** A URL argument (urlText) as the WHATWG parser reads it; one it refuses is `ROBOTS_ERR_INVALID_URL` (unparsableUrl). */
export function parsedUrl(given: unknown): URL {
  const url = urlText(given);
  try {
    // The WHATWG parser lower-cases the scheme and host, converts IDNs to punycode, drops the
    // default port of http (80), https (443) and ftp (21), and normalises IPv4 and IPv6 hosts.
    return new URL(url);
  } catch (error) {
    throw unparsableUrl(url, error);
  }
}

/**
 * The error for a string the WHATWG parser refuses. With a scheme it is absolute, and what failed
 * is its host or port (`http://a b.com/`, `:99999`, an IPv6 zone id).
 */
function unparsableUrl(url: string, cause: unknown): RobotsError {
  const what = /^\s*[a-z][a-z0-9+.-]*:/i.test(url) ? "not a valid URL (its host or port cannot be parsed)" : "not an absolute URL";
  return new RobotsError("ROBOTS_ERR_INVALID_URL", `${what}: ${JSON.stringify(url)}`, { cause });
}

function checkScheme(url: URL): URL {
  if (!ROBOTS_SCHEMES.has(url.protocol)) {
    throw new RobotsError(
      "ROBOTS_ERR_UNSUPPORTED_SCHEME",
      `"${url.protocol}" URLs have no robots.txt (only http, https and ftp): ${JSON.stringify(url.href)}`,
    );
  }
  return url;
}

function hostOf(url: URL): string {
  const host = url.hostname.endsWith(".") ? url.hostname.slice(0, -1) : url.hostname;
  if (host === "" || host.endsWith(".")) {
    throw new RobotsError("ROBOTS_ERR_INVALID_URL", `URL has no usable host: ${JSON.stringify(url.href)}`);
  }
  return host;
}
