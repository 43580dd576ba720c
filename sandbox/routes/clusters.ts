// /v2/clusters: Instant Clusters exist as routes only. The sandbox account has no clusters and
// cannot create any (400 after the body passed validation), every id is unknown (404).
import type { FastifyInstance } from "fastify";
import type { SandboxContext } from "../context.ts";
import { badRequest, notFound } from "../problem.ts";

export function registerClusterRoutes(app: FastifyInstance, _ctx: SandboxContext): void {
  const missing = (id: string) => notFound(`cluster ${id} not found`);
  app.get("/v2/clusters", async () => ({ clusters: [] }));
  app.post("/v2/clusters", async () => {
    throw badRequest("instant clusters are not available in the sandbox");
  });
  app.get<{ Params: { id: string } }>("/v2/clusters/:id", async (req) => {
    throw missing(req.params.id);
  });
  app.patch<{ Params: { id: string } }>("/v2/clusters/:id", async (req) => {
    throw missing(req.params.id);
  });
  app.delete<{ Params: { id: string } }>("/v2/clusters/:id", async (req) => {
    throw missing(req.params.id);
  });
  app.get<{ Params: { id: string } }>("/v2/clusters/:id/pods", async (req) => {
    throw missing(req.params.id);
  });
}
