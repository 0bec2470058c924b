/**
 * The WASM meta tag scanner (assembly/meta.ts) in both builds: the HTML tokenizer rules it follows
 * (HTML living standard, section 13.2), a differential property against parse5, and hostile input.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { found, htmlPage, parse5Metas, scanners } from "./support/directives.js";
import { fuzzRuns } from "./support/fuzz.js";
import { perByteRatio } from "./support/linear-time.js";

const { seed, numRuns } = fuzzRuns(20261122, 1500);

/** name/content pairs of what a scanner finds. */
const pairs = (tags: { name: string; content: string | null }[]) => tags.map((t) => [t.name, t.content]);

describe.each(scanners)("$name: HTML tokenizer rules (HTML 13.2.5)", (scanner) => {
  const scan = (html: string) => pairs(scanner.scan(html));

  describe("attributes (13.2.5.32 to 13.2.5.42)", () => {
    it("reads attributes in any order", () => {
      expect(scan('<meta content="noindex" name="robots">')).toEqual([["robots", "noindex"]]);
    });

    it("reads double-quoted, single-quoted and unquoted values", () => {
      expect(scan(`<meta name="a" content="x y"><meta name='b' content='x "y"'><meta name=c content=x>`)).toEqual([
        ["a", "x y"], ["b", 'x "y"'], ["c", "x"],
      ]);
    });

    it("needs no whitespace after a quoted value", () => {
      expect(scan(`<meta name="robots"content="noindex"><meta name='r'content='n'/>`)).toEqual([["robots", "noindex"], ["r", "n"]]);
    });

    it("reads an unquoted value up to whitespace or `>`, so `/` belongs to it", () => {
      expect(scan("<meta name=robots content=noindex/>")).toEqual([["robots", "noindex/"]]);
      expect(scan("<meta name=robots content=noindex />")).toEqual([["robots", "noindex"]]);
    });

    it("allows whitespace around `=` and between attributes, newlines included", () => {
      expect(scan('<meta\n\tname = "robots"\r\n  content\f=\n\'noindex\'\n>')).toEqual([["robots", "noindex"]]);
    });

    it("flags self-closing tags", () => {
      expect(scanner.scan('<meta name="robots" content="noindex" /><meta name=a content=b>').map((t) => t.selfClosing)).toEqual([true, false]);
    });

    it("keeps the first of duplicate attributes (13.2.5.33: the later one is removed)", () => {
      expect(scan('<meta name="robots" content="noindex" name="googlebot" content="all">')).toEqual([["robots", "noindex"]]);
      expect(scan('<meta NAME="robots" Name="x" CONTENT="nofollow" content="y">')).toEqual([["robots", "nofollow"]]);
    });

    it("matches tag and attribute names ASCII case-insensitively and keeps the values' case", () => {
      expect(scan("<META NAME=ROBOTS CONTENT=NOINDEX>")).toEqual([["ROBOTS", "NOINDEX"]]);
      expect(scan("<mEtA nAmE=Robots cOnTeNt=NoIndex>")).toEqual([["Robots", "NoIndex"]]);
    });

    it("does not take `data-name` or `=name` for `name` (an attribute may start with `=`)", () => {
      expect(scan("<meta data-name=robots content=noindex>")).toEqual([]);
      expect(scan("<meta =name=robots content=noindex>")).toEqual([]);
      expect(scan('<meta x="1"=name=robots content=noindex>')).toEqual([]);
    });

    it("reports a name without content as content null, and an empty value as empty", () => {
      expect(scan("<meta name=robots><meta name=robots content><meta name=robots content=>")).toEqual([
        ["robots", null], ["robots", ""], ["robots", ""],
      ]);
    });

    it("reports only tags with a name attribute, but every name", () => {
      expect(scan('<meta charset=utf-8><meta http-equiv=refresh content=0><meta name=description content="a, b"><meta name=viewport content=x>')).toEqual([
        ["description", "a, b"], ["viewport", "x"],
      ]);
    });

    it("reads `>` inside quoted values of any tag as part of the value", () => {
      expect(scan(`<img alt="a>b"><meta name="x>y" content='<meta name=robots content=hidden>'>`)).toEqual([
        ["x>y", "<meta name=robots content=hidden>"],
      ]);
      expect(scan(`<div title="<meta name=robots content=no>"></div>`)).toEqual([]);
    });

    it("turns CR LF and lone CR into LF, and NUL into U+FFFD, in values (13.2.3.5, 13.2.5.38)", () => {
      expect(scan('<meta name=robots content="a\r\nb\rc\u0000d">')).toEqual([["robots", "a\nb\nc\ufffdd"]]);
    });

    it("does not read `<meta` followed by a NUL or other letters as a meta tag", () => {
      expect(scan("<meta\u0000 name=robots content=a><metas name=robots content=b><meta-x name=robots content=c>")).toEqual([]);
    });

    it("drops a tag cut by the end of the input (13.2.5.33 eof-in-tag)", () => {
      expect(scan('<meta name=robots content="noindex"')).toEqual([]);
      expect(scan('<meta name=robots content="noindex>')).toEqual([]);
      expect(scan("<meta name=robots content=noindex")).toEqual([]);
      expect(scan("<meta")).toEqual([]);
    });
  });

  describe("character references in attribute values (13.2.5.72 to 13.2.5.80)", () => {
    it("decodes numeric references, decimal and hex, with or without `;`", () => {
      expect(scan('<meta name=robots content="noindex&#44;nofollow&#x2C; a&#X41;&#66">')).toEqual([["robots", "noindex,nofollow, aAB"]]);
    });

    it("decodes the named references that matter: amp, quot, apos, lt, gt, nbsp", () => {
      expect(scan('<meta name=robots content="&amp;&quot;&apos;&lt;&gt;&nbsp;">')).toEqual([["robots", "&\"'<>\u00a0"]]);
    });

    it("decodes references in the name too", () => {
      expect(scan("<meta name=&#114;obots content=x><meta name=&#x52;OBOTS content=y>")).toEqual([["robots", "x"], ["ROBOTS", "y"]]);
    });

    it("decodes legacy names without `;` unless `=` or an alphanumeric follows (attribute rule)", () => {
      expect(scan('<meta name=r content="&amp, &ampx &amp= &lt;&lt &copy.">')).toEqual([["r", "&, &ampx &amp= << \u00a9."]]);
    });

    it("leaves unknown names and references without digits as written", () => {
      expect(scan('<meta name=r content="&qqq; &zz &# &#x; & &;">')).toEqual([["r", "&qqq; &zz &# &#x; & &;"]]);
    });

    it("maps &#0;, surrogates and out-of-range numbers to U+FFFD and C1 numbers to Windows-1252", () => {
      expect(scan('<meta name=r content="&#0;&#xD800;&#x110000;&#99999999999;&#128;&#x9F;&#x81;">')).toEqual([
        ["r", "\ufffd\ufffd\ufffd\ufffd\u20ac\u0178\u0081"],
      ]);
    });

    it("keeps the last code point, U+10FFFF (only past it is out of range)", () => {
      expect(scan('<meta name="robots" content="x&#x10FFFF;">')).toEqual([["robots", "x\u{10FFFF}"]]);
    });

    it("never lets a reference end a value: `&quot;` inside double quotes", () => {
      expect(scan('<meta name=r content="a&quot;b" x=">"><meta name=s content=t>')).toEqual([["r", 'a"b'], ["s", "t"]]);
    });
  });

  describe("markup that is not a tag", () => {
    it("skips comments, with tags inside (13.2.5.43 to 13.2.5.52)", () => {
      expect(scan("<!-- <meta name=robots content=noindex> --><meta name=a content=b>")).toEqual([["a", "b"]]);
    });

    it("ends a comment at `-->`, `--!>`, and at once for `<!-->` and `<!--->`", () => {
      expect(scan("<!--><meta name=a content=1><!---><meta name=b content=2><!-- x --!><meta name=c content=3><!----><meta name=d content=4>")).toEqual([
        ["a", "1"], ["b", "2"], ["c", "3"], ["d", "4"],
      ]);
    });

    it("does not end a comment at `-- >`, `->` or a nested `<!--`", () => {
      expect(scan("<!-- -- > <meta name=a content=1> -> <!-- <meta name=b content=2> --><meta name=c content=3>")).toEqual([["c", "3"]]);
    });

    it("reads `<!-` without a second `-` as a bogus comment, ended by the first `>`", () => {
      expect(scan("<!-x><meta name=robots content=noindex>-->")).toEqual([["robots", "noindex"]]);
    });

    it("hides everything after an unterminated comment", () => {
      expect(scan("<meta name=a content=1><!-- <meta name=robots content=noindex>")).toEqual([["a", "1"]]);
    });

    it("ends bogus comments, DOCTYPE and CDATA outside foreign content at the first `>`", () => {
      expect(scan("<!DOCTYPE html><?xml x?><!x <meta name=a content=1>><![CDATA[<meta name=b content=2>]]></ x><meta name=c content=3>")).toEqual([
        ["c", "3"],
      ]);
    });

    it("reads a `<` that opens no tag as text", () => {
      expect(scan("a < b <3 <<meta name=a content=1></> <meta name=b content=2>")).toEqual([["a", "1"], ["b", "2"]]);
    });

    it("reads end tags with attributes to their `>` (quotes included)", () => {
      expect(scan('</div title="<meta name=a content=1>"><meta name=b content=2></meta name=c content=3>')).toEqual([["b", "2"]]);
    });
  });

  describe("raw text, RCDATA and script data (13.2.5.2 to 13.2.5.31)", () => {
    it.each(["style", "textarea", "title", "xmp", "iframe", "noembed", "noframes"])("skips <%s> content up to its own end tag, any case", (tag) => {
      expect(scan(`<${tag}><meta name=robots content=noindex></${tag.toUpperCase()} ><meta name=a content=1>`)).toEqual([["a", "1"]]);
    });

    it("ends raw text only at the element's own end tag followed by whitespace, `/` or `>`", () => {
      expect(scan("<title></titles><meta name=a content=1></title/><meta name=b content=2>")).toEqual([["b", "2"]]);
      expect(scan("<style></script><meta name=a content=1></style\n><meta name=b content=2>")).toEqual([["b", "2"]]);
    });

    it("hides the rest of the page after an unterminated raw text element", () => {
      expect(scan("<textarea><meta name=robots content=noindex>")).toEqual([]);
      expect(scan("<title>x</title")).toEqual([]);
    });

    it("skips <script> content, including markup in strings", () => {
      expect(scan(`<script>document.write("<meta name=robots content=noindex>")</script><meta name=a content=1>`)).toEqual([["a", "1"]]);
    });

    it("ends <script> at `</script` + whitespace, `/` or `>`, any case, not at `</scriptx`", () => {
      expect(scan("<script></scriptx><meta name=a content=1></SCRIPT/><meta name=b content=2>")).toEqual([["b", "2"]]);
    });

    it("keeps <script> open past `</script>` inside `<!--<script>` (double escaped) until `-->`", () => {
      const html = "<script><!--<script></script><meta name=a content=1>--></script><meta name=b content=2>";
      expect(scan(html)).toEqual([["b", "2"]]);
      expect(scan("<script><!--<script>--></script><meta name=c content=3>")).toEqual([["c", "3"]]);
    });

    it("ends <script> at `</script>` inside `<!--` when no `<script` followed (escaped)", () => {
      expect(scan("<script><!-- </script><meta name=a content=1> -->")).toEqual([["a", "1"]]);
    });

    it("stays double escaped at an end tag of six letters that is not `</script>`", () => {
      expect(scan("<script><!--<script></scripx></script><meta name=robots content=noindex>--></script><meta name=a content=1>")).toEqual([["a", "1"]]);
    });

    it("leaves double escaping at `</script>` and then ends at the next `</script>`", () => {
      expect(scan("<script><!--<script></script></script><meta name=a content=1>")).toEqual([["a", "1"]]);
    });

    it("does not double escape for `<scripts>` and treats `<!-->` as closed at once", () => {
      expect(scan("<script><!--<scripts></script><meta name=a content=1>")).toEqual([["a", "1"]]);
      expect(scan("<script><!--><script></script><meta name=b content=2>")).toEqual([["b", "2"]]);
    });

    it("reads everything after <plaintext> as text", () => {
      expect(scan("<meta name=a content=1><plaintext></plaintext><meta name=robots content=noindex>")).toEqual([["a", "1"]]);
    });

    it("skips <template> contents, nested templates included, and ignores a stray </template>", () => {
      expect(scan("</template><template><meta name=a content=1><template></template><meta name=b content=2></template><meta name=c content=3>")).toEqual([
        ["c", "3"],
      ]);
    });

    it("still reads raw text rules inside a template", () => {
      expect(scan("<template><script></template></script></template><meta name=a content=1>")).toEqual([["a", "1"]]);
    });
  });

  describe("head, body and noscript (tree construction, 13.2.6.4)", () => {
    const places = (html: string) => scanner.scan(html).map((t) => [t.name, t.inHead, t.inNoscript]);

    it("puts a meta before any content into the implied head", () => {
      expect(places("<meta name=a content=1>")).toEqual([["a", true, false]]);
      expect(places("<!doctype html>\n  <html>\n<meta name=a content=1>")).toEqual([["a", true, false]]);
    });

    it("puts a meta after body content into the body", () => {
      expect(places("<html><head></head><body><meta name=a content=1></body>")).toEqual([["a", false, false]]);
      expect(places("<div></div><meta name=a content=1>")).toEqual([["a", false, false]]);
    });

    it("ends the head at text that is not whitespace, and at a NUL", () => {
      expect(places("<head><title>t</title>\n \t<meta name=a content=1>x<meta name=b content=2>")).toEqual([["a", true, false], ["b", false, false]]);
      expect(places("\u0000<meta name=a content=1>")).toEqual([["a", false, false]]);
      // HTML's whitespace is tab, LF, FF, CR and space: a vertical tab is text.
      expect(places("<head>\f\r<meta name=a content=1>")).toEqual([["a", true, false]]);
      expect(places("<head>\u000b<meta name=a content=1>")).toEqual([["a", false, false]]);
      expect(places("<!doctype html>\u000b<meta name=a content=1>")).toEqual([["a", false, false]]);
    });

    it("puts a meta between </head> and <body> back into the head (after head mode)", () => {
      expect(places("<head></head>\n<meta name=a content=1><body><meta name=b content=2>")).toEqual([["a", true, false], ["b", false, false]]);
    });

    it("leaves the head at </body>, </html> and </br> but not at other end tags", () => {
      expect(places("</p><meta name=a content=1></br><meta name=b content=2>")).toEqual([["a", true, false], ["b", false, false]]);
      expect(places("</body><meta name=a content=1>")).toEqual([["a", false, false]]);
    });

    it("does not let a UTF-8 byte order mark start the body", () => {
      const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode("<meta name=a content=1>")]);
      expect(scanner.scan(bytes).map((t) => t.inHead)).toEqual([true]);
    });

    it("flags a meta inside <noscript>, in the head and in the body", () => {
      expect(places("<noscript><meta name=a content=1></noscript><meta name=b content=2><div><noscript><noscript><meta name=c content=3></noscript><meta name=d content=4></noscript><meta name=e content=5>")).toEqual([
        ["a", true, true], ["b", true, false], ["c", false, true], ["d", false, true], ["e", false, false],
      ]);
    });

    it("closes a head <noscript> at content the head cannot hold (in head noscript mode)", () => {
      expect(places("<head><noscript><img src=x><meta name=a content=1></noscript><meta name=b content=2>")).toEqual([
        ["a", false, false], ["b", false, false],
      ]);
    });

    it("keeps template contents out of head/body decisions", () => {
      expect(places("<head><template><div>text</div></template><meta name=a content=1>")).toEqual([["a", true, false]]);
    });
  });

  describe("offsets and encodings", () => {
    it("returns the byte offset and length of each tag, counting UTF-8 bytes before it", () => {
      const html = '<title>\u00e9t\u00e9 \u{1F600}</title><meta name="robots" content="noindex">';
      const [tag] = scanner.scan(html);
      const bytes = new TextEncoder().encode(html);
      expect(tag!.offset).toBe(bytes.length - 38);
      expect(tag!.length).toBe(38);
      expect(new TextDecoder().decode(bytes.subarray(tag!.offset, tag!.offset + tag!.length))).toBe('<meta name="robots" content="noindex">');
    });

    it.each([["utf-16le", [0xff, 0xfe]], ["utf-16be", [0xfe, 0xff]]] as const)("decodes a %s page with a BOM before scanning", (encoding, bom) => {
      const text = "<head><meta name=\"robots\" content=\"noindex, \u00e9\"></head>";
      const units = [...text].map((c) => c.charCodeAt(0));
      const bytes = new Uint8Array([...bom, ...units.flatMap((u) => (encoding === "utf-16le" ? [u & 0xff, u >> 8] : [u >> 8, u & 0xff]))]);
      const page = scanner.read({ html: bytes });
      expect(page.input).toEqual({ bytes: bytes.length, encoding, bom: true, transcoded: true, truncated: false });
      expect(pairs([...page.metaTags])).toEqual([["robots", "noindex, \u00e9"]]);
      // Scanned as raw bytes, the NULs between the characters would hide the tag.
      expect(scan(new TextDecoder("latin1").decode(bytes))).toEqual([]);
    });

    it("decodes a UTF-16 page without BOM when the caller declares it", () => {
      const bytes = new Uint8Array([..."<meta name=a content=b>"].flatMap((c) => [c.charCodeAt(0), 0]));
      expect(pairs(scanner.scan(bytes, "utf-16le"))).toEqual([["a", "b"]]);
      expect(pairs(scanner.scan(bytes))).toEqual([]);
    });

    it.each([
      ["unicode", "utf-16le", false], ["ucs-2", "utf-16le", false], ["csunicode", "utf-16le", false], ["UTF-16", "utf-16le", false],
      ["unicodefffe", "utf-16be", true], ["utf-16be", "utf-16be", true],
    ] as const)("takes %j, a WHATWG label of UTF-16, as %s", (label, encoding, bigEndian) => {
      const bytes = new Uint8Array([..."<meta name=a content=b>"].flatMap((c) => (bigEndian ? [0, c.charCodeAt(0)] : [c.charCodeAt(0), 0])));
      const page = scanner.read({ html: bytes }, { encoding: label });
      expect(pairs([...page.metaTags])).toEqual([["a", "b"]]);
      expect(page.input).toEqual({ bytes: bytes.length, encoding, bom: false, transcoded: true, truncated: false });
    });

    it("lets a byte order mark decide over the declared encoding, a UTF-8 one too (the Encoding standard's BOM sniffing)", () => {
      const utf8 = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode("<meta name=robots content=\"caf\u00e9\">")]);
      for (const declared of ["utf-16", "windows-1252"]) {
        const page = scanner.read({ html: utf8 }, { encoding: declared });
        expect(pairs([...page.metaTags])).toEqual([["robots", "caf\u00e9"]]);
        expect(page.input).toEqual({ bytes: utf8.length, encoding: "utf-8", bom: true, transcoded: false, truncated: false });
      }
      const utf16 = new Uint8Array([0xff, 0xfe, ..."<meta name=a content=b>"].flatMap((c) => (typeof c === "number" ? [c] : [c.charCodeAt(0), 0])));
      expect(scanner.read({ html: utf16 }, { encoding: "utf-16be" }).input).toEqual({ bytes: utf16.length, encoding: "utf-16le", bom: true, transcoded: true, truncated: false });
    });

    it("names an encoding by its canonical name, and keeps a label no decoder knows (read as UTF-8)", () => {
      const bytes = new TextEncoder().encode("<meta name=a content=b>");
      expect(scanner.read({ html: bytes }, { encoding: "latin1" }).input!.encoding).toBe("windows-1252");
      expect(scanner.read({ html: bytes }, { encoding: "x-no-such" }).input!.encoding).toBe("x-no-such");
    });

    it("scans other encodings as bytes and decodes values with the declared encoding", () => {
      const bytes = new Uint8Array([...new TextEncoder().encode("<meta name=robots content=\"caf"), 0xe9, 0x22, 0x3e]);
      expect(pairs(scanner.scan(bytes, "windows-1252"))).toEqual([["robots", "caf\u00e9"]]);
      expect(scanner.read({ html: bytes }, { encoding: "windows-1252" }).input).toEqual({ bytes: bytes.length, encoding: "windows-1252", bom: false, transcoded: false, truncated: false });
    });

    it("reads string and byte input alike", () => {
      const html = "<meta name=r content='\u00e9, noindex'>";
      expect(scanner.scan(new TextEncoder().encode(html))).toEqual(scanner.scan(html));
    });
  });
});

