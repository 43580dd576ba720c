// The log line's URL redaction skips gathering the request's secrets where none can occur in the
// target (gateway/observability/redact.ts, redactRequestUrl): its text must be the full redaction's.
import { describe, expect, it } from "vitest";
import { redactRequestUrl, redactUrl, secretsOf } from "../../gateway/observability/redact.ts";

const SEGMENTS = ["v2", "pods", "sekrit123", "sekrit%20one", "sekrit one", "rpa_ABCDEFGH12", "%2F", "tok", "[redacted]", "d]sekrit", "é", "Bearer", "x?api_key=sekrit123", "?q=1&token=abcdefgh", '"'];
const VALUES = [undefined, "sekrit123", "Bearer sekrit123", "Bearer tok", "sekrit one", " sekrit123 ", "Basic abc:def", "rpa_ABCDEFGH12", "ted]sekrit", "é sekrit"];
const HEADERS = ["authorization", "x-api-key", "api-key", "x-auth-token", "proxy-authorization"];

describe("redactRequestUrl", () => {
  it("writes what redactUrl writes with the request's secrets, for targets with and without them", () => {
    let seed = 7;
    const pick = <T>(xs: readonly T[]): T => xs[(seed = (seed * 1103515245 + 12345) & 0x7fffffff) % xs.length]!;
    for (let i = 0; i < 5_000; i++) {
      let url = "";
      for (let n = pick([1, 2, 3, 4]); n > 0; n--) url += "/" + pick(SEGMENTS);
      const headers: Record<string, string> = {};
      for (const name of HEADERS) {
        const v = pick(VALUES);
        if (v !== undefined) headers[name] = v;
      }
      expect(redactRequestUrl(url, headers), JSON.stringify({ url, headers })).toBe(redactUrl(url, secretsOf(headers, url)));
    }
  });

  it("cuts a header's credential from the path", () => {
    expect(redactRequestUrl("/v2/pods/sekrit123", { authorization: "Bearer sekrit123" })).toBe("/v2/pods/[redacted]");
    expect(redactRequestUrl("/v2/pods/a%20sekrit", { "x-api-key": "a sekrit" })).toBe("/v2/pods/[redacted]");
    expect(redactRequestUrl("/v2/pods", { authorization: "Bearer sekrit123" })).toBe("/v2/pods");
  });
});
