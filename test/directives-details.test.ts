/**
 * Details of the directive model that the other directive suites leave open: list splitting and
 * trimming, agent prefixes, date forms and zones, date serialisation, resolution filters and
 * defaults, page input checks, meta names, header input forms and character references.
 */
import { describe, expect, it } from "vitest";
import {
  extractMetaTags, IndexingDirectives, initSync, MAX_PAGE_BYTES, parseDirectiveDate,
} from "../src/index.js";
import { codeOf } from "./support/robots-error.js";


const read = (headers: string | string[]) => IndexingDirectives.parse({ headers });
const iso = (text: string) => parseDirectiveDate(text)?.toISOString() ?? null;
/** Agent, name and text of each entry: what tells a directive, an agent group and an unknown element apart. */
const entries = (list: readonly { agent: string | null; name: string; text: string }[]) => list.map(({ agent, name, text }) => ({ agent, name, text }));

describe("list elements: splitting and trimming", () => {
  it("reads an upper-case UNAVAILABLE_AFTER with its date's comma as one directive", () => {
    const page = read("UNAVAILABLE_AFTER: Wed, 03 Dec 2025 13:09:53 GMT");
    expect(entries(page.directives)).toEqual([
      { agent: null, name: "unavailable_after", text: "UNAVAILABLE_AFTER: Wed, 03 Dec 2025 13:09:53 GMT" },
    ]);
    expect(page.resolve("x", { now: 0 }).unavailableAfter).toEqual(new Date("2025-12-03T13:09:53Z"));
    expect([page.unknown, page.invalid]).toEqual([[], []]);
  });

  it("skips the empty element after a trailing comma: nothing unknown, nothing written back", () => {
    const page = read("noindex, nofollow,");
    expect(page.unknown).toEqual([]);
    expect(page.directives.map((d) => d.name)).toEqual(["noindex", "nofollow"]);
    expect(page.toHeaderValues()).toEqual(["noindex, nofollow"]);
  });

  it("splits on commas only: `noindex; nofollow` is one unknown element and restricts nothing", () => {
    const page = read("noindex; nofollow");
    expect(entries(page.unknown)).toEqual([{ agent: null, name: "noindex; nofollow", text: "noindex; nofollow" }]);
    expect(page.directives).toEqual([]);
    expect(page.resolve("x")).toMatchObject({ index: true, follow: true });
  });

  it("trims a carriage return as whitespace, in a header and in a meta tag's content (`&#13;`)", () => {
    const header = read("noindex\r");
    expect(entries(header.directives)).toEqual([{ agent: null, name: "noindex", text: "noindex" }]);
    expect(header.unknown).toEqual([]);
    initSync();
    // The tokenizer turns a literal CR into LF, but a CR from a character reference stays a CR.
    const meta = IndexingDirectives.parse({ html: '<meta name=robots content="noindex&#13;">' });
    expect(meta.metaTags[0]!.content).toBe("noindex\r");
    expect(entries(meta.directives)).toEqual([{ agent: null, name: "noindex", text: "noindex" }]);
    expect(meta.resolve("x").index).toBe(false);
  });

  it("drops the whitespace after a date joined across its comma from the directive's text", () => {
    const page = read("unavailable_after: Wed, 03 Dec 2025 13:09:53 GMT  , noindex");
    expect(page.directives.map((d) => d.text)).toEqual(["unavailable_after: Wed, 03 Dec 2025 13:09:53 GMT", "noindex"]);
  });
});

describe("agent prefixes in headers", () => {
  it("reads a prefix whose directives follow a line break (an obsolete folded header line)", () => {
    // The rest of the element after `token:` may hold CR and LF.
    const page = read("googlebot:\r\n noindex");
    expect(page.agents).toEqual(["googlebot"]);
    expect(entries(page.directives)).toEqual([{ agent: "googlebot", name: "noindex", text: "noindex" }]);
    expect(page.unknown).toEqual([]);
    expect(page.resolve("googlebot").index).toBe(false);
    expect(page.resolve("bingbot").index).toBe(true);
  });

  it("takes no token with a tab inside it for an agent: `foo\\tbar: noindex` is a generic unknown element", () => {
    const page = read("foo\tbar: noindex");
    expect(page.agents).toEqual([]);
    expect(entries(page.unknown)).toEqual([{ agent: null, name: "foo\tbar", text: "foo\tbar: noindex" }]);
    expect(page.directives).toEqual([]);
  });
});

