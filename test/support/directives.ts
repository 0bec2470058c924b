/**
 * Shared by the directive suites: the scanner under test in both WASM builds, parse5 as the HTML5
 * oracle (scripting disabled, so that `<noscript>` content is markup, as the scanner reads it),
 * and generators of odd HTML for the differential properties.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { parse, type DefaultTreeAdapterMap } from "parse5";
import { readPageWith, type PageSource } from "../../src/directives/page.js";
import { scanPageWith } from "../../src/directives/scan.js";
import type { IndexingDirectives, MetaTag, PageDirectivesOptions } from "../../src/directives/index.js";
import { type Engine, loadEngine } from "../../src/wasm.js";

export interface Scanner {
  name: "wasm-release" | "wasm-debug";
  engine: Engine;
  scan(html: string | Uint8Array, encoding?: string): MetaTag[];
  read(page: PageSource, options?: PageDirectivesOptions): IndexingDirectives;
}

function scanner(name: Scanner["name"], file: string): Scanner {
  const engine = loadEngine(readFileSync(fileURLToPath(new URL(`../../build/${file}`, import.meta.url))));
  return {
    name,
    engine,
    scan: (html, encoding) => scanPageWith(engine, html, encoding).tags,
    read: (page, options) => readPageWith(engine, page, options),
  };
}

/** Both builds, always: a missing build is an error (run `npm run build:wasm`), never a skip. */
export const scanners: Scanner[] = [scanner("wasm-release", "release.wasm"), scanner("wasm-debug", "debug.wasm")];

/** What the differential tests compare: the tag's attributes and where the tree put it. */
export interface FoundMeta {
  name: string;
  content: string | null;
  inHead: boolean;
  inNoscript: boolean;
}

export const found = (tags: readonly MetaTag[]): FoundMeta[] =>
  tags.map(({ name, content, inHead, inNoscript }) => ({ name, content, inHead, inNoscript }));

type Node = DefaultTreeAdapterMap["node"];
type Element = DefaultTreeAdapterMap["element"];

/** The `<meta name>` elements parse5 puts in the document (template contents are a fragment apart). */
export function parse5Metas(html: string): FoundMeta[] {
  const metas: FoundMeta[] = [];
  const walk = (node: Node, inHead: boolean, inNoscript: boolean) => {
    const element = "tagName" in node ? (node as Element) : undefined;
    if (element?.tagName === "meta" && element.namespaceURI === "http://www.w3.org/1999/xhtml") {
      const name = element.attrs.find((attr) => attr.name === "name");
      const content = element.attrs.find((attr) => attr.name === "content");
      if (name) metas.push({ name: name.value, content: content?.value ?? null, inHead, inNoscript });
    }
    if ("childNodes" in node) {
      for (const child of node.childNodes) {
        walk(child, inHead || element?.tagName === "head", inNoscript || element?.tagName === "noscript");
      }
    }
  };
  // A browser's decoder drops a byte order mark; parse5, given a string, would read it as text.
  walk(parse(html.replace(/^\ufeff/, ""), { scriptingEnabled: false }), false, false);
  return metas;
}

// ---- Generators ------------------------------------------------------------------------------
// The mix stays inside what the scanner models (see assembly/meta.ts): no <svg>/<math>, <frameset>,
// <select>, no whitespace character references in text, and <noscript> blocks balanced around
// content that opens no special element.

const pick = <T>(...values: T[]) => fc.constantFrom(...values);

const nameValue = pick(
  "robots", "ROBOTS", "Robots", "googlebot", "GoogleBot-News", "bingbot", "description", "robots ", " robots",
  "rob&#111;ts", "&#x72;obots", "robots&amp;", "", "ro bots", "og:title", "robots/", "x\u00e9", "\u00e9",
);
const contentValue = pick(
  "noindex", "noindex, nofollow", "NOINDEX,NOFOLLOW", "none", "max-snippet:0", "nosnippet&#44; noarchive",
  "a&amp;b", "&quot;q&quot;", "'", '"', ">", "<", "&copy", "&amp=", "&ampx", "&notit;", "&#x41", "&#0;", "&#128;",
  "&#x110000;", "&lt;&gt;", "&nbsp;x", "&apos;", "&comma;", "&qqq;", "&", "&#", "&#x;", "", " ", "a\nb", "a\r\nb",
  "unavailable_after: 25 Jun 2010 15:00:00 PST", "\u00e9t\u00e9", "x\u0000y", "&AMP;&LT;", "&frac12;&frac12",
);

