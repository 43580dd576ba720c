// Which files the analysis parses: the import closure (codemod/import-closure.ts) and how an
// importer uses what it imports (codemod/import-uses.ts), on real files on disk.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { passesOnImports } from "../../codemod/import-uses.ts";
import { closure, readPathsConfig, specifiersOf, textResolver } from "../../codemod/project-index.ts";
import { mightUseV1Buffer } from "../../codemod/prefilter.ts";

const temps: string[] = [];
afterAll(() => temps.forEach((t) => rmSync(t, { recursive: true, force: true })));

/** Writes the files and returns the closure over them, relative to the tree's root. */
function closureOf(files: Record<string, string>): string[] {
  const root = mkdtempSync(path.join(os.tmpdir(), "closure-"));
  temps.push(root);
  const specifiers = new Map<string, string[]>();
  const seeds = new Set<string>();
  for (const [rel, text] of Object.entries(files)) {
    const abs = path.join(root, rel);
    mkdirSync(path.dirname(abs), { recursive: true });
    writeFileSync(abs, text);
    const specs = specifiersOf(text);
    if (specs.length) specifiers.set(abs, specs);
    if (mightUseV1Buffer(Buffer.from(text))) seeds.add(abs);
  }
  const known = new Set(Object.keys(files).filter((f) => !f.endsWith(".json")).map((f) => path.join(root, f)));
  return closure({ specifiers, seeds, root }, textResolver(known, readPathsConfig(root))).map((f) => path.relative(root, f).split(path.sep).join("/"));
}

describe("passesOnImports", () => {
  const connected = new Set(["./client"]);
  const uses = (text: string) => passesOnImports(text, specifiersOf(text), connected);

  it("rendering, typing and re-exporting what a connected module exports passes nothing on", () => {
    expect(uses(`import { PodsPage } from "./client";\nexport const routes = [{ path: "/pods", element: <PodsPage /> }];`)).toBe(false);
    expect(uses(`import type { Pod } from "./client";\nexport function name(p: Pod) { return p.name; }`)).toBe(false);
    expect(uses(`import { type Pod, Table as T } from "./client";\nconst x: Pod[] = [];\nexport const v = <T rows={x}></T>;`)).toBe(false);
    expect(uses(`export * from "./client";\nexport { listPods as pods } from "./client";`)).toBe(false);
    expect(uses(`import { listPods } from "./client";\nexport { listPods };`)).toBe(false);
    expect(uses(`import "./client";\nconsole.log(1);`)).toBe(false);
    expect(uses(`import { Page } from "./client";\nconst state = useState<Page>();\nlet x = obj.Page;`)).toBe(false);
  });

  it("calling, passing or storing it does, and so does an import the reader does not understand", () => {
    expect(uses(`import { listPods } from "./client";\nlistPods().then(show);`)).toBe(true);
    expect(uses(`import { api } from "./client";\napi.get("/pods");`)).toBe(true);
    expect(uses(`import * as client from "./client";\nclient.request("/pods");`)).toBe(true);
    expect(uses(`import base from "./client";\nfetch(\`\${base}/pods\`);`)).toBe(true);
    expect(uses(`import { routes } from "./client";\nrender(<App routes={routes} />);`)).toBe(true);
    expect(uses(`const client = require("./client");\nclient.get("/pods");`)).toBe(true);
    expect(uses(`const { get } = await import("./client");`)).toBe(true);
  });

  it("imports of modules that are not connected do not count", () => {
    expect(uses(`import { format } from "./dates";\nimport { Page } from "./client";\nformat(new Date());\nexport const p = <Page />;`)).toBe(false);
  });
});

