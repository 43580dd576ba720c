// Where the preload is. The installed package runs its compiled dist/verify/preload/index.js. From
// the sources (a checkout), the preload is transpiled to plain JavaScript in a temporary directory
// first: it runs inside the client's processes, which must neither need a TypeScript loader nor
// get a second one (two tsx loaders in one process deadlock on their compiler).
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export type Preload = { url: string; cleanup(): void };

export async function preparePreload(): Promise<Preload> {
  if (!import.meta.url.endsWith(".ts")) {
    // The bundle puts this module in dist/chunks/ (or dist/verify/ unbundled): the preload is dist/verify/preload/index.js.
    const candidates = ["./preload/index.js", "../verify/preload/index.js"].map((rel) => new URL(rel, import.meta.url));
    const found = candidates.find((u) => existsSync(fileURLToPath(u))) ?? candidates[0]!;
    return { url: found.href, cleanup: () => {} };
  }
  const ts = (await import("typescript")).default;
  const sources = path.join(path.dirname(fileURLToPath(import.meta.url)), "preload");
  const dir = mkdtempSync(path.join(os.tmpdir(), "v2-bridge-verify-preload-"));
  // Bare imports resolve from this package, wherever the copy lives.
  const undici = pathToFileURL(createRequire(import.meta.url).resolve("undici")).href;
  for (const file of readdirSync(sources).filter((f) => f.endsWith(".ts"))) {
    const { outputText } = ts.transpileModule(readFileSync(path.join(sources, file), "utf8"), {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: false },
      fileName: file,
    });
    const js = outputText.replace(/(from\s+["'])(\.\/[^"']+)\.ts(["'])/g, "$1$2.mjs$3").replace(/(from\s+["'])undici(["'])/g, `$1${undici}$2`);
    writeFileSync(path.join(dir, file.replace(/\.ts$/, ".mjs")), js);
  }
  return { url: pathToFileURL(path.join(dir, "index.mjs")).href, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
