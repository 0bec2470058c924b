/**
 * Writes the generated workloads to bench/.work/ (git-ignored), to look at or to feed the CLI:
 *
 *   npx vite-node bench/generate.ts            # 1,000,000 URLs per file; BENCH_URLS=N for fewer
 *   node dist/cli/main.js check --robots bench/.work/512k.robots.txt --agent Googlebot --max-bytes Infinity --count bench/.work/512k.urls.txt
 *
 * The benchmark itself does not read these files: it generates the same bytes in memory.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { GENERATED, generatedWorkload } from "./workloads.js";

const URL_COUNT = Number(process.env.BENCH_URLS ?? 1_000_000);
const directory = fileURLToPath(new URL("./.work/", import.meta.url));
mkdirSync(directory, { recursive: true });
for (const spec of GENERATED) {
  const workload = generatedWorkload(spec, URL_COUNT);
  writeFileSync(`${directory}${spec.name}.robots.txt`, workload.body);
  writeFileSync(`${directory}${spec.name}.urls.txt`, workload.bytes);
  console.log(`bench/.work/${spec.name}.robots.txt: ${workload.description}, ${workload.body.length} bytes; ${spec.name}.urls.txt: ${workload.urls.length} URLs`);
}
