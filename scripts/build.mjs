// `npm run build`: the installed package's JavaScript, under dist/. esbuild bundles our own
// modules (the ~230 small ES modules tsc emitted cost Node 0.1–0.2 s of resolving and linking at
// every start) and splits them at each `import()`, so a command still loads only its own chunk:
// `audit` never reaches the gateway's chunk, nor the gateway the codemod's. npm dependencies stay
// outside the bundle (installed from the shrinkwrap, as before). Types are checked by
// `npm run typecheck`, not here.
import { build } from "esbuild";
import { copyFileSync, rmSync } from "node:fs";

rmSync("dist", { recursive: true, force: true });
await build({
  // The preload `verify` puts into client processes is an entry of its own (loaded by URL there).
  // So is the gateway's server module: bench:gateway runs the built gateway code in its own process
  // (the same chunk the CLI's `gateway` command loads).
  entryPoints: {
    "bin/v2-bridge": "bin/v2-bridge.ts",
    "codemod/jscodeshift": "codemod/jscodeshift.ts",
    "verify/preload/index": "verify/preload/index.ts",
    "gateway/server": "gateway/server.ts",
    // The tree scan's worker thread (codemod/scan-handoff.ts looks for it beside the chunks).
    "codemod/scan-worker": "codemod/scan-worker.ts",
  },
  outdir: "dist",
  chunkNames: "chunks/[name]-[hash]",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20.19",
  packages: "external",
  legalComments: "none",
  logLevel: "warning",
});
// The CommonJS shim `jscodeshift -t` loads; it requires the bundled dist/codemod/jscodeshift.js.
copyFileSync("codemod/jscodeshift.cjs", "dist/codemod/jscodeshift.cjs");