describe("unavailable_after written back: RFC 1123 for whole seconds in years 0 to 9999", () => {
  it("writes year 9999 and year 0 in RFC 1123 form, the edges of the range included", () => {
    expect(read("unavailable_after: 9999-01-01").toHeaderValues()).toEqual(["unavailable_after: Fri, 01 Jan 9999 00:00:00 GMT"]);
    expect(read("unavailable_after: 0000-06-01").toHeaderValues()).toEqual(["unavailable_after: Thu, 01 Jun 0000 00:00:00 GMT"]);
    // Just outside the range: ISO 8601 with the expanded year.
    expect(read("unavailable_after: +010000-01-01").toHeaderValues()).toEqual(["unavailable_after: +010000-01-01T00:00:00.000Z"]);
  });
});

describe("unavailable_after dates: two-digit years near the time the page was received", () => {
  const in2150 = Date.UTC(2150, 0, 1);
  const in2026 = Date.UTC(2026, 5, 1);

  it("reads a two-digit year within 50 years of parseDirectiveDate's now", () => {
    const date = (now: number) => parseDirectiveDate("Friday, 01-Jan-30 00:00:00 GMT", now)?.toISOString();
    expect(date(in2026)).toBe("2030-01-01T00:00:00.000Z");
    expect(date(in2150)).toBe("2130-01-01T00:00:00.000Z");
    expect(parseDirectiveDate("01 Jan 77 00:00 GMT", new Date(in2026))?.getUTCFullYear()).toBe(1977);
    expect(parseDirectiveDate("01 Jan 2030 00:00 GMT", in2150)?.getUTCFullYear()).toBe(2030); // four digits as written
    expect(codeOf(() => parseDirectiveDate("01 Jan 77 00:00 GMT", Number.NaN))).toBe("ROBOTS_ERR_INVALID_OPTION");
  });

  it("reads a page's two-digit years near IndexingDirectives.parse's now, not the clock of the reading (the injected time holds)", () => {
    const header = "unavailable_after: Friday, 01-Jan-30 00:00:00 GMT";
    // Resolved in 2120: received in 2150 the date is 2130, still ahead; received in 2026 it is 2030, past.
    const in2120 = Date.UTC(2120, 0, 1);
    const later = IndexingDirectives.parse({ headers: header }, { now: in2150 }).resolve("x", { now: in2120 });
    expect([later.unavailableAfter?.getUTCFullYear(), later.expired, later.index]).toEqual([2130, false, true]);
    const earlier = IndexingDirectives.parse({ headers: header }, { now: new Date(in2026) }).resolve("x", { now: in2120 });
    expect([earlier.unavailableAfter?.getUTCFullYear(), earlier.expired, earlier.index]).toEqual([2030, true, false]);
    expect(codeOf(() => IndexingDirectives.parse({ headers: header }, { now: "2150" as unknown as number }))).toBe("ROBOTS_ERR_INVALID_OPTION");
  });
});

describe("unavailable_after dates: weekdays, zones and ISO 8601 details", () => {
  it("reads the abbreviated weekday Sun", () => {
    expect(iso("Sun, 07 Dec 2025 13:09:53 GMT")).toBe("2025-12-07T13:09:53.000Z");
    expect(iso("Sun Dec  7 13:09:53 2025")).toBe("2025-12-07T13:09:53.000Z");
  });

  it("reads the US daylight zones one hour ahead of their standard time", () => {
    expect(iso("25 Jun 2010 15:00:00 PDT")).toBe("2010-06-25T22:00:00.000Z");
    expect(iso("25 Jun 2010 15:00:00 MDT")).toBe("2010-06-25T21:00:00.000Z");
    expect(iso("25 Jun 2010 15:00:00 CDT")).toBe("2010-06-25T20:00:00.000Z");
    expect(iso("25 Jun 2010 15:00:00 EDT")).toBe("2010-06-25T19:00:00.000Z");
  });

  it("rejects an end of the day (24:00) with a fraction of a second after it", () => {
    expect(iso("2025-12-03T24:00:00.5")).toBeNull();
    expect(iso("2025-12-03T24:00:00.0")).toBe("2025-12-04T00:00:00.000Z");
  });

  it("rejects an offset with 60 minutes", () => {
    expect(iso("2025-12-03T13:09:53+05:60")).toBeNull();
    expect(iso("2025-12-03T13:09:53+05:59")).toBe("2025-12-03T07:10:53.000Z");
  });

  it("reads a basic-format date-time without a zone as UTC", () => {
    expect(iso("20251203T130953")).toBe("2025-12-03T13:09:53.000Z");
  });

  it("reads an offset of hours alone, in the extended and the basic format", () => {
    expect(iso("2025-12-03T13:09:53+05")).toBe("2025-12-03T08:09:53.000Z");
    expect(iso("20251203T1309+05")).toBe("2025-12-03T08:09:00.000Z");
  });

  it("ignores whitespace around the date", () => {
    expect(iso(" 2025-12-03 ")).toBe("2025-12-03T00:00:00.000Z");
    expect(iso("\t03 Dec 2025 13:09:53 GMT\n")).toBe("2025-12-03T13:09:53.000Z");
  });

  it("takes the zone with or without a space before it, and `z` in lower case", () => {
    expect(iso("2025-12-03T13:09:53 Z")).toBe("2025-12-03T13:09:53.000Z");
    expect(iso("2025-12-03T13:09:53z")).toBe("2025-12-03T13:09:53.000Z");
    expect(iso("20251203T130953 Z")).toBe("2025-12-03T13:09:53.000Z");
    expect(iso("03 Dec 2025 13:09:53GMT")).toBe("2025-12-03T13:09:53.000Z");
  });
});

