/**
 * The only module that touches the WebAssembly instance: the typed interface of its exports, the
 * loading, the memory views and the scratch regions that calls write their input into.
 */
import { instantiate, instantiateSync } from "@assemblyscript/loader";
import { describeValue, RobotsError } from "./errors.js";
import type { WasmBytes, WasmMemory, WasmModule } from "./wasm-types.js";

/** The exports of assembly/index.ts. Every value is a number: pointers, lengths, counts, flags. */
export interface EngineExports {
  memory: WasmMemory;
  /** Allocates bytes in linear memory for the host. */
  allocate(size: number): number;
  /** Frees memory from `allocate`. */
  release(pointer: number): void;
  /** Parses a robots.txt (profile 0 = google, 1 = rfc9309) into a table; returns its handle. */
  compile(body: number, length: number, profile: number): number;
  /** Frees a table. */
  freeTable(table: number): void;
  /** Selects the groups for agents encoded as (u32 length, bytes)*; returns 0 none, 1 specific, 2 global. */
  selectAgents(table: number, agents: number, agentsLength: number): number;
  /** Number of LF bytes in a region. */
  countNewlines(bytes: number, length: number): number;
  /** Decides a batch; see assembly/index.ts. Returns the number of URLs decided. */
  matchBatch(
    table: number, urls: number, urlsLength: number, offsets: number, count: number,
    verdicts: number, details: number, mode: number,
  ): number;
  /** Every selected rule matching one URL, winner first, written to `out`; returns the count. */
  matchAll(table: number, url: number, urlLength: number, out: number, capacity: number): number;
  ruleLine(table: number, rule: number): number;
  ruleGroup(table: number, rule: number): number;
  rulePriority(table: number, rule: number): number;
  /** 1 for the `/dir/$` rule implied by an `/dir/index.htm...` allow. */
  ruleIsIndexPage(table: number, rule: number): number;
  ruleIsAllow(table: number, rule: number): number;
  rulePatternPointer(table: number, rule: number): number;
  rulePatternLength(table: number, rule: number): number;
  ruleCount(table: number): number;
  groupCount(table: number): number;
  /** One byte per group: 1 if it decides for the last selected agents. */
  selectedGroupsPointer(table: number): number;
  agentCount(table: number): number;
  /** Seven u32 per user-agent line: group, global, token start, token length, line, value start (in text), value length. */
  agentsPointer(table: number): number;
  lineCount(table: number): number;
  /** Two bytes per line: kind, flags. */
  linesPointer(table: number): number;
  recordCount(table: number): number;
  /** Seven u32 per record: line, kind, group, key start, key length, value start, value length (starts in text). */
  recordsPointer(table: number): number;
  /** The bytes of record keys and values and user-agent values, as written. */
  textPointer(table: number): number;
  /** Wildcard lists longer than `limit` use the gram index (default 16; tests set 0). */
  configureWildcardIndex(limit: number): void;
  /** Lazy DFA limits for plans built afterwards: NFA positions (0: no DFA), cached states, give up (1) or keep resetting (0) when thrashing. */
  configureDfa(positions: number, states: number, giveUp: number): void;
  /** How often the engine met a flooded hash since it started: 0, groupings sorted instead; 1, gram indexes built again (assembly/index.ts). For tests. */
  floodCount(kind: number): number;
  /** Bytes of linear memory held by a table. */
  tableBytes(table: number): number;
  /** Builds the whole match plan of the current selection (the tree otherwise grows lazily); returns tableBytes. For the benchmark. */
  expandPlan(table: number): number;
  /** Scans HTML bytes for meta tags with a `name` attribute; returns a result handle (see assembly/meta.ts). */
  scanMetaTags(html: number, length: number): number;
  /** Number of meta tags in a scan result. */
  metaTagCount(scan: number): number;
  /** Seven u32 per meta tag: tag start, tag end, name start, name length, content start, content length, flags. */
  metaTagsPointer(scan: number): number;
  /** Frees a scan result. */
  freeMetaTags(scan: number): void;
  /**
   * `robots check`'s TSV lines of a classified newline batch: verdict bytes and u32 lines per URL;
   * rule texts of lines 0 to `ruleLineCount` - 1 as u32 offsets into `ruleText` (`ruleOffsets` 0:
   * no rule column). `out` holds `capacity` bytes: `length` + `count` * TSV_LINE_OVERHEAD plus the
   * rule texts. Returns the bytes written, or -1 if they would not fit or the counts do not match.
   */
  formatTsv(
    batch: number, length: number, verdicts: number, lines: number, count: number,
    ruleOffsets: number, ruleLineCount: number, ruleText: number, out: number, capacity: number,
  ): number;
}

