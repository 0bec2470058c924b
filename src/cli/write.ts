/** Writing a command's output to a stream that may be slower than the command, or closed by its reader. */
import type { Writable } from "node:stream";

/**
 * Writes and waits when the destination asks for it, so memory stays flat on slow pipes. A
 * destination closed meanwhile (a reader that stopped early: EPIPE) never drains: the wait ends
 * with its close or error too, and later writes go nowhere (main.ts answers for the closed pipe).
 */
export function write(out: Writable, data: Uint8Array | string): Promise<void> | undefined {
  if (out.destroyed) return undefined;
  if (out.write(data)) return undefined;
  return new Promise((resolve) => {
    const done = () => {
      out.off("drain", done);
      out.off("close", done);
      out.off("error", done);
      resolve();
    };
    out.once("drain", done);
    out.once("close", done);
    out.once("error", done);
  });
}

/**
 * Writes output made in pieces, waiting for the stream to drain between them: a report of
 * millions of findings, or a page of millions of tags, is never one string (V8 stops at about
 * 512 MB: `robots meta --json` on a 100 MB page and `robots lint` on a 30 MB file failed there).
 * It stops at a closed destination, so that the command still ends with its own status.
 */
export async function writePieces(out: Writable, pieces: Iterable<string>): Promise<void> {
  for (const piece of pieces) {
    if (out.destroyed) return;
    await write(out, piece);
  }
}
