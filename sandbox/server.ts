// The strict, stateful v2 sandbox: a local Fastify server that behaves like v2 where it counts
// for migration tests (auth, closed request bodies, enums, problem+json errors, rate limits,
// lifecycle rules) and keeps state in memory for the life of the instance.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import Fastify, { type FastifyInstance, type FastifyServerOptions } from "fastify";
import { loadDocument, referenceFile } from "../openapi/reference.ts";
import { createV2Validator, type OpenApiValidator } from "../openapi/validator.ts";
import { createAuthenticator, isReadMethod, type ApiKey } from "./auth.ts";
import { seededClock, wallClock } from "./clock.ts";
import type { SandboxContext } from "./context.ts";
import { DEFAULT_BOOT_MS, PodLifecycle } from "./pod-lifecycle.ts";
import { ProblemError, sendProblem } from "./problem.ts";
import { DEFAULT_RATE_LIMIT, RateLimiter, type RateLimitQuotas } from "./rate-limit.ts";
import { registerAccountRoutes } from "./routes/account.ts";
import { registerBillingRoutes } from "./routes/billing.ts";
import { registerCatalogRoutes } from "./routes/catalog.ts";
import { registerClusterRoutes } from "./routes/clusters.ts";
import { registerDelegationRoutes } from "./routes/delegations.ts";
import { registerNetworkVolumeRoutes } from "./routes/network-volumes.ts";
import { registerPodRoutes } from "./routes/pods.ts";
import { registerRegistryRoutes } from "./routes/registries.ts";
import { registerServerlessRoutes } from "./routes/serverless.ts";
import { registerTemplateRoutes } from "./routes/templates.ts";
import { SandboxStore } from "./store.ts";

export type SandboxOptions = {
  /** TCP port; 0 (default) picks a free ephemeral port. */
  port?: number;
  /** Interface to bind; default 127.0.0.1. */
  host?: string;
  /**
   * v2 OpenAPI document used for request validation and served at /v2/openapi.json.
   * Default: the reference dir's v2-openapi.json when present. `false`: run without one.
   */
  openapiPath?: string | false;
  /** Explicit API keys (`TOKEN` or `TOKEN:ro`); replaces the default `sandbox_*` rule. */
  keys?: Array<string | ApiKey>;
  /** Per-key quotas (missing windows keep their defaults), or `false` to disable rate limiting. */
  rateLimit?: Partial<RateLimitQuotas> | false;
  /** Fastify logger option; default false. */
  logger?: FastifyServerOptions["logger"];
  /**
   * Milliseconds from pod create to RUNNING (half PROVISIONING, half STARTING; start/restart take
   * the STARTING half). Default 3000; 0 makes pods RUNNING at once.
   */
  bootMs?: number;
  /** Where warnings go (default console.warn). */
  warn?: (message: string) => void;
  /** Reproducible ids, times and boot timing (sandbox/clock.ts); default: the wall clock. */
  seed?: string;
};

export type Sandbox = {
  url: string;
  port: number;
  close(): Promise<void>;
  app: FastifyInstance;
  store: SandboxStore;
  /** The document in use, or null when schema validation is off. */
  openapiPath: string | null;
};

/** Paths that need no credentials (schema discovery). */
const PUBLIC_PATHS = new Set(["/v2/openapi.json", "/openapi.json"]);

function resolveDocument(options: SandboxOptions, warn: (m: string) => void): string | null {
  if (options.openapiPath === false) return null;
  const candidate = options.openapiPath ? path.resolve(options.openapiPath) : referenceFile("v2-openapi.json");
  if (existsSync(candidate)) return candidate;
  warn(`v2 OpenAPI document not found at ${candidate}`);
  return null;
}

