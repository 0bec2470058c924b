/**
 * The default transport in Node (src/node-transport.ts) against real servers on 127.0.0.1: what
 * Node's own fetch got wrong for a crawler, each case failing on it. Connections are closed with
 * their fetch whatever Keep-Alive the server asks for; a compressed body cut short, or in a coding
 * with no decoder, is a network error and not a shorter file; any port is fetched; an interim
 * 100 Continue is skipped; response headers may take up to MAX_HEADER_BYTES.
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer, type RequestListener, type Server } from "node:http";
import { createServer as createTlsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { fetchRobots } from "../src/index.js";
import { MAX_HEADER_BYTES } from "../src/node-transport.js";

const RULES = `User-agent: *\n${"Allow: /page\n".repeat(2000)}Disallow: /\n`;
const TIMEOUTS = { connectTimeout: 10_000, totalTimeout: 20_000 };

/** Servers to close after each test: http ones and the https one (both have these two). */
const servers: Pick<Server, "closeAllConnections" | "close">[] = [];

async function serve(listener: RequestListener, port = 0): Promise<{ server: Server; origin: string }> {
  const server = createServer(listener);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  servers.push(server);
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  }));
});

/** The server's open connections once they have had a moment to close (at most two seconds). */
async function openConnections(server: Server): Promise<number> {
  const open = async () => new Promise<number>((resolve) => server.getConnections((_error, count) => resolve(count)));
  for (let wait = 0; wait < 100 && (await open()) > 0; wait++) await new Promise((resolve) => setTimeout(resolve, 20));
  return open();
}

/** A 200 whose body is `body` in `coding` (Content-Length of the bytes sent). */
function encoded(body: Uint8Array, coding: string): RequestListener {
  return (_request, response) => {
    response.writeHead(200, { "content-encoding": coding, "content-length": String(body.length) });
    response.end(body);
  };
}

/** Coding, how the body is made, and the maker; raw deflate goes by the zlib format's name, and browsers read it. */
const ENCODERS = [
  ["gzip", "gzip", gzipSync],
  ["x-gzip", "gzip", gzipSync],
  ["deflate", "zlib", deflateSync],
  ["deflate", "raw deflate", deflateRawSync],
  ["br", "brotli", brotliCompressSync],
] as const;

