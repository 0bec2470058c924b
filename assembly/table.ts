// The compiled form of one robots.txt: everything the matcher and the host need, in flat arrays of
// u32 fields. Nothing points into the body the host passed, which it frees after the compile:
// record keys and values and user-agent values are copied into `text` as written, patterns and
// agent tokens into the table's own pool because they are rewritten.

import { freeKept } from "./kept-selections";
import { MatchPlan } from "./plan";
import { Vec } from "./vec";

export const enum Profile {
  GOOGLE = 0,
  RFC9309 = 1,
}

/** Where `Vec.u32At` finds each field of a rule; a rule is RULE_FIELDS u32 values. */
export const enum RuleField {
  LINE = 0,
  FLAGS = 1,
  GROUP = 2,
  PATTERN_START = 3,
  PATTERN_LENGTH = 4,
  /** The priority of a rule is the length of its compiled pattern: one field serves both. */
  PRIORITY = 4,
  /** Bytes before the first `*` (or before the final `$`): a literal prefix every match starts with. */
  PREFIX_LENGTH = 5,
  COUNT = 6,
}
export const RULE_FIELDS: u32 = RuleField.COUNT;

export const enum RuleFlag {
  ALLOW = 1,
  /** Google-specific: the `/dir/$` twin of an allow rule ending in `/index.htm...`. */
  INDEX_PAGE = 2,
  /** The pattern ends with the `$` anchor. */
  ANCHORED = 4,
  /** The pattern holds at least one `*`. */
  WILDCARD = 8,
}

export const enum AgentField {
  GROUP = 0,
  /** 1 for `*`, else 0. */
  GLOBAL = 1,
  /** Lower-cased token bytes in the pool. */
  TOKEN_START = 2,
  TOKEN_LENGTH = 3,
  LINE = 4,
  /** The value as written, in the table's `text`. */
  VALUE_START = 5,
  VALUE_LENGTH = 6,
  COUNT = 7,
}
export const AGENT_FIELDS: u32 = AgentField.COUNT;

export const enum RecordField {
  LINE = 0,
  KIND = 1,
  /** NO_GROUP for sitemaps and records before the first user-agent line. */
  GROUP = 2,
  /** Key and value as written, in the table's `text`. */
  KEY_START = 3,
  KEY_LENGTH = 4,
  VALUE_START = 5,
  VALUE_LENGTH = 6,
  COUNT = 7,
}
export const RECORD_FIELDS: u32 = RecordField.COUNT;
export const NO_GROUP: u32 = 0xffffffff;
/** No rule: a rank (position in decision order, see plan.ts) larger than any. */
export const NO_RANK: u32 = 0xffffffff;

/** What a line is; mirrors `LineKind` in src/types.ts (same order). */
export const enum LineKind {
  EMPTY = 0,
  COMMENT = 1,
  USER_AGENT = 2,
  ALLOW = 3,
  DISALLOW = 4,
  SITEMAP = 5,
  IGNORED_RECORD = 6,
  UNKNOWN = 7,
  INVALID = 8,
}

export const enum LineFlag {
  HAS_COMMENT = 1,
  TYPO = 2,
  MISSING_COLON = 4,
  TOO_LONG = 8,
  OUTSIDE_GROUP = 16,
}

/** Records that do not affect matching; mirrors `RecordKey` in src/types.ts (0 = unknown key). */
export const enum RecordKind {
  UNKNOWN = 0,
  SITEMAP = 1,
  CRAWL_DELAY = 2,
  REQUEST_RATE = 3,
  VISIT_TIME = 4,
  HOST = 5,
  CLEAN_PARAM = 6,
  CONTENT_SIGNAL = 7,
  CONTENT_USAGE = 8,
  NOINDEX = 9,
  NOFOLLOW = 10,
  NOARCHIVE = 11,
}

/** Which groups decide for the agents of the current selection. */
export const enum Scope {
  /** No group names the agents and there is no `*` group: everything is allowed. */
  NONE = 0,
  SPECIFIC = 1,
  GLOBAL = 2,
}

