// Billing window resolution and deterministic, seeded records. Amounts are a fixed hourly rate
// times the hours a resource was active inside each bucket, so filters and windows give
// reproducible, plausible numbers.
import { BILLING_SEED } from "./catalog.ts";
import { badRequest } from "./problem.ts";

export type BucketSize = "hour" | "day" | "week" | "month" | "year";
export type BillingWindow = { start: Date; end: Date; bucketSize: BucketSize; buckets: Array<{ start: Date; end: Date }> };

const MAX_BUCKETS = 5000;
const HOUR = 3_600_000;

export function floorTo(d: Date, size: BucketSize): Date {
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  switch (size) {
    case "hour":
      return new Date(Date.UTC(y, m, d.getUTCDate(), d.getUTCHours()));
    case "day":
      return new Date(Date.UTC(y, m, d.getUTCDate()));
    case "week": {
      const day = new Date(Date.UTC(y, m, d.getUTCDate()));
      const weekday = (day.getUTCDay() + 6) % 7; // Monday = 0
      return new Date(day.getTime() - weekday * 24 * HOUR);
    }
    case "month":
      return new Date(Date.UTC(y, m, 1));
    case "year":
      return new Date(Date.UTC(y, 0, 1));
  }
}

export function addBuckets(d: Date, size: BucketSize, n: number): Date {
  const r = new Date(d.getTime());
  switch (size) {
    case "hour":
      return new Date(d.getTime() + n * HOUR);
    case "day":
      return new Date(d.getTime() + n * 24 * HOUR);
    case "week":
      return new Date(d.getTime() + n * 7 * 24 * HOUR);
    case "month":
      r.setUTCMonth(r.getUTCMonth() + n);
      return r;
    case "year":
      r.setUTCFullYear(r.getUTCFullYear() + n);
      return r;
  }
}

export function iso(d: Date): string {
  return d.toISOString().replace(/\.000Z$/, "Z");
}

function parseTime(name: string, v: unknown): Date | undefined {
  if (v === undefined) return undefined;
  const d = new Date(String(v));
  if (Number.isNaN(d.getTime())) throw badRequest(`${name} must be an RFC 3339 date-time`);
  return d;
}

export function resolveWindow(query: Record<string, unknown>, now = new Date()): BillingWindow {
  const bucketSize = (typeof query.bucketSize === "string" ? query.bucketSize : "day") as BucketSize;
  if (!["hour", "day", "week", "month", "year"].includes(bucketSize)) throw badRequest(`unknown bucketSize ${bucketSize}`);
  const startTime = parseTime("startTime", query.startTime);
  const endTime = parseTime("endTime", query.endTime);
  let start: Date;
  let end: Date;
  const ceil = (d: Date) => {
    const f = floorTo(d, bucketSize);
    return f.getTime() === d.getTime() ? f : addBuckets(f, bucketSize, 1);
  };
  if (query.lastN !== undefined) {
    if (startTime || endTime) throw badRequest("lastN is mutually exclusive with startTime/endTime");
    const n = Number(query.lastN);
    if (!Number.isInteger(n) || n < 1) throw badRequest("lastN must be a positive integer");
    if (n > MAX_BUCKETS) throw badRequest(`lastN must be at most ${MAX_BUCKETS}`);
    end = addBuckets(floorTo(now, bucketSize), bucketSize, 1);
    start = addBuckets(end, bucketSize, -n);
  } else {
    start = floorTo(startTime ?? new Date(now.getTime() - 30 * 24 * HOUR), bucketSize);
    end = ceil(endTime ?? now);
  }
  if (start.getTime() >= end.getTime()) throw badRequest("startTime must be before endTime");
  const buckets: Array<{ start: Date; end: Date }> = [];
  for (let s = start; s.getTime() < end.getTime(); ) {
    const e = addBuckets(s, bucketSize, 1);
    buckets.push({ start: s, end: e });
    if (buckets.length > MAX_BUCKETS) throw badRequest(`the window spans more than ${MAX_BUCKETS} ${bucketSize} buckets; use a larger bucketSize`);
    s = e;
  }
  return { start, end, bucketSize, buckets };
}

/** Hours of [activeFrom, activeTo) that fall inside the bucket. */
export function activeHours(bucket: { start: Date; end: Date }, activeFrom: number, activeTo: number): number {
  const from = Math.max(bucket.start.getTime(), activeFrom);
  const to = Math.min(bucket.end.getTime(), activeTo);
  return to > from ? (to - from) / HOUR : 0;
}

export const money = (n: number) => Math.round(n * 1e6) / 1e6;

/** Seeded historic resources were active from 60 days ago until 2 days ago. */
export function seedInterval(now = Date.now()): [number, number] {
  return [now - 60 * 24 * HOUR, now - 2 * 24 * HOUR];
}

export const RATES = BILLING_SEED.hourly;
