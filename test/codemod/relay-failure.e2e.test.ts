// A route that relays v1's answer as it came, failures included (`res.status(r.status).json(await
// r.json())`), over real HTTP. The record leaves sight, so the rewrite puts it through the adapter;
// with no status test the adapter is also handed v2's error answers. Through the gateway a missing
// pod answers 404 `{ message }`; the rewritten relay must answer the same, not a pod made of nothing
// (what the adapter answered before: `{ desiredStatus: "RUNNING" }`), and a list must not throw.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { runCodemod } from "../../codemod/project.ts";
import { e2eScope } from "./e2e-servers.ts";

const KEY = "sandbox_relay_failure";

const CLIENT = `const API = process.env.RUNPOD_REST ?? "https://rest.runpod.io/v1";
const auth = () => ({ Authorization: \`Bearer \${process.env.RUNPOD_API_KEY}\` });

export async function relayPod(id: string): Promise<{ status: number; body: unknown }> {
  const r = await fetch(\`\${API}/pods/\${id}\`, { headers: auth() });
  return { status: r.status, body: await r.json() };
}

export async function relayPods(): Promise<{ status: number; body: unknown }> {
  const r = await fetch(\`\${API}/pods\`, { headers: auth() });
  return { status: r.status, body: await r.json() };
}
`;

describe("a relayed answer keeps v1's error body on the failure side", () => {
  const scope = e2eScope("codemod-relay-failure-");
  const tmp = scope.tmp;

  it("the rewritten relay answers a missing pod and a refused key as the gateway does", async () => {
    const write = (dir: string) => {
      mkdirSync(path.join(tmp, dir));
      writeFileSync(path.join(tmp, dir, "client.ts"), CLIENT);
      return pathToFileURL(path.join(tmp, dir, "client.ts")).href;
    };
    const v1Client = write("v1");
    const fixedClient = write("fixed");
    await runCodemod({ paths: [path.join(tmp, "fixed")], write: true });
    const text = readFileSync(path.join(tmp, "fixed", "client.ts"), "utf8");
    expect(text).toContain("v2Adapter.toV1Record.pod(await r.json())");
    expect(text).toContain('v2Adapter.toV1List(await r.json(), "ListPods")');
    expect(text).toContain("process.env.RUNPOD_REST_V2");

    const { sandbox, gateway } = await scope.servers();
    process.env.RUNPOD_REST = `${gateway.url}/v1`;
    const v1 = await import(v1Client);
    process.env.RUNPOD_API_KEY = KEY;
    const v1Missing = await v1.relayPod("no-such-pod");
    process.env.RUNPOD_API_KEY = "";
    const v1Refused = await v1.relayPods();

    // The rewritten base reads its own variable (the old one named a v1 base).
    process.env.RUNPOD_REST_V2 = `${sandbox.url}/v2`;
    const fixed = await import(fixedClient);
    process.env.RUNPOD_API_KEY = KEY;
    const missing = await fixed.relayPod("no-such-pod");
    process.env.RUNPOD_API_KEY = "";
    const refused = await fixed.relayPods();

    expect(v1Missing.status).toBe(404);
    expect(v1Missing.body).toEqual({ message: expect.any(String) });
    expect(missing).toEqual(v1Missing);
    expect(v1Refused.status).toBe(401);
    expect(refused).toEqual(v1Refused);
    expect(refused.body).toEqual({ message: expect.stringContaining("malformed authorization header") });
    // The success side still converts: the list through the gateway and the rewrite agree on its length.
    process.env.RUNPOD_API_KEY = KEY;
    expect((await fixed.relayPods()).body).toEqual([]);
  });
});
