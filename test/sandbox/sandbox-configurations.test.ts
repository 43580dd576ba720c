// The sandbox in its other configurations, over real HTTP on loopback: explicit keys with a
// per-minute quota (429, Retry-After, RateLimit headers), and no v2 document at all.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseList } from "structured-headers";
import { referenceMissingReason } from "../../openapi/reference.ts";
import { startSandbox, type Sandbox } from "../../sandbox/server.ts";
import { expectV2Response } from "../helpers/v2-contract.ts";

const reason = referenceMissingReason();

describe.skipIf(reason)(`v2 sandbox rate limits${reason ? ` (skipped: ${reason})` : ""}`, () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox({ port: 0, rateLimit: { minute: 3 }, keys: ["k_one", "k_two:ro"], warn: () => {} });
  });
  afterAll(async () => {
    await sb?.close();
  });

  it("answers 429 past the quota with Retry-After and parsable RateLimit headers, per key", async () => {
    const get = (token: string) => fetch(`${sb.url}/v2/catalog/cpus`, { headers: { authorization: `Bearer ${token}` } });
    const remaining: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await get("k_one");
      await expectV2Response(res, "GET");
      expect(res.status).toBe(200);
      remaining.push(parseList(res.headers.get("ratelimit")!)[0][1].get("r") as number);
    }
    expect(remaining).toEqual([2, 1, 0]);
    const limited = await get("k_one");
    const checked = await expectV2Response(limited, "GET");
    expect(checked.status).toBe(429);
    expect(checked.body.detail).toMatch(/minute/);
    const retryAfter = Number(limited.headers.get("retry-after"));
    expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60).toBe(true);
    const live = parseList(limited.headers.get("ratelimit")!);
    expect(live[0][0]).toBe("minute");
    expect(live[0][1].get("r")).toBe(0);
    const policy = parseList(limited.headers.get("ratelimit-policy")!);
    expect(policy[0][1].get("q")).toBe(3);
    // another key has its own budget; explicit keys replace the sandbox_* rule
    expect((await get("k_two")).status).toBe(200);
    expect((await get("sandbox_demo")).status).toBe(401);
    const ro = await fetch(`${sb.url}/v2/templates`, { method: "POST", headers: { authorization: "Bearer k_two", "content-type": "application/json" }, body: "{}" });
    expect(ro.status).toBe(403);
  });
});

describe("v2 sandbox without a document", () => {
  it("starts with a warning, keeps auth, and 404s /v2/openapi.json", async () => {
    const warnings: string[] = [];
    const sb = await startSandbox({ port: 0, openapiPath: false, warn: (m) => warnings.push(m) });
    try {
      expect(warnings.join("\n")).toMatch(/validation is OFF/);
      expect((await fetch(`${sb.url}/v2/openapi.json`)).status).toBe(404);
      const headers = { authorization: "Bearer sandbox_x", "content-type": "application/json" };
      expect((await fetch(`${sb.url}/v2/pods`)).status).toBe(401);
      // Without a schema, non-object JSON still gets the 422 the document's schema would give.
      const odd = await fetch(`${sb.url}/v2/pods`, { method: "POST", headers, body: "[1,2]" });
      expect(odd.status).toBe(422);
      expect(await odd.json()).toMatchObject({ title: "Unprocessable Entity", status: 422, detail: "request body must be a JSON object" });
      expect((await fetch(`${sb.url}/v2/pods`, { method: "POST", headers, body: "[1," })).status).toBe(400);
      const weird = await fetch(`${sb.url}/v2/serverless`, { method: "POST", headers, body: JSON.stringify({ gpu: 5, workers: "x", cpu: [null] }) });
      expect(weird.status).toBeGreaterThanOrEqual(400);
      expect(weird.status).toBeLessThan(500);
    } finally {
      await sb.close();
    }
  });
});
