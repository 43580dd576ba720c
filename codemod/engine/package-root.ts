// The package a file belongs to: the nearest folder with a package.json between the file and the
// run's root (a monorepo's package), else the root.
import { existsSync } from "node:fs";
import path from "node:path";

/**
 * Where the module goes for a file: the nearest folder with a package.json between the file and
 * the run's root (a package of a monorepo must not import from outside itself), else the root.
 */
export function packageRoot(file: string, root: string): string {
  const top = path.resolve(root);
  for (let dir = path.dirname(path.resolve(file)); dir.startsWith(top); dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, "package.json"))) return dir;
    if (dir === top || path.dirname(dir) === dir) break;
  }
  return top;
}
