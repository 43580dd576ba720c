// Builds dist/ once per vitest run, with the package's own build script, before any test file
// starts: the tests that are about the CLI's surface run the built CLI (test/helpers/cli.ts), which
// starts without compiling the TypeScript sources (tsx) at every spawn. The package test packs this
// same build (npm pack --ignore-scripts), so a run builds exactly once.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

export default function setup(): void {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  execFileSync(process.execPath, [path.join(root, "scripts", "build.mjs")], { cwd: root, stdio: "inherit" });
}
