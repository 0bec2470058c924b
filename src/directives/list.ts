/**
 * Directive lists: a meta tag's content or an X-Robots-Tag value, split into typed directives.
 * A comma-separated list, several tags and several headers all mean the same thing; names and
 * values are ASCII case-insensitive.
 */
import { isWeekdayName, parseDirectiveDate } from "./dates.js";
import type {
  Directive, DirectiveName, DirectiveSource, FlagDirectiveName, ImagePreview, InvalidDirective, OmittedEntries, UnknownDirective,
} from "./types.js";

/** Directives that never take a value. */
export const FLAG_DIRECTIVES: ReadonlySet<string> = new Set<FlagDirectiveName>([
  "all", "index", "follow", "noindex", "nofollow", "none", "nosnippet", "indexifembedded", "notranslate",
  "noimageindex", "noarchive", "nocache", "noodp", "noydir", "nositelinkssearchbox", "noai", "noimageai", "noml",
]);

/**
 * Directives that take a value. In a header, `token:` at the start of a list element names an
 * agent unless the token is one of these (Google's X-Robots-Tag specification).
 */
export const VALUE_DIRECTIVES: ReadonlySet<string> = new Set<DirectiveName>([
  "max-snippet", "max-image-preview", "max-video-preview", "unavailable_after",
]);

/** `max-image-preview` values, most restrictive first (resolution and keepDirective rank them so). */
export const IMAGE_PREVIEWS: readonly ImagePreview[] = ["none", "standard", "large"];

/**
 * Every directive name as one shared string: a kept directive holds it, not a lower-cased copy of
 * its own (a page can repeat a name in a million tags).
 */
const DIRECTIVE_NAMES: ReadonlyMap<string, DirectiveName> = new Map(
  [...FLAG_DIRECTIVES, ...VALUE_DIRECTIVES].map((name) => [name, name as DirectiveName]),
);

/**
 * Unknown and invalid elements are diagnostics with no effect: of each kind, a page keeps the first
 * REPORTED_PER_SOURCE of each source (a tag's content, a header value) and REPORTED_PER_PAGE in all,
 * and counts the rest. A list of a million junk elements would otherwise keep an object for each
 * (hundreds of bytes of heap per byte of page); a real list has a handful.
 */
export const REPORTED_PER_SOURCE = 32;
export const REPORTED_PER_PAGE = 256;

/** Counts of list elements read but not kept, by kind: OmittedEntries while they are counted. */
type OmittedCounts = { -readonly [Kind in keyof OmittedEntries]: number };

/** Everything parsed from a page's lists, in reading order. */
export interface DirectiveSet {
  directives: Directive[];
  unknown: UnknownDirective[];
  invalid: InvalidDirective[];
  /** Agents with a group of their own: a meta tag with their name or a header with their prefix, even an empty one. */
  groups: Set<string>;
  /** Index in `directives` of the directive kept for each agent and name (`name` or `name agent`: names and agents hold no space). */
  kept: Map<string, number>;
  /** Elements read but not kept, per agent (null: every crawler's), so that a resolution can say how many of its own were left out. */
  omitted: Map<string | null, OmittedCounts>;
  /** When the page was received (ms): a two-digit year of `unavailable_after` is read near it. */
  receivedAt: number;
}

export function emptyDirectiveSet(receivedAt: number): DirectiveSet {
  return { directives: [], unknown: [], invalid: [], groups: new Set(), kept: new Map(), omitted: new Map(), receivedAt };
}

/** The omitted counts of the entries of `agents` (null: every crawler's) in a set, added up. */
export function omittedFor(set: DirectiveSet, applies: (agent: string | null) => boolean): OmittedEntries {
  const total = { directives: 0, unknown: 0, invalid: 0 };
  for (const [agent, counts] of set.omitted) {
    if (!applies(agent)) continue;
    total.directives += counts.directives;
    total.unknown += counts.unknown;
    total.invalid += counts.invalid;
  }
  return Object.freeze(total);
}

function countOmitted(into: DirectiveSet, agent: string | null, kind: keyof OmittedCounts): void {
  let counts = into.omitted.get(agent);
  if (counts === undefined) into.omitted.set(agent, (counts = { directives: 0, unknown: 0, invalid: 0 }));
  counts[kind]++;
}

/** One list (one source) being read: its source, and how many unknown and invalid elements it has kept. */
interface SourceState {
  readonly source: DirectiveSource;
  unknown: number;
  invalid: number;
}

/**
 * Rank of a value directive's value, lower is more restrictive: the order in which resolution
 * (resolve.ts, its Limits) prefers them (0 before 1 before any larger limit; -1, no limit, last;
 * `none` < `standard` < `large`; the earliest date).
 */
