// Prometheus metrics, one Registry per gateway (no global state, so several gateways can share a
// process). Labels are operation keys, statuses and error kinds only: never key material.
import { Counter, Histogram, Registry, collectDefaultMetrics } from "prom-client";

/**
 * A metric's child per label pair, looked up once: prom-client hashes the label object on every
 * call, which cost a request more than the counting itself. Operation keys are the mapping
 * table's; statuses are three digits: both bounded.
 */
function children<A, B, T>(make: (a: A, b: B) => T): (a: A, b: B) => T {
  const byA = new Map<A, Map<B, T>>();
  return (a, b) => {
    let byB = byA.get(a);
    if (!byB) byA.set(a, (byB = new Map()));
    let child = byB.get(b);
    if (child === undefined) byB.set(b, (child = make(a, b)));
    return child;
  };
}

export class GatewayMetrics {
  readonly registry = new Registry();
  readonly requests: Counter<"operation" | "status">;
  readonly upstreamLatency: Histogram<"operation" | "status">;
  readonly translationErrors: Counter<"operation" | "kind">;
  readonly passthrough: Counter<"status">;
  private readonly requestChild: (operation: string, status: number) => { inc(): void };
  private readonly upstreamChild: (operation: string, status: number | "error") => { observe(seconds: number): void };
  private readonly passthroughChild: (status: number, _: undefined) => { inc(): void };

  constructor(options: { defaultMetrics?: boolean } = {}) {
    this.requests = new Counter({
      name: "v2bridge_v1_requests_total",
      help: "v1 requests answered by the gateway, by v1 operation and status",
      labelNames: ["operation", "status"],
      registers: [this.registry],
    });
    this.upstreamLatency = new Histogram({
      name: "v2bridge_upstream_request_duration_seconds",
      help: "Latency of upstream v2 calls made for v1 operations",
      labelNames: ["operation", "status"],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [this.registry],
    });
    this.translationErrors = new Counter({
      name: "v2bridge_translation_errors_total",
      help: "v1 requests the gateway could not translate or complete, by operation and kind (client, translation, upstream)",
      labelNames: ["operation", "kind"],
      registers: [this.registry],
    });
    this.passthrough = new Counter({
      name: "v2bridge_v2_passthrough_requests_total",
      help: "/v2/* requests passed through unchanged, by status",
      labelNames: ["status"],
      registers: [this.registry],
    });
    this.requestChild = children((operation: string, status: number) => this.requests.labels({ operation, status: String(status) }));
    this.upstreamChild = children((operation: string, status: number | "error") => this.upstreamLatency.labels({ operation, status: String(status) }));
    this.passthroughChild = children((status: number, _: undefined) => this.passthrough.labels({ status: String(status) }));
    if (options.defaultMetrics) collectDefaultMetrics({ register: this.registry, prefix: "v2bridge_" });
  }

  /** One answered v1 request. */
  countRequest(operation: string, status: number): void {
    this.requestChild(operation, status).inc();
  }

  /** One upstream call for a v1 operation, by its status ("error" when no answer came). */
  observeUpstream(operation: string, status: number | "error", seconds: number): void {
    this.upstreamChild(operation, status).observe(seconds);
  }

  /** One /v2 request passed through. */
  countPassthrough(status: number): void {
    this.passthroughChild(status, undefined).inc();
  }
}
