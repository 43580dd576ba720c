// Serverless workers: v2 Worker records (GET /v2/serverless/{id}/workers) → the v1 Pod records v1
// listed under an endpoint's `workers` (includeWorkers).
import { workerDesiredStatus } from "../record-converters.ts";
import type { BodyLens } from "../../types.ts";
import { convert, field, toV1Only } from "./field.ts";

export const workerRecord: BodyLens = {
  name: "worker-record",
  v1Schema: "Pod",
  v2Schema: "Worker",
  fields: [
    toV1Only(field("id", "id")),
    convert("desiredStatus", "status", workerDesiredStatus, "toV1"),
    toV1Only(field("image", "image")),
    toV1Only(field("gpu.id", "gpuTypeId")),
    toV1Only(field("gpu.count", "gpuCount")),
    toV1Only(field("machine.gpuTypeId", "gpuTypeId")),
    toV1Only(field("machine.dataCenterId", "dataCenterId")),
    toV1Only(field("lastStartedAt", "startedAt")),
  ],
  v2Only: [
    { v2: "isStale", note: "v1 compared the worker's endpoint version itself" },
    { v2: "version", note: "v1 `slsVersion` was the endpoint version; v2 reports the worker's" },
    { v2: "uptimeSeconds", note: "new in v2" },
  ],
};
