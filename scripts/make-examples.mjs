#!/usr/bin/env node
// Writes the bundled example: examples/robots.txt (a hand-written robots.txt for a fictional
// large shop + news site, www.example.com) and examples/urls.txt (20,000 absolute URLs on that
// site, one per line). The URLs come from a seeded PRNG, so every run writes the same bytes.
//
// Usage: node scripts/make-examples.mjs
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const OUT_DIR = join(ROOT, "examples");
const ORIGIN = "https://www.example.com";
const URL_COUNT = 20_000;
const SEED = 0x5eed_2024;

// The robots.txt is written by hand, the way a site's SEO team would keep it. The Googlebot group
// repeats most of the `*` rules on purpose (real sites do this, and it is the group the benchmark
// uses). Non-ASCII paths are written raw, as UTF-8; matchers compare them percent-encoded.
const ROBOTS_TXT = `# robots.txt for https://www.example.com
# Example Market (shop) and Example News
#
# Crawl questions: webmaster@example.com
# Last change: 2024-03-18, SEO-2291 (faceted navigation), LGL-114 (AI crawlers)

# ------------------------------------------------------------------
# Every crawler
# ------------------------------------------------------------------
User-agent: *
# Checkout, account and session pages
Disallow: /cart
Disallow: /checkout/
Disallow: /account/
Disallow: /wishlist/
Disallow: /login
Disallow: /register
Disallow: /order-status
# Internal search and faceted navigation
Disallow: /search
Disallow: /*?*sort=
Disallow: /*?*filter=
Disallow: /*&price=
Disallow: /*sessionid=
Disallow: /*%7Bsearch_term_string%7D
# Print and feed variants of articles
Disallow: /news/*/print$
Disallow: /news/*?output=amp
Disallow: /*.json$
Disallow: /api/
Allow: /api/v2/public/
# Static files: stylesheets and scripts are needed for rendering
Allow: /static/*.css$
Allow: /static/*.js$
Disallow: /static/
Disallow: /tmp/
Disallow: /cgi-bin/
# Localised storefronts
Disallow: /es/búsqueda
Disallow: /de/suche
Disallow: /fr/panier
Disallow: /ja/検索/
# Campaign pages: only the landing page is public
Disallow: /promo/
Allow: /promo/index.html

# ------------------------------------------------------------------
# Google
# ------------------------------------------------------------------
User-agent: Googlebot
Disallow: /cart
Disallow: /checkout/
Disallow: /account/
Disallow: /wishlist/
Disallow: /login
Disallow: /register
Disallow: /order-status
Disallow: /search
Allow: /search/top-searches
Disallow: /*?*sort=
Disallow: /*?*filter=
Disallow: /*&price=
Disallow: /*sessionid=
Disallow: /*utm_source=
Disallow: /*%7Bsearch_term_string%7D
Disallow: /news/*/print$
Disallow: /news/*?output=amp
Disallow: /news/archive/19*
Disallow: /*.json$
Disallow: /api/
Allow: /api/v2/public/
Disallow: /catalog/*%2f
Disallow: /es/búsqueda
Disallow: /de/suche
Disallow: /ja/検索/
Disallow: /tmp/
Disallow: /cgi-bin/
Disallow: /promo/
Allow: /promo/index.html
Allow: /*.css$
Allow: /*.js$

User-agent: Googlebot-Image
Allow: /images/products/
Allow: /media/news/
Disallow: /images/internal/
Disallow: /*.svg$
Disallow: /account/

User-agent: Bingbot
User-agent: msnbot
Disallow: /cart
Disallow: /checkout/
Disallow: /account/
Disallow: /search
Disallow: /*?*sort=
Disallow: /*?*filter=
Disallow: /*.json$
Disallow: /api/
Disallow: /static/
Crawl-delay: 2

User-agent: Yandex
Disallow: /cart
Disallow: /checkout/
Disallow: /account/
Disallow: /search
Clean-param: utm_source&utm_medium&utm_campaign&gclid&fbclid
Clean-param: sessionid /catalog/

# SEO tools: slow down, stay out of search and the archive
User-agent: AhrefsBot
User-agent: SemrushBot
Crawl-delay: 10
Disallow: /search
Disallow: /news/archive/

# AI training and answer-engine crawlers (LGL-114)
User-agent: GPTBot
User-agent: ChatGPT-User
User-agent: CCBot
User-agent: Google-Extended
User-agent: anthropic-ai
User-agent: ClaudeBot
User-agent: PerplexityBot
User-agent: Bytespider
Disallow: /

Sitemap: https://www.example.com/sitemap_index.xml
Sitemap: https://www.example.com/news/sitemap-news.xml
Sitemap: https://www.example.com/sitemaps/products-1.xml.gz
Sitemap: https://www.example.com/sitemaps/products-2.xml.gz
`;

