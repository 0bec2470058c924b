// Writes test/fixtures/hash-flood/ (see test/support/hash-flood.ts): npx vite-node scripts/write-hash-flood.ts
import { writeFileSync } from "node:fs";
import { FLOOD_BITS, FLOOD_COUNT, FLOOD_LEADS, findFlood, findQuadFlood, QUAD_FLOOD_BITS, QUAD_FLOOD_COUNT } from "../test/support/hash-flood.js";

for (const [name, lead] of Object.entries(FLOOD_LEADS)) {
  const letters = findFlood(lead, FLOOD_COUNT, FLOOD_BITS);
  writeFileSync(new URL(`../test/fixtures/hash-flood/${name}.txt`, import.meta.url), `${letters.join("\n")}\n`);
}
const quads = findQuadFlood(QUAD_FLOOD_COUNT, QUAD_FLOOD_BITS);
writeFileSync(new URL("../test/fixtures/hash-flood/quads.txt", import.meta.url), `${quads.join("\n")}\n`);
