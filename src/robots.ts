/**
 * The public `Robots` class on top of the WASM engine: options and input preparation, batches
 * written into linear memory in one pass, one call per batch, results copied out.
 */
import { ALIGNMENT_SLACK, alignmentOf } from "./alignment.js";
import { assertConstructedBy, RobotsError } from "./errors.js";
import { defaultEngine } from "./init.js";
import { prepareInput } from "./input.js";
import { lintRobots } from "./lint/index.js";
import { agentList, assertUrl, isUint8Array, resolveParseOptions, urlBatch } from "./options.js";
import { parseCrawlDelay } from "./records.js";
import type {
  AgentGroups, AgentQuery, BatchResult, Explanation, GroupInfo, InputInfo, LineInfo, LineKind, LintReport, ParseOptions, Profile,
  RecordKey, RobotsRecord, RobotsTxt, RuleMatch, UrlBatch, UserAgentLine,
} from "./types.js";
import { linesCapacity, writeLines, writeUrl } from "./url-bytes.js";
import { ALL_LINES, type Engine, MatchMode } from "./wasm.js";

const PROFILE_CODES: Record<Profile, number> = { google: 0, rfc9309: 1 };

/** LineKind by the engine's code (assembly/table.ts LineKind). */
const LINE_KINDS: readonly LineKind[] = [
  "empty", "comment", "user-agent", "allow", "disallow", "sitemap", "ignored-record", "unknown", "invalid",
];

/** RecordKey by the engine's code (assembly/table.ts RecordKind); 0 is an unknown key. */
const RECORD_KEYS: readonly (RecordKey | undefined)[] = [
  undefined, "sitemap", "crawl-delay", "request-rate", "visit-time", "host", "clean-param",
  "content-signal", "content-usage", "noindex", "nofollow", "noarchive",
];

const LINE_FLAG = { comment: 1, typo: 2, missingColon: 4, tooLong: 8, outsideGroup: 16 } as const;
const RECORD_FIELDS = 7;
const AGENT_FIELDS = 7;
const NO_GROUP = 0xffffffff;

/** URLs per engine call for string batches: bounds the scratch memory of huge arrays. */
const STRING_CHUNK_URLS = 16_384;
/**
 * Room per engine call for string batches (three bytes a UTF-16 unit, linesCapacity), past which a
 * chunk ends before STRING_CHUNK_URLS: 30 URLs of 12 MB each (valid: under MAX_URL_BYTES) asked
 * for one block of 1 GB, past the engine's largest, and the batch failed. A longer URL is a chunk
 * of its own.
 */
const STRING_CHUNK_BYTES = 64 << 20;

/** The end of the string chunk that starts at `start`: STRING_CHUNK_URLS URLs, or fewer within STRING_CHUNK_BYTES. */
function stringChunkEnd(urls: readonly string[], start: number): number {
  const last = Math.min(urls.length, start + STRING_CHUNK_URLS);
  let room = 0;
  for (let end = start; end < last; end++) {
    room += urls[end]!.length * 3 + 1;
    if (room > STRING_CHUNK_BYTES && end > start) return end;
  }
  return last;
}
/** Bytes per engine call for byte batches (cut at a line end). */
const BYTE_CHUNK_BYTES = 8 << 20;

/**
 * #decideOne's scratch region: the URL's [start, end) offsets (two u32), its verdict (a byte, in
 * four so that the detail stays aligned), its detail (a u32), then its bytes.
 */
const OneUrl = { offsets: 0, verdict: 8, detail: 12, bytes: 16 } as const;

const utf8Encoder = new TextEncoder();
// ignoreBOM: a byte-order mark inside the file is an ordinary character of the key or value it
// starts (robots-txt.md section 1), which a default decoder would drop without a trace.
const utf8Decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/** Frees tables whose Robots was garbage-collected without dispose() (a safety net, not the plan). */
const leakedTables = new FinalizationRegistry<{ engine: Engine; handle: number; bytes: number }>(({ engine, handle, bytes }) => {
  outstandingBytes -= bytes;
  engine.exports.freeTable(handle);
});