describe("resolution: time, AI opt-outs, agents and what applies to them", () => {
  it("compares unavailable_after with the current time when `now` is not given", () => {
    const page = read("unavailable_after: 2020-01-01");
    expect(page.resolve("googlebot")).toMatchObject({ index: false, expired: true, unavailableAfter: new Date("2020-01-01T00:00:00Z") });
    // Far ahead of any clock running this test: not expired.
    expect(read("unavailable_after: 9000-01-01").resolve("googlebot")).toMatchObject({ index: true, expired: false });
  });

  it("refuses a `now` that only looks like a Date (a getTime method), as Date's own getter does", () => {
    const page = read("unavailable_after: 2020-01-01");
    expect(codeOf(() => page.resolve("googlebot", { now: { getTime: () => 5 } as unknown as Date }))).toBe("ROBOTS_ERR_INVALID_OPTION");
  });

  it("sets each AI opt-out from its own directive only", () => {
    expect(read("noml").resolve("x").ai).toMatchObject({ noai: false, noimageai: false, noml: true });
    expect(read("noimageai").resolve("x").ai).toMatchObject({ noai: false, noimageai: true, noml: false });
    expect(read("noai").resolve("x").ai).toMatchObject({ noai: true, noimageai: false, noml: false });
  });

  it("reports the agents as asked, lower-cased and trimmed, one per name given (no deduplication)", () => {
    // Pinned as the code behaves: `agents` is the list asked about, not a set.
    expect(read("noindex").resolve(["a", "a"]).agents).toEqual(["a", "a"]);
    expect(read("noindex").resolve(["GoogleBot", " googlebot"]).agents).toEqual(["googlebot", "googlebot"]);
  });

  it("reports another agent's unknown and invalid elements only to that agent", () => {
    const page = read(["otherbot: foo, max-snippet:x"]);
    const googlebot = page.resolve("googlebot");
    expect([googlebot.unknown, googlebot.invalid]).toEqual([[], []]);
    const otherbot = page.resolve("otherbot");
    expect(entries(otherbot.unknown)).toEqual([{ agent: "otherbot", name: "foo", text: "foo" }]);
    expect(otherbot.invalid).toMatchObject([{ agent: "otherbot", name: "max-snippet", text: "max-snippet:x", problem: "invalid-value" }]);
  });

  it("specific-overrides-generic drops the generic unknown and invalid elements too, when the agent has a group", () => {
    const page = read(["foo, max-snippet:x", "googlebot: noindex"]);
    const specific = page.resolve("googlebot", { policy: "specific-overrides-generic" });
    expect([specific.unknown, specific.invalid]).toEqual([[], []]);
    expect(specific.index).toBe(false);
    // Without a group of its own, the generic ones stay; under google they stay for everyone.
    const other = page.resolve("bingbot", { policy: "specific-overrides-generic" });
    expect([other.unknown.map((e) => e.text), other.invalid.map((e) => e.text)]).toEqual([["foo"], ["max-snippet:x"]]);
    const google = page.resolve("googlebot");
    expect([google.unknown.map((e) => e.text), google.invalid.map((e) => e.text)]).toEqual([["foo"], ["max-snippet:x"]]);
  });
});

describe("the page", () => {
  it("lists an agent whose group holds only unknown or invalid elements among its agents", () => {
    expect(read("googlebot: foo").agents).toEqual(["googlebot"]);
    expect(read("bingbot: max-snippet:x").agents).toEqual(["bingbot"]);
  });

  it("lists agents with directives first, in the order read, then those with only unknown or invalid elements", () => {
    expect(read("alphabot: foo, betabot: noindex, gammabot: max-snippet:x, deltabot: nofollow").agents)
      .toEqual(["betabot", "deltabot", "alphabot", "gammabot"]);
  });

  it("refuses a page that is not an object, even one with no fields to complain about", () => {
    const parse = IndexingDirectives.parse as (page: unknown) => IndexingDirectives;
    for (const page of [42, "", true, undefined]) expect(codeOf(() => parse(page)), String(page)).toBe("ROBOTS_ERR_INVALID_BODY");
  });

  it("writes a robots meta tag holding only an unknown `token: value` element (it has no header form)", () => {
    initSync();
    const page = IndexingDirectives.parse({ html: '<meta name="robots" content="foo: bar">' });
    expect(page.toMetaTags()).toEqual(['<meta name="robots" content="foo: bar">']);
    expect(page.toHeaderValues()).toEqual([]);
  });

  it("reports a BOM at the start of a string page", () => {
    initSync();
    const page = IndexingDirectives.parse({ html: "\uFEFF<meta name=robots content=noindex>" });
    expect(page.input).toEqual({ bytes: 37, encoding: "utf-8", bom: true, transcoded: false, truncated: false });
    expect(page.resolve("x").index).toBe(false);
  });
});

