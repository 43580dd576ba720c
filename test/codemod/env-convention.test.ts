// The environment reads a rewrite writes follow the project's convention: a Vite app's flipped base
// and the v1 base of its kept calls are read from import.meta.env under the VITE_ prefix (a browser
// bundle has no `process`), the kept calls still fall back to the app's own configured base, and
// the names added are declared in the project's own ImportMetaEnv interface so the tree type-checks.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";
import { runCodemod } from "../../codemod/project.ts";
import { fallbackRead } from "../../codemod/engine/env-convention.ts";
import { FIXTURES } from "./fixture-helpers.ts";
import { addedMetaEnvNames } from "../../codemod/env-declarations.ts";

const temps: string[] = [];
afterAll(() => temps.forEach((t) => rmSync(t, { recursive: true, force: true })));

function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "codemod-env-"));
  temps.push(dir);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

function allFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => (statSync(path.join(dir, f)).isDirectory() ? allFiles(path.join(dir, f)) : [path.join(dir, f)]));
}

/** tsc over every TypeScript file of a tree (strict, ES modules, DOM; no Vite or Node types), nothing excused. */
function typecheck(dir: string): string[] {
  const files = allFiles(dir).filter((f) => /\.tsx?$/.test(f));
  const program = ts.createProgram(files, { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, lib: ["lib.es2023.d.ts", "lib.dom.d.ts"], types: [], strict: true, noEmit: true, skipLibCheck: true });
  return ts.getPreEmitDiagnostics(program).map((d) => `${d.file ? path.relative(dir, d.file.fileName) : ""}: TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`);
}

describe("the v1 base of kept calls is read as the project reads its environment", () => {
  it("follows the base's own variable: root, public prefix, and its value next", () => {
    expect(fallbackRead("RUNPOD_V1_BASE", ["import.meta.env.VITE_RUNPOD_API_BASE"], "", true)).toEqual({ read: "import.meta.env.VITE_RUNPOD_V1_BASE ?? import.meta.env.VITE_RUNPOD_API_BASE", variable: "VITE_RUNPOD_V1_BASE", op: "??" });
    expect(fallbackRead("RUNPOD_V1_BASE", ["process.env.NEXT_PUBLIC_RUNPOD_URL"], "", true)).toEqual({ read: "process.env.NEXT_PUBLIC_RUNPOD_V1_BASE ?? process.env.NEXT_PUBLIC_RUNPOD_URL", variable: "NEXT_PUBLIC_RUNPOD_V1_BASE", op: "??" });
    // A custom envPrefix under import.meta.env: the text before RUNPOD.
    expect(fallbackRead("RUNPOD_V1_BASE", ["import.meta.env.APP_RUNPOD_BASE"], "", true).variable).toBe("APP_RUNPOD_V1_BASE");
    // Server code keeps the names it had.
    expect(fallbackRead("RUNPOD_V1_BASE", ["process.env.RUNPOD_REST"], "", false)).toEqual({ read: "process.env.RUNPOD_V1_BASE ?? process.env.RUNPOD_REST", variable: "RUNPOD_V1_BASE", op: "??" });
  });

  it("keeps the original's || (an empty variable takes the default), and reads SvelteKit's $env at run time", () => {
    expect(fallbackRead("RUNPOD_V1_BASE", [{ env: "process.env.RUNPOD_API_BASE", or: true }], "", false)).toEqual({ read: "process.env.RUNPOD_V1_BASE || process.env.RUNPOD_API_BASE", variable: "RUNPOD_V1_BASE", op: "||" });
    const kit = 'import { RUNPOD_API_BASE } from "$env/static/private";';
    expect(fallbackRead("RUNPOD_V1_BASE", [{ kitEnv: "RUNPOD_API_BASE", or: true }], kit, true, "/app/src/lib/server/api.ts")).toEqual({
      read: "runpodEnv.RUNPOD_V1_BASE || runpodEnv.RUNPOD_API_BASE",
      variable: "RUNPOD_V1_BASE",
      op: "||",
      prelude: 'import { env as runpodEnv } from "$env/dynamic/private";\n',
    });
    // A universal module sees only public variables; an existing import of env is reused.
    expect(fallbackRead("RUNPOD_V1_BASE", [{ kitEnv: "RUNPOD_API_BASE" }], kit, true, "/app/src/lib/api.ts").read).toBe("runpodEnv.PUBLIC_RUNPOD_V1_BASE");
    expect(fallbackRead("RUNPOD_V1_BASE", [{ kitEnv: "RUNPOD_API_BASE" }], 'import { env } from "$env/dynamic/private";', true, "/app/src/routes/+page.server.ts").prelude).toBeUndefined();
  });

  it("reads another base's variable only when it was every kept call's one base", () => {
    expect(fallbackRead("RUNPOD_V1_BASE", ["process.env.A", "process.env.B"], "", true).read).toBe("process.env.RUNPOD_V1_BASE");
    expect(fallbackRead("RUNPOD_V1_BASE", ["process.env.A", undefined], "", true).read).toBe("process.env.RUNPOD_V1_BASE");
    expect(fallbackRead("RUNPOD_V1_BASE", ["process.env.A", "process.env.A"], "", true).read).toBe("process.env.RUNPOD_V1_BASE ?? process.env.A");
  });

  it("without a base from the environment, follows the file's own reads", () => {
    expect(fallbackRead("RUNPOD_V1_BASE", [undefined], "const k = import.meta.env.VITE_KEY;", true).read).toBe("import.meta.env.VITE_RUNPOD_V1_BASE");
    expect(fallbackRead("RUNPOD_V1_BASE", [], "const k = process.env.KEY;", true).read).toBe("process.env.RUNPOD_V1_BASE");
    expect(fallbackRead("RUNPOD_V1_BASE", [], "const x = 1;", true).read).toBe("(globalThis as any).process?.env?.RUNPOD_V1_BASE");
    // CommonJS has no import.meta.
    expect(fallbackRead("RUNPOD_V1_BASE", [], "const k = import.meta.env.VITE_KEY; module.exports = {};", false).read).toBe("globalThis.process?.env?.RUNPOD_V1_BASE");
  });
});

