// v1 list filters moved to the client, run for real: a small client (filters in the URL text,
// axios `params` with a run-time value, an MCP-like handler appending `params.gpuTypeId` and
// `params.computeType` under `if`) is copied twice; one copy runs as v1 code through the gateway's
// /v1 (which filters), the other after `rewrite --write` straight against the strict v2 sandbox
// (it answers 422 to any query parameter v2 does not document). With pods of both compute types
// and two states, every call returns what the v1 code gets from the gateway.
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { runCodemod } from "../../codemod/project.ts";
import { REPO_ROOT } from "../../openapi/reference.ts";
import { e2eScope } from "./e2e-servers.ts";

const CLIENT = `import axios from "axios";
const REST = process.env.RUNPOD_REST ?? "https://rest.runpod.io/v1";
const auth = { Authorization: \`Bearer \${process.env.RUNPOD_API_KEY}\` };
const http = axios.create({ baseURL: REST, headers: auth });
type Row = { id: string };

export async function busyGpuPods(): Promise<string[]> {
  const res = await fetch(\`\${REST}/pods?computeType=GPU&desiredStatus=RUNNING\`, { headers: auth });
  const pods = (await res.json()) as Row[];
  return pods.map((p) => p.id).sort();
}

export async function podsIn(status?: string): Promise<string[]> {
  const { data } = await http.get<Row[]>("/pods", { params: { desiredStatus: status } });
  return data.map((p) => p.id).sort();
}

export async function listPodsTool(params: { gpuTypeId?: string; computeType?: string }) {
  const query = new URLSearchParams();
  if (params.gpuTypeId) query.append("gpuTypeId", params.gpuTypeId);
  if (params.computeType) {
    query.append("computeType", params.computeType);
  }
  const qs = query.toString() ? \`?\${query}\` : "";
  const res = await fetch(\`\${REST}/pods\${qs}\`, { headers: auth });
  const pods = await res.json();
  return { content: [{ type: "text", text: JSON.stringify(pods.map((p: Row) => p.id).sort()) }] };
}
`;

describe("v1 list filters on the client, run after the rewrite", () => {
  const scope = e2eScope("codemod-list-filters-");

  it("the rewritten calls reach v2 without filters and return what the gateway gives the v1 code", async () => {
    const v1Dir = path.join(scope.tmp, "v1");
    const v2Dir = path.join(scope.tmp, "v2");
    for (const dir of [v1Dir, v2Dir]) {
      mkdirSync(dir);
      writeFileSync(path.join(dir, "client.ts"), CLIENT);
      writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "c", type: "module" }));
      symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(dir, "node_modules"));
    }
    const result = await runCodemod({ paths: [v2Dir], write: true });
    const marked = result.findings.filter((f) => f.operation && f.category !== "auto");
    expect(marked.map((f) => `${f.operation}: ${f.reason}`)).toEqual([]);

    const { sandbox, gateway } = await scope.servers();
    process.env.RUNPOD_API_KEY = "sandbox_list_filters";
    const headers = { Authorization: "Bearer sandbox_list_filters", "Content-Type": "application/json" };
    const v1 = async (p: string, body: unknown) => ((await (await fetch(`${gateway.url}/v1${p}`, { method: "POST", headers, body: JSON.stringify(body) })).json()) as { id: string }).id;
    await v1("/pods", { name: "g1", imageName: "busybox", gpuTypeIds: ["NVIDIA RTX A5000"] });
    await v1("/pods", { name: "g2", imageName: "busybox", gpuTypeIds: ["NVIDIA GeForce RTX 4090"] });
    const stopped = await v1("/pods", { name: "g3", imageName: "busybox", gpuTypeIds: ["NVIDIA RTX A5000"] });
    await v1("/pods", { name: "c1", imageName: "busybox", computeType: "CPU", cpuFlavorIds: ["cpu3c"] });
    await fetch(`${gateway.url}/v1/pods/${stopped}/stop`, { method: "POST", headers });

    const seen = scope.recordFetch(gateway.url, { query: true });
    process.env.RUNPOD_REST = `${gateway.url}/v1`;
    const before = await import(pathToFileURL(path.join(v1Dir, "client.ts")).href);
    const viaGateway = {
      busy: await before.busyGpuPods(),
      all: await before.podsIn(),
      exited: await before.podsIn("EXITED"),
      a5000: await before.listPodsTool({ gpuTypeId: "NVIDIA RTX A5000" }),
      cpu: await before.listPodsTool({ computeType: "CPU" }),
      none: await before.listPodsTool({ gpuTypeId: "", computeType: "GPU" }),
    };
    process.env.RUNPOD_REST_V2 = `${sandbox.url}/v2`;
    seen.length = 0;
    const after = await import(pathToFileURL(path.join(v2Dir, "client.ts")).href);
    const onV2 = {
      busy: await after.busyGpuPods(),
      all: await after.podsIn(),
      exited: await after.podsIn("EXITED"),
      a5000: await after.listPodsTool({ gpuTypeId: "NVIDIA RTX A5000" }),
      cpu: await after.listPodsTool({ computeType: "CPU" }),
      none: await after.listPodsTool({ gpuTypeId: "", computeType: "GPU" }),
    };
    // The filters did filter (both compute types, both states), and the v2 code agrees.
    expect(viaGateway.busy).toHaveLength(2);
    expect(viaGateway.exited).toEqual([stopped]);
    expect(JSON.parse(viaGateway.cpu.content[0].text)).toHaveLength(1);
    expect(viaGateway.all).toHaveLength(4);
    expect(onV2).toEqual(viaGateway);
    // fetch's requests (axios uses its own adapter): the bare v2 list, nothing through the gateway.
    expect(seen).toEqual(["GET v2 /v2/pods", "GET v2 /v2/pods", "GET v2 /v2/pods", "GET v2 /v2/pods"]);
  }, 120_000); // a codemod run, a sandbox and a gateway, on two shared cores
});
