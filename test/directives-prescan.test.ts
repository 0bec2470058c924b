/**
 * The encoding a page declares in its first 1024 bytes (HTML 13.2.3.2, src/directives/prescan.ts),
 * used when neither a byte order mark nor the caller's `encoding` names one: it decides whether
 * a page in an encoding that is not ASCII-compatible (ISO-2022-JP, the replacement encoding's
 * ISO-2022-KR) is decoded before it is scanned. Chromium's reading of the same bytes is in
 * directives-chromium.test.ts.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { extractMetaTags, IndexingDirectives, initSync, MAX_PAGE_BYTES } from "../src/index.js";
import { charsetInContent, PRESCAN_BYTES, prescanEncoding } from "../src/directives/prescan.js";
import { perByteRatio } from "./support/linear-time.js";

const latin1 = (text: string) => Buffer.from(text, "latin1");

/** The Encoding standard's labels the tests use, and no others. */
const LABELS: Record<string, string> = {
  "iso-2022-jp": "iso-2022-jp", csiso2022jp: "iso-2022-jp", "utf-8": "utf-8", "utf-16": "utf-16le", "utf-16be": "utf-16be",
  "x-user-defined": "x-user-defined", latin1: "windows-1252", "iso-2022-kr": "replacement",
};
const encodingOf = (label: string) => LABELS[label.trim().toLowerCase()];
const prescan = (page: string) => prescanEncoding(latin1(page), encodingOf);

