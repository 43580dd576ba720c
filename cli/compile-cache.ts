// V8's code cache on disk, so that `audit` and `rewrite` do not compile TypeScript's 9 MB compiler
// (and ts-morph's 4 MB) from source at every start: ~0.5 s of CPU per run on the 2-core machine.
// Node ≥ 22.1 does this itself (module.enableCompileCache). Node 20 has no such switch, so here the
// few large CommonJS files are compiled through vm.Script with the cached data of an earlier run;
// on a miss, the cache is written when the process exits, so it also holds the functions that run
// compiled lazily (the parser, binder and checker), not just the top level. V8 checks its own
// version, flags and the source length and rejects a cache that does not match; the file name
// also carries the source's size and mtime. NODE_DISABLE_COMPILE_CACHE=1 turns both paths off.
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import module from "node:module";
import path from "node:path";
import vm from "node:vm";
import { userCacheDir } from "../openapi/cache-dir.ts";
import { writeFileAtomicSync } from "../product/atomic-write.ts";

/** Files smaller than this compile faster than their cache reads back (ours are a few KB; TypeScript is 9 MB). */
const MIN_BYTES = 512 * 1024;

type CjsModule = { exports: unknown; require(id: string): unknown; filename: string; paths: string[] };
type ModuleInternals = {
  prototype: { _compile(this: CjsModule, content: string, filename: string): unknown };
  wrap(source: string): string;
  _resolveFilename(request: string, parent: CjsModule, isMain: boolean, options?: unknown): string;
  _cache: unknown;
  _extensions: unknown;
};

export function compileCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.NODE_COMPILE_CACHE || path.join(userCacheDir(env), "v2-bridge", "compile-cache");
}

/** Turns the cache on for this process; returns how (for tests and the bench), or "off". */
export function enableCompileCache(env: NodeJS.ProcessEnv = process.env): "node" | "v8-code-cache" | "off" {
  if (env.NODE_DISABLE_COMPILE_CACHE) return "off";
  const dir = compileCacheDir(env);
  const native = (module as { enableCompileCache?: (dir: string) => unknown }).enableCompileCache;
  if (native) {
    native(dir);
    return "node";
  }
  hookCommonJsCompile(path.join(dir, `v8-${process.versions.v8}-${process.arch}`));
  return "v8-code-cache";
}

function hookCommonJsCompile(dir: string): void {
  const Module = module.Module as unknown as ModuleInternals;
  const original = Module.prototype._compile;
  const pending: { script: vm.Script; file: string }[] = [];
  Module.prototype._compile = function (this: CjsModule, content: string, filename: string) {
    // A hashbang is legal only at the very start of a script, not inside Module.wrap's function.
    if (content.length < MIN_BYTES || content.startsWith("#!")) return original.call(this, content, filename);
    const { size, mtimeMs } = statSync(filename);
    const file = path.join(dir, `${path.basename(filename)}-${size}-${Math.trunc(mtimeMs)}-${hash(filename)}.bin`);
    let cachedData: Buffer | undefined;
    try {
      cachedData = readFileSync(file);
    } catch {
      /* first run with this file: compiled from source, cached at exit */
    }
    // import() inside the file resolves as it would without the cache (the main context's loader).
    const script = new vm.Script(Module.wrap(content), { filename, cachedData, importModuleDynamically: vm.constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER });
    if (!cachedData || script.cachedDataRejected) pending.push({ script, file });
    const mod = this;
    const require = Object.assign((id: string) => mod.require(id), {
      resolve: (request: string, options?: unknown) => Module._resolveFilename(request, mod, false, options),
      cache: Module._cache,
      extensions: Module._extensions,
    });
    const wrapper = script.runInThisContext({ displayErrors: true }) as (...args: unknown[]) => unknown;
    return wrapper.call(mod.exports, mod.exports, require, mod, filename, path.dirname(filename));
  };
  process.once("exit", () => {
    for (const { script, file } of pending) {
      // Atomic: a concurrent run reads the old cache or the new one, never half. Not flushed: a
      // cache a crash loses (or V8 rejects) only costs the next start its speed.
      try {
        mkdirSync(dir, { recursive: true });
        writeFileAtomicSync(file, script.createCachedData(), { fsync: false });
        pruneOlder(file);
      } catch {
        /* a read-only or full cache directory only costs speed */
      }
    }
  });
}

/** The caches of earlier versions of the same installed file (an upgrade changes its size or mtime). */
function pruneOlder(file: string): void {
  const name = path.basename(file);
  const [, base, tag] = /^(.*)-\d+-\d+-(\w+)\.bin$/.exec(name) ?? [];
  if (!base) return;
  for (const other of readdirSync(path.dirname(file))) {
    if (other !== name && other.startsWith(`${base}-`) && other.endsWith(`-${tag}.bin`) && /^-\d+-\d+-\w+\.bin$/.test(other.slice(base.length))) rmSync(path.join(path.dirname(file), other), { force: true });
  }
}

/** A short, stable tag of the absolute path (two installs of the same package version differ). */
function hash(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(36);
}
