// Completes dist/ after tsc: ships the release .wasm beside the JS (for users who load it
// themselves), makes the CLI entry executable, and drops the source maps of the embedded engine
// (a map of one base64 constant, whose inlined source would ship that constant twice more).
import { chmodSync, copyFileSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";

const root = new URL("../", import.meta.url);
copyFileSync(new URL("build/release.wasm", root), new URL("dist/robots.wasm", root));
chmodSync(new URL("dist/cli/main.js", root), 0o755);

const generated = new URL("dist/generated/", root);
for (const name of readdirSync(generated)) {
  const file = new URL(name, generated);
  if (name.endsWith(".js.map")) rmSync(file);
  else if (name.endsWith(".js")) writeFileSync(file, readFileSync(file, "utf8").replace(/\n\/\/# sourceMappingURL=\S+\n?$/, "\n"));
}
