// Fast start: a command loads only what it needs. Checked on real processes with every loaded
// module recorded (ES and CommonJS): `audit` never loads the servers' stack, `gateway` never
// loads the codemod's compiler, `--version` loads nothing but the argument parser.
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../openapi/reference.ts";
import { BUILT_CLI } from "../helpers/cli.ts";
import { loadedPackages } from "../helpers/loaded-packages.ts";
import { missingReference } from "../helpers/reference.ts";

const BIN = BUILT_CLI;
/** What the development entry itself brings (tsx compiles the sources); the installed package has none of it. */
const DEV_ENTRY = ["tsx", "esbuild", "get-tsconfig", "resolve-pkg-maps"];
const SERVER_STACK = ["fastify", "pino", "undici", "http-proxy", "prom-client", "ioredis", "ajv", "avvio", "find-my-way"];
const CODEMOD_STACK = ["ts-morph", "@ts-morph/common", "typescript", "jscodeshift", "diff", "cli-progress"];

const oneFileProject = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "v2b-lazy-"));
  writeFileSync(path.join(dir, "client.ts"), 'export const pods = () => fetch("https://rest.runpod.io/v1/pods").then((r) => r.json());\n');
  return dir;
};

describe("each command loads only what it needs", { timeout: 90_000 }, () => {
  it("audit on a project with a v1 call: the codemod engine, none of the servers' stack", async () => {
    const dir = oneFileProject();
    const { packages, code } = await loadedPackages(BIN, ["audit", dir, "--no-progress"], { cwd: dir });
    expect(code).toBe(1); // one finding
    expect(packages).toContain("ts-morph"); // the recorder sees CommonJS packages reached through require
    expect(SERVER_STACK.filter((p) => packages.has(p))).toEqual([]);
    // The audit JSON's schema is for its readers (report, gateway); writing it needs only its enumerations (formats/audit-values.ts).
    expect(packages.has("@sinclair/typebox")).toBe(false);
  });

  it("audit on a project without a v1 host: not even the compiler (TypeScript, ts-morph)", async () => {
    // The case of every gate once a project is migrated: the text pre-filter rules the file out,
    // so the cold start stays at the CLI's own (docs/performance-cold-start.md).
    const dir = mkdtempSync(path.join(os.tmpdir(), "v2b-lazy-clean-"));
    writeFileSync(path.join(dir, "client.ts"), 'import { base } from "./base";\nexport const items = () => fetch(`${base}/v1/items`).then((r) => r.json());\n');
    writeFileSync(path.join(dir, "base.ts"), 'export const base = "https://api.example.com";\n');
    const { packages, code, output } = await loadedPackages(BIN, ["audit", dir, "--no-progress"], { cwd: dir });
    expect(code, output).toBe(0); // no finding
    expect(output).toContain("2 files scanned");
    expect(CODEMOD_STACK.filter((p) => packages.has(p))).toEqual([]);
    expect(SERVER_STACK.filter((p) => packages.has(p))).toEqual([]);
    expect(packages.has("@sinclair/typebox")).toBe(false);
  });

  it("gateway: the servers' stack, none of the codemod's compiler", async () => {
    const cwd = mkdtempSync(path.join(os.tmpdir(), "v2b-lazy-gw-"));
    const args = ["gateway", "--port", "0", "--admin-port", "0", ...(missingReference ? ["--no-validation"] : [])];
    const until = async (output: () => string) => {
      const deadline = Date.now() + 30_000;
      while (!/listening on/.test(output())) {
        if (Date.now() > deadline) throw new Error(`gateway did not start:\n${output()}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    const { packages } = await loadedPackages(BIN, args, { cwd, until });
    expect(packages).toContain("fastify");
    expect(CODEMOD_STACK.filter((p) => packages.has(p))).toEqual([]);
  });

  it("--version: only the argument parser", async () => {
    const { packages, output } = await loadedPackages(BIN, ["--version"], { cwd: REPO_ROOT });
    expect(output.trim()).toMatch(/^\d+\.\d+\.\d+/);
    expect([...packages].filter((p) => !DEV_ENTRY.includes(p))).toEqual(["commander"]);
  });
});
