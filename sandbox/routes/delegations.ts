// /v2/registries/delegations: registry delegations (new in v2). The v2 document names the
// provider-specific fields awsUser/awsRegion (v2-spec.md renders them as cloudUser/cloudRegion);
// the document is the field-level truth, so the records use its names.
import type { FastifyInstance } from "fastify";
import { bodyObject, type SandboxContext } from "../context.ts";
import { badRequest, notFound } from "../problem.ts";

const ARN = /^arn:aws:ecr:([a-z0-9-]+):(\d{12}):repository\/([a-z0-9][a-z0-9._\/-]*?)(?::([A-Za-z0-9_.-]+))?$/;

export function registerDelegationRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  const { store } = ctx;

  app.get("/v2/registries/delegations", async () => ({ delegations: [...store.delegations.values()] }));

  app.post("/v2/registries/delegations", async (req, reply) => {
    const b = bodyObject(req.body);
    const m = ARN.exec(String(b.resource ?? ""));
    if (!m) {
      throw badRequest("resource must be a repository ARN like arn:aws:ecr:us-east-1:123456789012:repository/my-repo[:tag]");
    }
    const [, region, account, repository, tag = "latest"] = m;
    const delegation = {
      id: ctx.clock.id(),
      name: typeof b.name === "string" ? b.name : null,
      delegatorUserId: "user_sandbox",
      awsUser: `arn:aws:iam::${account}:role/v2-sandbox-image-puller`,
      repository,
      tag,
      awsRegion: region,
      dockerRegistryUri: `${account}.dkr.ecr.${region}.amazonaws.com/${repository}:${tag}`,
      createdAt: ctx.clock.iso(),
    };
    store.delegations.set(delegation.id, delegation);
    return reply.code(201).send(delegation);
  });

  app.delete<{ Params: { id: string } }>("/v2/registries/delegations/:id", async (req, reply) => {
    if (!store.delegations.delete(req.params.id)) throw notFound(`delegation ${req.params.id} not found`);
    return reply.code(204).send();
  });
}
