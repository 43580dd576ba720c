// The error text of a failed call survives the migration when the body leaves the function it is
// parsed in: undici's body handed to an error helper in another module (`fail(op, statusCode,
// body)`), and promise chains in CommonJS (`res.json().then(function (err) { throw new Error(
// err.message || res.statusText) })`) in a request helper serving a migrated call and a call kept
// on v1. The clients are rewritten (`rewrite --write`) and run over real HTTP: migrated calls
// against the strict v2 sandbox (RFC 9457 problems, `detail`), kept calls through the gateway's /v1
// (v1 `{ message }`), and another API (a loopback server answering `{ message }`) through the
// same helpers. Each failure must carry its server's own text.
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { e2eScope } from "./e2e-servers.ts";

const UNDICI_ERRORS = `import type { Dispatcher } from "undici";

export async function fail(op: string, status: number, body: Dispatcher.ResponseData["body"]): Promise<Error> {
  const parsed = (await body.json().catch(() => null)) as { message?: string } | null;
  return new Error(\`\${op} failed (\${status}): \${parsed?.message ?? "unknown error"}\`);
}
`;

const UNDICI_CLIENT = `import { request } from "undici";
import { fail } from "./errors.ts";

const REST = process.env.RUNPOD_API_URL ?? "https://rest.runpod.io/v1";
const headers = { authorization: \`Bearer \${process.env.RUNPOD_API_KEY}\` };

export async function restartPod(podId: string): Promise<void> {
  const { statusCode, body } = await request(\`\${REST}/pods/\${podId}/restart\`, { method: "POST", headers });
  if (statusCode >= 400) throw await fail("restartPod", statusCode, body);
  await body.dump();
}

export async function resetPod(podId: string): Promise<void> {
  const { statusCode, body } = await request(\`\${REST}/pods/\${podId}/reset\`, { method: "POST", headers });
  if (statusCode >= 400) throw await fail("resetPod", statusCode, body);
  await body.dump();
}

export async function otherApi(url: string): Promise<void> {
  const { statusCode, body } = await request(url);
  if (statusCode >= 400) throw await fail("otherApi", statusCode, body);
  await body.dump();
}
`;

const CJS_CLIENT = `'use strict';
const API = process.env.RUNPOD_API_URL || 'https://rest.runpod.io/v1';
const auth = { Authorization: 'Bearer ' + process.env.RUNPOD_API_KEY };

function call(method, path, body) {
  return fetch(API + path, {
    method: method,
    headers: { Authorization: 'Bearer ' + process.env.RUNPOD_API_KEY, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  }).then(function (res) {
    if (!res.ok) {
      return res.json().then(function (err) {
        throw new Error(err.message || res.statusText);
      });
    }
    return res.status === 204 ? null : res.json();
  });
}

function removeVolume(id) {
  return fetch(API + '/networkvolumes/' + id, { method: 'DELETE', headers: auth }).then(function (res) {
    if (!res.ok) return res.json().then(function (e) { throw new Error('RunPod: ' + e.message); });
    return null;
  });
}

module.exports = {
  stop: function (id) { return call('POST', '/pods/' + id + '/stop'); },
  reset: function (id) { return call('POST', '/pods/' + id + '/reset'); },
  removeVolume: removeVolume,
};
`;

describe("error bodies handed on, after a partial migration", () => {
  const scope = e2eScope("codemod-error-handed-");
  const other = http.createServer((_req, res) => res.writeHead(503, { "content-type": "application/json" }).end(JSON.stringify({ message: "the other API is down" })));
  afterAll(() => new Promise<void>((done) => other.close(() => done())));

  const rewritten = (name: string, files: Record<string, string>) => scope.rewriteTree(name, files);


  /** What each server says to a failed call, asked directly: v2's problem detail, the gateway's v1 message. */
  async function said() {
    const { sandbox, gateway, ask } = await scope.clientEnv("sandbox_errors");
    const json = { "Content-Type": "application/json" };
    const restart = await ask(`${sandbox.url}/v2/pods/nope/action`, { method: "POST", headers: json, body: JSON.stringify({ action: "restart" }) });
    const stop = await ask(`${sandbox.url}/v2/pods/nope/action`, { method: "POST", headers: json, body: JSON.stringify({ action: "stop" }) });
    const volume = await ask(`${sandbox.url}/v2/network-volumes/nope`, { method: "DELETE" });
    const reset = await ask(`${gateway.url}/v1/pods/nope/reset`, { method: "POST" });
    for (const text of [restart.detail, stop.detail, volume.detail, reset.message]) expect(text).toEqual(expect.any(String));
    return { restart: restart.detail!, stop: stop.detail!, volume: volume.detail!, reset: reset.message! };
  }

  it("keeps the server's message through an undici error helper", async () => {
    const out = await rewritten("undici", { "errors.ts": UNDICI_ERRORS, "client.ts": UNDICI_CLIENT });
    // The helper serves the migrated restart, the reset kept on v1 and another API: it reads both.
    expect(out["errors.ts"]).toContain("parsed?.detail ?? parsed?.message");
    expect(out["client.ts"]).toContain("RUNPOD_V1_BASE");

    const text = await said();
    await new Promise<void>((done) => other.listen(0, "127.0.0.1", done));
    const client = await import(pathToFileURL(path.join(scope.tmp, "undici", "client.ts")).href);
    await expect(client.restartPod("nope")).rejects.toThrow(text.restart);
    await expect(client.resetPod("nope")).rejects.toThrow(text.reset);
    await expect(client.otherApi(`http://127.0.0.1:${(other.address() as AddressInfo).port}/x`)).rejects.toThrow("the other API is down");
  });

  it("keeps it through promise chains in CommonJS", async () => {
    const out = await rewritten("cjs", { "client.cjs": CJS_CLIENT });
    expect(out["client.cjs"]).toContain("(err.detail ?? err.message) || res.statusText");
    expect(out["client.cjs"]).toContain("e.detail");

    const text = await said();
    const mod = await import(pathToFileURL(path.join(scope.tmp, "cjs", "client.cjs")).href);
    const client = mod.default ?? mod;
    await expect(client.stop("nope")).rejects.toThrow(text.stop);
    await expect(client.reset("nope")).rejects.toThrow(text.reset);
    await expect(client.removeVolume("nope")).rejects.toThrow(`RunPod: ${text.volume}`);
  });
});
