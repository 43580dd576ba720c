// Billing: v2 bucketed records (startTime/endTime, *Amount) → v1 records (time, amount).
import type { BodyLens } from "../types.ts";
import { field, toV1Only } from "./field.ts";

export const podBillingRecord: BodyLens = {
  name: "pod-billing-record",
  v1Schema: "BillingRecord",
  v2Schema: "PodBillingRecord",
  fields: [toV1Only(field("amount", "totalAmount")), toV1Only(field("time", "startTime")), toV1Only(field("podId", "podId"))],
  v2Only: [
    { v2: "endTime", note: "bucket end; v1 reported only the bucket start as time" },
    { v2: "gpuAmount", note: "v2 splits the amount by GPU, CPU and disk" },
  ],
};

export const serverlessBillingRecord: BodyLens = {
  name: "serverless-billing-record",
  v1Schema: "BillingRecord",
  v2Schema: "ServerlessBillingRecord",
  fields: [toV1Only(field("amount", "totalAmount")), toV1Only(field("time", "startTime")), toV1Only(field("endpointId", "serverlessId"))],
  v2Only: [{ v2: "feeAmount", note: "v2 itemises the serverless fee" }],
};

export const networkVolumeBillingRecord: BodyLens = {
  name: "network-volume-billing-record",
  v1Schema: "NetworkVolumeBillingRecord",
  v2Schema: "NetworkVolumeBillingRecord",
  fields: [
    toV1Only(field("amount", "totalAmount")),
    toV1Only(field("time", "startTime")),
    toV1Only(field("highPerformanceStorageAmount", "highPerformanceAmount")),
  ],
  v2Only: [{ v2: "networkVolumeId", note: "v2 reports per volume" }],
};
