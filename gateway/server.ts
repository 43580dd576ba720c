// startGateway(): the translating v1 gateway and the /v2 pass-through on the public listener, the
// /_bridge operator pages on the admin listener, and the drain that stops both. Wiring only; each
// concern lives in its own module.
import Fastify, { type FastifyInstance } from "fastify";
import { tryLoadV1 } from "../openapi/reference.ts";
import { createV1Validator, type OpenApiValidator } from "../openapi/validator.ts";
import type { GatewayDeps } from "./upstream/call.ts";
import { CatalogCache } from "./upstream/catalog-cache.ts";
import { ConfigError, resolveConfig, type GatewayConfig, type GatewayOptions } from "./config.ts";
import { Drain, drainWithin } from "./limits/drain.ts";
import { createFingerprinter } from "./usage/fingerprint.ts";
import { listenerTimeouts } from "./limits/limits.ts";
import { GatewayMetrics } from "./observability/metrics.ts";
import { createPassthrough, passthroughAheadOfFastify, registerPassthrough } from "./upstream/passthrough.ts";
import { serveAheadOfFastify } from "./upstream/front-door.ts";
import { requestIdOf } from "./observability/request-id.ts";
import { createV1Fast } from "./translation/v1-fast.ts";
import { loggerOption, OneLinePerRequest } from "./observability/logging.ts";
import { registerBridgeAdminRoutes, registerHealthRoute, type BridgeAdminContext } from "./admin/bridge-admin.ts";
import { buildAdminApp, listeningUrl } from "./admin/admin-listener.ts";
import { loadOrCreateSalt } from "./usage/state-dir.ts";
import { startUsagePersistence } from "./usage/usage-persistence.ts";
import { loadAudit } from "../formats/read-inputs.ts";
import { Upstream } from "./upstream/upstream.ts";
import { UsageStore } from "./usage/usage.ts";
import { registerV1Routes } from "./translation/v1-route.ts";
import { sendV1Error, v1ErrorText } from "./translation/v1-errors.ts";

export interface Gateway {
  url: string;
  port: number;
  app: FastifyInstance;
  usage: UsageStore;
  metrics: GatewayMetrics;
  config: GatewayConfig;
  /** The operator listener (/_bridge/usage, /_bridge/metrics, /_bridge/): loopback by default. */
  adminUrl: string;
  adminPort: number;
  adminApp: FastifyInstance;
  /**
   * Drains both listeners: stops accepting connections, lets in-flight requests finish (closing each
   * keep-alive connection as it turns idle), closes upstream connections, then saves or sends the
   * usage store's last counts. All within --drain-timeout; past it the rest is cut.
   */
  close(): Promise<void>;
}

/**
 * Share of --drain-timeout (at most a quarter of it) kept for the usage store's last save or send
 * when in-flight requests have to be cut: a Redis command gives up after 2 s.
 */
const USAGE_SAVE_RESERVE_MS = 2_000;

