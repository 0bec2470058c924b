/**
 * Where the test data lives (see test/fixtures/README.md) and how to load it.
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { readSpecification, type SpecTest } from "./textproto.js";

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const fixturesDir = join(repoRoot, "test", "fixtures");
export const conformanceDir = join(fixturesDir, "conformance");
export const corpusFixtureDir = join(fixturesDir, "corpus");
/** The shared data directory beside the repository (`../shared`), present in the project's CI. */
export const sharedCorpusDir = resolve(repoRoot, "..", "shared", "corpus");

export interface SpecFile {
  /** File name, e.g. `BOM-characters.textproto`. */
  file: string;
  tests: SpecTest[];
}

/** The compliance suite's files, sorted by name. */
export function loadConformance(dir: string = conformanceDir): SpecFile[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith(".textproto"))
    .sort()
    .map((file) => ({ file, tests: readSpecification(readFileSync(join(dir, file))) }));
}

export interface CorpusEntry {
  id: string;
  repo: string;
  path: string;
  bytes: number;
  notes: string;
  sha256: string;
  /** Directory holding `files/` and `urls/` for this entry. */
  dir: string;
}

/** Rows of `manifest.tsv` in `dir`; empty when the directory does not exist. */
export function readManifest(dir: string): CorpusEntry[] {
  const manifest = join(dir, "manifest.tsv");
  if (!existsSync(manifest)) return [];
  const [header, ...rows] = readFileSync(manifest, "utf8").split("\n").filter((row) => row !== "");
  if (header !== "id\trepo\tpath\tcommit\tbytes\tnotes\tsha256") throw new Error(`unexpected manifest header in ${manifest}`);
  return rows.map((row) => {
    const [id, repo, path, , bytes, notes, sha256] = row.split("\t");
    return { id, repo, path, bytes: Number(bytes), notes, sha256, dir };
  });
}

/**
 * Every corpus file the tests can see: the fixtures copy, plus the shared corpus when it exists
 * (it holds the large files the fixtures leave out). One entry per id; the shared copy wins.
 */
export function corpusEntries(): CorpusEntry[] {
  const byId = new Map<string, CorpusEntry>();
  for (const entry of readManifest(corpusFixtureDir)) byId.set(entry.id, entry);
  for (const entry of readManifest(sharedCorpusDir)) byId.set(entry.id, entry);
  return [...byId.values()].sort((a, b) => a.id.localeCompare(b.id));
}

export function corpusBody(entry: CorpusEntry): Uint8Array {
  return new Uint8Array(readFileSync(join(entry.dir, "files", `${entry.id}.txt`)));
}

/** The URL list of a corpus file as raw bytes (one URL per line, LF). */
export function corpusUrlBytes(entry: CorpusEntry): Uint8Array {
  return new Uint8Array(readFileSync(join(entry.dir, "urls", `${entry.id}.txt`)));
}
