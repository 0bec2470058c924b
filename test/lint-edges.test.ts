/**
 * Lint at its edges: UTF-16 without a BOM from the smallest sample, sitemaps that are not absolute
 * and their fix, pages served as robots.txt (an XML declaration, markup after comments), and
 * control characters in quoted text.
 */
import { describe, expect, it } from "vitest";
import { initSync, Robots } from "../src/index.js";

initSync();

function lint(body: string | Uint8Array) {
  const robots = Robots.parse(body, { keepSource: true });
  try {
    return robots.lint().findings;
  } finally {
    robots.dispose();
  }
}
const codes = (body: string | Uint8Array) => lint(body).map((finding) => `${finding.line}:${finding.code}`);

describe("lint edge cases", () => {
  it("tells UTF-16LE without a BOM from 8 bytes on (4 code units)", () => {
    const bytes = new Uint8Array([0x55, 0, 0x2d, 0, 0x61, 0, 0x67, 0]); // "U-ag" in UTF-16LE
    expect(codes(bytes)).toContain("1:utf-16");
  });

  it("a sitemap with a scheme other than http(s), ftp included or not, is not absolute", () => {
    expect(codes("User-agent: *\nDisallow: /\nSitemap: urn:example:sitemap\n")).toEqual(["3:sitemap-not-absolute"]);
    expect(codes("User-agent: *\nDisallow: /\nSitemap: file:///sitemap.xml\n")).toEqual(["3:sitemap-not-absolute"]);
  });

  it("an XML declaration on a later line marks the body as a page", () => {
    expect(codes("User-agent: *\n<?xml version=\"1.0\"?>\n")).toContain("2:html-body");
  });

  it("a sitemap given as a path is fixed with that path on a full URL", () => {
    const [finding] = lint("User-agent: *\nDisallow: /\nSitemap: /maps/site.xml\n");
    expect(finding).toMatchObject({ code: "sitemap-not-absolute", line: 3, fix: "write the full URL: `Sitemap: https://example.com/maps/site.xml`" });
  });
});

describe("lint quoting and sampling", () => {
  it("quotes a DEL character as a space, as other controls", () => {
    const robots = Robots.parse("User-agent: *\nDisallow: /\nFoo\u007fbar: 1\n", { keepSource: true });
    const [finding] = robots.lint().findings;
    expect(finding).toMatchObject({ code: "unknown-key", line: 3 });
    expect(finding.message).toContain("`Foo bar`");
    robots.dispose();
  });

  it("reads only whole code units when it tells UTF-16 without a BOM (a stray ninth byte does not count)", () => {
    // "U-ag" in UTF-16LE, then a lone NUL: four code units with a NUL high byte, nothing else.
    const robots = Robots.parse(new Uint8Array([0x55, 0, 0x2d, 0, 0x61, 0, 0x67, 0, 0]), { keepSource: true });
    expect(robots.lint().findings.map((finding) => finding.code)).toContain("utf-16");
    robots.dispose();
  });
});

describe("lint: a page served as robots.txt", () => {
  it("is told by markup on the first line with content, after comment lines", () => {
    const robots = Robots.parse("# generated\n<p>Not found</p>\n", { keepSource: true });
    expect(robots.lint().findings.map((finding) => `${finding.line}:${finding.code}`)).toContain("2:html-body");
    robots.dispose();
  });
});
