// Helpers over an axios instance, rewritten with `rewrite --write`, then run against a loopback
// server: a call kept on v1 reaches v1 (RUNPOD_V1_BASE) whatever form the helper calls axios in
// (`request(config)`, `http(url)`, a verb, a caller's config forwarded whole), and the migrated calls
// reach v2 in v2 shape. Before, a kept call through `request(config)` got its base as a second
// argument, which axios ignores: it went to v2 in v1 shape.
import { cpSync, readFileSync, symlinkSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCodemod } from "../../codemod/project.ts";
import { FIXTURES } from "./fixture-helpers.ts";
import { e2eScope } from "./e2e-servers.ts";

const V2_ORIGIN = "https://api.runpod.io";

/** What the loopback server answers, by `METHOD /path`. */
const ANSWERS: Record<string, [number, unknown]> = {
  "GET /v1/pods/p1": [200, { id: "p1", costPerHr: 0.44 }],
  "DELETE /v2/pods/p1": [204, undefined],
  "GET /v2/registries/r1": [200, { id: "r1", name: "ghcr" }],
  "GET /v2/network-volumes/nv1": [200, { id: "nv1", name: "models", size: 50, dataCenter: "EU-RO-1" }],
  "GET /v2/network-volumes": [200, { networkVolumes: [{ id: "nv1", name: "models", size: 50, dataCenter: "EU-RO-1" }] }],
  "POST /v2/network-volumes": [201, { id: "nv2", name: "scratch", size: 10, dataCenter: "US-TX-3" }],
  "DELETE /v2/network-volumes/nv2": [204, undefined],
  "POST /v2/pods/p1/action": [200, { id: "p1", status: "RUNNING" }],
};

describe("calls kept on v1 through axios helpers carry a base axios reads", () => {
  const scope = e2eScope("codemod-axios-config-base-");
  const tmp = scope.tmp;
  const seen: string[] = [];
  let server: Server;
  let origin = "";

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        const key = `${req.method} ${req.url}`;
        seen.push(body ? `${key} ${body}` : key);
        const [status, answer] = ANSWERS[key] ?? [404, { message: `no ${key}` }];
        res.writeHead(status, { "content-type": "application/json" }).end(answer === undefined ? undefined : JSON.stringify(answer));
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it("sends each kept call to v1 and the rest to v2", async () => {
    cpSync(path.join(FIXTURES, "helpers/axios-threaded-config/input.ts"), path.join(tmp, "threaded.ts"));
    cpSync(path.join(FIXTURES, "helpers/axios-config-helper/input.ts"), path.join(tmp, "config.ts"));
    symlinkSync(path.resolve("node_modules"), path.join(tmp, "node_modules"), "dir");
    const result = await runCodemod({ paths: [tmp], write: true, adapter: false });
    expect(result.findings.filter((f) => f.category !== "auto").map((f) => f.operation)).toEqual(["GetPod", "GetPod", "GetPod", "GetPod"]);
    expect(readFileSync(path.join(tmp, "threaded.ts"), "utf8")).toContain("{ ...config, baseURL: runpodBase ?? config.baseURL }");

    process.env.RUNPOD_V1_BASE = `${origin}/v1`;
    const threaded = await import(pathToFileURL(path.join(tmp, "threaded.ts")).href);
    const config = await import(pathToFileURL(path.join(tmp, "config.ts")).href);
    // The public v2 host is served by the loopback server.
    for (const instance of [threaded.http, config.client]) {
      instance.interceptors.request.use((c: { baseURL?: string }) => {
        if (c.baseURL?.startsWith(V2_ORIGIN)) c.baseURL = origin + c.baseURL.slice(V2_ORIGIN.length);
        return c;
      });
    }

    expect(await threaded.costViaRun("p1")).toBe(0.44);
    expect(await threaded.costViaRead("p1")).toBe(0.44);
    expect(await threaded.costViaGet("p1")).toBe(0.44);
    await threaded.terminatePod("p1");
    expect(await threaded.registryName("r1")).toBe("ghcr");
    expect(await threaded.volumeName("nv1")).toBe("models");
    expect(await config.hourlyCost("p1")).toBe(0.44);
    expect(await config.createVolume("scratch", 10, "US-TX-3")).toBe("nv2 in US-TX-3");
    expect(await config.volumeNames()).toEqual(["models"]);
    await config.removeVolume("nv2");
    await config.restartPod("p1");

    expect(seen).toEqual([
      "GET /v1/pods/p1",
      "GET /v1/pods/p1",
      "GET /v1/pods/p1",
      "DELETE /v2/pods/p1",
      "GET /v2/registries/r1",
      "GET /v2/network-volumes/nv1",
      "GET /v1/pods/p1",
      `POST /v2/network-volumes {"name":"scratch","size":10,"dataCenter":"US-TX-3"}`,
      "GET /v2/network-volumes",
      "DELETE /v2/network-volumes/nv2",
      `POST /v2/pods/p1/action {"action":"restart"}`,
    ]);
  }, 120_000); // a codemod run on two shared cores
});
