// API-key fingerprints: the usage audit and the caches name a client by a salted hash, never by its key.
import { createHash, createHmac, randomBytes } from "node:crypto";
import { LRUCache } from "lru-cache";

export const ANONYMOUS = "anonymous";

export interface Fingerprinter {
  /** Short id for reports: `k_` + 12 hex of sha256(salt + token); "anonymous" without a token. */
  short(authorization: string | undefined): string;
  /** Full-length keyed hash for cache keys (no collisions between keys in practice). */
  cacheKey(authorization: string | undefined): string;
}

/** The credential inside an Authorization header (the whole value when it is not a bearer token). */
export function tokenOf(authorization: string | undefined): string | undefined {
  if (!authorization || !authorization.trim()) return undefined;
  // The scheme alone (`Bearer ` with an empty key) carries no credential.
  if (/^\s*Bearer\s*$/i.test(authorization)) return undefined;
  const m = /^\s*Bearer\s+(\S+)\s*$/i.exec(authorization);
  return m ? m[1] : authorization.trim();
}

export function createFingerprinter(salt: string): Fingerprinter {
  const effective = salt || randomBytes(16).toString("hex");
  // Hashing costs more than the rest of a translated request's bookkeeping; memoise recent keys (bounded, in memory only).
  const memo = new LRUCache<string, { short: string; cacheKey: string }>({ max: 1_000 });
  const hashes = (authorization: string | undefined) => {
    const token = tokenOf(authorization);
    if (!token) return { short: ANONYMOUS, cacheKey: ANONYMOUS };
    let h = memo.get(token);
    if (!h) {
      h = {
        short: "k_" + createHash("sha256").update(effective).update("\0").update(token).digest("hex").slice(0, 12),
        cacheKey: createHmac("sha256", effective).update(token).digest("hex"),
      };
      memo.set(token, h);
    }
    return h;
  };
  return {
    short: (authorization) => hashes(authorization).short,
    cacheKey: (authorization) => hashes(authorization).cacheKey,
  };
}