describe.each(scanners)("$name: differential against parse5 (scripting disabled)", (scanner) => {
  it("finds exactly the meta tags parse5 puts in the document, with their head and noscript placement", () => {
    fc.assert(
      fc.property(htmlPage, (html) => {
        expect(found(scanner.scan(html))).toEqual(parse5Metas(html));
      }),
      { seed, numRuns },
    );
  });

  it("agrees on the same pages given as UTF-8 bytes", () => {
    const encoder = new TextEncoder();
    fc.assert(
      fc.property(htmlPage, (html) => {
        expect(found(scanner.scan(encoder.encode(html)))).toEqual(parse5Metas(html));
      }),
      { seed: seed + 1, numRuns: Math.ceil(numRuns / 3) },
    );
  });
});

/** Hostile inputs of about `n` bytes. */
const hostile: Record<string, (n: number) => Uint8Array> = {
  "`<` repeated": (n) => new Uint8Array(n).fill(0x3c),
  "NUL bytes": (n) => new Uint8Array(n),
  "`<a` repeated (one endless tag)": (n) => new TextEncoder().encode("<a".repeat(n / 2)),
  "an unterminated comment of dashes": (n) => new TextEncoder().encode(`<!--${"-".repeat(n)}`),
  "an unterminated quoted value": (n) => new TextEncoder().encode(`<meta name="${"x".repeat(n)}`),
  "`</scrip` repeated in a script": (n) => new TextEncoder().encode(`<script>${"</scrip<!--<script>".repeat(n / 19)}`),
  "`<meta name=a>` repeated": (n) => new TextEncoder().encode("<meta name=a>".repeat(n / 13)),
  "`<!--<!--` in a comment": (n) => new TextEncoder().encode(`<!--${"<!--".repeat(n / 4)}`),
  "`&` in a value": (n) => new TextEncoder().encode(`<meta name=a content="${"&".repeat(n)}">`),
};

