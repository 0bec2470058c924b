/**
 * The default transport in Node: one GET over node:http or node:https, answered in the shape of
 * `fetch` (fetch.ts reads it as it reads an injected fetch's Response). Node's own `fetch` (undici)
 * failed crawlers on real servers, each measured against a server on 127.0.0.1:
 *
 * - It keeps an idle connection to every origin for as long as the server's `Keep-Alive` asks (up
 *   to 600 s): 1,000 such servers took the file descriptors of a process under `ulimit -n 1024`,
 *   and the next sites, all up, were cached as unreachable (disallow all) for ten minutes. Here a
 *   fetch has its own connection, closed with it: a robots.txt is fetched once per origin a day.
 * - It decodes a gzip, deflate or br body cut short without an error (a file that ends in
 *   `Disallow: /` read as one without it), and hands over the still-encoded bytes of a coding it
 *   does not know (`zstd`, `gzip, foo`). Here codings are decoded strictly, and a cut or unknown
 *   one fails the read: a network error, as a plain body cut short.
 * - It refuses the Fetch standard's "bad ports" (6000, 10080, ...) without connecting, a
 *   browser's defence that made such sites unreachable; it fails on an interim `100 Continue`;
 *   and it limits response headers to 16 KiB. Here any port is fetched, interim responses are
 *   skipped (RFC 9110 15.2), and headers may take up to MAX_HEADER_BYTES.
 *
 * Loaded on first use with a dynamic import, so that the package still loads where there is no
 * node:http (browsers use their own fetch: crawler-options.ts platformFetch).
 */
import type { IncomingMessage } from "node:http";
import type { Readable, Transform } from "node:stream";

/** Response headers in all, as browsers allow (Node's default is 16 KiB). */
export const MAX_HEADER_BYTES = 64 << 10;

/** What fetch.ts asks of a transport: the request as it builds it. */
interface GetRequest {
  headers?: Record<string, string>;
  signal?: AbortSignal | null;
}

/** What fetch.ts reads of a response (fetch.ts isResponse): a Node stream is a body it reads. */
export interface TransportResponse {
  type: "basic";
  status: number;
  headers: { get(name: string): string | null };
  body: Readable;
  bodyUsed: false;
}

/** The Node modules the transport needs, imported once, on the first fetch. */
interface NodeModules {
  http: typeof import("node:http");
  https: typeof import("node:https");
  zlib: typeof import("node:zlib");
  PassThrough: typeof import("node:stream").PassThrough;
  Readable: typeof import("node:stream").Readable;
  pipeline: typeof import("node:stream").pipeline;
}
let modules: Promise<NodeModules> | undefined;

/**
 * Imports a Node module by a name held in a variable: a bundler for the browser (esbuild, webpack,
 * rollup) follows `import("node:http")` and fails to resolve it, but leaves this one alone; the
 * browser never calls it (platformFetch gives it the platform's fetch).
 */
const importNode = <T>(name: string): Promise<T> => import(name) as Promise<T>;

function nodeModules(): Promise<NodeModules> {
  modules ??= Promise.all([
    importNode<typeof import("node:http")>("node:http"),
    importNode<typeof import("node:https")>("node:https"),
    importNode<typeof import("node:zlib")>("node:zlib"),
    importNode<typeof import("node:stream")>("node:stream"),
  ]).then(([http, https, zlib, stream]): NodeModules => ({ http, https, zlib, PassThrough: stream.PassThrough, Readable: stream.Readable, pipeline: stream.pipeline }));
  return modules;
}

/** A fetch-shaped GET over node:http(s); rejects on a failure to connect or to read the headers. */
export async function nodeFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const url = new URL(typeof input === "string" || input instanceof URL ? input : input.url);
  const given = (init ?? {}) as GetRequest;
  const node = await nodeModules();
  given.signal?.throwIfAborted();
  return new Promise<Response>((resolve, reject) => {
    const outgoing = (url.protocol === "https:" ? node.https : node.http).request(url, {
      method: "GET",
      // A connection of its own (agent: false), closed when the response ends.
      agent: false,
      headers: { ...given.headers, connection: "close" },
      maxHeaderSize: MAX_HEADER_BYTES,
      signal: given.signal ?? undefined,
    });
    outgoing.once("error", reject);
    // A 101 to a GET: no response to read follows on the connection (Node's fetch called it a
    // network error at once; unanswered, the fetch waited for its connect timeout).
    outgoing.once("upgrade", (_response: IncomingMessage, socket: { destroy(): void }) => {
      socket.destroy();
      reject(new Error("the server switched protocols (HTTP 101) instead of answering"));
    });
    outgoing.once("response", (response: IncomingMessage) => {
      const headers = response.headers;
      const status = response.statusCode ?? 0;
      let body: Readable;
      if (NULL_BODY_STATUSES.has(status)) {
        // Bytes a server sends anyway are not content; the connection closes with the response.
        response.destroy();
        body = node.Readable.from([]);
      } else {
        body = decodedBody(response, node);
      }
      const answer: TransportResponse = {
        type: "basic",
        status,
        headers: { get: (name) => headerValue(headers[name.toLowerCase()]) },
        body,
        bodyUsed: false,
      };
      resolve(answer as unknown as Response);
    });
    outgoing.end();
  });
}

