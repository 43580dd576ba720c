// Billing: v2 bucketed records (startTime/endTime, *Amount) → v1 records (time, amount).
import type { BodyLens } from "../../types.ts";
import { field, toV1Only } from "./field.ts";

const timeBilled = { v1: "timeBilledMs", reason: "v2 billing records report amounts, not billed time", advice: "derive usage from the amount and the resource's hourly rate" };
const diskBilled = { v1: "diskSpaceBilledGb", reason: "v2 billing records report amounts, not billed gigabytes", advice: "read the disk sizes from the resources themselves" };

export const podBillingRecord: BodyLens = {
  name: "pod-billing-record",
  v1Schema: "BillingRecord",
  v2Schema: "PodBillingRecord",
  fields: [toV1Only(field("amount", "totalAmount")), toV1Only(field("time", "startTime")), toV1Only(field("podId", "podId"))],
  v1Lost: [
    timeBilled,
    diskBilled,
    { v1: "endpointId", reason: "v2 pod billing does not say which pods were Serverless workers", advice: "use GET /v2/billing/serverless for endpoint costs" },
  ],
  v1FromEmulation: [{ v1: "gpuTypeId", emulation: "podBillingByGpuType" }],
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
  v1Lost: [
    timeBilled,
    diskBilled,
    { v1: "gpuTypeId", reason: "v2 serverless billing is per endpoint, not per GPU type", advice: "read the endpoint's GPU pools from GET /v2/serverless/{id}" },
    { v1: "podId", reason: "v2 serverless billing is per endpoint, not per worker", advice: "group by endpoint" },
  ],
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
  v1Lost: [
    diskBilled,
    { v1: "highPerformanceStorageDiskSpaceBilledGb", reason: "v2 network-volume billing reports amounts only, not billed gigabytes", advice: "read each volume's size and type from GET /v2/network-volumes" },
  ],
  v2Only: [{ v2: "networkVolumeId", note: "v2 reports per volume; v1 had one record per bucket, so the gateway sums the volumes (sumPerBucket)" }, { v2: "standardAmount", note: "v1 reported only the high-performance part separately" }],
};
