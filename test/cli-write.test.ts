/** The CLI's writes to a stream slower than the command (src/cli/write.ts). */
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { writePieces } from "../src/cli/write.js";

/** A destination that takes a piece per turn of the event loop and asks for a wait after every write. */
function slowDestination(): Writable & { received: string[] } {
  const received: string[] = [];
  const out = new Writable({
    highWaterMark: 1,
    write(chunk: Buffer, _encoding, callback) {
      received.push(chunk.toString());
      setImmediate(callback);
    },
  });
  return Object.assign(out, { received });
}

describe("writePieces", () => {
  it("waits for each drain and leaves no listener behind (a thousand waits: no MaxListenersExceededWarning)", async () => {
    const out = slowDestination();
    const before = ["drain", "close", "error"].map((event) => out.listenerCount(event));
    const pieces = Array.from({ length: 1000 }, (_, i) => `piece ${i}\n`);
    await writePieces(out, pieces);
    expect(["drain", "close", "error"].map((event) => out.listenerCount(event))).toEqual(before);
    await new Promise<void>((resolve) => out.end(resolve));
    expect(out.received.join("")).toBe(pieces.join(""));
  });

  it("ends the wait it is in when the destination is destroyed meanwhile (a reader gone: it never drains), and stops", async () => {
    const received: string[] = [];
    const out = new Writable({
      highWaterMark: 1,
      write(chunk: Buffer, _encoding, callback) {
        received.push(chunk.toString());
        // The tenth piece is never taken: the destination closes while writePieces waits for a drain.
        if (received.length === 10) setImmediate(() => out.destroy());
        else setImmediate(callback);
      },
    });
    let given = 0;
    function* pieces() {
      for (let i = 0; i < 1000; i++) {
        given++;
        yield `piece ${i}\n`;
      }
    }
    await writePieces(out, pieces());
    // The piece after the wait is taken from the generator, then not written.
    expect([received.length, given]).toEqual([10, 11]);
  });
});
