/**
 * Lets the worker's event loop turn between tests. Many suites here are long runs of synchronous
 * work (property rounds, corpus files, spawnSync); without a macrotask between tests, the worker
 * never reads vitest's progress-report replies and fails the run with "Timeout calling
 * onTaskUpdate" even though every test passed.
 */
import { beforeEach } from "vitest";

beforeEach(() => new Promise<void>((resolve) => setImmediate(resolve)));
