// The robots.txt parser: splits the body into lines, each line into key and value, and writes
// groups, rules, records and per-line metadata into a RuleTable. It never fails: any byte
// sequence is a robots.txt, most of it perhaps ignored.

import { Char, equalsLower, isAgentChar, isBlank, isTrimmable, startsWithLower, toLower } from "./chars";
import { compiledStar, compilePattern } from "./normalize";
import {
  AGENT_FIELDS, LineFlag, LineKind, NO_GROUP, Profile, RecordKind, RULE_FIELDS, RuleField, RuleFlag, RuleTable,
} from "./table";
import { findByte, findFirstOf } from "./scan";
import { sortRules } from "./order";

/**
 * Google-specific: a line keeps at most kMaxLineLen - 1 bytes, kMaxLineLen = 2083 * 8 (eight
 * times the longest URL browsers accept; the last byte of Google's buffer holds the C string
 * terminator). RFC 9309 sets no limit.
 */
const GOOGLE_MAX_LINE_BYTES: usize = 2083 * 8 - 1;

const enum KeyKind {
  USER_AGENT,
  ALLOW,
  DISALLOW,
  SITEMAP,
  OTHER,
}

/** Parser state that outlives a line: the current group and whether it has seen a rule yet. */
let currentGroup: u32 = NO_GROUP;
let groupHasRule: bool = false;
/** Set by classifyKey. */
let keyIsTypo: bool = false;

export function compileRobots(body: usize, length: usize, profile: u32): RuleTable {
  const table = RuleTable.create(profile, length);
  currentGroup = NO_GROUP;
  groupHasRule = false;
  const maxLine = profile == Profile.GOOGLE ? GOOGLE_MAX_LINE_BYTES : <usize>-1;

  // Google-specific: skip a UTF-8 byte order mark, even a partial one, at the very start.
  let pos: usize = 0;
  if (pos < length && load<u8>(body) == 0xef) {
    pos++;
    if (pos < length && load<u8>(body + 1) == 0xbb) {
      pos++;
      if (pos < length && load<u8>(body + 2) == 0xbf) pos++;
    }
  }

  let lineNumber: u32 = 0;
  while (true) {
    // One scan finds the line end, or first a NUL or `#` that ends the line's content (then a
    // second scan finds the line end): most lines are read once.
    const lineStart = pos;
    pos = findFirstOf(body, pos, length, Char.LF, Char.CR, 0, Char.HASH, Char.LF, Char.LF);
    let contentEnd = pos;
    let stopByte: u32 = Char.LF;
    if (pos < length) {
      stopByte = <u32>load<u8>(body + pos);
      if (stopByte == 0 || stopByte == Char.HASH) pos = findFirstOf(body, pos, length, Char.LF, Char.CR, Char.LF, Char.LF, Char.LF, Char.LF);
    }
    parseLine(table, body, lineStart, pos, contentEnd, stopByte == Char.HASH, ++lineNumber, maxLine);
    // The text after the last terminator is a line too, even when empty.
    if (pos >= length) break;
    const c = <u32>load<u8>(body + pos);
    pos++;
    // The LF of a CRLF does not end another line.
    if (c == Char.CR && pos < length && load<u8>(body + pos) == Char.LF) pos++;
  }

  sortRules(table);
  table.shrink();
  return table;
}

/**
 * Parses the line body[start, end). Its content ends at `contentEnd`, the first NUL (Google-
 * specific: the line is a C string) or `#` (`comment`: a comment starts there), else `end`.
 */
