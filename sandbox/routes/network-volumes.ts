// /v2/network-volumes CRUD.
import type { FastifyInstance } from "fastify";
import { findDataCenter } from "../catalog.ts";
import { bodyObject, type SandboxContext } from "../context.ts";
import { badRequest, notFound } from "../problem.ts";

export function registerNetworkVolumeRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  const { store } = ctx;
  const get = (id: string) => {
    const v = store.networkVolumes.get(id);
    if (!v) throw notFound(`network volume ${id} not found`);
    return v;
  };

  app.get("/v2/network-volumes", async () => ({ networkVolumes: [...store.networkVolumes.values()] }));

  app.post("/v2/network-volumes", async (req, reply) => {
    const b = bodyObject(req.body);
    const dc = findDataCenter(String(b.dataCenter ?? ""));
    if (!dc) throw badRequest(`unknown data center ${b.dataCenter}`);
    const type = typeof b.type === "string" ? b.type : "STANDARD";
    if (!dc.networkVolumeTypes.includes(type as any)) {
      throw badRequest(`data center ${dc.id} does not offer ${type} network volumes`);
    }
    const volume = { id: ctx.clock.id(10), name: String(b.name ?? ""), size: Number(b.size ?? 10), dataCenter: dc.id, type };
    store.networkVolumes.set(volume.id, volume);
    store.volumeCreatedAt.set(volume.id, ctx.clock.iso());
    return reply.code(201).send(volume);
  });

  app.get<{ Params: { id: string } }>("/v2/network-volumes/:id", async (req) => get(req.params.id));

  app.patch<{ Params: { id: string } }>("/v2/network-volumes/:id", async (req) => {
    const v = get(req.params.id);
    const b = bodyObject(req.body);
    if (typeof b.size === "number" && b.size < v.size) {
      throw badRequest(`network volume size can only grow (current ${v.size} GB, requested ${b.size} GB)`);
    }
    if (typeof b.name === "string") v.name = b.name;
    if (typeof b.size === "number") v.size = b.size;
    return v;
  });

  app.delete<{ Params: { id: string } }>("/v2/network-volumes/:id", async (req, reply) => {
    get(req.params.id);
    store.networkVolumes.delete(req.params.id);
    store.volumeCreatedAt.delete(req.params.id);
    return reply.code(204).send();
  });
}
