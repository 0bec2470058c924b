/**
 * The scanner against a real browser: pages served from 127.0.0.1 to Debian's headless Chromium
 * (test/support/chromium.ts), scripts disabled so that <noscript> is markup. The meta tags Chromium
 * puts in its DOM, with head and noscript placement, must be exactly those the scanner finds.
 * Chromium missing is a failure with a clear message, never a skip: .ci/run installs it.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Chromium } from "./support/chromium.js";
import { browserHtmlPage, found, scanners } from "./support/directives.js";
import { fuzzRuns } from "./support/fuzz.js";

/** Pages load one at a time in Chromium, so their count has its own variable (CHROMIUM_PAGES). */
const GENERATED_PAGES = Number(process.env.CHROMIUM_PAGES ?? 150);
const { seed } = fuzzRuns(20261122, GENERATED_PAGES);

/** Edge cases of directives-html.test.ts, one page each. */
const HANDCRAFTED = [
  '<meta content="noindex" name="robots"><META NAME=ROBOTS CONTENT="NOINDEX,NOFOLLOW"><meta name=robots content=noindex/>',
  '<meta name="robots"content="noindex" name="googlebot" content="all"><meta name=r content="&amp, &ampx &amp= &lt;&lt &copy. &#44;&#x2C;&#0;&#128;">',
  "<!-- <meta name=robots content=a> --><!--><meta name=b content=1><!---><!-- --!><meta name=c content=2><!-- -- > <meta name=d content=3> -->",
  "<script><!--<script></script><meta name=a content=1>--></script><meta name=b content=2><script><!-- </script><meta name=c content=3>",
  "<style><meta name=a content=1></STYLE ><textarea><meta name=b content=2></textarea><title><meta name=c content=3></title><meta name=d content=4>",
  "<template><meta name=a content=1><template></template><meta name=b content=2></template><meta name=c content=3>",
  "<head><noscript><meta name=a content=1></noscript><noscript><img src=x><meta name=b content=2></noscript><meta name=c content=3>",
  "<head></head>\n<meta name=a content=1><body><noscript><noscript><meta name=b content=2></noscript></noscript><meta name=c content=3>",
  "<head><title>t</title> <meta name=a content=1>x<meta name=b content=2>",
  "</p><meta name=a content=1></br><meta name=b content=2><plaintext><meta name=c content=3>",
  '<img alt="a>b"><meta name="x>y" content=\'<meta name=robots content=hidden>\'><div title="<meta name=z>"></div>',
  "<meta name=robots content=\"a\r\nb\u0000c\"><meta\u0000 name=x content=y><meta name=robots content=eof",
];

const ESC = "\x1b";
/** A noindex that only a reader of ISO-2022-JP finds (`<!--` in two-byte mode is two kanji). */
const HIDDEN = `${ESC}$B<!--${ESC}(B<meta name="robots" content="noindex">-->`;

/**
 * Pages that declare their encoding in their first bytes only (served without a charset), as
 * bytes: Chromium reads each in the encoding its prescan finds, and so must the scanner.
 */
