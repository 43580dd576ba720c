#!/usr/bin/env node
// The installed `v2-bridge` command, bundled to dist/bin/v2-bridge.js (package.json "bin";
// `npm run build`). In a checkout, bin/v2-bridge.mjs runs this same file from the sources through tsx.
import { enableCompileCache } from "../cli/compile-cache.ts";
import { main } from "../cli/main.ts";

// `audit` and `rewrite` load TypeScript's 9 MB compiler: with the code cache, only the first run compiles it.
enableCompileCache();

await main(process.argv);
