// Module hooks for record-modules.mjs: every resolved ES module URL goes to the output file.
import { appendFileSync } from "node:fs";

let out;
export function initialize(data) {
  out = data.out;
}

export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(out, `esm ${result.url}\n`);
  return result;
}
