// /v2/account/ssh-keys: the account's SSH public keys (injected as PUBLIC_KEY with startSsh).
import type { FastifyInstance } from "fastify";
import { bodyObject, strArray, type SandboxContext } from "../context.ts";

export function registerAccountRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.get("/v2/account/ssh-keys", async () => ({ keys: [...ctx.store.sshKeys] }));
  app.put("/v2/account/ssh-keys", async (req) => {
    ctx.store.sshKeys = [...new Set(strArray(bodyObject(req.body).keys))];
    return { keys: [...ctx.store.sshKeys] };
  });
}
