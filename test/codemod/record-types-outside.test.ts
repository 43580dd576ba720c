// Record types the codemod must not edit: a package's own types under node_modules (never parsed:
// the import does not resolve in the engine's project) type a ky answer and a fetch answer. A read
// through them cannot be renamed (tsc checks the package's real fields), so the record goes
// through the boundary adapter, or, without it, the call is marked; node_modules is never written.
// The fixtures cannot hold a node_modules tree (ignored by git), so the tree is made here on disk.
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCodemod } from "../../codemod/project.ts";

const temps: string[] = [];
afterAll(() => temps.forEach((d) => rmSync(d, { recursive: true, force: true })));

const PACKAGE_TYPES = "export interface Template { id: string; imageName: string }\nexport interface NetworkVolume { id: string; dataCenterId: string }\n";

function tree(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "record-types-outside-"));
  temps.push(dir);
  const files: Record<string, string> = {
    "node_modules/@acme/runpod-types/package.json": JSON.stringify({ name: "@acme/runpod-types", types: "index.d.ts" }),
    "node_modules/@acme/runpod-types/index.d.ts": PACKAGE_TYPES,
    "src/templates.ts": [
      'import ky from "ky";',
      'import type { Template } from "@acme/runpod-types";',
      'const api = ky.create({ prefixUrl: "https://rest.runpod.io/v1" });',
      "export async function retag(id: string, imageName: string): Promise<string> {",
      "  const t = await api.post(`templates/${id}/update`, { json: { imageName } }).json<Template>();",
      "  return t.imageName;",
      "}",
      "",
    ].join("\n"),
    "src/volumes.ts": [
      'import type { NetworkVolume } from "@acme/runpod-types";',
      "export async function region(id: string): Promise<string> {",
      "  const res = await fetch(`https://rest.runpod.io/v1/networkvolumes/${id}`);",
      "  const v: NetworkVolume = await res.json();",
      "  return v.dataCenterId;",
      "}",
      "",
    ].join("\n"),
  };
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

describe("record types declared outside the project", () => {
  it("routes the records through the adapter instead of renaming reads the package's types declare", async () => {
    const dir = tree();
    const result = await runCodemod({ paths: [dir], write: true });
    const templates = readFileSync(path.join(dir, "src/templates.ts"), "utf8");
    const volumes = readFileSync(path.join(dir, "src/volumes.ts"), "utf8");
    expect(templates).toContain("v2Adapter.toV1Record.template(await api.patch(`templates/${id}`, { json: { image: imageName } }).json<Template>())");
    expect(templates).toContain("return t.imageName;");
    expect(volumes).toContain("const v: NetworkVolume = v2Adapter.toV1Record.networkVolume(await res.json());");
    expect(volumes).toContain("return v.dataCenterId;");
    expect(readFileSync(path.join(dir, "node_modules/@acme/runpod-types/index.d.ts"), "utf8")).toBe(PACKAGE_TYPES);
    expect(result.findings.filter((f) => f.category !== "auto")).toEqual([]);
  });

  it("marks the call, naming the type outside the project, with --no-adapter", async () => {
    const dir = tree();
    const { findings } = await runCodemod({ paths: [dir], write: true, adapter: false });
    const templates = readFileSync(path.join(dir, "src/templates.ts"), "utf8");
    // The mark names the field; its finding says where the type is declared.
    expect(templates).toMatch(/TODO\(v2-migration\) UpdateTemplate#post-update \(review\): v1 record field imageName is image in v2/);
    expect(findings.find((f) => f.operation === "UpdateTemplate#post-update")?.reason).toMatch(/v1 record field imageName is image in v2, and the type this code reads it through \(Template\) is declared outside the project's own source/);
    expect(templates).toContain("return t.imageName;");
    expect(templates).not.toContain("t.image;");
    expect(readFileSync(path.join(dir, "node_modules/@acme/runpod-types/index.d.ts"), "utf8")).toBe(PACKAGE_TYPES);
  });
});
