// A wretch client, rewritten with `rewrite --write`, run over real HTTP with wretch itself (a
// devDependency for this test) against the strict v2 sandbox: the builder's base, each chain's
// path, method and body, the list and record reads after `.json()`, a lifecycle action, an update
// that becomes PATCH, and an error's message read from `WretchError.json`. The v2 sandbox answers
// errors as `application/problem+json`, which wretch 2 parses into `.json` only when asked
// (`.errorType("json")`, added to the builder by the rewrite): without it the message would read
// undefined.
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { runCodemod } from "../../codemod/project.ts";
import { e2eScope } from "./e2e-servers.ts";

const CLIENT = `import wretch, { type WretchError } from "wretch";

const BASE = process.env.RUNPOD_API_URL ?? "https://rest.runpod.io/v1";
const api = wretch(BASE).auth(\`Bearer \${process.env.RUNPOD_API_KEY}\`);

export async function createPod(name: string): Promise<string> {
  const pod = await api
    .url("/pods")
    .post({ name, imageName: "runpod/base:0.6.2", gpuTypeIds: ["NVIDIA RTX A5000"], gpuCount: 1, containerDiskInGb: 20 })
    .json<{ id: string }>();
  return pod.id;
}

export async function podNames(): Promise<string[]> {
  const pods = await api.url("/pods").get().json<{ name: string }[]>();
  return pods.map((p) => p.name);
}

export const podDisk = (id: string) => api.url(\`/pods/\${id}\`).get().json((pod: { containerDiskInGb: number }) => pod.containerDiskInGb);

export const stopPod = (id: string) => api.url(\`/pods/\${id}/stop\`).post().res();

export const renamePod = (id: string, name: string) => api.url(\`/pods/\${id}/update\`).json({ name }).post().res();

export const startMissing = (id: string) =>
  api
    .url(\`/pods/\${id}/start\`)
    .post()
    .notFound((err) => \`missing: \${err.json?.message}\`)
    .json();

export const dropPod = (id: string) =>
  api
    .url(\`/pods/\${id}\`)
    .delete()
    .res()
    .then((r) => r.status)
    .catch((e: WretchError) => e.json?.message ?? "no message");
`;

const installed = existsSync(path.resolve("node_modules/wretch/package.json"));

describe.skipIf(!installed)("a wretch client, rewritten, against the v2 sandbox", () => {
  const scope = e2eScope("codemod-wretch-");

  it("creates, lists, reads, stops, renames and deletes, and reads the v2 error's detail", async () => {
    const dir = path.join(scope.tmp, "client");
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, "client.ts"), CLIENT);
    const result = await runCodemod({ paths: [dir], write: true, adapter: false });
    const text = readFileSync(path.join(dir, "client.ts"), "utf8");
    expect(result.findings.filter((f) => f.category === "auto")).toHaveLength(7);
    expect(text).toContain('wretch(BASE).errorType("json")');
    expect(text).toContain(".url(`/pods/${id}/action`)");
    expect(text).toContain(".patch()");
    expect(text).toContain("err.json?.detail");
    symlinkSync(path.resolve("node_modules"), path.join(scope.tmp, "node_modules"), "dir");

    const { sandbox, ask } = await scope.clientEnv("sandbox_wretch");
    const client = await import(pathToFileURL(path.join(dir, "client.ts")).href);
    const id: string = await client.createPod("wretch-e2e");
    expect(await client.podNames()).toEqual(["wretch-e2e"]);
    expect(await client.podDisk(id)).toBe(20);
    await client.stopPod(id);
    await client.renamePod(id, "wretch-e2e-2");
    expect(await client.podNames()).toEqual(["wretch-e2e-2"]);
    // v2's problem detail for a pod that does not exist, as the sandbox says it.
    const said = await ask(`${sandbox.url}/v2/pods/nope/action`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ action: "start" }) });
    expect(await client.startMissing("nope")).toBe(`missing: ${said.detail}`);
    expect(await client.dropPod(id)).toBeLessThan(300);
    expect(await client.podNames()).toEqual([]);
    // The rewrite, the servers' start and ten requests: more than the default 30 s on a loaded 2-core machine.
  }, 120_000);
});
