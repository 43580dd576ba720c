// The environment reads a run writes follow the project's own convention. A bundled browser app
// reads `import.meta.env.VITE_…` (only names with the bundler's public prefix reach the bundle, and
// `process` does not exist there); a Next.js page reads `process.env.NEXT_PUBLIC_…`. The v1 base
// of calls kept on v1 is read the way the base they had was, under the same prefix, and falls back
// to that base's own variable, so a deployment's configured base (a proxy, a gateway) still holds.

import { manifestsAbove } from "./package-root.ts";
import { readOfEnvKey, type EnvRoot as Root } from "./env-reads.ts";

const PUBLIC_PREFIX = /^(VITE_|NEXT_PUBLIC_|PUBLIC_|REACT_APP_|EXPO_PUBLIC_|NUXT_PUBLIC_|GATSBY_|STORYBOOK_)/;

/** The source that reads `variable` under `root` (Deno reads through its getter). */
function readOf(root: Root, variable: string): string {
  return root === "Deno.env" ? `Deno.env.get("${variable}")` : `${root}.${variable}`;
}

/** The public prefix of a variable name (`VITE_RUNPOD_BASE` → `VITE_`); under import.meta.env, also a custom one before `RUNPOD`. */
export function publicPrefix(name: string, root: Root): string {
  const known = PUBLIC_PREFIX.exec(name)?.[1];
  if (known) return known;
  const at = root === "import.meta.env" ? name.indexOf("RUNPOD") : -1;
  return at > 0 ? name.slice(0, at) : "";
}

/**
 * How a v1 base name (`RUNPOD_V1_BASE`) is read: `read` is the expression before the literal
 * default, `variable` the environment variable a user sets. `baseEnvs` are the environment reads
 * of the bases the kept calls had (`import.meta.env.VITE_RUNPOD_API_BASE`; undefined for a base
 * with none). That variable is read next only when it was every kept call's one base: another
 * call's base must not move to it.
 */