function parseLine(table: RuleTable, body: usize, start: usize, end: usize, contentEnd: usize, comment: bool, line: u32, maxLine: usize): void {
  let flags: u32 = 0;
  if (end - start > maxLine) {
    // Google keeps the first maxLine bytes; a NUL or `#` after them no longer counts.
    end = start + maxLine;
    flags |= LineFlag.TOO_LONG;
  }
  if (contentEnd < end) {
    if (comment) flags |= LineFlag.HAS_COMMENT;
    end = contentEnd;
  }
  while (start < end && isTrimmable(load<u8>(body + start))) start++;
  while (end > start && isTrimmable(load<u8>(body + end - 1))) end--;
  if (start == end) {
    addLine(table, flags & LineFlag.HAS_COMMENT ? LineKind.COMMENT : LineKind.EMPTY, flags);
    return;
  }

  // Key and value split at the first colon.
  let separator = findByte(body, start, end, Char.COLON);
  if (separator == end) {
    // Google-specific: a missing colon may be replaced by whitespace, but only when the line
    // holds exactly two words (`user-agent FooBot`, not `disallow /a b`).
    for (let i = start; i < end; i++) {
      if (isBlank(load<u8>(body + i))) {
        separator = i;
        break;
      }
    }
    let valueFrom = separator;
    while (valueFrom < end && isBlank(load<u8>(body + valueFrom))) valueFrom++;
    for (let i = valueFrom; i < end; i++) {
      if (isBlank(load<u8>(body + i))) separator = end;
    }
    if (separator == end) {
      addLine(table, LineKind.INVALID, flags);
      return;
    }
    flags |= LineFlag.MISSING_COLON;
  }

  const keyStart = start;
  let keyEnd = separator;
  while (keyEnd > keyStart && isTrimmable(load<u8>(body + keyEnd - 1))) keyEnd--;
  if (keyEnd == keyStart) {
    addLine(table, LineKind.INVALID, flags & ~LineFlag.MISSING_COLON);
    return;
  }
  let valueStart = separator + 1;
  while (valueStart < end && isTrimmable(load<u8>(body + valueStart))) valueStart++;
  const valueLength = end - valueStart;
  const keyLength = keyEnd - keyStart;

  const kind = classifyKey(body + keyStart, keyLength);
  if (keyIsTypo) flags |= LineFlag.TYPO;
  if (kind == KeyKind.USER_AGENT) {
    addUserAgent(table, body, valueStart, valueLength, line);
    addLine(table, LineKind.USER_AGENT, flags);
  } else if (kind == KeyKind.ALLOW || kind == KeyKind.DISALLOW) {
    if (currentGroup == NO_GROUP) {
      flags |= LineFlag.OUTSIDE_GROUP;
    } else {
      groupHasRule = true;
      addRule(table, line, kind == KeyKind.ALLOW, body + valueStart, valueLength);
    }
    addLine(table, kind == KeyKind.ALLOW ? LineKind.ALLOW : LineKind.DISALLOW, flags);
  } else if (kind == KeyKind.SITEMAP) {
    // Sitemaps belong to no group (RFC 9309 2.3.5).
    addRecord(table, body, line, RecordKind.SITEMAP, NO_GROUP, keyStart, keyLength, valueStart, valueLength);
    addLine(table, LineKind.SITEMAP, flags);
  } else {
    const recordKind = otherRecordKind(body + keyStart, keyLength);
    addRecord(table, body, line, recordKind, currentGroup, keyStart, keyLength, valueStart, valueLength);
    addLine(table, recordKind == RecordKind.UNKNOWN ? LineKind.UNKNOWN : LineKind.IGNORED_RECORD, flags);
  }
}

