import type { Readable } from "node:stream";
import { CliError } from "./cli-error.js";
import { printable } from "./format.js";
import { MAX_URL_BYTES } from "../options.js";

/**
 * Batches of complete lines from a byte stream (the last one may lack its final LF), of about
 * `batchBytes` or more. A pipe hands over 64 KiB at a time, and a batch that small costs the
 * engine's per-call work per 64 KiB, and a worker pool its messages per part (two workers were
 * slower than one on piped input): such small reads are gathered and joined. A read of
 * `batchBytes` or more (a file's) is decided as it lies, and only the line split between it and
 * the bytes before it is joined, into a batch of its own.
 */
export async function* lineBatches(input: Readable, urlsFile: string, batchBytes: number): AsyncGenerator<{ batch: Buffer; bytesRead: number }> {
  // Bytes read and not yet in a batch: complete lines and the start of one.
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let bytesRead = 0;
  const keep = (rest: Buffer) => {
    pending = rest.length > 0 ? [rest] : [];
    pendingBytes = rest.length;
  };
  // Whether `pending` holds a line end: lines a stalled input should not keep waiting.
  let pendingLines = false;
  let lastRead = 0;
  // The first bytes, until they can tell a byte-order mark: a pipe may hand over one byte first.
  let head: Buffer | undefined = Buffer.alloc(0);
  let next: Promise<IteratorResult<Buffer>> | undefined;
  try {
    const reads = (input as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
    next = reads.next();
    for (;;) {
      // A writer that sends a few URLs and waits for their verdicts (a co-process, a terminal)
      // gets them once its input pauses, instead of when a batch's worth has gathered.
      // A full pipe read (64 KiB) says more is on its way: only a shorter one is worth the wait.
      if (pendingLines && lastRead < FULL_PIPE_READ && (await stalled(next))) {
        const gathered = Buffer.concat(pending);
        const lastNewline = gathered.lastIndexOf(0x0a);
        yield { batch: gathered.subarray(0, lastNewline + 1), bytesRead };
        keep(gathered.subarray(lastNewline + 1));
        pendingLines = false;
      }
      const result = await next;
      if (result.done === true) break;
      next = reads.next();
      const read = result.value;
      lastRead = read.length;
      bytesRead += read.length;
      let chunk = read;
      if (head !== undefined) {
        // Most inputs: the first read holds all it needs, and stays a view of itself.
        head = head.length === 0 ? read : Buffer.concat([head, read]);
        if (mayStartByteOrderMark(head)) continue;
        chunk = withoutByteOrderMark(head, urlsFile);
        head = undefined;
      }
      const lastNewline = pendingBytes + chunk.length < batchBytes ? -1 : chunk.lastIndexOf(0x0a);
      if (lastNewline < 0) {
        pending.push(chunk);
        pendingBytes += chunk.length;
        pendingLines ||= chunk.includes(0x0a);
        // Past a batch of gathered lines and a whole URL, and still no line end: no URL list.
        if (pendingBytes > batchBytes + MAX_URL_BYTES) {
          throw new CliError(`check: ${printable(JSON.stringify(urlsFile))} has a line longer than ${MAX_URL_BYTES} bytes, more than a URL may be: is it a list of URLs, one per line?`);
        }
        continue;
      }
      if (chunk.length < batchBytes) {
        // Gathered small reads: all their complete lines are one batch.
        yield { batch: Buffer.concat([...pending, chunk.subarray(0, lastNewline + 1)]), bytesRead };
        keep(chunk.subarray(lastNewline + 1));
        pendingLines = false;
        continue;
      }
      let start = 0;
      if (pendingBytes > 0) {
        start = chunk.indexOf(0x0a) + 1;
        yield { batch: Buffer.concat([...pending, chunk.subarray(0, start)]), bytesRead };
      }
      // A view: the stream hands out a new buffer for each chunk.
      if (lastNewline >= start) yield { batch: chunk.subarray(start, lastNewline + 1), bytesRead };
      keep(chunk.subarray(lastNewline + 1));
      pendingLines = false;
    }
    // An input that ended within the first bytes of a mark.
    if (head !== undefined) keep(withoutByteOrderMark(head, urlsFile));
  } catch (error) {
    // Any error of the system (ENOENT, EACCES, EISDIR, ELOOP, ENAMETOOLONG, EIO...) is the file's.
    const code = (error as NodeJS.ErrnoException).code;
    if (typeof code === "string" && /^E[A-Z0-9]+$/.test(code)) throw new CliError(`check: cannot read URLs from ${printable(JSON.stringify(urlsFile))}: ${code}`);
    throw error;
  } finally {
    // Stopped early (a failure here or in the caller): the read under way would hold the input,
    // and a pipe whose writer keeps it open would keep the process alive after its error.
    next?.catch(() => undefined);
    input.destroy();
  }
  if (pendingBytes > 0) yield { batch: pending.length === 1 ? pending[0] : Buffer.concat(pending), bytesRead };
}

/** Fewer bytes than a byte-order mark, all of them its start (UTF-8's EF BB, or UTF-16's first byte). */
function mayStartByteOrderMark(head: Buffer): boolean {
  if (head.length === 0) return true;
  if (head.length === 1) return head[0] === 0xef || head[0] === 0xff || head[0] === 0xfe;
  return head.length === 2 && head[0] === 0xef && head[1] === 0xbb;
}

/** How long an input may pause before the lines it sent are decided without waiting for more. */
const STALL_MS = 50;
/** What a pipe hands over at once when it is full. */
const FULL_PIPE_READ = 64 << 10;

/** Whether the read `next` is still pending after STALL_MS (its failure is left to whoever awaits it). */
async function stalled(next: Promise<unknown>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(true), STALL_MS);
  });
  try {
    return await Promise.race([next.then(() => false, () => false), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The first read of a URL list without a UTF-8 byte-order mark (an editor's, harmless), or an
 * error for a UTF-16 one: read as bytes, its lines are URLs with a NUL in every other byte, which
 * no rule matches, so every URL would come out allowed.
 */
function withoutByteOrderMark(first: Buffer, urlsFile: string): Buffer {
  if ((first[0] === 0xff && first[1] === 0xfe) || (first[0] === 0xfe && first[1] === 0xff)) {
    throw new CliError(`check: ${printable(JSON.stringify(urlsFile))} is UTF-16 (it starts with a byte-order mark); save the URL list as UTF-8`);
  }
  if (looksLikeUtf16(first)) {
    throw new CliError(`check: ${printable(JSON.stringify(urlsFile))} looks like UTF-16 without a byte-order mark (a NUL in every other byte); save the URL list as UTF-8`);
  }
  return first[0] === 0xef && first[1] === 0xbb && first[2] === 0xbf ? first.subarray(3) : first;
}

/** Byte pairs of a first read that UTF16_PAIRS looks at. */
const UTF16_PAIRS = 32;

/**
 * Whether a first read is text in UTF-16 without a byte-order mark (`iconv -t UTF-16LE` writes
 * none): its first pairs of bytes (at least four) hold four NULs or more, three in four of them in
 * one place of their pair (the high byte of an ASCII character, `h\0t\0t\0p\0`). A URL holds
 * no NUL, so a UTF-8 list has none there; characters past Latin-1 (`例`) have none or one either
 * place (`一` is 00 4E), so a list with some of them among its first is still UTF-16. Read as
 * bytes, such a list was URLs that no rule matches: every one allowed.
 */
function looksLikeUtf16(first: Buffer): boolean {
  const pairs = Math.min(UTF16_PAIRS, first.length >> 1);
  if (pairs < 4) return false;
  let low = 0;
  let high = 0;
  for (let i = 0; i < pairs; i++) {
    if (first[2 * i + 1] === 0) low++;
    if (first[2 * i] === 0) high++;
  }
  const most = Math.max(low, high);
  return most >= 4 && most * 4 >= (low + high) * 3;
}
