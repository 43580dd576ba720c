// The boundary adapter: one small dependency-free module, generated from the mapping table, that
// the codemod writes into a client project where a v1-shaped value crosses the project's own
// interfaces (docs/codemod.md#boundary-adapter). The engine asks `adapterCovers`, writes
// `adapterCall` at the site and `adapterImport` at the top of the file, and `writeAdapter` once.
import path from "node:path";
import { renderAdapter, type AdapterOptions } from "./render.ts";
import { mappingTable, type AdapterTable } from "./table.ts";
import { writeTextIfChanged, type WriteAdapterOptions, type WriteResult } from "./write.ts";

export { adapterCovers, adapterCoverageReasons, adapterFilters, adapterOmissions } from "./coverage.ts";
export { adapterCall, adapterImport, ADAPTER_BINDING, type ImportOptions } from "./calls.ts";
export type { AdapterKind } from "./plan.ts";
export type { AdapterOptions, WriteAdapterOptions, WriteResult, AdapterTable };

export function adapterFileName(options: AdapterOptions): string {
  if (options.language === "ts") return "v2-bridge-adapter.ts";
  return options.moduleKind === "cjs" ? "v2-bridge-adapter.cjs" : "v2-bridge-adapter.js";
}

export function adapterModule(options: AdapterOptions & { fileName?: string }, table: AdapterTable = mappingTable): { fileName: string; text: string } {
  return { fileName: options.fileName ?? adapterFileName(options), text: renderAdapter(table, options) };
}

export async function writeAdapter(projectRoot: string, options: WriteAdapterOptions, table: AdapterTable = mappingTable): Promise<WriteResult> {
  const { fileName, text } = adapterModule(options, table);
  const root = path.resolve(projectRoot);
  const file = path.resolve(root, options.dir ?? ".", fileName);
  if (path.relative(root, file).startsWith("..")) throw new Error(`the adapter would be written outside the project (${file})`);
  return writeTextIfChanged(file, text);
}