describe.each(scanners)("$name: hostile input", (scanner) => {
  it.each(Object.keys(hostile))("never throws on 10 MB of %s, and every tag found lies within the input", (kind) => {
    const bytes = hostile[kind]!(10 << 20);
    const tags = scanner.scan(bytes);
    for (const tag of tags.slice(0, 1000)) {
      expect(bytes[tag.offset]).toBe(0x3c);
      expect(bytes[tag.offset + tag.length - 1]).toBe(0x3e);
    }
    const expected: Record<string, number> = { "`<meta name=a>` repeated": Math.floor((10 << 20) / 13), "`&` in a value": 1 };
    expect(tags.length).toBe(expected[kind] ?? 0);
  });

  it("never throws on random bytes and random UTF-16 code units", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2000 }), fc.string({ unit: "binary", maxLength: 500 }), (bytes, text) => {
        for (const tag of scanner.scan(bytes)) expect(tag.offset + tag.length).toBeLessThanOrEqual(bytes.length);
        scanner.scan(text);
        scanner.read({ html: bytes, headers: text });
      }),
      { seed, numRuns: Math.ceil(numRuns / 3) },
    );
  });

  it.each(Object.keys(hostile))("takes linear time on %s: a byte of a 16x larger input costs about the same", (kind) => {
    // Quadratic time would make each byte of the large input cost 16 times as much.
    const small = hostile[kind]!(512 << 10);
    const large = hostile[kind]!(8 << 20);
    scanner.scan(large); // warm up and grow the scratch region once
    expect(perByteRatio((bytes) => scanner.scan(bytes), small, large)).toBeLessThan(4);
  });

  it("returns its memory: scanning many pages does not grow linear memory", () => {
    const page = new TextEncoder().encode("<meta name=robots content=noindex>".repeat(3000));
    scanner.scan(page);
    const before = scanner.engine.exports.memory.buffer.byteLength;
    for (let i = 0; i < 300; i++) scanner.scan(page);
    expect(scanner.engine.exports.memory.buffer.byteLength).toBe(before);
  });
});
