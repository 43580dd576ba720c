// Prometheus metrics, one Registry per gateway (no global state, so several gateways can share a
// process). Labels are operation keys, statuses and error kinds only: never key material.
import { Counter, Histogram, Registry, collectDefaultMetrics } from "prom-client";

export class GatewayMetrics {
  readonly registry = new Registry();
  readonly requests: Counter<"operation" | "status">;
  readonly upstreamLatency: Histogram<"operation" | "status">;
  readonly translationErrors: Counter<"operation" | "kind">;
  readonly passthrough: Counter<"status">;

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
    if (options.defaultMetrics) collectDefaultMetrics({ register: this.registry, prefix: "v2bridge_" });
  }

  /** One answered v1 request. */
  countRequest(operation: string, status: number): void {
    this.requests.inc({ operation, status: String(status) });
  }

  /** One upstream call for a v1 operation, by its status ("error" when no answer came); timed by the caller (startTimer's closures and label merging cost more). */
  observeUpstream(operation: string, status: number | "error", seconds: number): void {
    this.upstreamLatency.observe({ operation, status: String(status) }, seconds);
  }

  /** One /v2 request passed through. */
  countPassthrough(status: number): void {
    this.passthrough.inc({ status: String(status) });
  }
}
