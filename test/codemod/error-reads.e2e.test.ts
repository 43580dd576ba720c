// The error text of a failed call survives the migration, for calls that move to v2 and calls
// kept on v1, when it is read in shared code: an axios interceptor and a fetch response check,
// each serving both kinds of call. The client is rewritten (`rewrite --write`) and run over real
// HTTP: migrated calls against the strict v2 sandbox (RFC 9457 problems, `detail`), kept calls
// through the gateway's /v1 (v1 `{ message }`). Each failure must carry the server's own text.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { runCodemod } from "../../codemod/project.ts";

const CLIENT = `import axios from "axios";

const BASE = process.env.RUNPOD_API_URL ?? "https://rest.runpod.io/v1";
const headers = { Authorization: \`Bearer \${process.env.RUNPOD_API_KEY}\` };

const api = axios.create({ baseURL: BASE, headers });
api.interceptors.response.use((r) => r, (error) => Promise.reject(new Error(error.response?.data?.message ?? "no message")));

export async function stopPod(podId: string): Promise<void> {
  await api.post(\`/pods/\${podId}/stop\`);
}

export async function resetPod(podId: string): Promise<void> {
  await api.post(\`/pods/\${podId}/reset\`);
}

async function unwrap(res: Response) {
  if (!res.ok) {
    const body = await res.json();
    throw new Error(body.message ?? "no message");
  }
  return res.json();
}

export async function deleteTemplate(id: string) {
  return unwrap(await fetch(\`\${BASE}/templates/\${id}\`, { method: "DELETE", headers }));
}

export async function resetPodNow(podId: string) {
  return unwrap(await fetch(\`\${BASE}/pods/\${podId}/reset\`, { method: "POST", headers }));
}
`;

describe("error text read in shared code, after a partial migration", () => {
  const closers: (() => Promise<unknown>)[] = [];
  const tmp = mkdtempSync(path.join(os.tmpdir(), "codemod-error-reads-"));
  const saved = { ...process.env };
  afterAll(async () => {
    for (const close of closers.reverse()) await close();
    process.env = saved;
    rmSync(tmp, { recursive: true, force: true });
  });

  it("keeps the server's message for migrated and kept calls alike", async () => {
    writeFileSync(path.join(tmp, "client.ts"), CLIENT);
    await runCodemod({ paths: [tmp], write: true });
    const text = readFileSync(path.join(tmp, "client.ts"), "utf8");
    // Both shared reads serve a call on v2 and a call kept on v1: they read both fields.
    expect(text).toContain("error.response?.data?.detail ?? error.response?.data?.message");
    expect(text).toContain("body.detail ?? body.message");
    expect(text).toContain("RUNPOD_V1_BASE");

    const { startSandbox } = await import("../../sandbox/server.ts");
    const { startGateway } = await import("../../gateway/server.ts");
    const sandbox = await startSandbox({ port: 0, bootMs: 0, warn: () => {} } as any);
    closers.push(() => sandbox.close());
    const gateway = await startGateway({ upstream: sandbox.url, port: 0, timeoutMs: 5_000 } as any);
    closers.push(() => gateway.close());
    process.env.RUNPOD_V1_BASE = `${gateway.url}/v1`;
    process.env.RUNPOD_API_URL_V2 = `${sandbox.url}/v2`;
    process.env.RUNPOD_API_KEY = "sandbox_errors";
    const auth = { Authorization: `Bearer ${process.env.RUNPOD_API_KEY}` };

    // What each server says, asked directly: v2's problem detail, the gateway's v1 message.
    type Said = { detail?: string; message?: string };
    const v2Stop = (await (await fetch(`${sandbox.url}/v2/pods/nope/action`, { method: "POST", headers: { ...auth, "Content-Type": "application/json" }, body: JSON.stringify({ action: "stop" }) })).json()) as Said;
    const v2Template = (await (await fetch(`${sandbox.url}/v2/templates/nope`, { method: "DELETE", headers: auth })).json()) as Said;
    const v1Reset = (await (await fetch(`${gateway.url}/v1/pods/nope/reset`, { method: "POST", headers: auth })).json()) as Said;
    for (const said of [v2Stop.detail, v2Template.detail, v1Reset.message]) expect(said).toEqual(expect.any(String));

    const client = await import(pathToFileURL(path.join(tmp, "client.ts")).href);
    await expect(client.stopPod("nope")).rejects.toThrow(v2Stop.detail!);
    await expect(client.resetPod("nope")).rejects.toThrow(v1Reset.message!);
    await expect(client.deleteTemplate("nope")).rejects.toThrow(v2Template.detail!);
    await expect(client.resetPodNow("nope")).rejects.toThrow(v1Reset.message!);
  });
});
