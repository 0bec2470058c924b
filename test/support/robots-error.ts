/** A matcher for a RobotsError with the given code (and, if given, a message matching `message`). */
import { expect } from "vitest";

export function withCode(code: string, message?: RegExp) {
  return expect.objectContaining({ name: "RobotsError", code, ...(message === undefined ? {} : { message: expect.stringMatching(message) }) });
}
