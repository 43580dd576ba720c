// Pod boot timing: v2 provisioning is asynchronous. A created pod starts in PROVISIONING,
// transitions through STARTING and reaches RUNNING; start and restart keep the machine, so they
// go through STARTING only. Statuses are derived from the clock when a pod is read (no timers),
// so a polling client sees every phase and a sandbox with bootMs 0 is instant.
import type { Json } from "./store.ts";

/** Default time from create to RUNNING (half PROVISIONING, half STARTING). */
export const DEFAULT_BOOT_MS = 3000;

export type BootPhase = "PROVISIONING" | "STARTING" | "RUNNING";

/** The status a boot that began in `from` has reached after `elapsedMs`. */
export function statusAfterBoot(from: "PROVISIONING" | "STARTING", elapsedMs: number, bootMs: number): BootPhase {
  const half = bootMs / 2;
  if (from === "PROVISIONING") {
    if (elapsedMs < half) return "PROVISIONING";
    if (elapsedMs < bootMs) return "STARTING";
    return "RUNNING";
  }
  return elapsedMs < half ? "STARTING" : "RUNNING";
}

type Boot = { since: number; from: "PROVISIONING" | "STARTING" };

export class PodLifecycle {
  private readonly boots = new Map<string, Boot>();

  constructor(
    readonly bootMs: number = DEFAULT_BOOT_MS,
    readonly now: () => number = Date.now,
  ) {}

  /** A new pod: PROVISIONING → STARTING → RUNNING. */
  create(pod: Json): void {
    this.begin(pod, "PROVISIONING");
  }

  /** start (from EXITED/ERROR) and restart (from RUNNING): STARTING → RUNNING on the same machine. */
  start(pod: Json): void {
    this.begin(pod, "STARTING");
  }

  /** stop: EXITED at once (also mid-boot). */
  stop(pod: Json): void {
    this.boots.delete(pod.id);
    pod.status = "EXITED";
  }

  forget(id: string): void {
    this.boots.delete(id);
  }

  /** Moves a booting pod to the status its boot has reached by now. */
  advance(pod: Json): void {
    const boot = this.boots.get(pod.id);
    if (!boot) return;
    const elapsed = this.now() - boot.since;
    pod.status = statusAfterBoot(boot.from, elapsed, this.bootMs);
    if (pod.status === "RUNNING") {
      this.boots.delete(pod.id);
      const runningSince = boot.since + (boot.from === "PROVISIONING" ? this.bootMs : this.bootMs / 2);
      pod.startedAt = new Date(runningSince).toISOString();
    }
  }

  private begin(pod: Json, from: "PROVISIONING" | "STARTING"): void {
    if (this.bootMs <= 0) {
      pod.status = "RUNNING";
      pod.startedAt = new Date(this.now()).toISOString();
      this.boots.delete(pod.id);
      return;
    }
    pod.status = from;
    this.boots.set(pod.id, { since: this.now(), from });
  }
}
