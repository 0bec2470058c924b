// Empties dist/ before tsc writes it: dist/ is what npm publishes, and a module left by an older
// build (a source file since renamed or removed) would otherwise ship with the new one.
import { rmSync } from "node:fs";

rmSync(new URL("../dist/", import.meta.url), { recursive: true, force: true });