/** mulberry32: a tiny 32-bit PRNG; good enough for test data and fully reproducible. */
function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const random = mulberry32(SEED);
const int = (min, max) => min + Math.floor(random() * (max - min + 1));
const pick = (list) => list[Math.floor(random() * list.length)];
const chance = (p) => random() < p;
const pad2 = (n) => String(n).padStart(2, "0");
const hex = (digits) => {
  let s = "";
  for (let i = 0; i < digits; i++) s += "0123456789abcdef"[int(0, 15)];
  return s;
};
const token = (length) => {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-";
  let s = "";
  for (let i = 0; i < length; i++) s += alphabet[int(0, alphabet.length - 1)];
  return s;
};
/** Picks one generator by weight and runs it. */
function weighted(table) {
  let total = 0;
  for (const [weight] of table) total += weight;
  let r = random() * total;
  for (const [weight, make] of table) {
    r -= weight;
    if (r < 0) return make();
  }
  return table[table.length - 1][1]();
}
/** Percent-encodes a path segment the way browsers put it on the wire. */
const enc = (text) => encodeURIComponent(text);

// ---- Vocabulary -----------------------------------------------------------------------------

const CATEGORIES = [
  ["women", ["shoes", "dresses", "jackets", "bags", "jeans", "knitwear"]],
  ["men", ["shoes", "shirts", "jackets", "suits", "watches", "jeans"]],
  ["kids", ["toys", "school", "baby", "shoes"]],
  ["home", ["kitchen", "bedding", "lighting", "furniture", "garden"]],
  ["electronics", ["headphones", "laptops", "phones", "cameras", "tv", "smart-home"]],
  ["sports", ["running", "cycling", "camping", "fitness", "yoga"]],
  ["beauty", ["skincare", "fragrance", "makeup", "hair"]],
];
const ADJECTIVES = [
  "classic", "slim-fit", "waterproof", "organic", "wireless", "vintage", "lightweight", "merino",
  "leather", "stainless", "recycled", "oversized", "ultra", "compact", "everyday", "premium",
];
const NOUNS = [
  "chelsea-boot", "trail-runner", "rain-jacket", "crew-sweater", "tote-bag", "chino", "denim-shirt",
  "noise-cancelling-headphones", "espresso-machine", "cast-iron-skillet", "duvet-cover", "desk-lamp",
  "yoga-mat", "bike-helmet", "smartwatch", "face-serum", "backpack", "sofa", "tent", "kettle",
];
const COLORS = ["black", "white", "navy", "red", "olive", "beige", "grey", "blue"];
const SIZES = ["xs", "s", "m", "l", "xl", "38", "40", "42", "44"];
const BRANDS = ["northwind", "acme", "fabrikam", "contoso", "tailspin", "litware", "adatum"];
const SORTS = ["price-asc", "price-desc", "newest", "rating", "bestsellers"];
const FILTERS = ["in-stock", "sale", "free-shipping", "new"];
const SEARCH_TERMS = [
  "running shoes", "rain jacket", "usb-c cable", "gift for dad", "linen shirt", "air fryer",
  "wireless earbuds", "christmas jumper", "bed sheets king", "red dress", "laptop bag 15 inch",
];
const NEWS_SECTIONS = ["world", "business", "tech", "sport", "culture", "science", "opinion", "travel"];
const HEADLINES = [
  "markets-rally-after-central-bank-holds-rates", "new-study-finds-link-between-sleep-and-memory",
  "city-council-votes-on-housing-plan", "league-final-ends-in-goalless-draw",
  "chipmakers-race-to-build-smaller-transistors", "museum-reopens-with-record-crowds",
  "storm-heads-north-after-landfall", "election-results-what-we-know-so-far",
  "inflation-eases-for-third-month", "rail-strike-called-off-at-last-minute",
  "how-to-cook-the-perfect-risotto", "startup-raises-40m-for-battery-recycling",
  "review-the-best-noise-cancelling-headphones", "heatwave-breaks-june-records",
  "coach-resigns-after-cup-exit", "scientists-map-deep-sea-vents", "why-rents-keep-rising",
  "ten-cheap-weekend-breaks-by-train", "minister-promises-faster-broadband",
  "live-updates-budget-day", "obituary-a-life-in-jazz", "the-quiet-return-of-vinyl",
];

