/** A matcher for a RobotsError with the given code (and, if given, a message matching `message`). */
import { expect } from "vitest";
import type { RobotsErrorCode } from "../../src/index.js";

export function withCode(code: string, message?: RegExp) {
  return expect.objectContaining({ name: "RobotsError", code, ...(message === undefined ? {} : { message: expect.stringMatching(message) }) });
}

/**
 * The code of the RobotsError `run` throws, or undefined when it returns; any other error is
 * rethrown. Told by its name, as withCode does: suites that load dist/ have another class.
 */
export function codeOf(run: () => unknown): RobotsErrorCode | undefined {
  try {
    run();
  } catch (error) {
    if ((error as Error)?.name === "RobotsError") return (error as { code: RobotsErrorCode }).code;
    throw error;
  }
  return undefined;
}
