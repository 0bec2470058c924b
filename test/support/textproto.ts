/**
 * A small reader for the protobuf text format files of Google's robots.txt compliance suite
 * (test/fixtures/conformance/*.textproto, format described in its README).
 *
 * Only what those files use is supported: fields `name: value`, `name { ... }`, `name: [ ... ]`,
 * `#` comments, identifiers and numbers as scalar values, and C-style quoted strings. Adjacent
 * quoted strings concatenate. Strings are read as **bytes**: characters outside escapes are taken
 * byte for byte from the file (which is UTF-8), and the escapes `\n \r \t \" \' \\ \a \b \f \v \?`,
 * octal `\N`..`\NNN` and hex `\xN`/`\xNN` each give bytes, so `"\xEF\xBB"` is two bytes, not a
 * UTF-8 encoding of two code points. (`\uXXXX` / `\UXXXXXXXX` give the code point's UTF-8 bytes.)
 */

/** A field value: string bytes, a bare identifier or number (as written), a message, or a list. */
export type TextprotoValue = Uint8Array | TextprotoScalar | TextprotoMessage | TextprotoValue[];

/** A bare identifier or number (`ALLOWED`, `42`), kept as written. */
export interface TextprotoScalar {
  scalar: string;
}

export interface TextprotoField {
  name: string;
  value: TextprotoValue;
}

/** A message: its fields in file order (a repeated field appears once per occurrence). */
export interface TextprotoMessage {
  fields: TextprotoField[];
}

export class TextprotoSyntaxError extends Error {
  override readonly name = "TextprotoSyntaxError";
}

const enum Char {
  Tab = 0x09,
  Lf = 0x0a,
  Cr = 0x0d,
  Space = 0x20,
  DoubleQuote = 0x22,
  Hash = 0x23,
  SingleQuote = 0x27,
  Comma = 0x2c,
  Colon = 0x3a,
  Semicolon = 0x3b,
  OpenBracket = 0x5b,
  Backslash = 0x5c,
  CloseBracket = 0x5d,
  OpenBrace = 0x7b,
  CloseBrace = 0x7d,
}

const utf8 = new TextEncoder();

/** Parses a whole textproto file (bytes or text) into its top-level message. */
export function parseTextproto(input: Uint8Array | string): TextprotoMessage {
  const reader = new Reader(typeof input === "string" ? utf8.encode(input) : input);
  const message = reader.message(undefined);
  reader.skipSpace();
  if (!reader.atEnd()) reader.fail("unexpected content after the top-level message");
  return message;
}

/**
 * Decodes the body of one quoted string (the text between the quotes, escapes included) into
 * bytes. Exposed for unit tests.
 */
export function unescapeTextprotoString(body: Uint8Array | string): Uint8Array {
  const bytes = typeof body === "string" ? utf8.encode(body) : body;
  const out: number[] = [];
  let i = 0;
  while (i < bytes.length) {
    const c = bytes[i];
    if (c !== Char.Backslash) {
      out.push(c);
      i++;
      continue;
    }
    if (i + 1 >= bytes.length) throw new TextprotoSyntaxError("string ends with a lone backslash");
    const e = bytes[i + 1];
    i += 2;
    const simple = SIMPLE_ESCAPES.get(e);
    if (simple !== undefined) {
      out.push(simple);
    } else if (isOctal(e)) {
      // \N, \NN or \NNN: up to three octal digits, one byte.
      let value = e - 0x30;
      let digits = 1;
      while (digits < 3 && i < bytes.length && isOctal(bytes[i])) {
        value = value * 8 + (bytes[i] - 0x30);
        i++;
        digits++;
      }
      if (value > 0xff) throw new TextprotoSyntaxError(`octal escape out of byte range: ${value}`);
      out.push(value);
    } else if (e === 0x78 /* x */ || e === 0x58 /* X */) {
      // \xN or \xNN: one or two hex digits, one byte.
      let value = 0;
      let digits = 0;
      while (digits < 2 && i < bytes.length && hexValue(bytes[i]) >= 0) {
        value = value * 16 + hexValue(bytes[i]);
        i++;
        digits++;
      }
      if (digits === 0) throw new TextprotoSyntaxError("\\x escape without hex digits");
      out.push(value);
    } else if (e === 0x75 /* u */ || e === 0x55 /* U */) {
      const length = e === 0x75 ? 4 : 8;
      let value = 0;
      for (let k = 0; k < length; k++) {
        const digit = i < bytes.length ? hexValue(bytes[i]) : -1;
        if (digit < 0) throw new TextprotoSyntaxError(`\\${String.fromCharCode(e)} escape needs ${length} hex digits`);
        value = value * 16 + digit;
        i++;
      }
      if (value > 0x10ffff) throw new TextprotoSyntaxError(`code point out of range: ${value}`);
      out.push(...utf8.encode(String.fromCodePoint(value)));
    } else {
      throw new TextprotoSyntaxError(`unknown escape \\${String.fromCharCode(e)}`);
    }
  }
  return Uint8Array.from(out);
}