const AUTHORS = ["jane-doe", "john-smith", "amira-haddad", "li-wei", "sofia-rossi", "tom-baker"];
const TAGS = ["elections", "climate", "ai", "football", "inflation", "space", "recipes"];
const CAMPAIGNS = ["spring_sale", "black_friday", "newsletter_w12", "back_to_school", "summer24"];
const SOURCES = ["google", "facebook", "newsletter", "instagram", "bing", "partner_site"];
const MEDIUMS = ["cpc", "email", "social", "display", "referral"];
// Localised product names; they reach the wire percent-encoded (UTF-8).
const LOCAL_PRODUCTS = [
  ["de", "produkte", ["größentabelle-laufschuh", "wärmflasche", "müsli-schale", "fußball"]],
  ["fr", "produits", ["café-filtre", "crème-visage", "chaussure-été", "théière"]],
  ["es", "productos", ["zapatillas-niño", "jamón-ibérico", "cañas-de-pescar", "camiseta-año"]],
  ["ja", "商品", ["緑茶", "スニーカー", "弁当箱", "傘"]],
];
const LOCAL_SEARCH = [
  ["es", "búsqueda", ["zapatos", "camiseta niño", "regalo"]],
  ["de", "suche", ["jacke", "größe 42", "geschenk"]],
  ["fr", "recherche", ["robe", "café", "cadeau"]],
  ["ja", "検索", ["靴", "かばん"]],
];

// ---- URL shapes ---------------------------------------------------------------------------------

const productId = () => int(100000, 9999999);
const productSlug = () => `${pick(ADJECTIVES)}-${pick(NOUNS)}`;
const category = () => {
  const [top, subs] = pick(CATEGORIES);
  return `${top}/${pick(subs)}`;
};

function tracking() {
  return weighted([
    [5, () => `utm_source=${pick(SOURCES)}&utm_medium=${pick(MEDIUMS)}&utm_campaign=${pick(CAMPAIGNS)}`],
    [2, () => `gclid=${token(int(20, 40))}`],
    [2, () => `fbclid=IwAR${token(int(30, 50))}`],
    [2, () => `ref=${pick(["homepage_carousel", "related", "recently_viewed", "email"])}`],
    [1, () => `sessionid=${hex(32)}`],
  ]);
}

function productUrl() {
  const base = chance(0.7)
    ? `/p/${productSlug()}-${productId()}`
    : `/products/${category()}/${productSlug()}/${productId()}`;
  return weighted([
    [10, () => base],
    [3, () => `${base}?color=${pick(COLORS)}&size=${pick(SIZES)}`],
    [3, () => `${base}?${tracking()}`],
    [1, () => `${base}?color=${pick(COLORS)}&${tracking()}`],
    [1, () => `${base}/reviews?page=${int(2, 9)}`],
    [1, () => `${base}#reviews`],
    [1, () => `${base}.json`],
  ]);
}