describe("prescan: where a declaration counts", () => {
  it.each([
    ['<meta charset="iso-2022-jp">', "iso-2022-jp"],
    ["<META CHARSET=CSISO2022JP>", "iso-2022-jp"],
    ["<meta/charset='iso-2022-jp'/>", "iso-2022-jp"],
    ['<meta http-equiv="Content-Type" content="text/html; charset=ISO-2022-JP">', "iso-2022-jp"],
    ['<meta content=\'text/html; charset="iso-2022-jp"\' http-equiv=content-type>', "iso-2022-jp"],
    ["<!doctype html><html lang=ja><head><title>t</title><meta charset=iso-2022-jp>", "iso-2022-jp"],
    ['<meta charset="utf-16">', "utf-8"], // the bytes declaring it are ASCII: UTF-16 cannot be meant
    ['<meta charset="utf-16be">', "utf-8"],
    ['<meta charset="x-user-defined">', "windows-1252"],
    ['<meta charset="latin1">', "windows-1252"],
    ['<meta charset="iso-2022-kr">', "replacement"],
    ['<meta charset="bogus"><meta charset="iso-2022-jp">', "iso-2022-jp"], // a label of no encoding is passed over
  ])("%s declares %s", (page, encoding) => {
    expect(prescan(page)).toBe(encoding);
  });

  it.each([
    ['<meta content="text/html; charset=iso-2022-jp">', "content without http-equiv=content-type"],
    ['<meta http-equiv="refresh" content="0; charset=iso-2022-jp">', "content with another http-equiv"],
    ['<meta charset="bogus" charset="iso-2022-jp">', "a repeated attribute: the first counts"],
    ["<!-- <meta charset=iso-2022-jp> -->", "inside a comment"],
    ['<div title="<meta charset=iso-2022-jp>"></div>', "inside another tag's attribute"],
    ["<metacharset=iso-2022-jp>", "not a meta tag (no space or slash after the name)"],
    ["<? <meta charset=iso-2022-jp> ?>", "inside a processing instruction, to its first >"],
    ["<meta name=x>", "a meta tag without a declaration"],
    ["<meta charset=", "a tag cut by the end of the input"],
  ])("%s declares nothing (%s)", (page) => {
    expect(prescan(page)).toBeUndefined();
  });

  it("ends a comment at its first -->, whose dashes may be the opener's (<!-->)", () => {
    expect(prescan("<!--><meta charset=iso-2022-jp>")).toBe("iso-2022-jp");
    expect(prescan("<!-- a --><meta charset=iso-2022-jp>")).toBe("iso-2022-jp");
    expect(prescan("<!-- a -- ><meta charset=iso-2022-jp>")).toBeUndefined();
  });

  it("skips another tag's quoted attributes, with the > they hold", () => {
    expect(prescan("<p title='a>b' class=\"<meta charset=utf-16>\"><meta charset=iso-2022-jp>")).toBe("iso-2022-jp");
    expect(prescan("</p x='>'><meta charset=iso-2022-jp>")).toBe("iso-2022-jp");
  });

  it(`reads the first ${PRESCAN_BYTES} bytes, and on while the page is in its head (as Chromium does)`, () => {
    const declaration = "<meta charset=iso-2022-jp>";
    // A tag of the body within the first bytes: a declaration that starts within them counts, one
    // that starts past them does not (Chromium stops between tokens once past them).
    const body = "<p>x</p>";
    expect(prescan(`${body}${" ".repeat(PRESCAN_BYTES - body.length - 1)}${declaration}`)).toBe("iso-2022-jp");
    expect(prescan(`${body}${" ".repeat(PRESCAN_BYTES - body.length)}${declaration}`)).toBeUndefined();
    // Still in the head (text, a long title or comment, head elements): read on.
    expect(prescan(`<html><head><title>${"t".repeat(2000)}</title><link rel=x>${declaration}`)).toBe("iso-2022-jp");
    expect(prescan(`<!--${"c".repeat(2000)}-->${declaration}`)).toBe("iso-2022-jp");
    // An end tag of the head, or any other element, ends the head.
    expect(prescan(`<head></head>${" ".repeat(2000)}${declaration}`)).toBeUndefined();
    expect(prescan(`<div>${" ".repeat(2000)}${declaration}`)).toBeUndefined();
  });

  it.each([
    ["script", "<script>var s = '<meta charset=iso-2022-jp>';</script>"],
    ["style", "<style>/* <meta charset=iso-2022-jp> */</STYLE >"],
    ["textarea", "<textarea><meta charset=iso-2022-jp></textarea>"],
    ["title", "<title><meta charset=iso-2022-jp></title/>"],
  ])("reads no declaration inside a %s element (its content is text to a tokenizer)", (_, page) => {
    expect(prescan(page)).toBeUndefined();
    expect(prescan(`${page}<meta charset=latin1>`)).toBe("windows-1252");
  });

  it("reads a script through its escapes: a </script> inside <!--<script> ends only the inner one", () => {
    expect(prescan("<script><!--<script></script><meta charset=iso-2022-jp>--></script>")).toBeUndefined();
    expect(prescan("<script><!--<script></script><meta charset=iso-2022-jp>--></script><meta charset=latin1>")).toBe("windows-1252");
    expect(prescan("<script><!--</script><meta charset=iso-2022-jp>")).toBe("iso-2022-jp");
    expect(prescan("<script><!--></script><meta charset=iso-2022-jp>")).toBe("iso-2022-jp");
  });

  it("ends a comment at --!> too, and decodes character references in values", () => {
    expect(prescan("<!-- x --!><meta charset=iso-2022-jp>")).toBe("iso-2022-jp");
    expect(prescan("<!--><meta charset=iso-2022-jp>")).toBe("iso-2022-jp");
    expect(prescan("<!---><meta charset=iso-2022-jp>")).toBe("iso-2022-jp");
    expect(prescan('<meta charset="iso&#45;2022-jp">')).toBe("iso-2022-jp");
    expect(prescan('<meta charset="iso-2022-jp&#32;">')).toBe("iso-2022-jp");
    expect(prescan('<meta http-equiv="Content&#45;Type" content="text/html; charset=iso&#x2D;2022-jp">')).toBe("iso-2022-jp");
  });

  it("stops at a tag the input ends inside: nothing after it is markup", () => {
    expect(prescan("<p title='x><meta charset=iso-2022-jp>")).toBeUndefined();
    expect(prescan("<meta/x=<meta charset=iso-2022-jp>")).toBe("iso-2022-jp");
  });

  it("reads in linear time: unterminated values and tags, long heads, many tags", () => {
    const shapes = [
      (n: number) => "<meta/x=".repeat(n),
      (n: number) => "<link/x=".repeat(n),
      (n: number) => `<title>${"<meta ".repeat(n)}`,
      (n: number) => `<script>${"<!--<script>".repeat(n)}`,
      (n: number) => `<meta content="${"charset ".repeat(n)}`,
      (n: number) => "<!-- -- --".repeat(n),
      (n: number) => `<a b="${"&".repeat(n)}">`,
    ];
    for (const [i, shape] of shapes.entries()) {
      const small = latin1(shape(4_000));
      const large = latin1(shape(64_000));
      expect(perByteRatio((page: Buffer) => prescanEncoding(page, encodingOf), small, large), `shape ${i}`).toBeLessThan(4);
    }
  });

  it("reads nothing after a plaintext start tag, nor in a text element that never ends", () => {
    expect(prescan("<plaintext><meta charset=iso-2022-jp>")).toBeUndefined();
    expect(prescan("<script><meta charset=iso-2022-jp>")).toBeUndefined();
    expect(prescan("<scripts><meta charset=iso-2022-jp>")).toBe("iso-2022-jp");
  });

  it("takes the encoding of an XML declaration at the start when no meta tag declares one, and UTF-16 from its first bytes", () => {
    expect(prescan('<?xml version="1.0" encoding="ISO-2022-JP"?><html><p>x</p>')).toBe("iso-2022-jp");
    // A meta tag's declaration comes first, as Chromium reads it.
    expect(prescan('<?xml version="1.0" encoding="ISO-2022-JP"?><html><meta charset=latin1>')).toBe("windows-1252");
    expect(prescan("<?xml version='1.0' encoding='utf-16'?>")).toBe("utf-8");
    expect(prescan(' <?xml version="1.0" encoding="iso-2022-jp"?>')).toBeUndefined();
    expect(prescan('<?XML version="1.0" encoding="iso-2022-jp"?>')).toBeUndefined(); // lower case only
    expect(prescanEncoding(Buffer.from("<?xml version='1.0'?>", "utf16le"), encodingOf)).toBe("utf-16le");
    expect(prescanEncoding(Buffer.from("<?xml version='1.0'?>", "utf16le").swap16(), encodingOf)).toBe("utf-16be");
  });

  it("reads an XML declaration to its first > however far, and the first \"encoding\" in it, as Chromium does", () => {
    expect(prescan(`<?xml version="1.0"${" ".repeat(1100)} encoding="iso-2022-jp"?>`)).toBe("iso-2022-jp");
    expect(prescan('<?xml version="1.0" xencoding="iso-2022-jp"?>')).toBe("iso-2022-jp");
    expect(prescan("<?xml version=\"1.0\" encoding\x01 =\x02 'iso-2022-jp'?>")).toBe("iso-2022-jp");
    expect(prescan("<?xml version=\"1.0\" encoding=\xa0\"iso-2022-jp\"?>")).toBe("iso-2022-jp");
    expect(prescan("<?xml version=\"1.0\" encoding\x80= \xff'iso-2022-jp'?>")).toBe("iso-2022-jp");
    expect(prescan('<?xml version="1.0" ENCODING="iso-2022-jp"?>')).toBeUndefined(); // "encoding" in lower case
    // The first "encoding" decides, though a later one would name an encoding.
    expect(prescan('<?xml version="1.0" encoding-x="windows-1252" encoding="iso-2022-jp"?>')).toBeUndefined();
    expect(prescan('<?xml version="1.0" encoding="iso-2022-jp"')).toBeUndefined(); // no >
    // "encoding" is searched from the sixth byte, right after "<?xml".
    expect(prescan('<?xmlencoding="iso-2022-jp"?>')).toBe("iso-2022-jp");
    // NUL and 0x80 are skipped on either side of =; DEL is not.
    expect(prescan('<?xml version="1.0" encoding\x00=\x00"iso-2022-jp"?>')).toBe("iso-2022-jp");
    expect(prescan('<?xml version="1.0" encoding=\x80"iso-2022-jp"?>')).toBe("iso-2022-jp");
    expect(prescan('<?xml version="1.0" encoding\x7f="iso-2022-jp"?>')).toBeUndefined();
    expect(prescan('<?xml version="1.0" encoding=\x7f"iso-2022-jp"?>')).toBeUndefined();
    // The first "encoding" must be followed by = (after skipped bytes): not by -x=, nor by a space and a quote.
    expect(prescan('<?xml version="1.0" encoding-x="iso-2022-jp"?>')).toBeUndefined();
    expect(prescan('<?xml version="1.0" encoding "iso-2022-jp"?>')).toBeUndefined();
    // The declaration ends at its first >: an attribute of a later tag is not in it.
    expect(prescan('<?xml version="1.0"?><p encoding="iso-2022-jp">')).toBeUndefined();
  });
});

