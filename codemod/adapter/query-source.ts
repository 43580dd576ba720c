// v1 query objects in the generated module: `toV2Query.<Operation>(query)` takes the query object a
// call passes (axios `params`, a helper's `query`) as v1 took it and returns the one v2 takes, as
// the gateway's translateQuery does (gateway/translation/translate-request.ts): a name v2 spells
// otherwise is renamed, a value that asks for what v2 does anyway (`includeMachine: false`) and a
// name v1 did not take (it ignored it) are left out. Wherever the gateway would do more than forward (refuse, warn and drop, emulate with extra
// requests or a client-side filter, a v1 default it emulates when the parameter is absent) the
// function throws instead: the engine wraps a query only where its declared type lets no such
// parameter come, so the throw guards an untyped caller, never a call the codemod migrated.
import { isHarmlessQuery } from "../../mappings/index.ts";
import type { QueryMapping } from "../../mappings/types.ts";
import type { AdapterTable } from "./table.ts";
import { literal, propertyKey, type Annotate } from "./source-text.ts";

/** What the function does with one v1 parameter: rename it, or leave out its harmless values and refuse the rest. */
export interface QueryRule {
  v2?: string;
  harmless?: string[];
  refuse?: string;
  /** The parameter's absence asks for a v1 default the gateway emulates: refused. */
  absent?: string;
  /** Emulated by the gateway, which reads the last value given (an include expands on any "true"). */
  last?: true;
}

export type QueryRules = [operation: string, rules: [param: string, rule: QueryRule][]][];

/** Why v2 does not take a v1 parameter as it is, in the gateway's words (its 400 message for a rejection). */
function refusal(m: QueryMapping): string {
  return `${m.reason ?? "v2 does not take it"}; ${m.advice ?? "see docs/mapping.md"}`;
}

/** The rules per operation that has a v2 operation and v1 query parameters (canonical keys only). */
export function queryRulesOf(table: AdapterTable): QueryRules {
  const out: QueryRules = [];
  for (const op of table.operations) {
    // `UpdatePod#post-update` is UpdatePod sent another way (plan.ts canonicalKey): one entry.
    const base = op.key.split("#")[0]!;
    if ((base !== op.key && table.operations.some((o) => o.key === base)) || !op.v2 || op.status === "no-equivalent" || !op.query?.length) continue;
    const rules: [string, QueryRule][] = op.query.map((m) => {
      if (m.v2) return [m.v1, { v2: m.v2 }];
      const rule: QueryRule = { ...(m.harmless ? { harmless: [...m.harmless.values] } : {}), refuse: refusal(m), ...(m.decision === "emulate" && !m.filterField ? { last: true as const } : {}) };
      if (m.decision === "emulate" && m.v1Default && !isHarmlessQuery(m, [m.v1Default.value])) rule.absent = `${m.v1Default.reason}; ${m.v1Default.advice}`;
      return [m.v1, rule];
    });
    out.push([op.key, rules]);
  }
  return out;
}

/** The rules table, `queryToV2` and the `toV2Query` lookup (one function per operation). */
export function querySource(rules: QueryRules, t: Annotate): string {
  const ruleType = "{ v2?: string; harmless?: string[]; refuse?: string; absent?: string; last?: true }";
  const table = rules.map(([op, params]) => `  ${propertyKey(op)}: {\n${params.map(([p, r]) => `    ${propertyKey(p)}: ${literal(r)},`).join("\n")}\n  },`);
  const lookup = rules.map(([op]) => `  ${propertyKey(op)}: (query${t("?: object | null")}) => queryToV2(${JSON.stringify(op)}, query),`);
  // A table with no query to translate: the lookup alone (an unused function would fail noUnusedLocals).
  if (!rules.length) return "/** v1 query object → v2 query object, per v1 operation: none here. */\nconst toV2Query = {};";
  return `/** v1 query parameter → what v2 takes, per operation (the gateway's translateQuery). */
const queryRules${t(`: { [operation: string]: { [param: string]: ${ruleType} } }`)} = {
${table.join("\n")}
};

/**
 * A v1 query object as v2 takes it: names v2 spells otherwise renamed (values as given), values
 * that ask for what v2 does anyway left out. Anything the gateway would refuse, drop with a warning
 * or emulate (a filter, an include, an absent v1 default) throws: such a query needs the gateway.
 */
function queryToV2(operation${t(": string")}, query${t(": object | null | undefined")})${t(": { [param: string]: any }")} {
  const rules = queryRules[operation];
  if (!rules) throw new Error("v2-bridge adapter: " + operation + " is not an operation whose query it translates");
  const given = (query ?? {})${t(" as { [param: string]: unknown }")};
  const out${t(": { [param: string]: any }")} = {};
  for (const [param, value] of Object.entries(given)) {
    const rule = rules[param];
    if (rule?.v2 !== undefined) {
      out[rule.v2] = value;
      continue;
    }
    if (absent(value)) continue;
    // v1 ignored a name it did not take (the gateway drops it): nothing to send.
    if (!rule) continue;
    const values = (Array.isArray(value) ? value : [value]).filter((v) => !absent(v)).map(String);
    const harmless = rule.harmless ?? [];
    // As the gateway reads them: an emulated parameter by its last value (an include by any "true"), the others by every value.
    if (rule.last ? !values.includes("true") && harmless.includes(values[values.length - 1]${t("!")}) : values.every((v) => harmless.includes(v))) continue;
    throw new Error("v2-bridge adapter: query parameter " + param + " is not supported by v2: " + rule.refuse);
  }
  for (const [param, rule] of Object.entries(rules)) {
    if (rule.absent && absent(given[param])) throw new Error("v2-bridge adapter: " + param + " not given: " + rule.absent);
  }
  return out;
}

/** Absent as a request sends it: undefined, null, an empty array (or one of absent values). */
function absent(value${t(": unknown")})${t(": boolean")} {
  return value === undefined || value === null || (Array.isArray(value) && value.every((v) => v === undefined || v === null));
}

/** v1 query object → v2 query object, per v1 operation (queryToV2). */
const toV2Query = {
${lookup.join("\n")}
};`;
}
