// Agent selection: which groups decide for a query, and their rules in decision order. Done
// once per batch (and cached per table, with a few earlier selections: kept-selections.ts), never
// per URL.

import { toLower } from "./chars";
import { keepCurrent, resumeKept } from "./kept-selections";
import { AGENT_FIELDS, AgentField, RuleField, RuleTable, Scope } from "./table";

/**
 * Chooses the groups that decide for the agents encoded at `agents` (a sequence of u32 length +
 * bytes) and lists their rules in decision order. The result is cached on the table, so calling
 * again with the same agents costs one comparison. Returns the Scope.
 */
export function selectAgents(table: RuleTable, agents: usize, agentsLength: usize): u32 {
  const cached = table.selectedFor;
  if (table.selectionValid && cached.length == agentsLength && memory.compare(cached.data, agents, agentsLength) == 0) {
    return table.scope;
  }
  cached.length = 0;
  cached.pushBytes(agents, agentsLength);

  // The groups are chosen into a block of their own first: if they are those of the current
  // selection or of a kept one (kept-selections.ts), its rules and plan are used again.
  const groupCount = <usize>table.groupCount;
  const chosen = heap.alloc(max<usize>(groupCount, 1));
  memory.fill(chosen, 0, groupCount);

  // RFC 9309 2.2.1: the groups naming one of the agents decide; only if there are none, `*` does.
  const agentCount = <u32>(table.agents.length / (AGENT_FIELDS << 2));
  let anySpecific = false;
  let anyGlobal = false;
  for (let a: u32 = 0; a < agentCount; a++) {
    const base = a * AGENT_FIELDS;
    if (table.agents.u32At(base + AgentField.GLOBAL)) {
      anyGlobal = true;
      continue;
    }
    const token = table.pool.data + table.agents.u32At(base + AgentField.TOKEN_START);
    const tokenLength = <usize>table.agents.u32At(base + AgentField.TOKEN_LENGTH);
    if (namesAnyAgent(token, tokenLength, agents, agentsLength)) {
      store<u8>(chosen + table.agents.u32At(base + AgentField.GROUP), 1);
      anySpecific = true;
    }
  }
  if (!anySpecific && anyGlobal) {
    for (let a: u32 = 0; a < agentCount; a++) {
      const base = a * AGENT_FIELDS;
      if (table.agents.u32At(base + AgentField.GLOBAL)) store<u8>(chosen + table.agents.u32At(base + AgentField.GROUP), 1);
    }
  }
  table.scope = anySpecific ? Scope.SPECIFIC : anyGlobal ? Scope.GLOBAL : Scope.NONE;

  if (table.selectionValid) {
    // Agents that fall to the same groups as the current selection keep its rules and plan.
    if (memory.compare(table.selectedGroups.data, chosen, groupCount) == 0 || resumeKept(table, chosen, groupCount)) {
      heap.free(chosen);
      return table.scope;
    }
    keepCurrent(table);
  }
  const selected = table.selectedGroups;
  selected.length = 0;
  memory.copy(selected.reserve(groupCount), chosen, groupCount);
  selected.length = groupCount;
  heap.free(chosen);

  const rules = table.selectedRules;
  const count = table.ruleCount;
  rules.length = 0;
  const out = rules.reserve(<usize>count << 2);
  let kept: usize = 0;
  for (let i: u32 = 0; i < count; i++) {
    const rule = table.order.u32At(i);
    if (load<u8>(selected.data + table.ruleField(rule, RuleField.GROUP))) {
      store<u32>(out + (kept << 2), rule);
      kept++;
    }
  }
  rules.length = kept << 2;
  rules.shrink();
  table.selectionValid = true;
  // No plan yet (the last selection's went with it): the first URL that needs one builds it.
  return table.scope;
}

/** Whether a lower-case group token equals one of the queried agents, ignoring ASCII case. */
function namesAnyAgent(token: usize, tokenLength: usize, agents: usize, agentsLength: usize): bool {
  let at: usize = 0;
  while (at + 4 <= agentsLength) {
    const length = <usize>load<u32>(agents + at);
    const name = agents + at + 4;
    at += 4 + length;
    if (length != tokenLength) continue;
    let equal = true;
    for (let i: usize = 0; i < length; i++) {
      if (toLower(load<u8>(name + i)) != <u32>load<u8>(token + i)) {
        equal = false;
        break;
      }
    }
    if (equal) return true;
  }
  return false;
}

