/** Public types of the indexing directives: robots meta tags and X-Robots-Tag headers. */

/**
 * How directives combine. `google` (default): the sum of the negative rules, the most restrictive
 * value wins, positive directives never cancel a restriction, noarchive/nocache are ignored.
 * `bing`: as google, and noarchive/nocache (the same there) are honoured. `yandex`: as google,
 * noarchive is honoured, and a positive directive wins over its negative (`index, noindex` means
 * index). `specific-overrides-generic`: as google, but when the agents have a group of their own
 * (a meta tag with their name, or a header with their prefix), the generic one is ignored.
 */
export type DirectivePolicy = "google" | "bing" | "yandex" | "specific-overrides-generic";

/** `max-image-preview` values, from the most to the least restrictive. */
export type ImagePreview = "none" | "standard" | "large";

/** A `<meta name=...>` start tag found in the page (every name, not only robots ones). */
export interface MetaTag {
  /**
   * The `name` attribute, case as written, character references decoded: numeric ones, and the
   * named ones of ASCII and Latin-1 characters and common typography (others stay as written).
   */
  readonly name: string;
  /** The `content` attribute, character references decoded as in `name`; null without one. */
  readonly content: string | null;
  /** Byte offset of the tag's `<` in the scanned bytes (UTF-8 for strings and for pages decoded first: UTF-16, ISO-2022-JP). */
  readonly offset: number;
  /** Bytes from `<` to `>` inclusive. */
  readonly length: number;
  /** In `<head>` (explicit or implied), as an HTML5 parser builds the document; otherwise in `<body>`. */
  readonly inHead: boolean;
  /** Inside `<noscript>` (read as markup, as a parser with scripting disabled does). */
  readonly inNoscript: boolean;
  /** Written `<meta ... />`. */
  readonly selfClosing: boolean;
}

/** Where a directive was read. */
export type DirectiveSource =
  | {
      readonly type: "meta";
      /** Index of the tag in `metaTags`. */
      readonly tag: number;
      /** The tag's name attribute as written. */
      readonly name: string;
      readonly offset: number;
      readonly inHead: boolean;
      readonly inNoscript: boolean;
    }
  | {
      readonly type: "header";
      /** Index of the X-Robots-Tag value in `headerValues` (joined values count as one). */
      readonly header: number;
    };

/** Directives without a value. */
export type FlagDirectiveName =
  | "all" | "index" | "follow" | "noindex" | "nofollow" | "none" | "nosnippet" | "indexifembedded"
  | "notranslate" | "noimageindex" | "noarchive" | "nocache"
  /** Obsolete: recognised, reported, no effect. */
  | "noodp" | "noydir" | "nositelinkssearchbox"
  /** Non-standard AI opt-outs: reported in their own field. */
  | "noai" | "noimageai" | "noml";

export type DirectiveName = FlagDirectiveName | "max-snippet" | "max-image-preview" | "max-video-preview" | "unavailable_after";

interface DirectiveCommon {
  /** Lower-cased agent the directive is for; null for every crawler (`robots` meta, unprefixed header). */
  readonly agent: string | null;
  /** The list element as written (trimmed), agent prefix excluded. */
  readonly text: string;
  readonly source: DirectiveSource;
}

/** A recognised directive with a valid value. */
export type Directive = DirectiveCommon & (
  | { readonly name: FlagDirectiveName }
  /** Characters (`max-snippet`) or seconds (`max-video-preview`); -1 means no limit. */
  | { readonly name: "max-snippet" | "max-video-preview"; readonly value: number }
  | { readonly name: "max-image-preview"; readonly value: ImagePreview }
  | { readonly name: "unavailable_after"; /** A copy at each read. */ readonly value: Date }
);

/** A list element that is not a known directive: reported, no effect. */
export interface UnknownDirective extends DirectiveCommon {
  /** Lower-cased name (the text before a `:`). */
  readonly name: string;
}

/** A known directive whose value cannot be used: reported, ignored. */
export interface InvalidDirective extends DirectiveCommon {
  readonly name: DirectiveName;
  readonly problem: "missing-value" | "invalid-value" | "unexpected-value";
}

/**
 * List elements read but not kept. Only elements that cannot change an answer are left out, so a
 * page means the same however long its lists and however many its tags.
 */
export interface OmittedEntries {
  /**
   * Repeats of a directive of the same agent and name, from any source, that are no more
   * restrictive than the one kept (`noindex` in a second tag; `max-snippet:50` after
   * `max-snippet:20`). A more restrictive one takes the place of the one kept before it, which
   * is then counted here.
   */
  readonly directives: number;
  /** Unknown elements past the first 32 of their source (a tag's content, a header value) or the first 256 of the page. */
  readonly unknown: number;
  /** Invalid elements past the first 32 of their source or the first 256 of the page. */
  readonly invalid: number;
}

