/**
 * Deterministic benchmark workloads: generated robots.txt files of three sizes with URL batches to
 * match, and the largest real files of the corpus with their URL lists. Everything is generated in
 * memory from fixed seeds (no network, nothing committed); `bench/generate.ts` writes the same
 * workloads to bench/.work/ for inspection or for the CLI.
 *
 * A generated file has several groups: `*`, two groups for the benchmark agent (Googlebot, which
 * Google merges), groups for other crawlers, and sitemaps. Its rules mix literal paths, root
 * wildcards (`/*...`, literal prefix `/`, the hard case for a matcher), wildcards under a literal
 * prefix, `$`-anchored patterns, percent-encoded and raw non-ASCII paths, Allow and Disallow.
 * A generated URL batch is mostly ordinary traffic (products, categories, search, news, static
 * files, with query strings); about one URL in eight is built from one of the agent's rules, so
 * that some URLs match deep in the table.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The agent every workload is queried with. */
export const AGENT = "Googlebot";
export const ORIGIN = "https://www.example.com";

// ---- Seeded PRNG -------------------------------------------------------------------------------

/** A small seeded generator (mulberry32): the same seed gives the same workload on every machine. */
export class Random {
  #state: number;

  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    let t = (this.#state = (this.#state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [0, n). */
  below(n: number): number {
    return Math.floor(this.next() * n);
  }

  pick<T>(items: readonly T[]): T {
    return items[this.below(items.length)]!;
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  /** Lower-case hex digits. */
  hex(length: number): string {
    let text = "";
    for (let i = 0; i < length; i++) text += HEX[this.below(16)];
    return text;
  }
}

const HEX = "0123456789abcdef";

// ---- Vocabulary --------------------------------------------------------------------------------

const SECTIONS = [
  "p", "c", "product", "category", "search", "news", "blog", "static", "assets", "api", "account", "cart",
  "checkout", "user", "tag", "shop", "media", "img", "help", "de", "fr", "en-us", "store", "brand", "list",
  "events", "video", "forum", "wiki", "jobs", "dl", "go", "amp", "m", "print", "feeds", "compare", "reviews",
] as const;
const WORDS = [
  "shoes", "shirt", "red", "blue", "sale", "summer", "winter", "kids", "men", "women", "home", "garden", "tools",
  "phone", "laptop", "camera", "book", "music", "sport", "outdoor", "travel", "food", "coffee", "tea", "wine",
  "toys", "beauty", "health", "auto", "office", "bags", "watch", "gift", "deal", "new", "top", "best", "cheap",
  "black", "white", "green", "wool", "cotton", "leather", "retro", "pro", "mini", "max", "eco", "smart",
] as const;
/** Raw non-ASCII path words (UTF-8 on the wire as %XX escapes). */
const WORLD_WORDS = [
  "café", "über-uns", "größe", "niño", "商品", "ニュース", "категория", "señal", "çanta", "żółw", "tür", "naïve",
  "résumé", "ölçü", "新闻", "검색",
] as const;
const PARAMS = [
  "sessionid", "sid", "ref", "utm_source", "utm_medium", "utm_campaign", "sort", "order", "page", "filter",
  "color", "size", "q", "lang", "currency", "view", "print", "amp", "replytocom", "share", "add-to-cart", "gclid",
  "fbclid", "variant", "limit", "dir", "mode", "format",
] as const;
const EXTENSIONS = [".html", ".htm", ".php", ".aspx", ".pdf", ".json", ".xml", ".jpg", ".png", ".js", ".css", ".zip", ".doc", ".xls"] as const;
const OTHER_AGENTS = [
  "Bingbot", "Slurp", "DuckDuckBot", "Baiduspider", "YandexBot", "AhrefsBot", "SemrushBot", "MJ12bot", "Applebot",
  "facebookexternalhit", "Twitterbot", "GPTBot", "CCBot", "PetalBot", "Sogou", "Exabot",
] as const;

/** Percent-encodes the non-ASCII characters of a path word (upper-case hex, as browsers send). */
function escapeNonAscii(text: string): string {
  return text.replace(/[^\x00-\x7f]+/g, (chars) => encodeURIComponent(chars));
}

// ---- Rules -------------------------------------------------------------------------------------

/** What a generated pattern is, for the workload's description. */
export type RuleShape = "literal" | "root-wildcard" | "prefix-wildcard" | "anchored" | "percent" | "non-ascii";

interface Rule {
  allow: boolean;
  pattern: string;
  shape: RuleShape;
}

/**
 * One pattern of a given shape. Sizes: the average rule line is ~26 bytes, so that a 512 KiB
 * file holds ~20,000 rules and a 50 KB one ~2,000 (the proportions the issue measures).
 */
function makePattern(random: Random, shape: RuleShape): string {
  const section = random.pick(SECTIONS);
  const word = random.pick(WORDS);
  switch (shape) {
    case "literal":
      switch (random.below(5)) {
        case 0:
          return `/${section}/${word}/`;
        case 1:
          return `/${section}/${word}-${random.below(10_000)}`;
        case 2:
          return `/${section}/${random.hex(6)}.html`;
        case 3:
          return `/${section}?${random.pick(PARAMS)}=`;
        default:
          return `/${section}/${word}/${random.below(1000)}/`;
      }
    case "root-wildcard":
      // The literal prefix is just "/": every URL is a candidate.
      switch (random.below(7)) {
        case 0:
          return `/*?${random.pick(PARAMS)}=${random.chance(0.5) ? word : ""}`;
        case 1:
          return `/*&${random.pick(PARAMS)}=`;
        case 2:
          return `/*/${word}-${random.below(1000)}/`;
        case 3:
          return `/*${random.pick(PARAMS)}=*${word}`;
        case 4:
          return `/*/${section}/${word}`;
        case 5:
          return `/*${word}${random.below(100)}*.${random.pick(["php", "html", "js"])}`;
        default:
          return `/*${random.hex(5)}`;
      }
    case "prefix-wildcard":
      switch (random.below(4)) {
        case 0:
          return `/${section}/*/${word}`;
        case 1:
          return `/${section}/*?${random.pick(PARAMS)}=`;
        case 2:
          return `/${section}/${word}*${random.pick(EXTENSIONS)}`;
        default:
          return `/${section}/*-${random.below(1000)}*`;
      }
    case "anchored":
      switch (random.below(5)) {
        case 0:
          return `/${section}/$`;
        case 1:
          return `/${section}/${word}$`;
        case 2:
          return `/*${random.pick(EXTENSIONS)}$`;
        case 3:
          return `/${section}/${word}-${random.below(1000)}${random.pick(EXTENSIONS)}$`;
        default:
          return `/*/${word}/$`;
      }
    case "percent":
      switch (random.below(3)) {
        case 0:
          return `/${section}/${escapeNonAscii(random.pick(WORLD_WORDS))}/`;
        case 1:
          return `/${section}/${word}%20${random.pick(WORDS)}`;
        default:
          return `/search?q=${escapeNonAscii(random.pick(WORLD_WORDS))}`;
      }
    case "non-ascii":
      return random.chance(0.5) ? `/${section}/${random.pick(WORLD_WORDS)}/` : `/${random.pick(WORLD_WORDS)}`;
  }
}

/** Shape weights (percent): root wildcards are ~10%, hundreds in a 50 KB file, thousands in 512 KiB. */
const SHAPE_WEIGHTS: readonly (readonly [RuleShape, number])[] = [
  ["literal", 58],
  ["root-wildcard", 10],
  ["prefix-wildcard", 12],
  ["anchored", 10],
  ["percent", 5],
  ["non-ascii", 5],
];

function makeRule(random: Random): Rule {
  let roll = random.below(100);
  let shape: RuleShape = "literal";
  for (const [candidate, weight] of SHAPE_WEIGHTS) {
    if (roll < weight) {
      shape = candidate;
      break;
    }
    roll -= weight;
  }
  return { allow: random.chance(0.22), pattern: makePattern(random, shape), shape };
}

// ---- Files -------------------------------------------------------------------------------------

/** A group layout: user-agent lines and the share of the file's rules it holds. */
interface GroupPlan {
  agents: readonly string[];
  share: number;
}

/**
 * `*` first, the agent's two groups (merged by Google), other crawlers in between. The agent's
 * groups hold three quarters of the rules: the matcher (and robots-parser, whose cost grows with
 * the agent's rules) sees most of the file, as in the files the issue's baseline numbers come from.
 */
const GROUPS: readonly GroupPlan[] = [
  { agents: ["*"], share: 0.15 },
  { agents: ["Googlebot", "Googlebot-Image"], share: 0.45 },
  { agents: ["Bingbot", "Slurp"], share: 0.05 },
  { agents: ["Googlebot-News"], share: 0.03 },
  { agents: ["Googlebot"], share: 0.3 },
  { agents: ["YandexBot"], share: 0.02 },
];

export interface GeneratedFile {
  body: string;
  /** Allow/disallow lines. */
  rules: number;
  /** Patterns of the agent's groups (for building matching URLs). */
  agentPatterns: string[];
  shapes: Record<RuleShape, number>;
  /** Patterns starting with `/*` (root wildcards, including `/*.pdf$` and friends). */
  rootWildcards: number;
}

/** A robots.txt of about `targetBytes` (UTF-8), from a seed. */
export function generateRobotsTxt(targetBytes: number, seed: number): GeneratedFile {
  const random = new Random(seed);
  const shapes: Record<RuleShape, number> = { literal: 0, "root-wildcard": 0, "prefix-wildcard": 0, anchored: 0, percent: 0, "non-ascii": 0 };
  const header = `# robots.txt for ${ORIGIN} (generated by bench/workloads.ts, seed ${seed})\n`;
  // Rules are drawn first, then dealt into groups by share, so the file size can be aimed at.
  const drawn: Rule[] = [];
  let bytes = Buffer.byteLength(header) + 400; // user-agent lines, blank lines, sitemaps
  while (bytes < targetBytes) {
    const rule = makeRule(random);
    drawn.push(rule);
    bytes += (rule.allow ? 7 : 10) + Buffer.byteLength(rule.pattern) + 1;
  }
  const lines: string[] = [header.trimEnd()];
  const agentPatterns: string[] = [];
  let next = 0;
  GROUPS.forEach((group, index) => {
    const count = index === GROUPS.length - 1 ? drawn.length - next : Math.round(drawn.length * group.share);
    lines.push("");
    for (const agent of group.agents) lines.push(`User-agent: ${agent}`);
    if (group.agents[0] === "Bingbot") lines.push("Crawl-delay: 5");
    for (const rule of drawn.slice(next, next + count)) {
      lines.push(`${rule.allow ? "Allow" : "Disallow"}: ${rule.pattern}`);
      shapes[rule.shape]++;
      if (group.agents.includes(AGENT)) agentPatterns.push(rule.pattern);
    }
    next += count;
  });
  lines.push("", "User-agent: " + random.pick(OTHER_AGENTS), "Disallow: /", "");
  lines.push(`Sitemap: ${ORIGIN}/sitemap.xml`, `Sitemap: ${ORIGIN}/sitemap-news.xml`, "");
  const rootWildcards = drawn.filter((rule) => rule.pattern.startsWith("/*")).length;
  return { body: lines.join("\n"), rules: drawn.length + 1, agentPatterns, shapes, rootWildcards };
}

// ---- URLs --------------------------------------------------------------------------------------

function query(random: Random): string {
  if (random.chance(0.55)) return "";
  const parts: string[] = [];
  for (let i = 1 + random.below(3); i > 0; i--) parts.push(`${random.pick(PARAMS)}=${random.chance(0.5) ? random.pick(WORDS) : random.below(100)}`);
  return `?${parts.join("&")}`;
}

/** An ordinary URL path: product, category, search, news, static, account, localised. */
function organicPath(random: Random): string {
  switch (random.below(10)) {
    case 0:
    case 1:
      return `/product/${random.pick(WORDS)}-${random.pick(WORDS)}-${random.below(100_000)}.html${query(random)}`;
    case 2:
      return `/p/${random.pick(WORDS)}-${random.below(10_000)}${query(random)}`;
    case 3:
      return `/category/${random.pick(WORDS)}/${random.pick(WORDS)}/?page=${1 + random.below(40)}${random.chance(0.3) ? "&sort=price" : ""}`;
    case 4:
      return `/search?q=${random.pick(WORDS)}+${random.pick(WORDS)}${random.chance(0.4) ? `&page=${random.below(10)}` : ""}`;
    case 5:
      return `/news/${2015 + random.below(10)}/${String(1 + random.below(12)).padStart(2, "0")}/${random.pick(WORDS)}-${random.pick(WORDS)}-${random.pick(WORDS)}`;
    case 6:
      return `/static/${random.pick(["js", "css", "img"])}/${random.pick(WORDS)}.${random.hex(8)}${random.pick(EXTENSIONS)}`;
    case 7:
      return `/${random.pick(SECTIONS)}/${random.pick(WORDS)}/${random.below(1000)}/${query(random)}`;
    case 8:
      return `/${random.pick(["de", "fr", "blog", "shop"])}/${escapeNonAscii(random.pick(WORLD_WORDS))}-${random.below(1000)}${query(random)}`;
    default:
      return `/account/orders?id=${random.below(1_000_000)}&view=${random.pick(WORDS)}`;
  }
}

/** A path built from a rule: wildcards filled, `$` honoured or broken, raw non-ASCII escaped. */
function pathFromPattern(random: Random, pattern: string): string {
  const anchored = pattern.endsWith("$");
  let path = anchored ? pattern.slice(0, -1) : pattern;
  path = path.replace(/\*/g, () => (random.chance(0.3) ? "" : `${random.pick(WORDS)}/${random.below(100)}`));
  path = escapeNonAscii(path);
  if (!anchored || random.chance(0.3)) path += random.chance(0.5) ? query(random) : `${random.pick(WORDS)}.html`;
  return path;
}

/** `count` URLs, about one in eight built from the agent's patterns. */
export function generateUrls(count: number, agentPatterns: readonly string[], seed: number): string[] {
  const random = new Random(seed);
  const urls = new Array<string>(count);
  for (let i = 0; i < count; i++) {
    const path = agentPatterns.length > 0 && random.chance(0.125) ? pathFromPattern(random, random.pick(agentPatterns)) : organicPath(random);
    urls[i] = ORIGIN + path;
  }
  return urls;
}

/** URLs joined by LF (with a final LF), as a file of URLs is read. */
export function urlBytes(urls: readonly string[]): Uint8Array {
  const buffer = Buffer.from(urls.join("\n") + "\n", "utf8");
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
}

// ---- Workloads ---------------------------------------------------------------------------------

export interface Workload {
  /** Short name: "2k", "50k", "512k", "corpus-0271", ... */
  name: string;
  kind: "generated" | "corpus";
  /** What the file is (one line). */
  description: string;
  body: Uint8Array;
  /** The body as text (robots-parser takes a string). */
  text: string;
  /** Allow/disallow lines in the file. */
  rules: number;
  /** The robots.txt URL for robots-parser (same origin as the URLs). */
  robotsUrl: string;
  urls: string[];
  /** The same URLs, LF-separated. */
  bytes: Uint8Array;
  shapes?: Record<RuleShape, number>;
}

export interface GeneratedSpec {
  name: string;
  targetBytes: number;
  seed: number;
}

/** The three generated sizes of the issue: ~2 KB, ~50 KB (~2,000 rules), ~512 KiB (~20,000 rules). */
export const GENERATED: readonly GeneratedSpec[] = [
  { name: "2k", targetBytes: 2048, seed: 0x2b0b },
  { name: "50k", targetBytes: 50 * 1024, seed: 0x50b0 },
  { name: "512k", targetBytes: 512 * 1024, seed: 0x512b },
];

const utf8 = new TextEncoder();

export function generatedWorkload(spec: GeneratedSpec, urlCount: number): Workload {
  const file = generateRobotsTxt(spec.targetBytes, spec.seed);
  const urls = generateUrls(urlCount, file.agentPatterns, spec.seed ^ 0x5eed);
  const body = utf8.encode(file.body);
  return {
    name: spec.name,
    kind: "generated",
    description: `generated, ${file.rules} rules (${file.rootWildcards} of them /*...), 7 groups`,
    body,
    text: file.body,
    rules: file.rules,
    robotsUrl: `${ORIGIN}/robots.txt`,
    urls,
    bytes: urlBytes(urls),
    shapes: file.shapes,
  };
}

// ---- Real files --------------------------------------------------------------------------------

/** Where the corpus lives: the shared one when this checkout has it, else the test fixtures. */
export function corpusDirectory(): string {
  const shared = fileURLToPath(new URL("../../shared/corpus/", import.meta.url));
  if (existsSync(`${shared}files`)) return shared;
  return fileURLToPath(new URL("../test/fixtures/corpus/", import.meta.url));
}

/** The ids of the `count` largest files of the corpus that come with a URL list. */
export function largestCorpusFiles(count: number): string[] {
  const directory = corpusDirectory();
  return readdirSync(`${directory}files`)
    .filter((name) => name.endsWith(".txt") && existsSync(`${directory}urls/${name}`))
    .map((name) => ({ id: name.slice(0, -4), size: statSync(`${directory}files/${name}`).size }))
    .sort((a, b) => b.size - a.size || a.id.localeCompare(b.id))
    .slice(0, count)
    .map((file) => file.id);
}

function countRules(text: string): number {
  return text.match(/^[ \t]*(allow|disallow)[ \t]*:/gim)?.length ?? 0;
}

/** The corpus file (with a URL list) with the most wildcard rules: the real-world hard case. */
export function mostWildcardCorpusFile(): string | undefined {
  const directory = corpusDirectory();
  let best: { id: string; wildcards: number } | undefined;
  for (const name of readdirSync(`${directory}files`).sort()) {
    if (!name.endsWith(".txt") || !existsSync(`${directory}urls/${name}`)) continue;
    const text = readFileSync(`${directory}files/${name}`, "latin1");
    const wildcards = text.match(/^[ \t]*(allow|disallow)[ \t]*:[^\n*]*\*/gim)?.length ?? 0;
    if (best === undefined || wildcards > best.wildcards) best = { id: name.slice(0, -4), wildcards };
  }
  return best?.id;
}

/** A corpus file with its URL list, repeated up to `urlCount` URLs. */
export function corpusWorkload(id: string, urlCount: number): Workload {
  const directory = corpusDirectory();
  const body = new Uint8Array(readFileSync(`${directory}files/${id}.txt`));
  const text = new TextDecoder().decode(body);
  const list = readFileSync(`${directory}urls/${id}.txt`, "utf8").split("\n").filter((line) => line.length > 0);
  const urls = Array.from({ length: urlCount }, (_, i) => list[i % list.length]!);
  const rules = countRules(text);
  const html = /<(html|!doctype)/i.test(text.slice(0, 4096));
  return {
    name: `corpus-${id}`,
    kind: "corpus",
    description: `corpus ${id}, ${rules} rules${html ? " (an HTML page served as robots.txt)" : ""}, ${list.length} URLs repeated`,
    body,
    text,
    rules,
    robotsUrl: new URL("/robots.txt", list[0] ?? ORIGIN).href,
    urls,
    bytes: urlBytes(urls),
  };
}
