/**
 * forEachLimited (src/pool.ts), which RobotsCache.classify uses to fetch several origins at once:
 * at most `limit` items run together, every item runs when none fails, and after a failure no new
 * item starts and the first failure is the answer.
 */
import { describe, expect, it } from "vitest";
import { forEachLimited } from "../src/pool.js";

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("forEachLimited", () => {
  it("runs every item, never more than `limit` at once", async () => {
    let running = 0;
    let most = 0;
    const done: number[] = [];
    await forEachLimited([1, 2, 3, 4, 5, 6, 7], 3, async (item) => {
      running++;
      most = Math.max(most, running);
      await pause(item % 3);
      running--;
      done.push(item);
    });
    expect(most).toBe(3);
    expect(done.sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it("starts no new item after a failure, and rejects with the first failure", async () => {
    const started: number[] = [];
    const run = forEachLimited([1, 2, 3, 4, 5], 2, async (item) => {
      started.push(item);
      if (item === 1) throw new Error("first");
      await pause(20);
      if (item === 4) throw new Error("later");
    });
    await expect(run).rejects.toThrow("first");
    // Item 2 was already running; it finishes without starting 3, 4 or 5.
    await pause(40);
    expect(started).toEqual([1, 2]);
  });

  it("resolves at once for no items", async () => {
    await expect(forEachLimited([], 4, async () => {})).resolves.toBeUndefined();
  });
});
