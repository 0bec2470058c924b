/**
 * The progress line of `robots check` on standard error: URLs, URLs/s and, when the input size is
 * known, a bar and the time left. Drawn only on a terminal that takes its escape codes (not
 * TERM=dumb); redrawn at most every 100 ms, within the terminal's width.
 */
import type { Writable } from "node:stream";
import { grouped, plural } from "./format.js";

const REDRAW_MS = 100;
const BAR_WIDTH = 20;

function duration(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  const minutes = Math.floor(whole / 60);
  return minutes > 0 ? `${minutes}m${String(whole % 60).padStart(2, "0")}s` : `${whole}s`;
}

export class Progress {
  readonly #out: Writable;
  /** Bytes of input, when known (a file, or standard input redirected from one). */
  readonly #totalBytes: number | undefined;
  readonly #started = performance.now();
  #lastDraw = -Infinity;
  #drawn = false;

  constructor(out: Writable, totalBytes: number | undefined) {
    this.#out = out;
    this.#totalBytes = totalBytes;
  }

  update(urls: number, bytesRead: number): void {
    const now = performance.now();
    if (now - this.#lastDraw < REDRAW_MS) return;
    this.#lastDraw = now;
    const seconds = (now - this.#started) / 1000;
    const rate = seconds > 0 ? Math.round(urls / seconds) : 0;
    let line = `robots check: ${plural(urls, "URL")}, ${grouped(rate)} URLs/s`;
    const total = this.#totalBytes;
    if (total !== undefined && total > 0) {
      const done = Math.min(1, bytesRead / total);
      const filled = Math.round(done * BAR_WIDTH);
      const left = done > 0 ? (seconds / done) * (1 - done) : undefined;
      line += ` [${"#".repeat(filled)}${".".repeat(BAR_WIDTH - filled)}] ${Math.floor(done * 100)}%`;
      if (left !== undefined) line += `, ETA ${duration(left)}`;
    }
    // Cut to the terminal's width: a line that wraps is not redrawn in place, and leaves a copy
    // behind at each redraw.
    const columns = (this.#out as { columns?: number }).columns;
    if (columns !== undefined && columns > 1 && line.length >= columns) line = line.slice(0, columns - 1);
    this.#out.write(`\r\x1b[K${line}`);
    this.#drawn = true;
  }

  /** Removes the progress line (the summary takes its place). */
  clear(): void {
    if (this.#drawn) this.#out.write("\r\x1b[K");
  }
}
