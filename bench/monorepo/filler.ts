// Ordinary packages of the generated monorepo: React components, hooks, utils, tests, JSON,
// declaration files, build output (gitignored) and vendored dependencies (node_modules). None of
// it calls the v1 API; a few things look close (the app's own `/pods` routes and `/api/...`
// fetches, the serverless runtime host, a vendored SDK under node_modules naming the v1 host).
import type { GeneratedFile } from "./client.ts";

/** Deterministic PRNG (mulberry32): the same seed gives the same tree, byte for byte. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NOUNS = ["account", "billing", "cluster", "dashboard", "invoice", "job", "metric", "node", "order", "profile", "queue", "report", "session", "storage", "team", "usage", "worker", "audit", "region", "quota"];
const ADJ = ["active", "cached", "draft", "filtered", "grouped", "paged", "pending", "sorted", "visible", "recent"];
const cap = (s: string) => s[0]!.toUpperCase() + s.slice(1);

export interface Pkg {
  /** Directory relative to the root, e.g. `packages/ui-kit-12`. */
  dir: string;
  /** Import name, e.g. `@acme/ui-kit-12`. */
  name: string;
  /** Packages it imports from (lower in the dependency order). */
  deps: Pkg[];
  /** Exported component names (what its dependents import). */
  exports: string[];
}

function component(pick: <T>(xs: T[]) => T, name: string, siblings: string[], deps: Pkg[], utils: string[], i: number): string {
  const noun = pick(NOUNS);
  const sib = siblings.length ? [`import { ${siblings[0]} } from "./${siblings[0]}.tsx";`] : [];
  const dep = deps.length ? [`import { ${deps[0]!.exports[i % deps[0]!.exports.length]} as Dep${i} } from "${deps[0]!.name}";`] : [];
  return [
    `import { useEffect, useMemo, useState } from "react";`,
    ...sib,
    ...dep,
    `import { ${utils[i % utils.length]} } from "../utils/${utils[i % utils.length]}.ts";`,
    ``,
    `export interface ${name}Props {`,
    `  ${noun}Id: string;`,
    `  title?: string;`,
    `  onSelect?: (id: string) => void;`,
    `}`,
    ``,
    `export function ${name}({ ${noun}Id, title = "${cap(noun)}", onSelect }: ${name}Props) {`,
    `  const [rows, setRows] = useState<{ id: string; label: string }[]>([]);`,
    `  const [error, setError] = useState<string | null>(null);`,
    `  useEffect(() => {`,
    `    let cancelled = false;`,
    `    fetch(\`/api/${noun}s/\${${noun}Id}/${pick(ADJ)}\`)`,
    `      .then((r) => r.json())`,
    `      .then((data) => !cancelled && setRows(data.items ?? []))`,
    `      .catch((e: Error) => setError(e.message));`,
    `    return () => {`,
    `      cancelled = true;`,
    `    };`,
    `  }, [${noun}Id]);`,
    `  const sorted = useMemo(() => [...rows].sort((a, b) => a.label.localeCompare(b.label)), [rows]);`,
    `  if (error) return <p className="error">{error}</p>;`,
    `  return (`,
    `    <section aria-label={title} data-page="/${noun}s">`,
    `      <h2>{${utils[i % utils.length]}(title)}</h2>`,
    ...(sib.length ? [`      <${siblings[0]} ${noun}Id={${noun}Id} />`] : []),
    ...(dep.length ? [`      <Dep${i} />`] : []),
    `      <ul>`,
    `        {sorted.map((row) => (`,
    `          <li key={row.id} onClick={() => onSelect?.(row.id)}>`,
    `            {row.label}`,
    `          </li>`,
    `        ))}`,
    `      </ul>`,
    `    </section>`,
    `  );`,
    `}`,
    ``,
  ].join("\n");
}

function util(pick: <T>(xs: T[]) => T, name: string, k: number): string {
  const lines = [`// ${cap(name)}: small pure helpers shared by the package's components.`, ``, `export function ${name}(input: string): string {`, `  return input.trim().replace(/\\s+/g, " ");`, `}`, ``];
  for (let j = 0; j < k; j++) {
    const adj = pick(ADJ);
    lines.push(
      `export function ${adj}${cap(name)}${j}<T extends { id: string; updatedAt: number }>(items: T[], limit = ${10 + j}): T[] {`,
      `  const seen = new Set<string>();`,
      `  const out: T[] = [];`,
      `  for (const item of [...items].sort((a, b) => b.updatedAt - a.updatedAt)) {`,
      `    if (seen.has(item.id)) continue;`,
      `    seen.add(item.id);`,
      `    out.push(item);`,
      `    if (out.length >= limit) break;`,
      `  }`,
      `  return out;`,
      `}`,
      ``,
    );
  }
  return lines.join("\n");
}

function hook(name: string, noun: string, serverless: boolean): string {
  const url = serverless ? `\`https://api.runpod.ai/v2/\${endpointId}/runsync\`` : `\`/api/${noun}s?page=\${page}\``;
  return [
    `import { useEffect, useState } from "react";`,
    ``,
    `export function ${name}(page = 1, endpointId = "") {`,
    `  const [data, setData] = useState<unknown[]>([]);`,
    `  const [loading, setLoading] = useState(true);`,
    `  useEffect(() => {`,
    `    setLoading(true);`,
    `    fetch(${url}, { method: "${serverless ? "POST" : "GET"}" })`,
    `      .then((r) => r.json())`,
    `      .then(setData)`,
    `      .finally(() => setLoading(false));`,
    `  }, [page, endpointId]);`,
    `  return { data, loading };`,
    `}`,
    ``,
  ].join("\n");
}