const DECLARING = [
  // ISO-2022-JP: `<!--` in two-byte mode is kanji, so the meta tag after it is markup...
  `<!doctype html><meta charset="iso-2022-jp"><title>t</title>${ESC}$B<!--${ESC}(B<meta name="robots" content="noindex">-->`,
  // ...and a meta tag in two-byte mode is kanji; declared through http-equiv here.
  `<meta http-equiv="Content-Type" content="text/html; charset=ISO-2022-JP"><title>t</title>${ESC}$B<meta name="robots" content="noindex">${ESC}(B<meta name=a content=b>`,
  // The replacement encoding: one U+FFFD, no markup.
  '<meta charset="iso-2022-kr"><meta name="robots" content="noindex">',
  // windows-1252: the content's byte 0xE9 is é, not a U+FFFD of UTF-8.
  '<meta charset="windows-1252"><meta name="robots" content="caf\xe9, noindex">',
  // UTF-16 declared in ASCII bytes cannot be meant: UTF-8.
  '<meta charset="utf-16"><meta name="robots" content="nofollow">',
  // Declarations inside a comment or another tag's attribute do not count.
  `<!-- <meta charset=iso-2022-jp> --><p title="<meta charset=iso-2022-kr>">${ESC}$B<meta name=robots content=noindex>${ESC}(B`,
  // Nor inside elements of text content (Chromium reads through a tokenizer).
  `<script>var s = '<meta charset="iso-2022-jp">';</script>${HIDDEN}`,
  `<style>/* <meta charset="iso-2022-jp"> */</style>${HIDDEN}`,
  `<body><textarea><meta charset="iso-2022-jp"></textarea>${HIDDEN}`,
  `<noscript><meta charset="iso-2022-jp"></noscript>${HIDDEN}`,
  // Past the first 1024 bytes, a declaration counts while the page is still in its head...
  `<title>${"t".repeat(1500)}</title><meta charset="iso-2022-jp">${HIDDEN}`,
  `<!--${"c".repeat(1100)}--><meta charset="iso-2022-jp">${HIDDEN}`,
  // ...and not once its body has begun, unless it starts within them.
  `<p>${"t".repeat(1500)}</p><meta charset="iso-2022-jp">${HIDDEN}`,
  `<p>x</p>${" ".repeat(1024 - 9)}<meta charset="iso-2022-jp">${HIDDEN}`,
  `<p>x</p>${" ".repeat(1024 - 8)}<meta charset="iso-2022-jp">${HIDDEN}`,
  // An XML declaration at the start counts, after a meta tag's declaration, and in lower case only.
  `<?xml version="1.0" encoding="iso-2022-jp"?><html>${HIDDEN}`,
  `<?xml version="1.0" encoding="windows-1252"?><meta charset="iso-2022-jp">${HIDDEN}`,
  `<?xml version="1.0" encoding="iso-2022-jp"?><meta charset="windows-1252">${HIDDEN}`,
  `<?XML version="1.0" encoding="iso-2022-jp"?><html>${HIDDEN}`,
  // A script's escapes: the inner </script> does not end it.
  `<script><!--<script></script><meta charset="iso-2022-jp">--></script>${HIDDEN}`,
  // A comment ended by --!>, and character references in values.
  `<!-- x --!><meta charset="iso-2022-jp">${HIDDEN}`,
  `<meta charset="iso&#45;2022-jp">${HIDDEN}`,
  `<meta charset="iso-2022-jp&#32;">${HIDDEN}`,
  // Elements whose text holds no tags (xmp, noframes); a base tag that does not end the head.
  `<xmp><meta charset="iso-2022-jp"></xmp>${HIDDEN}`,
  `<noframes><meta charset="iso-2022-jp"></noframes>${HIDDEN}`,
  `<head><title>${"t".repeat(1100)}</title><base href=/><meta charset="iso-2022-jp">${HIDDEN}`,
  // A script's escape ends at -->: the meta tag after the next script counts.
  `<script><!-- --><script></script><meta charset="iso-2022-jp">${HIDDEN}`,
  // A charset attribute before a content one; a content's charset spelt by a reference or in capitals.
  `<meta charset="iso-2022-jp" http-equiv=content-type content="text/html; charset=windows-1252">${HIDDEN}`,
  `<meta http-equiv=content-type content="text/html; &#99;harset=iso-2022-jp">${HIDDEN}`,
  `<meta http-equiv=content-type content="text/html; CHARSET=iso-2022-jp">${HIDDEN}`,
  // An attribute name that starts with "=".
  `<meta =' charset=iso-2022-jp '>${HIDDEN}`,
  // http-equiv compared as written: spaces, NBSP or VT around it make it another value.
  `<meta http-equiv=" content-type " content="text/html; charset=iso-2022-jp">${HIDDEN}`,
  `<meta http-equiv="content-type\xa0" content="text/html; charset=iso-2022-jp">${HIDDEN}`,
  `<meta http-equiv="content-type\x0b" content="text/html; charset=iso-2022-jp">${HIDDEN}`,
  // An XML declaration read to its first >, however far; its first "encoding", even inside a longer name.
  `<?xml version="1.0"${" ".repeat(1100)} encoding="iso-2022-jp"?><html>${HIDDEN}`,
  `<?xml version="1.0" xencoding="iso-2022-jp"?><html>${HIDDEN}`,
  `<?xml version="1.0" encoding\x01=\x02'iso-2022-jp'?><html>${HIDDEN}`,
  `<?xml version="1.0" encoding-x="windows-1252" encoding="iso-2022-jp"?><html>${HIDDEN}`,
  // Bytes past 0x7F are skipped around = as spaces are (Chromium compares a signed char with space).
  `<?xml version="1.0" encoding=\xa0"iso-2022-jp"?><html>${HIDDEN}`,
  `<?xml version="1.0" encoding\x80= \xff'iso-2022-jp'?><html>${HIDDEN}`,
  `<?xml version="1.0" ENCODING="iso-2022-jp"?><html>${HIDDEN}`,
  // "encoding" right after "<?xml"; NUL and 0x80 skipped around =, DEL not; "encoding" not
  // followed by =; an encoding attribute of a tag after the declaration's first >.
  `<?xmlencoding="iso-2022-jp"?><html>${HIDDEN}`,
  `<?xml version="1.0" encoding\x00=\x00"iso-2022-jp"?><html>${HIDDEN}`,
  `<?xml version="1.0" encoding=\x80"iso-2022-jp"?><html>${HIDDEN}`,
  `<?xml version="1.0" encoding\x7f="iso-2022-jp"?><html>${HIDDEN}`,
  `<?xml version="1.0" encoding=\x7f"iso-2022-jp"?><html>${HIDDEN}`,
  `<?xml version="1.0" encoding-x="iso-2022-jp"?><html>${HIDDEN}`,
  `<?xml version="1.0" encoding "iso-2022-jp"?><html>${HIDDEN}`,
  `<?xml version="1.0"?><p encoding="iso-2022-jp"><html>${HIDDEN}`,
];

