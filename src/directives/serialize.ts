/**
 * Directives back to text: X-Robots-Tag values and meta tags that read back to the same
 * directives (agent, name, typed value). Dates are written as directiveText writes them.
 * A group whose agent one form cannot name is left out of that form: a meta tag's name can only
 * be an `[a-z0-9_-]` crawler name, neither `robots` (the generic group) nor one of HTML's own
 * metadata names (meta-names.ts); a header prefix cannot be a directive that takes a value
 * (`max-snippet: ...`).
 */
import { escapeAttributeValue } from "./charref.js";
import { AGENT_PREFIX, asciiLower, directiveText, type DirectiveSet, VALUE_DIRECTIVES } from "./list.js";
import { metaAgent } from "./meta-names.js";

interface Group {
  agent: string | null;
  /** List elements that read back the same wherever they stand. */
  elements: string[];
  /** Unknown or invalid elements shaped `token: ...`: in a header they must start a value of their own. */
  prefixed: string[];
}

/** Groups in reading order: the generic group first, then each agent as first seen. */
function groupsOf(set: DirectiveSet): Group[] {
  const groups = new Map<string | null, Group>([[null, { agent: null, elements: [], prefixed: [] }]]);
  const groupOf = (agent: string | null) => {
    let group = groups.get(agent);
    if (group === undefined) groups.set(agent, (group = { agent, elements: [], prefixed: [] }));
    return group;
  };
  const entries = [
    ...set.directives.map((directive) => ({ agent: directive.agent, text: directiveText(directive) })),
    ...set.unknown, ...set.invalid,
  ];
  for (const { agent, text } of entries) {
    const prefix = AGENT_PREFIX.exec(text);
    const readAsAgent = prefix !== null && !VALUE_DIRECTIVES.has(asciiLower(prefix[1]!));
    (readAsAgent ? groupOf(agent).prefixed : groupOf(agent).elements).push(text);
  }
  return [...groups.values()];
}

/**
 * X-Robots-Tag values, one per agent group (`noindex, nofollow`, `googlebot: nosnippet`). An
 * unknown generic element shaped `token: ...` has no header form (a reader takes `token` for an
 * agent) and is left out; the meta form keeps it.
 */
export function toHeaderValues(set: DirectiveSet): string[] {
  const values: string[] = [];
  for (const { agent, elements, prefixed } of groupsOf(set)) {
    if (agent !== null && VALUE_DIRECTIVES.has(agent)) continue;
    const prefix = agent === null ? "" : `${agent}: `;
    if (elements.length > 0) values.push(prefix + elements.join(", "));
    if (agent !== null) for (const element of prefixed) values.push(prefix + element);
  }
  return values;
}

/** Meta tags, one per group: `<meta name="robots" content="...">` and `<meta name="AGENT" content="...">`. */
export function toMetaTags(set: DirectiveSet): string[] {
  return groupsOf(set)
    .filter(({ agent, elements, prefixed }) => elements.length + prefixed.length > 0 && (agent === null || metaAgent(agent) === agent))
    .map(({ agent, elements, prefixed }) =>
      `<meta name="${escapeAttributeValue(agent ?? "robots")}" content="${escapeAttributeValue([...elements, ...prefixed].join(", "))}">`);
}
