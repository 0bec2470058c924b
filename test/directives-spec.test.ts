/**
 * The behaviour reference (shared/docs/directives.md) rule by rule and example by example, named
 * by section. Sources named in the reference: Google's robots meta tag and X-Robots-Tag
 * specification, Bing's and Yandex's webmaster documentation, RFC 9110, the HTML standard.
 * Every suite runs against both WASM builds.
 */
import { describe, expect, it } from "vitest";
import type { DirectiveResolution, HeaderInput, ResolveOptions } from "../src/directives/index.js";
import { scanners } from "./support/directives.js";

const NOW_2026 = Date.UTC(2026, 5, 1);

describe.each(scanners)("$name", (scanner) => {
  const page = (html?: string, headers?: HeaderInput) => scanner.read({ html, headers });
  const resolve = (html: string | undefined, headers: HeaderInput | undefined, agents: string | string[], options?: ResolveOptions) =>
    page(html, headers).resolve(agents, { now: NOW_2026, ...options });
  const meta = (content: string) => `<meta name="robots" content="${content}">`;
  /** The fields most examples talk about. */
  const answer = (r: DirectiveResolution) => ({ index: r.index, follow: r.follow, snippet: r.snippet, archive: r.archive });
  const DEFAULTS = { index: true, follow: true, snippet: true, archive: true };

  describe("directives.md 1: where directives come from", () => {
    it("meta name `robots` applies to every crawler, a crawler's name only to it; every name group is kept", () => {
      const p = page('<meta name="robots" content="nofollow"><meta name="somebot" content="noindex"><meta name="yandex" content="nosnippet">');
      expect(p.agents).toEqual(["somebot", "yandex"]);
      expect(answer(p.resolve("somebot"))).toEqual({ ...DEFAULTS, index: false, follow: false });
      expect(answer(p.resolve("yandex"))).toEqual({ ...DEFAULTS, follow: false, snippet: false });
      expect(answer(p.resolve("otherbot"))).toEqual({ ...DEFAULTS, follow: false });
    });

    it("google: tags in <body> count too, and their source says so", () => {
      const r = resolve("<html><body><p>text</p><meta name=robots content=noindex></body>", undefined, "googlebot");
      expect(r.index).toBe(false);
      expect(r.restrictions[0]!.directive.source).toMatchObject({ type: "meta", inHead: false, tag: 0 });
    });

    it("headers: `X-Robots-Tag: DIRECTIVES` applies to every crawler, `AGENT: DIRECTIVES` to that agent, any number of them", () => {
      const p = page(undefined, ["noindex", "googlebot: nofollow", "bingbot: nosnippet"]);
      expect(answer(p.resolve("googlebot"))).toEqual({ ...DEFAULTS, index: false, follow: false });
      expect(answer(p.resolve("bingbot"))).toEqual({ ...DEFAULTS, index: false, snippet: false });
      expect(answer(p.resolve("duckbot"))).toEqual({ ...DEFAULTS, index: false });
    });

    it("names, directive names, values, header names and agent names are case-insensitive", () => {
      expect(resolve('<META NAME="GoogleBot" CONTENT="NoIndex, MAX-IMAGE-PREVIEW:NONE">', undefined, "GOOGLEBOT")).toMatchObject({
        index: false, maxImagePreview: "none",
      });
      expect(resolve(undefined, { "X-ROBOTS-TAG": "GoogleBot: NOFOLLOW" }, "googlebot").follow).toBe(false);
      expect(resolve(undefined, new Headers({ "x-RoBoTs-tag": "noindex" }), "x").index).toBe(false);
    });

    it("the agent asked about is read with the whitespace around it trimmed", () => {
      expect(resolve(undefined, "googlebot: noindex", " googlebot ").index).toBe(false);
      expect(resolve(undefined, "googlebot: noindex", ["x", "\tGoogleBot\n"]).index).toBe(false);
    });
  });

  describe("directives.md 2: directives", () => {
    it("`all`: no restrictions, and never cancels one", () => {
      expect(answer(resolve(meta("all"), undefined, "x"))).toEqual(DEFAULTS);
      expect(answer(resolve(meta("all, noindex"), undefined, "x"))).toEqual({ ...DEFAULTS, index: false });
    });

    it("google: `index` and `follow` are defaults and never cancel a restriction", () => {
      expect(answer(resolve(meta("index, follow"), undefined, "x"))).toEqual(DEFAULTS);
      expect(answer(resolve(meta("index, noindex, follow") + meta("nofollow"), undefined, "x"))).toEqual({ ...DEFAULTS, index: false, follow: false });
    });

    it("`noindex` and `nofollow`", () => {
      expect(answer(resolve(meta("noindex"), undefined, "x"))).toEqual({ ...DEFAULTS, index: false });
      expect(answer(resolve(meta("nofollow"), undefined, "x"))).toEqual({ ...DEFAULTS, follow: false });
    });

    it("`none` is exactly noindex, nofollow, not noarchive (even where noarchive is honoured)", () => {
      for (const policy of ["google", "bing", "yandex"] as const) {
        const r = resolve(meta("none"), undefined, "x", { policy });
        expect(answer(r)).toEqual({ ...DEFAULTS, index: false, follow: false });
        expect(r.restrictions.map((x) => [x.field, x.directive.name])).toEqual([["index", "none"], ["follow", "none"]]);
      }
    });

    it("`nosnippet`: no text snippet and no video preview (at most a still image)", () => {
      expect(resolve(meta("nosnippet"), undefined, "x")).toMatchObject({ snippet: false, maxSnippet: 0, maxVideoPreview: 0 });
    });

    it("`indexifembedded` is meaningful only together with noindex", () => {
      expect(resolve(meta("noindex, indexifembedded"), undefined, "x")).toMatchObject({ index: false, indexIfEmbedded: true });
      expect(resolve(meta("indexifembedded"), undefined, "x")).toMatchObject({ index: true, indexIfEmbedded: false });
    });

    it("`max-snippet`: N characters; 0 is nosnippet; -1 is no limit; unparseable is ignored", () => {
      expect(resolve(meta("max-snippet:20"), undefined, "x")).toMatchObject({ snippet: true, maxSnippet: 20 });
      expect(resolve(meta("max-snippet:0"), undefined, "x")).toMatchObject({ snippet: false, maxSnippet: 0, maxVideoPreview: 0 });
      expect(resolve(meta("max-snippet:-1"), undefined, "x")).toMatchObject({ snippet: true, maxSnippet: null });
      for (const bad of ["abc", "1.5", "-2", "", "20px"]) {
        const r = resolve(meta(`max-snippet:${bad}`), undefined, "x");
        expect(r).toMatchObject({ snippet: true, maxSnippet: null, restrictions: [] });
        expect(r.invalid.map((d) => [d.name, d.problem])).toEqual([["max-snippet", bad === "" ? "missing-value" : "invalid-value"]]);
      }
    });

    it("`max-image-preview`: none, standard or large; other values are ignored", () => {
      for (const value of ["none", "standard", "large"] as const) {
        expect(resolve(meta(`max-image-preview:${value}`), undefined, "x").maxImagePreview).toBe(value);
      }
      // `large` is the default: it restricts nothing, so no directive is named as a cause.
      expect(resolve(meta("max-image-preview:large"), undefined, "x").restrictions).toEqual([]);
      const r = resolve(meta("max-image-preview:huge"), undefined, "x");
      expect(r.maxImagePreview).toBe("large");
      expect(r.invalid.map((d) => d.problem)).toEqual(["invalid-value"]);
    });

    it("`max-video-preview`: N seconds; 0 a still image; -1 no limit; unparseable ignored", () => {
      expect(resolve(meta("max-video-preview:15"), undefined, "x").maxVideoPreview).toBe(15);
      expect(resolve(meta("max-video-preview:0"), undefined, "x")).toMatchObject({ maxVideoPreview: 0, snippet: true });
      expect(resolve(meta("max-video-preview:-1"), undefined, "x").maxVideoPreview).toBeNull();
      expect(resolve(meta("max-video-preview:soon"), undefined, "x")).toMatchObject({ maxVideoPreview: null, invalid: [{ problem: "invalid-value" }] });
    });

    it("`notranslate` and `noimageindex`", () => {
      expect(resolve(meta("notranslate, noimageindex"), undefined, "x")).toMatchObject({ translate: false, imageIndex: false, index: true });
    });

    it("`unavailable_after`: not shown after that instant; an invalid date is ignored", () => {
      const r = resolve(meta("unavailable_after: 2030-01-01"), undefined, "x");
      expect(r).toMatchObject({ index: true, expired: false, unavailableAfter: new Date("2030-01-01T00:00:00Z") });
      // At the instant itself the page may still be shown; a millisecond later it may not.
      const instant = "unavailable_after: 2025-12-03T13:09:53Z";
      const at = Date.UTC(2025, 11, 3, 13, 9, 53);
      expect(resolve(undefined, instant, "x", { now: at })).toMatchObject({ index: true, expired: false });
      expect(resolve(undefined, instant, "x", { now: at + 1 })).toMatchObject({ index: false, expired: true });
      const bad = resolve(meta("unavailable_after: next tuesday"), undefined, "x");
      expect(bad).toMatchObject({ index: true, unavailableAfter: null, invalid: [{ name: "unavailable_after", problem: "invalid-value" }] });
    });

    it("`noarchive` and `nocache`: ignored by google and reported; honoured by bing (nocache = noarchive) and yandex", () => {
      const google = resolve(meta("noarchive, nocache"), undefined, "x");
      expect(google.archive).toBe(true);
      expect(google.ignored.map((i) => [i.directive.name, i.reason])).toEqual([["noarchive", "not-honoured-by-policy"], ["nocache", "not-honoured-by-policy"]]);
      expect(resolve(meta("nocache"), undefined, "x", { policy: "bing" }).archive).toBe(false);
      expect(resolve(meta("noarchive"), undefined, "x", { policy: "bing" }).archive).toBe(false);
      expect(resolve(meta("noarchive"), undefined, "x", { policy: "yandex" }).archive).toBe(false);
      // Yandex documents noarchive and no nocache (README).
      const yandex = resolve(meta("nocache"), undefined, "yandex", { policy: "yandex" });
      expect(yandex.archive).toBe(true);
      expect(yandex.ignored.map((i) => [i.directive.name, i.reason])).toEqual([["nocache", "not-honoured-by-policy"]]);
    });

    it("`noodp`, `noydir`, `nositelinkssearchbox`: obsolete, recognised, reported, no effect", () => {
      const r = resolve(meta("noodp, NOYDIR, nositelinkssearchbox"), undefined, "x");
      expect(r.obsolete.map((d) => d.name)).toEqual(["noodp", "noydir", "nositelinkssearchbox"]);
      expect(r.unknown).toEqual([]);
      expect(answer(r)).toEqual(DEFAULTS);
    });

    it("`noai`, `noimageai`, `noml`: in their own field, never mixed into the indexing answers", () => {
      const r = resolve(meta("noai, noimageai") + meta("noml"), undefined, "x");
      expect(r.ai).toMatchObject({ noai: true, noimageai: true, noml: true });
      expect(r.ai.directives.map((d) => d.name)).toEqual(["noai", "noimageai", "noml"]);
      expect(answer(r)).toEqual(DEFAULTS);
      expect(r.restrictions).toEqual([]);
      expect(r.unknown).toEqual([]);
    });

    it("anything else is unknown: reported, no effect (and never matched as a substring, unlike Nutch)", () => {
      const r = resolve(meta("nonexistent, noindexing, foo:bar"), undefined, "x");
      expect(answer(r)).toEqual(DEFAULTS);
      expect(r.unknown.map((d) => [d.name, d.text])).toEqual([["nonexistent", "nonexistent"], ["noindexing", "noindexing"], ["foo", "foo:bar"]]);
    });

    describe("dates for unavailable_after", () => {
      const date = (value: string) => resolve(undefined, `unavailable_after: ${value}`, "x").unavailableAfter?.toISOString() ?? null;

      it("RFC 822/1123: `Wed, 03 Dec 2025 13:09:53 GMT`", () => {
        expect(date("Wed, 03 Dec 2025 13:09:53 GMT")).toBe("2025-12-03T13:09:53.000Z");
      });

      it("RFC 850: `Wednesday, 03-Dec-25 13:09:53 GMT`", () => {
        expect(date("Wednesday, 03-Dec-25 13:09:53 GMT")).toBe("2025-12-03T13:09:53.000Z");
      });

      it("Google's example form with US zone names: `25 Jun 2010 15:00:00 PST`", () => {
        expect(date("25 Jun 2010 15:00:00 PST")).toBe("2010-06-25T23:00:00.000Z");
        expect(date("25 Jun 2010 15:00:00 EDT")).toBe("2010-06-25T19:00:00.000Z");
        expect(date("25 Jun 2010 15:00:00 +0200")).toBe("2010-06-25T13:00:00.000Z");
      });

      it("ISO 8601: date, date-time, with or without offset; a date alone is 00:00 UTC", () => {
        expect(date("2025-12-03")).toBe("2025-12-03T00:00:00.000Z");
        expect(date("2025-12-03T13:09:53Z")).toBe("2025-12-03T13:09:53.000Z");
        expect(date("2025-12-03T13:09:53+01:00")).toBe("2025-12-03T12:09:53.000Z");
        expect(date("2025-12-03T13:09")).toBe("2025-12-03T13:09:00.000Z");
        expect(date("2025-12-03T13:09:53.250-0530")).toBe("2025-12-03T18:39:53.250Z");
      });

      it("rejects impossible dates and unknown zones", () => {
        for (const bad of [
          "2025-02-30", "31 Apr 2025 10:00:00 GMT", "2025-12-03T25:00", "25 Jun 2010 15:00:00 XYZ", "Funday, 03 Dec 2025 13:09:53 GMT",
          "2025-12-00", "00 Dec 2025 10:00 GMT", "Fun Dec  3 13:09:53 2025",
        ]) {
          expect(date(bad), bad).toBeNull();
        }
      });

      it("the current time is injectable", () => {
        const p = page(meta("unavailable_after: 2026-06-01T00:00:00Z"));
        expect(p.resolve("x", { now: Date.UTC(2026, 4, 31) }).expired).toBe(false);
        expect(p.resolve("x", { now: new Date(Date.UTC(2026, 5, 2)) }).expired).toBe(true);
      });
    });
  });

  describe("directives.md 3: combining", () => {
    it("a comma-separated list, several tags and several headers mean the same thing", () => {
      const strip = (r: DirectiveResolution) => ({ ...r, restrictions: r.restrictions.map((x) => [x.field, x.directive.name]) });
      const list = strip(resolve(meta("noindex, nofollow, max-snippet:10"), undefined, "x"));
      expect(strip(resolve(meta("noindex") + meta("nofollow") + meta("max-snippet:10"), undefined, "x"))).toEqual(list);
      expect(strip(resolve(undefined, ["noindex", "nofollow", "max-snippet:10"], "x"))).toEqual(list);
      expect(strip(resolve(undefined, "noindex, nofollow, max-snippet:10", "x"))).toEqual(list);
    });

    it("generic and agent directives add up (`robots: nofollow` + `googlebot: noindex`); Lighthouse would let the specific replace the generic", () => {
      expect(answer(resolve('<meta name="robots" content="nofollow"><meta name="googlebot" content="noindex">', undefined, "googlebot"))).toEqual({
        ...DEFAULTS, index: false, follow: false,
      });
    });

    it("conflicts resolve to the more restrictive: `max-snippet:50` + `nosnippet` is nosnippet", () => {
      expect(resolve(meta("max-snippet:50, nosnippet"), undefined, "x")).toMatchObject({ snippet: false, maxSnippet: 0 });
    });

    it("two max-snippet values give the smaller; -1 is unlimited", () => {
      expect(resolve(meta("max-snippet:50") + meta("max-snippet:20"), undefined, "x").maxSnippet).toBe(20);
      expect(resolve(meta("max-snippet:-1") + meta("max-snippet:20"), undefined, "x").maxSnippet).toBe(20);
      expect(resolve(meta("max-video-preview:-1, max-video-preview:30, max-video-preview:10"), undefined, "x").maxVideoPreview).toBe(10);
      // Equal limits from two places: both are named as the cause.
      const equal = resolve('<meta name="googlebot" content="max-snippet:50">', "max-snippet:50", "googlebot");
      expect(equal.restrictions.filter((x) => x.field === "maxSnippet").map((x) => x.directive.source.type)).toEqual(["header", "meta"]);
    });

    it("image previews order none < standard < large", () => {
      expect(resolve(meta("max-image-preview:large, max-image-preview:none, max-image-preview:standard"), undefined, "x").maxImagePreview).toBe("none");
    });

    it("the earliest date wins", () => {
      const r = resolve(meta("unavailable_after: 2031-01-01") + meta("unavailable_after: 2030-06-01"), "unavailable_after: 2032-01-01", "x");
      expect(r.unavailableAfter).toEqual(new Date("2030-06-01T00:00:00Z"));
      expect(r.restrictions).toMatchObject([{ field: "unavailableAfter", directive: { source: { type: "meta", tag: 1 } } }]);
    });

    it("headers and meta tags combine the same way, and each restriction names its directive and source", () => {
      const r = resolve('<meta name="googlebot" content="max-snippet:30">', ["max-snippet:40", "googlebot: nofollow"], "googlebot");
      expect(r).toMatchObject({ maxSnippet: 30, follow: false });
      expect(r.restrictions.map((x) => [x.field, x.directive.text, x.directive.source.type, x.directive.agent])).toEqual([
        ["follow", "nofollow", "header", "googlebot"],
        ["maxSnippet", "max-snippet:30", "meta", "googlebot"],
      ]);
      expect(r.restrictions[0]!.directive.source).toEqual({ type: "header", header: 1 });
    });

    it("yandex: a positive directive wins over its negative (`index, noindex` means index)", () => {
      expect(answer(resolve(meta("index, noindex"), undefined, "yandex", { policy: "yandex" }))).toEqual(DEFAULTS);
      expect(answer(resolve(meta("all") + meta("noindex, nofollow"), undefined, "yandex", { policy: "yandex" }))).toEqual(DEFAULTS);
      const partial = resolve(meta("follow, none"), undefined, "yandex", { policy: "yandex" });
      expect(answer(partial)).toEqual({ ...DEFAULTS, index: false });
      expect(resolve(meta("index, noindex"), undefined, "yandex", { policy: "yandex" }).ignored.map((i) => i.reason)).toEqual(["positive-wins"]);
    });

    it("specific-overrides-generic: a named group replaces the generic one for that agent only", () => {
      const html = '<meta name="robots" content="noindex, nofollow"><meta name="googlebot" content="nosnippet">';
      const google = resolve(html, undefined, "googlebot", { policy: "specific-overrides-generic" });
      expect(answer(google)).toEqual({ ...DEFAULTS, snippet: false });
      expect(google.ignored.map((i) => [i.directive.name, i.reason])).toEqual([["noindex", "replaced-by-specific"], ["nofollow", "replaced-by-specific"]]);
      expect(answer(resolve(html, undefined, "bingbot", { policy: "specific-overrides-generic" }))).toEqual({ ...DEFAULTS, index: false, follow: false });
    });

    it("specific-overrides-generic: a named group holding only an invalid directive still replaces the generic one", () => {
      // The page names the agent, so the page meant a group of its own for it, however badly written.
      const p = page(undefined, ["noindex", "googlebot: max-snippet:abc"]);
      expect(p.resolve("googlebot", { policy: "specific-overrides-generic" }).index).toBe(true);
      expect(p.resolve("bingbot", { policy: "specific-overrides-generic" }).index).toBe(false);
    });

    it.each([
      ["a tag with empty content", '<meta name="robots" content="noindex"><meta name="googlebot" content="">', undefined],
      ["a tag without content", '<meta name="robots" content="noindex"><meta name="GoogleBot">', undefined],
      ["an empty header prefix", '<meta name="robots" content="noindex">', "googlebot:"],
    ] as const)("specific-overrides-generic: %s still gives the agent a group of its own", (_, html, header) => {
      const p = page(html, header === undefined ? undefined : [header]);
      expect(p.resolve("googlebot", { policy: "specific-overrides-generic" }).index).toBe(true);
      expect(p.resolve("bingbot", { policy: "specific-overrides-generic" }).index).toBe(false);
      // Other policies add the generic group up as before.
      expect(p.resolve("googlebot").index).toBe(false);
    });

    it("a passed unavailable_after makes index no, and the date is still reported", () => {
      const r = resolve(meta("unavailable_after: 2020-01-01"), undefined, "x");
      expect(r).toMatchObject({ index: false, expired: true, unavailableAfter: new Date("2020-01-01T00:00:00Z") });
      expect(r.restrictions.map((x) => x.field)).toEqual(["unavailableAfter", "index"]);
    });
  });

  describe("directives.md 4: reading headers correctly", () => {
    it("an agent prefix can start mid-list in joined headers", () => {
      const p = page(undefined, "googlebot: nofollow, otherbot: noindex, nofollow");
      expect(answer(p.resolve("googlebot"))).toEqual({ ...DEFAULTS, follow: false });
      expect(answer(p.resolve("otherbot"))).toEqual({ ...DEFAULTS, index: false, follow: false });
      expect(answer(p.resolve("nobody"))).toEqual(DEFAULTS);
    });

    it("accepts a string, an array, fetch Headers and Node header records (joined or distinct)", () => {
      const forms: HeaderInput[] = [
        "googlebot: nofollow, otherbot: noindex, nofollow",
        ["googlebot: nofollow", "otherbot: noindex, nofollow"],
        new Headers([["X-Robots-Tag", "googlebot: nofollow"], ["X-Robots-Tag", "otherbot: noindex, nofollow"]]),
        { "x-robots-tag": "googlebot: nofollow, otherbot: noindex, nofollow", "content-type": "text/html" },
        { "x-robots-tag": ["googlebot: nofollow", "otherbot: noindex, nofollow"] },
      ];
      for (const headers of forms) {
        const p = page(undefined, headers);
        expect([answer(p.resolve("googlebot")), answer(p.resolve("otherbot")), answer(p.resolve("x"))]).toEqual([
          { ...DEFAULTS, follow: false }, { ...DEFAULTS, index: false, follow: false }, DEFAULTS,
        ]);
      }
    });

    it("`token:` starts an agent unless the token is a directive that takes a value", () => {
      for (const directive of ["max-snippet: 10", "max-image-preview: standard", "max-video-preview: 5", "unavailable_after: 2030-01-01"]) {
        const p = page(undefined, `${directive}, noindex`);
        expect(p.agents, directive).toEqual([]);
        expect(p.directives.map((d) => [d.name, d.agent])).toEqual([[directive.split(":")[0], null], ["noindex", null]]);
      }
      expect(page(undefined, "somebot: noindex").agents).toEqual(["somebot"]);
    });

    it("a comma or colon inside a date does not end the element", () => {
      const p = page(undefined, "googlebot: unavailable_after: Wednesday, 03-Dec-25 13:09:53 GMT, noindex");
      expect(p.directives.map((d) => [d.agent, d.name])).toEqual([["googlebot", "unavailable_after"], ["googlebot", "noindex"]]);
      expect(p.resolve("googlebot", { now: Date.UTC(2025, 0, 1) }).unavailableAfter).toEqual(new Date("2025-12-03T13:09:53Z"));
    });

    it("agent directives never leak into the generic group or another agent's group", () => {
      const p = page(undefined, ["noindex, googlebot: nofollow, nosnippet", "bingbot: noarchive"]);
      expect(answer(p.resolve("duckbot"))).toEqual({ ...DEFAULTS, index: false });
      expect(answer(p.resolve("googlebot"))).toEqual({ ...DEFAULTS, index: false, follow: false, snippet: false });
      expect(answer(p.resolve("bingbot", { policy: "bing" }))).toEqual({ ...DEFAULTS, index: false, archive: false });
    });
  });

  describe("directives.md 5: reading HTML correctly (details in directives-html.test.ts)", () => {
    it("attributes in any order, any quoting, no whitespace, self-closing, duplicates (first wins), character references", () => {
      const html = `<meta content='noindex' name=robots/><meta name="googlebot"content="nofollow&#44; nosnippet" name="x" content="all"/>` +
        `<meta name=bingbot content="noarchive&amp;">`;
      const p = page(html);
      expect(p.metaTags.map((t) => [t.name, t.content, t.selfClosing])).toEqual([
        ["robots/", "noindex", false], ["googlebot", "nofollow, nosnippet", true], ["bingbot", "noarchive&", false],
      ]);
    });

    it("comments, <script>, <style>, <textarea>, <title> and <template> hold no real tags; <noscript> tags count, flagged", () => {
      const hidden = (tag: string) => `<${tag}><meta name=robots content=noindex></${tag}>`;
      const html = "<!-- <meta name=robots content=noindex> -->" + ["script", "style", "textarea", "title", "template"].map(hidden).join("") +
        "<noscript><meta name=robots content=nofollow></noscript>";
      // A template after </head> holds no real tags either (it is not in the body yet).
      expect(page(`<head></head>${hidden("template")}`).metaTags).toEqual([]);
      const r = resolve(html, undefined, "x");
      expect(answer(r)).toEqual({ ...DEFAULTS, follow: false });
      expect(r.restrictions[0]!.directive.source).toMatchObject({ inNoscript: true });
    });

    it("each tag has its byte offset and whether it was in <head>", () => {
      const p = page("<head><meta name=robots content=noindex></head><body>\u00e9<meta name=robots content=nofollow>");
      expect(p.metaTags.map((t) => [t.offset, t.inHead])).toEqual([[6, true], [55, false]]); // 6 + 34 + "</head><body>" 13 + "é" 2 bytes
    });

    it("a page given as text is scanned to its end, whatever the UTF-8 length of its characters", () => {
      for (const unit of ["\u007f", "\u0080", "\u07ff", "\u0800", "\uffff", "\u{10000}", "\ud800"]) {
        const r = page(unit.repeat(1000) + meta("noindex"));
        expect(r.metaTags, JSON.stringify(unit)).toHaveLength(1);
        expect(r.resolve("x").index).toBe(false);
      }
    });

    it("a crawler's name may hold digits, and spaces around a name do not count", () => {
      const p = page('<meta name="360spider" content="noindex"><meta name=" robots " content="nosnippet"><meta name="Googlebot " content="nofollow">');
      expect(p.agents).toEqual(["360spider", "googlebot"]);
      expect(p.resolve("360spider")).toMatchObject({ index: false, snippet: false });
      expect(p.resolve("googlebot")).toMatchObject({ index: true, snippet: false, follow: false });
    });

    it("`viewport` and other non-crawler names hold no directives", () => {
      const p = page('<meta name="viewport" content="width=device-width, noindex">');
      expect(p.agents).toEqual([]);
      expect(p.resolve("viewport").index).toBe(true);
    });

    it("a UTF-16 page (BOM) is decoded first", () => {
      const text = "\ufeff<meta name=robots content=noindex>";
      const bytes = new Uint8Array(text.length * 2);
      for (let i = 0; i < text.length; i++) bytes[2 * i] = text.charCodeAt(i) & 0xff, bytes[2 * i + 1] = text.charCodeAt(i) >> 8;
      expect(scanner.read({ html: bytes }).resolve("x").index).toBe(false);
    });

    it("a UTF-16 page without a BOM is decoded when its encoding is given: `utf-16` is the WHATWG label for little-endian", () => {
      const text = "<meta name=robots content=noindex>";
      const le = new Uint8Array(text.length * 2);
      for (let i = 0; i < text.length; i++) le[2 * i] = text.charCodeAt(i);
      const be = le.map((_, i) => le[i ^ 1]!);
      for (const [bytes, encoding] of [[le, "utf-16"], [le, "UTF-16LE"], [be, "utf-16be"]] as const) {
        expect(scanner.read({ html: bytes }, { encoding }).resolve("x").index, encoding).toBe(false);
      }
    });

    it("an ISO-2022-JP page is decoded first: its two-byte mode writes `<!--` for 次⑬, which hides nothing", () => {
      const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));
      // ESC $ B switches to JIS X 0208 (two bytes a character), ESC ( B back to ASCII.
      const bytes = new Uint8Array([...ascii("<p>"), 0x1b, 0x24, 0x42, 0x3c, 0x21, 0x2d, 0x2d, 0x1b, 0x28, 0x42, ...ascii("</p><meta name=robots content=noindex>")]);
      expect(new TextDecoder("iso-2022-jp").decode(bytes)).toContain("次⑬");
      const read = scanner.read({ html: bytes }, { encoding: "ISO-2022-JP" });
      expect(read.input).toEqual({ bytes: bytes.length, encoding: "iso-2022-jp", bom: false, transcoded: true, truncated: false });
      expect(read.resolve("x").index).toBe(false);
      // Scanned as bytes, the same page holds a comment that hides the tag.
      expect(scanner.read({ html: bytes }).metaTags).toEqual([]);
    });

    it("a page in the replacement encoding (iso-2022-kr, hz-gb-2312, ...) decodes to U+FFFD alone, as in a browser: no tags", () => {
      const bytes = new TextEncoder().encode("<meta name=robots content=noindex>");
      for (const encoding of ["iso-2022-kr", "HZ-GB-2312", "csiso2022kr", "iso-2022-cn-ext"]) {
        const read = scanner.read({ html: bytes }, { encoding });
        expect([read.metaTags, read.input?.encoding, read.input?.transcoded], encoding).toEqual([[], "replacement", true]);
      }
      // A byte order mark still decides first.
      expect(scanner.read({ html: new Uint8Array([0xef, 0xbb, 0xbf, ...bytes]) }, { encoding: "iso-2022-kr" }).metaTags).toHaveLength(1);
    });

    it("a U+FEFF at the start of a name or content is a character of it, as the tokenizer reads it", () => {
      const html = '<meta name="\ufeffrobots" content="noindex"><meta name="robots" content="\ufeffnofollow, \ufeffnoarchive">';
      for (const input of [html, new TextEncoder().encode(`<p>${html}`)]) {
        const read = scanner.read({ html: input });
        expect(read.metaTags.map((tag) => [tag.name, tag.content])).toEqual([
          ["\ufeffrobots", "noindex"], ["robots", "\ufeffnofollow, \ufeffnoarchive"],
        ]);
        // No robots tag says noindex, and the words with a U+FEFF are unknown.
        expect(read.resolve("x", { policy: "bing" })).toMatchObject({ index: true, follow: true, archive: true });
        expect(read.unknown.map((entry) => entry.name)).toEqual(["\ufeffnofollow", "\ufeffnoarchive"]);
      }
    });
  });

  describe("directives.md 6: examples", () => {
    it('`<meta name="robots" content="noindex">`, googlebot: index no, follow yes', () => {
      expect(answer(resolve('<meta name="robots" content="noindex">', undefined, "googlebot"))).toEqual({ ...DEFAULTS, index: false });
    });

    it('`<META NAME=ROBOTS CONTENT="NOINDEX,NOFOLLOW">`, any: index no, follow no', () => {
      expect(answer(resolve('<META NAME=ROBOTS CONTENT="NOINDEX,NOFOLLOW">', undefined, "anybot"))).toEqual({ ...DEFAULTS, index: false, follow: false });
    });

    it('`<meta content="noindex" name="robots">`, any: index no', () => {
      expect(resolve('<meta content="noindex" name="robots">', undefined, "anybot").index).toBe(false);
    });

    it("two tags `noindex` and `nofollow`, any: index no, follow no (StormCrawler reads only the first)", () => {
      expect(answer(resolve('<meta name="robots" content="noindex"><meta name="robots" content="nofollow">', undefined, "anybot"))).toEqual({
        ...DEFAULTS, index: false, follow: false,
      });
    });

    it('`content="  NoIndex ,   NOFOLLOW  "`, any: index no, follow no', () => {
      expect(answer(resolve(meta("  NoIndex ,   NOFOLLOW  "), undefined, "anybot"))).toEqual({ ...DEFAULTS, index: false, follow: false });
    });

    it('`content="all, noindex"`, any: index no', () => {
      expect(resolve(meta("all, noindex"), undefined, "anybot").index).toBe(false);
    });

    it('`content="none"`, any: index no, follow no, archive yes', () => {
      expect(answer(resolve(meta("none"), undefined, "anybot"))).toEqual({ ...DEFAULTS, index: false, follow: false, archive: true });
    });

    it('`content="max-snippet:0"`, any: snippet no', () => {
      expect(resolve(meta("max-snippet:0"), undefined, "anybot").snippet).toBe(false);
    });

    it('`content="max-snippet:abc"`, any: defaults, diagnostic', () => {
      const r = resolve(meta("max-snippet:abc"), undefined, "anybot");
      expect(answer(r)).toEqual(DEFAULTS);
      expect(r.maxSnippet).toBeNull();
      expect(r.invalid).toMatchObject([{ name: "max-snippet", text: "max-snippet:abc", problem: "invalid-value" }]);
    });

    it("`max-image-preview:large` and `max-image-preview:standard`, any: standard", () => {
      expect(resolve(meta("max-image-preview:large") + meta("max-image-preview:standard"), undefined, "anybot").maxImagePreview).toBe("standard");
    });

    it("`X-Robots-Tag: noindex`, any: index no", () => {
      expect(resolve(undefined, "noindex", "anybot").index).toBe(false);
    });

    it("`X-Robots-Tag: googlebot: nofollow` and `X-Robots-Tag: otherbot: noindex, nofollow`, googlebot: follow no, index yes", () => {
      expect(answer(resolve(undefined, ["googlebot: nofollow", "otherbot: noindex, nofollow"], "googlebot"))).toEqual({ ...DEFAULTS, follow: false });
    });

    it("same two headers, bingbot: defaults", () => {
      expect(answer(resolve(undefined, ["googlebot: nofollow", "otherbot: noindex, nofollow"], "bingbot"))).toEqual(DEFAULTS);
    });

    it("`X-Robots-Tag: unavailable_after: 25 Jun 2010 15:00:00 PST`, now 2026: expired at 2010-06-25T23:00:00Z, index no", () => {
      const r = resolve(undefined, "unavailable_after: 25 Jun 2010 15:00:00 PST", "anybot");
      expect(r).toMatchObject({ expired: true, index: false });
      expect(r.unavailableAfter?.toISOString()).toBe("2010-06-25T23:00:00.000Z");
    });

    it('`<meta name="robots" content="nofollow"><meta name="googlebot" content="noindex">`, googlebot: index no, follow no', () => {
      expect(answer(resolve('<meta name="robots" content="nofollow"><meta name="googlebot" content="noindex">', undefined, "googlebot"))).toEqual({
        ...DEFAULTS, index: false, follow: false,
      });
    });

    it("same, bingbot: follow no only", () => {
      expect(answer(resolve('<meta name="robots" content="nofollow"><meta name="googlebot" content="noindex">', undefined, "bingbot"))).toEqual({
        ...DEFAULTS, follow: false,
      });
    });

    it('`<meta name="googlebot-news" content="nosnippet">`, ["googlebot-news", "googlebot"]: snippet no', () => {
      const html = '<meta name="googlebot-news" content="nosnippet">';
      expect(resolve(html, undefined, ["googlebot-news", "googlebot"]).snippet).toBe(false);
      expect(resolve(html, undefined, "googlebot").snippet).toBe(true);
    });
  });
});