/**
 * Table bytes (as parsed) of the Robots neither disposed nor collected. V8 sees a table as
 * nothing, so a Robots dropped without dispose() looks like a few hundred bytes, and it collects
 * them so rarely that the safety net above let WASM memory reach its 4 GiB cap (a 3.5 MB file
 * parsed and dropped in a loop; the engine then fails). Past BALLAST_ABOVE, each new Robots
 * carries an ArrayBuffer of twice its table as parsed (its plan grows it later), never touched,
 * which V8 counts: it then collects, the net frees the dropped tables, and the count falls back
 * (that loop then peaks at 976 MB of linear memory, the file's tables grown by their plans before
 * the ballast starts; at 128 MiB it peaked at 488 MB, but a full default RobotsCache, 256 MiB,
 * would then carry ballast). Callers who dispose never get there, and pay nothing.
 */
let outstandingBytes = 0;
const BALLAST_ABOVE = 256 << 20;

/**
 * A buffer V8 counts, never written: in Node not zeroed either (Buffer.allocUnsafeSlow), so that
 * its pages are not made resident; a zeroed ArrayBuffer elsewhere.
 */
function ballast(bytes: number): ArrayBufferLike {
  const nodeBuffer = (globalThis as { Buffer?: { allocUnsafeSlow(size: number): Uint8Array } }).Buffer;
  return nodeBuffer === undefined ? new ArrayBuffer(bytes) : nodeBuffer.allocUnsafeSlow(bytes).buffer;
}

/** A batch's verdicts and, when asked for, a u32 per URL (matching lines or rules). */
export interface RawBatch {
  allowed: Uint8Array;
  details: Uint32Array | undefined;
}

/**
 * For the worker pool (parallel-worker.ts), not part of the API: `robots[classifyInMemory](pointer,
 * length, agents, withLines, strings?)` classifies a newline batch that already lies in the
 * engine's own memory, where the pool wrote it, without copying it; with `strings`, that many
 * strings written as lines (url-bytes.ts).
 */
export const classifyInMemory = Symbol("classifyInMemory");

/** What parseWith passes the constructor: only this module constructs a Robots. */
const CONSTRUCT: unique symbol = Symbol("Robots");

/** Parses a robots.txt with a given engine instance (tests use it to run the debug build). */
export function parseWith(engine: Engine, body: string | Uint8Array, options?: ParseOptions): Robots {
  const { profile, maxBytes, keepSource } = resolveParseOptions(options);
  const { bytes, info } = prepareInput(body, maxBytes);
  const pointer = engine.scratch("body", bytes.length);
  // A detached array (its buffer transferred) reads as empty, as its length says; set() would throw.
  if (bytes.length > 0) engine.bytes.set(bytes, pointer);
  const handle = engine.call(() => engine.exports.compile(pointer, bytes.length, PROFILE_CODES[profile]));
  engine.releaseScratch("body");
  const source = keepSource ? (bytes.length > 0 ? bytes.slice() : new Uint8Array(0)) : undefined;
  return new Robots(CONSTRUCT, engine, handle, profile, info, source);
}

/** User-agent lines with their group index, decoded from the table's text. */
function readUserAgents(engine: Engine, handle: number): { group: number; agent: UserAgentLine }[] {
  const count = engine.exports.agentCount(handle);
  const base = engine.exports.agentsPointer(handle) >>> 2;
  const text = engine.exports.textPointer(handle);
  const { words, bytes } = engine;
  const agents: { group: number; agent: UserAgentLine }[] = [];
  for (let i = 0; i < count; i++) {
    const at = base + i * AGENT_FIELDS;
    const [group, global, , tokenLength, line, valueStart, valueLength] = words.subarray(at, at + AGENT_FIELDS);
    const value = utf8Decoder.decode(bytes.subarray(text + valueStart, text + valueStart + valueLength));
    // The token is ASCII, so its byte length is its length in characters.
    agents.push({ group, agent: { line, value, global: global === 1, token: value.slice(0, tokenLength) } });
  }
  return agents;
}

