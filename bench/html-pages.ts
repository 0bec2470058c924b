/**
 * Deterministic HTML pages of a given size for the directives benchmark: a head like a news or
 * shop page's (metas of every kind, preloads, inline CSS, JSON-LD and analytics scripts) and a
 * body of nested blocks, text, links, images, comments, inline scripts and a noscript, repeated
 * with seeded variation until the size is reached. Robots metas: two in the head, one in a body
 * noscript, and decoys in a comment and a script that must not count.
 */
import { Random } from "./workloads.js";

const WORDS = (
  "the crawler reads robots meta tags before it indexes a page and follows its links while the " +
  "server sends headers with every response so a page may say noindex or nosnippet for one agent " +
  "and something else for another one; prices, reviews, delivery & returns are shown in the list"
).split(" ");

function head(next: () => number): string {
  const css = Array.from({ length: 120 }, (_, i) =>
    `.c${i}{margin:${i % 7}px ${i % 5}px;color:#${(i * 2654435761 >>> 8).toString(16).padStart(6, "0").slice(0, 6)}}` +
    `.c${i}>a:hover{text-decoration:underline}`).join("\n");
  const jsonLd = JSON.stringify({
    "@context": "https://schema.org", "@type": "NewsArticle", headline: "A page for the benchmark",
    datePublished: "2026-11-01T08:00:00Z", author: [{ "@type": "Person", name: "A. Writer" }],
  });
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Benchmark page &amp; friends</title>
<meta name="description" content="A generated page with ${Math.floor(next() * 1000)} items, for measuring meta tag extraction.">
<meta name="robots" content="index, follow, max-image-preview:large, max-snippet:-1">
<meta name="googlebot" content="noarchive, unavailable_after: 25 Jun 2030 15:00:00 PST">
<meta property="og:title" content="Benchmark page"><meta property="og:type" content="article">
<meta name="twitter:card" content="summary_large_image"><meta name="theme-color" content="#ffffff">
<link rel="preload" href="/static/app.js" as="script"><link rel="stylesheet" href="/static/app.css">
<link rel="canonical" href="https://www.example.com/news/benchmark-page">
<style>
${css}
</style>
<script type="application/ld+json">${jsonLd}</script>
<script>
  window.dataLayer = window.dataLayer || [];
  function gtag(){dataLayer.push(arguments);}
  if (document.cookie.length < 4096 && location.hash !== "#x") { gtag("js", new Date()); }
  document.write('<meta name="robots" content="noindex">'); // a decoy: script text, not a tag
</script>
<!-- <meta name="robots" content="none"> a decoy in a comment -->
</head>
`;
}

function block(next: () => number, index: number): string {
  const word = () => WORDS[Math.floor(next() * WORDS.length)]!;
  const sentence = (n: number) => Array.from({ length: n }, word).join(" ");
  const paragraphs = Array.from({ length: 2 + Math.floor(next() * 3) }, () =>
    `<p class="c${index % 120} text">${sentence(20 + Math.floor(next() * 40))} <a href="/item/${index}?ref=list&amp;p=${Math.floor(next() * 50)}" title="${sentence(3)}">${sentence(3)}</a>.</p>`);
  return `<div class="card c${index % 120}" data-id="${index}" data-price='${(next() * 100).toFixed(2)}'>
  <h2 id=h${index}>${sentence(5)}</h2>
  <img src="/img/${index}.webp" alt="${sentence(4)}" width=320 height=200 loading=lazy>
  ${paragraphs.join("\n  ")}
  <!-- card ${index}: ${sentence(6)} -->
  <ul>${Array.from({ length: 4 }, (_, i) => `<li><a href="/c/${index}/${i}">${word()}</a></li>`).join("")}</ul>
  <button type="button" onclick="add(${index})">Add to basket</button>
</div>
`;
}

const INLINE_SCRIPT = `<script>
  (function () { var items = document.querySelectorAll(".card"); for (var i = 0; i < items.length; i++) { if (i < 3 && items[i]) items[i].className += " top"; } })();
</script>
`;

/** A page of exactly `size` bytes (ASCII), the same for the same size and seed. */
export function generatePage(size: number, seed = 1): string {
  const random = new Random(seed);
  const next = () => random.next();
  const parts = [head(next), "<body>\n<header><nav><a href=/>Home</a> <a href=/news>News</a></nav></header>\n<main>\n",
    '<noscript><meta name="robots" content="nosnippet"><img src="/pixel.gif" alt=""></noscript>\n'];
  const footer = "</main>\n<footer><p>&copy; 2026 Example</p></footer>\n</body>\n</html>\n";
  let length = parts.reduce((sum, part) => sum + part.length, footer.length);
  for (let index = 0; length < size; index++) {
    const part = index % 25 === 24 ? INLINE_SCRIPT : block(next, index);
    parts.push(part);
    length += part.length;
  }
  const page = parts.join("") + footer;
  // Trim inside the last block's text so the page keeps its closing tags and has the exact size.
  const excess = page.length - size;
  return excess <= 0 ? page : page.slice(0, page.length - footer.length - excess) + footer;
}
