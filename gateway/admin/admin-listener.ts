// The admin listener: a second, small Fastify server for the operator pages, bound to loopback by
// default so usage, metrics and the live report never face the clients' network by accident.
import Fastify, { type FastifyInstance } from "fastify";
import type { GatewayConfig } from "../config.ts";
import { Drain } from "../limits/drain.ts";
import { listenerTimeouts } from "../limits/limits.ts";
import { loggerOption, OneLinePerRequest } from "../observability/logging.ts";
import { registerBridgeAdminRoutes, type BridgeAdminContext } from "./bridge-admin.ts";
import { sendV1Error } from "../translation/v1-errors.ts";

/** The admin app and its drain (created before the routes, so its hook covers every page). */
export function buildAdminApp(config: GatewayConfig, ctx: BridgeAdminContext): { app: FastifyInstance; drain: Drain } {
  const app = Fastify({
    logger: loggerOption(config.logger) as any,
    logController: new OneLinePerRequest(),
    // The same client timeouts as the public listener: a loopback port is still a socket anyone on the host can hold open.
    ...listenerTimeouts(config),
    // Drained like the public listener (gateway/limits/drain.ts): idle connections close at once, in-flight pages finish.
    forceCloseConnections: "idle",
    exposeHeadRoutes: false,
  } as any) as unknown as FastifyInstance;
  const drain = new Drain(app);
  app.setNotFoundHandler((req, reply) => sendV1Error(reply, 404, `no operator page at ${(req.raw.url ?? "").split("?")[0]!.slice(0, 200)}`));
  app.setErrorHandler((error: any, req, reply) => {
    req.log.error({ err: error }, "operator page failed");
    return sendV1Error(reply, 500, `internal error (request id ${req.id})`);
  });
  registerBridgeAdminRoutes(app, ctx);
  return { app, drain };
}

/** `http://host:port` for a listening server (0.0.0.0 shown as 127.0.0.1, IPv6 bracketed). */
export function listeningUrl(app: FastifyInstance, host: string, fallbackPort: number): { url: string; port: number } {
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : fallbackPort;
  const urlHost = host.includes(":") ? `[${host}]` : host === "0.0.0.0" ? "127.0.0.1" : host;
  return { url: `http://${urlHost}:${port}`, port };
}
