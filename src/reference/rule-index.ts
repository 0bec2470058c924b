/**
 * A lookup of a group's rules by the literal start of their patterns, so that a path is only
 * matched against rules that can match it. Purely an optimisation: a rule is skipped only when
 * its pattern's literal start is not a prefix of the path, in which case it cannot match.
 */
import type { ByteString } from "./bytes.js";
import type { Rule } from "./model.js";

/**
 * The bytes every path matched by `pattern` starts with: everything before the first `*`, and
 * without a final `$` (an anchor, not a byte). A `$` elsewhere is an ordinary byte.
 */
export function literalPrefix(pattern: ByteString): ByteString {
  const star = pattern.indexOf("*");
  if (star !== -1) return pattern.slice(0, star);
  return pattern.endsWith("$") ? pattern.slice(0, -1) : pattern;
}

/** Rules are filed under the first KEY_BYTES bytes of their literal prefix (all of it if shorter). */
const KEY_BYTES = 8;

export class RuleIndex {
  readonly #byKey = new Map<ByteString, Rule[]>();

  constructor(rules: readonly Rule[]) {
    for (const rule of rules) {
      const key = literalPrefix(rule.pattern).slice(0, KEY_BYTES);
      const bucket = this.#byKey.get(key);
      if (bucket === undefined) this.#byKey.set(key, [rule]);
      else bucket.push(rule);
    }
  }

  /**
   * The rules whose key is a prefix of `path`: a rule whose literal prefix is a prefix of the path
   * has such a key, so no rule that can match is left out.
   */
  candidates(path: ByteString): Rule[] {
    const found: Rule[] = [];
    for (let length = 0; length <= Math.min(KEY_BYTES, path.length); length++) {
      const bucket = this.#byKey.get(path.slice(0, length));
      if (bucket !== undefined) for (const rule of bucket) found.push(rule);
    }
    return found;
  }
}
