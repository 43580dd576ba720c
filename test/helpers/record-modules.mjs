// Preloaded with `node --import` by tests that check what a command loads: when the process
// exits, appends to $V2B_MODULES_OUT every module it loaded, ES modules (seen by a resolve hook)
// and CommonJS ones (require.cache, which also holds CommonJS packages reached by `import`).
import { appendFileSync } from "node:fs";
import { createRequire, register } from "node:module";

const out = process.env.V2B_MODULES_OUT;
if (out) {
  register(new URL("./record-modules-hooks.mjs", import.meta.url), { data: { out } });
  const cache = createRequire(import.meta.url).cache;
  process.on("exit", () => appendFileSync(out, Object.keys(cache).map((f) => `cjs ${f}\n`).join("")));
}
