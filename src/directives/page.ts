/**
 * `IndexingDirectives`: everything a page says about indexing, from its meta tags (scanned in WASM)
 * and its X-Robots-Tag headers, kept per agent name so that the caller chooses the agents.
 */
import { assertConstructedBy, RobotsError } from "../errors.js";
import { defaultEngine } from "../init.js";
import { checkOptionNames } from "../options.js";
import type { Engine } from "../wasm.js";
import { timeOption } from "./dates.js";
import { xRobotsTagValues } from "./headers.js";
import { type DirectiveSet, emptyDirectiveSet, omittedFor, readDirectiveList } from "./list.js";
import { metaAgent } from "./meta-names.js";
import { agentNames, resolveDirectives } from "./resolve.js";
import { scanPageWith } from "./scan.js";
import { toHeaderValues, toMetaTags } from "./serialize.js";
import type {
  Directive, DirectiveResolution, HeaderInput, InvalidDirective, MetaTag, OmittedEntries, PageDirectivesOptions, PageInput,
  ResolveOptions, UnknownDirective,
} from "./types.js";

/** A page: its HTML (string or bytes) and its response headers, either may be absent. */
export interface PageSource {
  html?: string | Uint8Array;
  headers?: HeaderInput;
}

/** Checks the page argument's shape: an object with `html` and `headers` at most (each checked where it is read). */
function checkPage(page: unknown): asserts page is PageSource {
  if (page === null || typeof page !== "object") {
    throw new RobotsError("ROBOTS_ERR_INVALID_BODY", `a page must be an object { html?, headers? }, got ${page === null ? "null" : typeof page}`);
  }
  for (const key of Object.keys(page)) {
    if (key !== "html" && key !== "headers") {
      throw new RobotsError("ROBOTS_ERR_INVALID_BODY", `unknown page field "${key}" (known: html, headers)`);
    }
  }
}

/** The page's declared encoding from the options, checked (`ROBOTS_ERR_INVALID_OPTION`). */
function encodingOption(options: PageDirectivesOptions | undefined): string | undefined {
  checkOptionNames(options, ["encoding", "now"]);
  const encoding = options?.encoding;
  if (encoding !== undefined && typeof encoding !== "string") {
    throw new RobotsError("ROBOTS_ERR_INVALID_OPTION", `encoding must be a string, got ${encoding === null ? "null" : typeof encoding}`);
  }
  return encoding;
}

/** What readPageWith passes the constructor: only this module constructs an IndexingDirectives. */
const CONSTRUCT: unique symbol = Symbol("IndexingDirectives");

/** Reads a page with a given engine (tests use it to run the debug build). */
export function readPageWith(engine: Engine | undefined, page: PageSource, options?: PageDirectivesOptions): IndexingDirectives {
  checkPage(page);
  const encoding = encodingOption(options);
  const set = emptyDirectiveSet(timeOption(options?.now));
  const headerValues = xRobotsTagValues(page.headers);
  // Headers arrive before the body: they come first in reading order.
  headerValues.forEach((value, header) => readDirectiveList(value, null, true, { type: "header", header }, set));
  let metaTags: MetaTag[] = [];
  let input: PageInput | null = null;
  if (page.html !== undefined) {
    ({ tags: metaTags, input } = scanPageWith(engine ?? defaultEngine("IndexingDirectives.parse with html"), page.html, encoding));
    metaTags.forEach((tag, index) => {
      const agent = metaAgent(tag.name);
      if (agent === undefined) return;
      // A tag with the agent's name gives it a group, even without content.
      if (tag.content === null) {
        if (agent !== null) set.groups.add(agent);
        return;
      }
      const source = { type: "meta", tag: index, name: tag.name, offset: tag.offset, inHead: tag.inHead, inNoscript: tag.inNoscript } as const;
      readDirectiveList(tag.content, agent, false, source, set);
    });
  }
  // What the page hands out is frozen, as a Robots' metadata is: shared with its resolutions, not
  // copied, so that no caller's change to an entry alters a later verdict.
  for (const list of [set.directives, set.unknown, set.invalid]) {
    for (const entry of list) Object.freeze(Object.freeze(entry).source);
    Object.freeze(list);
  }
  metaTags.forEach((tag) => Object.freeze(tag));
  return new IndexingDirectives(CONSTRUCT, set, Object.freeze(metaTags), Object.freeze(headerValues), input && Object.freeze(input));
}

