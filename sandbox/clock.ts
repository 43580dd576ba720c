// Where the sandbox gets its ids, times and randomness. Unseeded: the wall clock and random ids.
// Seeded (`sandbox --seed`): a pseudo-random sequence and a virtual clock, so the same calls make
// the same ids, the same times and the same boot progress, run after run (`v2-bridge verify`
// compares two runs record by record).
import { newId } from "./ids.ts";

export interface SandboxClock {
  /** Milliseconds since the epoch. */
  now(): number;
  iso(): string;
  /** A short id shaped like the real service's (lowercase alphanumerics). */
  id(length?: number): string;
  /** A number in [0, 1). */
  random(): number;
  /** A request arrived (with its `x-request-id`, if any): a seeded clock moves on per client call. */
  tick(requestId: string | undefined): void;
  /** The seed, or null for the wall clock. */
  readonly seed: string | null;
}

/** Where a seeded clock starts: fixed, so times in records are the same on every run. */
export const SEED_EPOCH_MS = Date.UTC(2026, 0, 1);
/** How far a seeded clock moves per client call (a pod with `bootMs` 3000 runs 3 calls after its create). */
export const SEED_STEP_MS = 1_000;
/** Request ids remembered (a client call's requests share one; the gateway sends several per v1 call). */
const REMEMBERED_IDS = 10_000;

export const wallClock: SandboxClock = {
  now: () => Date.now(),
  iso: () => new Date().toISOString(),
  id: (length = 14) => newId(length),
  random: () => Math.random(),
  tick: () => {},
  seed: null,
};

const ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";

/**
 * A seeded clock. Time starts at SEED_EPOCH_MS and advances SEED_STEP_MS per client call: each
 * request without an `x-request-id`, and the first request of each id (the gateway forwards the
 * v1 request's id on every v2 call it makes for it, so one v1 call moves the clock once, as the
 * same call made directly to v2 would).
 */
export function seededClock(seed: string): SandboxClock {
  const next = sfc32(seed);
  let time = SEED_EPOCH_MS;
  const seen = new Set<string>();
  return {
    seed,
    now: () => time,
    iso: () => new Date(time).toISOString(),
    id(length = 14) {
      let out = "";
      for (let i = 0; i < length; i++) out += ALPHABET[Math.floor(next() * ALPHABET.length)];
      return out;
    },
    random: next,
    tick(requestId) {
      if (requestId !== undefined) {
        if (seen.has(requestId)) return;
        if (seen.size >= REMEMBERED_IDS) seen.clear();
        seen.add(requestId);
      }
      time += SEED_STEP_MS;
    },
  };
}

/** sfc32 seeded from a string hash (cyrb128): small, fast and good enough for ids. */
function sfc32(seed: string): () => number {
  let h1 = 1779033703, h2 = 3144134277, h3 = 1013904242, h4 = 2773480762;
  for (let i = 0; i < seed.length; i++) {
    const k = seed.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  let a = h1 >>> 0, b = (h2 ^ h1) >>> 0, c = (h3 ^ h1) >>> 0, d = (h4 ^ h1) >>> 0;
  const step = () => {
    a |= 0; b |= 0; c |= 0; d |= 0;
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  for (let i = 0; i < 15; i++) step(); // the first outputs still show the seed's structure
  return step;
}
