// /_bridge/* operator routes: usage audit (JSON for the report tool), Prometheus metrics, health.
// Extend by adding routes inside registerBridgeAdminRoutes; everything they need comes in `ctx`.
import type { FastifyInstance } from "fastify";
import type { GatewayMetrics } from "../metrics.ts";
import type { UsageStore } from "../usage.ts";

export interface BridgeAdminContext {
  usage: UsageStore;
  metrics: GatewayMetrics;
  /** Upstream origin, for the health answer. */
  upstream: string;
  startedAt: Date;
}

export function registerBridgeAdminRoutes(app: FastifyInstance, ctx: BridgeAdminContext): void {
  app.get("/_bridge/usage", async (_req, reply) => {
    reply.header("cache-control", "no-store");
    return ctx.usage.snapshot();
  });

  app.get("/_bridge/metrics", async (_req, reply) => {
    reply.type(ctx.metrics.registry.contentType);
    return ctx.metrics.registry.metrics();
  });

  app.get("/_bridge/health", async () => ({
    status: "ok",
    upstream: ctx.upstream,
    startedAt: ctx.startedAt.toISOString(),
    uptimeSeconds: Math.round((Date.now() - ctx.startedAt.getTime()) / 1000),
  }));
}
