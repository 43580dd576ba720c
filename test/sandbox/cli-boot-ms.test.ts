// `v2-bridge sandbox --boot-ms N` as an operator runs it: a real process whose pods boot over N ms,
// and a bad value refused before anything listens.
import { spawn, spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { BUILT_CLI } from "../helpers/cli.ts";
import { waitForUrl } from "../helpers/processes.ts";
import { missingReference, refSuite } from "../helpers/reference.ts";

const BIN = BUILT_CLI;

describe.skipIf(missingReference)(refSuite("v2-bridge sandbox --boot-ms"), () => {
  it("boots pods over the given time: a long boot keeps a new pod PROVISIONING", async () => {
    const child = spawn(process.execPath, [BIN, "sandbox", "--port", "0", "--boot-ms", "600000"], { stdio: ["ignore", "pipe", "pipe"] });
    try {
      const url = await waitForUrl(child, 20_000);
      const headers = { authorization: "Bearer sandbox_demo", "content-type": "application/json" };
      const created = await fetch(`${url}/v2/pods`, { method: "POST", headers, body: JSON.stringify({ name: "p", image: "img:1", gpu: { id: "NVIDIA L4" } }) });
      const pod = (await created.json()) as { id: string; status: string };
      expect([created.status, pod.status]).toEqual([201, "PROVISIONING"]);
      const again = (await (await fetch(`${url}/v2/pods/${pod.id}`, { headers })).json()) as { status: string };
      expect(again.status).toBe("PROVISIONING");
    } finally {
      child.kill("SIGTERM");
      if (child.exitCode === null) setTimeout(() => child.exitCode === null && child.kill("SIGKILL"), 10_000).unref();
    }
  });

  it("refuses a negative --boot-ms", () => {
    const r = spawnSync(process.execPath, [BIN, "sandbox", "--boot-ms", "-5"], { encoding: "utf8", timeout: 20_000 });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/invalid --boot-ms '-5'/);
  });
});
