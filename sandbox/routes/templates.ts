// /v2/templates CRUD, plus the template lookup pods and endpoints use for templateId.
import type { FastifyInstance } from "fastify";
import { PUBLIC_TEMPLATES } from "../catalog.ts";
import { bodyObject, strArray, strRecord, type SandboxContext } from "../context.ts";
import { notFound } from "../problem.ts";
import { templateRules } from "../rules/templates.ts";
import type { Json } from "../store.ts";
import { assertRegistry } from "./registries.ts";

/** A template visible to this account: its own, or a public catalog template. */
export function findTemplate(ctx: SandboxContext, id: string): Json | undefined {
  const own = ctx.store.templates.get(id);
  if (own) return own;
  const pub = PUBLIC_TEMPLATES.find((t) => t.id === id);
  if (!pub) return undefined;
  const { source: _source, ...template } = pub;
  return structuredClone(template);
}

function templateMounts(v: unknown): Json {
  const m = bodyObject(v);
  return m.persistent ? { persistent: { size: m.persistent.size, path: m.persistent.path } } : {};
}

export function registerTemplateRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  const { store } = ctx;
  const owned = (id: string) => {
    templateRules.ownedTemplateOnly(store, id);
    return store.templates.get(id)!;
  };

  app.get("/v2/templates", async () => ({ templates: [...store.templates.values()] }));

  app.post("/v2/templates", async (req, reply) => {
    const b = bodyObject(req.body);
    const registry = typeof b.registry === "string" ? b.registry : null;
    assertRegistry(ctx, registry);
    const template: Json = {
      id: ctx.clock.id(),
      name: String(b.name ?? ""),
      image: String(b.image ?? ""),
      args: typeof b.args === "string" ? b.args : "",
      disk: typeof b.disk === "number" ? b.disk : 50,
      mounts: templateMounts(b.mounts),
      ports: strArray(b.ports),
      env: strRecord(b.env),
      registry,
      serverless: b.serverless === true,
      public: b.public === true,
      category: typeof b.category === "string" ? b.category : "NVIDIA",
      startSsh: b.startSsh !== false,
      startJupyter: b.startJupyter !== false,
      allowedCudaVersions: strArray(b.allowedCudaVersions),
    };
    store.templates.set(template.id, template);
    return reply.code(201).send(template);
  });

  // Reads serve owned and public catalog templates; updates and deletes only owned ones.
  app.get<{ Params: { id: string } }>("/v2/templates/:id", async (req) => {
    const t = findTemplate(ctx, req.params.id);
    if (!t) throw notFound(`template ${req.params.id} not found`);
    return t;
  });

  app.patch<{ Params: { id: string } }>("/v2/templates/:id", async (req) => {
    const t = owned(req.params.id);
    const b = bodyObject(req.body);
    if (b.registry !== undefined) assertRegistry(ctx, typeof b.registry === "string" ? b.registry : null);
    for (const key of ["name", "image", "args", "disk", "public", "serverless", "category", "startSsh", "startJupyter"]) {
      if (b[key] !== undefined) t[key] = b[key];
    }
    if (b.registry !== undefined) t.registry = typeof b.registry === "string" ? b.registry : null;
    if (b.ports !== undefined) t.ports = strArray(b.ports);
    if (b.env !== undefined) t.env = strRecord(b.env);
    if (b.mounts !== undefined) t.mounts = templateMounts(b.mounts);
    if (b.allowedCudaVersions !== undefined) t.allowedCudaVersions = strArray(b.allowedCudaVersions);
    return t;
  });

  app.delete<{ Params: { id: string } }>("/v2/templates/:id", async (req, reply) => {
    owned(req.params.id);
    store.templates.delete(req.params.id);
    return reply.code(204).send();
  });
}