/** Google-specific: keys match by case-insensitive prefix, with a few accepted misspellings. */
function classifyKey(key: usize, len: usize): KeyKind {
  keyIsTypo = false;
  // Every key (and typo) below starts with one of four letters: most lines need one comparison.
  const first = toLower(load<u8>(key));
  if (first != 0x75 /* u */ && first != 0x61 /* a */ && first != 0x64 /* d */ && first != 0x73 /* s */) return KeyKind.OTHER;
  // The two keys of almost every line, compared eight bytes at once: OR 0x20 lower-cases a
  // letter and maps no other byte of a line onto one.
  if (first == 0x64 && len >= 8 && (load<u64>(key) | 0x2020202020202020) == 0x776f6c6c61736964 /* "disallow" */) return KeyKind.DISALLOW;
  if (first == 0x61 && len >= 5 && (load<u32>(key) | 0x20202020) == 0x6f6c6c61 /* "allo" */ && (<u32>load<u8>(key, 4) | 0x20) == 0x77 /* "w" */) return KeyKind.ALLOW;
  if (startsWithLower(key, len, "user-agent")) return KeyKind.USER_AGENT;
  if (startsWithLower(key, len, "useragent") || startsWithLower(key, len, "user agent")) {
    keyIsTypo = true;
    return KeyKind.USER_AGENT;
  }
  if (
    startsWithLower(key, len, "dissallow") || startsWithLower(key, len, "dissalow") ||
    startsWithLower(key, len, "disalow") || startsWithLower(key, len, "diasllow") ||
    startsWithLower(key, len, "disallaw")
  ) {
    keyIsTypo = true;
    return KeyKind.DISALLOW;
  }
  if (startsWithLower(key, len, "sitemap")) return KeyKind.SITEMAP;
  if (startsWithLower(key, len, "site-map")) {
    keyIsTypo = true;
    return KeyKind.SITEMAP;
  }
  return KeyKind.OTHER;
}

/** Records kept for other engines' users; Google ignores them. Matched exactly, case-insensitively. */
function otherRecordKind(key: usize, len: usize): u32 {
  if (equalsLower(key, len, "crawl-delay")) return RecordKind.CRAWL_DELAY;
  if (equalsLower(key, len, "request-rate")) return RecordKind.REQUEST_RATE;
  if (equalsLower(key, len, "visit-time")) return RecordKind.VISIT_TIME;
  if (equalsLower(key, len, "host")) return RecordKind.HOST;
  if (equalsLower(key, len, "clean-param")) return RecordKind.CLEAN_PARAM;
  if (equalsLower(key, len, "content-signal")) return RecordKind.CONTENT_SIGNAL;
  if (equalsLower(key, len, "content-usage")) return RecordKind.CONTENT_USAGE;
  if (equalsLower(key, len, "noindex")) return RecordKind.NOINDEX;
  if (equalsLower(key, len, "nofollow")) return RecordKind.NOFOLLOW;
  if (equalsLower(key, len, "noarchive")) return RecordKind.NOARCHIVE;
  return RecordKind.UNKNOWN;
}

function addLine(table: RuleTable, kind: u32, flags: u32): void {
  store<u16>(table.lines.reserve(2), kind | (flags << 8));
  table.lines.length += 2;
}

function addRecord(
  table: RuleTable, body: usize, line: u32, kind: u32, group: u32,
  keyStart: usize, keyLength: usize, valueStart: usize, valueLength: usize,
): void {
  const text = table.text;
  const keyAt = text.length;
  text.pushBytes(body + keyStart, keyLength);
  const valueAt = text.length;
  text.pushBytes(body + valueStart, valueLength);
  const records = table.records;
  records.pushU32(line);
  records.pushU32(kind);
  records.pushU32(group);
  records.pushU32(<u32>keyAt);
  records.pushU32(<u32>keyLength);
  records.pushU32(<u32>valueAt);
  records.pushU32(<u32>valueLength);
}

