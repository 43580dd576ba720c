// The auto-import convention read from text (codemod/auto-imports.ts): which modules see which
// exports without an import, and who may use them unseen.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { autoImportPlan, envKey, exportedNames, readText } from "../../codemod/auto-imports.ts";

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function tree(files: Record<string, string>): { root: string; files: string[] } {
  const root = mkdtempSync(path.join(os.tmpdir(), "auto-imports-"));
  dirs.push(root);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), text);
  }
  return { root, files: Object.keys(files).filter((f) => /\.(ts|vue)$/.test(f) && !f.startsWith("nuxt.config")).map((f) => path.join(root, f)) };
}

describe("auto-imports", () => {
  it("reads a module's exported values, a default one named after its file", () => {
    expect(exportedNames("/a/useGpuPods.ts", "export const A = 1\nexport async function b() {}\nexport { c as d }\nexport type T = 1\nexport default function () {}")).toEqual({ names: ["A", "b", "d"], defaultName: "useGpuPods" });
    expect(envKey("runpodBaseUrl")).toBe("RUNPOD_BASE_URL");
  });

  it("binds a free use or a spread to the provider, not a local declaration or an import", () => {
    const t = tree({
      "nuxt.config.ts": "export default defineNuxtConfig({})",
      "server/utils/runpod.ts": "export const rpOpts = () => ({})",
      "server/api/a.ts": "export default defineEventHandler(() => $fetch('/x', { ...rpOpts() }))",
      "server/api/b.ts": "const x = { rpOpts: 1 }; x.rpOpts",
      "server/api/c.ts": "import { rpOpts } from '../utils/runpod'; rpOpts()",
      "server/api/d.ts": "function rpOpts() {}; rpOpts()",
    });
    const plan = autoImportPlan(t.root, t.files, readText)!;
    const at = (rel: string) => path.join(t.root, rel);
    expect(plan.implicit.get(at("server/api/a.ts"))).toContain(at("server/utils/runpod.ts"));
    expect(plan.appended.get(at("server/api/a.ts"))).toContain('import { rpOpts } from "../utils/runpod.ts"');
    expect(plan.appended.get(at("server/api/a.ts"))).toContain("$fetch");
    // (`{ rpOpts: 1 }` counts: an extra import is harmless, a missed use is not.)
    for (const f of ["c", "d"]) expect(plan.implicit.get(at(`server/api/${f}.ts`)) ?? []).not.toContain(at("server/utils/runpod.ts"));
    expect(plan.unseen.size).toBe(0);
  });

  it("counts a name a component uses in its template only as a use it cannot see", () => {
    const t = tree({
      "nuxt.config.ts": "export default defineNuxtConfig({})",
      "utils/links.ts": "export const apiLink = (p: string) => p",
      "pages/index.vue": "<template><a :href=\"apiLink('/pods')\">pods</a></template>\n<script setup lang=\"ts\">\nconst n = 1\n</script>",
    });
    const plan = autoImportPlan(t.root, t.files, readText)!;
    expect(plan.unseen.get(path.join(t.root, "utils/links.ts"))).toEqual(["pages/index.vue (its template)"]);
  });

  it("without a config, modules calling the framework's names show the convention, and the app's bounds are unknown", () => {
    const t = tree({ "server/utils/runpod.ts": "export const rpOpts = () => ({})", "server/api/a.ts": "export default defineEventHandler(() => rpOpts())" });
    const plan = autoImportPlan(t.root, t.files, readText)!;
    expect(plan.convention).toContain("defineEventHandler");
    expect(plan.unseen.get(path.join(t.root, "server/utils/runpod.ts"))?.[0]).toContain("no nuxt.config");
    expect(autoImportPlan(t.root, [path.join(t.root, "server/utils/runpod.ts")], readText)).toBeUndefined();
  });

  it("reads useRuntimeConfig() as runtimeConfig with each key's NUXT_ override", () => {
    const t = tree({ "nuxt.config.ts": "export default defineNuxtConfig({ runtimeConfig: { runpodBaseUrl: 'x', public: { appName: 'y' } } })", "server/api/a.ts": "useRuntimeConfig().runpodBaseUrl" });
    const plan = autoImportPlan(t.root, t.files, readText)!;
    const text = [...plan.virtual.values()][0]!;
    expect(text).toContain("runpodBaseUrl: process.env.NUXT_RUNPOD_BASE_URL ?? c.runpodBaseUrl");
    expect(text).toContain("appName: process.env.NUXT_PUBLIC_APP_NAME ?? c.public.appName");
  });
});
