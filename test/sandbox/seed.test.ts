// `sandbox --seed`: the same calls make the same ids, times and boot progress on every run, which
// is what lets `v2-bridge verify` compare two runs record by record. Unseeded sandboxes differ.
import { spawn } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { BUILT_CLI } from "../helpers/cli.ts";
import { startSandbox, type Sandbox } from "../../sandbox/server.ts";
import { waitForUrl } from "../helpers/processes.ts";

const BIN = BUILT_CLI;
const headers = { authorization: "Bearer sandbox_seed", "content-type": "application/json" };

/** One short session: a pod (booting over 3 calls), a volume, a template, reads in between. */
async function session(url: string, requestIds: string[] = []): Promise<unknown[]> {
  let n = 0;
  const call = async (method: string, p: string, body?: unknown) => {
    const id = requestIds[n++];
    const res = await fetch(url + p, { method, headers: { ...headers, ...(id ? { "x-request-id": id } : {}) }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, body: res.status === 204 ? null : await res.json() };
  };
  const pod = await call("POST", "/v2/pods", { name: "seeded", image: "runpod/base:0.6.2", gpu: { id: "NVIDIA L4" }, startJupyter: true, globalNetworking: true, dataCenterIds: ["EU-RO-1"] });
  const id = (pod.body as { id: string }).id;
  const reads = [];
  for (let i = 0; i < 4; i++) reads.push(await call("GET", `/v2/pods/${id}`));
  return [
    pod,
    reads,
    await call("POST", "/v2/network-volumes", { name: "vol", size: 10, dataCenterId: "EU-RO-1" }),
    await call("POST", "/v2/templates", { name: "tpl", image: "runpod/base:0.6.2" }),
    await call("GET", "/v2/billing/pods?bucketSize=day"),
  ];
}

describe("seeded sandbox", () => {
  const open: Sandbox[] = [];
  afterEach(async () => {
    for (const s of open.splice(0)) await s.close();
  });
  const start = async (seed?: string) => {
    const s = await startSandbox({ openapiPath: false, warn: () => {}, bootMs: 3_000, rateLimit: false, seed });
    open.push(s);
    return s;
  };

  it("the same seed gives the same answers, byte for byte: ids, times, passwords, boot phases", async () => {
    const a = await session((await start("42")).url);
    const b = await session((await start("42")).url);
    expect(b).toEqual(a);
    const pod = (a[0] as { body: { id: string; createdAt: string; env: Record<string, string> } }).body;
    expect(pod.id).toMatch(/^[a-z0-9]{14}$/);
    expect(pod.createdAt).toBe("2026-01-01T00:00:01.000Z"); // one call after the seeded epoch
    expect(pod.env.JUPYTER_PASSWORD).toMatch(/^[a-z0-9]{20}$/);
    // Boot timing on the virtual clock: 3000 ms at 1 s per call → PROVISIONING, STARTING, RUNNING.
    expect((a[1] as { body: { status: string } }[]).map((r) => r.body.status)).toEqual(["PROVISIONING", "STARTING", "RUNNING", "RUNNING"]);
  });

  it("another seed, or none, gives other ids", async () => {
    const seeded = await session((await start("42")).url);
    const other = await session((await start("43")).url);
    const unseeded = await session((await start()).url);
    const id = (r: unknown[]) => (r[0] as { body: { id: string } }).body.id;
    expect(id(other)).not.toBe(id(seeded));
    expect(id(unseeded)).not.toBe(id(seeded));
    expect((unseeded[0] as { body: { createdAt: string } }).body.createdAt.startsWith("2026-01-01T00:00:01")).toBe(false);
  });

  it("requests sharing an x-request-id move the clock once (the gateway's several calls for one v1 call)", async () => {
    // Create and the first read share an id: the read is still the create's call, so the pod is
    // one step younger at each later read than without the shared id.
    const shared = await session((await start("7")).url, ["call-1", "call-1", "call-2", "call-3", "call-4"]);
    expect((shared[1] as { body: { status: string } }[]).map((r) => r.body.status)).toEqual(["PROVISIONING", "PROVISIONING", "STARTING", "RUNNING"]);
  });

  it("v2-bridge sandbox --seed: a real process says it is seeded and answers seeded ids", async () => {
    const child = spawn(process.execPath, [BIN, "sandbox", "--port", "0", "--no-validation", "--seed", "42", "--boot-ms", "3000"], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString()));
    try {
      const url = await waitForUrl(child, 20_000);
      const viaCli = await session(url);
      const inProcess = await session((await start("42")).url);
      // Rate-limit headers aside (not in the bodies), the CLI's sandbox is the same seeded sandbox.
      expect(viaCli).toEqual(inProcess);
      expect(out).toContain('seeded ("42")');
    } finally {
      child.kill("SIGTERM");
    }
  });
});
