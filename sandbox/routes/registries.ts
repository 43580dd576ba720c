// /v2/registries: container registry credentials. The password is kept but never returned.
import type { FastifyInstance } from "fastify";
import { bodyObject, type SandboxContext } from "../context.ts";
import { badRequest, notFound } from "../problem.ts";
import { registryRules } from "../rules/templates.ts";

/** A `registry` field naming a credential must name an existing one. */
export function assertRegistry(ctx: SandboxContext, id: string | null | undefined): void {
  if (id && !ctx.store.registries.has(id)) throw notFound(`registry ${id} not found`);
}

export function registerRegistryRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  const { store } = ctx;
  const view = (r: { id: string; name: string }) => ({ id: r.id, name: r.name });

  app.get("/v2/registries", async () => ({ registries: [...store.registries.values()].map(view) }));

  app.post("/v2/registries", async (req, reply) => {
    const b = bodyObject(req.body);
    const name = String(b.name ?? "");
    if ([...store.registries.values()].some((r) => r.name === name)) {
      throw badRequest(`a registry credential named '${name}' already exists`);
    }
    const record = { id: ctx.clock.id(), name, username: String(b.username ?? ""), password: String(b.password ?? "") };
    store.registries.set(record.id, record);
    return reply.code(201).send(view(record));
  });

  app.get<{ Params: { id: string } }>("/v2/registries/:id", async (req) => {
    const r = store.registries.get(req.params.id);
    if (!r) throw notFound(`registry ${req.params.id} not found`);
    return view(r);
  });

  app.delete<{ Params: { id: string } }>("/v2/registries/:id", async (req, reply) => {
    if (!store.registries.has(req.params.id)) throw notFound(`registry ${req.params.id} not found`);
    registryRules.registryNotUsedByPod(store, req.params.id);
    registryRules.detachFromTemplates(store, req.params.id);
    store.registries.delete(req.params.id);
    return reply.code(204).send();
  });
}