/** Bytes `formatTsv` may add to each URL besides its rule text (assembly/tsv.ts). */
export const TSV_LINE_OVERHEAD = 48;

/** matchBatch mode bits. */
export const MatchMode = {
  /** Write the matching line (u32) per URL to `details`. */
  lines: 1,
  /** Write the winning rule index + 1 (u32) per URL to `details`. */
  rules: 2,
  /** Newline batches: remove one CR before each LF (byte batches from files). */
  stripCarriageReturn: 4,
} as const;

/** matchBatch's count for a newline batch meaning "every line, none after a final LF". */
export const ALL_LINES = 0xffffffff;

/**
 * The most a scratch region keeps between calls. Ordinary calls (a URL, a robots.txt under the
 * default maxBytes, the agents of a query, most pages) stay under it and reuse their region call
 * after call. A call that needs more gives its region back to the allocator when it is done
 * (releaseScratch), so that the memory one hostile URL or page needed serves the tables parsed
 * after it: linear memory never shrinks, and a region kept at its largest would hold that memory
 * for nothing. Allocating and freeing a block costs the allocator (TLSF) a constant time, against
 * the at least 1 MiB of writes (a URL of 350,000 characters) that filled it, so even calls that
 * need a large region every time (string batches of long URLs) lose nothing measurable. The engine
 * keeps its own scratch to the same size (assembly/vec.ts SCRATCH_KEPT).
 */
export const KEPT_SCRATCH_BYTES = 1 << 20;

/** A region of linear memory, reused across calls; it grows as needed and is given back past KEPT_SCRATCH_BYTES. */
class Scratch {
  pointer = 0;
  capacity = 0;
}

export class Engine {
  readonly exports: EngineExports;
  private buffer: ArrayBuffer | undefined;
  private u8: Uint8Array = new Uint8Array(0);
  private u32: Uint32Array = new Uint32Array(0);
  private readonly regions = new Map<string, Scratch>();
  /** Regions above KEPT_SCRATCH_BYTES: while there are none, releaseScratch has nothing to look up. */
  private largeRegions = 0;

  constructor(exports: EngineExports) {
    this.exports = exports;
  }

  /** A byte view of linear memory, rebuilt when memory has grown (which detaches old views). */
  get bytes(): Uint8Array {
    this.refreshViews();
    return this.u8;
  }

  get words(): Uint32Array {
    this.refreshViews();
    return this.u32;
  }

  private refreshViews(): void {
    const buffer = this.exports.memory.buffer;
    if (buffer !== this.buffer) {
      this.buffer = buffer;
      this.u8 = new Uint8Array(buffer);
      this.u32 = new Uint32Array(buffer);
    }
  }

  /**
   * A named scratch region of at least `size` bytes (8-byte aligned); its contents are not kept
   * across growth. A caller that may ask for more than KEPT_SCRATCH_BYTES calls releaseScratch
   * once it has read what it needs from the region.
   */
  scratch(name: string, size: number): number {
    let region = this.regions.get(name);
    if (region === undefined) {
      region = new Scratch();
      this.regions.set(name, region);
    }
    if (region.capacity < size) {
      const capacity = Math.max(size, region.capacity * 2, 256);
      this.forget(region);
      region.pointer = this.call(() => this.exports.allocate(capacity));
      region.capacity = capacity;
      if (capacity > KEPT_SCRATCH_BYTES) this.largeRegions++;
    }
    return region.pointer;
  }

  /**
   * Gives a region back to the allocator if a call made it larger than KEPT_SCRATCH_BYTES; a
   * smaller one stays for the next call. Its pointer must not be used afterwards. Called at the
   * end of each call that used the region, so it costs one comparison while no region is large.
   */
  releaseScratch(name: string): void {
    if (this.largeRegions === 0) return;
    const region = this.regions.get(name);
    if (region !== undefined && region.capacity > KEPT_SCRATCH_BYTES) this.forget(region);
  }

  /** Frees a region's block; the region then holds none. */
  private forget(region: Scratch): void {
    const old = region.pointer;
    if (region.capacity > KEPT_SCRATCH_BYTES) this.largeRegions--;
    // Forgotten before it is freed and before any new allocation, which may fail (memory at its
    // cap): a region that kept the freed block would hand it out again over whatever took its place.
    region.pointer = 0;
    region.capacity = 0;
    if (old !== 0) this.call(() => this.exports.release(old));
  }

