// Packs this checkout (`npm pack` of the dist/ the test run built) and installs the tarball into an empty
// directory with npm's --offline, as a user without network would.
//
// npm installs a published package's dependencies from the npm-shrinkwrap.json it ships, but it
// does not read the shrinkwrap of a local tarball (it resolves every range against the registry
// instead, which --offline cannot do from a cache filled by `npm ci`). So the consumer's lockfile
// is written from the tarball's own shrinkwrap, the tree npm builds for the published package;
// `npm install --offline` then takes every dependency from npm's cache, by integrity.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { REPO_ROOT } from "../../openapi/reference.ts";

export type Packed = { tarball: string; bytes: number; unpackedBytes: number; files: string[] };

const npm = (args: string[], cwd: string) => execFileSync("npm", [...args, "--no-audit", "--no-fund", "--loglevel=error"], { cwd, encoding: "utf8", maxBuffer: 64 << 20, stdio: ["ignore", "pipe", "pipe"] });

/**
 * Packs the dist/ the test run built (test/global-setup.ts runs the build script once): npm's
 * prepack would build again, removing dist/ while other test files run the built CLI. So the
 * scripts are skipped and the rest of prepack and postpack (the shrinkwrap) is run here.
 */
export function packCheckout(): Packed {
  const dest = mkdtempSync(path.join(os.tmpdir(), "v2b-pack-"));
  const shrinkwrap = (...args: string[]) => execFileSync(process.execPath, [path.join(REPO_ROOT, "scripts", "shrinkwrap.mjs"), ...args], { cwd: REPO_ROOT, stdio: "inherit" });
  shrinkwrap();
  let packed: string;
  try {
    packed = npm(["pack", "--json", "--ignore-scripts", "--pack-destination", dest], REPO_ROOT);
  } finally {
    shrinkwrap("--remove");
  }
  const [info] = JSON.parse(packed) as { filename: string; size: number; unpackedSize: number; files: { path: string }[] }[];
  return { tarball: path.join(dest, info!.filename), bytes: info!.size, unpackedBytes: info!.unpackedSize, files: info!.files.map((f) => f.path) };
}

/** An empty directory with the tarball installed; returns the directory. */
export function installOffline(tarball: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "v2b-installed-"));
  const spec = `file:${tarball}`;
  const shrinkwrap = JSON.parse(execFileSync("tar", ["-xzOf", tarball, "package/npm-shrinkwrap.json"], { encoding: "utf8", maxBuffer: 64 << 20 })) as {
    packages: Record<string, Record<string, unknown>>;
  };
  const { name: _name, ...self } = shrinkwrap.packages[""]!;
  const packages: Record<string, unknown> = {
    "": { name: "consumer", dependencies: { "v2-bridge": spec } },
    "node_modules/v2-bridge": { ...self, resolved: spec, integrity: `sha512-${createHash("sha512").update(readFileSync(tarball)).digest("base64")}` },
  };
  for (const [where, entry] of Object.entries(shrinkwrap.packages)) if (where) packages[`node_modules/v2-bridge/${where}`] = entry;
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "consumer", private: true, dependencies: { "v2-bridge": spec } }, null, 2));
  writeFileSync(path.join(dir, "package-lock.json"), JSON.stringify({ name: "consumer", lockfileVersion: 3, requires: true, packages }, null, 2));
  npm(["install", "--offline"], dir);
  return dir;
}
