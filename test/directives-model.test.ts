/**
 * The directive model around the scanner: the public entry points, X-Robots-Tag input forms,
 * list parsing details, dates, serialisation round trips, and the character reference table
 * checked against parse5.
 */
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import {
  extractMetaTags, IndexingDirectives, initSync, parseDirectiveDate, xRobotsTagValues,
  type Directive,
} from "../src/index.js";
import { knownReferenceNames } from "../src/directives/charref.js";
import { xRobotsTagFromLine } from "../src/directives/headers.js";
import { parse5Metas, scanners } from "./support/directives.js";
import { fuzzRuns } from "./support/fuzz.js";
import { perByteRatio } from "./support/linear-time.js";
import { codeOf } from "./support/robots-error.js";

const fuzz = fuzzRuns(20261122, 300);


describe("public API", () => {
  it("reads headers without the engine, and needs init() for HTML", () => {
    expect(IndexingDirectives.parse({ headers: "noindex" }).resolve("x").index).toBe(false);
    expect(codeOf(() => IndexingDirectives.parse({ html: "<meta name=robots content=noindex>" }))).toBe("ROBOTS_ERR_NOT_INITIALIZED");
    expect(codeOf(() => extractMetaTags("<meta name=a>"))).toBe("ROBOTS_ERR_NOT_INITIALIZED");
    // The message names the call that needs the engine.
    expect(() => IndexingDirectives.parse({ html: "" })).toThrow("before IndexingDirectives.parse with html");
    expect(() => extractMetaTags("")).toThrow("before extractMetaTags");
    initSync();
    const page = IndexingDirectives.parse({ html: "<meta name=robots content=noindex>", headers: { "X-Robots-Tag": "nofollow" } });
    expect(page.resolve("x")).toMatchObject({ index: false, follow: false });
    expect(extractMetaTags("<meta name=a content=b>")).toEqual([
      { name: "a", content: "b", offset: 0, length: 23, inHead: true, inNoscript: false, selfClosing: false },
    ]);
  });

  it("throws typed errors for misuse, never for content", () => {
    expect(codeOf(() => IndexingDirectives.parse({ html: 42 as unknown as string }))).toBe("ROBOTS_ERR_INVALID_BODY");
    expect(codeOf(() => IndexingDirectives.parse({ headers: 42 as unknown as string }))).toBe("ROBOTS_ERR_INVALID_OPTION");
    expect(codeOf(() => IndexingDirectives.parse({ headers: [1] as unknown as string[] }))).toBe("ROBOTS_ERR_INVALID_OPTION");
    const page = IndexingDirectives.parse({ headers: "noindex" });
    expect(codeOf(() => page.resolve(7 as unknown as string))).toBe("ROBOTS_ERR_INVALID_AGENT");
    expect(codeOf(() => page.resolve("x", { policy: "duckduckgo" as "google" }))).toBe("ROBOTS_ERR_INVALID_OPTION");
    expect(codeOf(() => page.resolve("x", { now: new Date(Number.NaN) }))).toBe("ROBOTS_ERR_INVALID_OPTION");
    expect(codeOf(() => IndexingDirectives.parse({ html: "\u0000<<<meta", headers: ":::,,,:" }).resolve([]))).toBeUndefined();
  });

  it("rejects a page that is not { html?, headers? }, and options of the wrong name or type, with typed errors", () => {
    const parse = IndexingDirectives.parse as (page: unknown, options?: unknown) => IndexingDirectives;
    // The page itself: html passed bare, null, or a misspelt field that would be ignored without a word.
    expect(codeOf(() => parse("<meta name=robots content=noindex>"))).toBe("ROBOTS_ERR_INVALID_BODY");
    expect(codeOf(() => parse(null))).toBe("ROBOTS_ERR_INVALID_BODY");
    expect(codeOf(() => parse({ header: "noindex" }))).toBe("ROBOTS_ERR_INVALID_BODY");
    // Options: unknown names and wrong types, when reading and when resolving.
    expect(codeOf(() => parse({ html: "x" }, { encoding: 5 }))).toBe("ROBOTS_ERR_INVALID_OPTION");
    expect(codeOf(() => parse({ html: "x" }, { encodng: "utf-16" }))).toBe("ROBOTS_ERR_INVALID_OPTION");
    expect(codeOf(() => parse({ html: "x" }, "utf-16"))).toBe("ROBOTS_ERR_INVALID_OPTION");
    expect(codeOf(() => extractMetaTags("x", { encoding: 5 } as unknown as { encoding: string }))).toBe("ROBOTS_ERR_INVALID_OPTION");
    const page = parse({ headers: "noindex" });
    expect(codeOf(() => page.resolve("x", { polcy: "bing" } as unknown as { policy: "bing" }))).toBe("ROBOTS_ERR_INVALID_OPTION");
    // Each check says what was wrong.
    expect(() => parse({ header: "noindex" })).toThrow(/unknown page field "header"/);
    expect(() => parse({ html: "x" }, { encodng: "utf-16" })).toThrow(/unknown option "encodng" \(known: encoding, now\)/);
    // The same calls with correct names and types read the page.
    expect(parse({ html: "x", headers: "noindex" }, { encoding: "utf-8" }).resolve("x", { policy: "bing", now: 0 }).index).toBe(false);
  });

  it("reports the page's meta tags, header values, agents and input", () => {
    const html = '<meta name="description" content="Shoes, cheap"><meta name="googlebot" content="noindex"><meta name="og:title" content="x">';
    const page = IndexingDirectives.parse({ html, headers: ["bingbot: nofollow"] });
    expect(page.metaTags.map((t) => t.name)).toEqual(["description", "googlebot", "og:title"]);
    expect(page.headerValues).toEqual(["bingbot: nofollow"]);
    // HTML's own metadata names and names that are no product token hold no directives.
    expect(page.agents).toEqual(["bingbot", "googlebot"]);
    expect(page.unknown).toEqual([]);
    expect(page.input).toEqual({ bytes: html.length, encoding: "utf-8", bom: false, transcoded: false, truncated: false });
  });
});

