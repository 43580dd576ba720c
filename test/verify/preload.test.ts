// The preload on its own, in a real Node process: every door out of Node (fetch, undici, http and
// https in all their call shapes, ESM named imports) sends the API hosts' requests to the local
// servers and records each with the client's call site; every other host is left alone.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../openapi/reference.ts";
import { childEnv } from "../../verify/child-env.ts";
import { preparePreload, type Preload } from "../../verify/preload-module.ts";
import type { CallEvent, VerifyEvent } from "../../verify/preload/protocol.ts";

type Seen = { host: string; url: string; id?: string; auth?: string };

let preload: Preload;
let dir: string;
let api: http.Server;
let other: http.Server;
const seen: Seen[] = [];
const origin = (s: http.Server) => `http://127.0.0.1:${(s.address() as { port: number }).port}`;

const CLIENT = `
import https, { request as namedRequest } from "node:https";
import http from "node:http";
import { request as undiciRequest } from "undici";
const read = (res) => new Promise((resolve) => { let b = ""; res.on("data", (c) => (b += c)); res.on("end", () => resolve(res.statusCode + " " + b)); });
const viaRequest = (fn, ...args) => new Promise((resolve, reject) => { const req = fn(...args, (res) => read(res).then(resolve)); req.on("error", reject); req.end(); });
const out = {};
out.fetch = await (await fetch("https://rest.runpod.io/v1/pods", { headers: { authorization: "Bearer sandbox_mine" } })).text();
out.fetchRequest = await (await fetch(new Request("https://api.runpod.io/v2/pods", { method: "POST", body: "{}", headers: { "x-request-id": "client-own-id" } }))).text();
out.httpsUrl = await viaRequest(https.request, "https://api.runpod.io/v2/pods?api_key=secret", { method: "PATCH", agent: new https.Agent({ keepAlive: true }) });
out.httpsOptions = await viaRequest(https.request, { host: "rest.runpod.io", path: "/v1/endpoints", method: "DELETE" });
out.httpsGet = await new Promise((resolve) => https.get(new URL("https://api.runpod.io/v2/templates"), (res) => read(res).then(resolve)));
out.named = await viaRequest(namedRequest, "https://rest.runpod.io/v1/named");
out.plainHttp = await viaRequest(http.request, "http://rest.runpod.io/v1/plain");
out.undici = await (await undiciRequest("https://api.runpod.io/v2/undici")).body.text();
out.otherHost = await (await fetch(process.env.OTHER + "/elsewhere")).text();
out.otherPort = await fetch("https://rest.runpod.io:8443/v1/pods").then(() => "reached", (e) => "not redirected: " + (e.cause?.code ?? e.message));
console.log(JSON.stringify(out));
`;

beforeAll(async () => {
  preload = await preparePreload();
  dir = mkdtempSync(path.join(os.tmpdir(), "v2b-preload-"));
  writeFileSync(path.join(dir, "client.mjs"), CLIENT);
  // The client imports "undici" from its own node_modules, as a project does.
  symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(dir, "node_modules"), "junction");
  const listen = (name: string) =>
    new Promise<http.Server>((resolve) => {
      const s = http.createServer((req, res) => {
        seen.push({ host: name, url: req.url!, id: req.headers["x-request-id"] as string | undefined, auth: req.headers.authorization });
        res.setHeader("content-type", "application/json");
        res.end(JSON.stringify({ server: name, url: req.url }));
      });
      s.listen(0, "127.0.0.1", () => resolve(s));
    });
  api = await listen("api");
  other = await listen("other");
});

afterAll(() => {
  preload?.cleanup();
  api?.close();
  other?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("the verify preload", () => {
  it("redirects fetch, Request objects, https/http in every call shape, named imports and undici; leaves other hosts alone", async () => {
    const events = path.join(dir, "events.jsonl");
    const { env } = childEnv({ ...process.env, OTHER: origin(other) }, preload.url, { "rest.runpod.io": origin(api), "api.runpod.io": origin(api) }, events);
    const stdout = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, ["client.mjs"], { cwd: dir, env }, (err, out, errOut) => (err ? reject(new Error(errOut || err.message)) : resolve(out))),
    );
    const out = JSON.parse(stdout) as Record<string, string>;
    expect(out.fetch).toBe('{"server":"api","url":"/v1/pods"}');
    expect(out.fetchRequest).toBe('{"server":"api","url":"/v2/pods"}');
    expect(out.httpsUrl).toBe('200 {"server":"api","url":"/v2/pods?api_key=secret"}');
    expect(out.httpsOptions).toBe('200 {"server":"api","url":"/v1/endpoints"}');
    expect(out.httpsGet).toBe('200 {"server":"api","url":"/v2/templates"}');
    expect(out.named).toBe('200 {"server":"api","url":"/v1/named"}');
    expect(out.plainHttp).toBe('200 {"server":"api","url":"/v1/plain"}');
    expect(out.undici).toBe('{"server":"api","url":"/v2/undici"}');
    expect(out.otherHost).toBe('{"server":"other","url":"/elsewhere"}');
    expect(out.otherPort).toMatch(/^not redirected/);

    // The client's own key and request id travel unchanged; calls without an id get one.
    expect(seen.find((s) => s.url === "/v1/pods")).toMatchObject({ auth: "Bearer sandbox_mine", id: expect.stringMatching(/^v2b-verify-\d+-\d+$/) });
    expect(seen.find((s) => s.url === "/v2/pods" && s.id === "client-own-id")).toBeTruthy();
    expect(seen.find((s) => s.host === "other")!.id).toBeUndefined();

    const recorded = readFileSync(events, "utf8").trim().split("\n").map((l) => JSON.parse(l) as VerifyEvent);
    const calls = recorded.filter((e): e is CallEvent => e.kind === "call");
    expect(recorded.filter((e) => e.kind === "process")).toHaveLength(1);
    expect(calls.map((c) => [c.via, c.method, c.url])).toEqual([
      ["fetch", "GET", "https://rest.runpod.io/v1/pods"],
      ["fetch", "POST", "https://api.runpod.io/v2/pods"],
      ["http", "PATCH", "https://api.runpod.io/v2/pods?api_key=***"],
      ["http", "DELETE", "https://rest.runpod.io/v1/endpoints"],
      ["http", "GET", "https://api.runpod.io/v2/templates"],
      ["http", "GET", "https://rest.runpod.io/v1/named"],
      ["http", "GET", "http://rest.runpod.io/v1/plain"],
      ["undici", "GET", "https://api.runpod.io/v2/undici"],
    ]);
    // Each with the client's own lines (its helper and the line that called it; the preload's and Node's frames left out).
    const clientLines = CLIENT.split("\n");
    for (const c of calls) {
      const frames = c.frames.filter((f) => f.file === path.join(dir, "client.mjs"));
      expect(frames.length, `${c.url} has client frames`).toBe(c.frames.length);
      const marker = c.via === "undici" ? "undiciRequest(" : c.url.split("?")[0]!.replace(/^https?:\/\/[^/]+/, "");
      expect(frames.some((f) => clientLines[f.line - 1]!.includes(marker)), `${c.url}: ${JSON.stringify(frames)}`).toBe(true);
    }
    expect(calls.find((c) => c.id === "client-own-id")).toBeTruthy();
  });
});