  /** Runs an export; a trap or abort inside the module becomes a RobotsError (it is a bug). */
  call<T>(fn: () => T): T {
    try {
      return fn();
    } catch (error) {
      throw new RobotsError("ROBOTS_ERR_WASM", `robots-wasm engine failed: ${(error as Error)?.message ?? String(error)}`, { cause: error });
    }
  }

  /** Reads `length` bytes of linear memory as text (patterns are ASCII; values may be UTF-8). */
  text(pointer: number, length: number): string {
    return utf8.decode(this.bytes.subarray(pointer, pointer + length));
  }
}

// ignoreBOM: bytes read back from a table keep a byte-order mark they start with (it is content there).
const utf8 = new TextDecoder("utf-8", { ignoreBOM: true });

/**
 * The functions the host calls: a Record, so that the compiler notices one added to EngineExports
 * and not here. A module without them (another WASM file passed to `init`) is refused at load,
 * instead of failing at the first call and leaving the library with an engine it cannot use.
 */
const EXPORTED_FUNCTIONS: Record<Exclude<keyof EngineExports, "memory">, true> = {
  allocate: true, release: true, compile: true, freeTable: true, selectAgents: true,
  countNewlines: true, matchBatch: true, matchAll: true, ruleLine: true, ruleGroup: true,
  rulePriority: true, ruleIsIndexPage: true, ruleIsAllow: true, rulePatternPointer: true,
  rulePatternLength: true, ruleCount: true, groupCount: true, selectedGroupsPointer: true,
  agentCount: true, agentsPointer: true, lineCount: true, linesPointer: true, recordCount: true,
  recordsPointer: true, textPointer: true, configureWildcardIndex: true, configureDfa: true,
  floodCount: true, tableBytes: true, expandPlan: true, scanMetaTags: true, metaTagCount: true,
  metaTagsPointer: true, freeMetaTags: true, formatTsv: true,
};

/**
 * The functions that return an address or a size in linear memory. WebAssembly hands a 32-bit
 * result to JavaScript as signed, so past 2 GiB of memory (a huge file under `maxBytes: Infinity`)
 * an address would read as negative and every view of it would fail.
 */
const UNSIGNED_RESULTS = [
  "allocate", "compile", "agentsPointer", "recordsPointer", "textPointer", "rulePatternPointer",
  "selectedGroupsPointer", "linesPointer", "scanMetaTags", "metaTagsPointer", "tableBytes", "expandPlan",
] as const satisfies readonly (keyof EngineExports)[];

/** The instance's exports as the engine's, or an error naming the first one missing. */
function engineExports(exports: Record<string, unknown>): EngineExports {
  if (!(exports.memory instanceof WebAssembly.Memory)) throw new Error("the module exports no memory: it is not the robots-wasm engine");
  for (const name of Object.keys(EXPORTED_FUNCTIONS)) {
    if (typeof exports[name] !== "function") throw new Error(`the module has no function "${name}": it is not the robots-wasm engine`);
  }
  const engine: Record<string, unknown> = { ...exports };
  for (const name of UNSIGNED_RESULTS) {
    const signed = exports[name] as (...args: number[]) => number;
    engine[name] = (...args: number[]) => signed(...args) >>> 0;
  }
  return engine as unknown as EngineExports;
}

function wasmError(error: unknown): RobotsError {
  const reason = error instanceof Error ? error.message : describeValue(error);
  return new RobotsError("ROBOTS_ERR_WASM", `could not load the robots-wasm module: ${reason}`, { cause: error });
}

/** Instantiates the engine synchronously from its binary or a compiled module. */
export function loadEngine(binary: WasmBytes | WasmModule): Engine {
  try {
    const { exports } = instantiateSync<Record<string, unknown>>(binary as ArrayBuffer, {});
    return new Engine(engineExports(exports));
  } catch (error) {
    throw wasmError(error);
  }
}

/** Instantiates the engine asynchronously (compiles off the main thread in browsers). */
export async function loadEngineAsync(binary: WasmBytes | WasmModule | Response | PromiseLike<Response>): Promise<Engine> {
  try {
    const { exports } = await instantiate<Record<string, unknown>>(binary as ArrayBuffer, {});
    return new Engine(engineExports(exports));
  } catch (error) {
    throw wasmError(error);
  }
}
