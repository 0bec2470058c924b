/**
 * The robots.txt parser, shaped like Google's `ParseRobotsTxt`: it walks the lines and calls a
 * handler once per directive, then once with the line's metadata. It knows nothing about groups
 * or matching; `model.ts` builds the data model from these calls.
 */
import type { ByteString } from "./bytes.js";
import { parseLine, type ParsedLineKind } from "./line.js";
import { splitLines } from "./lines.js";

export interface LineMetadata {
  kind: ParsedLineKind;
  hasComment: boolean;
  typo: boolean;
  missingColon: boolean;
  tooLong: boolean;
}

/**
 * Values are passed as written (trimmed, comment removed, *not* escaped): the handler compiles
 * allow/disallow patterns for its profile, and records keep their raw text.
 */
export interface RobotsParseHandler {
  handleUserAgent(line: number, value: ByteString): void;
  handleAllow(line: number, value: ByteString): void;
  handleDisallow(line: number, value: ByteString): void;
  handleSitemap(line: number, value: ByteString): void;
  /** Any other record. `key` is as written; `known` says whether it is a known ignored record. */
  handleOther(line: number, key: ByteString, value: ByteString, known: boolean): void;
  /** Called for every line (records or not), after the line's directive handler if any. */
  handleLineMetadata(line: number, metadata: LineMetadata): void;
}

export function parseRobotsTxt(body: ByteString, maxLineBytes: number, handler: RobotsParseHandler): void {
  for (const raw of splitLines(body, maxLineBytes)) {
    const line = parseLine(raw.text);
    switch (line.kind) {
      case "user-agent":
        handler.handleUserAgent(raw.number, line.value);
        break;
      case "allow":
        handler.handleAllow(raw.number, line.value);
        break;
      case "disallow":
        handler.handleDisallow(raw.number, line.value);
        break;
      case "sitemap":
        handler.handleSitemap(raw.number, line.value);
        break;
      case "ignored-record":
        handler.handleOther(raw.number, line.key, line.value, true);
        break;
      case "unknown":
        handler.handleOther(raw.number, line.key, line.value, false);
        break;
      case "empty":
      case "comment":
      case "invalid":
        break;
    }
    handler.handleLineMetadata(raw.number, {
      kind: line.kind,
      hasComment: line.hasComment,
      typo: line.typo,
      missingColon: line.missingColon,
      tooLong: raw.tooLong,
    });
  }
}
