// The named changes between v1 and v2. Each is one unit: its documentation line and the rule that
// says which operations it touches, read from the operation's table entry (paths, methods,
// statuses, lenses and their converters, emulations). Changes that touch every operation (problem
// errors, rate-limit headers) are listed once in the docs, not per operation. The docs and each
// operation's `changes` are generated from this list.

import { V1_BASE, V2_BASE } from "../bases.ts";
import { lensNamed } from "./lenses/index.ts";
import { endpointGpu, endpointGpuUpdate, flashboot } from "./converters.ts";
import { listFilters } from "./emulations.ts";
import { v2Successes } from "../statuses.ts";
import type { BodyLens, OperationEntry as Op } from "../types.ts";

export interface VersionChange {
  id: string;
  title: string;
  /** What a v1 client sends that changes. */
  request: string | null;
  /** What a v1 client receives that changes. */
  response: string | null;
  /** The operations it touches, from their table entries; "every operation" is listed once, not per operation. */
  appliesTo: ((op: Op) => boolean) | "every operation";
}

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

export const versionChanges: VersionChange[] = [
  {
    id: "base-url",
    title: "New base address",
    request: `\`${V1_BASE}/<path>\` becomes \`${V2_BASE}/<path>\`.`,
    response: null,
    appliesTo: (op) => !isDocument(op),
  },
  {
    id: "generic-path-id",
    title: "Generic `{id}` path parameter",
    request: "`{podId}`, `{endpointId}`, `{templateId}`, `{networkVolumeId}`, `{containerRegistryAuthId}` become `{id}` (same value).",
    response: null,
    appliesTo: (op) => !!op.v2 && Object.entries(op.pathParams ?? {}).some(([v1, v2]) => v1 !== v2),
  },
  {
    id: "resource-renamed",
    title: "Resource paths renamed",
    request: "`/endpoints` → `/v2/serverless`, `/networkvolumes` → `/v2/network-volumes`, `/containerregistryauth` → `/v2/registries`, `/billing/endpoints` → `/v2/billing/serverless` (never `/v2/billing/endpoints`, a different resource), `/billing/networkvolumes` → `/v2/billing/network-volumes`.",
    response: null,
    appliesTo: (op) => !!op.v2 && resource(op.v1.path, "") !== resource(op.v2.path, "/v2"),
  },
  {
    id: "lifecycle-action",
    title: "Pod lifecycle paths become one action operation",
    request: "`POST /pods/{podId}/start|stop|restart` becomes `POST /v2/pods/{id}/action` with body `{\"action\": \"start|stop|restart\"}`.",
    response: "v2 answers the updated Pod; v1 answered 200 with no body.",
    appliesTo: (op) => typeof op.request?.fixedBody?.action === "string",
  },
  {
    id: "reset-removed",
    title: "Pod reset removed",
    request: "`POST /pods/{podId}/reset` has no v2 equivalent (actions are start, stop, restart, terminate).",
    response: null,
    appliesTo: (op) => !op.v2 && op.v1.path.endsWith("/reset"),
  },
  {
    id: "update-is-patch",
    title: "`POST …/update` becomes `PATCH`",
    request: "The v1 `POST /<resource>/{id}/update` synonym of `PATCH` is gone; use `PATCH /v2/<resource>/{id}`.",
    response: null,
    appliesTo: (op) => op.v1.method === "POST" && op.v2?.method === "PATCH",
  },
  {
    id: "nested-bodies",
    title: "Flat bodies become nested",
    request: "Pod, endpoint and template bodies move fields into `gpu`, `cpu`, `mounts`, `workers`, `scaling`; several fields are renamed (`imageName` → `image`, `containerDiskInGb` → `disk`, `isPublic` → `public`, `containerRegistryAuthId` → `registry`, `dataCenterId` → `dataCenter`).",
    response: "Records come back nested the same way (`status` instead of `desiredStatus`, `mounts` instead of `volumeInGb`/`volumeMountPath`, `workers`/`scaling` instead of `workersMin`/`workersMax`/`scalerType`/`scalerValue`).",
    appliesTo: (op) => lensesOf(op).some((l) => !isBilling(l) && l.fields.some((f) => !!f.converter || f.v1.join() !== f.v2.join())),
  },
  {
    id: "flashboot-enum",
    title: "FlashBoot becomes an enum",
    request: "`flashboot: true|false` becomes `\"FLASHBOOT\"|\"OFF\"` (v2 adds `\"PRIORITY_FLASHBOOT\"`).",
    response: "Same, reversed.",
    appliesTo: (op) => usesConverter(op, flashboot),
  },
  {
    id: "gpu-pools",
    title: "Endpoints choose GPU pools",
    request: "Endpoint `gpuTypeIds` (GPU types) become `gpu.pools` (GPU pools) with `gpu.excludedTypes`.",
    response: "Endpoint records list pools, not types.",
    appliesTo: (op) => usesConverter(op, endpointGpu) || usesConverter(op, endpointGpuUpdate),
  },
  {
    id: "wrapped-lists",
    title: "Lists are wrapped",
    request: null,
    response: "List operations answer `{\"pods\": [...]}` (or `endpoints`, `templates`, `networkVolumes`, `registries`, `records`) instead of a bare array.",
    appliesTo: (op) => op.response.kind === "list",
  },
  {
    id: "list-filters-removed",
    title: "List filters removed",
    request: "v1 list filters and `include*` expansions are not v2 query parameters.",
    response: null,
    appliesTo: (op) => (op.emulations ?? []).includes(listFilters.name),
  },
  {
    id: "create-status",
    title: "Create answers 201",
    request: null,
    response: "All v2 creates answer 201 Created; v1 answered 201 only for pods and 200 for the other resources.",
    appliesTo: (op) => v2Successes(op).includes(201) && op.v1.status !== 201,
  },
  {
    id: "billing-buckets",
    title: "Billing records are buckets",
    request: "v1 billing filters `gpuTypeId`, `grouping`, `dataCenterId`, `imageName`, `templateId` are gone; v2 filters by resource id and adds `lastN`.",
    response: "Records carry `startTime`/`endTime` and `totalAmount` (plus a split) inside `{records, metadata}` instead of `time` and `amount`.",
    appliesTo: (op) => lensesOf(op).some(isBilling),
  },
  {
    id: "problem-errors",
    title: "Errors use the problem format",
    request: null,
    response: "Errors are RFC 9457 `application/problem+json` `{title, status, detail, errors?}` instead of `{\"message\": …}` (or `{\"error\": …, \"status\": …}`).",
    appliesTo: "every operation",
  },
  {
    id: "rate-limit-headers",
    title: "Rate-limit headers",
    request: null,
    response: "Every authenticated response carries structured `RateLimit` and `RateLimit-Policy` headers; 429 carries `Retry-After`.",
    appliesTo: "every operation",
  },
];
