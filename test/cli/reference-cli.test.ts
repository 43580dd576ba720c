// The reference documents as a user meets them, through real CLI processes and a local document
// server (no network): `reference fetch` fills the user cache, `reference` shows where each
// document comes from; without documents the gateway and sandbox refuse to start (one line on how
// to get them) unless --no-validation; `--fetch-reference` (npm start) downloads them first.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PINS } from "../../openapi/reference-pins.ts";
import { CHECKOUT_REFERENCE_DIR } from "../../openapi/reference.ts";
import { BUILT_CLI } from "../helpers/cli.ts";
import { VERSION } from "../../product/package-info.ts";
import { startDocumentServer, type DocumentServer } from "../helpers/document-server.ts";
import { startGatewayProcess } from "../gateway/gateway-process.ts";

const BIN = BUILT_CLI;
const realDocs = existsSync(path.join(CHECKOUT_REFERENCE_DIR, "v1-openapi.json")) && existsSync(path.join(CHECKOUT_REFERENCE_DIR, "v2-openapi.json"));
const tmp = (p: string) => mkdtempSync(path.join(os.tmpdir(), p));

let server: DocumentServer;
beforeAll(async () => {
  const real = (n: string) => (realDocs ? { body: readFileSync(path.join(CHECKOUT_REFERENCE_DIR, n)) } : { status: 500 });
  server = await startDocumentServer({
    "/good/v1-openapi.json": real("v1-openapi.json"),
    "/good/v2-openapi.json": real("v2-openapi.json"),
    "/changed/v1-openapi.json": { body: '{"openapi":"3.0.3","paths":{}}' },
    "/changed/v2-openapi.json": real("v2-openapi.json"),
  });
});
afterAll(() => server.close());

/** A user with an empty cache and the given mirror; `dir` set stands for "no documents anywhere". */
function env(extra: Record<string, string>): NodeJS.ProcessEnv {
  const e: NodeJS.ProcessEnv = { ...process.env, XDG_CACHE_HOME: tmp("v2b-cache-"), ...extra };
  delete e.V2_BRIDGE_REFERENCE_URL;
  if (!extra.V2_BRIDGE_REFERENCE_DIR) delete e.V2_BRIDGE_REFERENCE_DIR;
  return { ...e, ...extra };
}

/** Asynchronous on purpose: the document server answers from this process's event loop. */
function cli(args: string[], e: NodeJS.ProcessEnv): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [BIN, ...args], { env: e, cwd: tmp("v2b-cwd-"), stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
  child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
  const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
  return new Promise((resolve) => child.on("close", (status) => (clearTimeout(timer), resolve({ status, stdout, stderr }))));
}

describe("without documents", { timeout: 90_000 }, () => {
  const noDocs = () => env({ V2_BRIDGE_REFERENCE_DIR: tmp("v2b-empty-") });

  it("the gateway refuses to start, saying in one line how to get them", async () => {
    const r = await cli(["gateway", "--port", "0"], noDocs());
    expect(r.status).toBe(2);
    const lines = r.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^v2-bridge gateway: not starting: reference documents v1-openapi\.json and v2-openapi\.json not found .*v2-bridge reference fetch.*--no-validation/);
  });

  it("the sandbox refuses too, for the v2 document", async () => {
    const r = await cli(["sandbox", "--port", "0"], noDocs());
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split("\n")).toEqual([expect.stringMatching(/^v2-bridge sandbox: not starting: reference document v2-openapi\.json not found .*--no-validation/)]);
  });

  it("with --fetch-reference and an unreachable source: one progress line, then the same refusal", async () => {
    const r = await cli(["gateway", "--port", "0", "--fetch-reference"], { ...noDocs(), V2_BRIDGE_REFERENCE_URL: `${server.url}/nowhere` });
    expect(r.status).toBe(2);
    expect(r.stdout.trim()).toMatch(/^v2-bridge gateway: first start: fetching v1-openapi\.json, v2-openapi\.json into .* … failed: could not fetch v[12]-openapi\.json from .*: HTTP 404$/);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
  });

  it("--no-validation starts the gateway and says validation is off", async () => {
    const gw = await startGatewayProcess(["--no-validation"], { cwd: tmp("v2b-nv-"), env: noDocs() });
    try {
      expect(gw.output()).toContain("schema validation: OFF (--no-validation)");
      expect((await fetch(`${gw.url}/_bridge/health`)).status).toBe(200);
      expect((await fetch(`${gw.url}/v1/openapi.json`)).status).toBe(404);
    } finally {
      await gw.stop();
    }
  });
});

describe("reference fetch: a document that is not the pinned one", { timeout: 90_000 }, () => {
  it("is refused in one line naming both hashes; nothing is cached", async () => {
    const e = env({ V2_BRIDGE_REFERENCE_URL: `${server.url}/changed` });
    const r = await cli(["reference", "fetch"], e);
    expect(r.status).toBe(2);
    expect(r.stdout).toMatch(/… failed\n$/);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain(`but the pinned one is ${PINS["v1-openapi.json"].sha256}`);
    expect(r.stderr).toMatch(/v1-openapi\.json from .* has sha256 [0-9a-f]{64}/);
    expect(existsSync(path.join(e.XDG_CACHE_HOME!, "v2-bridge"))).toBe(false);
  });
});

describe.skipIf(!realDocs)(`with the published documents served locally${realDocs ? "" : ` (skipped: ${CHECKOUT_REFERENCE_DIR} is absent)`}`, { timeout: 90_000 }, () => {
  it("`reference fetch` puts them in the user cache, and `reference` reads them from there", async () => {
    const e = env({ V2_BRIDGE_REFERENCE_URL: `${server.url}/good` });
    const fetched = await cli(["reference", "fetch"], e);
    expect(fetched.stderr).toBe("");
    expect(fetched.status).toBe(0);
    const cacheDir = path.join(e.XDG_CACHE_HOME!, "v2-bridge", "reference");
    expect(fetched.stdout.split("\n")[0]).toBe(`fetching v1-openapi.json, v2-openapi.json into ${cacheDir} … done`);
    const listed = await cli(["reference"], e);
    expect(listed.status).toBe(0);
    for (const name of ["v1-openapi.json", "v2-openapi.json"] as const) {
      expect(listed.stdout).toContain(`${name}  ${path.join(cacheDir, name)}  (user cache)  sha256 ${PINS[name].sha256} (pinned)`);
    }
  });

  it("`gateway --fetch-reference` (npm start) fetches on first start with one line, then validates; health names the version", async () => {
    const dir = tmp("v2b-first-");
    const gw = await startGatewayProcess(["--fetch-reference"], { cwd: tmp("v2b-fr-"), env: env({ V2_BRIDGE_REFERENCE_DIR: dir, V2_BRIDGE_REFERENCE_URL: `${server.url}/good` }) });
    try {
      expect(gw.output().split("\n")[0]).toBe(`v2-bridge gateway: first start: fetching v1-openapi.json, v2-openapi.json into ${dir} … done`);
      expect(existsSync(path.join(dir, "v2-openapi.json"))).toBe(true);
      const health = (await (await fetch(`${gw.url}/_bridge/health`)).json()) as { status: string; version: string };
      expect(health).toMatchObject({ status: "ok", version: VERSION });
      // The v1 document was loaded (the same document the v1 request validator is built from).
      expect((await fetch(`${gw.url}/v1/openapi.json`)).status).toBe(200);
    } finally {
      await gw.stop();
    }
  });
});
