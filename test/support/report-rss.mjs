// Preloaded into a CLI child by the streaming test (`node --import`): writes the process's peak
// resident set size in kilobytes to the file named by ROBOTS_TEST_RSS_FILE when it exits.
import { writeFileSync } from "node:fs";

process.on("exit", () => {
  writeFileSync(process.env.ROBOTS_TEST_RSS_FILE, String(process.resourceUsage().maxRSS));
});