/** An attribute `name=value` with a random quoting style (unquoted only where the value allows it). */
const attribute = (name: fc.Arbitrary<string>, value: fc.Arbitrary<string>) =>
  fc.tuple(name, value, pick('"', "'", "", "", " = ")).map(([n, v, style]) => {
    if (style === '"') return v.includes('"') ? `${n}='${v}'` : `${n}="${v}"`;
    if (style === "'") return v.includes("'") ? `${n}="${v}"` : `${n}='${v}'`;
    if (style === " = ") return `${n} = "${v.replace(/"/g, "&quot;")}"`;
    return v === "" || /[\s"'=<>`]/.test(v) ? `${n}="${v.replace(/"/g, "&quot;")}"` : `${n}=${v}`;
  });

const junkAttribute = pick(
  "x", "data-a=1", 'id="m"', "=x", '"a"', "<b", "/", "content", "name", "a='>'", 'b=">"', "NAME=dup", "CONTENT=dup",
  "http-equiv=refresh", "charset=utf-8", "\u0000x=1",
);
const separator = pick(" ", "\n", "\t", "", "  ", "/", " / ", "\r\n", "\f");

/** A meta start tag in an odd form: attribute order, duplicates, quoting, separators, case. */
export const metaTag: fc.Arbitrary<string> = fc
  .tuple(
    pick("meta", "META", "Meta", "meta", "mEtA"),
    fc.shuffledSubarray(
      [attribute(pick("name", "NAME", "Name"), nameValue), attribute(pick("content", "CONTENT"), contentValue), junkAttribute, junkAttribute, attribute(pick("name"), nameValue)],
      { minLength: 0 },
    ).chain((parts) => (parts.length === 0 ? fc.constant([] as string[]) : fc.tuple(...parts))),
    fc.array(separator, { minLength: 6, maxLength: 6 }),
    pick(">", "/>", " />", " >", "\n>"),
  )
  .map(([tag, attributes, separators, close]) =>
    `<${tag}${attributes.map((a, i) => (i === 0 && separators[i] === "" ? " " : separators[i]) + a).join("")}${close}`);

const textWithoutNul = ["hello", " ", "\n", "\t", "&amp;", "<", "< p", "a<b", "<3", "&", "x > y", "\u00e9", "</", "<!", "<?", "1 < 2 > 0"];
const markup = pick(
  "<div>", "</div>", '<p class="x">', "</p>", "<span title='<meta name=robots content=noindex>'>", "</span>",
  "<a href=x>", "</a>", '<img src=x alt="a>b">', "<br/>", "</br>", "<link rel=x>", "<input value='>'>", "<b>", "</b>",
  "<!-- x -->", "<!-- <meta name=robots content=c> -->", "<!-->", "<!--->", "<!---->", "<!-- --!>", "<!-- -- -->",
  "<!--<!-- -->", "<!x>", "<?php echo 1 ?>", "</ x>", "</>", "<![CDATA[ <meta name=robots content=cdata> ]]>",
  "<!DOCTYPE html>", "<html>", "<head>", "</head>", "<body>", "</body>", "</html>", "<base href=/>", "<title/>",
  "</template>", "</noscript>", "</script>", "</style>", "<div title=\"</script>\">",
  "<div <meta name=robots content=x>>", "<meta<meta name=robots content=y>", "</meta name=robots content=end>",
);
const rawTextContent = fc.array(
  pick(
    "text", "<meta name=robots content=raw>", "</scrip", "</script", "</style", "</title", "<!--", "-->", "--!>", "<script>",
    "</script >", "</SCRIPT>", "-", "<", ">", "<!-->", "</scriptx>", "<script ", "</script/", "&lt;", "\n", "</textarea",
  ),
  { maxLength: 8 },
).map((parts) => parts.join(""));
const rawTextElement = fc
  .tuple(
    pick("script", "SCRIPT", "style", "title", "textarea", "xmp", "iframe", "noembed", "noframes", "Title"),
    pick("", " type=x", ' a=">"'),
    rawTextContent,
    pick("</$>", "</$ >", "</$/>", '</$ x=">">', "</$\n>", "</$>"),
  )
  .map(([tag, attrs, content, close]) => `<${tag}${attrs}>${content}${close.replace("$", tag.toLowerCase() === "title" ? "TITLE" : tag)}`);

/**
 * Items that may sit inside a noscript block without leaving it open: no special element, and no
 * `<` that starts a tag (`a<b` before `</noscript>` reads as a tag `b<` whose attribute is
 * `noscript`, so the block stays open, and a later `<div>` that closes an enclosing `<p>` closes it too).
 */
const noscriptSafe = fc.oneof(metaTag, pick("hello", " ", "&amp;", "a < b"), pick("<span>", "</span>", "<img src=x>", "<b>x</b>", "<link rel=y>", "<!-- c -->", "<br>", "<a>"));

/**
 * A page: optional prologue, then a random mix; rarely an unterminated ending. `nulText`: NUL
 * characters in text too (the standard and parse5 end the head there; Chromium ignores them).
 */
function pageOf(nulText: boolean): fc.Arbitrary<string> {
  const text = pick(...textWithoutNul, ...(nulText ? ["\u0000"] : []));
  const item: fc.Arbitrary<string> = fc.letrec<{ item: string }>((tie) => ({
    item: fc.oneof(
      { weight: 5, arbitrary: metaTag },
      { weight: 4, arbitrary: markup },
      { weight: 3, arbitrary: text },
      { weight: 2, arbitrary: rawTextElement },
      { weight: 1, arbitrary: fc.tuple(fc.array(noscriptSafe, { maxLength: 4 }), pick("</noscript>", "</NOSCRIPT >")).map(([inner, close]) => `<noscript>${inner.join("")}${close}`) },
      { weight: 1, arbitrary: fc.array(tie("item"), { maxLength: 3 }).map((inner) => `<template>${inner.join("")}</template>`) },
    ),
  })).item;

  return fc
    .tuple(
      pick("", "<!DOCTYPE html>", "<!doctype html>\n<html lang=en>", "<html><head>", "\ufeff", "  \n"),
      fc.array(item, { maxLength: 24 }),
      pick("", "", "", "<!-- unterminated", "<meta name=robots content=eof", "<script>", "<title>x", "</body></html>", "<plaintext><meta name=robots content=p>"),
    )
    .map(([prologue, items, ending]) => prologue + items.join("") + ending);
}

export const htmlPage = pageOf(true);
/** For the browser: no NUL in text (attribute values and tag names still hold some). */
export const browserHtmlPage = pageOf(false);
