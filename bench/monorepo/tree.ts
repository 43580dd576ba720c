// A realistic monorepo, generated deterministically: ordinary workspace packages that import each
// other through tsconfig `paths` (`@acme/<name>`), a console app that uses the one v1 client
// package (packages/cloud-client), gitignored build output and vendored node_modules. The planted
// v1 sites are returned with the tree, so a run of `audit` can be checked site by site.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { clientPackage, type GeneratedFile, type PlantedSite } from "./client.ts";
import { fillerPackage, rng, type Pkg } from "./filler.ts";

export type { PlantedSite } from "./client.ts";

export interface MonorepoTree {
  files: GeneratedFile[];
  /** v1 call sites in the client package's sources, and the v1 URL in its smoke script. */
  sites: PlantedSite[];
  packages: number;
}

const SCOPE = "@acme";

/** The console app's own pages: they call the client's helpers and route `/pods` themselves (no v1 site here). */
function consolePages(dir: string): GeneratedFile[] {
  const page = (name: string, fn: string, field: string) =>
    [
      `import { useEffect, useState } from "react";`,
      `import { ${fn} } from "${SCOPE}/cloud-client";`,
      ``,
      `export function ${name}() {`,
      `  const [rows, setRows] = useState<{ id: string; ${field}: string }[]>([]);`,
      `  useEffect(() => {`,
      `    ${fn}().then(setRows);`,
      `  }, []);`,
      `  return <ul>{rows.map((r) => <li key={r.id}>{r.${field}}</li>)}</ul>;`,
      `}`,
      ``,
    ].join("\n");
  return [
    { rel: `${dir}/src/pages/PodsPage.tsx`, text: page("PodsPage", "listPods", "name") },
    { rel: `${dir}/src/pages/EndpointsPage.tsx`, text: page("EndpointsPage", "listEndpoints", "name") },
    { rel: `${dir}/src/pages/TemplatesPage.tsx`, text: page("TemplatesPage", "listTemplates", "imageName") },
    {
      rel: `${dir}/src/routes.tsx`,
      text: [
        `import { PodsPage } from "./pages/PodsPage.tsx";`,
        `import { EndpointsPage } from "./pages/EndpointsPage.tsx";`,
        `import { TemplatesPage } from "./pages/TemplatesPage.tsx";`,
        `import * as Shell from "./index.ts";`,
        ``,
        `// The console's own routes: same words as the cloud API's paths, not calls to it.`,
        `export const routes = [`,
        `  { path: "/pods", element: <PodsPage /> },`,
        `  { path: "/pods/:podId", element: <PodsPage /> },`,
        `  { path: "/endpoints", element: <EndpointsPage /> },`,
        `  { path: "/templates", element: <TemplatesPage /> },`,
        `];`,
        `export const shell = Shell;`,
        ``,
      ].join("\n"),
    },
    { rel: `${dir}/src/main.tsx`, text: `import { createRoot } from "react-dom/client";\nimport { routes } from "./routes.tsx";\n\ncreateRoot(document.getElementById("root")!).render(<App routes={routes} />);\n` },
  ];
}

/** The smoke script of the client package: one v1 URL in a shell script (a text-file site). */
function smokeScript(dir: string): { file: GeneratedFile; site: PlantedSite } {
  const rel = `${dir}/scripts/smoke.sh`;
  const text = `#!/bin/sh\n# Lists pods to check the key works.\nset -eu\ncurl -fsS -H "Authorization: Bearer $CLOUD_API_KEY" https://rest.runpod.io/v1/pods\n`;
  return { file: { rel, text }, site: { file: rel, line: 4, operation: "ListPods" } };
}

/** Generates the tree in memory: exactly `total` files (every file counts, ignored and vendored ones too). */
export function generateMonorepo(total: number, seed = 25_000): MonorepoTree {
  const random = rng(seed);
  const files: GeneratedFile[] = [];
  const client = clientPackage("packages/cloud-client", SCOPE);
  const smoke = smokeScript("packages/cloud-client");
  files.push(...client.files, smoke.file);
  files.push(
    { rel: "package.json", text: JSON.stringify({ name: "acme", private: true, workspaces: ["apps/*", "packages/*"], scripts: { build: "turbo run build", test: "turbo run test" } }, null, 2) + "\n" },
    { rel: "tsconfig.json", text: JSON.stringify({ compilerOptions: { target: "ES2022", module: "ESNext", moduleResolution: "Bundler", jsx: "react-jsx", strict: true, baseUrl: ".", paths: { [`${SCOPE}/*`]: ["packages/*/src"] } } }, null, 2) + "\n" },
    { rel: ".gitignore", text: "dist/\ncoverage/\n.cache/\n*.log\n.env\n" },
    { rel: "README.md", text: "# acme\n\nThe console, the workers and their shared packages.\n" },
    { rel: "turbo.json", text: JSON.stringify({ pipeline: { build: { dependsOn: ["^build"], outputs: ["dist/**"] }, test: {} } }, null, 2) + "\n" },
  );

  // Packages sized 120–280 files until 520 files short of the total; the console app depends on a
  // spread of them (so its import closure is most of the repository) and on the client.
  const pkgs: Pkg[] = [];
  const budget = total - 520;
  let count = files.length;
  for (let i = 0; count < budget; i++) {
    const deps = i === 0 ? [] : Array.from({ length: 1 + Math.floor(random() * 3) }, () => pkgs[Math.max(0, i - 1 - Math.floor(random() * Math.min(i, 10)))]!);
    const pkg: Pkg = { dir: `packages/${["ui", "data", "charts", "forms", "auth", "billing", "infra"][i % 7]}-${i}`, name: "", deps: [...new Set(deps)], exports: [] };
    pkg.name = `${SCOPE}/${pkg.dir.slice("packages/".length)}`;
    const size = Math.min(120 + Math.floor(random() * 160), budget - count);
    const made = fillerPackage(pkg, size, random, i % 25 === 7);
    files.push(...made);
    count += made.length;
    pkgs.push(pkg);
  }
  const consoleDeps = pkgs.filter((_, k) => k % Math.max(1, Math.floor(pkgs.length / 8)) === 0);
  const app: Pkg = { dir: "apps/console", name: `${SCOPE}/console`, deps: consoleDeps, exports: [] };
  files.push(...consolePages(app.dir), ...fillerPackage(app, 395, random, true));

  // Documentation pages fill the tree up to exactly `total` files.
  for (let n = 0; files.length < total; n++) files.push({ rel: `docs/notes/${String(n).padStart(4, "0")}.md`, text: `# Note ${n}\n\nDecisions about the ${n % 2 ? "console" : "workers"}, week ${n % 52}.\n` });
  if (files.length > total) throw new Error(`generated ${files.length} files, more than the ${total} asked for (ask for at least ~1500)`);
  return { files, sites: [...client.sites, smoke.site], packages: pkgs.length + 2 };
}

/** Writes the tree under `dir`. */
export function writeTree(dir: string, tree: MonorepoTree): void {
  const made = new Set<string>();
  for (const f of tree.files) {
    const abs = path.join(dir, f.rel);
    const parent = path.dirname(abs);
    if (!made.has(parent)) mkdirSync(parent, { recursive: true }), made.add(parent);
    writeFileSync(abs, f.text);
  }
}
