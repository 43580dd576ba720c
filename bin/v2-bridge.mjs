#!/usr/bin/env node
// Development entry: runs the TypeScript sources through tsx, so a checkout needs no build step
// (npm start, the tests and the docs script use it). The installed package runs the compiled
// dist/bin/v2-bridge.js instead (`npm run build`).
import { register } from "tsx/esm/api";

register();
await import("./v2-bridge.ts");
