/**
 * fast-check generators of robots.txt files and URLs, biased toward what breaks parsers: `*`, `$`,
 * `%xx` escapes in both cases, non-ASCII bytes, CR/CRLF/LF mixes, BOMs, long lines, typos in
 * keys, missing colons, comments, NULs and many groups.
 */
import fc from "fast-check";

const utf8 = new TextEncoder();

/** Path pieces; the matcher's interesting bytes are over-represented. */
const pathPiece = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom("/", "a", "b", "ab", "/a", "/b", "x", ".html", ".gif", "/index.html", "/index.htm") },
  { weight: 4, arbitrary: fc.constantFrom("*", "*", "$", "$", "**") },
  { weight: 3, arbitrary: fc.constantFrom("%2f", "%2F", "%41", "%61", "%7e", "%7E", "%24", "%2A", "%2a", "%", "%2", "%zz", "%e9", "%C3%A9") },
  { weight: 2, arbitrary: fc.constantFrom("é", "ツ", "\u00a0", "\u2028") },
  { weight: 2, arbitrary: fc.constantFrom("?", "?q=1", ";p", "&", "=", "~", "-", "_", ".", "..", "/../", "#", "#frag") },
  { weight: 1, arbitrary: fc.constantFrom(" ", "\t", "\v", "\f", "\u0000", ":") },
  { weight: 1, arbitrary: fc.string({ maxLength: 4 }) },
);

export const pathText = fc.array(pathPiece, { maxLength: 8 }).map((pieces) => pieces.join(""));

/** A rule value: usually starting with `/`, sometimes with `*` or nothing. */
const ruleValue = fc.oneof(
  { weight: 6, arbitrary: pathText.map((path) => (path.startsWith("/") ? path : `/${path}`)) },
  { weight: 2, arbitrary: pathText.map((path) => `*${path}`) },
  { weight: 1, arbitrary: pathText },
  { weight: 1, arbitrary: fc.constant("") },
);

/** Agent tokens as written in files: real ones, cut ones, odd ones. */
const agentValue = fc.constantFrom(
  "*", "*", "* foo", "*\tbar", "*bot", "FooBot", "foobot", "FOOBOT/1.0", "FooBot 2", "foo*", "Bar-Bot", "bar_bot", "BarBot",
  "Googlebot", "googlebot-news", "AB42bot", "", "Foo Bar", "ツbot",
);

/** Agents queried: names that match tokens above, names that do not, and odd queries. */
export const agentQuery = fc.oneof(
  fc.constantFrom("FooBot", "foobot", "Foo", "foo", "Bar-Bot", "bar_bot", "Googlebot", "googlebot-news", "AB", "other", "", "Foo Bar", "*"),
  fc.constant(["googlebot-news", "Googlebot"]),
  fc.constant(["foo", "bar_bot"]),
  fc.constant([] as string[]),
);

const userAgentKey = fc.constantFrom("User-agent", "user-agent", "USER-AGENT", "User-Agents", "useragent", "User agent", "user-agent ");
const allowKey = fc.constantFrom("Allow", "allow", "ALLOW", "Allowed", "allow ");
const disallowKey = fc.constantFrom("Disallow", "disallow", "DISALLOW", "Disallowed", "Disalow", "Dissallow", "dissalow", "diasllow", "disallaw", "Disallow ");
const otherKey = fc.constantFrom("Sitemap", "site-map", "Crawl-delay", "crawl-delay", "Request-rate", "Host", "Clean-param", "Noindex", "Foo", "Visit-time", "Content-Signal");
const otherValue = fc.constantFrom("5", "0.5", "10.", "abc", "1/5", "http://example.com/sitemap.xml", "/relative.xml", "", "example.com");

/** How key and value are joined: the colon in its spellings, or whitespace for a missing colon. */
const separator = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(": ", ":", " : ", ":\t", " :") },
  { weight: 1, arbitrary: fc.constantFrom(" ", "\t") },
);

const comment = fc.oneof({ weight: 5, arbitrary: fc.constant("") }, { weight: 1, arbitrary: fc.constantFrom(" # note", "#", "# Disallow: /x") });
const indent = fc.oneof({ weight: 6, arbitrary: fc.constant("") }, { weight: 1, arbitrary: fc.constantFrom(" ", "\t", "  ", "\v") });

const record = (key: fc.Arbitrary<string>, value: fc.Arbitrary<string>) =>
  fc.tuple(indent, key, separator, value, comment).map(([pre, k, sep, v, c]) => `${pre}${k}${sep}${v}${c}`);

const noiseLine = fc.oneof(
  { weight: 3, arbitrary: record(otherKey, otherValue) },
  { weight: 2, arbitrary: fc.constantFrom("", "", "# comment", "   ", "<html><body>Not found</body></html>", "disallow /a b", "just prose here", ":", "Disallow") },
);

/** A group: user-agent lines, then rules, with a little noise (which must not split the group). */
const group = fc
  .tuple(
    fc.array(fc.oneof({ weight: 5, arbitrary: record(userAgentKey, agentValue) }, { weight: 1, arbitrary: noiseLine }), { minLength: 1, maxLength: 3 }),
    fc.array(
      fc.oneof({ weight: 4, arbitrary: record(disallowKey, ruleValue) }, { weight: 3, arbitrary: record(allowKey, ruleValue) }, { weight: 1, arbitrary: noiseLine }),
      { maxLength: 7 },
    ),
  )
  .map(([agents, rules]) => [...agents, ...rules]);

