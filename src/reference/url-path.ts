/**
 * From a URL to the path the patterns are matched against (decisions 16-19).
 */
import { NUL, type ByteString } from "./bytes.js";
import { normalisePathRfc9309 } from "./percent.js";
import type { ProfileSwitches } from "./profile.js";

/** First index at or after `from` of one of `/`, `?`, `;`; -1 if none. */
function findPathStart(url: ByteString, from: number): number {
  for (let i = from; i < url.length; i++) {
    const c = url[i];
    if (c === "/" || c === "?" || c === ";") return i;
  }
  return -1;
}

/**
 * Google-specific, decision 16 (`GetPathParamsQuery`): path, params and query of a URL, without
 * scheme, authority and fragment; always starts with `/`.
 *   `http://a.com/b?c#d` -> `/b?c`, `//a/b/c` -> `/b/c`, `a` -> `/`, `example.com?a` -> `/?a`.
 */
export function getPathParamsQuery(url: ByteString): ByteString {
  // A leading `//` (a scheme-relative URL) is skipped: what follows is an authority.
  const searchStart = url.startsWith("//") ? 2 : 0;

  // `://` marks a scheme only if no `/`, `?` or `;` comes before it (`/a?b=http://c` has none).
  const earlyPath = findPathStart(url, searchStart);
  const scheme = url.indexOf("://", searchStart);
  const hasScheme = scheme !== -1 && (earlyPath === -1 || earlyPath > scheme);
  const authorityStart = hasScheme ? scheme + 3 : searchStart;

  const pathStart = findPathStart(url, authorityStart);
  if (pathStart === -1) return "/";
  const hash = url.indexOf("#", searchStart);
  // A `#` before the path: everything after it is fragment, so there is no path.
  if (hash !== -1 && hash < pathStart) return "/";
  const path = url.slice(pathStart, hash === -1 ? url.length : hash);
  return path.startsWith("/") ? path : "/" + path;
}

/** The path as the matcher sees it under the profile. */
export function matchPath(url: ByteString, switches: ProfileSwitches): ByteString {
  let path = getPathParamsQuery(url);
  if (switches.pathEndsAtNul) {
    // Google-specific, decision 17: the path is handed over as a C string.
    const nul = path.indexOf(String.fromCharCode(NUL));
    if (nul !== -1) path = path.slice(0, nul);
  }
  if (switches.normalisePercentEncoding) path = normalisePathRfc9309(path);
  return path;
}

/** RFC 9309 2.2.2, decision 19: the normalised path, up to its first `?`, is `/robots.txt`. */
export function isRobotsTxtPath(path: ByteString): boolean {
  const query = path.indexOf("?");
  return (query === -1 ? path : path.slice(0, query)) === "/robots.txt";
}
