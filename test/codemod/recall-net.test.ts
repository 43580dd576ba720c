// The recall net: v1 route literals in modules of a v1 client that no followed call consumed are
// still sites (one finding each, a mark after the rewrite); the project's own routes, the
// serverless runtime host, GraphQL and modules that reach no v1 base are not.
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCodemod } from "../../codemod/project.ts";

const temps: string[] = [];
afterAll(() => temps.forEach((d) => rmSync(d, { recursive: true, force: true })));

function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "recall-net-"));
  temps.push(dir);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

const SDK_CLIENT = [
  'import { RestClient } from "some-unknown-sdk";',
  'const client = new RestClient("https://rest.runpod.io/v1", process.env.KEY);',
  "export const stop = (id: string) => client.call(\"POST\", `/pods/${id}/stop`);",
  'export const templates = () => client.call("GET", "/templates");',
  'export const ours = () => fetch("/api/pods");',
  'export const run = (id: string) => fetch(`https://api.runpod.ai/v2/${id}/runsync`, { method: "POST" });',
  'export const gql = () => fetch("https://api.runpod.io/graphql", { method: "POST", body: "{ myself { id } }" });',
].join("\n");

describe("recall net", () => {
  it("counts the v1 route literals an unknown client sends, and nothing else", async () => {
    const dir = tree({ "src/runpod.ts": SDK_CLIENT, "src/page.ts": 'export const go = (router: { push(p: string): void }) => router.push("/pods");\n' });
    const before = await runCodemod({ paths: [dir] });
    const net = before.findings.filter((f) => f.reason.startsWith("a v1 route path"));
    expect(net.map((f) => [f.file, f.line, f.operation])).toEqual([
      ["src/runpod.ts", 3, "StopPod"],
      // The method written beside the path picks the operation (GET /templates, not POST).
      ["src/runpod.ts", 4, "ListTemplates"],
    ]);
    // The rewrite's summary counts them as call sites found (none migrated).
    expect([before.summary.callSites, before.summary.rewritten]).toEqual([2, 0]);
    // The base stays v1 (its use by the unknown SDK is not followed) and is reported once.
    expect(before.findings.filter((f) => f.operation === null && f.reason.includes("v1 base kept"))).toHaveLength(1);

    const written = await runCodemod({ paths: [dir], write: true });
    const text = readFileSync(path.join(dir, "src/runpod.ts"), "utf8");
    expect(text).toContain('new RestClient("https://rest.runpod.io/v1"');
    expect(text.match(/TODO\(v2-migration\) \S+ \(review\): a v1 route path/g)).toHaveLength(2);
    expect(readFileSync(path.join(dir, "src/page.ts"), "utf8")).not.toContain("TODO");
    // After the rewrite the audit reports the same sites, one finding each (their marks).
    const after = await runCodemod({ paths: [dir] });
    expect(after.findings.length).toBe(written.findings.length);
  });

  it("counts routes in modules that reach the base through other modules, not the app's own navigation", async () => {
    const dir = tree({
      "src/config.ts": 'export const config = { baseUrl: process.env.RP_URL ?? "https://rest.runpod.io/v1" };\n',
      "src/http.ts": 'import { config } from "./config";\nimport { join } from "url-join-lib";\nconst url = (path: string) => join(config.baseUrl, path);\nexport async function rp(method: string, path: string): Promise<unknown> {\n  return (await fetch(url(path), { method })).json();\n}\n',
      "src/pods.ts": 'import { rp } from "./http";\nexport const deletePod = (id: string) => rp("DELETE", `/pods/${id}`);\nexport const pods = () => rp("GET", "/pods");\n',
      "src/page.ts": 'import { pods } from "./pods";\nexport const go = async (router: { push(p: string): void }) => { await pods(); router.push("/pods"); };\n',
      // The server's own routes (a registration with a handler, a route pattern) are not requests.
      "src/server.ts": 'import { pods } from "./pods";\ndeclare const app: { get(p: string, h: (req: unknown, res: { json(v: unknown): void }) => void): void };\napp.get("/pods", async (_req, res) => res.json(await pods()));\nexport const patterns = ["/pods/:podId"];\n',
    });
    const found = (await runCodemod({ paths: [dir] })).findings.filter((f) => f.reason.startsWith("a v1 route path"));
    expect(found.map((f) => [f.file, f.line, f.operation])).toEqual([
      ["src/pods.ts", 2, "DeletePod"],
      ["src/pods.ts", 3, "ListPods"],
    ]);
  });

  it("does not count the path of a call that now goes to the v2 base (v1 and v2 share /templates)", async () => {
    // One call migrates (its helper's base flips to v2), one stays v1 (marked, on the declared v1 base):
    // the module still names the v1 host, and the migrated call's "/templates" is the same text in v2.
    const helper = [
      "// REST API (rest.runpod.io/v1): the host stays named in a comment, so this is still a module of a v1 client.",
      'const API = "https://rest.runpod.io/v1";',
      "async function withRetry(url: string, init?: RequestInit): Promise<Response> {",
      "  for (let i = 0; ; i++) {",
      "    const res = await fetch(url, init);",
      "    if (res.status !== 429 || i === 3) return res;",
      "  }",
      "}",
      "export async function rest(path: string, init: RequestInit = {}): Promise<any> {",
      "  const url = `${API}${path}`;",
      "  const res = await withRetry(url, init);",
      "  return res.json();",
      "}",
    ].join("\n");
    const tools = [
      'import { rest } from "./rest";',
      "export async function templateNames(): Promise<string[]> {",
      // Asking for endpoint-bound templates too, as v2 lists them (left out, the site would be marked for v1's default).
      '  const templates: { name: string }[] = await rest("/templates?includeEndpointBoundTemplates=true");',
      "  return templates.map((t) => t.name);",
      "}",
      "export async function podCost(id: string): Promise<number> {",
      "  const pod = await rest(`/pods/${id}`);",
      "  return pod.costPerHr;",
      "}",
    ].join("\n");
    const dir = tree({ "src/rest.ts": helper, "src/tools.ts": tools });
    const written = await runCodemod({ paths: [dir], write: true });
    const left = (findings: { file: string; operation: string | null; category: string }[]) => findings.filter((f) => f.category !== "auto").map((f) => [f.file, f.operation]);
    expect(left(written.findings)).toEqual([["src/tools.ts", "GetPod"]]);
    const after = await runCodemod({ paths: [dir] });
    // Only the marked sites are left; the migrated ListTemplates call is not a v1 route literal.
    expect(left(after.findings)).toEqual(left(written.findings));
  });
  it("does not count a route path that never reaches a request (a cache key, an event name, a comparison)", async () => {
    const dir = tree({
      "src/pods.ts": [
        'import { mutate } from "swr";',
        'import { useQuery } from "@tanstack/react-query";',
        'import { bus } from "./bus";',
        'const API = "https://rest.runpod.io/v1";',
        "const listeners = new Map<string, () => void>();",
        "const cache = new Map<string, unknown>();",
        "const notify = (prefix: string) => listeners.forEach((fn, key) => key.startsWith(prefix) && fn());",
        "function forget(key: string): void {",
        "  cache.delete(key);",
        "}",
        "export async function stopPod(id: string): Promise<void> {",
        "  await fetch(`${API}/pods/${id}/stop`, { method: \"POST\" });",
        '  notify("/pods");',
        "  forget(`/pods/${id}`);",
        '  await mutate("/pods");',
        '  bus.emit("/pods");',
        "}",
        "export const usePod = (id: string) => useQuery({ queryKey: [`/pods/${id}`], queryFn: () => fetch(`${API}/pods/${id}`).then((r) => r.json()) });",
        'export const onPods = (path: string) => path === "/pods";',
      ].join("\n"),
      "src/bus.ts": 'import { EventEmitter } from "node:events";\nexport const bus = new EventEmitter();\n',
    });
    const found = (await runCodemod({ paths: [dir] })).findings.filter((f) => f.reason.startsWith("a v1 route path"));
    expect(found).toEqual([]);
    await runCodemod({ paths: [dir], write: true });
    expect(readFileSync(path.join(dir, "src/pods.ts"), "utf8")).not.toContain("a v1 route path");
  });

  it("still counts a route path that reaches a request through the project's functions, returns and string building", async () => {
    const dir = tree({
      "src/client.ts": [
        'import { RestClient } from "some-unknown-sdk";',
        'const client = new RestClient("https://rest.runpod.io/v1", process.env.KEY);',
        // Into a project function that hands the path on to code the engine cannot see.
        "function send(method: string, route: string) {",
        "  return client.call(method, route);",
        "}",
        "export const stop = (id: string) => send(\"POST\", `/pods/${id}/stop`);",
        // Returned from a function, then sent by the caller.
        "const startRoute = (id: string) => `/pods/${id}/start`;",
        "export const start = (id: string) => client.call(\"POST\", startRoute(id));",
        // Built on with a string method, through a variable.
        'const prefix = "/endpoints";',
        "export const endpoint = (id: string) => client.call(\"GET\", prefix.concat(`/${id}`));",
        // A key in a set of the project that is also what the request is made with.
        "const seen = new Set<string>();",
        "export async function templates() {",
        '  const route = "/templates";',
        "  seen.add(route);",
        '  return client.call("GET", route);',
        "}",
      ].join("\n"),
    });
    const found = (await runCodemod({ paths: [dir] })).findings.filter((f) => f.reason.startsWith("a v1 route path"));
    expect(found.map((f) => [f.line, f.operation])).toEqual([
      [6, "StopPod"],
      [7, "StartPod"],
      [9, null],
      [13, null],
    ]);
  });

  it("counts route paths written relative to the client's base where they are used as URLs, with their method", async () => {
    const dir = tree({
      "src/api.ts": [
        'import { makeStore, makeTransport } from "@acme/store";',
        'const BASE = "https://rest.runpod.io/v1";',
        "export const store = makeStore({",
        "  transport: makeTransport({ baseUrl: BASE }),",
        "  requests: {",
        "    pods: () => ({ url: 'pods' }),",
        "    createVolume: (body: object) => ({ url: 'networkvolumes', method: 'POST', body }),",
        "    stop: (id: string) => ({ url: `pods/${id}/stop`, method: 'POST' }),",
        "    pod: { query: (id: string) => `pods/${id}?includeMachine=true` },",
        "    volumes: { query: () => 'networkvolumes' },",
        "  },",
        "});",
        "export const remove = (http: { delete(p: string): Promise<void> }, id: string) => http.delete(`pods/${id}`);",
      ].join("\n"),
    });
    const found = (await runCodemod({ paths: [dir] })).findings.filter((f) => f.reason.startsWith("a v1 route path"));
    expect(found.map((f) => [f.line, f.operation])).toEqual([
      [6, "ListPods"],
      [7, "CreateNetworkVolume"],
      [8, "StopPod"],
      [9, "GetPod"],
      [10, "ListNetworkVolumes"],
      [13, "DeletePod"],
    ]);
    // After the rewrite the audit reports each of them, one finding each, and the base once.
    const written = await runCodemod({ paths: [dir], write: true });
    const after = await runCodemod({ paths: [dir] });
    expect(after.findings.length).toBe(written.findings.length);
    expect(after.findings.filter((f) => f.reason.includes("v1 base kept"))).toHaveLength(1);
  });

  it("does not count bare route words that are keys, tags, tab ids, i18n keys or events", async () => {
    const dir = tree({
      "src/api.ts": [
        'import { useQuery } from "@tanstack/react-query";',
        'import { t } from "i18next";',
        'const BASE = "https://rest.runpod.io/v1";',
        "export const usePods = (id: string) => useQuery({ queryKey: ['pods', id], queryFn: () => fetch(`${BASE}/pods/${id}`).then((r) => r.json()) });",
        "export const tagTypes = ['pods', 'templates', 'endpoints'];",
        "export const tabs = [{ id: 'pods', title: t('pods') }, { key: 'networkvolumes', label: 'pods/list' }];",
        "export const currentTab = () => 'templates';",
        "export function notify(bus: { emit(e: string): void }) { bus.emit('pods'); }",
        "export const cacheKey = (id: string) => `pods/${id}`;",
        "export const storage = { prefix: 'pods', name: 'endpoints' };",
        "export const isPods = (tab: string) => tab === 'pods';",
      ].join("\n"),
    });
    const found = (await runCodemod({ paths: [dir] })).findings.filter((f) => f.reason.startsWith("a v1 route path"));
    expect(found).toEqual([]);
  });

  it("does not count the relative paths of an RTK Query API already on the v2 base", async () => {
    const dir = tree({
      "src/legacy.ts": 'export const LEGACY = "https://rest.runpod.io/v1";\n',
      "src/api.ts": [
        "import { createApi, fetchBaseQuery } from '@reduxjs/toolkit/query';",
        "import { LEGACY } from './legacy';",
        "export const legacyBase = LEGACY;",
        "export const api = createApi({",
        "  baseQuery: fetchBaseQuery({ baseUrl: 'https://api.runpod.io/v2' }),",
        "  endpoints: (build) => ({",
        "    pods: build.query<unknown[], void>({ query: () => 'pods' }),",
        "    remove: build.mutation<void, string>({ query: (id) => ({ url: `pods/${id}`, method: 'DELETE' }) }),",
        "  }),",
        "});",
      ].join("\n"),
    });
    const found = (await runCodemod({ paths: [dir] })).findings.filter((f) => f.reason.startsWith("a v1 route path"));
    expect(found).toEqual([]);
  });

  it("does not count a module connected by type-only imports (erased: no base reaches it at run time)", async () => {
    const dir = tree({
      "src/runpod.ts": 'export interface Pod { id: string }\nexport const listPods = async (): Promise<Pod[]> => (await fetch("https://rest.runpod.io/v1/pods")).json();\n',
      // The app's own routes, in modules that take only the client module's types.
      "src/view.ts": 'import type { Pod } from "./runpod";\nexport const mine = async (): Promise<Pod[]> => (await fetch("/pods")).json();\n',
      "src/view2.ts": 'import { type Pod } from "./runpod";\nexport const one = async (id: string): Promise<Pod> => (await fetch(`/pods/${id}`)).json();\n',
      "src/types.ts": 'export type { Pod } from "./runpod";\nexport const stop = (id: string) => fetch(`/pods/${id}/stop`, { method: "POST" });\n',
      // The negative: a value imported beside a type connects the module.
      "src/uses.ts": 'import { listPods, type Pod } from "./runpod";\nexport const both = async (): Promise<Pod[]> => [...(await listPods()), ...(await (await fetch("/pods")).json())];\n',
      // A client handed in as a value typed from its module is followed as a call site.
      "src/client.ts": 'export class RunpodApi {\n  constructor(private base = "https://rest.runpod.io/v1") {}\n  get(path: string): Promise<unknown> {\n    return fetch(this.base + path).then((r) => r.json());\n  }\n}\n',
      "src/pods.ts": 'import type { RunpodApi } from "./client";\nexport const pods = (c: RunpodApi) => c.get("/pods");\n',
    });
    const found = (await runCodemod({ paths: [dir] })).findings;
    expect(found.map((f) => [f.file, f.line, f.operation, f.reason.startsWith("a v1 route path")])).toEqual([
      ["src/pods.ts", 2, "ListPods", false],
      ["src/runpod.ts", 2, "ListPods", false],
      ["src/uses.ts", 2, "ListPods", true],
    ]);
  });
});
