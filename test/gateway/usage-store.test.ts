// Usage that outlives the process: a state directory keeps the fingerprint salt and the local
// usage store, so a restart neither loses the history nor renames the clients. (The command's
// default directory, ./.v2-bridge, is checked by cli-signal.test.ts.)
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { checkUsage } from "../../report/index.ts";
import { startRig } from "./helpers.ts";

const scratch = () => mkdtempSync(path.join(os.tmpdir(), "v2b-usage-"));

async function listPods(base: string, key: string, userAgent: string, times: number): Promise<void> {
  for (let i = 0; i < times; i++) {
    const res = await fetch(`${base}/v1/pods`, { headers: { authorization: `Bearer ${key}`, "user-agent": userAgent } });
    if (res.status !== 200) throw new Error(`GET /v1/pods → ${res.status} ${await res.text()}`);
  }
}

const usageOf = async (adminUrl: string) => (await fetch(`${adminUrl}/_bridge/usage`)).json() as Promise<any>;
const client = (usage: any, userAgent: string) => usage.clients.find((c: any) => c.userAgent === userAgent);

describe("local usage store across a restart", () => {
  it("keeps counts and fingerprints", async () => {
    const stateDir = path.join(scratch(), ".v2-bridge");
    const first = await startRig({ gateway: { stateDir } });
    let before: any;
    try {
      await listPods(first.gateway.url, "sandbox_restart_one", "job/1", 3);
      await listPods(first.gateway.url, "sandbox_restart_two", "job/2", 1);
      before = await usageOf(first.gateway.adminUrl);
    } finally {
      await first.close();
    }
    const saved = JSON.parse(readFileSync(path.join(stateDir, "usage.json"), "utf8"));
    expect(checkUsage(saved)).toEqual({ ok: true });
    expect(saved.totals.requests).toBe(4);
    expect(statSync(path.join(stateDir, "fingerprint-salt")).mode & 0o777).toBe(0o600);

    const second = await startRig({ gateway: { stateDir } });
    try {
      await listPods(second.gateway.url, "sandbox_restart_one", "job/1", 2);
      const after = await usageOf(second.gateway.adminUrl);
      expect(after.totals).toMatchObject({ requests: 6, clients: 2 });
      expect(after.operations).toEqual([expect.objectContaining({ key: "ListPods", count: 6, clients: 2, statuses: { "200": 6 } })]);
      expect(client(after, "job/1")).toMatchObject({ fingerprint: client(before, "job/1").fingerprint, count: 5, operations: { ListPods: expect.objectContaining({ count: 5 }) } });
      expect(client(after, "job/2")).toMatchObject({ fingerprint: client(before, "job/2").fingerprint, count: 1 });
      expect(Date.parse(after.since)).toBe(Date.parse(before.since));
    } finally {
      await second.close();
    }
  });
});

describe("local usage store keeps what v2 drops", () => {
  it("drop counts survive a restart and add up", async () => {
    const stateDir = path.join(scratch(), ".v2-bridge");
    const dropping = async (base: string) => {
      const res = await fetch(`${base}/v1/pods?includeSavingsPlans=true`, { headers: { authorization: "Bearer sandbox_drops", "user-agent": "drops/1" } });
      expect(res.status).toBe(200);
    };
    const first = await startRig({ gateway: { stateDir } });
    try {
      await dropping(first.gateway.url);
    } finally {
      await first.close();
    }
    const saved = JSON.parse(readFileSync(path.join(stateDir, "usage.json"), "utf8"));
    expect(checkUsage(saved)).toEqual({ ok: true });
    expect(saved.drops).toEqual([{ key: "ListPods", field: "includeSavingsPlans", count: 1, clients: 1 }]);

    const second = await startRig({ gateway: { stateDir } });
    try {
      await dropping(second.gateway.url);
      const after = await usageOf(second.gateway.adminUrl);
      expect(after.drops).toEqual([{ key: "ListPods", field: "includeSavingsPlans", count: 2, clients: 1 }]);
      expect(client(after, "drops/1").drops).toEqual({ ListPods: { includeSavingsPlans: 2 } });
    } finally {
      await second.close();
    }
  });
});

describe("local usage store (in code)", () => {
  it("saves periodically while running, not only on shutdown", async () => {
    const stateDir = scratch();
    const rig = await startRig({ gateway: { stateDir, usageFlushMs: 50 } });
    try {
      await listPods(rig.gateway.url, "sandbox_periodic", "periodic/1", 2);
      const file = path.join(stateDir, "usage.json");
      const deadline = Date.now() + 10_000;
      let saved: any;
      while (Date.now() < deadline) {
        saved = existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : undefined;
        if (saved?.totals.requests === 2) break;
        await new Promise((r) => setTimeout(r, 25));
      }
      expect(saved?.totals.requests).toBe(2);
    } finally {
      await rig.close();
    }
  });

  it("moves a damaged store aside and starts counting from zero", async () => {
    const stateDir = scratch();
    writeFileSync(path.join(stateDir, "usage.json"), '{"totals": "not a snapshot"');
    const rig = await startRig({ gateway: { stateDir } });
    try {
      await listPods(rig.gateway.url, "sandbox_damaged", "damaged/1", 1);
      expect((await usageOf(rig.gateway.adminUrl)).totals.requests).toBe(1);
      expect(readdirSync(stateDir).filter((f) => f.startsWith("usage.json.damaged-"))).toHaveLength(1);
    } finally {
      await rig.close();
    }
  });

  it("a given salt wins over the state directory; without either the salt is per process", async () => {
    const fingerprintOf = async (gateway: Partial<Parameters<typeof startRig>[0] & object>["gateway"]) => {
      const rig = await startRig({ gateway });
      try {
        await listPods(rig.gateway.url, "sandbox_salted", "salt/1", 1);
        return client(await usageOf(rig.gateway.adminUrl), "salt/1").fingerprint as string;
      } finally {
        await rig.close();
      }
    };
    const stateDir = scratch();
    const fromDir = await fingerprintOf({ stateDir, usageStore: "memory" });
    expect(await fingerprintOf({ stateDir, usageStore: "memory" })).toBe(fromDir);
    expect(readFileSync(path.join(stateDir, "fingerprint-salt"), "utf8").trim()).toMatch(/^[0-9a-f]{64}$/);
    const given = await fingerprintOf({ stateDir, fingerprintSalt: "fleet-salt-0123456789" });
    expect(given).not.toBe(fromDir);
    expect(await fingerprintOf({ fingerprintSalt: "fleet-salt-0123456789" })).toBe(given);
    expect(await fingerprintOf({})).not.toBe(await fingerprintOf({}));
  });
});
