/** Which `<meta name>` values are crawler groups, and which agent each names. */
import { asciiLower, trimSpace } from "./list.js";

/**
 * Meta names that are HTML's own metadata names (and viewport), not crawler names: their content
 * is not a directive list. Every other name that is a product token (letters, digits, `-`, `_`)
 * is a group, so that the caller can ask for any crawler.
 */
const NON_CRAWLER_NAMES: ReadonlySet<string> = new Set([
  "application-name", "author", "description", "generator", "keywords", "referrer", "theme-color", "color-scheme",
  "viewport",
]);

/** The agent a meta tag's directives apply to: null for `robots`, undefined when the name is no crawler's. */
export function metaAgent(name: string): string | null | undefined {
  const agent = asciiLower(trimSpace(name));
  if (agent === "robots") return null;
  if (!/^[a-z0-9_-]+$/.test(agent) || NON_CRAWLER_NAMES.has(agent)) return undefined;
  return agent;
}