@unmanaged
export class RuleTable {
  profile: u32;
  groupCount: u32;
  /** Rules in file order, RULE_FIELDS u32 each. */
  rules: Vec;
  /** Rule indices in decision order: priority descending, allow before disallow, line ascending. */
  order: Vec;
  /** Pattern and token bytes. */
  pool: Vec;
  agents: Vec;
  records: Vec;
  /**
   * Record keys and values and user-agent values as written. The body is not kept, so the host
   * decodes these on demand instead of turning every record into strings at parse time.
   */
  text: Vec;
  /** Two bytes per line: LineKind, LineFlag bits. */
  lines: Vec;
  /** The agents the selection below was made for (the host's encoded agent list). */
  selectedFor: Vec;
  selectionValid: bool;
  scope: u32;
  /** One byte per group: 1 if it decides for the selected agents. */
  selectedGroups: Vec;
  /** Indices of the rules of the selected groups, in decision order (a rule's rank is its position). */
  selectedRules: Vec;
  /** The index over selectedRules, built on first use. */
  plan: MatchPlan | null;
  /** Earlier selections of other groups, kept for a return to them (select.ts); 0 until one is kept. */
  keptSelections: usize;

  static create(profile: u32, inputLength: usize): RuleTable {
    const table = changetype<RuleTable>(heap.alloc(offsetof<RuleTable>()));
    table.profile = profile;
    table.groupCount = 0;
    // Sized for a file of rule lines (about 24 bytes each), so that a large file is not copied
    // through a dozen doublings; shrink() gives back what a file of other lines did not use.
    table.rules = Vec.create(max<usize>(inputLength / 24, 8) * (RULE_FIELDS << 2));
    table.order = Vec.create(64);
    // Patterns are about half of a rule file's bytes (at most three times their source bytes:
    // the pool grows if escapes need it).
    table.pool = Vec.create(inputLength >> 1);
    table.agents = Vec.create(64);
    table.records = Vec.create(64);
    table.text = Vec.create(64);
    table.lines = Vec.create(inputLength / 12);
    table.selectedFor = Vec.create(16);
    table.selectionValid = false;
    table.scope = Scope.NONE;
    table.selectedGroups = Vec.create(16);
    table.selectedRules = Vec.create(64);
    table.plan = null;
    table.keptSelections = 0;
    return table;
  }

  // @ts-ignore: decorator
  @inline get ruleCount(): u32 {
    return <u32>(this.rules.length / (RULE_FIELDS << 2));
  }

  // @ts-ignore: decorator
  @inline ruleField(rule: u32, field: u32): u32 {
    return this.rules.u32At(rule * RULE_FIELDS + field);
  }

  /** 1 if the rule allows what it matches: an allow rule, or an empty Disallow (priority 0, it decides nothing). */
  // @ts-ignore: decorator
  @inline ruleAllows(rule: u32): u32 {
    return (this.ruleField(rule, RuleField.FLAGS) & RuleFlag.ALLOW) != 0 || this.ruleField(rule, RuleField.PRIORITY) == 0 ? 1 : 0;
  }

  // @ts-ignore: decorator
  @inline recordField(record: u32, field: u32): u32 {
    return this.records.u32At(record * RECORD_FIELDS + field);
  }

  /** Gives back the growth slack of the parsed arrays (the selection's arrays are rebuilt per query). */
  shrink(): void {
    this.rules.shrink();
    this.order.shrink();
    this.pool.shrink();
    this.agents.shrink();
    this.records.shrink();
    this.text.shrink();
    this.lines.shrink();
  }

  dropPlan(): void {
    const plan = this.plan;
    if (plan) plan.free();
    this.plan = null;
  }

  free(): void {
    this.dropPlan();
    freeKept(this);
    this.rules.free();
    this.order.free();
    this.pool.free();
    this.agents.free();
    this.records.free();
    this.text.free();
    this.lines.free();
    this.selectedFor.free();
    this.selectedGroups.free();
    this.selectedRules.free();
    heap.free(changetype<usize>(this));
  }
}
