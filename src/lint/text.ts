/** Small text helpers for lint messages. */
import { displayText, type SourceLine } from "./source.js";

/** Longest quoted text in a message; longer text is cut with an ellipsis. */
const QUOTE_LIMIT = 60;

/** Text in backticks for a one-line message, cut to a readable length. */
export function quote(text: string): string {
  const oneLine = text.replace(/[\u0000-\u001f\u007f]/g, " ");
  return `\`${oneLine.length > QUOTE_LIMIT ? `${oneLine.slice(0, QUOTE_LIMIT - 1)}…` : oneLine}\``;
}

/** The line's content without its comment, trimmed: what a record line says. */
export function lineContent(line: SourceLine): string {
  return displayText(line.raw.replace(/#.*$/s, "")).trim();
}

/** How the documentation spells each key. */
export const KEY_NAMES: Readonly<Record<string, string>> = {
  "user-agent": "User-agent",
  allow: "Allow",
  disallow: "Disallow",
  sitemap: "Sitemap",
  "crawl-delay": "Crawl-delay",
  "request-rate": "Request-rate",
  "visit-time": "Visit-time",
  host: "Host",
  "clean-param": "Clean-param",
  "content-signal": "Content-Signal",
  "content-usage": "Content-Usage",
  noindex: "Noindex",
  nofollow: "Nofollow",
  noarchive: "Noarchive",
};

/** Edit distance (insertions, deletions, substitutions), for "did you mean" suggestions. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length];
}

/** The known key closest to `key` (at most two edits away), if any. */
export function closestKey(key: string): string | undefined {
  const lower = key.toLowerCase();
  if (lower.length < 4) return undefined;
  let best: string | undefined;
  let bestDistance = 3;
  for (const known of Object.keys(KEY_NAMES)) {
    const distance = editDistance(lower, known);
    if (distance < bestDistance) {
      best = known;
      bestDistance = distance;
    }
  }
  return best;
}
