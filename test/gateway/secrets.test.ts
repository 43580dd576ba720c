// API keys never leave the request they came in: a client sends its key every way a client can
// (bearer header, credential query parameters, x-api-key, inside a path, inside a bad body), and
// then every output of the gateway is searched for it: the log, every answer (body and headers),
// the usage audit, the metrics and the live report page. The upstream still gets Authorization as sent.
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { redactUrl, secretsOf } from "../../gateway/observability/redact.ts";
import { rawRequest, startRig, type Rig } from "./helpers.ts";

/** A key the sandbox accepts (shaped like one). */
const KEY = "sandbox_SECRETzq81kXv0";
/** A credential with no recognisable shape: only "it came in as a credential" can catch it. */
const OPAQUE = "Opaque7Credential9Qz";

let rig: Rig;
let log = "";
const answers: string[] = [];
const adminPages: string[] = [];

async function send(method: string, path: string, headers: Record<string, string> = {}, body?: string) {
  const r = await rawRequest(rig.gateway.url, method, path, { headers, body });
  answers.push(`${method} ${path} → ${r.status}\n${[...r.headers].map(([k, v]) => `${k}: ${v}`).join("\n")}\n\n${r.text}`);
  return r;
}

beforeAll(async () => {
  const stream = new Writable({
    write(chunk, _enc, done) {
      log += chunk.toString();
      done();
    },
  });
  rig = await startRig({ gateway: { logger: { level: "info", stream } } });
  const bearer = { authorization: `Bearer ${KEY}` };
  const json = { "content-type": "application/json" };

  expect((await send("GET", "/v1/pods", bearer)).status).toBe(200);
  for (const secret of [KEY, OPAQUE]) {
    for (const name of ["api_key", "apikey", "key", "token", "access_token", "auth", "password", "secret", "API_KEY", "Token"]) {
      await send("GET", `/v1/pods?${name}=${secret}&desiredStatus=RUNNING`);
      await send("GET", `/v2/pods?${name}=${encodeURIComponent(secret)}`);
    }
    await send("GET", "/v1/pods", { "x-api-key": secret });
    await send("GET", "/v1/pods", { authorization: `Bearer ${secret}` });
    await send("GET", "/v1/pods", { authorization: secret });
    // in a path segment of a failing request: a known route, an unknown v1 path, the pass-through, no route at all
    await send("GET", `/v1/pods/${secret}`, { authorization: `Bearer ${secret}` });
    await send("GET", `/v1/${secret}/pods`, { authorization: `Bearer ${secret}` });
    await send("GET", `/v1/pods/${secret}?api_key=${secret}`);
    await send("DELETE", `/v2/pods/${secret}`, { "x-api-key": secret });
    await send("GET", `/elsewhere/${secret}`, { authorization: `Bearer ${secret}` });
    await send("GET", `/v1/pods/%E0%A4%A/${secret}`, { authorization: `Bearer ${secret}` });
    // in a bad body: the whole body, a property name, a value in broken JSON, a wrong type
    await send("POST", "/v1/pods", { ...bearer, ...json }, secret);
    await send("POST", "/v1/pods", { authorization: `Bearer ${secret}`, ...json }, JSON.stringify({ [secret]: 1, imageName: "x" }));
    await send("POST", "/v1/pods", { ...bearer, ...json }, JSON.stringify({ [KEY]: 1, imageName: "x" }));
    await send("POST", "/v1/pods", { ...bearer, ...json }, `{"name": "${secret}" broken`);
    await send("POST", "/v1/pods", { authorization: `Bearer ${secret}`, ...json }, JSON.stringify({ imageName: 5, name: secret }));
    await send("POST", "/v1/pods", { authorization: `Bearer ${secret}`, ...json }, JSON.stringify({ imageName: "x", name: secret }));
  }
  for (const page of ["/_bridge/usage", "/_bridge/metrics", "/_bridge/", "/_bridge/health"]) {
    const r = await rawRequest(rig.gateway.adminUrl, "GET", page);
    expect(r.status, page).toBe(200);
    adminPages.push(r.text);
  }
  await rig.close();
});

afterAll(() => rig?.close());

describe("API keys in gateway outputs", () => {
  it("the log has a line per request and no key anywhere in it", () => {
    const lines = log.trim().split("\n").map((l) => JSON.parse(l));
    expect(lines.filter((l) => l.msg === "request completed").length).toBeGreaterThanOrEqual(answers.length);
    expect(log).toContain("api_key=[redacted]");
    expect(log).toContain("/v1/pods/[redacted]");
    expect(log).not.toContain(KEY);
    expect(log).not.toContain(OPAQUE);
  });

  it("no answer (status line, headers, body) repeats a key", () => {
    const all = answers.join("\n----\n");
    expect(all).toMatch(/→ 40[04]/);
    for (const a of answers) {
      const [request, ...rest] = a.split("\n");
      const answer = rest.join("\n");
      expect(answer, request).not.toContain(KEY);
      expect(answer, request).not.toContain(OPAQUE);
    }
  });

  it("the usage audit, metrics and report page counted the calls and hold no key", () => {
    const usage = JSON.parse(adminPages[0]!);
    expect(usage.totals.requests).toBeGreaterThan(20);
    expect(adminPages[1]).toMatch(/v2bridge_v1_requests_total\{operation="ListPods",status="200"\}/);
    expect(adminPages[2]).toMatch(/<html/i);
    for (const page of adminPages) {
      expect(page).not.toContain(KEY);
      expect(page).not.toContain(OPAQUE);
    }
  });

  it("the upstream received Authorization exactly as the client sent it", () => {
    const auths = rig.upstreamCalls.map((c) => c.headers.authorization);
    expect(auths).toContain(`Bearer ${KEY}`);
    expect(auths).toContain(`Bearer ${OPAQUE}`);
  });
});

describe("redaction rules", () => {
  it("blanks credential query values by name, case-insensitively, and keeps the rest", () => {
    expect(redactUrl("/v1/pods?ApiKey=abc&gpuTypeId=A100&access_token=x&Password=p&computeType=GPU")).toBe(
      "/v1/pods?ApiKey=[redacted]&gpuTypeId=A100&access_token=[redacted]&Password=[redacted]&computeType=GPU",
    );
    expect(redactUrl("/v1/pods?%61pi_key=abc")).toBe("/v1/pods?%61pi_key=[redacted]");
  });

  it("cuts the request's own credentials, also percent-encoded, wherever they appear", () => {
    const secret = "a/b+c%Secret";
    const secrets = secretsOf({ authorization: `Bearer ${secret}` }, "/v1/pods");
    expect(redactUrl(`/v1/pods/${encodeURIComponent(secret)}/x`, secrets)).toBe("/v1/pods/[redacted]/x");
    expect(secretsOf({}, "/v1/pods?key=1")).toEqual([]); // too short to cut from text safely
  });

  it("takes a Bearer header with no token for no credential, so the scheme word is not cut from messages", () => {
    // Before, "Bearer " was taken whole as the key: v2's "expected 'Bearer <API_KEY>'" reached the client as "expected '[redacted] <API_KEY>'".
    for (const authorization of ["Bearer ", "Bearer", " bearer  "]) expect(secretsOf({ authorization }, "/v1/pods"), authorization).toEqual([]);
    expect(secretsOf({ authorization: "Bearer sekrit123" }, "/v1/pods")).toEqual(["sekrit123"]);
    expect(secretsOf({ authorization: "Opaque7Credential9Qz" }, "/v1/pods")).toEqual(["Opaque7Credential9Qz"]);
  });
});
