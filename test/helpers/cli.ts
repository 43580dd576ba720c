// The two ways the tests start the CLI. Most run the build (what a user installs): test/global-setup.ts
// builds dist/ once per run, and a built process starts in a fraction of the time tsx takes to compile
// the sources. A few keep running the development entry, so the checkout's `bin/` stays covered.
import path from "node:path";
import { REPO_ROOT } from "../../openapi/reference.ts";

/** The built CLI (dist/bin/v2-bridge.js, built by test/global-setup.ts before the first test file). */
export const BUILT_CLI = path.join(REPO_ROOT, "dist", "bin", "v2-bridge.js");

/** The development entry: the TypeScript sources through tsx (npm start, the docs script). */
export const SOURCE_CLI = path.join(REPO_ROOT, "bin", "v2-bridge.mjs");
