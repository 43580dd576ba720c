// The user's cache directory, where `v2-bridge reference fetch` keeps the downloaded documents:
// XDG_CACHE_HOME when set (any platform: tests and XDG users set it), else the platform's place:
// ~/.cache on Linux, ~/Library/Caches on macOS, %LOCALAPPDATA% on Windows.
import os from "node:os";
import path from "node:path";

export function userCacheDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform, home: string = os.homedir()): string {
  const xdg = env.XDG_CACHE_HOME;
  if (xdg && path.isAbsolute(xdg)) return xdg;
  if (platform === "win32") return env.LOCALAPPDATA || path.join(home, "AppData", "Local");
  if (platform === "darwin") return path.join(home, "Library", "Caches");
  return path.join(home, ".cache");
}

/** Where the reference documents are cached: `<cache>/v2-bridge/reference`. */
export function referenceCacheDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform, home?: string): string {
  return path.join(userCacheDir(env, platform, home), "v2-bridge", "reference");
}