export function buildSandboxApp(options: SandboxOptions = {}): { app: FastifyInstance; store: SandboxStore; openapiPath: string | null } {
  const warn = options.warn ?? ((m: string) => console.warn(m));
  const openapiPath = resolveDocument(options, warn);
  let validator: OpenApiValidator | null = null;
  if (openapiPath) {
    validator = createV2Validator(loadDocument(openapiPath));
  } else {
    warn(
      "WARNING: v2-bridge sandbox is running WITHOUT a v2 OpenAPI document: request schema validation is OFF " +
        "(pass --openapi PATH, set V2_BRIDGE_REFERENCE_DIR, or run `v2-bridge reference fetch`).",
    );
  }

  const store = new SandboxStore();
  const clock = options.seed === undefined ? wallClock : seededClock(options.seed);
  const ctx: SandboxContext = { store, validator, clock, lifecycle: new PodLifecycle(options.bootMs ?? DEFAULT_BOOT_MS, clock.now) };
  const authenticate = createAuthenticator(options.keys);
  const limiter =
    options.rateLimit === false ? null : new RateLimiter({ ...DEFAULT_RATE_LIMIT, ...(options.rateLimit ?? {}) });

  const app = Fastify({ logger: options.logger ?? false, forceCloseConnections: true, bodyLimit: 1024 * 1024 });

  // JSON bodies: our own parser so malformed JSON is a problem+json 400 (the document's
  // BadRequestError: "malformed") and an empty body counts as "no body". Valid JSON that breaks the
  // schema (not an object, wrong fields) is the validator's 422 below. Every other content type,
  // text/plain included, is Fastify's 415: v2 documents only application/json request bodies.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("application/json", { parseAs: "string" }, (_req, raw, done) => {
    const text = String(raw);
    if (text.trim() === "") return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch (err) {
      done(new ProblemError(400, `malformed JSON body: ${(err as Error).message}`), undefined);
    }
  });

  app.setErrorHandler((error: any, request, reply) => {
    if (error instanceof ProblemError) return sendProblem(reply, error.status, error.detail, error.errors);
    const status = typeof error?.statusCode === "number" ? error.statusCode : 500;
    if (error?.code === "FST_ERR_CTP_INVALID_MEDIA_TYPE") {
      return sendProblem(reply, 415, `unsupported content type '${request.headers["content-type"] ?? ""}'; send application/json`);
    }
    if (status >= 400 && status < 500) return sendProblem(reply, status, String(error?.message ?? "bad request"));
    request.log.error(error);
    return sendProblem(reply, 500, "internal sandbox error");
  });

  // A documented path with an undocumented method is a 405 with Allow, as the v2 document says.
  app.setNotFoundHandler((request, reply) => {
    const urlPath = request.url.split("?")[0]!;
    const allowed = validator ? ["GET", "POST", "PUT", "PATCH", "DELETE"].filter((m) => validator!.matchOperation(m, urlPath)) : [];
    if (allowed.length) {
      reply.header("Allow", allowed.join(", "));
      return sendProblem(reply, 405, `method ${request.method} is not supported for ${urlPath} (allowed: ${allowed.join(", ")})`);
    }
    return sendProblem(reply, 404, `no route for ${request.method} ${urlPath}`);
  });

  // Authentication, per-key rate limits and read-only keys, before anything else.
  app.addHook("onRequest", async (request, reply) => {
    const requestId = request.headers["x-request-id"];
    clock.tick(typeof requestId === "string" ? requestId : undefined);
    const urlPath = request.url.split("?")[0];
    if (PUBLIC_PATHS.has(urlPath)) return;
    const auth = authenticate(request.headers.authorization);
    if (!auth.ok) return sendProblem(reply, 401, auth.detail);
    if (limiter) {
      const decision = limiter.hit(auth.key.token);
      reply.header("RateLimit", decision.headers.RateLimit).header("RateLimit-Policy", decision.headers["RateLimit-Policy"]);
      if (!decision.allowed) {
        reply.header("Retry-After", String(decision.retryAfter));
        return sendProblem(reply, 429, `rate limit exceeded for the ${decision.exceeded} window`);
      }
    }
    if (auth.key.readOnly && !isReadMethod(request.method)) {
      return sendProblem(reply, 403, "access denied: this API key is read-only");
    }
  });

  // Strictness: documented query parameters and closed request bodies, as the document says.
  // Schema failures are 422 (UnprocessableEntityError: "syntactically valid but failed validation";
  // "Missing required fields → 422", "a malformed entry is a 422"); the prose rules the handlers
  // enforce answer 400 where the document says so.
  app.addHook("preHandler", async (request, reply) => {
    const routeUrl = request.routeOptions?.url;
    if (!routeUrl || PUBLIC_PATHS.has(routeUrl)) return;
    const template = routeUrl.replace(/:([A-Za-z0-9_]+)/g, "{$1}");
    const method = request.method === "HEAD" ? "GET" : request.method;
    if (validator) {
      if (!validator.document.paths?.[template]?.[method.toLowerCase()]) return;
      const q = validator.validateQuery(method, template, (request.query ?? {}) as Record<string, string>);
      if (!q.ok) return sendProblem(reply, 422, "invalid query parameters", q.errors);
      if (validator.hasRequestBody(method, template)) {
        const b = validator.validateRequestBody(method, template, request.body);
        if (!b.ok) return sendProblem(reply, 422, "request body failed validation", b.errors);
      }
    } else if (["POST", "PUT", "PATCH"].includes(method)) {
      // No document: still refuse non-object bodies so handlers only ever see objects, with the
      // same 422 the document's schema would give.
      const body = request.body;
      if (body !== undefined && (body === null || typeof body !== "object" || Array.isArray(body))) {
        return sendProblem(reply, 422, "request body must be a JSON object");
      }
    }
  });

  app.get("/v2/openapi.json", async (_req, reply) => serveDocument(openapiPath, reply));
  app.get("/openapi.json", async (_req, reply) => serveDocument(openapiPath, reply));

  registerAccountRoutes(app, ctx);
  registerPodRoutes(app, ctx);
  registerClusterRoutes(app, ctx);
  registerServerlessRoutes(app, ctx);
  registerTemplateRoutes(app, ctx);
  registerNetworkVolumeRoutes(app, ctx);
  registerRegistryRoutes(app, ctx);
  registerDelegationRoutes(app, ctx);
  registerCatalogRoutes(app, ctx);
  registerBillingRoutes(app, ctx);

  return { app, store, openapiPath };
}

function serveDocument(openapiPath: string | null, reply: import("fastify").FastifyReply) {
  if (!openapiPath) return sendProblem(reply, 404, "this sandbox was started without a v2 OpenAPI document");
  return reply.type("application/json").send(readFileSync(openapiPath, "utf8"));
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const { app, store, openapiPath } = buildSandboxApp(options);
  const host = options.host ?? "127.0.0.1";
  await app.listen({ port: options.port ?? 0, host });
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : (options.port ?? 0);
  const urlHost = host.includes(":") ? `[${host}]` : host === "0.0.0.0" ? "127.0.0.1" : host;
  return {
    url: `http://${urlHost}:${port}`,
    port,
    app,
    store,
    openapiPath,
    close: () => app.close(),
  };
}
