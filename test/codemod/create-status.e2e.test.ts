// Status checks after creates, over real HTTP: v2 answers the creates of volumes, registries and
// templates 201 where v1 answered 200 (the gateway keeps 200 for v1 clients). A client checking
// `res.status !== 200` works through the gateway; migrated with the check left as it was (what
// the engine wrote before), every successful create on v2 takes the failure branch; as rewritten,
// each check follows the table's v2 status and the creates succeed.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { runCodemod } from "../../codemod/project.ts";
import { e2eScope } from "./e2e-servers.ts";

const KEY = "sandbox_create_status";

const CLIENT = `import axios from "axios";
const API = process.env.RUNPOD_REST ?? "https://rest.runpod.io/v1";
const headers = () => ({ Authorization: \`Bearer \${process.env.RUNPOD_API_KEY}\`, "Content-Type": "application/json" });

export async function createVolume(name: string): Promise<string> {
  const res = await fetch(\`\${API}/networkvolumes\`, { method: "POST", headers: headers(), body: JSON.stringify({ name, size: 10, dataCenterId: "EU-RO-1" }) });
  if (res.status !== 200) throw new Error(\`volume not created: \${res.status}\`);
  return ((await res.json()) as { id: string }).id;
}

export async function createRegistry(name: string): Promise<string> {
  const { status, data } = await axios.post<{ id: string }>(\`\${API}/containerregistryauth\`, { name, username: "u", password: "p" }, { headers: headers() });
  if (status !== 200) throw new Error(\`registry not created: \${status}\`);
  return data.id;
}

export async function createTemplate(name: string): Promise<string> {
  const res = await fetch(\`\${API}/templates\`, { method: "POST", headers: headers(), body: JSON.stringify({ name, imageName: "nginx:latest" }) });
  switch (res.status) {
    case 200:
      return ((await res.json()) as { id: string }).id;
    default:
      throw new Error(\`template not created: \${res.status}\`);
  }
}
`;

describe("status checks after creates follow v2's 201", () => {
  const scope = e2eScope("codemod-create-status-");
  const tmp = scope.tmp;

  it("the v1 client works through the gateway, the old migration fails every create on v2, the rewrite succeeds", async () => {
    const write = (dir: string, text: string) => {
      mkdirSync(path.join(tmp, dir));
      writeFileSync(path.join(tmp, dir, "client.ts"), text);
      return pathToFileURL(path.join(tmp, dir, "client.ts")).href;
    };
    const v1Client = write("v1", CLIENT);
    const fixedClient = write("fixed", CLIENT);
    const result = await runCodemod({ paths: [path.join(tmp, "fixed")], write: true, adapter: false });
    const text = readFileSync(path.join(tmp, "fixed", "client.ts"), "utf8");
    expect(text).toContain("if (res.status !== 201)");
    expect(text).toContain("if (status !== 201)");
    expect(text).toContain("case 201:");
    // Only the base's environment variable is left to a human; every call is migrated.
    expect(result.findings.filter((f) => f.category !== "auto").map((f) => f.operation)).toEqual([null]);
    // The same migration with v1's 200 left in the checks: what the engine wrote before.
    const oldClient = write("old", text.replace("res.status !== 201", "res.status !== 200").replace("status !== 201", "status !== 200").replace("case 201:", "case 200:"));

    const { sandbox, gateway } = await scope.servers();
    process.env.RUNPOD_API_KEY = KEY;
    process.env.RUNPOD_REST = `${gateway.url}/v1`;
    process.env.RUNPOD_REST_V2 = `${sandbox.url}/v2`;

    const v1 = await import(v1Client);
    expect(await v1.createVolume("through-gateway")).toMatch(/\S/);
    expect(await v1.createRegistry("through-gateway")).toMatch(/\S/);
    expect(await v1.createTemplate("through-gateway")).toMatch(/\S/);

    const old = await import(oldClient);
    await expect(old.createVolume("old-migration")).rejects.toThrow("volume not created: 201");
    await expect(old.createRegistry("old-migration")).rejects.toThrow("registry not created: 201");
    await expect(old.createTemplate("old-migration")).rejects.toThrow("template not created: 201");

    const fixed = await import(fixedClient);
    const id: string = await fixed.createVolume("rewritten");
    const got = await fetch(`${sandbox.url}/v2/network-volumes/${id}`, { headers: { Authorization: `Bearer ${KEY}` } });
    expect(((await got.json()) as { name: string }).name).toBe("rewritten");
    expect(await fixed.createRegistry("rewritten")).toMatch(/\S/);
    expect(await fixed.createTemplate("rewritten")).toMatch(/\S/);
  });
});
