// Records every v2 request that reaches a sandbox: who asked (x-request-id), the route, the body,
// the answer. Hooks on the sandbox's own Fastify app, added before it listens: nothing between the
// client and the sandbox changes.
import type { FastifyInstance } from "fastify";

export type Hit = {
  /** Arrival order within the run. */
  seq: number;
  /** The client call this request belongs to (the gateway forwards the v1 call's id on each v2 call it makes). */
  requestId?: string;
  method: string;
  /** Concrete path, e.g. /v2/pods/abc123. */
  path: string;
  /** Query string without the "?", "" when none. */
  query: string;
  /** The sandbox route that answered, as a template (/v2/pods/{id}); undefined for no route (404). */
  route?: string;
  body?: unknown;
  status: number;
  /** Parsed JSON answer, when there was one. */
  answer?: unknown;
};

export function recordHits(app: FastifyInstance): () => Hit[] {
  const hits: Hit[] = [];
  let seq = 0;
  const order = new WeakMap<object, number>();
  const answers = new WeakMap<object, unknown>();
  app.addHook("onRequest", async (req) => {
    order.set(req, seq++);
  });
  app.addHook("onSend", async (req, _reply, payload) => {
    if (typeof payload === "string" && payload !== "") {
      try {
        answers.set(req, JSON.parse(payload));
      } catch {
        // not JSON (a log stream): the status is what is compared
      }
    }
    return payload;
  });
  app.addHook("onResponse", async (req, reply) => {
    const [pathOnly, query = ""] = req.url.split(/\?(.*)/s, 2);
    const requestId = req.headers["x-request-id"];
    const routeUrl = req.routeOptions?.url;
    hits.push({
      seq: order.get(req) ?? seq,
      ...(typeof requestId === "string" ? { requestId } : {}),
      method: req.method,
      path: pathOnly!,
      query,
      ...(routeUrl ? { route: routeUrl.replace(/:([A-Za-z0-9_]+)/g, "{$1}") } : {}),
      ...(req.body !== undefined ? { body: req.body } : {}),
      status: reply.statusCode,
      ...(answers.has(req) ? { answer: answers.get(req) } : {}),
    });
  });
  return () => [...hits].sort((a, b) => a.seq - b.seq);
}
