#!/usr/bin/env node
// The installed `v2-bridge` command, compiled to dist/bin/v2-bridge.js (package.json "bin").
// In a checkout, bin/v2-bridge.mjs runs this same file from the sources through tsx.
import module from "node:module";
import { main } from "../cli/main.ts";

// Node ≥ 22.1 keeps compiled code on disk between runs: `audit` and `rewrite` load TypeScript's
// 9 MB compiler, whose compilation is most of their start. Node 20 has no such cache (no-op).
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();

await main(process.argv);
