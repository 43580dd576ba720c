// A project's auto-import convention: names its modules use with no import statement, which the
// framework's build binds to the exports of fixed directories (Nuxt: `server/utils`, `utils`,
// `composables`; unplugin-auto-import's `dirs`) and to a few framework values (`$fetch`,
// `useRuntimeConfig()`). Read from text before anything is parsed, it gives:
// - the closure, an edge from each module to the modules whose exports it names (its helpers' callers);
// - the engine, the import statements the build would add, appended to the module's text (so every
//   line and offset is the file's own) and taken off its output, and virtual modules standing for the
//   framework's values (Nuxt's `useRuntimeConfig()` answers `runtimeConfig` of `defineNuxtConfig`);
// - do no harm, the providers whose exports may be used where the run cannot see (a template, the
//   rest of an app the run covers only part of): their bases stay v1.
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type * as TsMorph from "ts-morph";
import { importStatements } from "./import-uses.ts";
import { SFC_RE, maskOutsideScripts } from "./sfc.ts";
import { AUTO_IMPORT_TELLTALE } from "./prefilter.ts";

export interface AutoImportPlan {
  /** What set the convention (`nuxt.config.ts`, `vite.config.ts (unplugin-auto-import)`, or the free names that show it). */
  convention: string;
  /** For the closure: module → the modules whose exports it names without importing them. */
  implicit: Map<string, string[]>;
  /** For the engine: module → the statements appended to its text (taken off its output). */
  appended: Map<string, string>;
  /** Modules the engine parses beside the project's (never written): path → text. */
  virtual: Map<string, string>;
  /** Provider module → who may use its exports where the run cannot see them. */
  unseen: Map<string, string[]>;
}

const CONFIG_EXT = ["ts", "mts", "js", "mjs", "cjs"];
/** Directories Nuxt scans for exports (and Nuxt 4's `app/` source directory). */
const NUXT_DIRS = ["server/utils", "utils", "composables", "shared/utils", "app/utils", "app/composables"];
/** The virtual module's place: Nuxt writes its generated declarations under `.nuxt/`. */
const VIRTUAL = ".nuxt/v2-bridge-auto-imports.ts";

function configIn(dir: string, stem: string): string | undefined {
  for (const ext of CONFIG_EXT) {
    const f = path.join(dir, `${stem}.${ext}`);
    if (existsSync(f)) return f;
  }
  return undefined;
}

/** Exported value names of a module, read from text (a default export is named after its file, as Nuxt does). */
export function exportedNames(file: string, text: string): { names: string[]; defaultName?: string } {
  const names = new Set<string>();
  for (const m of text.matchAll(/\bexport\s+(?:declare\s+)?(?:async\s+)?(?:function\*?|const|let|var|class)\s+([\w$]+)/g)) names.add(m[1]!);
  for (const m of text.matchAll(/\bexport\s*\{([^}]*)\}(?!\s*from)/g)) {
    for (const item of m[1]!.split(",")) {
      const parts = item.trim().split(/\s+/);
      if (parts[0] && parts[0] !== "type") names.add(parts[parts.length - 1]!);
    }
  }
  names.delete("default");
  const stem = path.basename(file).replace(/\.[^.]+$/, "");
  const defaultName = /\bexport\s+default\b/.test(text) && stem !== "index" ? stem.replace(/[-_.](\w)/g, (_, c: string) => c.toUpperCase()) : undefined;
  return { names: [...names], defaultName: defaultName && /^[A-Za-z_$][\w$]*$/.test(defaultName) ? defaultName : undefined };
}

/** Names the module declares or imports itself: an auto-import never binds those. */
function ownNames(code: string): Set<string> {
  const out = new Set<string>();
  for (const m of code.matchAll(/\b(?:const|let|var|function\*?|class)\s+([\w$]+)/g)) out.add(m[1]!);
  for (const s of importStatements(code).statements) for (const n of s.names) out.add(n);
  return out;
}

const escapeRe = (s: string) => s.replace(/[$]/g, "\\$");
const within = (file: string, dir: string) => file.startsWith(dir + path.sep);
const specifier = (from: string, to: string) => {
  const rel = path.relative(path.dirname(from), to).split(path.sep).join("/");
  return rel.startsWith("../") ? rel : `./${rel}`;
};

