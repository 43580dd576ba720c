// Open-loop load at a fixed rate, evenly spaced over time, for the "moderate load" latency figures.
// autocannon's overallRate is not that: each connection sends its per-second quota back to back and
// then waits for the next second, so a "50%" run is a full-speed burst half of every second.
// Here a 1 ms ticker releases the requests that are due; each latency runs from dispatch to the
// last body byte, so time queued behind slower answers is counted.
import { Pool } from "undici";

export interface PacedResult {
  /** Latencies in ms, sorted. */
  latencies: Float64Array;
  errors: number;
  /** Requests per second actually completed. */
  rps: number;
}

export interface PacedOptions {
  origin: string;
  method: string;
  path: string;
  body?: string;
  headers: Record<string, string>;
  rate: number;
  seconds: number;
  /** Paced like the rest, but not recorded: opens the connections and warms the JIT first. */
  warmupSeconds?: number;
  /** Client connections; enough that the client never queues at these rates. */
  connections?: number;
}

export async function pacedLoad(o: PacedOptions): Promise<PacedResult> {
  const pool = new Pool(o.origin, { connections: o.connections ?? 16, pipelining: 1 });
  const warmup = Math.round(o.rate * (o.warmupSeconds ?? 1));
  const total = warmup + Math.round(o.rate * o.seconds);
  const latencies: number[] = [];
  const inFlight: Promise<void>[] = [];
  let errors = 0;
  let sent = 0;
  let recordedFrom = 0;
  const fire = (record: boolean) => {
    const t0 = performance.now();
    inFlight.push(
      pool.request({ method: o.method as "GET", path: o.path, body: o.body, headers: o.headers }).then(
        async (res) => {
          await res.body.arrayBuffer();
          if (!record) return;
          if (res.statusCode >= 400) errors++;
          else latencies.push(performance.now() - t0);
        },
        () => void (record && errors++),
      ),
    );
  };
  const start = performance.now();
  recordedFrom = start;
  await new Promise<void>((done) => {
    const timer = setInterval(() => {
      const due = Math.min(total, Math.floor(((performance.now() - start) * o.rate) / 1000));
      while (sent < due) {
        if (sent === warmup) recordedFrom = performance.now();
        fire(sent >= warmup);
        sent++;
      }
      if (sent >= total) {
        clearInterval(timer);
        done();
      }
    }, 1);
  });
  await Promise.all(inFlight);
  const elapsed = (performance.now() - recordedFrom) / 1000;
  await pool.close();
  return { latencies: Float64Array.from(latencies).sort(), errors, rps: latencies.length / elapsed };
}
