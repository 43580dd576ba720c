// The package a file belongs to: the nearest folder with a package.json between the file and the
// run's root (a monorepo's package), else the root.
import { existsSync, readFileSync } from "node:fs";
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

/** A package.json above a file: its folder, and its parsed content (undefined when it cannot be read or parsed). */
export interface Manifest {
  dir: string;
  json?: { dependencies?: Record<string, string>; devDependencies?: Record<string, string>; peerDependencies?: Record<string, string>; scripts?: Record<string, string> };
}

/** The package.json files from `file`'s folder upwards, nearest first, looking at most `levels` folders up (read as the caller goes). */
export function* manifestsAbove(file: string, levels = Infinity): Generator<Manifest> {
  for (let dir = path.dirname(path.resolve(file)), up = 0; up < levels; dir = path.dirname(dir), up++) {
    const pkg = path.join(dir, "package.json");
    if (existsSync(pkg)) {
      let json: Manifest["json"];
      try {
        json = JSON.parse(readFileSync(pkg, "utf8"));
      } catch {
        json = undefined;
      }
      yield { dir, json };
    }
    if (path.dirname(dir) === dir) break;
  }
}