/** The `dirs` an unplugin-auto-import (or Nuxt `imports`) option lists, relative to the config. */
function listedDirs(configText: string): string[] {
  const out: string[] = [];
  for (const m of configText.matchAll(/\bdirs\s*:\s*\[([^\]]*)\]/g)) for (const s of m[1]!.matchAll(/["'`]([^"'`]+)["'`]/g)) out.push(s[1]!.replace(/^[~@]{1,2}\//, "").replace(/\/\*\*?(\/\*)?$/, ""));
  return out;
}

/**
 * The convention of the project at `root`, if it has one. `files`: every source file of the run;
 * `read`: a file's text. `engineName(f)`: the path the engine parses `f` under (a component's script).
 * `telltales`: the files whose text matched AUTO_IMPORT_TELLTALE when the run first read them (else all are read).
 */
export function autoImportPlan(root: string, files: string[], read: (f: string) => string | undefined, engineName: (f: string) => string = (f) => f, telltales?: Set<string>): AutoImportPlan | undefined {
  const nuxtConfig = configIn(root, "nuxt.config") ?? configIn(root, "nitro.config");
  let appRoot = root;
  let outer: string | undefined;
  if (!nuxtConfig) {
    // The run covers part of an app whose config sits above it: the rest of the app is unseen.
    for (let d = path.dirname(root), i = 0; i < 6 && d !== path.dirname(d); d = path.dirname(d), i++) {
      if (configIn(d, "nuxt.config") ?? configIn(d, "nitro.config")) {
        outer = d;
        break;
      }
    }
  }
  const viteConfig = configIn(root, "vite.config");
  const viteText = viteConfig ? read(viteConfig) ?? "" : "";
  const plugin = /\bAutoImport\s*\(/.test(viteText);
  const texts = new Map<string, string>();
  const textOf = (f: string) => {
    if (!texts.has(f)) texts.set(f, read(f) ?? "");
    return texts.get(f)!;
  };
  let convention: string | undefined;
  const dirs: string[] = [];
  if (nuxtConfig || outer) {
    convention = nuxtConfig ? path.basename(nuxtConfig) : `${path.relative(root, configIn(outer!, "nuxt.config") ?? configIn(outer!, "nitro.config")!)} (above the run)`;
    dirs.push(...NUXT_DIRS, ...(nuxtConfig ? listedDirs(textOf(nuxtConfig)) : []));
    if (outer) appRoot = outer;
  }
  if (plugin) {
    convention = convention ?? `${path.basename(viteConfig!)} (unplugin-auto-import)`;
    dirs.push(...listedDirs(viteText));
  }
  if (!convention) {
    // No config in the run, yet its modules call what only an auto-importing build binds.
    const telltale = AUTO_IMPORT_TELLTALE;
    const shown = files.find((f) => {
      if (telltales && !telltales.has(f)) return false;
      const m = telltale.exec(textOf(f));
      return m && !ownNames(textOf(f)).has(m[1]!);
    });
    if (!shown) return undefined;
    convention = `${path.relative(root, shown).split(path.sep).join("/")} (calls ${telltale.exec(textOf(shown))![1]} without importing it)`;
    dirs.push(...NUXT_DIRS);
  }
  const framework = !!(nuxtConfig || outer) || !plugin;
  const providerDirs = [...new Set(dirs)].map((d) => path.resolve(appRoot, d));
  const providers = files.filter((f) => !SFC_RE.test(f) && !f.endsWith(".d.ts") && providerDirs.some((d) => within(f, d)));

  // Name → the module that binds it (a provider's export, or a virtual module's).
  const binds = new Map<string, { module: string; isDefault: boolean }>();
  for (const p of providers) {
    const { names, defaultName } = exportedNames(p, textOf(p));
    for (const n of names) if (!binds.has(n)) binds.set(n, { module: p, isDefault: false });
    if (defaultName && !binds.has(defaultName)) binds.set(defaultName, { module: p, isDefault: true });
  }
  const virtual = new Map<string, string>();
  const virtualPath = path.join(appRoot, VIRTUAL);
  /** The closure's stand-in for the virtual module: the config it reads (it names no v1 value itself). */
  let virtualReads: string | undefined;
  if (framework) {
    const lines = [
      "// What the framework binds in every module without an import (read by v2-bridge, never written).",
      'import { $fetch as ofetch$ } from "ofetch";',
      "export const $fetch = ofetch$;",
    ];
    for (const n of ["$fetch"]) binds.set(n, { module: virtualPath, isDefault: false });
    if (nuxtConfig) {
      lines.push(
        `import config from "${specifier(virtualPath, nuxtConfig)}";`,
        "export function defineNuxtConfig<T>(options: T): T { return options; }",
        "export function defineNitroConfig<T>(options: T): T { return options; }",
        ...runtimeConfigReader(textOf(nuxtConfig)),
      );
      for (const n of ["defineNuxtConfig", "defineNitroConfig", "useRuntimeConfig"]) binds.set(n, { module: virtualPath, isDefault: false });
      virtualReads = nuxtConfig;
    }
    virtual.set(virtualPath, lines.join("\n") + "\n");
  }
  if (!binds.size) return undefined;

  const implicit = new Map<string, string[]>();
  const appended = new Map<string, string>();
  const unseen = new Map<string, string[]>();
  const addUnseen = (p: string, by: string) => unseen.set(p, [...new Set([...(unseen.get(p) ?? []), by])]);
  // Not a member (`x.rpOpts`), but a spread (`...rpOpts()`) is a use.
  const pattern = new RegExp(`(?<![\\w$])(?:(?<=\\.\\.\\.)|(?<!\\.))(${[...binds.keys()].map(escapeRe).join("|")})(?![\\w$])`, "g");
  const rel = (f: string) => path.relative(root, f).split(path.sep).join("/");
  for (const f of files) {
    if (f.endsWith(".d.ts") || !within(f, appRoot)) continue;
    const text = textOf(f);
    const code = SFC_RE.test(f) ? maskOutsideScripts(text) : text;
    const own = ownNames(code);
    const used = new Set([...code.matchAll(pattern)].map((m) => m[1]!).filter((n) => !own.has(n) && binds.get(n)!.module !== f));
    if (SFC_RE.test(f)) {
      // A name used in the component's template only: a use the engine does not parse.
      for (const m of text.matchAll(pattern)) if (!used.has(m[1]!) && !own.has(m[1]!) && binds.get(m[1]!)!.module !== virtualPath) addUnseen(binds.get(m[1]!)!.module, `${rel(f)} (its template)`);
    }
    if (!used.size) continue;
    const byModule = new Map<string, string[]>();
    for (const n of used) byModule.set(binds.get(n)!.module, [...(byModule.get(binds.get(n)!.module) ?? []), n]);
    implicit.set(f, [...byModule.keys()].map((m) => (m === virtualPath ? virtualReads : m)).filter((m): m is string => !!m));
    const from = engineName(f);
    appended.set(
      f,
      [...byModule]
        .map(([m, names]) => {
          const def = names.find((n) => binds.get(n)!.isDefault);
          const named = names.filter((n) => !binds.get(n)!.isDefault);
          const clause = [def, named.length ? `{ ${named.join(", ")} }` : undefined].filter(Boolean).join(", ");
          return `\nimport ${clause} from "${specifier(from, m === virtualPath ? m : engineName(m))}";`;
        })
        .join(""),
    );
  }
  if (outer) for (const p of providers) addUnseen(p, `the modules of the app at ${rel(outer) || "."} outside this run (auto-imports reach ${rel(p)})`);
  // No config in the run: where the app ends is not known, so its exports may have users beyond it.
  if (!nuxtConfig && !outer && !plugin) for (const p of providers) addUnseen(p, `modules the run may not hold (auto-imports reach ${rel(p)}, and no nuxt.config says where the app is)`);
  return { convention, implicit, appended, virtual, unseen };
}

const ts = (createRequire(import.meta.url)("ts-morph") as typeof TsMorph).ts;

/** `runpodBaseUrl` → `RUNPOD_BASE_URL` (Nuxt's environment name for a runtime config key, after `NUXT_`). */
export const envKey = (key: string) => key.replace(/([a-z0-9])([A-Z])/g, "$1_$2").replace(/-/g, "_").toUpperCase();

/**
 * Nuxt's `useRuntimeConfig()`: the `runtimeConfig` object of `defineNuxtConfig`, each key (and each
 * key of `public`) overridden at run time by `NUXT_<KEY>` (`NUXT_PUBLIC_<KEY>`) when that is set.
 */
function runtimeConfigReader(configText: string): string[] {
  const sf = ts.createSourceFile("nuxt.config.ts", configText, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  let runtime: TsMorph.ts.ObjectLiteralExpression | undefined;
  const visit = (n: TsMorph.ts.Node): void => {
    if (!runtime && ts.isPropertyAssignment(n) && n.name.getText(sf) === "runtimeConfig" && ts.isObjectLiteralExpression(n.initializer)) runtime = n.initializer;
    else ts.forEachChild(n, visit);
  };
  visit(sf);
  const keys = (obj: TsMorph.ts.ObjectLiteralExpression | undefined) =>
    [...(obj?.properties ?? [])]
      .filter((p): p is TsMorph.ts.PropertyAssignment => ts.isPropertyAssignment(p) && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)))
      .map((p) => ({ name: p.name.getText(sf).replace(/^["']|["']$/g, ""), init: p.initializer }));
  const own = keys(runtime).filter((k) => /^[A-Za-z_$][\w$]*$/.test(k.name));
  const pub = own.find((k) => k.name === "public");
  const overridden = (prefix: string, of: string, list: { name: string; init: TsMorph.ts.Expression }[]) =>
    list.filter((k) => k.name !== "public" && !ts.isObjectLiteralExpression(k.init) && /^[A-Za-z_$][\w$]*$/.test(k.name)).map((k) => `${k.name}: process.env.${prefix}${envKey(k.name)} ?? ${of}.${k.name}`);
  const top = overridden("NUXT_", "c", own);
  const inner = pub && ts.isObjectLiteralExpression(pub.init) ? overridden("NUXT_PUBLIC_", "c.public", keys(pub.init)) : [];
  const fields = [...top, ...(inner.length ? [`public: { ...c.public, ${inner.join(", ")} }`] : [])];
  return [
    "export function useRuntimeConfig(_event?: unknown) {",
    "  const c = config.runtimeConfig;",
    `  return { ...c${fields.map((f) => `, ${f}`).join("")} };`,
    "}",
  ];
}

/** The output of a module the engine read with statements appended: without them (undefined when they were touched). */
export function withoutAppended(output: string, appended: string): string | undefined {
  return output.endsWith(appended) ? output.slice(0, output.length - appended.length) : undefined;
}

/** Default text reader for the plan (latin1 reads any file; names and imports are ASCII). */
export function readText(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}
