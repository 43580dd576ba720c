// Read-only converters for v2 records → v1 records: fields v1 clients read that v2 reports in a
// different place (runtime port table) or in a different sense (current spend vs. hourly rate).
import type { CatalogGpuType, Converter, HourlyRateQuery } from "../types.ts";
import { v1FormOf } from "./source-forms.ts";

interface RuntimePort {
  private?: number;
  public?: number | null;
  ip?: string | null;
}

const define = (c: Converter): Converter => c;

export const runtimeAddresses = define({
  name: "runtimeAddresses",
  summary:
    "v2 pod `runtime.ports` (live port table) → v1 `publicIp` (the ip of a publicly mapped port) and `portMappings` {private: public}; empty while the pod is not running. v2 `globalNetworking.ip` is a private address and is not used.",
  lossless: false,
  toV2: () => [undefined],
  toV1: ([runtime]) => {
    const ports = ((runtime as { ports?: RuntimePort[] } | null | undefined)?.ports ?? []).filter(
      (p) => typeof p?.private === "number" && typeof p.public === "number",
    );
    const ip = ports.find((p) => typeof p.ip === "string" && p.ip)?.ip ?? undefined;
    return [ip, Object.fromEntries(ports.map((p) => [String(p.private), p.public]))];
  },
  codemod: null,
  codemodReason: "read the public address and ports from v2 `runtime.ports` (ip, private, public)",
  // As toV1: a `ports` that is not a list throws (`filter` is not a function). The arrow function
  // narrows the list to an array, so the callbacks type-check with the input `any`.
  codemodToV1: v1FormOf((runtime) => {
    const ports = (then: string) =>
      `((ports) => Array.isArray(ports) ? ports.filter((p) => typeof p?.private === "number" && typeof p.public === "number")${then} : ports.filter())(${runtime}?.ports ?? [])`;
    return [ports(`.find((p) => typeof p.ip === "string" && p.ip)?.ip ?? undefined`), ports(`.reduce((o, p) => ({ ...o, [String(p.private)]: p.public }), {})`)];
  }),
});

export const hourlyRate = define({
  name: "hourlyRate",
  summary:
    "v2 pod `cost` (current spend: 0 while stopped) → v1 `costPerHr` and `adjustedCostPerHr` (the pod's hourly rate): `cost` while running, else the catalog list price for the pod's GPU type × count (by cloud) or CPU flavour × vCPUs.",
  lossless: false,
  needsCatalog: true,
  toV2: () => [undefined],
  toV1: ([cost, status, gpu, cpu, cloud], ctx) => {
    const running = typeof cost === "number" && (status === "RUNNING" || cost > 0);
    if (running || !ctx.catalog?.hourlyRate) return [cost, cost];
    const query: HourlyRateQuery = {
      gpu: gpu as HourlyRateQuery["gpu"],
      cpu: cpu as HourlyRateQuery["cpu"],
      cloud: cloud === "COMMUNITY" ? "COMMUNITY" : "SECURE",
    };
    const rate = ctx.catalog.hourlyRate(query);
    return rate === undefined ? [cost, cost] : [rate, rate];
  },
  codemod: null,
  codemodReason: "v2 `cost` is 0 while a pod is stopped; read the hourly rate from GET /v2/catalog/gpus (or cpus) price × count",
});

export const gpuDetails = define({
  name: "gpuDetails",
  summary:
    "v2 pod `gpu` (GpuConfig: `id`, `count` only) → v1 `gpu.displayName`, `gpu.securePrice`, `gpu.communityPrice` and `machine.gpuDisplayName`: the catalog row of `gpu.id` (GET /v2/catalog/gpus): its `name`, and its per-GPU list prices `price.secure` / `price.community` (the figures the hourly rate multiplies by `gpu.count`).",
  lossless: false,
  needsCatalog: true,
  toV2: () => [undefined],
  toV1: ([gpu], ctx) => {
    const id = (gpu as { id?: unknown } | null | undefined)?.id;
    const row: CatalogGpuType | undefined = typeof id === "string" ? ctx.catalog?.gpuType?.(id) : undefined;
    const price = (n: unknown) => (typeof n === "number" ? n : undefined);
    const name = typeof row?.name === "string" ? row.name : undefined;
    return [name, price(row?.price?.secure), price(row?.price?.community), name];
  },
  codemod: null,
  codemodReason: "v2 pod records carry only gpu.id and gpu.count; read the GPU type's name and per-GPU prices (price.secure, price.community) from GET /v2/catalog/gpus/{gpu.id}",
});

export const cloudTier = define({
  name: "cloudTier",
  summary: "v2 pod `cloud` → v1 `machine.secureCloud` (SECURE) and `interruptible` (always false: v2 rents pods on demand only).",
  lossless: false,
  toV2: () => [undefined],
  toV1: ([cloud]) => (typeof cloud === "string" ? [cloud === "SECURE", false] : [undefined, undefined]),
  codemod: null,
  codemodReason: "read v2 `cloud` (\"SECURE\" | \"COMMUNITY\"); v2 has no interruptible pods",
  codemodToV1: v1FormOf((cloud) => [`typeof ${cloud} === "string" ? ${cloud} === "SECURE" : undefined`, `typeof ${cloud} === "string" ? false : undefined`]),
});

export const imageEntrypoint = define({
  name: "imageEntrypoint",
  summary: "v2 pods always run their image's own entrypoint → v1 `dockerEntrypoint: []` (v1's way of saying \"the image's ENTRYPOINT\").",
  lossless: false,
  toV2: () => [undefined],
  toV1: ([image]) => [image === undefined ? undefined : []],
  codemod: null,
  codemodReason: "v2 cannot override the entrypoint; the image's own is used",
  codemodToV1: v1FormOf(() => ["[]"]),
});

export const workerDesiredStatus = define({
  name: "workerDesiredStatus",
  summary: "v2 worker `status` (RUNNING, IDLE, INITIALIZING, THROTTLED, UNHEALTHY) → v1 worker pod `desiredStatus`: RUNNING (every listed worker is meant to run).",
  lossless: false,
  toV2: () => [undefined],
  toV1: ([status]) => [status === undefined ? undefined : "RUNNING"],
  codemod: null,
  codemodReason: "v2 workers report their live state in `status`; compare against the v2 states",
  codemodToV1: v1FormOf(() => [`"RUNNING"`]),
});

export const recordConverters = [runtimeAddresses, hourlyRate, gpuDetails, cloudTier, imageEntrypoint, workerDesiredStatus];
