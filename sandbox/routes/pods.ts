// /v2/pods: create (from a body or a template), read, patch, delete, lifecycle actions, logs.
import type { FastifyInstance } from "fastify";
import { DATA_CENTERS, findCpuType, findDataCenter, findGpuType, GPU_TYPES } from "../catalog.ts";
import { bodyObject, isObject, strArray, strRecord, type SandboxContext } from "../context.ts";
import type { PodLifecycle } from "../pod-lifecycle.ts";
import { badRequest, conflict, notFound, unprocessable } from "../problem.ts";
import { podRules } from "../rules/pods.ts";
import { sendLogStream } from "../sse.ts";
import type { Json, PodStatus } from "../store.ts";
import { assertRegistry } from "./registries.ts";
import { findTemplate } from "./templates.ts";

/** Recomputes the fields that follow from status: actions, cost, runtime, ssh. */
export function refreshPod(pod: Json, lifecycle?: PodLifecycle): Json {
  lifecycle?.advance(pod);
  const status = pod.status as PodStatus;
  const running = status === "RUNNING";
  pod.actions = podRules.actionsFor(status);
  const gpuType = pod.gpu ? findGpuType(pod.gpu.id) : undefined;
  const hourly = gpuType
    ? (pod.cloud === "COMMUNITY" ? gpuType.price.community : gpuType.price.secure) * (pod.gpu.count ?? 1)
    : pod.cpu
      ? (findCpuType(pod.cpu.id)?.price.securePerVcpu ?? 0.05) * pod.cpu.vcpuCount
      : 0;
  pod.cost = podRules.costFor(status, hourly);
  const ports: string[] = pod.ports ?? [];
  const ip = `203.0.113.${(parseInt(pod.id.slice(0, 4), 36) % 250) + 2}`;
  const publicPort = (i: number) => 10000 + ((parseInt(pod.id.slice(-4), 36) + i) % 50000);
  const hasSsh = ports.includes("22/tcp");
  pod.ssh = {
    proxy: running
      ? { host: "ssh.runpod.io", port: 22, username: `${pod.id}-64411f3a`, command: `ssh ${pod.id}-64411f3a@ssh.runpod.io -i ~/.ssh/id_ed25519` }
      : null,
    direct: running && hasSsh
      ? { host: ip, port: publicPort(0), username: "root", command: `ssh root@${ip} -p ${publicPort(0)} -i ~/.ssh/id_ed25519` }
      : null,
  };
  pod.runtime = running
    ? {
        uptime: Math.max(0, Math.floor(((lifecycle?.now() ?? Date.now()) - Date.parse(pod.startedAt ?? pod.createdAt)) / 1000)),
        gpus: pod.gpu ? Array.from({ length: pod.gpu.count ?? 1 }, () => ({ util: 0, memoryUtil: 0 })) : [],
        cpu: { util: 1 },
        memory: { util: 4 },
        ports: ports.map((p, i) => {
          const [priv, proto = "tcp"] = p.split("/");
          return proto === "tcp"
            ? { private: Number(priv) || 0, public: publicPort(i), type: "tcp", ip }
            : { private: Number(priv) || 0, public: null, type: proto, ip: null };
        }),
      }
    : null;
  return pod;
}

function checkNetworkMounts(ctx: SandboxContext, mounts: Json): Json | undefined {
  const network = Array.isArray(mounts.network) ? mounts.network : [];
  let volume: Json | undefined;
  for (const m of network) {
    const v = ctx.store.networkVolumes.get(String(m?.volumeId));
    if (!v) throw notFound(`network volume ${m?.volumeId} not found`);
    volume = v;
  }
  return volume;
}

function normaliseMounts(v: unknown): Json {
  const m = bodyObject(v);
  const out: Json = {};
  if (isObject(m.persistent)) out.persistent = { size: m.persistent.size, path: m.persistent.path };
  if (Array.isArray(m.network)) out.network = m.network.map((n: Json) => ({ volumeId: n.volumeId, path: n.path }));
  return out;
}