function restrictiveness(directive: Directive): number {
  switch (directive.name) {
    case "max-snippet":
    case "max-video-preview":
      return directive.value === -1 ? Infinity : directive.value;
    case "max-image-preview":
      return IMAGE_PREVIEWS.indexOf(directive.value);
    case "unavailable_after":
      return directive.value.getTime();
    default:
      return 0;
  }
}

/**
 * Keeps a recognised directive unless the page already holds one of the same agent and name that
 * is at least as restrictive: resolution takes the most restrictive value of each name (any one of
 * a flag), whatever its source, so the repeat cannot change an answer, and a page that says
 * `noindex` a million times keeps one. A more restrictive value takes the place of the kept one.
 * Page-wide, not per source: the header values and meta tags a page is written back to (one per
 * agent group) then read back to the same directives.
 */
function keepDirective(directive: Directive, into: DirectiveSet): void {
  const key = directive.agent === null ? directive.name : `${directive.name} ${directive.agent}`;
  const index = into.kept.get(key);
  if (index === undefined) {
    into.kept.set(key, into.directives.push(directive) - 1);
    return;
  }
  countOmitted(into, directive.agent, "directives");
  if (restrictiveness(directive) < restrictiveness(into.directives[index]!)) into.directives[index] = directive;
}

function keepUnknown(entry: UnknownDirective, state: SourceState, into: DirectiveSet): void {
  if (state.unknown < REPORTED_PER_SOURCE && into.unknown.length < REPORTED_PER_PAGE) {
    state.unknown++;
    into.unknown.push(entry);
  } else {
    countOmitted(into, entry.agent, "unknown");
  }
}

function keepInvalid(entry: InvalidDirective, state: SourceState, into: DirectiveSet): void {
  if (state.invalid < REPORTED_PER_SOURCE && into.invalid.length < REPORTED_PER_PAGE) {
    state.invalid++;
    into.invalid.push(entry);
  } else {
    countOmitted(into, entry.agent, "invalid");
  }
}

/** HTML and HTTP whitespace (tab, LF, FF, CR, space), as around list elements, names and values (and in markup: prescan.ts). */
export function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d;
}

/**
 * The text without whitespace at either end. A loop, not a regular expression: `\s+$` tries
 * every start in a run of spaces that the text does not end with, quadratic on hostile input
 * (100,000 spaces in a meta tag took 8 seconds).
 */
export function trimSpace(text: string): string {
  let start = 0;
  while (start < text.length && isSpace(text.charCodeAt(start))) start++;
  return trimEndSpace(text.slice(start));
}

function trimEndSpace(text: string): string {
  let end = text.length;
  while (end > 0 && isSpace(text.charCodeAt(end - 1))) end--;
  return text.slice(0, end);
}

/** ASCII-only lower-casing: names compare ASCII case-insensitively, other characters keep their form. */
export function asciiLower(text: string): string {
  return text.replace(/[A-Z]+/g, (upper) => upper.toLowerCase());
}

/** An agent prefix at the start of a header list element: `token:` (then the rest of the element). */
export const AGENT_PREFIX = /^([^\t\n\f\r ,:]+)[\t ]*:(.*)$/s;

/**
 * Reads one list. `header`: agent prefixes may start any element and hold until the next one
 * (joined headers put them mid-list); the list itself starts generic. Meta content has no
 * prefixes: its agent is the tag's name. Adds what it reads to `into`: every directive that can
 * change an answer, and unknown and invalid elements up to the REPORTED limits (see keepDirective).
 */
export function readDirectiveList(text: string, agent: string | null, header: boolean, source: DirectiveSource, into: DirectiveSet): void {
  if (agent !== null) into.groups.add(agent);
  const state: SourceState = { source, unknown: 0, invalid: 0 };
  // Elements are sliced one at a time: splitting first would hold an array of them all.
  for (let start = 0; start <= text.length; ) {
    const end = endOfElement(text, start);
    let element = trimSpace(text.slice(start, end));
    start = end + 1;
    if (header) {
      const prefix = AGENT_PREFIX.exec(element);
      if (prefix && !VALUE_DIRECTIVES.has(asciiLower(prefix[1]!))) {
        agent = asciiLower(prefix[1]!);
        into.groups.add(agent);
        element = trimSpace(prefix[2]!);
      }
    }
    if (element === "") continue;
    // A comma inside a date does not end the element: RFC 822/1123/850 dates have one after the
    // weekday, and ISO 8601 may write the fraction of a second after one (`13:09:53,5+05:00`).
    const colon = element.indexOf(":");
    if (colon > 0 && end < text.length && asciiLower(trimSpace(element.slice(0, colon))) === "unavailable_after") {
      const date = trimSpace(element.slice(colon + 1));
      const nextEnd = endOfElement(text, start);
      const following = trimEndSpace(text.slice(start, nextEnd));
      // After a weekday the rest of a date starts with its day (a digit), even if the date is
      // invalid; `unavailable_after: Wed, noindex` keeps its noindex.
      if ((isWeekdayName(date) && /^[\t\n\f\r ]*\d/.test(following)) || parseDirectiveDate(`${date},${following}`, into.receivedAt) !== undefined) {
        element = `${element},${following}`;
        start = nextEnd + 1;
      }
    }
    readElement(element, agent, state, into);
  }
}

