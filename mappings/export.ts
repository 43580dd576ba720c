// The table as plain data (for `v2-bridge mappings --format json`, the audit and the report).
import type { OperationMapping } from "./types.ts";
import { operations } from "./table.ts";
import { lensNamed } from "./data/lenses/index.ts";
import { converterNamed } from "./data/converters.ts";

export interface ExportedOperation {
  key: string;
  summary: string;
  v1: { operationId: string; method: string; path: string; status: number };
  v2: { operationId: string; method: string; path: string; status: number | readonly number[] } | null;
  status: OperationMapping["status"];
  pathParams: Record<string, string>;
  query: OperationMapping["query"];
  request: { lens?: string; fixedBody?: Record<string, unknown> } | null;
  response: OperationMapping["response"];
  emulations: string[];
  decision: OperationMapping["decision"] | null;
  changes: string[];
  fields: { v1: string[]; v2: string[]; converter: string | null; lossless: boolean; direction: string }[];
}

export function exportOperation(op: OperationMapping): ExportedOperation {
  const lensNames = [op.request?.lens, "lens" in op.response ? op.response.lens : undefined].filter(Boolean) as string[];
  const fields = lensNames.flatMap((name) =>
    lensNamed(name).fields.map((f) => ({
      v1: f.v1,
      v2: f.v2,
      converter: f.converter ?? null,
      lossless: f.converter ? converterNamed(f.converter).lossless : true,
      direction: f.only ?? (name === op.request?.lens ? "request" : "response"),
    })),
  );
  return {
    key: op.key,
    summary: op.summary,
    v1: op.v1,
    v2: op.v2,
    status: op.status,
    pathParams: op.pathParams ?? {},
    query: op.query ?? [],
    request: op.request ?? null,
    response: op.response,
    emulations: op.emulations ?? [],
    decision: op.decision ?? null,
    changes: op.changes,
    fields,
  };
}

export function exportTable(): ExportedOperation[] {
  return operations.map(exportOperation);
}
