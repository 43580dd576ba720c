// CommonJS shim so `jscodeshift -t <this file>` works without a TypeScript loader. Installed, it
// sits beside the compiled jscodeshift.js (dist/codemod/) and requires it (Node ≥ 20.19 loads ES
// modules through require); in a checkout, tsx compiles the TypeScript transform on load.
"use strict";
const fs = require("node:fs");
const path = require("node:path");

const compiled = path.join(__dirname, "jscodeshift.js");
const mod = fs.existsSync(compiled)
  ? require(compiled)
  : require("tsx/cjs/api").require(path.join(__dirname, "jscodeshift.ts"), __filename);
const transformer = mod.default ?? mod;
module.exports = function v2BridgeTransform(file, api, options) {
  return transformer(file, api, options);
};
module.exports.parser = "tsx";