function addUserAgent(table: RuleTable, body: usize, valueStart: usize, len: usize, line: u32): void {
  const value = body + valueStart;
  // RFC 9309 2.2.1: a user-agent line after rules starts a new group; consecutive user-agent
  // lines (with any non-rule lines between them) share one.
  if (currentGroup == NO_GROUP || groupHasRule) {
    currentGroup = table.groupCount++;
    groupHasRule = false;
  }
  // Google-specific: `*` followed by whitespace and anything is still the global agent.
  const first = len > 0 ? <u32>load<u8>(value) : 0;
  const isGlobal = first == Char.STAR && (len == 1 || isTrimmable(load<u8>(value + 1)));
  let tokenLength: usize = 0;
  if (!isGlobal) {
    // The product token is cut at the first byte outside [a-zA-Z_-]: `Googlebot/2.1` is `Googlebot`.
    while (tokenLength < len && isAgentChar(load<u8>(value + tokenLength))) tokenLength++;
  }
  const tokenStart = table.pool.length;
  const dst = table.pool.reserve(tokenLength);
  for (let i: usize = 0; i < tokenLength; i++) store<u8>(dst + i, toLower(load<u8>(value + i)));
  table.pool.length += tokenLength;

  const agents = table.agents;
  agents.reserve(AGENT_FIELDS << 2);
  agents.pushU32(currentGroup);
  agents.pushU32(isGlobal ? 1 : 0);
  agents.pushU32(<u32>tokenStart);
  agents.pushU32(<u32>tokenLength);
  agents.pushU32(line);
  agents.pushU32(<u32>table.text.length);
  agents.pushU32(<u32>len);
  table.text.pushBytes(value, len);
}

function addRule(table: RuleTable, line: u32, allow: bool, value: usize, len: usize): void {
  const rfc = table.profile == Profile.RFC9309;
  const patternStart = table.pool.length;
  const patternLength = compilePattern(value, len, rfc, table.pool);
  pushRule(table, line, allow ? RuleFlag.ALLOW : 0, patternStart, patternLength, compiledStar);

  // Google-specific: allowing `/dir/index.htm...` also allows `/dir/` itself, as `/dir/$`.
  if (!allow || rfc) return;
  const pattern = table.pool.data + patternStart;
  let slash = patternLength;
  while (slash > 0 && load<u8>(pattern + slash - 1) != Char.SLASH) slash--;
  if (slash == 0) return;
  slash--;
  if (!startsWithBytes(pattern + slash, patternLength - slash, "/index.htm")) return;
  const twinStart = table.pool.length;
  table.pool.pushBytes(table.pool.data + patternStart, slash + 1);
  table.pool.pushU8(Char.DOLLAR);
  pushRule(table, line, RuleFlag.ALLOW | RuleFlag.INDEX_PAGE, twinStart, slash + 2, findByte(table.pool.data + twinStart, 0, slash + 2, Char.STAR));
}

function startsWithBytes(a: usize, len: usize, literal: string): bool {
  const n = <usize>literal.length;
  if (len < n) return false;
  for (let i: usize = 0; i < n; i++) {
    if (<u32>load<u8>(a + i) != <u32>literal.charCodeAt(<i32>i)) return false;
  }
  return true;
}

/** Adds a rule whose pattern, at `patternStart` in the pool, has its first `*` at `star` (its length if none). */
function pushRule(table: RuleTable, line: u32, flags: u32, patternStart: usize, patternLength: usize, star: usize): void {
  const pattern = table.pool.data + patternStart;
  let prefix = star;
  if (prefix < patternLength) flags |= RuleFlag.WILDCARD;
  if (patternLength > 0 && load<u8>(pattern + patternLength - 1) == Char.DOLLAR) {
    flags |= RuleFlag.ANCHORED;
    if (prefix == patternLength) prefix--;
  }
  const rules = table.rules;
  const at = rules.reserve(RULE_FIELDS << 2);
  rules.length += RULE_FIELDS << 2;
  store<u32>(at, line, RuleField.LINE << 2);
  store<u32>(at, flags, RuleField.FLAGS << 2);
  store<u32>(at, currentGroup, RuleField.GROUP << 2);
  store<u32>(at, <u32>patternStart, RuleField.PATTERN_START << 2);
  store<u32>(at, <u32>patternLength, RuleField.PATTERN_LENGTH << 2);
  store<u32>(at, <u32>prefix, RuleField.PREFIX_LENGTH << 2);
}