describe("what a page hands out is frozen: no caller's change alters a later verdict", () => {
  const now = Date.UTC(2026, 0, 1);

  it("its lists, their entries and sources, its meta tags, header values and input", () => {
    initSync();
    const page = IndexingDirectives.parse({ html: "<meta name=robots content='noindex, nofoo, max-snippet:x'>", headers: "nofollow" });
    for (const frozen of [page.directives, page.unknown, page.invalid, page.metaTags, page.headerValues, page.input]) expect(Object.isFrozen(frozen)).toBe(true);
    for (const entry of [...page.directives, ...page.unknown, ...page.invalid]) expect([Object.isFrozen(entry), Object.isFrozen(entry.source)]).toEqual([true, true]);
    expect(Object.isFrozen(page.metaTags[0])).toBe(true);
    const resolution = page.resolve("x", { now });
    expect(() => (resolution.restrictions[0]!.directive as { name: string }).name = "nosnippet").toThrow(TypeError);
    expect(() => (page.directives as Directive[]).pop()).toThrow(TypeError);
    expect(page.resolve("x", { now })).toMatchObject({ index: false, follow: false, snippet: true });
  });

  it("an unavailable_after date: every read of it, and every resolution's, is a copy of its own", () => {
    const page = IndexingDirectives.parse({ headers: "unavailable_after: 2030-01-01" });
    const first = page.resolve("googlebot", { now });
    first.unavailableAfter!.setUTCFullYear(2020);
    const directive = page.directives[0]!;
    if (directive.name !== "unavailable_after") throw new Error("expected the date");
    directive.value.setUTCFullYear(2020);
    expect(page.resolve("googlebot", { now })).toMatchObject({ index: true, expired: false, unavailableAfter: new Date("2030-01-01T00:00:00Z") });
    expect(page.toHeaderValues()).toEqual(["unavailable_after: Tue, 01 Jan 2030 00:00:00 GMT"]);
  });

  it("`now` may be a Date from another realm (a vm context), told by its tag", async () => {
    const { runInNewContext } = await import("node:vm");
    const foreign = runInNewContext("new Date(Date.UTC(2031, 0, 1))") as Date;
    expect(foreign instanceof Date).toBe(false);
    const page = IndexingDirectives.parse({ headers: "unavailable_after: 2030-01-01" });
    expect(page.resolve("googlebot", { now: foreign })).toMatchObject({ index: false, expired: true });
    expect(codeOf(() => page.resolve("googlebot", { now: runInNewContext("new Date(NaN)") as Date }))).toBe("ROBOTS_ERR_INVALID_OPTION");
  });
});

