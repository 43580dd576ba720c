// /_bridge/* operator routes: usage audit (JSON for the report tool), Prometheus metrics, health.
// Extend by adding routes inside registerBridgeAdminRoutes; everything they need comes in `ctx`.
import type { FastifyInstance } from "fastify";
import type { GatewayMetrics } from "../metrics.ts";
import type { UsageStore } from "../usage.ts";
import { renderReportPage } from "../../report/index.ts";

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

  // Live migration report (report/): the same page as `v2-bridge report`, from this gateway's usage only.
  app.get("/_bridge/", async (_req, reply) => {
    reply.header("cache-control", "no-store").type("text/html; charset=utf-8");
    return renderReportPage({ usage: ctx.usage.snapshot(), trafficSource: "this gateway (live)", refreshSeconds: 30 }).html;
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