describe("closure", () => {
  // A client, a page that calls it, a router that renders the page, and the rest of the app
  // behind the router: the router hands nothing v1 to the app, so the app is not parsed.
  const app = {
    "client/http.ts": `export const BASE = "https://rest.runpod.io/v1";\nexport const get = (p: string) => fetch(BASE + p).then((r) => r.json());\n`,
    "client/types.ts": `export interface Pod { id: string; desiredStatus: string }\n`,
    "client/pods.ts": `import { get } from "./http";\nimport type { Pod } from "./types";\nexport const listPods = (): Promise<Pod[]> => get("/pods");\n`,
    "client/index.ts": `export * from "./pods";\nexport * from "./http";\nexport * from "./types";\n`,
    "app/PodsPage.tsx": `import { listPods } from "../client";\nimport { Table } from "./components/Table";\nexport function PodsPage() { listPods(); return <Table />; }\n`,
    "app/components/Table.tsx": `import { cell } from "../util/cell";\nexport const Table = () => <table>{cell()}</table>;\n`,
    "app/util/cell.ts": `export const cell = () => "x";\n`,
    "app/routes.tsx": `import { PodsPage } from "./PodsPage";\nimport * as Shell from "./shell";\nexport const routes = [{ path: "/pods", element: <PodsPage /> }];\nexport const shell = Shell;\n`,
    "app/shell/index.ts": `export * from "./Nav";\n`,
    "app/shell/Nav.tsx": `import { cell } from "../util/cell";\nexport const Nav = () => <nav>{cell()}</nav>;\n`,
    "app/unrelated.ts": `import { cell } from "./util/cell";\nexport const u = cell();\n`,
  };

  it("does not follow the other imports of an importer that only renders the connected page", () => {
    expect(closureOf(app)).toEqual(["app/PodsPage.tsx", "app/components/Table.tsx", "app/routes.tsx", "app/util/cell.ts", "client/http.ts", "client/index.ts", "client/pods.ts", "client/types.ts"]);
  });

  it("follows everything an importer that uses the connected modules imports, through re-exports", () => {
    const files = {
      ...app,
      "lib/fetch-json.ts": `export const fetchJson = (u: string) => fetch(u).then((r) => r.json());\n`,
      "lib/index.ts": `export * from "./fetch-json";\n`,
      "app/custom.ts": `import { BASE } from "../client";\nimport { fetchJson } from "../lib";\nexport const volumes = () => fetchJson(\`\${BASE}/networkvolumes\`);\n`,
    };
    expect(closureOf(files)).toEqual(expect.arrayContaining(["app/custom.ts", "lib/index.ts", "lib/fetch-json.ts"]));
    expect(closureOf(files)).not.toContain("app/shell/Nav.tsx");
  });

  it("finds importers through directory specifiers, index files and tsconfig paths", () => {
    const files = {
      "tsconfig.json": JSON.stringify({ compilerOptions: { baseUrl: ".", paths: { "@acme/*": ["packages/*/src"] } } }),
      "packages/cloud/src/index.ts": `export const BASE = "https://rest.runpod.io/v1";\n`,
      "packages/cloud/src/use-dot.ts": `import { BASE } from ".";\nfetch(BASE + "/pods");\n`,
      "packages/web/src/a.ts": `import { BASE } from "@acme/cloud";\nfetch(BASE + "/templates");\n`,
      "packages/web/src/b/index.ts": `import { BASE } from "../../../cloud/src/index.js";\nfetch(BASE + "/endpoints");\n`,
      "packages/web/src/c.ts": `import { x } from "./b";\nx(1);\n`,
      "packages/web/src/d.ts": `import { cell } from "./cell";\ncell();\n`,
      "packages/web/src/cell.ts": `export const cell = () => 1;\n`,
    };
    expect(closureOf(files)).toEqual(["packages/cloud/src/index.ts", "packages/cloud/src/use-dot.ts", "packages/web/src/a.ts", "packages/web/src/b/index.ts", "packages/web/src/c.ts"]);
  });

  it("takes in a module that imports the HTTP client package a seed makes a client with (the client may be handed to it)", () => {
    const got = closureOf({
      "src/http.ts": `import ky from "ky";\nexport const make = () => ky.create({ prefixUrl: "https://rest.runpod.io/v1" });`,
      "src/volumes.ts": `import type { KyInstance } from "ky";\nexport const drop = (c: KyInstance, id: string) => c.delete(\`networkvolumes/\${id}\`);`,
      "src/ui.ts": `import { h } from "vue";\nexport const v = h("div");`,
    });
    expect(got).toEqual(["src/http.ts", "src/volumes.ts"]);
  });
});
