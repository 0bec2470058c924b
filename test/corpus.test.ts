/**
 * Real-world corpus (test/fixtures/corpus, plus ../shared/corpus when it exists; see
 * test/fixtures/README.md): every file compiles under the default size limit and with no limit,
 * and on every URL of its list each WASM build gives the same verdict and matching line as the
 * reference (batch API on the raw URL list and on strings, for the file's own agent; a second
 * agent query alternates between a multi-agent query and an unknown agent), the same explanation
 * (line, rule kind, pattern, group; `explain` on a sample of URLs), and the same sitemaps,
 * records, lines, input metadata and crawl-delays (five agent queries), in both profiles.
 *
 * The reference is the slow side (it answers one URL at a time); the budget is about 40 s for the
 * 374 files on a 2-CPU machine.
 *
 * Mismatches are collected and reported with file id, profile, size limit, agent, URL and both
 * answers.
 */
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { AgentQuery, BatchResult, ParseOptions, Profile, RobotsTxt } from "../src/types.js";
import { corpusBody, corpusEntries, corpusFixtureDir, corpusUrlBytes, readManifest, sharedCorpusDir, type CorpusEntry } from "./support/fixtures.js";
import { reference, wasmImplementations } from "./support/implementations.js";

const PROFILES: readonly Profile[] = ["google", "rfc9309"];
const DEFAULT_LIMIT = 512_000;
/** URLs per file, per profile and limit, that also go through `explain` (the batch covers all). */
const EXPLAIN_SAMPLE = 30;
/** Cap on reported mismatches per file, so that one broken file does not flood the output. */
const REPORT_LIMIT = 25;

const entries = corpusEntries();
const sharedPresent = existsSync(sharedCorpusDir);
const latin1 = new TextDecoder("latin1");
const utf8 = new TextDecoder("utf-8", { fatal: true });

/** The first agent named in the file (letters, `_` and `-` only), else a common one. */
function fileAgent(body: Uint8Array): string {
  const match = /^[ \t]*user-?agent[ \t]*:[ \t]*([A-Za-z_-]+)/im.exec(latin1.decode(body));
  return match?.[1] ?? "bingbot";
}

