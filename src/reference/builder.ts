/**
 * The parse handler that builds the data model: groups, rules, records, sitemaps, line infos.
 */
import { asciiLower, binaryToUtf8, type ByteString } from "./bytes.js";
import { isGlobalAgent, userAgentToken } from "./agents.js";
import type { Group, RobotsModel } from "./model.js";
import { parseRobotsTxt, type LineMetadata, type RobotsParseHandler } from "./parser.js";
import { compileRules } from "./pattern.js";
import type { ProfileSwitches } from "./profile.js";
import type { RuleKind } from "../types.js";

class ModelBuilder implements RobotsParseHandler {
  readonly model: RobotsModel = { groups: [], records: [], sitemaps: [], lines: [] };
  /** The group lines are being added to; undefined before the first user-agent line. */
  private current: Group | undefined;
  /** The current group already has an allow/disallow line, so a user-agent line starts a new one. */
  private currentHasRules = false;

  constructor(private readonly switches: ProfileSwitches) {}

  handleUserAgent(line: number, value: ByteString): void {
    // Decision 20 (RFC 9309 2.2.4): only allow/disallow lines end a run of user-agent lines;
    // sitemap, crawl-delay and unknown lines between two user-agent lines do not split them.
    if (this.current === undefined || this.currentHasRules) {
      this.current = { index: this.model.groups.length, userAgents: [], global: false, tokens: [], rules: [] };
      this.model.groups.push(this.current);
      this.currentHasRules = false;
    }
    const global = isGlobalAgent(value);
    const token = global ? "" : userAgentToken(value);
    this.current.userAgents.push({ line, value, global, token });
    if (global) this.current.global = true;
    else this.current.tokens.push(asciiLower(token));
  }

  handleAllow(line: number, value: ByteString): void {
    this.addRule("allow", line, value);
  }

  handleDisallow(line: number, value: ByteString): void {
    this.addRule("disallow", line, value);
  }

  private addRule(kind: RuleKind, line: number, value: ByteString): void {
    // RFC 9309 2.2.2 / decision 20: rules before any user-agent line belong to no group and are
    // ignored (reported as `outsideGroup` in the line's metadata).
    if (this.current === undefined) return;
    this.current.rules.push(...compileRules(kind, line, value, this.switches));
    this.currentHasRules = true;
  }

  handleSitemap(line: number, value: ByteString): void {
    // RFC 9309 2.2.4: sitemaps belong to no group.
    const url = binaryToUtf8(value);
    this.model.records.push({ line, key: "sitemap", known: true, value: url, group: null });
    if (url !== "") this.model.sitemaps.push(url);
  }

  handleOther(line: number, key: ByteString, value: ByteString, known: boolean): void {
    this.model.records.push({
      line,
      // Known keys are matched exactly, so lower-casing gives their canonical spelling.
      key: binaryToUtf8(asciiLower(key)),
      known,
      value: binaryToUtf8(value),
      group: this.current?.index ?? null,
    });
  }

  handleLineMetadata(line: number, metadata: LineMetadata): void {
    const isRule = metadata.kind === "allow" || metadata.kind === "disallow";
    this.model.lines.push({
      line,
      kind: metadata.kind,
      hasComment: metadata.hasComment,
      typo: metadata.typo,
      missingColon: metadata.missingColon,
      tooLong: metadata.tooLong,
      outsideGroup: isRule && this.current === undefined,
    });
  }
}

/** Parses the (BOM-carrying, size-limited) body bytes into the data model. */
export function buildModel(body: ByteString, switches: ProfileSwitches): RobotsModel {
  const builder = new ModelBuilder(switches);
  parseRobotsTxt(body, switches.maxLineBytes, builder);
  return builder.model;
}