describe("prescan: which meta tags declare (against Chromium: directives-chromium.test.ts)", () => {
  it("reads no tags in xmp or noframes, and a base tag does not end the head", () => {
    expect(prescan("<xmp><meta charset=iso-2022-jp></xmp>")).toBeUndefined();
    expect(prescan("<noframes><meta charset=iso-2022-jp></noframes>")).toBeUndefined();
    expect(prescan(`<head><title>${"t".repeat(1100)}</title><base href=/><meta charset=iso-2022-jp>`)).toBe("iso-2022-jp");
  });

  it("ends a script's escape at -->", () => {
    expect(prescan("<script><!-- --><script></script><meta charset=iso-2022-jp>")).toBe("iso-2022-jp");
  });

  it("takes a charset attribute before a later content one, and a content's charset spelt by a reference or in capitals", () => {
    expect(prescan('<meta charset=iso-2022-jp http-equiv=content-type content="text/html; charset=utf-8">')).toBe("iso-2022-jp");
    expect(prescan('<meta http-equiv=content-type content="text/html; &#99;harset=iso-2022-jp">')).toBe("iso-2022-jp");
    expect(prescan('<meta http-equiv=content-type content="text/html; CHARSET=iso-2022-jp">')).toBe("iso-2022-jp");
  });

  it("reads an attribute name that starts with =", () => {
    expect(prescan("<meta =' charset=iso-2022-jp '>")).toBe("iso-2022-jp");
  });

  it("compares http-equiv as written: spaces, NBSP or VT around content-type make another value", () => {
    for (const value of [" content-type ", "content-type\xa0", "content-type\x0b", "\tcontent-type"]) {
      expect(prescan(`<meta http-equiv="${value}" content="text/html; charset=iso-2022-jp">`), JSON.stringify(value)).toBeUndefined();
    }
    expect(prescan('<meta http-equiv="Content-TYPE" content="text/html; charset=iso-2022-jp">')).toBe("iso-2022-jp");
  });
});

