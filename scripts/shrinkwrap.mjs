// prepack: writes npm-shrinkwrap.json, the runtime part of package-lock.json, into the tarball.
// npm installs a package's shrinkwrap as written, so an install gets exactly the dependency
// versions this checkout was tested with, by integrity, and can run offline from npm's cache.
// postpack removes it again (the checkout keeps package-lock.json as its one lockfile).
import { readFileSync, rmSync, writeFileSync } from "node:fs";

if (process.argv[2] === "--remove") {
  rmSync("npm-shrinkwrap.json", { force: true });
} else {
  const lock = JSON.parse(readFileSync("package-lock.json", "utf8"));
  const packages = Object.fromEntries(Object.entries(lock.packages).filter(([, entry]) => !entry.dev));
  const { devDependencies: _dev, ...root } = packages[""];
  writeFileSync("npm-shrinkwrap.json", JSON.stringify({ ...lock, packages: { ...packages, "": root } }, null, 2) + "\n");
}
