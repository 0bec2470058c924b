/** Text helpers shared by the commands' human-readable output. */

/** Longest source line shown in context; longer lines are cut with an ellipsis. */
const SHOWN_LINE_CHARS = 120;

export function clip(text: string): string {
  return text.length > SHOWN_LINE_CHARS ? `${text.slice(0, SHOWN_LINE_CHARS - 1)}…` : text;
}

export function plural(count: number, word: string): string {
  return `${grouped(count)} ${word}${count === 1 ? "" : "s"}`;
}

/** A count with its thousands grouped (12,345), as every count the CLI shows. */
export function grouped(count: number): string {
  return count.toLocaleString("en-US");
}

/** "the group at line 3" / "the groups at lines 3 and 10". */
export function groupLines(lines: readonly number[]): string {
  if (lines.length === 1) return `the group at line ${lines[0]}`;
  return `the groups at lines ${lines.slice(0, -1).join(", ")} and ${lines[lines.length - 1]}`;
}

/**
 * Controls that a terminal would act on (ESC sequences that recolour, retitle, clear or move
 * the cursor; CR and LF that forge lines; DEL; C1 controls) and the bidirectional overrides
 * that reorder text on screen, as the text from robots.txt files, pages and servers may hold them.
 * A tab stays.
 */
const UNPRINTABLE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** Text from outside shown as it is, but with every control a terminal would act on written as an escape (`\x1b`). */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, (c) => {
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16)}`;
  });
}

/**
 * What JSON.stringify leaves as it is but a terminal acts on: DEL, the C1 controls and the
 * bidirectional overrides (it escapes the C0 controls itself). In JSON they can only stand inside
 * strings, where `\u` escapes read back as the same characters.
 */
const UNESCAPED_IN_JSON = /[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** JSON text of a result, with every control a terminal would act on written as a `\u` escape. */
export function jsonText(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(UNESCAPED_IN_JSON, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** Array elements per piece of jsonPieces. */
const JSON_PIECE_ELEMENTS = 1000;

/**
 * jsonText(value, 2) of an object and a line feed, in pieces (the same text joined): each array
 * field a thousand elements at a time, the other fields one each, so that no piece passes V8's
 * longest string however many findings or tags a result holds. As JSON.stringify does, an object's
 * toJSON is used, a field JSON cannot write (undefined, a function) is left out, and such an
 * array element is null.
 */
export function* jsonPieces(given: object): Generator<string> {
  const value = withToJson(given, "");
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    yield `${jsonText(value, 2)}\n`;
    return;
  }
  const fields = Object.entries(value)
    .map(([key, field]): [string, unknown] => [key, withToJson(field, key)])
    .filter(([, field]) => Array.isArray(field) || JSON.stringify(field) !== undefined);
  if (fields.length === 0) {
    yield "{}\n";
    return;
  }
  yield "{\n";
  for (const [i, [key, field]] of fields.entries()) {
    const comma = i < fields.length - 1 ? "," : "";
    if (!Array.isArray(field) || field.length === 0) {
      yield `  ${jsonText(key)}: ${indented(jsonText(field, 2), 2)}${comma}\n`;
      continue;
    }
    yield `  ${jsonText(key)}: [\n`;
    for (let start = 0; start < field.length; start += JSON_PIECE_ELEMENTS) {
      let piece = "";
      const end = Math.min(field.length, start + JSON_PIECE_ELEMENTS);
      for (let k = start; k < end; k++) {
        const element = withToJson(field[k], String(k));
        const text = JSON.stringify(element) === undefined ? "null" : jsonText(element, 2);
        piece += `    ${indented(text, 4)}${k < field.length - 1 ? "," : ""}\n`;
      }
      yield piece;
    }
    yield `  ]${comma}\n`;
  }
  yield "}\n";
}

/** A value as JSON.stringify serialises it under `key`: through its toJSON(key) when it has one. */
function withToJson(value: unknown, key: string): unknown {
  const toJSON = (value as { toJSON?: unknown } | null | undefined)?.toJSON;
  return typeof toJSON === "function" ? (toJSON as (key: string) => unknown).call(value, key) : value;
}

/** JSON text written at a depth of `spaces`: its later lines indented (a JSON string holds no raw line break). */
function indented(json: string, spaces: number): string {
  return json.replaceAll("\n", `\n${" ".repeat(spaces)}`);
}

/**
 * Every string in a result (plain objects and arrays, recursively) made printable, before a
 * command formats it for a terminal: the formatting adds colours of its own afterwards, and no
 * field of the result can slip through unescaped. Dates and other objects are kept as they are.
 */
export function printableDeep<T>(value: T): T {
  if (typeof value === "string") return printable(value) as T;
  if (Array.isArray(value)) return value.map(printableDeep) as T;
  if (value !== null && typeof value === "object") {
    const prototype = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null) return value;
    return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, printableDeep(field)])) as T;
  }
  return value;
}
