// v2 answer → v1 answer: wrapped lists → bare arrays, v2 records → v1 records (mapping-table
// lenses), v1's documented success status, and the emulated list filters.
import { getPath as getPathValue } from "../../mappings/object-paths.ts";
import { toV1, type ConvertContext, type OperationMapping } from "../../mappings/index.ts";
import type { ListFilter } from "./translate-request.ts";
import { V1Error } from "./v1-errors.ts";

export interface V1Answer {
  status: number;
  /** JSON value to send; undefined means no body. */
  json?: unknown;
  /** Raw text body with its content type (documents). */
  text?: string;
  contentType?: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);

/** The v2 records inside a successful answer (one for records, the unwrapped array for lists). */
export function v2RecordsOf(op: OperationMapping, json: unknown): Record<string, unknown>[] {
  const shape = op.response;
  if (shape.kind === "record") {
    if (!isRecord(json)) throw new V1Error(502, `upstream v2 answer for ${op.v2?.operationId} is not a record`, "upstream");
    return [json];
  }
  if (shape.kind === "list") {
    const list = isRecord(json) ? json[shape.wrapper] : undefined;
    if (!Array.isArray(list) || !list.every(isRecord)) {
      throw new V1Error(502, `upstream v2 answer for ${op.v2?.operationId} has no "${shape.wrapper}" list`, "upstream");
    }
    return list as Record<string, unknown>[];
  }
  return [];
}

/** The v1 answer from the v2 records `v2RecordsOf` extracted (and checked) from a successful answer. */
export function toV1Answer(op: OperationMapping, v2Records: Record<string, unknown>[], ctx: ConvertContext): V1Answer {
  const shape = op.response;
  switch (shape.kind) {
    case "empty":
      return { status: op.v1.status };
    case "record":
      return { status: op.v1.status, json: toV1(shape.lens, v2Records[0]!, ctx) };
    case "list":
      return { status: op.v1.status, json: v2Records.map((r) => toV1(shape.lens, r, ctx)) };
    default:
      throw new V1Error(500, `operation ${op.key} has no upstream translation`, "translation");
  }
}

/** v1 filter semantics: a record is kept when the field equals one of the given values. */
export function applyFilters(records: unknown[], filters: ListFilter[]): unknown[] {
  if (!filters.length) return records;
  return records.filter((record) =>
    filters.every((f) => {
      const value = getPathValue(record, f.field);
      if (value === undefined || value === null) return false;
      const candidates = Array.isArray(value) ? value.map(String) : [String(value)];
      return f.values.some((v) => candidates.includes(v));
    }),
  );
}
