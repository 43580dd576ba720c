// Where the package is and which version it is. The same code runs from the sources (tsx) and
// compiled under dist/, so the root is found by walking up to our package.json, not by a fixed "..".
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

function findRoot(from: string): { root: string; version: string } {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const file = path.join(dir, "package.json");
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, "utf8")) as { name?: string; version?: string };
      if (pkg.name === "v2-bridge") return { root: dir, version: pkg.version ?? "0.0.0" };
    }
    if (path.dirname(dir) === dir) throw new Error(`v2-bridge: no package.json above ${from}`);
  }
}

const found = findRoot(path.dirname(fileURLToPath(import.meta.url)));

/** The package's root directory: the checkout, or node_modules/v2-bridge when installed. */
export const PACKAGE_ROOT = found.root;

/** The package version (package.json), shown by `--version`, the health answer and the audit JSON. */
export const VERSION = found.version;