/** The answers of `resolve`, each restricted field with the directives that restricted it. */
export type RestrictedField =
  | "index" | "follow" | "snippet" | "maxSnippet" | "maxImagePreview" | "maxVideoPreview" | "imageIndex"
  | "translate" | "archive" | "unavailableAfter";

export interface Restriction {
  field: RestrictedField;
  /** The directive that caused it; its `source` says where it was read. */
  directive: Directive;
}

/** A directive that applied to the agents but had no effect under the policy. */
export interface IgnoredDirective {
  directive: Directive;
  reason: "positive-wins" | "not-honoured-by-policy" | "replaced-by-specific";
}

export interface ResolveOptions {
  /** Default `google`. */
  policy?: DirectivePolicy;
  /** The current time for `unavailable_after` (default: now). */
  now?: Date | number;
}

export interface DirectiveResolution {
  /** Lower-cased agents whose groups were merged with the generic one. */
  agents: readonly string[];
  policy: DirectivePolicy;
  /** May the page be indexed: false for noindex/none, or when `unavailable_after` has passed. */
  index: boolean;
  follow: boolean;
  /** A text snippet (and video preview) may be shown: false for nosnippet or max-snippet:0. */
  snippet: boolean;
  /** Longest snippet in characters; null when unlimited. */
  maxSnippet: number | null;
  /** Largest image preview; `large` when nothing restricts it. */
  maxImagePreview: ImagePreview;
  /** Longest video preview in seconds (0: a still image); null when unlimited. */
  maxVideoPreview: number | null;
  imageIndex: boolean;
  translate: boolean;
  /** A cached copy may be shown: false only where the policy honours noarchive/nocache. */
  archive: boolean;
  /** `indexifembedded` together with noindex: the page may be indexed when embedded in an iframe. */
  indexIfEmbedded: boolean;
  /** The earliest valid `unavailable_after`; null when none. */
  unavailableAfter: Date | null;
  /** `unavailableAfter` has passed at `now` (then `index` is false). */
  expired: boolean;
  /** Non-standard AI opt-outs; never mixed into the indexing answers. */
  ai: { noai: boolean; noimageai: boolean; noml: boolean; directives: readonly Directive[] };
  /** Every restriction with the directive, and so the source, that caused it. */
  restrictions: readonly Restriction[];
  ignored: readonly IgnoredDirective[];
  obsolete: readonly Directive[];
  unknown: readonly UnknownDirective[];
  invalid: readonly InvalidDirective[];
  /** The agents' list elements (and the generic ones, as they apply) that `unknown`, `invalid` and the directives leave out. */
  omitted: OmittedEntries;
}

/** What was scanned: how the page was decoded. */
export interface PageInput {
  /** Bytes given (UTF-8 bytes for a string). */
  readonly bytes: number;
  /**
   * The encoding the page was read in: from a byte order mark, the `encoding` option or the page's
   * own `<meta charset>` (in that order; UTF-8 without any of them).
   * `utf-16le`, `utf-16be` and `iso-2022-jp` pages are decoded to UTF-8 before scanning (they are not
   * ASCII-compatible); `replacement` (`iso-2022-kr`, `hz-gb-2312`, ...) decodes to one U+FFFD, as in
   * a browser, so no tags; anything else is scanned as bytes.
   */
  readonly encoding: string;
  /** The page started with a byte order mark. */
  readonly bom: boolean;
  /** The scanned bytes are a UTF-8 transcoding of the input (the encodings decoded first, above). */
  readonly transcoded: boolean;
  /** The page (as scanned) was longer than `MAX_PAGE_BYTES` (256 MiB): its first `MAX_PAGE_BYTES` were read. */
  readonly truncated: boolean;
}

/** A fetch `Headers` object or anything with the same `get`. */
export interface HeadersLike {
  get(name: string): string | null;
}

/**
 * Where X-Robots-Tag values come from: one value, several values (one per header line), a fetch
 * `Headers`, or a Node header record (`IncomingMessage.headers` or `headersDistinct`).
 */
export type HeaderInput =
  | string
  | readonly string[]
  | HeadersLike
  | Readonly<Record<string, string | readonly string[] | number | undefined>>;

export interface PageDirectivesOptions {
  /**
   * The page's encoding when known from Content-Type, as a WHATWG label (`utf-16`, `unicode`, `ucs-2`:
   * a UTF-16 page without BOM is decoded). A byte order mark overrides it, as the Encoding standard
   * says; without it (or when it names no encoding), the encoding the page declares (`<meta charset>`) is used.
   */
  encoding?: string;
  /**
   * When the page was received (default: now): a two-digit year of `unavailable_after`
   * (`Friday, 01-Jan-77 00:00:00 GMT`) is the year with those digits within 50 years of it, as
   * RFC 9110 5.6.7 reads RFC 850 dates, not near the clock of a later reading.
   */
  now?: Date | number;
}
