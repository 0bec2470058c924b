/**
 * The shared engine instance. One instance serves every `Robots`: tables are allocated in its
 * memory and freed on dispose, so a long-running crawler reuses the same space.
 */
import { describeValue, RobotsError } from "./errors.js";
import { releaseWasmBase64 } from "./generated/release-wasm.js";
import { type Engine, loadEngine, loadEngineAsync } from "./wasm.js";
import type { WasmBytes, WasmModule } from "./wasm-types.js";

/** Where to load the module from; by default the release build embedded in this package. */
export type WasmSource = WasmBytes | WasmModule;

let engine: Engine | undefined;
let loading: Promise<void> | undefined;

function embeddedBinary(): Uint8Array {
  return decodeBase64(releaseWasmBase64);
}

/** The bytes of base64 text (the embedded builds), in Node and in browsers. */
export function decodeBase64(base64: string): Uint8Array {
  const text = atob(base64);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/**
 * Refuses a source of a kind the loader does not take (a string, a number, a plain object, a
 * DataView): the caller's mistake, which the loader would report as a failure of the module
 * (ROBOTS_ERR_WASM). `null` is no source, as `undefined` (the embedded module); buffers are known
 * by their tag, so that one from another realm (a vm context, as under Jest) passes as before.
 */
function checkSource(source: unknown, call: string, responses: boolean): void {
  if (source === undefined || source === null || source instanceof WebAssembly.Module) return;
  const tag = Object.prototype.toString.call(source);
  if (tag === "[object ArrayBuffer]" || (ArrayBuffer.isView(source) && tag !== "[object DataView]")) return;
  if (responses && ((typeof Response !== "undefined" && source instanceof Response) ||
    (typeof source === "object" && typeof (source as { then?: unknown }).then === "function"))) return;
  const kinds = responses ? "the module's bytes, a WebAssembly.Module, a Response or a promise of one" : "the module's bytes or a WebAssembly.Module";
  throw new RobotsError("ROBOTS_ERR_INVALID_OPTION", `${call} takes ${kinds}, got ${describeValue(source)}`);
}

/** Loads the engine (once; later calls wait for the same load). Works in Node and in browsers. */
export function init(source?: WasmSource | Response | PromiseLike<Response>): Promise<void> {
  try {
    checkSource(source, "init()", true);
  } catch (error) {
    return Promise.reject(error);
  }
  if (engine !== undefined) return Promise.resolve();
  loading ??= loadEngineAsync(source ?? embeddedBinary()).then(
    (loaded) => {
      engine ??= loaded;
    },
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/** Loads the engine synchronously (Node, workers, or browsers for this small module). */
export function initSync(source?: WasmSource): void {
  checkSource(source, "initSync()", false);
  engine ??= loadEngine(source ?? embeddedBinary());
}

/** The loaded engine; throws ROBOTS_ERR_NOT_INITIALIZED before `init()`/`initSync()`, naming the call (`user`) that needs it. */
export function defaultEngine(user: string): Engine {
  if (engine === undefined) {
    throw new RobotsError("ROBOTS_ERR_NOT_INITIALIZED", `call \`await init()\` or \`initSync()\` before ${user}`);
  }
  return engine;
}

