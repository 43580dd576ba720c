// CommonJS shim so `jscodeshift -t codemod/jscodeshift.cjs` works without a TypeScript loader:
// tsx compiles the TypeScript transform (and the engine and mapping table) on load.
"use strict";
const path = require("node:path");
const { require: tsxRequire } = require("tsx/cjs/api");

const mod = tsxRequire(path.join(__dirname, "jscodeshift.ts"), __filename);
const transformer = mod.default ?? mod;
module.exports = function v2BridgeTransform(file, api, options) {
  return transformer(file, api, options);
};
module.exports.parser = "tsx";