describe("a Vite app whose ImportMetaEnv the project declares", () => {
  it("declares only the import.meta.env names the rewrite added, dotted or bracketed", () => {
    expect(addedMetaEnvNames('import.meta.env["VITE_A"]; import.meta.env.VITE_KEY', 'import.meta.env["VITE_A_V2"]; import.meta.env.VITE_KEY; import.meta.env.VITE_RUNPOD_V1_BASE')).toEqual(["VITE_A_V2", "VITE_RUNPOD_V1_BASE"]);
  });

  it("type-checks after the rewrite, with no mark excused, and a second run changes nothing", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "codemod-vite-"));
    temps.push(dir);
    cpSync(path.join(FIXTURES, "urls/vite-env-base/input"), dir, { recursive: true });
    expect(typecheck(dir)).toEqual([]);
    const result = await runCodemod({ paths: [dir], write: true });
    expect(result.files.filter((f) => f.changed).map((f) => f.file).sort()).toEqual(["src/api.ts", "src/vite-env.d.ts"]);
    const api = readFileSync(path.join(dir, "src/api.ts"), "utf8");
    expect(api).toContain("const RUNPOD_V1_BASE = import.meta.env.VITE_RUNPOD_V1_BASE ?? import.meta.env.VITE_RUNPOD_API_BASE ?? ");
    expect(api).not.toContain("process");
    expect(typecheck(dir)).toEqual([]);
    const again = await runCodemod({ paths: [dir], write: true });
    expect(again.files.filter((f) => f.changed)).toEqual([]);
    // Two compilations with the DOM library and two runs, on a shared 2-core machine.
  }, 180_000);

  it("adds members to a one-line interface and to one inside `declare global`, beside the reading file", async () => {
    const base = `const API = import.meta.env.VITE_RUNPOD_URL ?? "https://rest.runpod.io/v1";\nexport const pods = async () => (await (await fetch(\`\${API}/pods\`)).json()).length;\n`;
    const dir = tree({
      "app/src/api.ts": base,
      "app/env.d.ts": "interface ImportMetaEnv { readonly VITE_RUNPOD_URL?: string }\ninterface ImportMeta { readonly env: ImportMetaEnv }\n",
      "other/src/api.ts": base.replace("pods", "podsToo"),
      "other/types/global.d.ts": "export {};\ndeclare global {\n  interface ImportMetaEnv {\n    VITE_RUNPOD_URL?: string\n  }\n  interface ImportMeta { readonly env: ImportMetaEnv }\n}\n",
    });
    await runCodemod({ paths: [dir], write: true });
    expect(readFileSync(path.join(dir, "app/env.d.ts"), "utf8")).toBe("interface ImportMetaEnv { readonly VITE_RUNPOD_URL?: string; readonly VITE_RUNPOD_URL_V2?: string }\ninterface ImportMeta { readonly env: ImportMetaEnv }\n");
    expect(readFileSync(path.join(dir, "other/types/global.d.ts"), "utf8")).toContain("    VITE_RUNPOD_URL?: string\n    VITE_RUNPOD_URL_V2?: string\n  }");
    expect(typecheck(path.join(dir, "app"))).toEqual([]);
  }, 120_000);

  it("leaves a project on vite/client's open ImportMetaEnv alone", async () => {
    const dir = tree({
      "src/api.ts": `const API = import.meta.env.VITE_RUNPOD_URL ?? "https://rest.runpod.io/v1";\nexport const pods = async () => (await (await fetch(\`\${API}/pods\`)).json()).length;\n`,
      "src/vite-env.d.ts": '/// <reference types="vite/client" />\n',
    });
    const result = await runCodemod({ paths: [dir], write: true });
    expect(result.files.filter((f) => f.changed).map((f) => f.file)).toEqual(["src/api.ts"]);
    expect(readFileSync(path.join(dir, "src/vite-env.d.ts"), "utf8")).toBe('/// <reference types="vite/client" />\n');
  });
});
