// Where the reference documents are read from: an explicit directory (flag or environment) and
// nothing else, else the user cache, else ../shared/reference beside a checkout; and the cache
// directory of each platform.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { referenceCacheDir, userCacheDir } from "../../openapi/cache-dir.ts";
import { CHECKOUT_REFERENCE_DIR, locateReference, referenceMissingReason, REFERENCE_DIR_ENV } from "../../openapi/reference.ts";

function dirWith(...names: string[]): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "v2b-lookup-"));
  for (const n of names) writeFileSync(path.join(dir, n), "{}");
  return dir;
}

/** An XDG cache root whose v2-bridge/reference holds the given documents. */
function cacheWith(...names: string[]): NodeJS.ProcessEnv {
  const root = mkdtempSync(path.join(os.tmpdir(), "v2b-xdg-"));
  const env = { XDG_CACHE_HOME: root };
  mkdirSync(referenceCacheDir(env), { recursive: true });
  for (const n of names) writeFileSync(path.join(referenceCacheDir(env), n), "{}");
  return env;
}

describe("user cache directory", () => {
  it("follows each platform's convention, XDG_CACHE_HOME first", () => {
    expect(userCacheDir({}, "linux", "/home/u")).toBe("/home/u/.cache");
    expect(userCacheDir({ XDG_CACHE_HOME: "/x/cache" }, "linux", "/home/u")).toBe("/x/cache");
    expect(userCacheDir({ XDG_CACHE_HOME: "relative" }, "linux", "/home/u")).toBe("/home/u/.cache");
    expect(userCacheDir({}, "darwin", "/Users/u")).toBe("/Users/u/Library/Caches");
    expect(userCacheDir({ LOCALAPPDATA: "C:\\Users\\u\\AppData\\Local" }, "win32", "C:\\Users\\u")).toBe("C:\\Users\\u\\AppData\\Local");
    expect(referenceCacheDir({}, "linux", "/home/u")).toBe(path.join("/home/u/.cache", "v2-bridge", "reference"));
  });
});

describe("reference look-up order", () => {
  it("reads the cache before the checkout's ../shared/reference", () => {
    const env = cacheWith("v1-openapi.json");
    expect(locateReference("v1-openapi.json", undefined, env)).toMatchObject({ source: "cache", found: true, file: path.join(referenceCacheDir(env), "v1-openapi.json") });
    // Not in the cache: the checkout (present on the development machine and in CI, absent elsewhere).
    const v2 = locateReference("v2-openapi.json", undefined, env);
    expect(v2.source === "checkout" ? v2.file : null).toBe(v2.found ? path.join(CHECKOUT_REFERENCE_DIR, "v2-openapi.json") : null);
  });

  it("an explicit directory or V2_BRIDGE_REFERENCE_DIR is the only place looked at", () => {
    const env = cacheWith("v1-openapi.json", "v2-openapi.json");
    const explicit = dirWith("v1-openapi.json");
    expect(locateReference("v1-openapi.json", explicit, env)).toMatchObject({ source: "flag", found: true });
    expect(locateReference("v2-openapi.json", explicit, env)).toMatchObject({ source: null, found: false, file: path.join(explicit, "v2-openapi.json") });
    const fromEnv = { ...env, [REFERENCE_DIR_ENV]: explicit };
    expect(locateReference("v1-openapi.json", undefined, fromEnv)).toMatchObject({ source: "env", found: true });
    expect(locateReference("v2-openapi.json", undefined, fromEnv).found).toBe(false);
    // The flag wins over the environment.
    const other = dirWith("v2-openapi.json");
    expect(locateReference("v2-openapi.json", other, fromEnv)).toMatchObject({ source: "flag", found: true });
  });

  it("when a document is missing, says in one line where it looked and how to get it", () => {
    const empty = dirWith();
    const reason = referenceMissingReason(empty)!;
    expect(reason).not.toContain("\n");
    expect(reason).toContain(`reference documents v1-openapi.json and v2-openapi.json not found (looked in ${empty})`);
    expect(reason).toContain("v2-bridge reference fetch");
    expect(referenceMissingReason(dirWith("v1-openapi.json", "v2-openapi.json"))).toBeNull();
    expect(referenceMissingReason(dirWith("v2-openapi.json"), ["v2-openapi.json"])).toBeNull();
  });
});