describe("prescan: a charset in a content attribute (HTML 2.5.9)", () => {
  it.each([
    ["text/html; charset=iso-2022-jp", "iso-2022-jp"],
    ["text/html;charset = iso-2022-jp ; x=y", "iso-2022-jp"],
    ["charsetx; charset=utf-8", "utf-8"], // the first `charset` not followed by `=` is passed over
    ["text/html; charset='iso-2022-jp'", "iso-2022-jp"],
    ['text/html; charset="a b"', "a b"],
    ['text/html; charset="iso-2022-jp', undefined], // a quote that does not close
    ["text/html; charset=", undefined],
    ["text/html", undefined],
  ])("%s gives %s", (content, label) => {
    expect(charsetInContent(content)).toBe(label);
  });
});

describe("the scanner reads a page as the encoding it declares", () => {
  beforeAll(() => initSync());
  const ESC = "\x1b";

  it("finds a meta tag that ISO-2022-JP's two-byte mode hides from a byte reader in what reads as a comment", () => {
    // In two-byte mode `<!--` is two kanji: the meta tag after the shift back is markup.
    const page = latin1(`<meta charset="iso-2022-jp"><title>t</title>${ESC}$B<!--${ESC}(B<meta name="robots" content="noindex">-->`);
    const read = IndexingDirectives.parse({ html: page });
    expect(read.input).toMatchObject({ encoding: "iso-2022-jp", transcoded: true });
    expect(read.resolve("googlebot").index).toBe(false);
  });

  it("finds no meta tag in bytes that ISO-2022-JP's two-byte mode makes kanji", () => {
    const page = latin1(`<meta charset="iso-2022-jp"><title>t</title>${ESC}$B<meta name="robots" content="noindex">${ESC}(B`);
    expect(IndexingDirectives.parse({ html: page }).resolve("googlebot").index).toBe(true);
  });

  it("finds no tags in a page that declares a replacement-encoding label (a browser reads one U+FFFD)", () => {
    const page = latin1('<meta charset="iso-2022-kr"><meta name="robots" content="noindex">');
    const read = IndexingDirectives.parse({ html: page });
    expect(read.input).toMatchObject({ encoding: "replacement" });
    expect(read.metaTags).toEqual([]);
  });

  it("decodes names and contents in the declared encoding, and lets the caller's encoding (Content-Type) win", () => {
    const page = latin1('<meta charset="windows-1252"><meta name="robots" content="caf\xe9">');
    expect(extractMetaTags(page).map((tag) => tag.content)).toEqual(["caf\u00e9"]);
    expect(IndexingDirectives.parse({ html: page }).input).toMatchObject({ encoding: "windows-1252" });
    const forged = latin1(`<meta charset="iso-2022-jp">${ESC}$B<meta name="robots" content="noindex">${ESC}(B`);
    expect(IndexingDirectives.parse({ html: forged }, { encoding: "utf-8" }).resolve("x").index).toBe(false);
  });

  it("does not let a label that names no encoding (a server's charset=bogus) turn the prescan off", () => {
    const page = latin1(`<meta charset="iso-2022-jp"><title>t</title>${ESC}$B<!--${ESC}(B<meta name="robots" content="noindex">-->`);
    const read = IndexingDirectives.parse({ html: page }, { encoding: "bogus" });
    expect(read.input).toMatchObject({ encoding: "iso-2022-jp", transcoded: true });
    expect(read.resolve("googlebot").index).toBe(false);
    // Without a declaration in the page, the label is kept as given (names read as UTF-8).
    expect(IndexingDirectives.parse({ html: latin1("<meta name=robots content=noindex>") }, { encoding: "bogus" }).input).toMatchObject({ encoding: "bogus" });
  });

  it("decodes a page it must decode first from its first MAX_PAGE_BYTES only (a longer text can pass V8's longest string)", () => {
    // Escape sequences decode to one U+FFFD for two (three bytes each): far fewer characters than
    // bytes, so a tag past MAX_PAGE_BYTES of the page would still fit in the text decoded whole.
    const head = latin1("<meta charset=iso-2022-jp>");
    const tag = latin1("<meta name=robots content=noindex>");
    const page = Buffer.alloc(MAX_PAGE_BYTES + tag.length, 0x20);
    head.copy(page, 0);
    for (let at = head.length; at + 3 <= MAX_PAGE_BYTES; at += 3) page.write(`${ESC}(B`, at, "latin1");
    tag.copy(page, MAX_PAGE_BYTES);
    const read = IndexingDirectives.parse({ html: page });
    expect(read.input).toMatchObject({ encoding: "iso-2022-jp", transcoded: true, truncated: true, bytes: page.length });
    expect(read.metaTags).toEqual([]);
  }, 60_000);

  it("keeps a byte order mark first: a UTF-8 BOM page that declares ISO-2022-JP is UTF-8", () => {
    const page = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), latin1(`<meta charset=iso-2022-jp>${ESC}$B<meta name=robots content=noindex>`)]);
    expect(IndexingDirectives.parse({ html: page }).input).toMatchObject({ encoding: "utf-8", bom: true });
    expect(IndexingDirectives.parse({ html: page }).resolve("x").index).toBe(false);
  });
});