/** Pages as bytes, not Latin-1 text: UTF-16 without a byte order mark, known by its XML declaration. */
const DECLARING_BYTES = [
  Buffer.from('<?xml version="1.0"?><html><head><meta name="robots" content="noindex"></head></html>', "utf16le"),
  Buffer.from('<?xml version="1.0"?><html><head><meta name="robots" content="noindex"></head></html>', "utf16le").swap16(),
];

describe("the scanner against headless Chromium's DOM", () => {
  let browser: Chromium;
  let server: Server;
  const pages = new Map<string, string | Uint8Array>();
  let base = "";

  beforeAll(async () => {
    server = createServer((request, response) => {
      const page = pages.get(request.url ?? "");
      // Text pages are UTF-8 by the Content-Type; byte pages say nothing, and declare their own.
      response.writeHead(page === undefined ? 404 : 200, { "content-type": typeof page === "string" ? "text/html; charset=utf-8" : "text/html" });
      response.end(page ?? "");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await Chromium.launch();
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  async function compare(html: string, index: number): Promise<void> {
    const path = `/page-${index}.html`;
    pages.set(path, html);
    const expected = await browser.metas(base + path);
    for (const scanner of scanners) {
      expect(found(scanner.scan(html)), `${scanner.name} on ${JSON.stringify(html)}`).toEqual(expected);
    }
  }

  it("agrees on pages that declare their encoding only in the page (ISO-2022-JP, replacement, windows-1252, UTF-16)", async () => {
    for (const [index, bytes] of [...DECLARING.map((text) => Buffer.from(text, "latin1")), ...DECLARING_BYTES].entries()) {
      const path = `/declaring-${index}.html`;
      const text = bytes.toString("latin1");
      pages.set(path, bytes);
      const expected = await browser.metas(base + path);
      for (const scanner of scanners) expect(found(scanner.scan(bytes)), `${scanner.name} on ${JSON.stringify(text)}`).toEqual(expected);
    }
  });

  it("agrees on the handcrafted edge cases", async () => {
    for (const [index, html] of HANDCRAFTED.entries()) await compare(html, index);
  });

  it(`agrees on ${GENERATED_PAGES} generated pages (fast-check, fixed seed)`, async () => {
    const generated = fc.sample(browserHtmlPage, { seed, numRuns: GENERATED_PAGES });
    let withMetas = 0;
    for (const [index, html] of generated.entries()) {
      await compare(html, 1000 + index);
      if (scanners[0]!.scan(html).length > 0) withMetas++;
    }
    expect(withMetas).toBeGreaterThan(GENERATED_PAGES / 2); // the comparison is not vacuous
  });
});
