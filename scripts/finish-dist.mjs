// Completes dist/ after tsc: ships the release .wasm beside the JS (for users who load it
// themselves) and makes the CLI entry executable.
import { chmodSync, copyFileSync } from "node:fs";

const root = new URL("../", import.meta.url);
copyFileSync(new URL("build/release.wasm", root), new URL("dist/robots.wasm", root));
chmodSync(new URL("dist/cli/main.js", root), 0o755);