/** The records (robots-txt.md: every key that is not user-agent, allow or disallow), decoded from the table's text. */
/**
 * A list handed out once and kept: frozen with its items, as the reference's are, so that a
 * caller's change cannot reach the next caller (or lint, which reads them).
 */
function frozen<T extends object>(items: T[]): readonly T[] {
  for (const item of items) Object.freeze(item);
  return Object.freeze(items);
}

function readRecords(engine: Engine, handle: number): RobotsRecord[] {
  const count = engine.exports.recordCount(handle);
  const base = engine.exports.recordsPointer(handle) >>> 2;
  const text = engine.exports.textPointer(handle);
  const { words, bytes } = engine;
  const records: RobotsRecord[] = [];
  for (let i = 0; i < count; i++) {
    const at = base + i * RECORD_FIELDS;
    // Fields read one by one: a destructured subarray per record costs an allocation each.
    const line = words[at];
    const kind = words[at + 1];
    const group = words[at + 2];
    const keyStart = words[at + 3];
    const keyLength = words[at + 4];
    const valueStart = words[at + 5];
    const valueLength = words[at + 6];
    const known = RECORD_KEYS[kind];
    records.push({
      line,
      key: known ?? asciiLowerCase(utf8Decoder.decode(bytes.subarray(text + keyStart, text + keyStart + keyLength))),
      known: known !== undefined,
      value: utf8Decoder.decode(bytes.subarray(text + valueStart, text + valueStart + valueLength)),
      group: group === NO_GROUP ? null : group,
    });
  }
  return records;
}

/** Keys are ASCII-case-insensitive; other characters keep their case. */
function asciiLowerCase(text: string): string {
  return /[A-Z]/.test(text) ? text.replace(/[A-Z]+/g, (upper) => upper.toLowerCase()) : text;
}

export class Robots implements RobotsTxt {
  /** Parses a robots.txt body. Content never throws; bad options do (`ROBOTS_ERR_INVALID_OPTION`). */
  static parse(body: string | Uint8Array, options?: ParseOptions): Robots {
    return parseWith(defaultEngine("Robots.parse"), body, options);
  }

  readonly #profile: Profile;
  readonly #input: InputInfo;
  readonly #engine: Engine;
  #handle: number;
  /** Decoded on first use (as are the groups' agents): most callers only match, and a page of HTML served as robots.txt has thousands of records. */
  #records: readonly RobotsRecord[] | undefined;
  #lines: readonly LineInfo[] | undefined;
  /** The bytes parsed, only with `keepSource` (the table does not need them). */
  #source: Uint8Array | undefined;
  #groups: readonly GroupInfo[] | undefined;
  /** The agents the table's current group selection was made for, and its scope. */
  #selectedAgents: readonly string[] | undefined;
  #selectedScope = 0;
  /** The table's bytes when parsed, counted in outstandingBytes until dispose() or collection. */
  readonly #parsedBytes: number;
  /** See outstandingBytes. */
  #ballast: ArrayBufferLike | undefined;