describe("node transport: one connection per fetch", () => {
  it("closes its connection when the fetch is done, though the server asks to keep it for 600 s", async () => {
    const connectionHeaders: (string | undefined)[] = [];
    const { server, origin } = await serve((request, response) => {
      connectionHeaders.push(request.headers.connection);
      response.writeHead(200, { "content-type": "text/plain", connection: "keep-alive", "keep-alive": "timeout=600" });
      response.end(RULES);
    });
    for (let i = 0; i < 3; i++) {
      expect(await fetchRobots(`${origin}/robots.txt`, TIMEOUTS)).toMatchObject({ outcome: "ok", bytes: RULES.length });
    }
    expect(connectionHeaders).toEqual(["close", "close", "close"]);
    // Node's fetch kept one idle socket open for the 600 s the server asked: a crawler of
    // thousands of such hosts ran out of file descriptors.
    expect(await openConnections(server)).toBe(0);
  });

  // Every way a fetch ends early closes its connection too, though the server would keep it.
  it("closes it when the server never answers (the connect timeout)", async () => {
    const { server, origin } = await serve(() => undefined);
    expect(await fetchRobots(`${origin}/robots.txt`, { connectTimeout: 100, totalTimeout: 10_000 })).toMatchObject({ outcome: "unreachable", reason: "timeout" });
    expect(await openConnections(server)).toBe(0);
  });

  it("closes it when a coded body stalls before its first byte (the total timeout)", async () => {
    const { server, origin } = await serve((_request, response) => {
      response.writeHead(200, { "content-encoding": "gzip", "content-length": "1000" });
      response.flushHeaders();
    });
    expect(await fetchRobots(`${origin}/robots.txt`, { connectTimeout: 10_000, totalTimeout: 200 })).toMatchObject({ outcome: "unreachable", reason: "timeout" });
    expect(await openConnections(server)).toBe(0);
  });

  it("closes it after a 101, a 204 from a server that keeps its connections, and a large body in a coding it cannot decode", async () => {
    const { server, origin } = await serve((request, response) => {
      if (request.url === "/101") request.socket.write("HTTP/1.1 101 Switching Protocols\r\nUpgrade: x\r\nConnection: Upgrade\r\n\r\n");
      else if (request.url === "/204") request.socket.write("HTTP/1.1 204 No Content\r\nConnection: keep-alive\r\n\r\n");
      else {
        const body = Buffer.alloc(8 << 20, 97);
        response.writeHead(200, { "content-encoding": "zstd", "content-length": String(body.length), connection: "keep-alive" });
        response.end(body);
      }
    });
    expect(await fetchRobots(`${origin}/101`, TIMEOUTS)).toMatchObject({ outcome: "unreachable", reason: "network-error" });
    expect(await openConnections(server)).toBe(0);
    expect(await fetchRobots(`${origin}/204`, TIMEOUTS)).toMatchObject({ status: 204 });
    expect(await openConnections(server)).toBe(0);
    expect(await fetchRobots(`${origin}/zstd`, TIMEOUTS)).toMatchObject({ outcome: "unreachable", reason: "network-error" });
    expect(await openConnections(server)).toBe(0);
  });

  it("fails at once, a network error and not a timeout, when the connection is reset before a coded body's first byte", async () => {
    const { origin } = await serve((request, response) => {
      response.writeHead(200, { "content-encoding": "gzip", "content-length": "1000" });
      response.flushHeaders();
      setTimeout(() => request.socket.resetAndDestroy(), 20);
    });
    expect(await fetchRobots(`${origin}/robots.txt`, { connectTimeout: 10_000, totalTimeout: 10_000 })).toMatchObject({ outcome: "unreachable", reason: "network-error" });
  });
});

describe("node transport: https", () => {
  const tls = fileURLToPath(new URL("fixtures/tls/", import.meta.url));
  const root = fileURLToPath(new URL("../", import.meta.url));

  it("fetches over TLS, verifying the certificate: a self-signed one fails, and the same server passes once its certificate is trusted", async () => {
    const server = createTlsServer({ key: readFileSync(`${tls}key.pem`), cert: readFileSync(`${tls}cert.pem`) }, (_request, response) => response.end(RULES));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    servers.push(server);
    const origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const refused = await fetchRobots(`${origin}/robots.txt`, TIMEOUTS);
    expect(refused).toMatchObject({ outcome: "unreachable", reason: "network-error", status: null });
    expect(refused.detail).toMatch(/self[- ]signed certificate/);
    // Node reads trusted certificates when it starts: a process of its own that trusts this one
    // (run without blocking this one, whose server answers it), on the built package (dist/, as
    // the CLI suites), in an environment of its own (NODE_TLS_REJECT_UNAUTHORIZED or NODE_OPTIONS
    // from outside would change what it proves).
    const trusted = await new Promise<{ code: number | string | undefined; stdout: string; stderr: string }>((resolve) => execFile(process.execPath, ["--input-type=module", "-e", `
      const { fetchRobots } = await import(${JSON.stringify(`${root}dist/index.js`)});
      const result = await fetchRobots(${JSON.stringify(`${origin}/robots.txt`)}, { connectTimeout: 10000, totalTimeout: 20000 });
      console.log(JSON.stringify({ outcome: result.outcome, bytes: result.bytes }));
    `], { env: { PATH: process.env.PATH, NODE_EXTRA_CA_CERTS: `${tls}cert.pem` }, encoding: "utf8" }, (error, stdout, stderr) => resolve({ code: error?.code ?? undefined, stdout, stderr })));
    expect([trusted.code, trusted.stderr]).toEqual([undefined, ""]);
    expect(JSON.parse(trusted.stdout)).toEqual({ outcome: "ok", bytes: RULES.length });
  });
});

