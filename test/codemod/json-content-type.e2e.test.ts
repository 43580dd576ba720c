// Bodies sent without a JSON Content-Type, over real HTTP against the strict v2 sandbox (it answers
// anything but application/json with 415, as v2 documents; v1 and the gateway took text/plain).
// The client (fixtures client-json-types) sends JSON bodies through fetch with no type, a request
// helper that replaces the caller's headers, axios with a string, undici's request and got's
// `body:`. After `rewrite --write` every call succeeds on v2. The same output without the headers
// the rewrite added is what the engine wrote before (commit b9074ac, checked by hand: those calls
// were migrated with nothing else different): each of those calls gets 415 there, a silent break.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { runCodemod } from "../../codemod/project.ts";
import { FIXTURES } from "./fixture-helpers.ts";
import { startRig, type Rig } from "../gateway/helpers.ts";
import { restoreEnv } from "../helpers/process-state.ts";

const KEY = "sandbox_json_content_type";
const JSON_TYPE = { Authorization: `Bearer ${KEY}`, "Content-Type": "application/json" };

/** The rewritten client without the Content-Type the rewrite added (at calls and in the helper). */
function withoutAddedHeader(text: string): string {
  return text.replace(/\{ \.\.\.auth, "Content-Type": "application\/json" \}/g, "auth");
}

describe("a body sent without a JSON type reaches strict v2 after the rewrite", () => {
  const tmp = mkdtempSync(path.join(os.tmpdir(), "codemod-json-type-"));
  const saved = { ...process.env };
  let rig: Rig | undefined;
  afterAll(async () => {
    await rig?.close();
    restoreEnv(saved);
    rmSync(tmp, { recursive: true, force: true });
  });

  it("runs every call on v2 where the output without the header got 415", async () => {
    const fixed = path.join(tmp, "fixed");
    cpSync(path.join(FIXTURES, "client-json-types"), fixed, { recursive: true });
    const result = await runCodemod({ paths: [fixed], write: true, adapter: false });
    // Only the base's environment variable is left to a human; every call is migrated.
    expect(result.findings.filter((f) => f.category !== "auto").map((f) => f.operation)).toEqual([null]);
    const text = readFileSync(path.join(fixed, "volumes.ts"), "utf8");
    expect(text.match(/"Content-Type": "application\/json"/g)).toHaveLength(6);
    const unfixed = path.join(tmp, "unfixed");
    mkdirSync(unfixed);
    writeFileSync(path.join(unfixed, "volumes.ts"), withoutAddedHeader(text));
    // Left: the header renameVolume sets itself (which the helper drops).
    expect(readFileSync(path.join(unfixed, "volumes.ts"), "utf8").match(/"Content-Type": "application\/json"/g)).toHaveLength(1);

    rig = await startRig();
    const v2 = `${rig.sandbox.url}/v2`;
    process.env.RUNPOD_REST_V2 = v2;
    process.env.RUNPOD_API_KEY = KEY;
    const volumeOf = async (id: string) => (await (await fetch(`${v2}/network-volumes/${id}`, { headers: JSON_TYPE })).json()) as { name: string; size: number };
    const made = await fetch(`${v2}/network-volumes`, { method: "POST", headers: JSON_TYPE, body: JSON.stringify({ name: "made-here", size: 10, dataCenter: "EU-RO-1" }) });
    expect(made.status).toBe(201);
    const existing = ((await made.json()) as { id: string }).id;

    // Without the header: each call that sends a body is refused.
    const before = await import(pathToFileURL(path.join(unfixed, "volumes.ts")).href);
    await expect(before.createVolume("json-e2e")).rejects.toThrow("createVolume: 415");
    await expect(before.renameVolume(existing, "renamed")).rejects.toThrow("renameVolume: 415");
    await expect(before.renameWithUndici(existing, "renamed")).rejects.toThrow("renameWithUndici: 415");
    await expect(before.renameWithGot(existing, "renamed")).rejects.toMatchObject({ response: { statusCode: 415 } });
    expect(await volumeOf(existing)).toMatchObject({ name: "made-here", size: 10 });

    // As rewritten: the same calls, and those the rewrite could only migrate with the header, succeed.
    const after = await import(pathToFileURL(path.join(fixed, "volumes.ts")).href);
    const id: string = await after.createVolume("json-e2e");
    expect(await volumeOf(id)).toMatchObject({ name: "json-e2e", size: 10 });
    await after.renameVolume(id, "via-helper");
    expect(await after.volumeName(id)).toBe("via-helper");
    await after.resizeWithAxios(id, 20);
    await after.renameWithUndici(id, "via-undici");
    expect(await volumeOf(id)).toMatchObject({ name: "via-undici", size: 20 });
    await after.renameWithGot(id, "via-got");
    expect(await volumeOf(id)).toMatchObject({ name: "via-got" });

    // A lifecycle action through the helper that builds its own headers (marked before this fix).
    const pod = await fetch(`${rig.gateway.url}/v1/pods`, { method: "POST", headers: JSON_TYPE, body: JSON.stringify({ name: "json-e2e", imageName: "nginx:latest", gpuTypeIds: ["NVIDIA GeForce RTX 4090"], gpuCount: 1 }) });
    expect(pod.ok).toBe(true);
    const podId = ((await pod.json()) as { id: string }).id;
    await after.stopPod(podId);
    const stopped = (await (await fetch(`${v2}/pods/${podId}`, { headers: JSON_TYPE })).json()) as { status: string };
    expect(stopped.status).toBe("EXITED");
  });
});
