// The end-to-end files share a worker's process with the other shared files (vitest.config.ts):
// e2eScope must give back the environment (the same object, its contents) and `fetch` it found,
// and the shared project's setup file (test/helpers/leaves-no-state.ts) must see what a file left.
import { describe, expect, it } from "vitest";
import { leftBehind, processState, restoreEnv } from "../helpers/process-state.ts";
import { e2eScope } from "./e2e-servers.ts";

const before = processState();

describe("a file's e2eScope, used as the e2e files use it", () => {
  const scope = e2eScope("codemod-e2e-scope-");

  it("sets the clients' environment and records fetch while its tests run", async () => {
    const { sandbox } = await scope.clientEnv("sandbox_e2e_scope");
    const seen = scope.recordFetch("http://gateway.invalid");
    process.env.E2E_SCOPE_EXTRA = "set by a test";
    expect(process.env.RUNPOD_API_URL_V2).toBe(`${sandbox.url}/v2`);
    expect(process.env.RUNPOD_V1_BASE).toMatch(/\/v1$/);
    expect(globalThis.fetch).not.toBe(before.globals.fetch);
    await fetch(`${sandbox.url}/v2/pods`, { headers: { Authorization: "Bearer sandbox_e2e_scope" } });
    expect(seen).toEqual(["GET v2 /v2/pods"]);
    expect(leftBehind(before, processState()).length).toBeGreaterThan(0);
  });
});

describe("after the scope's hooks", () => {
  it("the environment object, its contents and fetch are as they were", () => {
    expect(leftBehind(before, processState())).toEqual([]);
  });
});

describe("leftBehind", () => {
  it("names an added, a changed and a removed variable, a replaced env object and a replaced global", () => {
    const base = { envObject: process.env, env: { KEPT: "k", CHANGED: "a", REMOVED: "r" }, globals: { fetch: before.globals.fetch, Headers: before.globals.Headers } };
    const after = { envObject: {} as NodeJS.ProcessEnv, env: { KEPT: "k", CHANGED: "b", ADDED: "1" }, globals: { fetch: () => undefined, Headers: before.globals.Headers } };
    expect(leftBehind(base, after).sort()).toEqual(
      ["process.env replaced by another object", 'process.env.CHANGED: "a" → "b"', 'process.env.REMOVED: "r" → undefined', 'process.env.ADDED: undefined → "1"', "fetch replaced"].sort(),
    );
    expect(leftBehind(base, { ...base, env: { ...base.env } })).toEqual([]);
  });

  it("restoreEnv puts back a copy in place: added keys removed, changed and removed ones restored", () => {
    const original = { ...process.env };
    const object = process.env;
    process.env.RESTORE_ENV_CHANGED = "a";
    process.env.RESTORE_ENV_REMOVED = "r";
    const saved = { ...process.env };
    process.env.RESTORE_ENV_ADDED = "x";
    process.env.RESTORE_ENV_CHANGED = "b";
    delete process.env.RESTORE_ENV_REMOVED;
    restoreEnv(saved);
    expect(process.env).toBe(object);
    expect([process.env.RESTORE_ENV_ADDED, process.env.RESTORE_ENV_CHANGED, process.env.RESTORE_ENV_REMOVED]).toEqual([undefined, "a", "r"]);
    restoreEnv(original);
    expect(leftBehind(before, processState())).toEqual([]);
  });
});
