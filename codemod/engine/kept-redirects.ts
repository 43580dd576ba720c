// A marked call kept whole on v1 keeps a v1 base of its own (`RUNPOD_V1_BASE`) when the base it
// had flips: its redirect (v1-redirect.ts, or the base its callers set: caller-set-base.ts) is
// applied, and each file that uses the declared name gets its declaration, read as the bases of
// all the calls that use it were (env-convention.ts). Do no harm (do-no-harm.ts) decides which calls.
import type { Edit } from "../types.ts";
import type { Analysis, FileState, Site } from "./state.ts";
import { addEdit } from "./state.ts";
import { declarationEdit } from "./v1-redirect.ts";
import type { BaseEnv } from "./env-convention.ts";
import { isTypeScriptFile } from "./nodes.ts";
import { callerSetRedirect } from "./caller-set-base.ts";
import { swrKeptEntryWhy } from "./swr-kept-fetcher.ts";
import { queryKeptEntryWhy } from "./query-kept-entry.ts";

/** A marked call's redirect, when every file it writes may be written (a helper's new parameter may be in another file). */
export function usableRedirect(a: Analysis, site: Site): Site["redirect"] {
  const kept = callerSetRedirect(a, site);
  if (kept === null) return undefined;
  // A kept SWR hook on a fetcher bound to the v1 base, a kept query's queryFn: the cache entry must hold v1 records alone.
  const entry = site.redirect ? (site.http?.hook ? swrKeptEntryWhy(a, site) : queryKeptEntryWhy(a, site)) : undefined;
  if (entry) {
    site.noRedirect ??= entry;
    return undefined;
  }
  const r = kept ?? site.redirect;
  return r && ![...r.edits, ...(r.shared?.edits ?? []), ...(r.inner ?? []).flatMap((s) => s.edits)].some((e) => a.frozen.has(e.file)) ? r : undefined;
}

/** Per file, the v1 base names its redirected calls use: the declaration (written where the first call needs it) and the environment reads of the bases those calls had. */
export type Fallbacks = Map<FileState, Map<string, { edit: Edit; envs: BaseEnv[] }>>;

/** Applies a marked call's redirect; returns its edits (what they replace is no longer in the file). */
export function applyRedirect(a: Analysis, site: Site, fallbacks: Fallbacks): Edit[] {
  // A base computed elsewhere that something at run time can set (an environment variable, an
  // option): the kept call takes the v1 counterpart of what it is set to, not a fixed v1 base.
  const overridable = [...site.deps].some((d) => a.bases.get(d)?.override || a.bases.get(d)?.env);
  const redirect = site.redirect!.derived && overridable ? { ...site.redirect!, ...site.redirect!.derived } : site.redirect!;
  // Each edit goes to the file it was made for; the declared names, to the files whose text uses them.
  for (const e of redirect.edits) addEdit(a, e);
  const shared = redirect.shared;
  const applied = [...redirect.edits];
  for (const s of [shared, ...(redirect.inner ?? [])]) {
    if (!s || a.sharedRedirects.has(s.key)) continue;
    a.sharedRedirects.add(s.key);
    for (const e of s.edits) addEdit(a, e);
    applied.push(...s.edits);
  }
  const users = redirect.edits.length ? [...new Set(redirect.edits.map((e) => e.file))].map((f) => a.files.get(f)!) : [site.file];
  const envs = keptCallEnvs(a, site);
  // Names the helper's own shared edits use are declared in the helper's file.
  const helperFile = shared?.names?.length ? a.files.get(shared.edits[0]!.file) : undefined;
  const declare: [FileState, string[]][] = [...users.map((f): [FileState, string[]] => [f, redirect.names]), ...(helperFile ? [[helperFile, shared!.names!] as [FileState, string[]]] : [])];
  for (const [file, wanted] of declare) declareNames(file, wanted, envs, fallbacks);
  return applied;
}

/** How the bases a kept call had are read (its declared v1 base is read the same way). */
export function keptCallEnvs(a: Analysis, site: Site): BaseEnv[] {
  return [...site.deps].map((d) => a.bases.get(d)).filter((b) => b && !b.pinned).map((b): BaseEnv => ({ env: b!.env, or: b!.or, kitEnv: b!.kitEnv }));
}

/** Declares each name once in a file (written by declareFallbacks when every user is known). */
export function declareNames(file: FileState, wanted: string[], envs: BaseEnv[], fallbacks: Fallbacks): void {
  const names = fallbacks.get(file) ?? new Map<string, { edit: Edit; envs: BaseEnv[] }>();
  fallbacks.set(file, names);
  for (const name of wanted) {
    const known = names.get(name);
    if (known) known.envs.push(...envs);
    if (known || file.declared.has(name)) continue;
    file.declared.add(name);
    const decl = declarationEdit(file.sf, name, isTypeScriptFile(file.sf.getFilePath()), envs);
    if (!decl) continue;
    file.edits.push(decl);
    names.set(name, { edit: decl, envs: [...envs] });
  }
}

/** Each declaration, read as the bases of all the calls that use it were (env-convention.ts). */
export function declareFallbacks(fallbacks: Fallbacks): void {
  for (const [file, names] of fallbacks) {
    for (const [name, { edit, envs }] of names) edit.text = declarationEdit(file.sf, name, isTypeScriptFile(file.sf.getFilePath()), envs)!.text;
  }
}
