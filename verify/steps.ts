// From what reached the sandbox to the operations compared. Requests are grouped by client call
// (their x-request-id): a v1 call the gateway served with a read, a write and a poll is one call.
// Each call counts by its effect: one operation per write it made (a write refused with 409 and
// then retried counts once), or, for a call that wrote nothing, the one read it was about
// (catalog look-ups the gateway makes on the side are left out).
import type { CallEvent, VerifyEvent } from "./preload/protocol.ts";
import type { Hit } from "./recorder.ts";
import type { OperationNamer } from "./operations.ts";

export type ApiHosts = { v1: string; v2: string };

export type Step = {
  /** Alignment key: method, route shape and (pod actions) the action. */
  key: string;
  label: string;
  method: string;
  route: string;
  path: string;
  body?: unknown;
  status: number;
  answer?: unknown;
  write: boolean;
  api: "v1" | "v2" | "unknown";
  call?: CallEvent;
};

export type RunData = {
  steps: Step[];
  hits: Hit[];
  calls: CallEvent[];
  processes: number;
  /** Client calls that reached no v2 operation (the gateway answered them itself). */
  gatewayOnly: CallEvent[];
};

const isRead = (h: Hit) => h.method === "GET" || h.method === "HEAD";
const isSideRead = (h: Hit) => isRead(h) && (h.route ?? h.path).startsWith("/v2/catalog/");

export function buildRun(hits: Hit[], events: VerifyEvent[], hosts: ApiHosts, name: OperationNamer): RunData {
  const calls = events.filter((e): e is CallEvent => e.kind === "call");
  const callById = new Map(calls.map((c) => [c.id, c]));
  const groups = new Map<string, Hit[]>();
  for (const h of hits) {
    const key = h.requestId ?? `#${h.seq}`;
    groups.set(key, [...(groups.get(key) ?? []), h]);
  }
  const steps: Step[] = [];
  for (const [key, group] of groups) {
    const call = callById.get(key);
    const writes = group.filter((h, i) => !isRead(h) && !(h.status === 409 && group.slice(i + 1).some((l) => l.method === h.method && l.path === h.path)));
    const chosen = writes.length ? writes : [group.find((h) => !isSideRead(h)) ?? group[0]!];
    for (const h of chosen) {
      const route = h.route ?? h.path;
      const { key: opKey, label } = name(h.method, h.route, h.path, h.body);
      steps.push({
        key: opKey,
        label,
        method: h.method,
        route,
        path: h.path + (h.query ? `?${h.query}` : ""),
        ...(h.body !== undefined ? { body: h.body } : {}),
        status: h.status,
        ...(h.answer !== undefined ? { answer: h.answer } : {}),
        write: !isRead(h),
        api: apiOf(call, hosts),
        ...(call ? { call } : {}),
      });
    }
  }
  const reached = new Set(hits.map((h) => h.requestId));
  return {
    steps,
    hits,
    calls,
    processes: new Set(events.filter((e) => e.kind === "process").map((e) => e.pid)).size,
    gatewayOnly: calls.filter((c) => !reached.has(c.id)),
  };
}

export function apiOf(call: CallEvent | undefined, hosts: ApiHosts): Step["api"] {
  if (!call) return "unknown";
  const host = new URL(call.url).hostname.toLowerCase();
  return host === hosts.v1 ? "v1" : host === hosts.v2 ? "v2" : "unknown";
}