describe("node transport: codings decoded strictly", () => {
  it.each(ENCODERS)("decodes a whole %s body (%s)", async (coding, _format, compress) => {
    const { origin } = await serve(encoded(compress(Buffer.from(RULES)), coding));
    const result = await fetchRobots(`${origin}/robots.txt`, TIMEOUTS);
    expect(result).toMatchObject({ outcome: "ok", bytes: RULES.length });
    expect(Buffer.from(result.body).toString()).toBe(RULES);
  });

  it.each(ENCODERS)("counts a %s body cut short (%s) as a network error, not as a shorter file", async (coding, _format, compress) => {
    // The HTTP framing is whole (Content-Length of the bytes sent); the compressed stream is not:
    // Node's fetch read its first 60% as the file, losing the final `Disallow: /`.
    const whole = compress(Buffer.from(RULES));
    const { origin } = await serve(encoded(whole.subarray(0, Math.floor(whole.length * 0.6)), coding));
    expect(await fetchRobots(`${origin}/robots.txt`, TIMEOUTS)).toMatchObject({ outcome: "unreachable", reason: "network-error", status: 200, bytes: 0 });
  });

  it.each(["zstd", "compress", "x-foo", "gzip, foo", "foo, gzip"])("counts a body in a coding it cannot decode (%s) as a network error", async (coding) => {
    // Node's fetch handed over the still-encoded bytes as the file.
    const { origin } = await serve(encoded(gzipSync(RULES), coding));
    const result = await fetchRobots(`${origin}/robots.txt`, TIMEOUTS);
    expect(result).toMatchObject({ outcome: "unreachable", reason: "network-error", status: 200, bytes: 0 });
    expect(result.detail).toMatch(/^cannot decode a body in the coding "(zstd|compress|x-foo|foo)"$/);
  });

  it.each([
    ["deflate, gzip", (body: Buffer) => gzipSync(deflateSync(body))],
    ["gzip, br", (body: Buffer) => brotliCompressSync(gzipSync(body))],
    ["identity", (body: Buffer) => body],
    ["GZIP", (body: Buffer) => gzipSync(body)],
    ["gzip, gzip, gzip, gzip, gzip", (body: Buffer) => gzipSync(gzipSync(gzipSync(gzipSync(gzipSync(body)))))],
  ])("decodes stacked codings last applied first, identity and codings in any case (%s)", async (coding, compress) => {
    const { origin } = await serve(encoded(compress(Buffer.from(RULES)), coding));
    const result = await fetchRobots(`${origin}/robots.txt`, TIMEOUTS);
    expect(result).toMatchObject({ outcome: "ok", bytes: RULES.length });
    expect(Buffer.from(result.body).toString()).toBe(RULES);
  });

  it("counts more than five codings as a network error, as undici does", async () => {
    let body = Buffer.from(RULES);
    for (let i = 0; i < 6; i++) body = gzipSync(body);
    const { origin } = await serve(encoded(body, "gzip, gzip, gzip, gzip, gzip, gzip"));
    expect(await fetchRobots(`${origin}/robots.txt`, TIMEOUTS)).toMatchObject({ outcome: "unreachable", reason: "network-error" });
  });

  it("reads no body of a status it ignores, so that an unknown coding there changes nothing (a 404 allows all)", async () => {
    const { origin } = await serve((_request, response) => {
      response.writeHead(404, { "content-encoding": "zstd" });
      response.end("not zstd");
    });
    expect(await fetchRobots(`${origin}/robots.txt`, TIMEOUTS)).toMatchObject({ outcome: "unavailable", reason: "client-error", status: 404 });
  });

  it("decodes a transfer coding other than chunked (Transfer-Encoding: gzip, chunked)", async () => {
    const { origin } = await serve((_request, response) => {
      response.writeHead(200, { "transfer-encoding": "gzip, chunked" });
      const body = gzipSync(RULES);
      response.write(body.subarray(0, 100));
      response.end(body.subarray(100));
    });
    const result = await fetchRobots(`${origin}/robots.txt`, TIMEOUTS);
    expect(result).toMatchObject({ outcome: "ok", bytes: RULES.length });
    expect(Buffer.from(result.body).toString()).toBe(RULES);
  });

  it("reads an empty body as an empty file whatever coding it names", async () => {
    const { origin } = await serve((_request, response) => {
      response.writeHead(200, { "content-encoding": "gzip", "content-length": "0" });
      response.end();
    });
    expect(await fetchRobots(`${origin}/robots.txt`, TIMEOUTS)).toMatchObject({ outcome: "ok", bytes: 0, truncated: false });
  });

  it("stops decoding a gzip bomb at maxBytes (100 MB of zeros in about 100 KB)", async () => {
    const bomb = gzipSync(Buffer.alloc(100 << 20));
    const { origin } = await serve(encoded(bomb, "gzip"));
    expect(await fetchRobots(`${origin}/robots.txt`, { ...TIMEOUTS, maxBytes: 512_000 })).toMatchObject({ outcome: "ok", bytes: 512_000, truncated: true });
  });
});

