// A pod action chosen at run time from a set (`/pods/${id}/${action}` behind `ACTIONS.has(action)`)
// after `rewrite --write`, run for real: the rewritten call sends each action to the strict v2
// sandbox as `POST /v2/pods/{id}/action` with the action in a JSON body, and the pod's state
// follows; a set that holds `reset` (no v2 equivalent) stays whole on v1 through the gateway.
// Before, both calls kept the v1 base and went through the gateway.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { runCodemod } from "../../codemod/project.ts";
import { e2eScope } from "./e2e-servers.ts";

const CLIENT = `const BASE = process.env.RUNPOD_API_URL ?? "https://rest.runpod.io/v1";
const headers = { Authorization: \`Bearer \${process.env.RUNPOD_API_KEY}\` };
const ACTIONS = new Set(["start", "stop", "restart"]);

export async function podAction(id: string, action: string): Promise<void> {
  if (!ACTIONS.has(action)) throw new Error(\`bad action \${action}\`);
  const res = await fetch(\`\${BASE}/pods/\${id}/\${action}\`, { method: "POST", headers });
  if (!res.ok) throw new Error(\`\${action}: \${res.status}\`);
}

export async function maintenance(id: string, step: "stop" | "reset"): Promise<void> {
  const res = await fetch(\`\${BASE}/pods/\${id}/\${step}\`, { method: "POST", headers });
  if (!res.ok) throw new Error(\`\${step}: \${res.status}\`);
}
`;

describe("a pod action chosen from a set, after the rewrite", () => {
  const scope = e2eScope("codemod-action-set-");
  const tmp = scope.tmp;

  it("sends each action to v2 with the action in the body; the set with reset goes through the gateway", async () => {
    writeFileSync(path.join(tmp, "client.ts"), CLIENT);
    const result = await runCodemod({ paths: [tmp], write: true, adapter: false });
    const text = readFileSync(path.join(tmp, "client.ts"), "utf8");
    // In TypeScript the action (a plain string, proven by the guard) is cast to the set's union.
    expect(text).toMatch(/body: JSON\.stringify\(\{ action: action as "start" \| "stop" \| "restart" \}\)/);
    const sites = result.findings.filter((f) => f.operation?.includes("Pod")).map((f) => `${f.operation} ${f.category}`);
    expect(sites.sort()).toEqual(["StartPod|StopPod|RestartPod auto", "StopPod|ResetPod review"]);

    const { sandbox, gateway } = await scope.servers();
    process.env.RUNPOD_API_URL_V2 = `${sandbox.url}/v2`;
    process.env.RUNPOD_API_KEY = "sandbox_action_set";
    const auth = { Authorization: "Bearer sandbox_action_set", "Content-Type": "application/json" };

    const made = await fetch(`${gateway.url}/v1/pods`, { method: "POST", headers: auth, body: JSON.stringify({ name: "action-set", imageName: "nginx:latest", gpuTypeIds: ["NVIDIA GeForce RTX 4090"], gpuCount: 1 }) });
    expect(made.ok).toBe(true);
    const podId = ((await made.json()) as { id: string }).id;
    const realFetch = globalThis.fetch;
    const status = async () => ((await (await realFetch(`${sandbox.url}/v2/pods/${podId}`, { headers: auth })).json()) as { status: string }).status;
    const seen = scope.recordFetch(gateway.url);

    const client = await import(pathToFileURL(path.join(tmp, "client.ts")).href);
    await client.podAction(podId, "stop");
    expect(await status()).toBe("EXITED");
    await client.podAction(podId, "start");
    expect(await status()).toBe("RUNNING");
    await client.podAction(podId, "restart");
    expect(await status()).toBe("RUNNING");
    await expect(client.podAction(podId, "reset")).rejects.toThrow("bad action reset");
    await client.maintenance(podId, "stop");
    expect(await status()).toBe("EXITED");
    await expect(client.maintenance(podId, "reset")).rejects.toThrow("reset: 400");

    expect(seen).toEqual([
      `POST v2 /v2/pods/${podId}/action`,
      `POST v2 /v2/pods/${podId}/action`,
      `POST v2 /v2/pods/${podId}/action`,
      `POST gateway /v1/pods/${podId}/stop`,
      `POST gateway /v1/pods/${podId}/reset`,
    ]);
  }, 60_000);
});
