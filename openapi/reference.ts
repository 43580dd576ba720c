// Locates and loads the published v1/v2 OpenAPI documents. They are reference data that
// live outside the repository (../shared/reference by default), so every caller asks here.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Environment variable that overrides where the reference documents are read from. */
export const REFERENCE_DIR_ENV = "V2_BRIDGE_REFERENCE_DIR";

export type OpenApiDocument = {
  openapi: string;
  paths: Record<string, Record<string, any>>;
  components?: Record<string, any>;
  [key: string]: unknown;
};

export function referenceDir(explicit?: string): string {
  return path.resolve(explicit ?? process.env[REFERENCE_DIR_ENV] ?? path.join(REPO_ROOT, "..", "shared", "reference"));
}

export function referenceFile(name: "v1-openapi.json" | "v2-openapi.json", dir?: string): string {
  return path.join(referenceDir(dir), name);
}

/** Why reference-dependent work cannot run, or null when both documents are present. */
export function referenceMissingReason(dir?: string): string | null {
  for (const name of ["v1-openapi.json", "v2-openapi.json"] as const) {
    const file = referenceFile(name, dir);
    if (!existsSync(file)) {
      return `reference document ${file} not found (set ${REFERENCE_DIR_ENV} to the directory holding v1-openapi.json and v2-openapi.json)`;
    }
  }
  return null;
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
  return existsSync(referenceFile("v1-openapi.json", dir)) ? loadV1(dir) : null;
}

export function tryLoadV2(dir?: string): OpenApiDocument | null {
  return existsSync(referenceFile("v2-openapi.json", dir)) ? loadV2(dir) : null;
}