describe("meta names", () => {
  it.each(["application-name", "generator", "referrer", "color-scheme"])("%s is HTML metadata, no crawler's group", (name) => {
    initSync();
    const page = IndexingDirectives.parse({ html: `<meta name="${name}" content="noindex">` });
    expect(page.agents).toEqual([]);
    expect(page.directives).toEqual([]);
    expect(page.resolve(name).index).toBe(true);
  });

  it("takes a name with an underscore as a crawler's", () => {
    initSync();
    const page = IndexingDirectives.parse({ html: '<meta name="my_bot" content="noindex">' });
    expect(page.agents).toEqual(["my_bot"]);
    expect(page.resolve("my_bot").index).toBe(false);
    expect(page.resolve("otherbot").index).toBe(true);
  });
});

describe("empty X-Robots-Tag values are kept, so that header indexes match", () => {
  it("in a header record's array, a string, an array of strings and fetch Headers", () => {
    const page = IndexingDirectives.parse({ headers: { "X-Robots-Tag": ["", "noindex"] } });
    expect(page.headerValues).toEqual(["", "noindex"]);
    expect(page.directives[0]!.source).toEqual({ type: "header", header: 1 });
    expect(IndexingDirectives.parse({ headers: { "x-robots-tag": "" } }).headerValues).toEqual([""]);
    expect(IndexingDirectives.parse({ headers: "" }).headerValues).toEqual([""]);
    expect(IndexingDirectives.parse({ headers: ["", "noindex"] }).headerValues).toEqual(["", "noindex"]);
    expect(IndexingDirectives.parse({ headers: new Headers({ "x-robots-tag": "" }) }).headerValues).toEqual([""]);
  });
});

describe("character references", () => {
  it("decodes a reference to the last surrogate, U+DFFF, as U+FFFD", () => {
    initSync();
    expect(extractMetaTags('<meta name=x content="&#xDFFF;">')[0]!.content).toBe("\uFFFD");
    expect(extractMetaTags('<meta name=x content="&#xD800;">')[0]!.content).toBe("\uFFFD");
  });

  it("decodes &REG with and without its semicolon", () => {
    initSync();
    expect(extractMetaTags('<meta name=x content="&REG;|&REG">')[0]!.content).toBe("\u00ae|\u00ae");
  });
});

describe("pages past MAX_PAGE_BYTES", () => {
  // A page of 369 MB of `<meta name>` tags, or of 1.1 GB of text, failed the scan with an internal
  // error and left its memory in the engine; the first MAX_PAGE_BYTES are read instead.
  const seen = '<meta name="googlebot" content="nofollow">';
  const past = '<meta name="robots" content="noindex">';

  it("reads the first MAX_PAGE_BYTES of a byte page: a tag ending at the limit is seen, one after it is not", () => {
    initSync();
    const bytes = new Uint8Array(MAX_PAGE_BYTES + past.length).fill(0x20);
    const encoder = new TextEncoder();
    bytes.set(encoder.encode(seen), MAX_PAGE_BYTES - seen.length);
    bytes.set(encoder.encode(past), MAX_PAGE_BYTES);
    const page = IndexingDirectives.parse({ html: bytes });
    expect(page.metaTags.map((tag) => tag.name)).toEqual(["googlebot"]);
    expect(page.input).toMatchObject({ bytes: bytes.length, truncated: true });
    expect(page.resolve("Googlebot")).toMatchObject({ index: true, follow: false });
  });

  it("reads a text page up to its last whole character within MAX_PAGE_BYTES of UTF-8", () => {
    // Two-byte characters, a space and the tag fill all but the limit's last byte: the next
    // two-byte character does not fit whole.
    initSync();
    const fill = "\u00e9".repeat((MAX_PAGE_BYTES - seen.length - 2) / 2);
    const html = `${fill} ${seen}\u00e9${past}`;
    const page = IndexingDirectives.parse({ html });
    expect(page.metaTags.map((tag) => tag.name)).toEqual(["googlebot"]);
    expect(page.input).toMatchObject({ bytes: new TextEncoder().encode(html).length, truncated: true });
    expect(IndexingDirectives.parse({ html: `${seen}${past}` }).input?.truncated).toBe(false);
  });
});
