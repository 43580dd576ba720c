// Locates and loads the published v1/v2 OpenAPI documents. They are reference data that live
// outside the repository, so every caller asks here. Look-up order, per document: an explicit
// directory (flag) or V2_BRIDGE_REFERENCE_DIR (authoritative: nothing else is tried), then the
// user's cache (`v2-bridge reference fetch`), then `../shared/reference` beside a checkout.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { PACKAGE_ROOT } from "../product/package-info.ts";
import { referenceCacheDir } from "./cache-dir.ts";

export const REPO_ROOT = PACKAGE_ROOT;

/** Environment variable that overrides where the reference documents are read from. */
export const REFERENCE_DIR_ENV = "V2_BRIDGE_REFERENCE_DIR";

export const REFERENCE_NAMES = ["v1-openapi.json", "v2-openapi.json"] as const;
export type ReferenceName = (typeof REFERENCE_NAMES)[number];

/** Where a document came from: the order of this list is the look-up order. */
export type ReferenceSource = "flag" | "env" | "cache" | "checkout";

export type LocatedDocument = {
  name: ReferenceName;
  /** The file read, or (when not found) where `reference fetch` would put it. */
  file: string;
  source: ReferenceSource | null;
  found: boolean;
};

export type OpenApiDocument = {
  openapi: string;
  paths: Record<string, Record<string, any>>;
  components?: Record<string, any>;
  [key: string]: unknown;
};

/** `../shared/reference` beside a checkout (the layout of the development machine and CI). */
export const CHECKOUT_REFERENCE_DIR = path.join(PACKAGE_ROOT, "..", "shared", "reference");

/** The candidate directories in look-up order. An explicit or environment directory is the only one. */
export function referenceCandidates(explicit?: string, env: NodeJS.ProcessEnv = process.env): { dir: string; source: ReferenceSource }[] {
  if (explicit) return [{ dir: path.resolve(explicit), source: "flag" }];
  if (env[REFERENCE_DIR_ENV]) return [{ dir: path.resolve(env[REFERENCE_DIR_ENV]!), source: "env" }];
  return [
    { dir: referenceCacheDir(env), source: "cache" },
    { dir: CHECKOUT_REFERENCE_DIR, source: "checkout" },
  ];
}

export function locateReference(name: ReferenceName, explicit?: string, env: NodeJS.ProcessEnv = process.env): LocatedDocument {
  const candidates = referenceCandidates(explicit, env);
  for (const c of candidates) {
    const file = path.join(c.dir, name);
    if (existsSync(file)) return { name, file, source: c.source, found: true };
  }
  return { name, file: path.join(candidates[0]!.dir, name), source: null, found: false };
}

/** The file a document is read from (or would be, once fetched). */
export function referenceFile(name: ReferenceName, dir?: string): string {
  return locateReference(name, dir).file;
}

/** One line on how to get the documents, for every command that needs them. */
export function howToGetReference(explicit?: string, env: NodeJS.ProcessEnv = process.env): string {
  const only = referenceCandidates(explicit, env);
  if (only[0]!.source === "flag" || only[0]!.source === "env") {
    const how = only[0]!.source === "flag" ? "--reference-dir" : REFERENCE_DIR_ENV;
    return `put v1-openapi.json and v2-openapi.json in ${only[0]!.dir}, or drop ${how} and run \`v2-bridge reference fetch\` (downloads them into ${referenceCacheDir(env)})`;
  }
  return `run \`v2-bridge reference fetch\` (downloads them into ${referenceCacheDir(env)}), or set ${REFERENCE_DIR_ENV} to a directory holding v1-openapi.json and v2-openapi.json`;
}

/** Why reference-dependent work cannot run, or null when the documents are present. */
export function referenceMissingReason(dir?: string, names: readonly ReferenceName[] = REFERENCE_NAMES): string | null {
  const missing = names.map((n) => locateReference(n, dir)).filter((d) => !d.found);
  if (!missing.length) return null;
  const where = [...new Set(referenceCandidates(dir).map((c) => c.dir))].join(", ");
  return `reference document${missing.length > 1 ? "s" : ""} ${missing.map((d) => d.name).join(" and ")} not found (looked in ${where}): ${howToGetReference(dir)}`;
}

const cache = new Map<string, OpenApiDocument>();

export function loadDocument(file: string): OpenApiDocument {
  const resolved = path.resolve(file);
  let doc = cache.get(resolved);
  if (!doc) {
    doc = JSON.parse(readFileSync(resolved, "utf8")) as OpenApiDocument;
    cache.set(resolved, doc);
  }
  return doc;
}

export function loadV1(dir?: string): OpenApiDocument {
  return loadDocument(referenceFile("v1-openapi.json", dir));
}

export function loadV2(dir?: string): OpenApiDocument {
  return loadDocument(referenceFile("v2-openapi.json", dir));
}

export function tryLoadV1(dir?: string): OpenApiDocument | null {
  const located = locateReference("v1-openapi.json", dir);
  return located.found ? loadDocument(located.file) : null;
}

export function tryLoadV2(dir?: string): OpenApiDocument | null {
  const located = locateReference("v2-openapi.json", dir);
  return located.found ? loadDocument(located.file) : null;
}
