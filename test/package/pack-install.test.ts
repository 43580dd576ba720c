// The package as a user installs it: `npm pack` (of the dist/ test/global-setup.ts built), the tarball installed into an
// empty directory offline, and every command run from there with the reference documents served
// by a local server. Prints the tarball's size and file count, and the installed CLI's cold start.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHECKOUT_REFERENCE_DIR, REPO_ROOT } from "../../openapi/reference.ts";
import { VERSION } from "../../product/package-info.ts";
import { startDocumentServer, type DocumentServer } from "../helpers/document-server.ts";
import { installOffline, packCheckout, type Packed } from "../helpers/installed-package.ts";
import { loadedPackages } from "../helpers/loaded-packages.ts";

const DOCS = ["v1-openapi.json", "v2-openapi.json"];
const realDocs = DOCS.every((n) => existsSync(path.join(CHECKOUT_REFERENCE_DIR, n)));
const tmp = (p: string) => mkdtempSync(path.join(os.tmpdir(), p));

let packed: Packed;
let home: string; // the empty directory the tarball is installed into
let bin: string;
let server: DocumentServer;
let env: NodeJS.ProcessEnv;

type Run = { code: number | null; stdout: string; stderr: string };
/** Runs the installed `v2-bridge`; `until` (for servers) is awaited, then the process gets SIGTERM. */
function v2bridge(args: string[], until?: (url: string) => Promise<void>): Promise<Run> {
  const child = spawn(process.execPath, [bin, ...args], { cwd: home, env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
  const listening = new Promise<string>((resolve) =>
    child.stdout.on("data", (c: Buffer) => {
      stdout += c.toString();
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout)?.[1];
      if (url) resolve(url);
    }),
  );
  const exited = new Promise<Run>((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
  if (!until) return exited;
  // Whatever `until` throws (a failed expectation) is thrown here, once the process has stopped.
  let failure: unknown;
  void Promise.race([listening, exited]).then(async (first) => {
    if (typeof first !== "string") return;
    await until(first).catch((e: unknown) => (failure = e));
    child.kill("SIGTERM");
  });
  return exited.then((run) => {
    if (failure) throw failure;
    return run;
  });
}

const onePodCall = 'export const pods = () => fetch("https://rest.runpod.io/v1/pods", { headers: { Authorization: "Bearer k" } }).then((r) => r.json());\n';

// Real processes of a real install: generous deadlines, since the suite shares two cores with the others.
describe.skipIf(!realDocs)(`installed from the packed tarball${realDocs ? "" : ` (skipped: the documents to serve come from ${CHECKOUT_REFERENCE_DIR}, absent)`}`, { timeout: 120_000 }, () => {
  beforeAll(async () => {
    packed = packCheckout();
    home = installOffline(packed.tarball);
    bin = path.join(home, "node_modules", ".bin", "v2-bridge");
    server = await startDocumentServer(Object.fromEntries(DOCS.map((n) => [`/${n}`, { body: readFileSync(path.join(CHECKOUT_REFERENCE_DIR, n)) }])));
    env = { ...process.env, XDG_CACHE_HOME: tmp("v2b-pkg-cache-"), V2_BRIDGE_REFERENCE_URL: server.url };
    delete env.V2_BRIDGE_REFERENCE_DIR;
    console.log(`tarball: ${(packed.bytes / 1024).toFixed(0)} KB, ${packed.files.length} files (${(packed.unpackedBytes / 1024).toFixed(0)} KB unpacked)`);
  }, 600_000);
  afterAll(() => server?.close());

  it("ships only what runs: compiled JavaScript, no sources, tests, benchmarks or CI", () => {
    const outside = packed.files.filter((f) => !f.startsWith("dist/"));
    expect(outside.sort()).toEqual(["README.md", "npm-shrinkwrap.json", "package.json"]);
    expect(packed.files.filter((f) => /\.(ts|mts|cts)$/.test(f) || /^dist\/(test|bench)\//.test(f))).toEqual([]);
    expect(packed.files).toContain("dist/bin/v2-bridge.js");
    // Packed with --ignore-scripts from the run's own build: a user's `npm pack` runs these same two steps first.
    const { scripts } = JSON.parse(readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> };
    expect(scripts.prepack).toBe("npm run build && node scripts/shrinkwrap.mjs");
    expect(scripts.postpack).toBe("node scripts/shrinkwrap.mjs --remove");
    // The shrinkwrap holds the runtime dependencies only.
    const shrinkwrap = JSON.parse(execFileSync("tar", ["-xzOf", packed.tarball, "package/npm-shrinkwrap.json"], { encoding: "utf8", maxBuffer: 64 << 20 }));
    expect(Object.keys(shrinkwrap.packages)).not.toContain("node_modules/vitest");
    expect(Object.keys(shrinkwrap.packages)).not.toContain("node_modules/tsx");
  });

  it("--version", async () => {
    expect((await v2bridge(["--version"])).stdout.trim()).toBe(VERSION);
  });

  it("gateway and sandbox refuse to start before the documents are fetched (no checkout to fall back on)", async () => {
    const gw = await v2bridge(["gateway", "--port", "0"]);
    expect(gw.code).toBe(2);
    expect(gw.stderr).toContain("v2-bridge reference fetch");
    expect((await v2bridge(["sandbox", "--port", "0"])).code).toBe(2);
  });

  it("reference fetch, then reference: the documents come from the user cache", async () => {
    const fetched = await v2bridge(["reference", "fetch"]);
    expect([fetched.code, fetched.stderr]).toEqual([0, ""]);
    const listed = await v2bridge(["reference"]);
    expect(listed.stdout.match(/\(user cache\) {2}sha256 [0-9a-f]{64} \(pinned\)/g)).toHaveLength(2);
  });

  it("gateway: starts on a free loopback port, answers health with its version, records a v1 call", async () => {
    let health: unknown;
    const run = await v2bridge(["gateway", "--port", "0", "--admin-port", "0", "--boot-ms", "0"], async (url) => {
      health = await (await fetch(`${url}/_bridge/health`)).json();
      const pods = await fetch(`${url}/v1/pods`, { headers: { authorization: "Bearer sandbox_demo" } });
      expect(pods.status).toBe(200);
    });
    expect(run.code).toBe(0);
    expect(health).toMatchObject({ status: "ok", version: VERSION });
    expect(existsSync(path.join(home, ".v2-bridge", "usage.json"))).toBe(true);
  });

  it("sandbox: starts on a free loopback port and validates v2 requests", async () => {
    let status = 0;
    const run = await v2bridge(["sandbox", "--port", "0"], async (url) => {
      const bad = await fetch(`${url}/v2/pods`, { method: "POST", headers: { authorization: "Bearer sandbox_demo", "content-type": "application/json" }, body: '{"name":"x","unknownField":1}' });
      status = bad.status;
    });
    expect(run.code).toBe(0);
    expect(status).toBe(422);
  });

  it("audit, rewrite, report and mappings run on a project", async () => {
    const project = tmp("v2b-pkg-project-");
    writeFileSync(path.join(project, "client.ts"), onePodCall);
    const audit = await v2bridge(["audit", project, "--format", "json", "--no-progress", "--out", path.join(home, "audit.json")]);
    expect(audit.code).toBe(1);
    const json = JSON.parse(readFileSync(path.join(home, "audit.json"), "utf8"));
    expect(json).toMatchObject({ tool: "v2-bridge", version: 1, toolVersion: VERSION, summary: { findings: 1 } });
    const rewrite = await v2bridge(["rewrite", project, "--no-progress"]);
    expect(rewrite.code).toBe(0);
    expect(rewrite.stdout).toContain("+++");
    const report = await v2bridge(["report", "--code", "audit.json", "--traffic", path.join(".v2-bridge", "usage.json"), "--out", "report.html"]);
    expect(report.code).toBe(0);
    expect(report.stderr).toContain("1 call sites in code, 1 live requests from 1 clients");
    expect(readFileSync(path.join(home, "report.html"), "utf8")).toContain("<html");
    const mappings = await v2bridge(["mappings", "--format", "json"]);
    expect(JSON.parse(mappings.stdout)).toBeTruthy();
  });

  it("verify: the compiled preload redirects a plain Node client, before and after its rewrite", async () => {
    const project = tmp("v2b-pkg-verify-");
    writeFileSync(path.join(project, "client.mjs"), 'const res = await fetch("https://rest.runpod.io/v1/pods", { headers: { Authorization: `Bearer ${process.env.RUNPOD_API_KEY}` } });\nconsole.log(res.status);\n');
    const run = await v2bridge(["verify", "--root", project, "--format", "json", "--compare-output", "--", "node", "client.mjs"]);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report).toMatchObject({ verdict: "equivalent", toolVersion: VERSION, after: { how: "rewrite", filesChanged: 1 } });
    expect([report.runs.before.calls, report.runs.after.calls]).toEqual([{ v1: 1, v2: 0 }, { v1: 0, v2: 1 }]);
  });

  it("the jscodeshift entry point loads the compiled transform", () => {
    const shim = path.join(home, "node_modules", "v2-bridge", "dist", "codemod", "jscodeshift.cjs");
    const out = execFileSync(process.execPath, ["-e", `const t = require(${JSON.stringify(shim)}); process.stdout.write(t({ path: "c.ts", source: ${JSON.stringify(onePodCall)} }) ?? "")`], { encoding: "utf8" });
    expect(out).toContain("TODO(v2-migration)");
  });

  it("loads only what each command needs: audit no fastify, gateway no ts-morph", async () => {
    const project = tmp("v2b-pkg-lazy-");
    writeFileSync(path.join(project, "client.ts"), onePodCall);
    const audit = await loadedPackages(bin, ["audit", project, "--no-progress"], { cwd: home, env });
    expect(audit.packages).toContain("ts-morph");
    expect(audit.packages).not.toContain("fastify");
    const until = async (output: () => string) => {
      while (!/listening on/.test(output())) await new Promise((r) => setTimeout(r, 50));
    };
    const gateway = await loadedPackages(bin, ["gateway", "--port", "0", "--admin-port", "0"], { cwd: home, env, until });
    expect(gateway.packages).toContain("fastify");
    expect([...gateway.packages].filter((p) => p === "ts-morph" || p === "typescript" || p === "@ts-morph/common")).toEqual([]);
  });

  it("cold start: audit of a one-file project against `node -e 0` (printed; bench:codemod records it), with the code cache in the user cache", () => {
    const clean = tmp("v2b-pkg-clean-");
    writeFileSync(path.join(clean, "index.ts"), "export const answer = 42;\n");
    const time = (args: string[]) => {
      const samples: number[] = [];
      for (let i = 0; i < 5; i++) {
        const t = process.hrtime.bigint();
        try {
          execFileSync(process.execPath, args, { cwd: home, env, stdio: "ignore" });
        } catch {
          // audit exits 1 when it finds v1 usage
        }
        samples.push(Number(process.hrtime.bigint() - t) / 1e6);
      }
      return samples.sort((a, b) => a - b)[2]!;
    };
    const v1 = tmp("v2b-pkg-v1-");
    writeFileSync(path.join(v1, "client.ts"), onePodCall);
    const node = time(["-e", "0"]);
    const version = time([bin, "--version"]);
    const auditClean = time([bin, "audit", clean, "--no-progress"]);
    const auditV1 = time([bin, "audit", v1, "--no-progress"]); // the code cache is warm: earlier tests ran audit
    console.log(`cold start (median of 5): node -e 0 ${node.toFixed(0)} ms; v2-bridge --version ${version.toFixed(0)} ms; audit, one-file project: ${auditClean.toFixed(0)} ms without v1 usage, ${auditV1.toFixed(0)} ms with a v1 call`);
    expect(auditClean).toBeGreaterThan(node);
    expect(readdirSync(path.join(env.XDG_CACHE_HOME!, "v2-bridge", "compile-cache")).length).toBeGreaterThan(0);
  });
});
