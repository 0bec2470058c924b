/**
 * URL batches given as bytes (decision 27).
 */
import { bytesToBinary, type ByteString } from "./bytes.js";

/**
 * One URL per line: split at LF, one trailing CR removed per line, no entry after a final LF.
 * Empty lines are URLs (path `/`). An empty batch has no URLs.
 */
export function splitUrlBatch(bytes: Uint8Array): ByteString[] {
  const text = bytesToBinary(bytes);
  const urls: ByteString[] = [];
  let start = 0;
  while (start < text.length) {
    const lf = text.indexOf("\n", start);
    const end = lf === -1 ? text.length : lf;
    const line = text.slice(start, end);
    urls.push(line.endsWith("\r") ? line.slice(0, -1) : line);
    start = end + 1;
  }
  return urls;
}
