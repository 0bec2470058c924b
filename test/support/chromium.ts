/**
 * Debian's headless Chromium (/usr/bin/chromium, `apt-get install chromium`; no downloaded browser)
 * driven over the DevTools protocol on a pipe (`--remote-debugging-pipe`: JSON messages ending in
 * NUL on file descriptors 3 and 4), so no WebSocket client is needed. Script execution is disabled
 * before each navigation (Emulation.setScriptExecutionDisabled): the parser then reads <noscript>
 * content as markup, as the scanner does, and no page script can change the DOM. The tree comes
 * from DOM.getDocument, which needs no page JavaScript.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable, Writable } from "node:stream";
import type { FoundMeta } from "./directives.js";

export const CHROMIUM = "/usr/bin/chromium";

/** The flags the project's guide asks for, plus the DevTools pipe. */
const FLAGS = [
  "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
  "--disable-sync", "--no-first-run", "--remote-debugging-pipe",
];

interface DomNode {
  nodeName: string;
  attributes?: string[];
  children?: DomNode[];
}

interface Message {
  id?: number;
  method?: string;
  sessionId?: string;
  result?: Record<string, unknown>;
  error?: unknown;
}

export class Chromium {
  /** Starts a browser with a fresh profile; throws a clear error when Chromium is not installed. */
  static async launch(): Promise<Chromium> {
    if (!existsSync(CHROMIUM)) {
      throw new Error(`${CHROMIUM} not found: install Debian's Chromium (apt-get update && apt-get install -y chromium); .ci/run installs it`);
    }
    const profile = mkdtempSync(join(tmpdir(), "robots-wasm-chromium-"));
    const child = spawn(CHROMIUM, [...FLAGS, `--user-data-dir=${profile}`, "about:blank"], { stdio: ["ignore", "ignore", "ignore", "pipe", "pipe"] });
    const browser = new Chromium(child, profile);
    const { targetId } = await browser.send("Target.createTarget", { url: "about:blank" });
    const { sessionId } = await browser.send("Target.attachToTarget", { targetId, flatten: true });
    browser.session = sessionId as string;
    await browser.send("Emulation.setScriptExecutionDisabled", { value: true }, browser.session);
    await browser.send("Page.enable", {}, browser.session);
    return browser;
  }

  private nextId = 0;
  private readonly pending = new Map<number, { resolve: (m: Message) => void; reject: (e: Error) => void }>();
  private readonly waiters: ((m: Message) => void)[] = [];
  private session = "";
  private received = "";

  private constructor(private readonly child: ChildProcess, private readonly profile: string) {
    const output = child.stdio[4] as Readable;
    output.setEncoding("utf8");
    output.on("data", (chunk: string) => {
      this.received += chunk;
      for (let end = this.received.indexOf("\0"); end >= 0; end = this.received.indexOf("\0")) {
        const message = JSON.parse(this.received.slice(0, end)) as Message;
        this.received = this.received.slice(end + 1);
        const request = message.id === undefined ? undefined : this.pending.get(message.id);
        if (request) {
          this.pending.delete(message.id!);
          request.resolve(message);
        } else {
          for (const waiter of this.waiters) waiter(message);
        }
      }
    });
    child.on("exit", (code) => {
      for (const { reject } of this.pending.values()) reject(new Error(`chromium exited with code ${code}`));
    });
  }

  private send(method: string, params: object = {}, sessionId?: string): Promise<Record<string, unknown>> {
    const id = ++this.nextId;
    return new Promise((resolve, reject) => {
      this.pending.set(id, {
        resolve: (message) => (message.error ? reject(new Error(`${method}: ${JSON.stringify(message.error)}`)) : resolve(message.result ?? {})),
        reject,
      });
      (this.child.stdio[3] as Writable).write(`${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`);
    });
  }

  /** Loads `url` and returns the `<meta name>` elements of the document Chromium built, in tree order. */
  async metas(url: string): Promise<FoundMeta[]> {
    const loaded = new Promise<void>((resolve) => {
      const waiter = (message: Message) => {
        if (message.method === "Page.loadEventFired" && message.sessionId === this.session) {
          this.waiters.splice(this.waiters.indexOf(waiter), 1);
          resolve();
        }
      };
      this.waiters.push(waiter);
    });
    await this.send("Page.navigate", { url }, this.session);
    await loaded;
    const { root } = await this.send("DOM.getDocument", { depth: -1 }, this.session);
    const metas: FoundMeta[] = [];
    // Template contents come as `templateContent`, not as children: they stay out, as in the scanner.
    const walk = (node: DomNode, inHead: boolean, inNoscript: boolean) => {
      if (node.nodeName === "META") {
        const attribute = (name: string) => {
          const list = node.attributes ?? [];
          for (let i = 0; i < list.length; i += 2) if (list[i] === name) return list[i + 1]!;
          return null;
        };
        const name = attribute("name");
        if (name !== null) metas.push({ name, content: attribute("content"), inHead, inNoscript });
      }
      for (const child of node.children ?? []) walk(child, inHead || node.nodeName === "HEAD", inNoscript || node.nodeName === "NOSCRIPT");
    };
    walk(root as unknown as DomNode, false, false);
    return metas;
  }

  async close(): Promise<void> {
    const exited = new Promise((resolve) => (this.child.exitCode === null ? this.child.once("exit", resolve) : resolve(undefined)));
    await this.send("Browser.close").catch(() => undefined);
    const timer = setTimeout(() => this.child.kill(), 5000);
    await exited;
    clearTimeout(timer);
    rmSync(this.profile, { recursive: true, force: true });
  }
}