function test(subject: string, from: string, isComponent: boolean): string {
  return [
    `import { describe, expect, it } from "vitest";`,
    `import { ${subject} } from "${from}";`,
    ``,
    `describe("${subject}", () => {`,
    isComponent
      ? `  it("is a component", () => {\n    expect(typeof ${subject}).toBe("function");\n  });`
      : `  it("normalises whitespace", () => {\n    expect(${subject}("  a   b ")).toBe("a b");\n  });`,
    `  it("is stable", () => {`,
    `    expect(${subject}.name).toBe("${subject}");`,
    `  });`,
    `});`,
    ``,
  ].join("\n");
}

/** One ordinary package: about `size` files, all of them counted (build output and vendored files included). */
export function fillerPackage(pkg: Pkg, size: number, random: () => number, withVendoredSdk: boolean): GeneratedFile[] {
  const pick = <T,>(xs: T[]): T => xs[Math.floor(random() * xs.length)]!;
  const files: GeneratedFile[] = [];
  const add = (rel: string, text: string) => files.push({ rel: `${pkg.dir}/${rel}`, text });
  add("package.json", JSON.stringify({ name: pkg.name, version: `1.${Math.floor(random() * 40)}.0`, private: true, type: "module", main: "src/index.ts", dependencies: Object.fromEntries([["react", "^18.3.0"], ...pkg.deps.map((d) => [d.name, "workspace:*"])]) }, null, 2) + "\n");
  add("tsconfig.json", JSON.stringify({ extends: "../../tsconfig.json", include: ["src"] }, null, 2) + "\n");
  add("README.md", `# ${pkg.name}\n\nComponents and helpers for the ${pick(NOUNS)} screens.\n\n\`\`\`sh\nnpm test -w ${pkg.name}\n\`\`\`\n`);
  add("CHANGELOG.md", Array.from({ length: 8 }, (_, k) => `## 1.${k}.0\n\n- ${cap(pick(ADJ))} ${pick(NOUNS)} view.\n`).join("\n"));
  add("src/types.d.ts", `declare module "*.svg" {\n  const src: string;\n  export default src;\n}\n\nexport interface ${cap(pick(NOUNS))}Row {\n  id: string;\n  label: string;\n}\n`);

  // Vendored dependencies and build output: they count as files of the tree, and audit must skip them.
  const vendored = Math.max(4, Math.round(size * 0.1));
  for (let v = 0; v < vendored; v++) add(`node_modules/.vendored/lib-${v % 7}/dist/chunk-${v}.js`, `"use strict";\nObject.defineProperty(exports, "__esModule", { value: true });\nexports.chunk${v} = function (x) { return x * ${v}; };\n`);
  if (withVendoredSdk) add(`node_modules/@cloud/sdk/dist/index.js`, `const BASE = "https://rest.runpod.io/v1";\nexports.listPods = (key) => fetch(BASE + "/pods", { headers: { Authorization: "Bearer " + key } }).then((r) => r.json());\n`);
  const built = Math.max(3, Math.round(size * 0.05));
  for (let d = 0; d < built; d++) add(`dist/chunk-${d}.js`, `export function chunk${d}(a) {\n  return fetch("/api/chunk/${d}").then((r) => r.json());\n}\n//# sourceMappingURL=chunk-${d}.js.map\n`);

  const rest = Math.max(10, size - files.length);
  const nUtils = Math.max(2, Math.round(rest * 0.12));
  const nHooks = Math.max(1, Math.round(rest * 0.08));
  const nJson = Math.max(1, Math.round(rest * 0.06));
  const nComponents = Math.max(2, Math.floor((rest - nUtils * 2 - nHooks - nJson - 1) / 2));
  const utils = Array.from({ length: nUtils }, (_, u) => `${pick(ADJ)}${cap(pick(NOUNS))}${u}`);
  utils.forEach((u) => {
    add(`src/utils/${u}.ts`, util(pick, u, 2 + Math.floor(random() * 6)));
    add(`src/utils/${u}.test.ts`, test(u, `./${u}.ts`, false));
  });
  for (let h = 0; h < nHooks; h++) add(`src/hooks/use${cap(pick(NOUNS))}${h}.ts`, hook(`use${cap(pick(NOUNS))}${h}`, pick(NOUNS), h % 17 === 3));
  for (let j = 0; j < nJson; j++) add(`fixtures/${pick(NOUNS)}-${j}.json`, JSON.stringify({ items: Array.from({ length: 5 }, (_, k) => ({ id: `${j}-${k}`, label: `${pick(ADJ)} ${pick(NOUNS)}`, updatedAt: 1_700_000_000 + k })) }, null, 2) + "\n");
  const names: string[] = [];
  for (let c = 0; c < nComponents; c++) {
    const name = `${cap(pick(ADJ))}${cap(pick(NOUNS))}${c}`;
    add(`src/components/${name}.tsx`, component(pick, name, c % 3 === 0 && names.length ? [names[names.length - 1]!] : [], c % 4 === 0 ? pkg.deps : [], utils, c));
    add(`src/components/${name}.test.tsx`, test(name, `./${name}.tsx`, true));
    names.push(name);
  }
  pkg.exports.push(...names);
  add("src/index.ts", names.map((n) => `export { ${n} } from "./components/${n}.tsx";`).join("\n") + "\n");
  return files;
}
