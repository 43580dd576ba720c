// What the codemod's end-to-end tests share: a temp folder for the client they rewrite, the strict
// v2 sandbox and the gateway in front of it (its /v1) on loopback ports, RUNPOD_V1_BASE pointed
// at the gateway (where calls kept on v1 go), and, after the file's tests, every server closed,
// the environment (in place) and `fetch` restored and the folder removed: the next test file in a
// shared worker finds the process as this one found it (test/helpers/leaves-no-state.ts checks).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll } from "vitest";
import type { GatewayOptions } from "../../gateway/config.ts";
import type { Gateway } from "../../gateway/server.ts";
import type { Sandbox } from "../../sandbox/server.ts";
import { restoreEnv } from "../helpers/process-state.ts";

export interface E2eServers {
  sandbox: Sandbox;
  gateway: Gateway;
}

/** `gateway`: more options for the gateway (e.g. `onUpstreamRequest`, to list what it sends upstream). */
export function e2eScope(prefix: string, { gateway: gatewayOptions = {} }: { gateway?: Partial<GatewayOptions> } = {}) {
  const closers: (() => Promise<unknown>)[] = [];
  const tmp = mkdtempSync(path.join(os.tmpdir(), prefix));
  const saved = { ...process.env };
  let started: Promise<E2eServers> | undefined;
  afterAll(async () => {
    for (const close of closers.reverse()) await close();
    restoreEnv(saved);
    rmSync(tmp, { recursive: true, force: true });
  });

  async function start(): Promise<E2eServers> {
    const { startSandbox } = await import("../../sandbox/server.ts");
    const { startGateway } = await import("../../gateway/server.ts");
    const sandbox = await startSandbox({ port: 0, bootMs: 0, warn: () => {} } as any);
    closers.push(() => sandbox.close());
    const gateway = await startGateway({ upstream: sandbox.url, port: 0, timeoutMs: 5_000, ...gatewayOptions } as any);
    closers.push(() => gateway.close());
    process.env.RUNPOD_V1_BASE = `${gateway.url}/v1`;
    return { sandbox, gateway };
  }

  return {
    tmp,
    /** The sandbox and the gateway, started once for the file's tests. */
    servers: (): Promise<E2eServers> => (started ??= start()),
    /**
     * The servers, with the rewritten clients' v2 base (the sandbox) and API key `key` in the
     * environment, and `ask`: the JSON a server answers a request made with that key (a failed call's
     * v2 problem `detail`, the gateway's v1 `message`).
     */
    async clientEnv(key: string): Promise<E2eServers & { ask(url: string, init?: RequestInit): Promise<{ detail?: string; message?: string }> }> {
      const servers = await (started ??= start());
      process.env.RUNPOD_API_URL_V2 = `${servers.sandbox.url}/v2`;
      process.env.RUNPOD_API_KEY = key;
      const ask = async (url: string, init: RequestInit = {}) =>
        (await (await fetch(url, { ...init, headers: { Authorization: `Bearer ${key}`, ...(init.headers as Record<string, string> | undefined) } })).json()) as { detail?: string; message?: string };
      return { ...servers, ask };
    },
    /** Writes `files` (relative path → text) under `name` in the scope's folder, runs `rewrite --write` there, and gives back each file as rewritten. */
    async rewriteTree(name: string, files: Record<string, string>): Promise<Record<string, string>> {
      const dir = path.join(tmp, name);
      for (const [file, text] of Object.entries(files)) {
        mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
        writeFileSync(path.join(dir, file), text);
      }
      const { runCodemod } = await import("../../codemod/project.ts");
      await runCodemod({ paths: [dir], write: true });
      return Object.fromEntries(Object.keys(files).map((f) => [f, readFileSync(path.join(dir, f), "utf8")]));
    },
    /**
     * Each request `fetch` makes from now on, as `POST gateway /v1/pods` or `GET v2 /v2/pods` (with the
     * query when asked), or as the URL exactly as handed to `fetch` (`handed`: a bare `?` shows).
     * `serve` sends an origin's requests to another (`https://api.runpod.io` to the sandbox).
     */
    recordFetch(gatewayUrl: string, { query = false, handed = false, serve = {} as Record<string, string> } = {}): string[] {
      const seen: string[] = [];
      const realFetch = globalThis.fetch;
      globalThis.fetch = (async (input: any, init?: any) => {
        const url = new URL(String(input));
        if (handed) seen.push(String(input));
        else seen.push(`${init?.method ?? "GET"} ${url.origin === gatewayUrl ? "gateway" : "v2"} ${url.pathname}${query ? url.search : ""}`);
        const to = serve[url.origin];
        return realFetch(to ? `${to}${url.pathname}${url.search}` : input, init);
      }) as typeof fetch;
      closers.push(async () => void (globalThis.fetch = realFetch));
      return seen;
    },
  };
}