/** Where the list element starting at `start` ends: its comma, or the end of the list. */
function endOfElement(text: string, start: number): number {
  const comma = text.indexOf(",", start);
  return comma < 0 ? text.length : comma;
}

/**
 * One list element: a flag, a `name:value` directive, or something unknown. Entries are object
 * literals with their fields in one order, so that they share a shape and stay small (an entry
 * spread from a common object took four times the heap).
 */
function readElement(text: string, agent: string | null, state: SourceState, into: DirectiveSet): void {
  const colon = text.indexOf(":");
  const written = asciiLower(colon < 0 ? text : trimSpace(text.slice(0, colon)));
  const value = colon < 0 ? undefined : trimSpace(text.slice(colon + 1));
  const { source } = state;
  const name = DIRECTIVE_NAMES.get(written);
  if (name === undefined) {
    keepUnknown({ agent, text, source, name: written }, state, into);
    return;
  }
  if (FLAG_DIRECTIVES.has(name)) {
    // `noindex:` with an empty value is still noindex; `noindex: x` is not a directive Google defines.
    if (value) keepInvalid({ agent, text, source, name, problem: "unexpected-value" }, state, into);
    else keepDirective({ agent, text, source, name: name as FlagDirectiveName }, into);
    return;
  }
  const valueName = name as "max-snippet" | "max-image-preview" | "max-video-preview" | "unavailable_after";
  if (!value) {
    keepInvalid({ agent, text, source, name: valueName, problem: "missing-value" }, state, into);
    return;
  }
  const directive = typedDirective(valueName, value, agent, text, source, into.receivedAt);
  if (directive === undefined) keepInvalid({ agent, text, source, name: valueName, problem: "invalid-value" }, state, into);
  else keepDirective(directive, into);
}

function typedDirective(
  name: "max-snippet" | "max-image-preview" | "max-video-preview" | "unavailable_after", value: string,
  agent: string | null, text: string, source: DirectiveSource, receivedAt: number,
): Directive | undefined {
  switch (name) {
    case "max-snippet":
    case "max-video-preview": {
      // An integer; -1 means no limit; anything else negative or unparseable is ignored. One past
      // 2^53 is still a (very large) limit: held as the largest safe integer, which reads back the same way.
      if (!/^[+-]?\d+$/.test(value)) return undefined;
      const number = Math.min(Number(value), Number.MAX_SAFE_INTEGER);
      return number < -1 ? undefined : { agent, text, source, name, value: number === 0 ? 0 : number };
    }
    case "max-image-preview": {
      const preview = IMAGE_PREVIEWS.indexOf(asciiLower(value) as ImagePreview);
      return preview < 0 ? undefined : { agent, text, source, name, value: IMAGE_PREVIEWS[preview]! };
    }
    case "unavailable_after": {
      const date = parseDirectiveDate(value, receivedAt);
      if (date === undefined) return undefined;
      // A Date cannot be frozen: each read gets a copy of its own.
      const time = date.getTime();
      return { agent, text, source, name, get value() { return new Date(time); } };
    }
  }
}

/** The list element a directive serialises to (`noindex`, `max-snippet:20`, `unavailable_after: <RFC 1123 date>`). */
export function directiveText(directive: Directive): string {
  if (!("value" in directive)) return directive.name;
  if (directive.name === "unavailable_after") return `unavailable_after: ${dateText(directive.value)}`;
  return `${directive.name}:${directive.value}`;
}

/**
 * A date as RFC 1123 writes it (`Wed, 03 Dec 2025 13:09:53 GMT`, the form of Google's examples)
 * where that form holds the instant: whole seconds in years 0 to 9999. Else ISO 8601 to the
 * millisecond, with the expanded year (`+010000`) that the date reader also takes.
 */
function dateText(date: Date): string {
  const year = date.getUTCFullYear();
  const exact = date.getUTCMilliseconds() === 0 && year >= 0 && year <= 9999;
  return exact ? date.toUTCString() : date.toISOString();
}