function categoryUrl() {
  const base = weighted([
    [6, () => `/c/${category()}`],
    [2, () => `/c/${category()}/`],
    [2, () => `/brands/${pick(BRANDS)}`],
  ]);
  return weighted([
    [6, () => base],
    [3, () => `${base}?page=${int(2, 40)}`],
    [3, () => `${base}?sort=${pick(SORTS)}`],
    [2, () => `${base}?page=${int(2, 12)}&sort=${pick(SORTS)}`],
    [2, () => `${base}?color=${pick(COLORS)}&size=${pick(SIZES)}`],
    [2, () => `${base}?brand=${pick(BRANDS)}&price=${int(0, 5) * 20}-${int(6, 20) * 20}`],
    [1, () => `${base}?price=0-${int(1, 10) * 25}`],
    [2, () => `${base}?filter=${pick(FILTERS)}`],
    [1, () => `${base}?color=${pick(COLORS)}&filter=${pick(FILTERS)}&sort=${pick(SORTS)}`],
    [2, () => `${base}?${tracking()}`],
  ]);
}

function catalogUrl() {
  // An old catalogue section whose CMS encodes the slash between category levels.
  const [top, subs] = pick(CATEGORIES);
  const slash = chance(0.7) ? "%2F" : "%2f";
  return weighted([
    [3, () => `/catalog/${top}${slash}${pick(subs)}`],
    [2, () => `/catalog/${top}${slash}${pick(subs)}?page=${int(2, 9)}`],
    [2, () => `/catalog/${top}/${pick(subs)}`],
    [1, () => `/catalog/`],
  ]);
}

function searchUrl() {
  const q = enc(pick(SEARCH_TERMS)).replace(/%20/g, chance(0.5) ? "+" : "%20");
  return weighted([
    [6, () => `/search?q=${q}`],
    [2, () => `/search?q=${q}&page=${int(2, 5)}`],
    [1, () => `/search?q=${q}&sort=${pick(SORTS)}`],
    [1, () => `/search/top-searches`],
    [1, () => `/search-results/${pick(["shoes", "jackets", "gifts"])}`],
    [1, () => `/search?q=%7Bsearch_term_string%7D`],
    [1, () => `/%7Bsearch_term_string%7D`],
    [3, () => {
      const [lang, word, terms] = pick(LOCAL_SEARCH);
      return `/${lang}/${enc(word)}${chance(0.3) ? "/" : ""}?q=${enc(pick(terms))}`;
    }],
  ]);
}

function accountUrl() {
  return weighted([
    [4, () => `/cart`],
    [2, () => `/cart/add?sku=${productId()}&qty=${int(1, 3)}`],
    [1, () => `/cart?${tracking()}`],
    [1, () => `/Cart`],
    [3, () => `/checkout/${pick(["shipping", "payment", "review", "confirmation"])}`],
    [1, () => `/checkout`],
    [3, () => `/account/${pick(["orders", "addresses", "settings", "returns"])}`],
    [1, () => `/account/orders/${int(10000000, 99999999)}`],
    [2, () => `/wishlist/${hex(12)}`],
    [2, () => `/login?returnUrl=${enc("/account/orders")}`],
    [1, () => `/login`],
    [1, () => `/register`],
    [1, () => `/registration-help`],
    [1, () => `/order-status?order=${int(10000000, 99999999)}`],
    [1, () => `/fr/panier`],
  ]);
}

function newsUrl() {
  const section = pick(NEWS_SECTIONS);
  const year = int(2015, 2024);
  const date = `${year}/${pad2(int(1, 12))}/${pad2(int(1, 28))}`;
  const headline = pick(HEADLINES);
  const article = `/news/${section}/${date}/${headline}${chance(0.3) ? `-${int(2, 99)}` : ""}`;
  return weighted([
    [14, () => article],
    [2, () => `${article}/print`],
    [1, () => `${article}/print?utm_source=share`],
    [2, () => `${article}?output=amp`],
    [2, () => `${article}?${tracking()}`],
    [1, () => `${article}#comments`],
    [1, () => `${article}?page=${int(2, 4)}`],
    [3, () => `/news/${section}/`],
    [1, () => `/news/`],
    [1, () => `/news/index.html`],
    [1, () => `/news/latest.json`],
    [1, () => `/news/latest.json?callback=cb${int(1, 999)}`],
    [1, () => `/news/authors/${pick(AUTHORS)}`],
    [1, () => `/news/tag/${pick(TAGS)}?page=${int(1, 20)}`],
    [2, () => `/news/archive/${int(1996, 2014)}/${pad2(int(1, 12))}/${headline}.html`],
  ]);
}

