// /_bridge/* operator routes: usage audit (JSON for the report tool), Prometheus metrics, the live
// report, health. They live on the admin listener (loopback by default); the public listener gets
// health only, unless the operator puts the pages there behind a token (--admin-on-public).
// Extend by adding routes inside registerBridgeAdminRoutes; everything they need comes in `ctx`.
import type { FastifyInstance } from "fastify";
import { bearerMatches } from "./admin-token.ts";
import { sendV1Error } from "../translation/v1-errors.ts";
import type { GatewayMetrics } from "../observability/metrics.ts";
import type { UsageSnapshot, UsageStore } from "../usage/usage.ts";
import { renderReportPage, loadAudit, type Audit } from "../../report/index.ts";
import { VERSION } from "../../product/package-info.ts";

export interface BridgeAdminContext {
  usage: UsageStore;
  metrics: GatewayMetrics;
  /** Upstream origin, for the health answer. */
  upstream: string;
  startedAt: Date;
  /** Audit JSON to join with live traffic on the report page (re-read per view, so CI can refresh it). */
  auditFile?: string;
  /** The usage to show when it lives beyond this process (local store, Redis); default `usage.snapshot()`. */
  usageView?: () => Promise<UsageSnapshot>;
  /** When set, every page but health needs `Authorization: Bearer <token>`. */
  token?: string;
}

/** Health: public on purpose, since load balancers and orchestrators probe the serving port. */
export function registerHealthRoute(app: FastifyInstance, ctx: BridgeAdminContext): void {
  app.get("/_bridge/health", async () => ({
    status: "ok",
    version: VERSION,
    upstream: ctx.upstream,
    startedAt: ctx.startedAt.toISOString(),
    uptimeSeconds: Math.round((Date.now() - ctx.startedAt.getTime()) / 1000),
  }));
}

/** The operator pages (and health). With `ctx.token`, the pages answer 401 without that bearer token. */
export function registerBridgeAdminRoutes(app: FastifyInstance, ctx: BridgeAdminContext): void {
  registerHealthRoute(app, ctx);
  app.register(async (scope) => registerPages(scope, ctx));
}

function registerPages(app: FastifyInstance, ctx: BridgeAdminContext): void {
  const token = ctx.token;
  if (token) {
    app.addHook("onRequest", (req, reply, done) => {
      if (bearerMatches(req.headers.authorization, token)) return done();
      reply.header("WWW-Authenticate", 'Bearer realm="v2-bridge operator pages"');
      sendV1Error(reply, 401, "operator pages need Authorization: Bearer <admin token>");
    });
  }

  app.get("/_bridge/usage", async (_req, reply) => {
    reply.header("cache-control", "no-store");
    return ctx.usageView ? ctx.usageView() : ctx.usage.snapshot();
  });

  // Live migration report (report/): the same page as `v2-bridge report`, from this gateway's usage
  // and, with --audit, the code findings. A file that became unreadable keeps the last good audit.
  let lastGoodAudit: Audit | undefined;
  app.get("/_bridge/", async (req, reply) => {
    if (ctx.auditFile) {
      lastGoodAudit = await loadAudit(ctx.auditFile).catch((err: Error) => {
        req.log.warn({ err: err.message }, "audit file unreadable; showing the last good one");
        return lastGoodAudit;
      });
    }
    reply.header("cache-control", "no-store").type("text/html; charset=utf-8");
    const audits = lastGoodAudit ? [lastGoodAudit] : [];
    const usage = ctx.usageView ? await ctx.usageView() : ctx.usage.snapshot();
    return renderReportPage({ usage, audits, trafficSource: ctx.usageView ? "the gateway's usage store (live)" : "this gateway (live)", refreshSeconds: 30 }).html;
  });

  app.get("/_bridge/metrics", async (_req, reply) => {
    reply.type(ctx.metrics.registry.contentType);
    return ctx.metrics.registry.metrics();
  });
}
