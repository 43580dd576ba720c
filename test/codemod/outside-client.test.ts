// Do no harm for clients that outside code makes from a v1 base: the base flips only when every
// use of the client is a planned call. RTK Query's `fetchBaseQuery({ baseUrl })` handed to
// `createApi` is such a client (its requests are built by the library from each endpoint's
// `query`), so the base stays v1 and each endpoint's route is counted; a frozen config object
// that merely holds the base (`Object.freeze({ baseURL })`, read back as `CONFIG.baseURL`) is not.
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCodemod } from "../../codemod/project.ts";

const temps: string[] = [];
afterAll(() => temps.forEach((d) => rmSync(d, { recursive: true, force: true })));

function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "outside-client-"));
  temps.push(dir);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

const RTK = [
  "import { createApi, fetchBaseQuery } from '@reduxjs/toolkit/query/react';",
  "const BASE = import.meta.env.VITE_API ?? 'https://rest.runpod.io/v1';",
  "export const api = createApi({",
  "  baseQuery: fetchBaseQuery({ baseUrl: BASE }),",
  "  endpoints: (builder) => ({",
  "    running: builder.query<unknown[], void>({ query: () => ({ url: 'pods', params: { desiredStatus: 'RUNNING' } }) }),",
  "    start: builder.mutation<unknown, string>({ query: (id) => ({ url: `pods/${id}/start`, method: 'POST' }) }),",
  "    volumes: builder.query<unknown[], void>({ query: () => 'networkvolumes' }),",
  "  }),",
  "});",
  "export const { useRunningQuery, useStartMutation, useVolumesQuery } = api as any;",
].join("\n");

describe("clients made by outside code from a v1 base", () => {
  it("keeps an RTK Query base on v1 while an endpoint is not read (queryFn), marked naming the createApi hand-off", async () => {
    const unread = RTK.replace("  }),\n});", "    cached: builder.query<string[], void>({ queryFn: async () => ({ data: [] }) }),\n  }),\n});");
    const dir = tree({ "src/api.ts": unread });
    const written = await runCodemod({ paths: [dir], write: true });
    const text = readFileSync(path.join(dir, "src/api.ts"), "utf8");
    expect(text).toContain("?? 'https://rest.runpod.io/v1'");
    expect(text).not.toContain("?? 'https://api.runpod.io/v2'");
    // The mark says the base is kept; its finding names the hand-off.
    expect(text).toMatch(/TODO\(v2-migration\) base \(review\): v1 base kept: /);
    expect(written.findings.find((f) => !f.operation && f.reason.startsWith("v1 base kept"))?.reason).toMatch(/handed to createApi\(…\)/);
    expect(text).not.toContain("pods/${id}/action");
    const sites = written.findings.filter((f) => f.operation).map((f) => [f.line, f.operation]);
    expect(sites).toEqual([[6, "ListPods"], [7, "StartPod"], [8, "ListNetworkVolumes"]]);
    // The audit after the rewrite reports the same: three sites and the base, one finding each.
    const after = await runCodemod({ paths: [dir] });
    expect(after.findings.length).toBe(4);
  });

  it("migrates an RTK Query API whose every endpoint is read: the base flips, marked endpoints keep v1 on their own", async () => {
    const dir = tree({ "src/api.ts": RTK });
    const written = await runCodemod({ paths: [dir], write: true });
    const text = readFileSync(path.join(dir, "src/api.ts"), "utf8");
    expect(text).toContain("import.meta.env.VITE_API_V2 ?? 'https://api.runpod.io/v2'");
    expect(text).toContain("({ url: `pods/${id}/action`, method: 'POST', body: { action: 'start' } as const }), transformErrorResponse: v2ProblemAsV1Error");
    expect(text).toContain("query: () => `${RUNPOD_V1_BASE}/networkvolumes`");
    expect(text).toContain("url: `${RUNPOD_V1_BASE}/pods`");
    const after = await runCodemod({ paths: [dir] });
    expect(after.findings.length).toBe(written.findings.filter((f) => f.category !== "auto").length);
    expect(after.findings.map((f) => String(f.operation)).sort()).toEqual(["ListNetworkVolumes", "ListPods", "null"]);
  });

  it("still flips a base held in a frozen config object and read back by its key", async () => {
    const dir = tree({
      "src/config.ts": 'export const CONFIG = Object.freeze({ baseURL: "https://rest.runpod.io/v1", timeoutMs: 5000 });\n',
      "src/pods.ts": 'import { CONFIG } from "./config";\nexport async function stop(id: string): Promise<void> {\n  await fetch(`${CONFIG.baseURL}/pods/${id}/stop`, { method: "POST", signal: AbortSignal.timeout(CONFIG.timeoutMs) });\n}\n',
    });
    await runCodemod({ paths: [dir], write: true });
    expect(readFileSync(path.join(dir, "src/config.ts"), "utf8")).toContain('baseURL: "https://api.runpod.io/v2"');
    expect(readFileSync(path.join(dir, "src/pods.ts"), "utf8")).toContain("/pods/${id}/action");
  });
});