export function buildGateway(config: GatewayConfig): Omit<Gateway, "url" | "port" | "close" | "adminUrl" | "adminPort"> & {
  adminContext: BridgeAdminContext;
  drain: Drain;
  adminDrain: Drain;
  shutdown(): Promise<void>;
  cut(): void;
} {
  const app: FastifyInstance = Fastify({
    logger: loggerOption(config.logger) as any,
    logController: new OneLinePerRequest(),
    bodyLimit: config.bodyLimit,
    ...listenerTimeouts(config),
    requestIdHeader: false,
    genReqId: requestIdOf,
    forceCloseConnections: "idle",
    return503OnClosing: true,
    exposeHeadRoutes: false,
    routerOptions: { ignoreTrailingSlash: false },
    // Fastify's own answer to an undecodable path quotes the path back (keys and all) in its own format.
    frameworkErrors: (_error: unknown, _req: unknown, reply: import("fastify").FastifyReply) => sendV1Error(reply, 400, "request path is not valid percent-encoding"),
  } as any) as unknown as FastifyInstance;

  const drain = new Drain(app);
  const metrics = new GatewayMetrics();
  const usage = new UsageStore(config.maxClients, config.maxOperationsPerClient);
  const fingerprints = createFingerprinter(config.fingerprintSalt);
  const upstream = new Upstream(config);
  const catalog = new CatalogCache(upstream, config.catalogMaxKeys, config.catalogTtlMs);
  const v1Document = config.referenceDir === false ? null : tryLoadV1(config.referenceDir);
  let v1Validator: OpenApiValidator | null = null;
  if (v1Document) v1Validator = createV1Validator(v1Document);
  else app.log.warn("v1 OpenAPI document not found: v1 input is not schema-checked and /v1/openapi.json answers 404");

  const deps: GatewayDeps = {
    config,
    catalog,
    v1Document,
    async upstream(req, operation) {
      const started = performance.now();
      try {
        const res = await upstream.request(req);
        metrics.observeUpstream(operation, res.status, (performance.now() - started) / 1e3);
        return res;
      } catch (err) {
        metrics.observeUpstream(operation, "error", (performance.now() - started) / 1e3);
        throw err;
      }
    },
  };

  // Callback-style hooks: an async hook costs a promise per request for nothing here.
  app.addHook("onRequest", (req, reply, done) => {
    reply.header("x-request-id", req.id);
    done();
  });
  app.setNotFoundHandler((req, reply) => sendV1Error(reply, 404, `no route for ${req.method} ${(req.raw.url ?? "").split("?")[0]!.slice(0, 200)}`));
  app.setErrorHandler((error: any, req, reply) => {
    const status = typeof error?.statusCode === "number" && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status === 500) req.log.error({ err: error }, "gateway error");
    return sendV1Error(reply, status, status === 500 ? `internal gateway error (request id ${req.id})` : String(error?.message ?? "bad request"));
  });

  const v1 = registerV1Routes(app, { deps, metrics, usage, fingerprints, v1Validator });
  const passthrough = createPassthrough(config, drain);
  registerPassthrough(app, passthrough, metrics);
  // The everyday /v1 and /v2 requests skip Fastify's per-request work; the rest still goes through it.
  serveAheadOfFastify(app.server, app.routing, {
    v1: createV1Fast(v1, app.log, drain),
    v2: passthroughAheadOfFastify(passthrough, app.log, metrics),
    bodyLimit: config.bodyLimit,
    draining: () => drain.active,
    failed(err, req, res) {
      app.log.error({ err }, "gateway error");
      if (res.headersSent) return void res.destroy();
      const body = v1ErrorText(req.headers, req.url, "internal gateway error");
      res.writeHead(500, { "content-type": "application/json; charset=utf-8", "content-length": String(Buffer.byteLength(body)) }).end(body);
    },
  });
  const adminContext: BridgeAdminContext = { usage, metrics, upstream: config.upstream.origin, startedAt: new Date(), auditFile: config.auditFile, token: config.adminToken };
  // The public port answers health only (v1 404 for the other pages) unless the operator opted in, behind a token.
  if (config.adminOnPublic) registerBridgeAdminRoutes(app, adminContext);
  else registerHealthRoute(app, adminContext);
  const { app: adminApp, drain: adminDrain } = buildAdminApp(config, adminContext);

  return {
    app,
    adminApp,
    adminContext,
    usage,
    metrics,
    config,
    drain,
    adminDrain,
    async shutdown() {
      passthrough.close();
      // After a forced drain cut() has already dropped the upstream connections.
      if (!drain.forced) await upstream.close();
    },
    cut() {
      passthrough.close();
      upstream.pool.destroy().catch(() => {});
    },
  };
}

export async function startGateway(options: GatewayOptions): Promise<Gateway> {
  const config = resolveConfig(options);
  // A bad audit file is a configuration error: say so before listening, not on the first page view.
  if (config.auditFile) await loadAudit(config.auditFile).catch((err: Error) => Promise.reject(new ConfigError(err.message)));
  // A client keeps its fingerprint across restarts: the salt comes from the state directory unless given.
  if (!config.fingerprintSalt && config.stateDir) config.fingerprintSalt = await loadOrCreateSalt(config.stateDir);
  const built = buildGateway(config);
  const { app } = built;
  const persistence = await startUsagePersistence(config, built.usage, app.log);
  built.adminContext.usageView = () => persistence.snapshot();
  // onClose runs after in-flight requests finished; the usage store's last save comes after both
  // listeners drained (close() below), so every answered request is in it.
  app.addHook("onClose", async () => {
    await built.shutdown();
  });
  const { adminApp } = built;
  try {
    await app.listen({ port: config.port, host: config.host });
    await adminApp.listen({ port: config.adminPort, host: config.adminHost });
  } catch (err) {
    await app.close(); // runs the onClose hook: the upstream pool is released too
    await adminApp.close();
    await persistence.close();
    throw err;
  }
  const { url, port } = listeningUrl(app, config.host, config.port);
  const admin = listeningUrl(adminApp, config.adminHost, config.adminPort);
  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    adminUrl: admin.url,
    adminPort: admin.port,
    adminApp,
    app,
    usage: built.usage,
    metrics: built.metrics,
    config,
    close: () =>
      (closing ??= drainWithin(
        config.drainTimeoutMs,
        config.usageStore === "memory" ? 0 : Math.min(USAGE_SAVE_RESERVE_MS, Math.floor(config.drainTimeoutMs / 4)),
        [
          { drain: built.drain, cut: built.cut },
          { drain: built.adminDrain, cut: () => {} },
        ],
        (remainingMs) => persistence.close(remainingMs),
      )),
  };
}