function headerValue(value: string | string[] | undefined): string | null {
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(", ") : value;
}

/** Statuses whose responses have no content (the Fetch standard's null body statuses, as Node's fetch reads them). */
const NULL_BODY_STATUSES = new Set([204, 205, 304]);

/** At most this many codings, as undici allows: a response with more fails its read. */
const MAX_CODINGS = 5;

/**
 * The body with its codings undone, last applied first: the transfer codings other than chunked
 * (which Node's parser undoes), then the content codings. The decoders are chosen at the first
 * byte, so that a body that is not read (a 404's) never fails, an empty body is an empty file
 * whatever its coding says (as browsers read it), and `deflate` can tell its two formats apart. A
 * coding with no decoder here fails the read, as does a body that ends before its length or last
 * chunk, and a compressed stream that ends before its end (zlib's strict finish; Node's fetch
 * flushes what it has and calls that the body).
 */
function decodedBody(response: IncomingMessage, node: NodeModules): Readable {
  const codings = [...codingsOf(response.headers["content-encoding"]), ...codingsOf(response.headers["transfer-encoding"])]
    .filter((coding) => coding !== "identity" && coding !== "chunked");
  const input = untilComplete(response);
  if (codings.length === 0) return input;
  const output = new node.PassThrough();
  // A body nobody reads (a 404's, discarded) may still fail here: its error must not be uncaught.
  output.on("error", () => undefined);
  let started = false;
  // The reader gave up before the first byte: the connection goes with it.
  output.once("close", () => {
    if (!started) input.destroy();
  });
  input.once("error", (error) => {
    if (!started) output.destroy(error);
  });
  // An empty body ends before its first byte.
  input.once("end", () => {
    if (!started) output.end();
  });
  const start = () => {
    const first = input.read(1) as Buffer | null;
    if (first === null) return input.once("readable", start);
    input.unshift(first);
    started = true;
    if (codings.length > MAX_CODINGS) return output.destroy(new Error(`more than ${MAX_CODINGS} codings: ${codings.join(", ")}`));
    const decoders: Transform[] = [];
    for (const [i, coding] of codings.reverse().entries()) {
      const decoder = decoderOf(coding, i === 0 ? first[0]! : undefined, node.zlib);
      if (decoder === undefined) {
        input.destroy();
        return output.destroy(new Error(`cannot decode a body in the coding ${JSON.stringify(coding.slice(0, 40))}`));
      }
      decoders.push(decoder);
    }
    node.pipeline([input, ...decoders, output], () => undefined);
  };
  input.once("readable", start);
  return output;
}

function codingsOf(header: string | string[] | undefined): string[] {
  const value = headerValue(header);
  if (value === null) return [];
  return value.split(",").map((coding) => coding.trim().toLowerCase()).filter((coding) => coding !== "");
}

/**
 * The decoder of a coding, or undefined for one there is none for. `deflate` is zlib's format
 * (RFC 9110 8.4.1.2), but servers send raw deflate too, which browsers read: when the body itself
 * is deflated, its first byte tells them apart (zlib's names method 8 in its low nibble).
 */
function decoderOf(coding: string, firstByte: number | undefined, zlib: typeof import("node:zlib")): Transform | undefined {
  switch (coding) {
    case "gzip":
    case "x-gzip":
      return zlib.createGunzip();
    case "deflate":
      return firstByte === undefined || (firstByte & 0x0f) === 8 ? zlib.createInflate() : zlib.createInflateRaw();
    case "br":
      return zlib.createBrotliDecompress();
    default:
      return undefined;
  }
}

/**
 * The response, failing when it ends incomplete (closed before its Content-Length or last chunk).
 * Node names that failure "aborted", which reads as if the crawler gave up: it is said in full.
 */
function untilComplete(response: IncomingMessage): Readable {
  response.once("end", () => {
    if (!response.complete) response.destroy(new Error("the connection closed before the body's end"));
  });
  response.once("error", (error: Error & { code?: string }) => {
    if (error.message === "aborted") error.message = `the connection closed before the body's end${error.code === undefined ? "" : ` (${error.code})`}`;
  });
  return response;
}