/** URL list as strings: one per LF-terminated line (the lists are UTF-8, LF, with a final LF). */
function urlList(bytes: Uint8Array): string[] {
  const lines = utf8.decode(bytes).split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

function sampleIndexes(count: number): number[] {
  const step = Math.max(1, Math.ceil(count / EXPLAIN_SAMPLE));
  const out: number[] = [];
  for (let i = 0; i < count; i += step) out.push(i);
  if (count > 0 && out[out.length - 1] !== count - 1) out.push(count - 1);
  return out;
}

const show = (value: unknown) => JSON.stringify(value);

function compareBatches(report: (what: string) => void, urls: readonly string[], name: string, got: BatchResult, want: BatchResult): void {
  if (got.allowed.length !== want.allowed.length || got.lines.length !== want.lines.length) {
    report(`${name}: batch length ${got.allowed.length}/${got.lines.length}, reference ${want.allowed.length}/${want.lines.length}`);
    return;
  }
  for (let i = 0; i < urls.length; i++) {
    if (got.allowed[i] !== want.allowed[i] || got.lines[i] !== want.lines[i]) {
      report(
        `url=${show(urls[i])}: ${name} allowed=${got.allowed[i]} line=${got.lines[i]}, reference allowed=${want.allowed[i]} line=${want.lines[i]}`,
      );
    }
  }
}

describe("corpus: the files", () => {
  it("the fixtures hold the 367 files under 150,000 bytes; with ../shared present all 374 are tested", () => {
    const fixtures = readManifest(corpusFixtureDir);
    expect(fixtures).toHaveLength(367);
    expect(fixtures.every((entry) => entry.bytes < 150_000)).toBe(true);
    expect(entries).toHaveLength(sharedPresent ? 374 : 367);
  });

  it("every file matches the size and SHA-256 of its manifest row, and has a URL list", () => {
    const bad: string[] = [];
    for (const entry of [...readManifest(corpusFixtureDir), ...readManifest(sharedCorpusDir)]) {
      const body = corpusBody(entry);
      const sha = createHash("sha256").update(body).digest("hex");
      if (body.length !== entry.bytes || sha !== entry.sha256) bad.push(`${entry.dir} ${entry.id}: ${body.length} bytes, sha256 ${sha}`);
      const urls = urlList(corpusUrlBytes(entry));
      if (urls.length < 50 || urls.length > 200) bad.push(`${entry.dir} ${entry.id}: ${urls.length} URLs`);
    }
    expect(bad).toEqual([]);
  });
});

describe.each(entries.map((entry, index) => [`${entry.id} (${entry.repo}, ${entry.bytes} bytes)`, entry, index] as const))(
  "corpus %s",
  (_name, entry: CorpusEntry, index: number) => {
    it("compiles under the default limit and with no limit; every WASM build agrees with the reference", async () => {
      const body = corpusBody(entry);
      const urlBytes = corpusUrlBytes(entry);
      const urls = urlList(urlBytes);
      // The file's own agent (its group, or the global one), and in turn a multi-agent query and an
      // unknown agent (the global group). The reference is the slow side, so the second agent runs
      // on every URL in the google profile and on the explain sample in rfc9309.
      const second: AgentQuery = index % 2 === 0 ? ["Googlebot-News", "Googlebot"] : "SomeRandomBot";
      const agents: AgentQuery[] = [fileAgent(body), second];
      const sample = sampleIndexes(urls.length);
      const sampleUrls = sample.map((i) => urls[i]);
      const mismatches: string[] = [];
      let total = 0;
      const limits = body.length > DEFAULT_LIMIT ? [DEFAULT_LIMIT, Infinity] : [DEFAULT_LIMIT];

      for (const profile of PROFILES) {
        for (const maxBytes of limits) {
          const options: ParseOptions = { profile, maxBytes };
          const where = `${entry.id} ${profile} maxBytes=${maxBytes}`;
          const report = (what: string) => {
            total++;
            if (mismatches.length < REPORT_LIMIT) mismatches.push(`${where} ${what}`);
          };

          const want = reference.parse(body, options);
          // Per agent: the URLs compared in bulk (bytes as read from the list, or the sample as strings).
          const bulk = agents.map((_agent, a) => (a === 0 || profile === "google" ? urlBytes : sampleUrls));
          const bulkUrls = bulk.map((batch) => (batch instanceof Uint8Array ? urls : sampleUrls));
          const wantBatches = agents.map((agent, a) => want.classifyWithLines(bulk[a], agent));
          const wantExplained = sample.map((i) => want.explain(urls[i], agents[0]));
          expect(wantBatches[0].allowed.length, `${where}: one verdict per URL`).toBe(urls.length);
          // The reference's own batch and explain agree on the sample.
          sample.forEach((i, k) => {
            const explanation = wantExplained[k];
            if (explanation.line !== wantBatches[0].lines[i] || (explanation.allowed ? 1 : 0) !== wantBatches[0].allowed[i]) {
              report(`url=${show(urls[i])}: reference explain ${show(explanation)} vs its batch line ${wantBatches[0].lines[i]}`);
            }
          });

          for (const impl of wasmImplementations) {
            const got = impl.parse(body, options);
            const name = impl.name;
            agents.forEach((agent, a) => {
              const reportAgent = (what: string) => report(`agent=${show(agent)} ${what}`);
              compareBatches(reportAgent, bulkUrls[a], name, got.classifyWithLines(bulk[a], agent), wantBatches[a]);
              // Verdicts alone take another way out of the engine (a verdict per rank, no rule fields).
              const verdicts = got.classify(bulk[a], agent);
              const wrong = wantBatches[a].allowed.findIndex((allowed, i) => verdicts[i] !== allowed);
              if (verdicts.length !== wantBatches[a].allowed.length || wrong >= 0) {
                reportAgent(`${name} classify: ${verdicts.length} verdicts, first differing at ${wrong} (${show(bulkUrls[a][wrong])})`);
              }
              if (a !== 0) return;
              compareBatches(reportAgent, urls, `${name} string[]`, got.classifyWithLines(urls, agent), wantBatches[a]);
              sample.forEach((i, k) => {
                const mine = normalize(got.explain(urls[i], agent));
                const theirs = normalize(wantExplained[k]);
                if (show(mine) !== show(theirs)) reportAgent(`url=${show(urls[i])}: ${name} explain ${show(mine)}, reference ${show(theirs)}`);
              });
            });
            for (const agent of [...agents, "*", "Googlebot", ""]) {
              const mine = got.crawlDelay(agent);
              const theirs = want.crawlDelay(agent);
              if (mine !== theirs) report(`crawlDelay(${show(agent)}): ${name} ${mine}, reference ${theirs}`);
            }
            for (const field of ["sitemaps", "records", "lines", "input"] as const) {
              const difference = firstDifference(got[field], want[field]);
              if (difference !== undefined) report(`${field}${difference.at}: ${name} ${difference.mine}, reference ${difference.theirs}`);
            }
            got.dispose();
          }

          if (maxBytes === DEFAULT_LIMIT) {
            expect(want.input.truncated, where).toBe(body.length > DEFAULT_LIMIT);
            if (body.length <= DEFAULT_LIMIT) {
              // No limit reads the same bytes: it must compile and read the same lines.
              for (const impl of [reference, ...wasmImplementations]) {
                const unlimited = impl.parse(body, { profile, maxBytes: Infinity });
                if (show(unlimited.lines) !== show(want.lines) || show(unlimited.input) !== show(want.input)) {
                  report(`${impl.name} with maxBytes=Infinity reads differently from the default limit`);
                }
                unlimited.dispose();
              }
            }
          } else {
            expect(want.input.truncated, where).toBe(false);
          }
          want.dispose();
        }
      }
      expect(total === 0 ? [] : [`${total} mismatches`, ...mismatches]).toEqual([]);
    });
  },
);

/** Explanations compared field by field (key order does not matter; an absent rule equals undefined). */
function normalize(explanation: ReturnType<RobotsTxt["explain"]>) {
  const { allowed, line, rule } = explanation;
  return { allowed, line, rule: rule === undefined ? null : { kind: rule.kind, pattern: rule.pattern, group: rule.group } };
}

/** Where two values first differ (array index, if both are arrays), with both sides, or undefined. */
function firstDifference(mine: unknown, theirs: unknown): { at: string; mine: string; theirs: string } | undefined {
  if (show(mine) === show(theirs)) return undefined;
  if (Array.isArray(mine) && Array.isArray(theirs)) {
    const length = Math.max(mine.length, theirs.length);
    for (let i = 0; i < length; i++) {
      if (show(mine[i]) !== show(theirs[i])) {
        return { at: `[${i}] (lengths ${mine.length}, ${theirs.length})`, mine: String(show(mine[i])), theirs: String(show(theirs[i])) };
      }
    }
  }
  return { at: "", mine: show(mine).slice(0, 400), theirs: show(theirs).slice(0, 400) };
}
