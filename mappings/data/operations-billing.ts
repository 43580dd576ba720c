// The billing operations of the table (pods, serverless, network volumes): v1 billing paths map
// to v2's, `/billing/endpoints` to `/v2/billing/serverless` (never `/v2/billing/endpoints`).
import type { OperationEntry, QueryMapping } from "../types.ts";
import { uses, podBillingByGpuType, sumPerBucket } from "./emulations.ts";
import { networkVolumeBillingRecord, podBillingRecord, serverlessBillingRecord } from "./lenses/index.ts";

const billingGone = (v1: string, reason: string): QueryMapping => ({
  v1,
  decision: "reject",
  reason,
  advice: "filter by resource id (podId/serverlessId/networkVolumeId) or aggregate the v2 records yourself",
});

const billingTime: QueryMapping[] = [
  { v1: "bucketSize", v2: "bucketSize" },
  { v1: "startTime", v2: "startTime" },
  { v1: "endTime", v2: "endTime" },
];

export const billingOperations: OperationEntry[] = [
  // ── billing ───────────────────────────────────────────────────────────
  {
    key: "PodBilling",
    summary: "Pod billing history",
    v1: { operationId: "PodBilling", method: "GET", path: "/billing/pods", status: 200 },
    v2: { operationId: "listPodBilling", method: "GET", path: "/v2/billing/pods", status: 200 },
    status: "mapped",
    query: [
      ...billingTime,
      { v1: "podId", v2: "podId" },
      {
        v1: "gpuTypeId",
        decision: "emulate",
        filterField: "gpuTypeId",
        reason: "v2 pod billing cannot be filtered by GPU type; the gateway attributes each pod's records to its GPU type and filters",
        advice: "filter by podId, or group the records by each pod's gpu.id yourself",
      },
      {
        v1: "grouping",
        decision: "emulate",
        harmless: { values: ["podId"], reason: "v2 pod billing emits one record per pod per bucket" },
        v1Default: { value: "gpuTypeId", reason: "v1 grouped pod billing by GPU type by default, v2 answers one record per pod", advice: "sum the records per GPU type yourself (each pod's gpu.id from GET /v2/pods), or pass grouping: \"podId\" where per-pod records are what the code wants" },
        reason: "v2 pod billing is one record per pod per bucket (v1 grouping=podId); for v1's default grouping=gpuTypeId the gateway sums the pods of each GPU type (CPU pods under their CPU flavour) per bucket",
        advice: "group the records by each pod's gpu.id yourself (GET /v2/pods)",
      },
    ],
    response: { kind: "list", wrapper: "records", lens: podBillingRecord.name },
    emulations: uses(podBillingByGpuType),
  },
  {
    key: "EndpointBilling",
    summary: "Serverless billing history",
    v1: { operationId: "EndpointBilling", method: "GET", path: "/billing/endpoints", status: 200 },
    v2: { operationId: "listServerlessBilling", method: "GET", path: "/v2/billing/serverless", status: 200 },
    status: "mapped",
    query: [
      ...billingTime,
      { v1: "endpointId", v2: "serverlessId" },
      billingGone("dataCenterId", "v2 serverless billing cannot be filtered by data center"),
      billingGone("gpuTypeId", "v2 serverless billing cannot be filtered by GPU type"),
      billingGone("imageName", "v2 serverless billing cannot be filtered by image"),
      billingGone("templateId", "v2 serverless billing cannot be filtered by template"),
      {
        v1: "grouping",
        decision: "drop-with-warning",
        harmless: { values: ["endpointId"], reason: "v2 serverless billing emits one record per endpoint per bucket" },
        reason: "v2 serverless billing is one record per endpoint per bucket",
        advice: "group the records yourself",
      },
    ],
    response: { kind: "list", wrapper: "records", lens: serverlessBillingRecord.name },
  },
  {
    key: "NetworkVolumeBilling",
    summary: "Network volume billing history",
    v1: { operationId: "NetworkVolumeBilling", method: "GET", path: "/billing/networkvolumes", status: 200 },
    v2: { operationId: "listNetworkVolumeBilling", method: "GET", path: "/v2/billing/network-volumes", status: 200 },
    status: "mapped",
    query: billingTime,
    response: { kind: "list", wrapper: "records", lens: networkVolumeBillingRecord.name },
    emulations: uses(sumPerBucket),
  },
];