  /** @internal Use `Robots.parse`. */
  constructor(token: typeof CONSTRUCT, engine: Engine, handle: number, profile: Profile, input: InputInfo, source?: Uint8Array) {
    // Before the finalizer knows of this object: it would free a table that is not there.
    assertConstructedBy(token, CONSTRUCT, "Robots", "Robots.parse(body, options)");
    this.#engine = engine;
    this.#handle = handle;
    this.#profile = profile;
    this.#input = Object.freeze(input);
    this.#source = source;
    this.#parsedBytes = engine.exports.tableBytes(handle);
    outstandingBytes += this.#parsedBytes;
    if (outstandingBytes > BALLAST_ABOVE) this.#ballast = ballast(this.#parsedBytes * 2);
    leakedTables.register(this, { engine, handle, bytes: this.#parsedBytes }, this);
  }

  // Every method and getter checks first that the object was not disposed, then its arguments (as
  // the reference does): a disposed object answers ROBOTS_ERR_DISPOSED whatever it is asked.

  get profile(): Profile {
    this.#live();
    return this.#profile;
  }

  get input(): InputInfo {
    this.#live();
    return this.#input;
  }

  isAllowed(url: string, agent: AgentQuery): boolean {
    this.#live();
    assertUrl(url);
    return this.#decideOne(url, agentList(agent), 0);
  }

  explain(url: string, agent: AgentQuery): Explanation {
    this.#live();
    assertUrl(url);
    const agents = agentList(agent);
    const allowed = this.#decideOne(url, agents, MatchMode.rules);
    const rule = this.#oneDetail - 1;
    if (rule < 0) return { allowed, line: 0 };
    const { exports } = this.#engine;
    const handle = this.#handle;
    return {
      allowed,
      line: exports.ruleLine(handle, rule),
      rule: {
        kind: exports.ruleIsAllow(handle, rule) ? "allow" : "disallow",
        pattern: this.#engine.text(exports.rulePatternPointer(handle, rule), exports.rulePatternLength(handle, rule)),
        // The batch just selected the groups for these agents.
        group: this.#scope(agents) === 1 ? "specific" : "global",
      },
    };
  }

  classify(urls: UrlBatch, agent: AgentQuery): Uint8Array {
    this.#live();
    return this.#run(urlBatch(urls), agentList(agent), 0).allowed;
  }

  classifyWithLines(urls: UrlBatch, agent: AgentQuery): BatchResult {
    this.#live();
    const { allowed, details } = this.#run(urlBatch(urls), agentList(agent), MatchMode.lines);
    return { allowed, lines: details! };
  }

  matchingRules(url: string, agent: AgentQuery): RuleMatch[] {
    this.#live();
    assertUrl(url);
    const agents = agentList(agent);
    const scope = this.#scope(agents);
    const engine = this.#engine;
    const handle = this.#handle;
    const urlPointer = engine.scratch("urls", url.length * 3);
    const length = writeUrl(url, engine.bytes, urlPointer);
    const capacity = engine.exports.ruleCount(handle);
    const out = engine.scratch("details", capacity * 4);
    const count = engine.call(() => engine.exports.matchAll(handle, urlPointer, length, out, capacity));
    const rules = Array.from(engine.words.subarray(out >>> 2, (out >>> 2) + count));
    engine.releaseScratch("urls");
    engine.releaseScratch("details");
    return rules.map((rule) => ({
      kind: engine.exports.ruleIsAllow(handle, rule) ? "allow" : "disallow",
      pattern: engine.text(engine.exports.rulePatternPointer(handle, rule), engine.exports.rulePatternLength(handle, rule)),
      group: scope === 1 ? "specific" : "global",
      line: engine.exports.ruleLine(handle, rule),
      priority: engine.exports.rulePriority(handle, rule),
      indexPage: engine.exports.ruleIsIndexPage(handle, rule) === 1,
    }));
  }

  get groups(): readonly GroupInfo[] {
    const handle = this.#live();
    if (this.#groups === undefined) {
      const { exports } = this.#engine;
      const groupCount = exports.groupCount(handle);
      const ruleLines = new Array<number>(groupCount).fill(0);
      for (let rule = 0, count = exports.ruleCount(handle); rule < count; rule++) {
        // The index-page rule is implied by its allow line, not a line of its own.
        if (!exports.ruleIsIndexPage(handle, rule)) ruleLines[exports.ruleGroup(handle, rule)]++;
      }
      const groups: GroupInfo[] = ruleLines.map((lines, index) => ({ index, userAgents: [], ruleLines: lines }));
      for (const { group, agent } of readUserAgents(this.#engine, handle)) (groups[group].userAgents as UserAgentLine[]).push(Object.freeze(agent));
      for (const group of groups) Object.freeze(group.userAgents);
      this.#groups = frozen(groups);
    }
    return this.#groups;
  }

  groupsFor(agent: AgentQuery): AgentGroups {
    this.#live();
    const agents = agentList(agent);
    const scope = this.#scope(agents);
    const { exports } = this.#engine;
    const groupCount = exports.groupCount(this.#handle);
    const start = exports.selectedGroupsPointer(this.#handle);
    const selected = this.#engine.bytes.subarray(start, start + groupCount);
    const groups: number[] = [];
    selected.forEach((flag, index) => flag === 1 && groups.push(index));
    return { scope: scope === 1 ? "specific" : "global", groups };
  }

  get sitemaps(): readonly string[] {
    return this.#recordList().filter((record) => record.key === "sitemap" && record.value !== "").map((record) => record.value);
  }

  get records(): readonly RobotsRecord[] {
    return this.#recordList();
  }

  crawlDelay(agent: AgentQuery): number | undefined {
    this.#live();
    const agents = agentList(agent);
    const { groups } = this.groupsFor(agents);
    const selected = new Set(groups);
    for (const record of this.#recordList()) {
      if (record.key !== "crawl-delay" || record.group === null || !selected.has(record.group)) continue;
      const seconds = parseCrawlDelay(record.value);
      if (seconds !== undefined) return seconds;
    }
    return undefined;
  }

  get lines(): readonly LineInfo[] {
    this.#live();
    this.#lines ??= frozen(this.#readLines());
    return this.#lines;
  }

  lint(): LintReport {
    this.#live();
    return lintRobots(this, this.#source);
  }

  /** Bytes of WebAssembly memory the compiled table holds (for cache accounting). */
  get tableBytes(): number {
    return this.#engine.exports.tableBytes(this.#live());
  }

  /** Frees the compiled table's WASM memory for reuse. Idempotent. */
  dispose(): void {
    if (this.#handle === 0) return;
    leakedTables.unregister(this);
    const handle = this.#handle;
    this.#handle = 0;
    this.#source = undefined;
    this.#ballast = undefined;
    outstandingBytes -= this.#parsedBytes;
    this.#engine.call(() => this.#engine.exports.freeTable(handle));
  }

  #recordList(): readonly RobotsRecord[] {
    const handle = this.#live();
    this.#records ??= frozen(readRecords(this.#engine, handle));
    return this.#records;
  }

  #live(): number {
    if (this.#handle === 0) throw new RobotsError("ROBOTS_ERR_DISPOSED", "this Robots was disposed");
    return this.#handle;
  }

  #readLines(): LineInfo[] {
    const { exports } = this.#engine;
    const count = exports.lineCount(this.#handle);
    const start = exports.linesPointer(this.#handle);
    const bytes = this.#engine.bytes.subarray(start, start + count * 2);
    const lines: LineInfo[] = [];
    for (let i = 0; i < count; i++) {
      const flags = bytes[i * 2 + 1];
      lines.push({
        line: i + 1,
        kind: LINE_KINDS[bytes[i * 2]],
        hasComment: (flags & LINE_FLAG.comment) !== 0,
        typo: (flags & LINE_FLAG.typo) !== 0,
        missingColon: (flags & LINE_FLAG.missingColon) !== 0,
        tooLong: (flags & LINE_FLAG.tooLong) !== 0,
        outsideGroup: (flags & LINE_FLAG.outsideGroup) !== 0,
      });
    }
    return lines;
  }

  /** Selects the groups for the agents, once per agent list; returns 0 none, 1 specific, 2 global. */
  #scope(agents: readonly string[]): number {
    const handle = this.#live();
    const last = this.#selectedAgents;
    if (last !== undefined && sameAgents(last, agents)) return this.#selectedScope;
    const engine = this.#engine;
    let size = 0;
    const encoded = agents.map((name) => utf8Encoder.encode(name));
    for (const name of encoded) size += 4 + name.length;
    const pointer = engine.scratch("agents", size);
    const bytes = engine.bytes;
    const view = new DataView(bytes.buffer);
    let at = pointer;
    for (const name of encoded) {
      view.setUint32(at, name.length, true);
      bytes.set(name, at + 4);
      at += 4 + name.length;
    }
    this.#selectedScope = engine.call(() => engine.exports.selectAgents(handle, pointer, size));
    engine.releaseScratch("agents");
    this.#selectedAgents = agents.slice();
    return this.#selectedScope;
  }

  /** The detail (mode) of the last #decideOne, read before its region was released. */
  #oneDetail = 0;

  /**
   * One URL, without the batch's arrays: decided in one scratch region (OneUrl), with offsets so
   * that an LF in it stays part of it. Returns the verdict; the detail (`mode`) is left in #oneDetail.
   */
  #decideOne(url: string, agents: readonly string[], mode: number): boolean {
    this.#scope(agents);
    const engine = this.#engine;
    const region = engine.scratch("one", OneUrl.bytes + url.length * 3);
    const start = region + OneUrl.bytes;
    // One look at the memory's buffer before the call and one after (each costs about 18 ns).
    const bytes = engine.bytes;
    const length = writeUrl(url, bytes, start);
    storeU32(bytes, region + OneUrl.offsets, 0);
    storeU32(bytes, region + OneUrl.offsets + 4, length);
    const details = mode === 0 ? 0 : region + OneUrl.detail;
    engine.call(() => engine.exports.matchBatch(this.#handle, start, length, region + OneUrl.offsets, 1, region + OneUrl.verdict, details, mode));
    const allowed = engine.bytes[region + OneUrl.verdict] === 1;
    if (mode !== 0) this.#oneDetail = engine.words[(region + OneUrl.detail) >>> 2]!;
    engine.releaseScratch("one");
    return allowed;
  }

  /** The batch and agents are the library's own copies (urlBatch, agentList): no caller's code runs from here on. */
  #run(urls: UrlBatch, agents: readonly string[], mode: number): RawBatch {
    this.#scope(agents);
    const result = isUint8Array(urls) ? this.#runBytes(urls, mode) : this.#runStrings(urls, mode);
    this.#releaseBatchScratch();
    return result;
  }

  /** Gives back the regions of a batch that needed large ones (Engine.releaseScratch); the results are copies. */
  #releaseBatchScratch(): void {
    const engine = this.#engine;
    engine.releaseScratch("urls");
    engine.releaseScratch("offsets");
    engine.releaseScratch("verdicts");
    engine.releaseScratch("details");
  }

  /** A newline-separated byte batch, copied into memory in chunks that end at a line end. */
  #runBytes(urls: Uint8Array, mode: number): RawBatch {
    const engine = this.#engine;
    const chunks: RawBatch[] = [];
    let total = 0;
    for (let start = 0; start < urls.length; ) {
      let end = Math.min(start + BYTE_CHUNK_BYTES, urls.length);
      if (end < urls.length) {
        const lastNewline = urls.lastIndexOf(0x0a, end - 1);
        end = lastNewline >= start ? lastNewline + 1 : urls.indexOf(0x0a, end) + 1 || urls.length;
      }
      const chunk = urls.subarray(start, end);
      const pointer = engine.scratch("urls", chunk.length + ALIGNMENT_SLACK) + alignmentOf(chunk);
      engine.bytes.set(chunk, pointer);
      const result = this.#matchLines(pointer, chunk.length, mode);
      chunks.push(result);
      total += result.allowed.length;
      start = end;
    }
    return concatBatches(chunks, total, mode !== 0);
  }

  /** Decides the newline batch of `length` bytes at `pointer` in the engine's memory. */
  #matchLines(pointer: number, length: number, mode: number): RawBatch {
    // Plain verdicts need no line count up front (the engine stops at the end); details are a u32
    // per URL, so their scratch is sized by an exact count (no entry after a final LF).
    let count = ALL_LINES;
    if (length === 0) count = 0;
    else if (mode !== 0) {
      const engine = this.#engine;
      count = engine.call(() => engine.exports.countNewlines(pointer, length)) + (engine.bytes[pointer + length - 1] === 0x0a ? 0 : 1);
    }
    return this.#match(pointer, length, 0, count, mode | MatchMode.stripCarriageReturn);
  }

  [classifyInMemory](pointer: number, length: number, agents: readonly string[], withLines: boolean, strings?: number): RawBatch {
    this.#scope(agents);
    const mode = withLines ? MatchMode.lines : 0;
    // Strings written as lines (url-bytes.ts): one line each, and a CR stays part of its string.
    const result = strings === undefined ? this.#matchLines(pointer, length, mode) : this.#match(pointer, length, 0, strings, mode);
    // The batch lies in the caller's landing region, which it keeps; the answers' regions are this call's.
    this.#releaseBatchScratch();
    return result;
  }

  /** A string batch: each chunk written as lines (url-bytes.ts), with offsets only when a URL holds an LF. */
  #runStrings(urls: readonly string[], mode: number): RawBatch {
    const engine = this.#engine;
    const chunks: RawBatch[] = [];
    for (let start = 0, end = 0; start < urls.length; start = end) {
      end = stringChunkEnd(urls, start);
      const pointer = engine.scratch("urls", linesCapacity(urls, start, end));
      const written = writeLines(urls, start, end, engine.bytes, pointer);
      const newlines = engine.call(() => engine.exports.countNewlines(pointer, written));
      if (newlines === end - start) {
        chunks.push(this.#match(pointer, written, 0, end - start, mode));
      } else {
        chunks.push(this.#matchWithOffsets(urls, start, end, mode));
      }
    }
    return concatBatches(chunks, urls.length, mode !== 0);
  }

  /** Fallback for urls[start..end) when some hold an LF themselves: explicit [start, end) byte offsets per URL. */
  #matchWithOffsets(urls: readonly string[], start: number, end: number, mode: number): RawBatch {
    const engine = this.#engine;
    const count = end - start;
    const offsetsPointer = engine.scratch("offsets", (count + 1) * 4);
    // Room for the lines' form; written here without the line feeds.
    const pointer = engine.scratch("urls", linesCapacity(urls, start, end));
    const bytes = engine.bytes;
    const words = engine.words;
    let at = pointer;
    for (let i = 0; i < count; i++) {
      words[(offsetsPointer >>> 2) + i] = at - pointer;
      at += writeUrl(urls[start + i]!, bytes, at);
    }
    words[(offsetsPointer >>> 2) + count] = at - pointer;
    return this.#match(pointer, at - pointer, offsetsPointer, count, mode);
  }

  /** Runs matchBatch; `count` ALL_LINES (newline batches without details) decides every line. */
  #match(urls: number, length: number, offsets: number, count: number, mode: number): RawBatch {
    const engine = this.#engine;
    const handle = this.#handle;
    // A batch of `length` bytes holds at most length + 1 lines.
    const verdicts = engine.scratch("verdicts", count === ALL_LINES ? length + 1 : count);
    const details = mode & (MatchMode.lines | MatchMode.rules) ? engine.scratch("details", count * 4) : 0;
    const done = engine.call(() => engine.exports.matchBatch(handle, urls, length, offsets, count, verdicts, details, mode));
    if (count !== ALL_LINES && done !== count) throw new RobotsError("ROBOTS_ERR_WASM", `engine decided ${done} of ${count} URLs`);
    return {
      allowed: engine.bytes.slice(verdicts, verdicts + done),
      details: details === 0 ? undefined : engine.words.slice(details >>> 2, (details >>> 2) + done),
    };
  }
}

function concatBatches(chunks: RawBatch[], total: number, withDetails: boolean): RawBatch {
  if (chunks.length === 1) return chunks[0];
  const allowed = new Uint8Array(total);
  const details = withDetails ? new Uint32Array(total) : undefined;
  let at = 0;
  for (const chunk of chunks) {
    allowed.set(chunk.allowed, at);
    if (details !== undefined) details.set(chunk.details!, at);
    at += chunk.allowed.length;
  }
  return { allowed, details };
}

function sameAgents(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A little-endian u32 into byte memory (the engine's memory is little-endian, as WebAssembly is). */
function storeU32(bytes: Uint8Array, at: number, value: number): void {
  bytes[at] = value;
  bytes[at + 1] = value >>> 8;
  bytes[at + 2] = value >>> 16;
  bytes[at + 3] = value >>> 24;
}