/** Lines of a file: mostly groups, sometimes rules before any group, sometimes pure noise. */
const fileLines = fc
  .tuple(
    fc.array(fc.oneof({ weight: 3, arbitrary: noiseLine }, { weight: 1, arbitrary: record(disallowKey, ruleValue) }), { maxLength: 2 }),
    fc.array(group, { maxLength: 6 }),
  )
  .map(([preamble, groups]) => [...preamble, ...groups.flat()]);

/** A line far past Google's 16,663-byte limit, with a rule that only the RFC profile keeps whole. */
const longLine = fc.tuple(fc.constantFrom("Disallow: /", "Allow: /", "Disallow: /*"), fc.integer({ min: 16_600, max: 16_700 }), fc.constantFrom("", "x", "$", "*z"))
  .map(([key, length, tail]) => `${key}${"a".repeat(length)}${tail}`);

const terminator = fc.oneof({ weight: 6, arbitrary: fc.constant("\n") }, { weight: 2, arbitrary: fc.constant("\r\n") }, { weight: 1, arbitrary: fc.constant("\r") });

const bomPrefix = fc.oneof(
  { weight: 8, arbitrary: fc.constant(new Uint8Array(0)) },
  { weight: 1, arbitrary: fc.constantFrom(new Uint8Array([0xef, 0xbb, 0xbf]), new Uint8Array([0xef]), new Uint8Array([0xef, 0xbb])) },
);

/** Raw bytes outside UTF-8 now and then (Latin-1 files exist). */
const rawBytes = fc.uint8Array({ minLength: 1, maxLength: 3 }).map((bytes) => bytes.map((b) => b | 0x80));

/** A whole robots.txt as bytes. */
export const robotsBody = fc
  .tuple(
    bomPrefix,
    fileLines.chain((lines) =>
      fc.tuple(
        ...lines.map((text) =>
          fc.tuple(
            fc.oneof({ weight: 400, arbitrary: fc.constant(text) }, { weight: 1, arbitrary: longLine }),
            terminator,
            fc.option(rawBytes, { freq: 30 }),
          ),
        ),
      ),
    ),
    fc.boolean(),
  )
  .map(([bom, lines, finalNewline]) => {
    const parts: Uint8Array[] = [bom];
    lines.forEach(([text, end, raw], index) => {
      parts.push(utf8.encode(text));
      if (raw !== null) parts.push(raw);
      if (index < lines.length - 1 || finalNewline) parts.push(utf8.encode(end));
    });
    const total = parts.reduce((sum, part) => sum + part.length, 0);
    const body = new Uint8Array(total);
    let at = 0;
    for (const part of parts) {
      body.set(part, at);
      at += part.length;
    }
    return body;
  });

/** URLs in the forms crawlers pass: absolute, path-only, scheme-relative, odd. */
export const url = fc.oneof(
  { weight: 6, arbitrary: pathText.map((path) => `http://example.com${path.startsWith("/") ? "" : "/"}${path}`) },
  { weight: 2, arbitrary: pathText.map((path) => `/${path}`) },
  { weight: 1, arbitrary: pathText.map((path) => `//example.com/${path}`) },
  { weight: 1, arbitrary: fc.constantFrom("", "a", "http://example.com", "http://example.com?x", "http://example.com;p", "http://e.com#/x", "/robots.txt", "/robots.txt?x=1", "http://example.com/robots.txt", "http://example.com/robots.txt?x=1", "http://example.com/robots%2Etxt", "a:b/c", "mailto:x?y") },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
);

const latin1 = new TextDecoder("latin1");

/** Rule values written in a generated file (recovered from its text). */
function ruleValuesOf(body: Uint8Array): string[] {
  const text = new TextDecoder().decode(body);
  const values: string[] = [];
  for (const match of text.matchAll(/(?:allow|dis\w*)\w*\s*[:\s]\s*([^#\r\n]*)/gi)) values.push(match[1].trim());
  return values;
}

/** A URL built from a pattern: wildcards filled, the anchor kept or dropped, a suffix perhaps. */
function urlFromPattern(pattern: string): fc.Arbitrary<string> {
  const pieces = pattern.replace(/\$$/, "").split("*");
  return fc
    .tuple(fc.array(pathText, { minLength: pieces.length, maxLength: pieces.length }), fc.constantFrom("", "", "x", "/", "?q", ".html", "$"), fc.boolean())
    .map(([fills, suffix, decode]) => {
      let path = pieces.map((piece, i) => (i === 0 ? piece : fills[i] + piece)).join("") + suffix;
      // Raw, not-yet-encoded forms of escapes: exercises the profiles' normalisation.
      if (decode) path = path.replace(/%([0-9a-fA-F]{2})/g, (_, hex: string) => latin1.decode(new Uint8Array([parseInt(hex, 16)])));
      return `http://example.com${path.startsWith("/") ? "" : "/"}${path}`;
    });
}

/** A robots.txt and URLs of which many hit its rules. */
export const robotsCase = robotsBody.chain((body) => {
  const values = ruleValuesOf(body);
  const derived = values.length === 0 ? url : fc.constantFrom(...values).chain(urlFromPattern);
  return fc.tuple(fc.constant(body), fc.array(fc.oneof({ weight: 3, arbitrary: derived }, { weight: 1, arbitrary: url }), { minLength: 1, maxLength: 12 }));
});
