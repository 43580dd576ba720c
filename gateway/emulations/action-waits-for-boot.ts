// actionWaitsForBoot: a v1 client sees a new (or just started) pod as `desiredStatus: RUNNING` at
// once, while v2 refuses `restart` with a 409 until the boot is over. When v2 refuses an action and
// the pod is booting with that action not among its published `actions`, the gateway polls the pod
// with backoff, inside the request's deadline, and sends the action once v2 allows it. Past the
// deadline the v1 client gets a 409 in v1 terms (never v2's PROVISIONING / STARTING).
import { setTimeout as sleep } from "node:timers/promises";
import type { V1Call } from "../upstream/call.ts";
import type { UpstreamResponse } from "../upstream/upstream.ts";
import { V1Error } from "../translation/v1-errors.ts";
import type { Emulation } from "./types.ts";

/** v2 statuses of a pod on its way to RUNNING. */
const BOOTING = new Set(["PROVISIONING", "STARTING"]);
const FIRST_POLL_MS = 200;
const MAX_POLL_MS = 2_000;
/** Kept of the deadline for the last read and the action itself (at most a quarter of it). */
const RESERVE_MS = 2_000;

type Pod = { status?: unknown; actions?: unknown };

/** The pod is booting and its published actions do not (yet) include this one. */
function waitsOnBoot(pod: Pod | null, action: string): boolean {
  if (!pod || !BOOTING.has(String(pod.status))) return false;
  return !Array.isArray(pod.actions) || !pod.actions.includes(action);
}

async function readPod(call: V1Call, path: string): Promise<Pod | null> {
  const res = await call.callUpstream({ method: "GET", path });
  return res.status === 200 && res.json && typeof res.json === "object" ? (res.json as Pod) : null;
}

export const actionWaitsForBoot: Emulation = {
  name: "actionWaitsForBoot",
  async send(call, body, next): Promise<UpstreamResponse> {
    let res = await next(body);
    const action = String(body?.action ?? "");
    const podPath = call.v2Path?.replace(/\/action$/, "");
    if (res.status !== 409 || !action || !podPath) return res;
    let pod = await readPod(call, podPath);
    if (!waitsOnBoot(pod, action)) return res; // refused for another reason (locked, stopped): v2's answer stands
    const reserve = Math.min(RESERVE_MS, call.deadline.ms / 4);
    const started = performance.now();
    let delay = FIRST_POLL_MS;
    for (;;) {
      while (waitsOnBoot(pod, action)) {
        const room = call.deadline.remainingMs - reserve;
        if (room <= 0) throw stillStarting(call, action, performance.now() - started);
        await sleep(Math.min(delay, room), undefined, { signal: call.deadline.signal });
        delay = Math.min(delay * 1.5, MAX_POLL_MS);
        pod = await readPod(call, podPath);
      }
      res = await next(body);
      if (res.status !== 409) return res;
      pod = await readPod(call, podPath);
      if (!waitsOnBoot(pod, action)) return res;
    }
  },
};

function stillStarting(call: V1Call, action: string, waitedMs: number): V1Error {
  const podId = call.match.params.podId ?? "";
  return new V1Error(409, `pod ${podId} is still starting and cannot ${action} yet (waited ${(waitedMs / 1000).toFixed(1)} s); retry the ${action} in a few seconds`);
}
