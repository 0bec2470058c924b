/**
 * `Robots`: the reference implementation of the `RobotsTxt` interface.
 */
import { binaryToUtf8, bytesToBinary, utf8ToBinary } from "./bytes.js";
import { splitUrlBatch } from "./batch.js";
import { buildModel } from "./builder.js";
import type { Group, RobotsModel } from "./model.js";
import { profileSwitches, type ProfileSwitches } from "./profile.js";
import { crawlDelayFor } from "./records.js";
import { Verdicts } from "./verdict.js";
import { assertConstructedBy, RobotsError } from "../errors.js";
import { lintRobots } from "../lint/index.js";
import { prepareInput } from "../input.js";
import { agentList, assertUrl, isUint8Array, resolveParseOptions, urlBatch } from "../options.js";
import type {
  AgentGroups,
  AgentQuery,
  BatchResult,
  GroupInfo,
  Explanation,
  InputInfo,
  LineInfo,
  LintReport,
  ParseOptions,
  Profile,
  RobotsRecord,
  RuleMatch,
  RobotsTxt,
  UrlBatch,
} from "../types.js";

function freezeAll<T extends object>(items: T[]): readonly Readonly<T>[] {
  for (const item of items) Object.freeze(item);
  return Object.freeze(items);
}

/** The public view of a group: its user-agent lines as written, and how many rule lines it has. */
function describeGroup(group: Group): GroupInfo {
  return Object.freeze({
    index: group.index,
    userAgents: Object.freeze(
      group.userAgents.map((agent) =>
        Object.freeze({ line: agent.line, value: binaryToUtf8(agent.value), global: agent.global, token: agent.global ? "" : agent.token }),
      ),
    ),
    // The index-page rule is implied by its allow line, not a line of its own.
    ruleLines: group.rules.filter((rule) => !rule.indexPage).length,
  });
}

/** What parse() passes the constructor (private in TypeScript, not in plain JavaScript). */
const CONSTRUCT: unique symbol = Symbol("Robots");

export class Robots implements RobotsTxt {
  readonly #switches: ProfileSwitches;
  readonly #model: RobotsModel;
  readonly #verdicts: Verdicts;
  readonly #sitemaps: readonly string[];
  readonly #records: readonly RobotsRecord[];
  readonly #lines: readonly LineInfo[];
  readonly #input: InputInfo;
  readonly #groups: readonly GroupInfo[];
  /** The bytes parsed, only with `keepSource`. */
  readonly #source: Uint8Array | undefined;
  #disposed = false;

  private constructor(token: typeof CONSTRUCT, switches: ProfileSwitches, model: RobotsModel, input: InputInfo, source: Uint8Array | undefined) {
    assertConstructedBy(token, CONSTRUCT, "Robots", "Robots.parse(body, options)");
    this.#switches = switches;
    this.#model = model;
    this.#verdicts = new Verdicts(model.groups, switches);
    // Handed out as they are, so frozen: callers cannot change what later calls see.
    this.#sitemaps = Object.freeze(model.sitemaps);
    this.#records = freezeAll(model.records);
    this.#lines = freezeAll(model.lines);
    this.#input = Object.freeze({ ...input });
    this.#groups = Object.freeze(model.groups.map(describeGroup));
    this.#source = source;
  }

  /**
   * Parses a robots.txt body. Never throws because of the content; throws `RobotsError` for an
   * invalid option (`ROBOTS_ERR_INVALID_OPTION`) or a body that is neither a string nor bytes
   * (`ROBOTS_ERR_INVALID_BODY`).
   */
  static parse(body: string | Uint8Array, options?: ParseOptions): Robots {
    const { profile, maxBytes, keepSource } = resolveParseOptions(options);
    const input = prepareInput(body, maxBytes);
    const switches = profileSwitches(profile);
    // The BOM (if any) is still in the bytes; the line splitter skips it (decision 4).
    const model = buildModel(bytesToBinary(input.bytes), switches);
    return new Robots(CONSTRUCT, switches, model, input.info, keepSource ? (input.bytes.length > 0 ? input.bytes.slice() : new Uint8Array(0)) : undefined);
  }

  get profile(): Profile {
    this.#assertLive();
    return this.#switches.profile;
  }

  isAllowed(url: string, agent: AgentQuery): boolean {
    return this.explain(url, agent).allowed;
  }

  explain(url: string, agent: AgentQuery): Explanation {
    this.#assertLive();
    assertUrl(url);
    const agents = agentList(agent);
    return this.#verdicts.forAgents(agents)(utf8ToBinary(url));
  }

  classify(urls: UrlBatch, agent: AgentQuery): Uint8Array {
    return this.classifyWithLines(urls, agent).allowed;
  }

  classifyWithLines(urls: UrlBatch, agent: AgentQuery): BatchResult {
    this.#assertLive();
    const batch = urlBatch(urls);
    const agents = agentList(agent);
    // String URLs are UTF-8 encoded; a byte batch is used as given (decision 27).
    const urlBytes = isUint8Array(batch) ? splitUrlBatch(batch) : batch.map(utf8ToBinary);
    const explain = this.#verdicts.forAgents(agents);
    const allowed = new Uint8Array(urlBytes.length);
    const lines = new Uint32Array(urlBytes.length);
    urlBytes.forEach((url, i) => {
      const explanation = explain(url);
      allowed[i] = explanation.allowed ? 1 : 0;
      lines[i] = explanation.line;
    });
    return { allowed, lines };
  }

  matchingRules(url: string, agent: AgentQuery): RuleMatch[] {
    this.#assertLive();
    assertUrl(url);
    return this.#verdicts.matchingRules(agentList(agent), utf8ToBinary(url));
  }

  get groups(): readonly GroupInfo[] {
    this.#assertLive();
    return this.#groups;
  }

  groupsFor(agent: AgentQuery): AgentGroups {
    this.#assertLive();
    return this.#verdicts.groupsFor(agentList(agent));
  }

  get sitemaps(): readonly string[] {
    this.#assertLive();
    return this.#sitemaps;
  }

  crawlDelay(agent: AgentQuery): number | undefined {
    this.#assertLive();
    return crawlDelayFor(this.#model.groups, this.#model.records, agentList(agent));
  }

  get records(): readonly RobotsRecord[] {
    this.#assertLive();
    return this.#records;
  }

  get lines(): readonly LineInfo[] {
    this.#assertLive();
    return this.#lines;
  }

  get input(): InputInfo {
    this.#assertLive();
    return this.#input;
  }

  lint(): LintReport {
    this.#assertLive();
    return lintRobots(this, this.#source);
  }

  /** Nothing to free in the reference; marks the object unusable, like the WASM engine. Idempotent. */
  dispose(): void {
    this.#disposed = true;
  }

  #assertLive(): void {
    if (this.#disposed) throw new RobotsError("ROBOTS_ERR_DISPOSED", "this Robots was disposed");
  }
}
