/**
 * Typed access to records that do not affect matching (decision 26).
 */
import { selectGroups } from "./agents.js";
import type { Group } from "./model.js";
import type { RobotsRecord } from "../types.js";

/** A non-negative decimal number: `5`, `0.5`, `10.`, `.5` (no sign, no exponent). */
const DECIMAL = /^(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)$/;

export function parseCrawlDelay(value: string): number | undefined {
  return DECIMAL.test(value) ? Number(value) : undefined;
}

/**
 * The first usable crawl-delay, in file order, of the groups that decide for the agent (the same
 * selection as for rules: the agent's own groups if any, else the global ones).
 */
export function crawlDelayFor(groups: readonly Group[], records: readonly RobotsRecord[], agents: readonly string[]): number | undefined {
  const deciding = new Set(selectGroups(groups, agents).groups.map((group) => group.index));
  for (const record of records) {
    if (record.key !== "crawl-delay" || record.group === null || !deciding.has(record.group)) continue;
    const seconds = parseCrawlDelay(record.value);
    if (seconds !== undefined) return seconds;
  }
  return undefined;
}
