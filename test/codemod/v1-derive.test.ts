// The function a kept call's computed base goes through (`runpodV1Base(apiBase(env))`): run as
// written into a client, it maps what the base is set to at run time onto the v1 base the call
// needs. A deployment's own v1 base (or a gateway's /v1) is kept; the flipped v2 default goes back
// to RUNPOD_V1_BASE; another host's /v2 to its /v1.
import { describe, expect, it } from "vitest";
import { Project } from "../../codemod/ts-morph.ts";
import { declarationEdit, V1_BASE_NAME, V1_DERIVE_NAME } from "../../codemod/engine/v1-redirect.ts";

function derive(v1BaseEnv?: string): (base: string) => string {
  const project = new Project({ useInMemoryFileSystem: true });
  const sf = project.createSourceFile("/client.js", "const key = process.env.RUNPOD_API_KEY;\n");
  const text = [declarationEdit(sf, V1_BASE_NAME, false)!.text, declarationEdit(sf, V1_DERIVE_NAME, false)!.text].join("");
  const process = { env: v1BaseEnv ? { RUNPOD_V1_BASE: v1BaseEnv } : {} };
  return new Function("process", `${text}\nreturn ${V1_DERIVE_NAME};`)(process) as (base: string) => string;
}

describe("runpodV1Base", () => {
  it("moves the flipped v2 default back to RUNPOD_V1_BASE, keeping a trailing slash", () => {
    const f = derive();
    expect(f("https://api.runpod.io/v2")).toBe("https://rest.runpod.io/v1");
    expect(f("https://api.runpod.io/v2/")).toBe("https://rest.runpod.io/v1/");
    expect(derive("https://bridge.internal/v1")("https://api.runpod.io/v2")).toBe("https://bridge.internal/v1");
  });

  it("keeps a base a deployment set to v1 (or a gateway's /v1) as it is", () => {
    const f = derive();
    expect(f("https://rest.runpod.io/v1")).toBe("https://rest.runpod.io/v1");
    expect(f("https://bridge.internal/v1")).toBe("https://bridge.internal/v1");
  });

  it("moves another host's /v2 (a gateway configured for v2) to the same host's /v1", () => {
    expect(derive()("https://bridge.internal/v2")).toBe("https://bridge.internal/v1");
  });

  it("is written once per file", () => {
    const project = new Project({ useInMemoryFileSystem: true });
    const sf = project.createSourceFile("/c.ts", `function ${V1_DERIVE_NAME}(base: string): string { return base; }\n`);
    expect(declarationEdit(sf, V1_DERIVE_NAME, true)).toBeUndefined();
  });
});