describe("node transport: what the Fetch standard refuses and HTTP allows", () => {
  it("fetches from a port on the Fetch standard's bad-port list (Node's fetch refused to connect)", async () => {
    // Ports above 1024 on that list; the first one free here is used.
    const badPorts = [1719, 1720, 1723, 2049, 3659, 4045, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6697, 10080];
    let origin: string | undefined;
    for (const port of badPorts) {
      try {
        ({ origin } = await serve((_request, response) => response.end(RULES), port));
        break;
      } catch {
        // in use here: the next
      }
    }
    expect(origin).toBeDefined();
    expect(await fetchRobots(`${origin}/robots.txt`, TIMEOUTS)).toMatchObject({ outcome: "ok", bytes: RULES.length });
  });

  it("skips an interim 100 Continue before the final response (RFC 9110 15.2)", async () => {
    const { origin } = await serve((_request, response) => {
      response.writeContinue();
      response.end(RULES);
    });
    expect(await fetchRobots(`${origin}/robots.txt`, TIMEOUTS)).toMatchObject({ outcome: "ok", status: 200, bytes: RULES.length });
  });

  it("fails at once, a network error, when the server switches protocols (HTTP 101) instead of answering", async () => {
    // The 101 written on the socket of a plain GET, as a misconfigured server does.
    const { origin } = await serve((request) => {
      request.socket.write("HTTP/1.1 101 Switching Protocols\r\nUpgrade: x\r\nConnection: Upgrade\r\n\r\n");
    });
    const started = Date.now();
    const result = await fetchRobots(`${origin}/robots.txt`, { ...TIMEOUTS, connectTimeout: 5_000 });
    expect(result).toMatchObject({ outcome: "unreachable", reason: "network-error", detail: "the server switched protocols (HTTP 101) instead of answering" });
    expect(Date.now() - started).toBeLessThan(4_000);
  });

  it("reads response headers of up to MAX_HEADER_BYTES (Node's fetch failed past 16 KiB); past it, a network error", async () => {
    const { origin } = await serve((request, response) => {
      const size = request.url === "/big" ? MAX_HEADER_BYTES - 4000 : MAX_HEADER_BYTES + 1000;
      response.writeHead(200, { "set-cookie": "a".repeat(size) });
      response.end(RULES);
    });
    expect(await fetchRobots(`${origin}/big`, TIMEOUTS)).toMatchObject({ outcome: "ok", bytes: RULES.length });
    expect(await fetchRobots(`${origin}/huge`, TIMEOUTS)).toMatchObject({ outcome: "unreachable", reason: "network-error", status: null });
  });
});
