/**
 * Directive lists: a meta tag's content or an X-Robots-Tag value, split into typed directives.
 * A comma-separated list, several tags and several headers all mean the same thing; names and
 * values are ASCII case-insensitive.
 */
import { isWeekdayName, parseDirectiveDate } from "./dates.js";
import type {
  Directive, DirectiveName, DirectiveSource, FlagDirectiveName, ImagePreview, InvalidDirective, UnknownDirective,
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

const IMAGE_PREVIEWS: readonly ImagePreview[] = ["none", "standard", "large"];

/** Everything parsed from a page's lists, in reading order. */
export interface DirectiveSet {
  directives: Directive[];
  unknown: UnknownDirective[];
  invalid: InvalidDirective[];
  /** Agents with a group of their own: a meta tag with their name or a header with their prefix, even an empty one. */
  groups: Set<string>;
}

export function emptyDirectiveSet(): DirectiveSet {
  return { directives: [], unknown: [], invalid: [], groups: new Set() };
}

/** HTML and HTTP whitespace (tab, LF, FF, CR, space), as around list elements, names and values. */
function isSpace(code: number): boolean {
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
 * prefixes: its agent is the tag's name. Adds what it reads to `into`.
 */
export function readDirectiveList(text: string, agent: string | null, header: boolean, source: DirectiveSource, into: DirectiveSet): void {
  if (agent !== null) into.groups.add(agent);
  const pieces = text.split(",");
  for (let i = 0; i < pieces.length; i++) {
    let element = trimSpace(pieces[i]!);
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
    if (colon > 0 && i + 1 < pieces.length && asciiLower(trimSpace(element.slice(0, colon))) === "unavailable_after") {
      const date = trimSpace(element.slice(colon + 1));
      const next = trimEndSpace(pieces[i + 1]!);
      // After a weekday the rest of a date starts with its day (a digit), even if the date is
      // invalid; `unavailable_after: Wed, noindex` keeps its noindex.
      if ((isWeekdayName(date) && /^[\t\n\f\r ]*\d/.test(next)) || parseDirectiveDate(`${date},${next}`) !== undefined) {
        element = `${element},${next}`;
        i++;
      }
    }
    readElement(element, agent, source, into);
  }
}

/** One list element: a flag, a `name:value` directive, or something unknown. */
function readElement(text: string, agent: string | null, source: DirectiveSource, into: DirectiveSet): void {
  const colon = text.indexOf(":");
  const name = asciiLower(colon < 0 ? text : trimSpace(text.slice(0, colon)));
  const value = colon < 0 ? undefined : trimSpace(text.slice(colon + 1));
  const common = { agent, text, source };
  if (FLAG_DIRECTIVES.has(name)) {
    // `noindex:` with an empty value is still noindex; `noindex: x` is not a directive Google defines.
    if (value) into.invalid.push({ ...common, name: name as DirectiveName, problem: "unexpected-value" });
    else into.directives.push({ ...common, name: name as FlagDirectiveName });
    return;
  }
  if (!VALUE_DIRECTIVES.has(name)) {
    into.unknown.push({ ...common, name });
    return;
  }
  const directiveName = name as "max-snippet" | "max-image-preview" | "max-video-preview" | "unavailable_after";
  if (!value) {
    into.invalid.push({ ...common, name: directiveName, problem: "missing-value" });
    return;
  }
  const directive = typedDirective(directiveName, value, common);
  if (directive === undefined) into.invalid.push({ ...common, name: directiveName, problem: "invalid-value" });
  else into.directives.push(directive);
}

function typedDirective(
  name: "max-snippet" | "max-image-preview" | "max-video-preview" | "unavailable_after", value: string,
  common: { agent: string | null; text: string; source: DirectiveSource },
): Directive | undefined {
  switch (name) {
    case "max-snippet":
    case "max-video-preview": {
      // An integer; -1 means no limit; anything else negative or unparseable is ignored. One past
      // 2^53 is still a (very large) limit: held as the largest safe integer, which reads back the same way.
      if (!/^[+-]?\d+$/.test(value)) return undefined;
      const number = Math.min(Number(value), Number.MAX_SAFE_INTEGER);
      return number < -1 ? undefined : { ...common, name, value: number === 0 ? 0 : number };
    }
    case "max-image-preview": {
      const preview = asciiLower(value) as ImagePreview;
      return IMAGE_PREVIEWS.includes(preview) ? { ...common, name, value: preview } : undefined;
    }
    case "unavailable_after": {
      const date = parseDirectiveDate(value);
      if (date === undefined) return undefined;
      // A Date cannot be frozen: each read gets a copy of its own.
      const time = date.getTime();
      return { ...common, name, get value() { return new Date(time); } };
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
