// The operator token check: `Authorization: Bearer <token>`, compared in constant time (both sides
// hashed first, so neither the length nor a common prefix shows in the timing).
import { createHash, timingSafeEqual } from "node:crypto";
import { tokenOf } from "../usage/fingerprint.ts";

const digest = (value: string) => createHash("sha256").update(value).digest();

export function bearerMatches(authorization: string | undefined, expected: string): boolean {
  const given = /^\s*Bearer\s/i.test(authorization ?? "") ? tokenOf(authorization) : undefined;
  return timingSafeEqual(digest(given ?? ""), digest(expected)) && given !== undefined;
}
