import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    setupFiles: ["test/support/yield-between-tests.ts"],
    // Property and corpus suites run thousands of cases against three implementations.
    testTimeout: 180_000,
    hookTimeout: 60_000,
  },
});
