// The checks that keep every request under /v2/ on the configured upstream, all from one module
// (gateway/upstream/path-safety.ts): v1 path parameters, built v2 paths, /v2 pass-through targets.
import { describe, expect, it } from "vitest";
import { isSafeParam, isSafePassthroughUrl, isSafeV2Path, segmentsAreSafe } from "../../gateway/upstream/path-safety.ts";

describe("upstream path safety", () => {
  it("accepts only /v2/ paths without dot-segments, encoded separators or backslashes", () => {
    for (const ok of ["/v2/pods", "/v2/pods/abc123/action", "/v2/billing/serverless", "/v2/catalog/gpus/NVIDIA%20A40"]) expect(isSafeV2Path(ok), ok).toBe(true);
    for (const bad of ["/v1/pods", "/v2/../admin", "/v2/%2e%2e/admin", "/v2/pods/a%2Fb", "/v2/pods\\x", "//evil/v2/pods", "/v2//pods", "http://evil/v2/pods", "/v2/pods?x=1", "/v2/pods/%5c"]) {
      expect(isSafeV2Path(bad), bad).toBe(false);
    }
    for (const bad of ["..", ".", "a/b", "a\\b", "", "a%b", "a b", "x\n"]) expect(isSafeParam(bad), JSON.stringify(bad)).toBe(false);
    expect(isSafeParam("pod_abc-123")).toBe(true);
  });

  it("keeps /v2 pass-through targets under /v2/ (query strings allowed, encoded separators not)", () => {
    for (const ok of ["/v2", "/v2/pods", "/v2/pods/", "/v2/pods?x=%2F..", "/v2/catalog/gpus/NVIDIA%20A40", "/v2/pods/%252f"]) expect(isSafePassthroughUrl(ok), ok).toBe(true);
    for (const bad of ["/v1/pods", "/v2x", "/v2/../admin", "/v2/%2e%2e/admin", "/v2/pods/a%2Fb", "/v2/pods/%5c", "/v2/pods/%00", "/v2/pods\\x", "/v2//evil", "/v2/%zz", "/v2/a%0d%0aX"]) {
      expect(isSafePassthroughUrl(bad), bad).toBe(false);
    }
  });
});

describe("segment decoding", () => {
  it("refuses segments that decode to separators, dot-segments or control characters, and undecodable ones", () => {
    expect(segmentsAreSafe("/v2/pods/NVIDIA%20A40")).toBe(true);
    for (const bad of ["/v2/%2e", "/v2/a%2fb", "/v2/a%5Cb", "/v2/a%0Ab", "/v2/a%7F", "/v2/%E0%A4%A"]) expect(segmentsAreSafe(bad), bad).toBe(false);
  });
});