export function fallbackRead(name: string, given: (string | BaseEnv | undefined)[], fileText: string, typescript: boolean, filePath?: string): FallbackRead {
  const bases = given.map((g): BaseEnv => (typeof g === "object" ? g : { env: g }));
  // An original base given with `||` took its default for an empty variable too: so does the fallback.
  const op = bases.some((b) => b.or) ? "||" : "??";
  const kit = filePath ? kitRead(name, bases, fileText, filePath, op) : undefined;
  if (kit) return kit;
  const baseEnvs = bases.map((b) => b.env);
  // A base's environment read as the run records it (`BaseSource.env`, an `envKey`).
  const reads = baseEnvs.flatMap((e) => (e ? (readOfEnvKey(e) ?? []) : []));
  let root: Root | undefined = reads.find((r) => r.root === "import.meta.env")?.root ?? reads[0]?.root;
  let model = reads.find((r) => r.root === root)?.name;
  if (!root) {
    // No base of its own from the environment: the file's own reads say which convention it follows.
    const meta = /\bimport\.meta\.env\.([A-Za-z_$][\w$]*)/.exec(fileText);
    const cjs = /\brequire\(|\bmodule\.exports\b/.test(fileText);
    if (meta && !cjs && !/\bprocess\.env\b/.test(fileText)) [root, model] = ["import.meta.env", meta[1]];
    else if (/\bprocess\.env\b/.test(fileText)) {
      root = "process.env";
      // A file that reads a public variable (`process.env.NEXT_PUBLIC_KEY`) may be bundled for the browser, where only those exist.
      model = [...fileText.matchAll(/\bprocess\.env\.([A-Za-z_$][\w$]*)/g)].map((m) => m[1]!).find((v) => PUBLIC_PREFIX.test(v));
    }
    // Deno and Bun scripts: `process` is Node's (Deno has it only from 2.0 on).
    else if (/\bDeno\.env\.get\(/.test(fileText)) root = "Deno.env";
    else if (/\bBun\.env\b/.test(fileText)) root = "Bun.env";
  }
  // Nothing in the file says: the app's bundler does (a Next.js page sees only NEXT_PUBLIC_ variables).
  const bundled = !model && (!root || root === "process.env") && filePath ? bundlerConvention(filePath) : undefined;
  if (bundled) [root, model] = bundled;
  // An Angular app's browser build defines neither `process.env` nor `import.meta.env`: a global the
  // page sets before the app's bundle is the one knob reachable at run time.
  if (!root && filePath && angularApp(filePath)) return { read: `${typescript ? "(globalThis as any)" : "globalThis"}.${name}`, variable: `window.${name} (a script in index.html, before the app's bundle)`, op };
  if (!root) return { read: typescript ? `(globalThis as any).process?.env?.${name}` : `globalThis.process?.env?.${name}`, variable: name, op };
  const variable = `${model ? publicPrefix(model, root) : ""}${name}`;
  const own = new Set(baseEnvs);
  const chained = own.size === 1 && reads.length === baseEnvs.length && reads[0]!.root === root && reads[0]!.name !== variable ? [readOf(root, reads[0]!.name)] : [];
  // Only the package.json says Vite: the file may also run where import.meta has no env (tsx, a test
  // runner) and the project may lack vite/client types, so the read must neither throw nor fail tsc.
  if (bundled && root === "import.meta.env" && !/\bimport\.meta\.env\b/.test(fileText)) return { read: `${typescript ? "(import.meta as any)" : "import.meta"}.env?.${variable}`, variable, op };
  return { read: [readOf(root, variable), ...chained].join(` ${op} `), variable, op };
}

/** What a base of a kept call was read from: its environment read, its operator, SvelteKit's `$env` variable. */
export interface BaseEnv {
  env?: string;
  or?: boolean;
  kitEnv?: string;
}

export interface FallbackRead {
  read: string;
  variable: string;
  /** The operator before the literal default. */
  op: "??" | "||";
  /** A line the declaration needs before it (SvelteKit's `$env/dynamic/…` import). */
  prelude?: string;
}

const KIT_SERVER_ONLY = /([\\/]lib[\\/]server[\\/])|(\.server\.(m|c)?(j|t)s$)|([\\/]\+server\.(m|c)?(j|t)s$)/;

/**
 * A SvelteKit app reads its environment through `$env/…` (the base was `RUNPOD_API_BASE` of
 * `$env/static/private`, or the file reads no other way): the kept calls' base is read at run time
 * from `$env/dynamic/private` (server-only modules) or `$env/dynamic/public` (`PUBLIC_` names), and
 * falls back to the base's own variable, as the CommonJS form does.
 */
function kitRead(name: string, bases: BaseEnv[], fileText: string, filePath: string, op: "??" | "||"): FallbackRead | undefined {
  const json = manifestsAbove(filePath).next().value?.json;
  const imports = /from\s+["']\$env\//.test(fileText);
  if (!imports && !(json && "@sveltejs/kit" in { ...json.dependencies, ...json.devDependencies })) return undefined;
  const kitBase = bases.some((b) => b.kitEnv);
  if (!kitBase && (bases.some((b) => b.env) || (/\b(process|import\.meta)\.env\b/.test(fileText) && !imports))) return undefined;
  const server = KIT_SERVER_ONLY.test(filePath);
  const module = server ? "$env/dynamic/private" : "$env/dynamic/public";
  const variable = server ? name : `PUBLIC_${name}`;
  const existing = new RegExp(`import\\s*\\{[^}]*\\benv(?:\\s+as\\s+([\\w$]+))?\\s*[,}][^;]*from\\s*["']${module.replace(/[$/]/g, "\\$&")}["']`).exec(fileText);
  const local = existing ? existing[1] ?? "env" : "runpodEnv";
  const own = [...new Set(bases.map((b) => b.kitEnv))];
  const chained = own.length === 1 && own[0] && own[0] !== variable && (server || own[0].startsWith("PUBLIC_")) ? [`${local}.${own[0]}`] : [];
  return { read: [`${local}.${variable}`, ...chained].join(` ${op} `), variable, op, prelude: existing ? undefined : `import { env as ${local} } from "${module}";\n` };
}

// Bundlers that inline public variables into browser code, by the package that marks the app.
const BUNDLERS: [dependency: string, root: Root, model: string][] = [
  ["next", "process.env", "NEXT_PUBLIC_"],
  ["react-scripts", "process.env", "REACT_APP_"],
  ["expo", "process.env", "EXPO_PUBLIC_"],
  ["gatsby", "process.env", "GATSBY_"],
  ["vite", "import.meta.env", "VITE_"],
];
/** Whether `file` belongs to an Angular app (its nearest package.json depends on @angular/core). */
function angularApp(file: string): boolean {
  const json = manifestsAbove(file).next().value?.json;
  return !!json && "@angular/core" in { ...json.dependencies, ...json.devDependencies };
}

/** The public-variable convention of the app `file` belongs to (its nearest package.json's dependencies), if it has one. */
function bundlerConvention(file: string): [Root, string] | undefined {
  const json = manifestsAbove(file).next().value?.json;
  if (!json) return undefined;
  const deps = { ...json.dependencies, ...json.devDependencies };
  const hit = BUNDLERS.find(([d]) => d in deps);
  return hit ? [hit[1], hit[2]] : undefined;
}
