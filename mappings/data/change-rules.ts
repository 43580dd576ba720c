// When each named version change touches an operation, read from the operation's table entry
// (paths, methods, statuses, lenses and their converters, emulations). Changes without a rule
// (problem errors, rate-limit headers) touch every operation and are listed once, not per operation.
import { lensNamed } from "./lenses/index.ts";
import { endpointGpu, endpointGpuUpdate, flashboot } from "./converters.ts";
import { listFilters } from "./emulations.ts";
import type { BodyLens, OperationEntry as Op } from "../types.ts";

const lensesOf = (op: Op): BodyLens[] =>
  [op.request?.lens, "lens" in op.response ? op.response.lens : undefined].filter((n): n is string => !!n).map(lensNamed);

const isBilling = (lens: BodyLens) => lens.v2Schema.endsWith("BillingRecord");

const usesConverter = (op: Op, converter: { name: string }) => lensesOf(op).some((l) => l.fields.some((f) => f.converter === converter.name));

/** The literal segments before the first parameter: the resource a path names. */
function resource(path: string, prefix: string): string {
  const segments = path.slice(prefix.length).split("/").filter(Boolean);
  const head: string[] = [];
  for (const s of segments) {
    if (s.startsWith("{")) break;
    head.push(s);
  }
  return head.join("/");
}

const isDocument = (op: Op) => op.response.kind === "document" || op.response.kind === "html";

export const changeApplies: Record<string, (op: Op) => boolean> = {
  "base-url": (op) => !isDocument(op),
  "generic-path-id": (op) => !!op.v2 && Object.entries(op.pathParams ?? {}).some(([v1, v2]) => v1 !== v2),
  "resource-renamed": (op) => !!op.v2 && resource(op.v1.path, "") !== resource(op.v2.path, "/v2"),
  "lifecycle-action": (op) => typeof op.request?.fixedBody?.action === "string",
  "reset-removed": (op) => !op.v2 && op.v1.path.endsWith("/reset"),
  "update-is-patch": (op) => op.v1.method === "POST" && op.v2?.method === "PATCH",
  "nested-bodies": (op) => lensesOf(op).some((l) => !isBilling(l) && l.fields.some((f) => !!f.converter || f.v1.join() !== f.v2.join())),
  "flashboot-enum": (op) => usesConverter(op, flashboot),
  "gpu-pools": (op) => usesConverter(op, endpointGpu) || usesConverter(op, endpointGpuUpdate),
  "wrapped-lists": (op) => op.response.kind === "list",
  "list-filters-removed": (op) => (op.emulations ?? []).includes(listFilters.name),
  "create-status": (op) => op.v1.method === "POST" && op.v2?.method === "POST" && !op.request?.fixedBody && op.v1.status !== 201,
  "billing-buckets": (op) => lensesOf(op).some(isBilling),
};
