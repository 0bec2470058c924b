/**
 * Real HTTP servers on 127.0.0.1 for the crawler suites: each path has a handler that a test can
 * replace, every request is recorded, and `close()` ends even connections left hanging.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll } from "vitest";

export type Handler = (request: IncomingMessage, response: ServerResponse) => void;

export interface TestServer {
  /** `http://127.0.0.1:PORT` */
  origin: string;
  port: number;
  /** Paths requested, in order. */
  readonly requests: string[];
  /** Request headers, in order. */
  readonly headers: IncomingHttpHeaders[];
  /** Sets the handler of a path (replacing any); unknown paths answer 404. */
  route(path: string, handler: Handler): void;
  /** Forgets the recorded requests. */
  reset(): void;
  close(): Promise<void>;
}

export async function startServer(routes: Record<string, Handler> = {}): Promise<TestServer> {
  const handlers = new Map(Object.entries(routes));
  const requests: string[] = [];
  const headers: IncomingHttpHeaders[] = [];
  const server = createServer((request, response) => {
    requests.push(request.url ?? "");
    headers.push(request.headers);
    const handler = handlers.get(request.url ?? "") ?? status(404);
    handler(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    requests,
    headers,
    route: (path, handler) => handlers.set(path, handler),
    reset: () => {
      requests.length = 0;
      headers.length = 0;
    },
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Servers for the enclosing suite, by name: started before its tests, closed after them. The
 * properties are set once the suite starts (use them inside tests and hooks).
 */
export function useServers<Name extends string>(...names: Name[]): Record<Name, TestServer> {
  const servers = {} as Record<Name, TestServer>;
  beforeAll(async () => {
    const started = await Promise.all(names.map(() => startServer()));
    names.forEach((name, i) => (servers[name] = started[i]));
  });
  afterAll(async () => {
    await Promise.all(names.map((name) => servers[name].close()));
  });
  return servers;
}

/** A complete response with a body. */
export function text(body: string | Uint8Array, headers: Record<string, string> = {}, code = 200): Handler {
  return (_request, response) => {
    response.writeHead(code, { "content-type": "text/plain", ...headers });
    response.end(body);
  };
}

export function status(code: number, headers: Record<string, string> = {}): Handler {
  return text(`status ${code}`, headers, code);
}

export function redirect(location: string, code = 301): Handler {
  return status(code, { location });
}

/** A handler that never answers: the request hangs until the client gives up. */
export const silent: Handler = () => undefined;

/** How a streaming response ended: the client closed the connection after `written` bytes. */
export interface StreamWatch {
  written: number;
  open: boolean;
  /** Resolves when the connection closes (the client stopped reading). */
  closed: Promise<void>;
}

function watch(response: ServerResponse): StreamWatch {
  const state: StreamWatch = { written: 0, open: true, closed: Promise.resolve() };
  state.closed = new Promise((resolve) =>
    response.on("close", () => {
      state.open = false;
      resolve();
    }),
  );
  return state;
}

/** A streaming handler and the watch of its latest response. */
export interface Stream {
  handler: Handler;
  last: () => StreamWatch;
}

/**
 * A 200 response whose body never ends: `head`, then `filler` over and over as fast as the
 * client reads (honouring backpressure), until the client closes the connection.
 */
export function endless(head: string, filler: string): Stream {
  let last: StreamWatch | undefined;
  const chunk = Buffer.from(filler.repeat(Math.ceil(16_384 / filler.length)));
  const handler: Handler = (_request, response) => {
    const state = (last = watch(response));
    response.writeHead(200, { "content-type": "text/plain" });
    response.write(head);
    state.written = head.length;
    const pump = () => {
      while (state.open) {
        state.written += chunk.length;
        if (!response.write(chunk)) return void response.once("drain", pump);
      }
    };
    pump();
  };
  return { handler, last: () => last! };
}

/** A 200 response that sends one byte every `everyMs` milliseconds, forever. */
export function drip(everyMs: number): Stream {
  let last: StreamWatch | undefined;
  const handler: Handler = (_request, response) => {
    const state = (last = watch(response));
    response.writeHead(200, { "content-type": "text/plain" });
    response.flushHeaders();
    const timer = setInterval(() => {
      response.write("#");
      state.written++;
    }, everyMs);
    state.closed.then(() => clearInterval(timer));
  };
  return { handler, last: () => last! };
}