const SIMPLE_ESCAPES = new Map<number, number>([
  [0x6e /* n */, 0x0a],
  [0x72 /* r */, 0x0d],
  [0x74 /* t */, 0x09],
  [0x61 /* a */, 0x07],
  [0x62 /* b */, 0x08],
  [0x66 /* f */, 0x0c],
  [0x76 /* v */, 0x0b],
  [0x5c /* \ */, 0x5c],
  [0x27 /* ' */, 0x27],
  [0x22 /* " */, 0x22],
  [0x3f /* ? */, 0x3f],
]);

function isOctal(c: number): boolean {
  return c - 0x30 < 8 && c >= 0x30;
}

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x41 && c <= 0x46) return c - 0x41 + 10;
  if (c >= 0x61 && c <= 0x66) return c - 0x61 + 10;
  return -1;
}

function isIdentByte(c: number): boolean {
  return (
    (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f || c === 0x2e || c === 0x2d || c === 0x2b
  );
}

class Reader {
  private pos = 0;

  constructor(private readonly bytes: Uint8Array) {}

  atEnd(): boolean {
    return this.pos >= this.bytes.length;
  }

  fail(message: string): never {
    let line = 1;
    for (let i = 0; i < this.pos && i < this.bytes.length; i++) if (this.bytes[i] === Char.Lf) line++;
    throw new TextprotoSyntaxError(`textproto line ${line}: ${message}`);
  }

  /** Skips whitespace and `#` comments. */
  skipSpace(): void {
    while (this.pos < this.bytes.length) {
      const c = this.bytes[this.pos];
      if (c === Char.Space || c === Char.Tab || c === Char.Lf || c === Char.Cr) {
        this.pos++;
      } else if (c === Char.Hash) {
        while (this.pos < this.bytes.length && this.bytes[this.pos] !== Char.Lf) this.pos++;
      } else {
        break;
      }
    }
  }

  private peek(): number {
    this.skipSpace();
    return this.pos < this.bytes.length ? this.bytes[this.pos] : -1;
  }

  private expect(c: number): void {
    if (this.peek() !== c) this.fail(`expected "${String.fromCharCode(c)}"`);
    this.pos++;
  }

  private identifier(): string {
    this.skipSpace();
    const start = this.pos;
    while (this.pos < this.bytes.length && isIdentByte(this.bytes[this.pos])) this.pos++;
    if (this.pos === start) this.fail("expected an identifier");
    return String.fromCharCode(...this.bytes.subarray(start, this.pos));
  }

  /** Fields until `close` (or the end of input when `close` is undefined). */
  message(close: number | undefined): TextprotoMessage {
    const fields: TextprotoField[] = [];
    for (;;) {
      const c = this.peek();
      if (close === undefined ? c === -1 : c === close) break;
      if (c === -1) this.fail("unexpected end of input inside a message");
      const name = this.identifier();
      let next = this.peek();
      if (next === Char.Colon) {
        this.pos++;
        next = this.peek();
      } else if (next !== Char.OpenBrace) {
        this.fail(`expected ":" or "{" after field "${name}"`);
      }
      fields.push({ name, value: this.value() });
      const separator = this.peek();
      if (separator === Char.Comma || separator === Char.Semicolon) this.pos++;
    }
    return { fields };
  }

  private value(): TextprotoValue {
    const c = this.peek();
    if (c === Char.OpenBrace) {
      this.pos++;
      const message = this.message(Char.CloseBrace);
      this.expect(Char.CloseBrace);
      return message;
    }
    if (c === Char.OpenBracket) {
      this.pos++;
      const list: TextprotoValue[] = [];
      if (this.peek() !== Char.CloseBracket) {
        for (;;) {
          list.push(this.value());
          if (this.peek() !== Char.Comma) break;
          this.pos++;
        }
      }
      this.expect(Char.CloseBracket);
      return list;
    }
    if (c === Char.DoubleQuote || c === Char.SingleQuote) {
      // Adjacent quoted strings concatenate.
      const parts: Uint8Array[] = [];
      while (this.peek() === Char.DoubleQuote || this.peek() === Char.SingleQuote) parts.push(this.quoted());
      return concat(parts);
    }
    if (c === -1) this.fail("unexpected end of input, expected a value");
    return { scalar: this.identifier() };
  }

  /** One quoted string, decoded to bytes. */
  private quoted(): Uint8Array {
    const quote = this.bytes[this.pos];
    const start = ++this.pos;
    while (this.pos < this.bytes.length) {
      const c = this.bytes[this.pos];
      if (c === quote) break;
      if (c === Char.Lf || c === Char.Cr) this.fail("line break inside a quoted string");
      this.pos += c === Char.Backslash ? 2 : 1;
    }
    if (this.pos >= this.bytes.length) this.fail("unterminated quoted string");
    const body = this.bytes.subarray(start, this.pos);
    this.pos++;
    try {
      return unescapeTextprotoString(body);
    } catch (error) {
      this.fail((error as Error).message);
    }
  }
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The compliance suite's schema (specification.RobotsTxtSpecification).

export type Outcome = "ALLOWED" | "DISALLOWED";
export type TestType = "STANDARD" | "GOOGLE_SPECIFIC";

export interface SpecExpectation {
  url: string;
  agent: string;
  outcome: Outcome;
  explanation: string;
  type: TestType;
}

export interface SpecTest {
  /** The robots.txt body, as bytes (escapes in the file are bytes). */
  robotstxt: Uint8Array;
  expectations: SpecExpectation[];
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
/** Explanations are prose for people; one of them quotes raw bytes (`\x11\xBF`), shown as U+FFFD. */
const lenientUtf8 = new TextDecoder("utf-8", { ignoreBOM: true });

/** Reads one `specification.RobotsTxtSpecification` file. */
export function readSpecification(input: Uint8Array | string): SpecTest[] {
  const root = parseTextproto(input);
  const tests: SpecTest[] = [];
  for (const field of root.fields) {
    if (field.name !== "tests") throw new TextprotoSyntaxError(`unexpected top-level field "${field.name}"`);
    for (const test of asMessages(field.value, "tests")) tests.push(readTest(test));
  }
  return tests;
}

function readTest(message: TextprotoMessage): SpecTest {
  let robotstxt: Uint8Array | undefined;
  const expectations: SpecExpectation[] = [];
  for (const field of message.fields) {
    if (field.name === "robotstxt") robotstxt = asBytes(field.value, "robotstxt");
    else if (field.name === "test_expectations") {
      for (const expectation of asMessages(field.value, "test_expectations")) expectations.push(readExpectation(expectation));
    } else throw new TextprotoSyntaxError(`unexpected field "${field.name}" in a test`);
  }
  if (robotstxt === undefined) throw new TextprotoSyntaxError("test without robotstxt");
  return { robotstxt, expectations };
}

function readExpectation(message: TextprotoMessage): SpecExpectation {
  let url: string | undefined;
  let agent: string | undefined;
  let outcome: Outcome | undefined;
  let explanation = "";
  let type: TestType = "STANDARD";
  for (const field of message.fields) {
    switch (field.name) {
      case "testurl":
        url = asText(field.value, field.name);
        break;
      case "useragent":
        agent = asText(field.value, field.name);
        break;
      case "additional_explanation":
        explanation = lenientUtf8.decode(asBytes(field.value, field.name));
        break;
      case "expected_outcome": {
        const value = asScalar(field.value, field.name);
        if (value !== "ALLOWED" && value !== "DISALLOWED") throw new TextprotoSyntaxError(`bad expected_outcome ${value}`);
        outcome = value;
        break;
      }
      case "test_type": {
        const value = asScalar(field.value, field.name);
        if (value !== "STANDARD" && value !== "GOOGLE_SPECIFIC") throw new TextprotoSyntaxError(`bad test_type ${value}`);
        type = value;
        break;
      }
      default:
        throw new TextprotoSyntaxError(`unexpected field "${field.name}" in a test expectation`);
    }
  }
  if (url === undefined || agent === undefined || outcome === undefined) {
    throw new TextprotoSyntaxError("test expectation needs testurl, useragent and expected_outcome");
  }
  return { url, agent, outcome, explanation, type };
}

function asMessages(value: TextprotoValue, name: string): TextprotoMessage[] {
  const items = Array.isArray(value) ? value : [value];
  return items.map((item) => {
    if (item instanceof Uint8Array || Array.isArray(item) || !("fields" in item)) {
      throw new TextprotoSyntaxError(`field "${name}" must hold messages`);
    }
    return item;
  });
}

function asBytes(value: TextprotoValue, name: string): Uint8Array {
  if (!(value instanceof Uint8Array)) throw new TextprotoSyntaxError(`field "${name}" must be a string`);
  return value;
}

/** URLs and agents must be valid UTF-8: the tests pass them on as strings. */
function asText(value: TextprotoValue, name: string): string {
  return strictUtf8.decode(asBytes(value, name));
}

function asScalar(value: TextprotoValue, name: string): string {
  if (value instanceof Uint8Array || Array.isArray(value) || !("scalar" in value)) {
    throw new TextprotoSyntaxError(`field "${name}" must be an identifier`);
  }
  return value.scalar;
}
