/** `robots meta`: what a page's robots meta tags and X-Robots-Tag headers allow a crawler. */
import { parseArgs } from "node:util";
import { xRobotsTagFromLine } from "../directives/headers.js";
import { IndexingDirectives, init, MAX_PAGE_BYTES, parseDirectiveDate, type DirectivePolicy, type DirectiveResolution, type DirectiveSource } from "../index.js";
import { COMMON_OPTIONS, parseCommand, readAtMost } from "./args.js";
import { CliError } from "./cli-error.js";
import { jsonPieces, printable, printableDeep } from "./format.js";
import { writePieces } from "./write.js";

export const META_HELP = `Usage: robots meta FILE.html --agent NAME [options]

Reads the robots meta tags of an HTML page (FILE, or "-" for standard input) and any X-Robots-Tag
headers given, and prints what they allow the agent: index, follow, snippet, previews, image
index, translate, archive, unavailable_after, AI opt-outs, with the directive and source behind
each restriction; then obsolete, unknown, invalid and ignored directives.

Options:
  --agent NAME        The crawler's name (required; repeat to merge groups, e.g. googlebot-news and googlebot)
  --header LINE       A response header "X-Robots-Tag: VALUE" (repeatable, in order; the name in
                      any case, with or without spaces around it)
  --policy NAME       google (default), bing, yandex or specific-overrides-generic
  --now DATE          The time unavailable_after is compared with, and two-digit years read near
                      (ISO 8601 or RFC 822; without an offset, UTC; default: now)
  --encoding LABEL    The page's encoding from Content-Type (over the page's own <meta charset>; a BOM wins)
  --json              Print the resolution, the meta tags, the header values and the page's
                      input (bytes, encoding, BOM) as JSON
  -h, --help          Show this help

Examples:
  robots meta page.html --agent googlebot
  robots meta page.html --agent bingbot --policy bing --header "X-Robots-Tag: bingbot: noarchive" --json
`;

const POLICIES: readonly string[] = ["google", "bing", "yandex", "specific-overrides-generic"];

interface MetaOptions {
  file: string;
  agents: string[];
  headers: string[];
  policy: DirectivePolicy;
  now: number | undefined;
  encoding: string | undefined;
  json: boolean;
}

function parseMetaArgs(args: string[]): MetaOptions | "help" {
  const { values, positionals } = parseCommand("meta", () =>
    parseArgs({
      args,
      allowPositionals: true,
      options: {
        agent: { type: "string", multiple: true },
        header: { type: "string", multiple: true },
        policy: { type: "string", default: "google" },
        now: { type: "string" },
        encoding: { type: "string" },
        json: { type: "boolean", default: false },
        ...COMMON_OPTIONS,
      },
    }),
  );
  if (values.help) return "help";
  if (positionals.length !== 1) throw new CliError(`meta: one HTML file is required (or "-" for standard input), got ${positionals.length}`);
  if (values.agent === undefined || values.agent.length === 0) throw new CliError("meta: --agent NAME is required");
  if (!POLICIES.includes(values.policy)) throw new CliError(`meta: --policy must be one of ${POLICIES.join(", ")}, got "${values.policy}"`);
  const headers = (values.header ?? []).map((line) => {
    const value = xRobotsTagFromLine(line);
    if (value === undefined) throw new CliError(`meta: --header must be "X-Robots-Tag: VALUE", got "${line}"`);
    return value;
  });
  let now: number | undefined;
  if (values.now !== undefined) {
    // Read as the pages' dates are (a date-time without an offset is UTC), not by Date.parse,
    // which would read one in the machine's time zone.
    now = parseDirectiveDate(values.now)?.getTime();
    if (now === undefined) throw new CliError(`meta: --now must be a date as unavailable_after takes them (ISO 8601, RFC 822), got "${values.now}"`);
  }
  return {
    file: positionals[0]!,
    agents: values.agent,
    headers,
    policy: values.policy as DirectivePolicy,
    now,
    encoding: values.encoding,
    json: values.json,
  };
}


