#!/usr/bin/env node
// The installed `v2-bridge` command, compiled to dist/bin/v2-bridge.js (package.json "bin").
// In a checkout, bin/v2-bridge.mjs runs this same file from the sources through tsx.
import { main } from "../cli/main.ts";

await main(process.argv);
