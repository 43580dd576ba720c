// The generated module's text: header, helpers, one function per lens, the lookup objects and the
// exports, in TypeScript or JavaScript, ES module or CommonJS. Same table and options, same bytes.
import type { AdapterTable } from "./table.ts";
import { buildPlan } from "./plan.ts";
import { helpersFor, helpers, publicFunctions } from "./runtime-source.ts";
import { annotate, indent, literal, propertyKey } from "./source-text.ts";
import { header } from "./header.ts";
import { filterListSource } from "./filters.ts";
import { querySource } from "./query-source.ts";

export interface AdapterOptions {
  language: "ts" | "js";
  moduleKind: "esm" | "cjs";
}

export const EXPORTS = ["toV2Body", "toV1Record", "toV1List", "unwrapList", "filterList", "v1Message", "toV2Query", "validatesV1"] as const;

function table(name: string, type: string, entries: string[]): string {
  return `const ${name}${type} = {${entries.length ? `\n${indent(entries.join(",\n"))},\n` : ""}};`;
}

export function renderAdapter(source: AdapterTable, options: AdapterOptions): string {
  const t = annotate(options.language);
  const plan = buildPlan(source, t);
  const functions = plan.functions.map((f) => f.code);
  const lookups = [
    "/** v1 body → v2 body, per v1 operation. Throws the gateway's 400 message for inputs v2 refuses. */",
    table("toV2Body", "", plan.toV2Body.map(([op, fn]) => `${propertyKey(op)}: ${fn}`)),
    "",
    "/** v2 record → v1 record, per resource; a v2 error answer → v1's `{ message }`. */",
    table("toV1Record", "", plan.toV1Record.map(([resource, fn]) => `${propertyKey(resource)}: orV1Message(${fn})`)),
    "",
    table("lists", t(": { [operation: string]: [wrapper: string, v2Operation: string] }"), plan.lists.map(([op, wrapper, v2op]) => `${propertyKey(op)}: ${literal([wrapper, v2op])}`)),
    "",
    table("recordLists", t(": { [operation: string]: (record: unknown) => any }"), plan.recordLists.map(([op, fn]) => `${propertyKey(op)}: ${fn}`)),
    "",
    "/** v1 list filter parameter → the v1 record field it compares, per operation. */",
    table("listFilters", t(": { [operation: string]: { [param: string]: string } }"), plan.filters.map(([op, fields]) => `${propertyKey(op)}: ${literal(Object.fromEntries(fields))}`)),
  ];
  const body = [...functions, lookups.join("\n"), publicFunctions(t), filterListSource(t), querySource(plan.queries, t)].join("\n\n");
  const used = helpersFor(body);
  const parts = [
    ...(options.language === "ts" ? ["type Obj = { [key: string]: unknown };"] : []),
    ...used.map((name) => helpers[name]!.code(t)),
    body,
  ];
  const exports =
    options.language === "js" && options.moduleKind === "cjs"
      ? `module.exports = { ${EXPORTS.join(", ")} };`
      : options.language === "ts" && options.moduleKind === "cjs"
        ? `export = { ${EXPORTS.join(", ")} };`
        : `export { ${EXPORTS.join(", ")} };`;
  const prologue = options.language === "js" && options.moduleKind === "cjs" ? ['"use strict";', ""] : [];
  const text = [...prologue, parts.join("\n\n"), "", exports, ""].join("\n");
  return header(text) + text;
}
