#!/usr/bin/env node
// Copies the test data the suites need from the shared data directory into test/fixtures/, so
// that `npm test` works on a fresh clone without ../shared. Data only: the READMEs beside the
// copies are written by hand (they carry the provenance) and this script never touches them.
//
//   node scripts/copy-fixtures.mjs [shared-dir]     (default: ../shared beside the repository)
//
// Re-runnable: the copied directories are emptied first, so a re-run gives the same tree.
//
// - test/fixtures/conformance/: the 16 *.textproto files of Google's compliance suite + LICENSE.
// - test/fixtures/corpus/: every corpus file smaller than CORPUS_SIZE_LIMIT bytes (files/NNNN.txt),
//   its URL list (urls/NNNN.txt) and its manifest row (manifest.tsv, header kept, source order).
//   The larger files stay in the shared directory only; test/corpus.test.ts reads them from
//   there when it exists.

import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** Corpus files at or above this size are left out of the repository (they are 155 KB to 3.7 MB). */
const CORPUS_SIZE_LIMIT = 150_000;

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const shared = resolve(process.argv[2] ?? join(repo, "..", "shared"));
const fixtures = join(repo, "test", "fixtures");

if (!existsSync(shared)) {
  console.error(`shared data directory not found: ${shared}`);
  process.exit(1);
}

function copy(from, to) {
  mkdirSync(dirname(to), { recursive: true });
  // read + write (not copyFile) so that read-only source permissions are not carried over.
  writeFileSync(to, readFileSync(from));
}

function emptyDir(dir) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
}

// --- conformance -------------------------------------------------------------------------------
const specSource = join(shared, "conformance", "google-spec-test");
const specTarget = join(fixtures, "conformance");
mkdirSync(specTarget, { recursive: true });
for (const name of readdirSync(specTarget)) {
  if (name.endsWith(".textproto") || name === "LICENSE") rmSync(join(specTarget, name));
}
const specFiles = readdirSync(specSource).filter((name) => name.endsWith(".textproto")).sort();
for (const name of [...specFiles, "LICENSE"]) copy(join(specSource, name), join(specTarget, name));
console.log(`conformance: ${specFiles.length} textproto files + LICENSE -> ${specTarget}`);

// --- corpus ------------------------------------------------------------------------------------
const corpusSource = join(shared, "corpus");
const corpusTarget = join(fixtures, "corpus");
emptyDir(join(corpusTarget, "files"));
emptyDir(join(corpusTarget, "urls"));

const [header, ...rows] = readFileSync(join(corpusSource, "manifest.tsv"), "utf8").split("\n").filter((row) => row !== "");
const kept = [];
const left = [];
for (const row of rows) {
  const [id, , , , bytes, , sha256] = row.split("\t");
  const body = readFileSync(join(corpusSource, "files", `${id}.txt`));
  if (body.length !== Number(bytes)) throw new Error(`corpus ${id}: manifest says ${bytes} bytes, file has ${body.length}`);
  if (createHash("sha256").update(body).digest("hex") !== sha256) throw new Error(`corpus ${id}: sha256 differs from the manifest`);
  if (body.length >= CORPUS_SIZE_LIMIT) {
    left.push(`${id} (${body.length} bytes)`);
    continue;
  }
  copy(join(corpusSource, "files", `${id}.txt`), join(corpusTarget, "files", `${id}.txt`));
  copy(join(corpusSource, "urls", `${id}.txt`), join(corpusTarget, "urls", `${id}.txt`));
  kept.push(row);
}
writeFileSync(join(corpusTarget, "manifest.tsv"), [header, ...kept].join("\n") + "\n");
console.log(`corpus: ${kept.length} files copied, ${left.length} left out (>= ${CORPUS_SIZE_LIMIT} bytes): ${left.join(", ")}`);
