// The named changes between v1 and v2. Each is one unit with one documentation line; every
// operation lists the changes that touch it, and the docs are generated from this list.

import { V1_BASE, V2_BASE } from "../bases.ts";

export interface VersionChange {
  id: string;
  title: string;
  /** What a v1 client sends that changes. */
  request: string | null;
  /** What a v1 client receives that changes. */
  response: string | null;
}

export const versionChanges: VersionChange[] = [
  {
    id: "base-url",
    title: "New base address",
    request: `\`${V1_BASE}/<path>\` becomes \`${V2_BASE}/<path>\`.`,
    response: null,
  },
  {
    id: "generic-path-id",
    title: "Generic `{id}` path parameter",
    request: "`{podId}`, `{endpointId}`, `{templateId}`, `{networkVolumeId}`, `{containerRegistryAuthId}` become `{id}` (same value).",
    response: null,
  },
  {
    id: "resource-renamed",
    title: "Resource paths renamed",
    request: "`/endpoints` → `/v2/serverless`, `/networkvolumes` → `/v2/network-volumes`, `/containerregistryauth` → `/v2/registries`, `/billing/endpoints` → `/v2/billing/serverless` (never `/v2/billing/endpoints`, a different resource), `/billing/networkvolumes` → `/v2/billing/network-volumes`.",
    response: null,
  },
  {
    id: "lifecycle-action",
    title: "Pod lifecycle paths become one action operation",
    request: "`POST /pods/{podId}/start|stop|restart` becomes `POST /v2/pods/{id}/action` with body `{\"action\": \"start|stop|restart\"}`.",
    response: "v2 answers the updated Pod; v1 answered 200 with no body.",
  },
  {
    id: "reset-removed",
    title: "Pod reset removed",
    request: "`POST /pods/{podId}/reset` has no v2 equivalent (actions are start, stop, restart, terminate).",
    response: null,
  },
  {
    id: "update-is-patch",
    title: "`POST …/update` becomes `PATCH`",
    request: "The v1 `POST /<resource>/{id}/update` synonym of `PATCH` is gone; use `PATCH /v2/<resource>/{id}`.",
    response: null,
  },
  {
    id: "nested-bodies",
    title: "Flat bodies become nested",
    request: "Pod, endpoint and template bodies move fields into `gpu`, `cpu`, `mounts`, `workers`, `scaling`; several fields are renamed (`imageName` → `image`, `containerDiskInGb` → `disk`, `isPublic` → `public`, `containerRegistryAuthId` → `registry`, `dataCenterId` → `dataCenter`).",
    response: "Records come back nested the same way (`status` instead of `desiredStatus`, `mounts` instead of `volumeInGb`/`volumeMountPath`, `workers`/`scaling` instead of `workersMin`/`workersMax`/`scalerType`/`scalerValue`).",
  },
  {
    id: "flashboot-enum",
    title: "FlashBoot becomes an enum",
    request: "`flashboot: true|false` becomes `\"FLASHBOOT\"|\"OFF\"` (v2 adds `\"PRIORITY_FLASHBOOT\"`).",
    response: "Same, reversed.",
  },
  {
    id: "gpu-pools",
    title: "Endpoints choose GPU pools",
    request: "Endpoint `gpuTypeIds` (GPU types) become `gpu.pools` (GPU pools) with `gpu.excludedTypes`.",
    response: "Endpoint records list pools, not types.",
  },
  {
    id: "wrapped-lists",
    title: "Lists are wrapped",
    request: null,
    response: "List operations answer `{\"pods\": [...]}` (or `endpoints`, `templates`, `networkVolumes`, `registries`, `records`) instead of a bare array.",
  },
  {
    id: "list-filters-removed",
    title: "List filters removed",
    request: "v1 list filters and `include*` expansions are not v2 query parameters.",
    response: null,
  },
  {
    id: "create-status",
    title: "Create answers 201",
    request: null,
    response: "All v2 creates answer 201 Created; v1 answered 201 only for pods and 200 for the other resources.",
  },
  {
    id: "billing-buckets",
    title: "Billing records are buckets",
    request: "v1 billing filters `gpuTypeId`, `grouping`, `dataCenterId`, `imageName`, `templateId` are gone; v2 filters by resource id and adds `lastN`.",
    response: "Records carry `startTime`/`endTime` and `totalAmount` (plus a split) inside `{records, metadata}` instead of `time` and `amount`.",
  },
  {
    id: "problem-errors",
    title: "Errors use the problem format",
    request: null,
    response: "Errors are RFC 9457 `application/problem+json` `{title, status, detail, errors?}` instead of `{\"message\": …}` (or `{\"error\": …, \"status\": …}`).",
  },
  {
    id: "rate-limit-headers",
    title: "Rate-limit headers",
    request: null,
    response: "Every authenticated response carries structured `RateLimit` and `RateLimit-Policy` headers; 429 carries `Retry-After`.",
  },
];
