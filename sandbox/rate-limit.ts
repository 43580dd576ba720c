// Per-key fixed-window rate limits over minute/hour/day, reported with the structured-field
// headers the v2 document describes:
//   RateLimit:        "minute";r=<remaining>;t=<seconds to reset>, "hour";..., "day";...
//   RateLimit-Policy: "minute";q=<quota>;w=60, "hour";q=...;w=3600, "day";q=...;w=86400
import { serializeList } from "structured-headers";

export type RateLimitQuotas = { minute: number; hour: number; day: number };
export const DEFAULT_RATE_LIMIT: RateLimitQuotas = { minute: 600, hour: 20_000, day: 200_000 };

const WINDOWS = [
  ["minute", 60],
  ["hour", 3600],
  ["day", 86_400],
] as const;

export type WindowName = (typeof WINDOWS)[number][0];

type WindowState = { start: number; count: number };

export type RateLimitDecision = {
  allowed: boolean;
  /** Window that was exceeded (when not allowed). */
  exceeded?: WindowName;
  /** Integer seconds to wait (when not allowed). */
  retryAfter?: number;
  headers: { RateLimit: string; "RateLimit-Policy": string };
};

/** Parses `minute=60,hour=3000,day=50000` (any subset; others keep their defaults). */
export function parseRateLimitSpec(spec: string, base: RateLimitQuotas = DEFAULT_RATE_LIMIT): RateLimitQuotas {
  const out = { ...base };
  for (const part of spec.split(",").map((s) => s.trim()).filter(Boolean)) {
    const m = /^(minute|hour|day)=(\d+)$/.exec(part);
    if (!m) throw new Error(`invalid rate limit '${part}': expected minute=N, hour=N or day=N`);
    out[m[1] as WindowName] = Number(m[2]);
  }
  return out;
}

export class RateLimiter {
  private readonly state = new Map<string, Record<WindowName, WindowState>>();

  constructor(
    readonly quotas: RateLimitQuotas,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Counts one request for `key` unless a window is exhausted; 429s are not counted. */
  hit(key: string): RateLimitDecision {
    const now = this.clock();
    let windows = this.state.get(key);
    if (!windows) {
      windows = { minute: { start: now, count: 0 }, hour: { start: now, count: 0 }, day: { start: now, count: 0 } };
      this.state.set(key, windows);
    }
    for (const [name, seconds] of WINDOWS) {
      const w = windows[name];
      if (now >= w.start + seconds * 1000) {
        w.start = now;
        w.count = 0;
      }
    }
    const resetIn = (name: WindowName, seconds: number) =>
      Math.max(1, Math.ceil((windows[name].start + seconds * 1000 - now) / 1000));
    let exceeded: WindowName | undefined;
    let retryAfter = 0;
    for (const [name, seconds] of WINDOWS) {
      if (windows[name].count >= this.quotas[name]) {
        const wait = resetIn(name, seconds);
        if (wait > retryAfter) {
          retryAfter = wait;
          exceeded = name;
        }
      }
    }
    if (!exceeded) for (const [name] of WINDOWS) windows[name].count++;
    const live = serializeList(
      WINDOWS.map(([name, seconds]) => [
        name,
        new Map<string, number>([
          ["r", Math.max(0, this.quotas[name] - windows[name].count)],
          ["t", resetIn(name, seconds)],
        ]),
      ]),
    );
    const policy = serializeList(
      WINDOWS.map(([name, seconds]) => [
        name,
        new Map<string, number>([
          ["q", this.quotas[name]],
          ["w", seconds],
        ]),
      ]),
    );
    return exceeded
      ? { allowed: false, exceeded, retryAfter, headers: { RateLimit: live, "RateLimit-Policy": policy } }
      : { allowed: true, headers: { RateLimit: live, "RateLimit-Policy": policy } };
  }
}