function mediaUrl() {
  return weighted([
    [6, () => `/images/products/${productId()}/${int(1, 8)}_${pick(["400x400", "800x800", "1600x1600"])}.${pick(["jpg", "webp"])}`],
    [3, () => `/media/news/${int(2018, 2024)}/${pad2(int(1, 12))}/${hex(10)}.jpg`],
    [1, () => `/images/internal/${pick(["dashboard", "reports", "mockups"])}/${hex(8)}.png`],
    [2, () => `/images/icons/${pick(["cart", "user", "search", "heart", "logo"])}.svg`],
    [1, () => `/images/icons/sprite.svg?v=${int(100, 999)}`],
    [3, () => `/static/css/${pick(["main", "vendor", "checkout"])}.${hex(8)}.css`],
    [1, () => `/static/css/main.css?v=${int(1000, 9999)}`],
    [3, () => `/static/js/${pick(["app", "vendor", "runtime", "analytics"])}.${hex(8)}.js`],
    [1, () => `/static/fonts/${pick(["inter", "merriweather"])}-${pick(["regular", "bold"])}.woff2`],
    [1, () => `/assets/theme.css`],
  ]);
}

function apiUrl() {
  return weighted([
    [3, () => `/api/v2/public/products/${productId()}`],
    [2, () => `/api/v2/public/stock.json?sku=${productId()}`],
    [1, () => `/api/v2/public/stores.json`],
    [2, () => `/api/v1/cart.json`],
    [2, () => `/api/v2/private/recommendations?user=${hex(16)}`],
    [1, () => `/api/v2/public/`],
  ]);
}

function localUrl() {
  const [lang, word, names] = pick(LOCAL_PRODUCTS);
  const name = enc(pick(names));
  return weighted([
    [4, () => `/${lang}/${enc(word)}/${name}-${productId()}`],
    [1, () => `/${lang}/${enc(word)}/${name}-${productId()}?${tracking()}`],
    [1, () => `/${lang}/`],
  ]);
}

function otherUrl() {
  return weighted([
    [3, () => `/`],
    [1, () => `/?${tracking()}`],
    [2, () => `/help/${pick(["returns", "shipping", "payment-options", "size-guide", "contact"])}`],
    [2, () => `/stores/${pick(["london", "paris", "berlin", "new-york", "tokyo", "madrid"])}`],
    [1, () => `/about`],
    [1, () => `/careers/jobs?team=${pick(["engineering", "design", "logistics"])}`],
    [1, () => `/promo/`],
    [1, () => `/promo/index.html`],
    [1, () => `/promo/${pick(CAMPAIGNS).replace(/_/g, "-")}`],
    [1, () => `/promo/${pick(CAMPAIGNS).replace(/_/g, "-")}/index.html`],
    [1, () => `/gift-cards`],
    [1, () => `/robots.txt`],
    [1, () => `/sitemap_index.xml`],
    [1, () => `/cgi-bin/${pick(["track.cgi", "redirect.pl"])}?id=${int(1, 9999)}`],
    [1, () => `/tmp/${hex(16)}`],
  ]);
}

const SHAPES = [
  [30, productUrl],
  [15, categoryUrl],
  [2, catalogUrl],
  [7, searchUrl],
  [7, accountUrl],
  [20, newsUrl],
  [10, mediaUrl],
  [2, apiUrl],
  [3, localUrl],
  [4, otherUrl],
];

const urls = [];
for (let i = 0; i < URL_COUNT; i++) urls.push(ORIGIN + weighted(SHAPES));

mkdirSync(OUT_DIR, { recursive: true });
writeFileSync(join(OUT_DIR, "robots.txt"), ROBOTS_TXT);
writeFileSync(join(OUT_DIR, "urls.txt"), urls.join("\n") + "\n");
console.log(
  `wrote examples/robots.txt (${Buffer.byteLength(ROBOTS_TXT)} bytes) and examples/urls.txt (${urls.length} URLs)`,
);