function createPod(ctx: SandboxContext, body: unknown): Json {
  const b = bodyObject(body);
  let tpl: Json | undefined;
  if (b.templateId !== undefined) {
    tpl = findTemplate(ctx, String(b.templateId));
    if (!tpl) throw notFound(`template ${b.templateId} not found`);
    podRules.podTemplateNotServerless(tpl);
  }
  podRules.exactlyOneComputeKind(b);
  const hasGpu = isObject(b.gpu);
  const hasCpu = isObject(b.cpu);
  const image = typeof b.image === "string" ? b.image : tpl?.image;
  if (!image) throw unprocessable("image is required when no templateId is given");
  const cloud = typeof b.cloud === "string" ? b.cloud : "SECURE";
  const isCpu = hasCpu || (!hasGpu && tpl?.category === "CPU");
  podRules.persistentMountInvalidOnCpu(isCpu, isObject(b.mounts) ? b.mounts : undefined);
  podRules.mountsMutuallyExclusive(isObject(b.mounts) ? b.mounts : undefined);

  let gpu: Json | undefined;
  let cpu: Json | undefined;
  let cudaVersion: string | null = null;
  let offeredIn: string[];
  if (!isCpu) {
    const id = hasGpu ? String(b.gpu.id) : GPU_TYPES[0].id;
    const type = findGpuType(id);
    if (!type) throw badRequest(`unknown gpu type ${id}`);
    if (!type.hasCapacity) throw badRequest(`no instances available for gpu type ${id}`);
    const count = hasGpu && typeof b.gpu.count === "number" ? b.gpu.count : 1;
    const max = cloud === "COMMUNITY" ? type.maxCount.community : type.maxCount.secure;
    if (cloud === "COMMUNITY" && !type.community) throw badRequest(`gpu type ${id} is not offered on COMMUNITY cloud`);
    if (count > max) throw badRequest(`gpu type ${id} allows at most ${max} GPUs per pod on ${cloud} cloud`);
    podRules.cudaConstraintsMutuallyExclusive(hasGpu ? b.gpu : undefined);
    // Either CUDA field in the body replaces the template's constraint entirely.
    const bodyCuda = hasGpu && (b.gpu.allowedCudaVersions !== undefined || b.gpu.minCudaVersion !== undefined);
    const allowed = bodyCuda ? strArray(b.gpu.allowedCudaVersions) : strArray(tpl?.allowedCudaVersions);
    const min = bodyCuda && typeof b.gpu.minCudaVersion === "string" ? b.gpu.minCudaVersion : undefined;
    cudaVersion = podRules.cudaVersionFor(type.cudaVersions, allowed, min, id);
    gpu = { id, count };
    offeredIn = type.dataCenters;
  } else {
    const id = hasCpu ? String(b.cpu.id) : "cpu3c";
    const type = findCpuType(id);
    if (!type) throw badRequest(`unknown cpu flavor ${id}`);
    const vcpuCount = hasCpu && typeof b.cpu.vcpuCount === "number" ? b.cpu.vcpuCount : 2;
    podRules.vcpuCountValid(vcpuCount, type.vcpu, id);
    if (cloud !== "SECURE") throw badRequest("CPU pods are only available on SECURE cloud");
    cpu = { id, vcpuCount, memory: Math.round(vcpuCount * type.ramGbPerVcpu) };
    offeredIn = type.dataCenters;
  }
  const globalNetworking = b.globalNetworking === true;
  podRules.globalNetworkingNeedsNvidiaGpu(globalNetworking, gpu ? findGpuType(gpu.id)?.manufacturer : undefined);

  const wanted = strArray(b.dataCenterIds);
  for (const dc of wanted) if (!findDataCenter(dc)) throw badRequest(`unknown data center ${dc}`);
  const mounts = normaliseMounts(b.mounts ?? (tpl?.mounts?.persistent && !isCpu ? { persistent: tpl.mounts.persistent } : {}));
  const volume = checkNetworkMounts(ctx, mounts);
  let dataCenterId: string;
  if (volume) {
    if (wanted.length && !wanted.includes(volume.dataCenter)) {
      throw badRequest(`network volume ${volume.id} is in ${volume.dataCenter}, which is not among dataCenterIds`);
    }
    dataCenterId = volume.dataCenter;
  } else {
    const candidates = wanted.length ? wanted : DATA_CENTERS.map((d) => d.id);
    // Global networking needs a global-network data center: the scheduler only places there.
    const chosen = candidates.find((dc) => offeredIn.includes(dc) && (!globalNetworking || findDataCenter(dc)?.globalNetwork));
    if (!chosen) {
      if (globalNetworking) podRules.globalNetworkingDataCenter(true, candidates.find((dc) => offeredIn.includes(dc)) ?? candidates[0]!);
      throw badRequest(`no instances available for ${gpu ? `gpu type ${gpu.id}` : `cpu flavor ${cpu!.id}`} in ${candidates.join(", ")}`);
    }
    dataCenterId = chosen;
  }
  if (volume && !offeredIn.includes(dataCenterId)) {
    throw badRequest(`no instances available for ${gpu ? `gpu type ${gpu.id}` : `cpu flavor ${cpu!.id}`} in ${dataCenterId}`);
  }
  podRules.globalNetworkingDataCenter(globalNetworking, dataCenterId);

  const registry = b.registry !== undefined ? (typeof b.registry === "string" ? b.registry : null) : (tpl?.registry ?? null);
  assertRegistry(ctx, registry);
  const env = { ...strRecord(tpl?.env), ...strRecord(b.env) };
  const startSsh = typeof b.startSsh === "boolean" ? b.startSsh : tpl?.startSsh === true;
  const startJupyter = typeof b.startJupyter === "boolean" ? b.startJupyter : tpl?.startJupyter === true;
  if (startSsh && ctx.store.sshKeys.length && env.PUBLIC_KEY === undefined) env.PUBLIC_KEY = ctx.store.sshKeys.join("\n");
  if (startJupyter && env.JUPYTER_PASSWORD === undefined) env.JUPYTER_PASSWORD = ctx.clock.id(20);

  const now = ctx.clock.iso();
  const id = ctx.clock.id();
  const pod: Json = {
    id,
    name: String(b.name ?? ""),
    status: "PROVISIONING",
    actions: [],
    image,
    args: typeof b.args === "string" ? b.args : typeof tpl?.args === "string" ? tpl.args : "",
    disk: typeof b.disk === "number" ? b.disk : typeof tpl?.disk === "number" ? tpl.disk : 50,
    mounts,
    ports: b.ports !== undefined ? strArray(b.ports) : strArray(tpl?.ports),
    env,
    registry,
    cloud,
    dataCenterId,
    cudaVersion,
    ssh: { proxy: null, direct: null },
    template: podRules.templateLink(tpl),
    cost: 0,
    locked: false,
    runtime: null,
    createdAt: now,
    startedAt: null,
    globalNetworking: globalNetworking ? { enabled: true, ip: `10.64.${Math.floor(ctx.clock.random() * 250)}.${Math.floor(ctx.clock.random() * 250) + 2}`, internalDns: `${id}.runpod.internal` } : { enabled: false },
  };
  if (gpu) pod.gpu = gpu;
  if (cpu) pod.cpu = cpu;
  ctx.lifecycle.create(pod);
  return refreshPod(pod, ctx.lifecycle);
}

