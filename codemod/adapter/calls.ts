// What the engine writes at a site: the call that wraps a value, and the line that imports the
// module (relative specifier, extension as the importing project writes them).
import path from "node:path";
import { adapterCovers, adapterOmissions, planOf } from "./coverage.ts";
import { canonicalKey, resourceName, type AdapterKind } from "./plan.ts";
import { mappingTable, type AdapterTable } from "./table.ts";
import { member } from "./source-text.ts";
import { clientAnswer } from "../../mappings/client-answer.ts";

export const ADAPTER_BINDING = "v2Adapter";

/**
 * The source text wrapping `exprSource` (an expression, e.g. `body`) in the adapter's conversion,
 * e.g. `v2Adapter.toV2Body.CreateNetworkVolume(body)`. Throws for a kind/key the adapter does not
 * hold: ask `adapterCovers` first. `listFilters`: a record list's v1 filters (`{ name: value }` source), applied as the gateway does.
 */
export function adapterCall(kind: AdapterKind, key: string, exprSource: string, binding = ADAPTER_BINDING, table: AdapterTable = mappingTable, listFilters?: string): string {
  const covered = adapterCovers(kind, key, table);
  // A record conversion that leaves fields out is the caller's to allow (adapterOmissions).
  if (covered !== true && !adapterOmissions(kind, key, table)) throw new Error(`the adapter does not hold ${kind} ${key}: ${covered}`);
  const op = canonicalKey(table, key);
  switch (kind) {
    case "requestBody":
      return `${binding}.toV2Body${member(op)}(${exprSource})`;
    case "record": {
      const resource = planOf(table).toV1Record.some(([r]) => r === key) ? key : resourceOfOperation(table, op);
      return `${binding}.toV1Record${member(resource)}(${exprSource})`;
    }
    case "list":
      return `${binding}.unwrapList(${exprSource}, ${JSON.stringify(op)})`;
    case "recordList":
      return `${binding}.toV1List(${exprSource}, ${JSON.stringify(op)}${listFilters ? `, ${listFilters}` : ""})`;
    case "problem":
      return `${binding}.v1Message(${exprSource})`;
    case "query":
      return `${binding}.toV2Query${member(op)}(${exprSource})`;
  }
}

function resourceOfOperation(table: AdapterTable, key: string): string {
  const shape = clientAnswer(table.operations.find((o) => o.key === key)!);
  if (shape.kind !== "record" && shape.kind !== "list") throw new Error(`${key} answers no record`);
  return resourceName(shape.lens);
}

export interface ImportOptions {
  /**
   * How the importing project writes relative TypeScript specifiers: false (default) without an
   * extension, true with `.js` (NodeNext ESM), or ".ts" (allowImportingTsExtensions). A JavaScript
   * adapter is always named with its extension (Node's ESM and `require` of `.cjs` need it).
   */
  explicitExtension?: boolean | ".ts";
  binding?: string;
}

/** The import (ESM) or require (CommonJS) line for `fromFile` to reach `adapterFile`. */
export function adapterImport(fromFile: string, adapterFile: string, moduleKind: "esm" | "cjs", options: ImportOptions = {}): string {
  const binding = options.binding ?? ADAPTER_BINDING;
  const ext = path.extname(adapterFile);
  const typescript = ext === ".ts" || ext === ".mts" || ext === ".cts";
  let target = adapterFile;
  if (typescript) {
    const stem = adapterFile.slice(0, -ext.length);
    const written = options.explicitExtension === ".ts" ? ext : options.explicitExtension ? ext.replace("t", "j") : "";
    target = stem + written;
  }
  let specifier = path.relative(path.dirname(fromFile), target).split(path.sep).join("/");
  if (!specifier.startsWith("./") && !specifier.startsWith("../")) specifier = `./${specifier}`;
  const quoted = JSON.stringify(specifier);
  if (moduleKind === "esm") return `import * as ${binding} from ${quoted};`;
  return typescript ? `import ${binding} = require(${quoted});` : `const ${binding} = require(${quoted});`;
}