export class IndexingDirectives {
  /**
   * Reads a page's meta tags (`html`: a string, or bytes: UTF-16 (by its BOM or the `encoding`
   * option) and ISO-2022-JP are decoded first, any other encoding is scanned as bytes) and
   * X-Robots-Tag headers. Content never throws; a page that is
   * not an object `{ html?, headers? }`, or whose html is neither a string nor bytes, throws
   * `ROBOTS_ERR_INVALID_BODY`; headers or options of the wrong type or name throw
   * `ROBOTS_ERR_INVALID_OPTION`. Reading HTML needs `init()` or `initSync()` first; headers alone do not.
   */
  static parse(page: PageSource, options?: PageDirectivesOptions): IndexingDirectives {
    checkPage(page);
    return readPageWith(page.html === undefined ? undefined : defaultEngine("IndexingDirectives.parse with html"), page, options);
  }

  /** Every `<meta name=...>` of the page in document order (all names, robots or not). */
  readonly metaTags: readonly MetaTag[];
  /** The X-Robots-Tag values read, in order. */
  readonly headerValues: readonly string[];
  /** How the HTML was decoded; null without HTML. */
  readonly input: PageInput | null;
  readonly #set: DirectiveSet;

  /** @internal Use `IndexingDirectives.parse`. */
  constructor(token: typeof CONSTRUCT, set: DirectiveSet, metaTags: readonly MetaTag[], headerValues: readonly string[], input: PageInput | null) {
    assertConstructedBy(token, CONSTRUCT, "IndexingDirectives", "IndexingDirectives.parse(page, options)");
    this.#set = set;
    this.metaTags = metaTags;
    this.headerValues = headerValues;
    this.input = input;
  }

  /**
   * Recognised directives with valid values, every agent's, headers first then meta tags: one per
   * agent and name, the most restrictive, in the place of the first read (see `omitted`).
   */
  get directives(): readonly Directive[] {
    return this.#set.directives;
  }

  /** List elements that are no known directive (reported, no effect): the first 32 of each source, 256 in all. */
  get unknown(): readonly UnknownDirective[] {
    return this.#set.unknown;
  }

  /** Known directives with a missing or unusable value (reported, ignored): the first 32 of each source, 256 in all. */
  get invalid(): readonly InvalidDirective[] {
    return this.#set.invalid;
  }

  /** How many list elements the three lists above leave out, every agent's. */
  get omitted(): OmittedEntries {
    return omittedFor(this.#set, () => true);
  }

  /**
   * The agent names that have directives of their own, lower-cased: first those with directives,
   * in the order their first directive was read, then those with only unknown or invalid
   * elements (or only elements left out), in the same order.
   */
  get agents(): readonly string[] {
    const agents = new Set<string>();
    for (const entry of [...this.#set.directives, ...this.#set.unknown, ...this.#set.invalid]) {
      if (entry.agent !== null) agents.add(entry.agent);
    }
    // An agent whose every element was left out (unknown ones past the limits) still has them.
    for (const agent of this.#set.omitted.keys()) if (agent !== null) agents.add(agent);
    return [...agents];
  }

  /**
   * What the page allows `agents` (one name, or several whose groups merge, such as
   * `["googlebot-news", "googlebot"]`), under a policy (default `google`) at a time (default now).
   */
  resolve(agents: string | readonly string[], options?: ResolveOptions): DirectiveResolution {
    return resolveDirectives(this.#set, agentNames(agents), options);
  }

  /**
   * X-Robots-Tag values that read back to the same directives (one per agent group). A generic
   * `token: value` and an agent named like a directive that takes a value (a meta name
   * `max-snippet`) have no header form and are left out.
   */
  toHeaderValues(): string[] {
    return toHeaderValues(this.#set);
  }

  /**
   * Meta tags that read back to the same directives (one per agent group). An agent no meta name
   * can carry (a header's `robots:`, names outside `[a-z0-9_-]`, HTML's metadata names such as
   * `description`) is left out.
   */
  toMetaTags(): string[] {
    return toMetaTags(this.#set);
  }
}

/** Every `<meta name=...>` of a page, scanned in WASM (needs `init()`/`initSync()`). */
export function extractMetaTags(html: string | Uint8Array, options?: PageDirectivesOptions): MetaTag[] {
  return scanPageWith(defaultEngine("extractMetaTags"), html, encodingOption(options)).tags;
}