export function registerPodRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  const { store, lifecycle } = ctx;
  // globalNetworking changes waiting for the pod's next start or restart.
  const pendingNetworking = new Map<string, boolean>();
  const get = (id: string) => {
    const pod = store.pods.get(id);
    if (!pod) throw notFound(`pod ${id} not found`);
    return refreshPod(pod, lifecycle);
  };

  app.get("/v2/pods", async () => ({ pods: [...store.pods.values()].map((p) => refreshPod(p, lifecycle)) }));

  app.post("/v2/pods", async (req, reply) => {
    const pod = createPod(ctx, req.body);
    store.pods.set(pod.id, pod);
    return reply.code(201).send(pod);
  });

  app.get<{ Params: { id: string } }>("/v2/pods/:id", async (req) => get(req.params.id));

  app.patch<{ Params: { id: string } }>("/v2/pods/:id", async (req) => {
    const pod = get(req.params.id);
    const b = bodyObject(req.body);
    const touchesContainer = Object.keys(b).some((k) => !["name", "locked"].includes(k));
    if (pod.locked && b.locked !== false && touchesContainer) throw conflict(`pod ${pod.id} is locked`);
    let tpl: Json | undefined;
    if (b.templateId !== undefined) {
      tpl = findTemplate(ctx, String(b.templateId));
      if (!tpl) throw notFound(`template ${b.templateId} not found`);
      podRules.podTemplateNotServerless(tpl);
    }
    const sentMounts = isObject(b.mounts) ? b.mounts : undefined;
    podRules.clearingMountsNotSupported(sentMounts);
    podRules.mountsMutuallyExclusive(sentMounts);
    podRules.mountKindFixedAtCreate(pod.mounts ?? {}, sentMounts);
    podRules.networkVolumeIdImmutable(pod.mounts ?? {}, sentMounts);
    // `{}` leaves the mount unchanged; a full entry replaces the one of the same kind.
    const mounts = sentMounts && Object.keys(sentMounts).length ? normaliseMounts(sentMounts) : undefined;
    if (b.registry !== undefined) assertRegistry(ctx, typeof b.registry === "string" ? b.registry : null);
    if (typeof b.globalNetworking === "boolean") {
      podRules.globalNetworkingNeedsNvidiaGpu(b.globalNetworking, pod.gpu ? findGpuType(pod.gpu.id)?.manufacturer : undefined);
      podRules.globalNetworkingDataCenter(b.globalNetworking, pod.dataCenterId);
    }
    // Template settings apply as if sent in this body (mounts are not applied on update); the
    // pod keeps no link to the template.
    if (tpl) for (const key of ["image", "args", "disk", "ports", "env", "registry"]) if (tpl[key] !== undefined) pod[key] = structuredClone(tpl[key]);
    for (const key of ["name", "image", "args", "disk", "locked"]) if (b[key] !== undefined) pod[key] = b[key];
    if (b.ports !== undefined) pod.ports = strArray(b.ports);
    if (b.env !== undefined) pod.env = { ...(tpl ? strRecord(tpl.env) : {}), ...strRecord(b.env) };
    if (b.registry !== undefined) pod.registry = typeof b.registry === "string" ? b.registry : null;
    if (mounts) pod.mounts = mounts;
    // "Some changes apply immediately while others (e.g. `globalNetworking`) take effect on the
    // pod's next start/restart": the new setting waits for the next start or restart action.
    if (typeof b.globalNetworking === "boolean") pendingNetworking.set(pod.id, b.globalNetworking);
    // A container change recreates the container of a running pod.
    if (touchesContainer && pod.status === "RUNNING") pod.startedAt = ctx.clock.iso();
    return refreshPod(pod, lifecycle);
  });

  app.delete<{ Params: { id: string } }>("/v2/pods/:id", async (req, reply) => {
    get(req.params.id);
    store.pods.delete(req.params.id);
    lifecycle.forget(req.params.id);
    pendingNetworking.delete(req.params.id);
    return reply.code(204).send();
  });

  app.post<{ Params: { id: string } }>("/v2/pods/:id/action", async (req, reply) => {
    const pod = get(req.params.id);
    const action = String(bodyObject(req.body).action ?? "");
    if (!["start", "stop", "restart", "terminate"].includes(action)) {
      throw badRequest(`unknown action '${action}'`, ["/action must be one of: \"start\", \"stop\", \"restart\", \"terminate\""]);
    }
    podRules.actionAllowed(pod, action);
    podRules.lockedPodCannotStop(pod, action);
    switch (action) {
      case "terminate":
        pod.status = "TERMINATED";
        store.pods.delete(pod.id);
        lifecycle.forget(pod.id);
        return reply.code(204).send();
      case "stop":
        lifecycle.stop(pod);
        break;
      case "start":
      case "restart": {
        const pending = pendingNetworking.get(pod.id);
        if (pending !== undefined) {
          pod.globalNetworking = pending ? { enabled: true, ip: "10.64.0.2", internalDns: `${pod.id}.runpod.internal` } : { enabled: false };
          pendingNetworking.delete(pod.id);
        }
        lifecycle.start(pod);
        break;
      }
    }
    return refreshPod(pod, lifecycle);
  });

  app.get<{ Params: { id: string }; Querystring: Record<string, unknown> }>("/v2/pods/:id/logs", async (req, reply) => {
    const pod = get(req.params.id);
    return sendLogStream(
      reply,
      [
        { source: "system", line: `pulling image ${pod.image}` },
        { source: "system", line: `starting container for pod ${pod.id}` },
        { source: "container", line: "container started" },
        { source: "container", line: `hello from ${pod.name}` },
        { source: "system", line: `pod ${pod.id} is ${pod.status}` },
      ],
      req.query,
      ctx.clock.now(),
    );
  });
}