describe("encodings a page declares", () => {
  it("a platform without an ISO-2022-JP decoder (Node without full ICU) scans such a page as bytes, without throwing", () => {
    initSync();
    const Platform = globalThis.TextDecoder;
    vi.stubGlobal("TextDecoder", class extends Platform {
      constructor(label?: string, options?: TextDecoderOptions) {
        if (label?.toLowerCase() === "iso-2022-jp") throw new RangeError(`The "${label}" encoding is not supported`);
        super(label, options);
      }
    });
    try {
      const read = IndexingDirectives.parse({ html: new TextEncoder().encode("<meta name=robots content=noindex>") }, { encoding: "iso-2022-jp" });
      expect(read.input).toMatchObject({ encoding: "iso-2022-jp", transcoded: false, truncated: false });
      expect(read.resolve("x").index).toBe(false);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it("an unknown label (a server's Content-Type can say anything) is read as UTF-8 and keeps no decoder of its own", async () => {
    initSync();
    const { keptDecoders } = await import("../src/directives/scan.js");
    const page = new TextEncoder().encode("<meta name=robots content=noindex><meta name=x content=\u00e9>");
    IndexingDirectives.parse({ html: page }, { encoding: "x-unknown-0" });
    const kept = keptDecoders();
    for (let i = 1; i <= 200; i++) {
      const read = IndexingDirectives.parse({ html: page }, { encoding: `x-unknown-${i}` });
      expect(read.resolve("x").index).toBe(false);
      expect(read.metaTags[1]!.content).toBe("\u00e9");
    }
    expect(keptDecoders()).toBe(kept);
  });
});

describe("X-Robots-Tag input forms", () => {
  it("takes a string as one value and an array as one value per header line", () => {
    expect(xRobotsTagValues("noindex, nofollow")).toEqual(["noindex, nofollow"]);
    expect(xRobotsTagValues(["noindex", "googlebot: nofollow"])).toEqual(["noindex", "googlebot: nofollow"]);
    expect(xRobotsTagValues(undefined)).toEqual([]);
    expect(xRobotsTagValues(null)).toEqual([]);
  });

  it("reads fetch Headers, which join repeated headers with `, `", () => {
    const headers = new Headers();
    headers.append("X-Robots-Tag", "googlebot: nofollow");
    headers.append("x-robots-tag", "noindex");
    expect(xRobotsTagValues(headers)).toEqual(["googlebot: nofollow, noindex"]);
    expect(xRobotsTagValues(new Headers({ "content-type": "text/html" }))).toEqual([]);
  });

  it("reads Node header records: any key case, joined strings, headersDistinct arrays, numbers", () => {
    expect(xRobotsTagValues({ "X-Robots-Tag": "noindex", host: "a" })).toEqual(["noindex"]);
    expect(xRobotsTagValues({ "x-robots-tag": ["a", "b"], "set-cookie": ["c"] })).toEqual(["a", "b"]);
    expect(xRobotsTagValues({ "x-robots-tag": 7, other: undefined })).toEqual(["7"]);
    expect(xRobotsTagValues({ "x-robots-tag": undefined })).toEqual([]);
  });

  it("splits a `Name: value` header line (the CLI's --header)", () => {
    expect(xRobotsTagFromLine("X-Robots-Tag: googlebot: noindex")).toBe("googlebot: noindex");
    expect(xRobotsTagFromLine("x-robots-tag:noindex")).toBe("noindex");
    expect(xRobotsTagFromLine("Content-Type: text/html")).toBeUndefined();
    expect(xRobotsTagFromLine("noindex")).toBeUndefined();
    // A line pasted from a terminal: RFC 9110 forbids a space before the colon in a message, but
    // the CLI reads what its user meant rather than refusing the line.
    expect(xRobotsTagFromLine(" X-ROBOTS-TAG : noindex ")).toBe("noindex");
    expect(xRobotsTagFromLine("X-Robots-Tags: noindex")).toBeUndefined();
  });
});

describe("directive lists", () => {
  const read = (headers: string | string[]) => IndexingDirectives.parse({ headers });
  const summary = (directives: readonly { agent: string | null; name: string }[]) => directives.map((d) => `${d.agent ?? "*"}:${d.name}`);

  it("skips empty elements and whitespace around names, values and agent prefixes", () => {
    expect(summary(read(" , noindex ,, \t GoogleBot  :  nofollow , ").directives)).toEqual(["*:noindex", "googlebot:nofollow"]);
    expect(summary(read("googlebot:, noindex").directives)).toEqual(["googlebot:noindex"]);
    expect(read("max-snippet :  25").directives).toMatchObject([{ name: "max-snippet", value: 25 }]);
  });

  it("starts every header value generic, while a joined value keeps the agent to its end", () => {
    expect(summary(read(["googlebot: nofollow", "noindex"]).directives)).toEqual(["googlebot:nofollow", "*:noindex"]);
    expect(summary(read("googlebot: nofollow, noindex").directives)).toEqual(["googlebot:nofollow", "googlebot:noindex"]);
  });

  it("reads `noindex: x` as an agent in a header but as an invalid directive in a meta tag", () => {
    expect(read("noindex: nofollow").agents).toEqual(["noindex"]);
    const page = IndexingDirectives.parse({ html: '<meta name=robots content="noindex: x, nofollow:">' });
    expect(page.invalid).toMatchObject([{ name: "noindex", problem: "unexpected-value" }]);
    expect(summary(page.directives)).toEqual(["*:nofollow"]);
  });

  it("joins a date's comma after a weekday name, or where the date goes on after it (ISO 8601's decimal comma)", () => {
    expect(read("unavailable_after: Wed, 03 Dec 2025 13:09:53 GMT, noindex").directives.map((d) => d.text)).toEqual([
      "unavailable_after: Wed, 03 Dec 2025 13:09:53 GMT", "noindex",
    ]);
    expect(read("unavailable_after: 2025-12-03, noindex").directives.map((d) => d.name)).toEqual(["unavailable_after", "noindex"]);
    expect(read("unavailable_after: Wed").invalid).toMatchObject([{ problem: "invalid-value" }]);
    // Joined after a weekday when a day follows, a valid date or not; a directive after it stays one.
    expect(read("unavailable_after: Wed, 31 Feb 2025 13:09:53 GMT").invalid.map((d) => d.text)).toEqual(["unavailable_after: Wed, 31 Feb 2025 13:09:53 GMT"]);
    const cut = read("unavailable_after: Wed, noindex");
    expect([cut.invalid.map((d) => d.text), cut.directives.map((d) => d.name)]).toEqual([["unavailable_after: Wed"], ["noindex"]]);
    // The offset after the decimal comma belongs to the date: 13:09:53.5 at +05:00 is 08:09:53.5 UTC.
    const page = IndexingDirectives.parse({ headers: "unavailable_after: 2025-12-03T13:09:53,5+05:00, noindex" });
    expect(page.directives.map((d) => d.text)).toEqual(["unavailable_after: 2025-12-03T13:09:53,5+05:00", "noindex"]);
    expect(page.agents).toEqual([]);
    expect(page.resolve("x", { now: Date.parse("2025-12-03T10:00:00Z") })).toMatchObject({
      unavailableAfter: new Date("2025-12-03T08:09:53.500Z"), expired: true,
    });
  });

  it("holds a max-snippet past 2^53 as the largest safe integer (a limit still), not as invalid", () => {
    const page = IndexingDirectives.parse({ headers: "max-snippet:99999999999999999999" });
    expect(page.invalid).toEqual([]);
    expect(page.resolve("x").maxSnippet).toBe(Number.MAX_SAFE_INTEGER);
    expect(page.toHeaderValues()).toEqual([`max-snippet:${Number.MAX_SAFE_INTEGER}`]);
  });

  it("trims the whitespace of HTML and HTTP around elements, the form feed too", () => {
    expect(summary(read("\fnoindex").directives)).toEqual(["*:noindex"]);
    expect(read("\fnoindex").resolve("x").index).toBe(false);
  });

  it("folds case in ASCII only: the Kelvin sign is not a K", () => {
    // Unicode lower-cases U+212A to "k"; an agent name compared that way would match kelvinbot.
    const page = read("\u212Aelvinbot: noindex");
    expect(page.agents).toEqual(["\u212Aelvinbot"]);
    expect(page.resolve("kelvinbot").index).toBe(true);
  });

  it("reads a directive name that takes a value in any case, so `MAX-SNIPPET: 20` is no agent", () => {
    const page = read("MAX-SNIPPET: 20");
    expect(page.agents).toEqual([]);
    expect(page.resolve("x").maxSnippet).toBe(20);
  });

  it("joins a date's comma after a weekday name only when a day follows: other text after it is an element of its own", () => {
    const page = read("unavailable_after: Monday, garbage");
    expect(page.invalid).toMatchObject([{ name: "unavailable_after", text: "unavailable_after: Monday", problem: "invalid-value" }]);
    expect(page.unknown).toMatchObject([{ name: "garbage" }]);
    expect(page.directives).toEqual([]);
  });

  it("reads `max-snippet:-0` as 0, not -0", () => {
    // -0 would print as "0" but compare unequal under Object.is, as in a deep equality of results.
    const [directive] = read("max-snippet:-0").directives;
    expect(directive).toMatchObject({ name: "max-snippet" });
    expect(Object.is(directive && "value" in directive ? directive.value : undefined, 0)).toBe(true);
  });

  it("gives flag and value directives their typed values", () => {
    const directives = read("max-snippet:+5, max-video-preview:-1, max-image-preview:Standard, unavailable_after: 2030-01-01, noai").directives;
    expect(directives.map((d) => ("value" in d ? [d.name, d.value] : [d.name]))).toEqual([
      ["max-snippet", 5], ["max-video-preview", -1], ["max-image-preview", "standard"], ["unavailable_after", new Date("2030-01-01T00:00:00Z")], ["noai"],
    ]);
  });
});

describe("runs of whitespace cost linear time (hostile pages and headers)", () => {
  // Before, trimming used /\s+$/-style expressions: 100,000 spaces took 8 seconds.
  const hostile: Record<string, (spaces: string) => () => unknown> = {
    "in a meta tag's content": (spaces) => () => IndexingDirectives.parse({ html: `<meta name="robots" content="noindex${spaces}x">` }),
    "in a meta tag's name": (spaces) => () => IndexingDirectives.parse({ html: `<meta name="robots${spaces}x" content="noindex">` }),
    "in a header element": (spaces) => () => IndexingDirectives.parse({ headers: `a${spaces}b` }),
    "after a date's comma": (spaces) => () => IndexingDirectives.parse({ headers: `unavailable_after: Wed,${spaces}x` }),
    "before an agent's colon": (spaces) => () => IndexingDirectives.parse({ headers: `googlebot${spaces.replaceAll(" ", "\t")}x: noindex` }),
  };
  it.each(Object.keys(hostile))("%s", (kind) => {
    initSync(); // here, not when the suite is collected: "public API" checks the engine is not loaded before
    const small = hostile[kind]!(" ".repeat(8 << 10));
    const large = hostile[kind]!(" ".repeat(128 << 10));
    expect(perByteRatio((run) => run(), small, large)).toBeLessThan(4);
  });
});

describe("unavailable_after dates beyond the examples", () => {
  const iso = (text: string) => parseDirectiveDate(text)?.toISOString() ?? null;

  /** Each form read, as the test names it: the text and the instant it means. */
  const READ: Record<string, [text: string, instant: string][]> = {
    "asctime, full month names, any case, UT/UTC/Z, and no zone as UTC": [
      ["Wed Dec  3 13:09:53 2025", "2025-12-03T13:09:53.000Z"],
      ["3 december 2025 13:09 ut", "2025-12-03T13:09:00.000Z"],
      ["03 DEC 2025 13:09:53 UTC", "2025-12-03T13:09:53.000Z"],
      ["03 Dec 2025 13:09:53 Z", "2025-12-03T13:09:53.000Z"],
      ["03 Dec 2025 13:09:53", "2025-12-03T13:09:53.000Z"],
      ["2025-12-03 13:09:53", "2025-12-03T13:09:53.000Z"],
    ],
    "ISO 8601 basic format, times to the hour or minute, 24:00 as the end of the day": [
      ["20251203", "2025-12-03T00:00:00.000Z"],
      ["20251203T130953Z", "2025-12-03T13:09:53.000Z"],
      ["20251203T1309+0100", "2025-12-03T12:09:00.000Z"],
      ["2025-12-03T13Z", "2025-12-03T13:00:00.000Z"],
      ["2025-12-03T13:09", "2025-12-03T13:09:00.000Z"],
      ["2025-12-03T24:00:00Z", "2025-12-04T00:00:00.000Z"],
      ["2025-12-31T24:00", "2026-01-01T00:00:00.000Z"],
    ],
    "RFC 822 dates without a space after the weekday's comma, and Alaska's and Hawaii's zones": [
      ["Wed,03 Dec 2025 13:09:53 GMT", "2025-12-03T13:09:53.000Z"],
      ["03 Dec 2025 13:09:53 AKST", "2025-12-03T22:09:53.000Z"],
      ["03 Jul 2025 13:09:53 AKDT", "2025-07-03T21:09:53.000Z"],
      ["03 Dec 2025 13:09:53 HST", "2025-12-03T23:09:53.000Z"],
      ["03 Dec 2025 13:09:53 HDT", "2025-12-03T22:09:53.000Z"],
    ],
  };
  for (const [forms, cases] of Object.entries(READ)) {
    it(`reads ${forms}`, () => {
      for (const [text, instant] of cases) expect(iso(text), text).toBe(instant);
    });
  }

  it("rejects an end of the day with time after it, and basic-format dates of the wrong length or month", () => {
    for (const bad of ["2025-12-03T24:00:01", "2025-12-03T24:30", "2025123", "20251303"]) expect(iso(bad), bad).toBeNull();
  });

  it("keeps whole milliseconds of a longer fraction, never rounding into the next second", () => {
    expect(iso("2030-01-01T23:59:59.9999Z")).toBe("2030-01-01T23:59:59.999Z");
    expect(iso("2030-01-01T00:00:00.5+01:00")).toBe("2029-12-31T23:00:00.500Z");
  });

  it("reads a two-digit year as RFC 9110 5.6.7 says: never more than 50 years ahead of now", () => {
    vi.useFakeTimers();
    try {
      vi.setSystemTime(new Date("2026-11-27T00:00:00Z"));
      expect(iso("Sunday, 06-Nov-94 08:49:37 GMT")).toBe("1994-11-06T08:49:37.000Z");
      expect(iso("Monday, 01-Jan-69 00:00:00 GMT")).toBe("2069-01-01T00:00:00.000Z");
      expect(iso("Wednesday, 01-Jan-76 00:00:00 GMT")).toBe("2076-01-01T00:00:00.000Z");
      expect(iso("Friday, 01-Jan-77 00:00:00 GMT")).toBe("1977-01-01T00:00:00.000Z");
      // Near the end of a century, the next one's early years lie ahead.
      vi.setSystemTime(new Date("2095-06-01T00:00:00Z"));
      expect(iso("Sunday, 01-Jan-05 00:00:00 GMT")?.slice(0, 4)).toBe("2105");
      expect(iso("Sunday, 01-Jan-46 00:00:00 GMT")?.slice(0, 4)).toBe("2046");
    } finally {
      vi.useRealTimers();
    }
  });

  it("reads an RFC date whose weekday has no comma", () => {
    expect(iso("Wed 03 Dec 2025 13:09:53 GMT")).toBe("2025-12-03T13:09:53.000Z");
  });

  it("rejects a year whose instant no Date can hold (past ±8.64e15 ms), so that it never hides an earlier date", () => {
    expect(iso("+275760-09-13T00:00:00Z")).toBe("+275760-09-13T00:00:00.000Z");
    expect(iso("-271821-04-20")).toBe("-271821-04-20T00:00:00.000Z");
    for (const bad of ["+275760-09-13T00:00:01Z", "+275760-09-13T00:00:00-01:00", "-271821-04-19T23:59:59Z", "+300000-01-01", "-999999-01-01"]) {
      expect(parseDirectiveDate(bad), bad).toBeUndefined();
    }
    const now = new Date("2026-01-01T00:00:00Z");
    for (const headers of ["unavailable_after: +300000-01-01, unavailable_after: 2010-06-25", "unavailable_after: 2010-06-25, unavailable_after: +300000-01-01"]) {
      const page = IndexingDirectives.parse({ headers });
      expect(page.resolve("googlebot", { now }), headers).toMatchObject({ index: false, expired: true, unavailableAfter: new Date("2010-06-25T00:00:00Z") });
      expect(page.invalid.map((entry) => entry.problem)).toEqual(["invalid-value"]);
      // The far date is kept as written, as other invalid directives are; nothing throws.
      expect(page.toHeaderValues()[0]).toContain("unavailable_after: Fri, 25 Jun 2010 00:00:00 GMT");
      expect(page.toMetaTags()[0]).toContain("unavailable_after: +300000-01-01");
    }
  });

  it("accepts leap days only in leap years and rejects out-of-range fields", () => {
    expect(iso("2024-02-29")).toBe("2024-02-29T00:00:00.000Z");
    for (const bad of ["2025-02-29", "2025-13-01", "2025-12-03T23:60", "2026-06-30T23:59:60Z", "2025-12-03T10:00+25:00", "2030-01-01T00:00:00+24:00", "32 Jan 2025 10:00 GMT", "", "tomorrow"]) {
      expect(iso(bad), bad).toBeNull();
    }
  });
});

describe("serialisation round trips", () => {
  /** Agent, name and typed value: what must survive a round trip. */
  const meaning = (page: IndexingDirectives) => [
    ...page.directives.map((d: Directive) => [d.agent, d.name, "value" in d ? (d.value instanceof Date ? d.value.getTime() : d.value) : null]),
    ...page.unknown.map((d) => [d.agent, "unknown", asciiLower(d.text)]),
    ...page.invalid.map((d) => [d.agent, d.problem, asciiLower(d.text)]),
  ].map((entry) => JSON.stringify(entry)).sort();
  const asciiLower = (text: string) => text.replace(/[A-Z]/g, (c) => c.toLowerCase());

  it("writes one header value and one meta tag per agent group", () => {
    const page = IndexingDirectives.parse({
      html: '<meta name="robots" content="NOINDEX, max-snippet:20"><meta name="GoogleBot" content="nosnippet, foo: bar">',
      headers: "unavailable_after: 25 Jun 2010 15:00:00 PST, otherbot: noarchive",
    });
    expect(page.toHeaderValues()).toEqual([
      "unavailable_after: Fri, 25 Jun 2010 23:00:00 GMT, noindex, max-snippet:20",
      "otherbot: noarchive",
      "googlebot: nosnippet",
      "googlebot: foo: bar",
    ]);
    expect(page.toMetaTags()).toEqual([
      '<meta name="robots" content="unavailable_after: Fri, 25 Jun 2010 23:00:00 GMT, noindex, max-snippet:20">',
      '<meta name="otherbot" content="noarchive">',
      '<meta name="googlebot" content="nosnippet, foo: bar">',
    ]);
  });

  it("writes no header for a generic `token: value` (it would read back as an agent), and no tag for an empty generic group", () => {
    expect(IndexingDirectives.parse({ html: '<meta name="robots" content="noindex, foo: bar">' }).toHeaderValues()).toEqual(["noindex"]);
    expect(IndexingDirectives.parse({ headers: "googlebot: noindex" }).toMetaTags()).toEqual(['<meta name="googlebot" content="noindex">']);
  });

  it("leaves out of the meta tags a header agent that no meta name can carry (it would read back as another group, or none)", () => {
    for (const agent of ["robots", "googlebot/2.1", "google.com", "description", 'bad"bot']) {
      const page = IndexingDirectives.parse({ headers: [`${agent}: noindex`, "googlebot: nofollow"] });
      expect(page.toMetaTags(), agent).toEqual(['<meta name="googlebot" content="nofollow">']);
      expect(page.toHeaderValues(), agent).toEqual([`${agent}: noindex`, "googlebot: nofollow"]);
    }
  });

  it("leaves out of the header values a meta agent named like a directive that takes a value (it would read back as that directive)", () => {
    const page = IndexingDirectives.parse({ html: '<meta name="max-snippet" content="noindex"><meta name="robots" content="nofollow">' });
    expect(page.toHeaderValues()).toEqual(["nofollow"]);
    expect(page.toMetaTags()).toEqual(['<meta name="robots" content="nofollow">', '<meta name="max-snippet" content="noindex">']);
  });

  it("writes a date to the millisecond, and dates outside years 0 to 9999, so that they read back the same", () => {
    for (const value of ["2025-12-03T13:09:53.5Z", "9999-12-31T23:00:00-05:00", "0000-01-01T00:00:00+01:00", "0000-02-29", "-000500-06-01T12:00:00Z", "2025-12-03T13:09:53Z"]) {
      const original = IndexingDirectives.parse({ headers: `unavailable_after: ${value}` });
      const [date] = original.directives.map((d) => ("value" in d && d.value instanceof Date ? d.value.getTime() : undefined));
      expect(date, value).toBe(parseDirectiveDate(value)!.getTime());
      for (const again of [IndexingDirectives.parse({ headers: original.toHeaderValues() }), IndexingDirectives.parse({ html: original.toMetaTags().join("") })]) {
        expect(again.directives.map((d) => ("value" in d && d.value instanceof Date ? d.value.getTime() : undefined)), value).toEqual([date]);
      }
    }
    // Whole seconds in years 0 to 9999 keep the RFC 1123 form of Google's examples.
    expect(IndexingDirectives.parse({ headers: "unavailable_after: 2025-12-03T13:09:53Z" }).toHeaderValues()).toEqual(["unavailable_after: Wed, 03 Dec 2025 13:09:53 GMT"]);
    expect(IndexingDirectives.parse({ headers: "unavailable_after: 2025-12-03T13:09:53.5Z" }).toHeaderValues()).toEqual(["unavailable_after: 2025-12-03T13:09:53.500Z"]);
  });

  it("writes the generic header value first, so that the values joined with `, ` read back the same", () => {
    // An agent's directives run to the end of a joined value: after `googlebot: noindex`, a
    // generic `nofollow` would read back as googlebot's.
    const values = IndexingDirectives.parse({ headers: ["googlebot: noindex", "nofollow"] }).toHeaderValues();
    expect(values).toEqual(["nofollow", "googlebot: noindex"]);
    expect(IndexingDirectives.parse({ headers: values.join(", ") }).resolve("otherbot").follow).toBe(false);
  });

  const element = fc.oneof(
    fc.constantFrom("noindex", "NoFollow", "none", "all", "nosnippet", "noarchive", "nocache", "noai", "noodp", "indexifembedded", "notranslate"),
    fc.integer({ min: -3, max: 500 }).map((n) => `max-snippet:${n}`),
    fc.integer({ min: -1, max: 90 }).map((n) => `max-video-preview: ${n}`),
    fc.constantFrom("none", "standard", "large", "huge").map((v) => `max-image-preview:${v}`),
    fc.date({ min: new Date("1971-01-01"), max: new Date("2068-12-31"), noInvalidDate: true }).map((d) => `unavailable_after: ${d.toUTCString()}`),
    // Any instant a Date holds, to the millisecond, as toISOString writes it (expanded years too).
    fc.date({ noInvalidDate: true }).map((d) => `unavailable_after: ${d.toISOString()}`),
    fc.constantFrom("unavailable_after: 2030-01-01T10:00:00+02:00", "unavailable_after: garbage", "max-snippet", "foo", "x-y_z", "a&b<c\"d"),
  );
  const group = fc.tuple(fc.constantFrom(null, "googlebot", "bingbot", "otherbot-news"), fc.array(element, { minLength: 1, maxLength: 5 }));
  const groups = fc.array(group, { maxLength: 5 });

  it("reads back the same directives from its header values and from its meta tags (both builds)", () => {
    fc.assert(
      fc.property(groups, (list) => {
        const headers = list.map(([agent, elements]) => (agent === null ? "" : `${agent}: `) + elements.join(", "));
        const original = IndexingDirectives.parse({ headers });
        expect(meaning(IndexingDirectives.parse({ headers: original.toHeaderValues() }))).toEqual(meaning(original));
        for (const scanner of scanners) {
          expect(meaning(scanner.read({ html: original.toMetaTags().join("\n") }))).toEqual(meaning(original));
        }
      }),
      fuzz,
    );
  });
});

describe("character reference table", () => {
  it("decodes every name it knows exactly as parse5 (a full HTML5 implementation) does", () => {
    const { named, legacy } = knownReferenceNames();
    const cases = [...named.map((name) => `&${name};`), ...legacy.map((name) => `&${name} `), ...legacy.map((name) => `&${name}x`)];
    const html = cases.map((value, i) => `<meta name=n${i} content="${value}">`).join("");
    const [scanner] = scanners;
    expect(scanner!.scan(html).map((t) => t.content)).toEqual(parse5Metas(html).map((t) => t.content));
    expect(cases.length).toBeGreaterThan(250);
  });

  it("knows every name of an ASCII character, so that no spelling of a directive is missed", () => {
    // HTML's named character reference table, the names whose value is ASCII.
    const ascii = "Tab NewLine excl quot QUOT num dollar percnt amp AMP apos lpar rpar ast midast plus comma period sol colon semi " +
      "lt LT equals gt GT quest commat lsqb lbrack bsol rsqb rbrack Hat lowbar UnderBar grave DiacriticalGrave lcub lbrace " +
      "verbar vert VerticalLine rcub rbrace fjlig";
    const { named } = knownReferenceNames();
    expect(ascii.split(" ").filter((name) => !named.includes(name))).toEqual([]);
    initSync();
    const html = '<meta name="robots" content="unavailable&UnderBar;after: 2020-01-01">';
    expect(IndexingDirectives.parse({ html }).resolve("googlebot", { now: new Date("2021-01-01") }).index).toBe(false);
  });
});
