/** Writing a command's output to a stream that may be slower than the command. */
import type { Writable } from "node:stream";

/** Writes and waits when the destination asks for it, so memory stays flat on slow pipes. */
export function write(out: Writable, data: Uint8Array | string): Promise<void> | undefined {
  if (out.write(data)) return undefined;
  return new Promise((resolve) => out.once("drain", resolve));
}

/**
 * Writes output made in pieces, waiting for the stream to drain between them: a report of
 * millions of findings, or a page of millions of tags, is never one string (V8 stops at about
 * 512 MB: `robots meta --json` on a 100 MB page and `robots lint` on a 30 MB file failed there).
 */
export async function writePieces(out: Writable, pieces: Iterable<string>): Promise<void> {
  for (const piece of pieces) await write(out, piece);
}