function readPage(file: string): Buffer {
  let read: { bytes: Buffer; complete: boolean };
  try {
    read = readAtMost(file, MAX_PAGE_BYTES);
  } catch (error) {
    throw new CliError(`meta: cannot read ${printable(JSON.stringify(file))}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  if (!read.complete) process.stderr.write(`robots meta: read the first ${MAX_PAGE_BYTES} bytes of the page; the rest is not read\n`);
  return read.bytes;
}

/** Where a directive was read; a tag's offset is in the UTF-8 text when the page was `transcoded` (UTF-16, ISO-2022-JP). */
function describeSource(source: DirectiveSource, transcoded: boolean): string {
  if (source.type === "header") return `X-Robots-Tag #${source.header + 1}`;
  const place = [source.inHead ? "head" : "body", ...(source.inNoscript ? ["noscript"] : [])].join(", ");
  return `meta "${source.name}" at byte ${source.offset}${transcoded ? " of the page as UTF-8" : ""} (${place})`;
}

const yesNo = (value: boolean) => (value ? "yes" : "no");

/** The resolution as aligned text: one line per answer, its causes beside it. */
function formatResolution(r: DirectiveResolution, transcoded: boolean): string {
  const where = (source: DirectiveSource) => describeSource(source, transcoded);
  const causes = (field: string) =>
    r.restrictions.filter((x) => x.field === field).map((x) => `${x.directive.text} [${where(x.directive.source)}]`).join("; ");
  const rows: [string, string, string][] = [
    ["index", yesNo(r.index), causes("index")],
    ["follow", yesNo(r.follow), causes("follow")],
    ["snippet", yesNo(r.snippet), causes("snippet")],
    ["max-snippet", r.maxSnippet === null ? "unlimited" : String(r.maxSnippet), causes("maxSnippet")],
    ["max-image-preview", r.maxImagePreview, causes("maxImagePreview")],
    ["max-video-preview", r.maxVideoPreview === null ? "unlimited" : String(r.maxVideoPreview), causes("maxVideoPreview")],
    ["image-index", yesNo(r.imageIndex), causes("imageIndex")],
    ["translate", yesNo(r.translate), causes("translate")],
    ["archive", yesNo(r.archive), causes("archive")],
    ["index-if-embedded", yesNo(r.indexIfEmbedded), ""],
    ["unavailable-after", r.unavailableAfter === null ? "none" : `${r.unavailableAfter.toISOString()}${r.expired ? " (expired)" : ""}`, causes("unavailableAfter")],
    ["ai", r.ai.directives.length === 0 ? "none" : [...new Set(r.ai.directives.map((d) => d.name))].join(", "), ""],
  ];
  const notes: [string, string][] = [
    ...r.obsolete.map((d) => ["obsolete", `${d.text} [${where(d.source)}]`] as [string, string]),
    ...r.unknown.map((d) => ["unknown", `${d.text} [${where(d.source)}]`] as [string, string]),
    ...r.invalid.map((d) => ["invalid", `${d.text} (${d.problem}) [${where(d.source)}]`] as [string, string]),
    ...r.ignored.map((i) => ["ignored", `${i.directive.text} (${i.reason}) [${where(i.directive.source)}]`] as [string, string]),
  ];
  // The lists above are bounded (IndexingDirectives keeps a directive once, and so many unknown and
  // invalid elements); say how much they leave out rather than let a long list pass for a short one.
  const { directives, unknown, invalid } = r.omitted;
  const left = [[unknown, "unknown"], [invalid, "invalid"], [directives, directives === 1 ? "repeated directive" : "repeated directives"]] as const;
  const omitted = left.filter(([count]) => count > 0).map(([count, what]) => `${count} ${what}`);
  if (omitted.length > 0) notes.push(["omitted", `${omitted.join(", ")} (not listed)`]);
  const valueWidth = Math.max(...rows.map(([, value]) => value.length));
  const lines = [`agents: ${r.agents.join(", ")}; policy: ${r.policy}`];
  for (const [field, value, cause] of rows) lines.push(`${field.padEnd(18)}${cause ? `${value.padEnd(valueWidth)}  ${cause}` : value}`);
  for (const [kind, text] of notes) lines.push(`${kind.padEnd(18)}${text}`);
  return `${lines.join("\n")}\n`;
}

export async function runMeta(args: string[]): Promise<number> {
  const options = parseMetaArgs(args);
  if (options === "help") {
    process.stdout.write(META_HELP);
    return 0;
  }
  const html = readPage(options.file);
  await init();
  // --now is also when the page was received: two-digit years are read near it.
  const page = IndexingDirectives.parse({ html, headers: options.headers }, { encoding: options.encoding, now: options.now });
  const resolution = page.resolve(options.agents, { policy: options.policy, now: options.now });
  if (options.json) {
    await writePieces(process.stdout, jsonPieces({ resolution, metaTags: page.metaTags, headerValues: page.headerValues, input: page.input }));
  } else {
    process.stdout.write(formatResolution(printableDeep(resolution), page.input?.transcoded === true));
  }
  return 0;
}
