// Which files the analysis must parse, from the import graph read as text (nothing parsed yet):
// the seeds (files naming the v1 host or carrying a mark of an earlier run), every file that
// imports them transitively (their helpers' callers), and everything those import (wrappers,
// aliases, constants, types). Two cuts keep a large repository's unrelated code out:
// - importers are looked up by name, so only the imports that could name a connected file are
//   resolved (a relative specifier can only reach a file whose stem is its last segment, or an
//   index file in a directory of that name; bare `paths` specifiers are few, and cached);
// - an importer that only renders, types or re-exports what it imports from connected modules
//   (codemod/import-uses.ts) cannot hand a v1 value on, so its other imports are not followed
//   (an app's router around a page that calls the client); through it, only its re-exports are.
import { readFileSync } from "node:fs";
import path from "node:path";
import { importStatements, passesOnImports } from "./import-uses.ts";

export interface ClosureInput {
  /** Absolute path → the module specifiers it imports, for every source file that imports any. */
  specifiers: Map<string, string[]>;
  /** Files that name the v1 host or carry a TODO mark (the seeds). */
  seeds: Set<string>;
  /** The run's root (the resolver has read its tsconfig paths). */
  root?: string;
  /** A file's text (undefined when it cannot be read), to see how importers use their imports (default: from disk). */
  read?: (file: string) => string | undefined;
  /** Module → modules whose exports it uses with no import statement (codemod/auto-imports.ts): edges like imports that hand values on. */
  implicit?: Map<string, string[]>;
}

type Resolve = (from: string, spec: string) => string | undefined;

const SCRIPT_EXT = /\.(m|c)?(j|t)sx?$/;
/** The key of a directory specifier (`.`, `..`, `./`): it can only reach an index file. */
const DIR = "\0dir";

/** The name a relative specifier's target must have: its last segment without a script extension. */
function specKey(spec: string): string {
  const trimmed = spec.replace(/\/+$/, "");
  const last = trimmed.slice(trimmed.lastIndexOf("/") + 1);
  return last === "." || last === ".." || last === "" ? DIR : last.replace(SCRIPT_EXT, "");
}

/** The keys under which a file can be imported relatively. */
function fileKeys(file: string): string[] {
  const stem = path.basename(file).replace(SCRIPT_EXT, "");
  return stem === "index" ? [stem, path.basename(path.dirname(file)), DIR] : [stem];
}

/** Import statements are ASCII: latin1 reads any file, whatever its encoding. */
function readLatin1(file: string): string | undefined {
  try {
    return readFileSync(file, "latin1");
  } catch {
    return undefined;
  }
}

/** HTTP client packages: a client made from a v1 base in a seed may be handed to any module that imports the same package (`(api: KyInstance) => api.post('pods')`). */
/** So too Nest's injected configuration and HTTP service: a seed's `ConfigModule` or `HttpModule` settings reach every module that injects them, with no import between the two. */
const CLIENT_PACKAGES = new Set(["ky", "ky-universal", "axios", "redaxios", "got", "ofetch", "wretch", "superagent", "undici", "@nestjs/config", "@nestjs/axios"]);

/** Files importing an HTTP client package a seed imports (they may send paths on the seed's client, reaching them from callers the run cannot see). */
function sameClientImporters(input: ClosureInput): string[] {
  const packages = new Set<string>();
  for (const seed of input.seeds) for (const spec of input.specifiers.get(seed) ?? []) if (CLIENT_PACKAGES.has(spec)) packages.add(spec);
  if (!packages.size) return [];
  return [...input.specifiers].filter(([file, specs]) => !input.seeds.has(file) && specs.some((s) => packages.has(s))).map(([file]) => file);
}

export function closure(input: ClosureInput, resolve: Resolve): string[] {
  // Importers by name: relative specifiers under their key; bare ones resolved now (cached).
  const byKey = new Map<string, [file: string, spec: string][]>();
  const bareImporters = new Map<string, string[]>();
  const push = <K, V>(m: Map<K, V[]>, k: K, v: V) => {
    const list = m.get(k);
    if (list) list.push(v);
    else m.set(k, [v]);
  };
  for (const [file, specs] of input.specifiers) {
    for (const spec of specs) {
      if (spec.startsWith(".")) push(byKey, specKey(spec), [file, spec] as [string, string]);
      else {
        const target = resolve(file, spec);
        if (target && target !== file) push(bareImporters, target, file);
      }
    }
  }
  const implicitImporters = new Map<string, string[]>();
  for (const [file, targets] of input.implicit ?? []) for (const t of targets) if (t !== file) push(implicitImporters, t, file);
  const importersOf = (target: string): string[] => {
    const out = [...(bareImporters.get(target) ?? []), ...(implicitImporters.get(target) ?? [])];
    for (const key of fileKeys(target)) for (const [file, spec] of byKey.get(key) ?? []) if (file !== target && resolve(file, spec) === target) out.push(file);
    return out;
  };
  const edges = new Map<string, [spec: string, target: string][]>();
  const edgesOf = (file: string) => {
    let pairs = edges.get(file);
    if (!pairs) {
      pairs = (input.specifiers.get(file) ?? []).map((s) => [s, resolve(file, s)] as [string, string | undefined]).filter((p): p is [string, string] => !!p[1] && p[1] !== file);
      for (const t of input.implicit?.get(file) ?? []) if (t !== file) pairs.push([`\0auto:${t}`, t]);
      edges.set(file, pairs);
    }
    return pairs;
  };

  const up = new Set<string>();
  const stack = [...input.seeds, ...sameClientImporters(input)];
  while (stack.length) {
    const f = stack.pop()!;
    if (up.has(f)) continue;
    up.add(f);
    stack.push(...importersOf(f));
  }

  const read = input.read ?? readLatin1;
  const passes = new Map<string, boolean>();
  const passesOn = (f: string): boolean => {
    if (input.seeds.has(f)) return true;
    // A name bound by the project's auto-imports is used in the code itself: it may hand the value on.
    if (input.implicit?.get(f)?.some((t) => up.has(t))) return true;
    let known = passes.get(f);
    if (known === undefined) {
      const text = read(f);
      const connected = new Set(edgesOf(f).filter(([, t]) => up.has(t)).map(([s]) => s));
      known = text === undefined || passesOnImports(text, input.specifiers.get(f) ?? [], connected);
      passes.set(f, known);
    }
    return known;
  };
  const reexported = (f: string): string[] => {
    const text = read(f);
    const specs = new Set(text === undefined ? [] : importStatements(text).statements.filter((s) => s.kind === "reexport").map((s) => s.spec));
    return edgesOf(f).filter(([s]) => specs.has(s)).map(([, t]) => t);
  };
  const all = new Set(up);
  const down = [...up].filter(passesOn);
  const followed = new Set<string>();
  while (down.length) {
    const f = down.pop()!;
    if (followed.has(f)) continue;
    followed.add(f);
    all.add(f);
    down.push(...(up.has(f) && !passesOn(f) ? reexported(f) : edgesOf(f).map(([, t]) => t)));
  }
  return [...all].sort();
}
