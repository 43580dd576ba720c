// got and ky: `got(url, options)`, `got.post(url, { json })`, `ky.get(…)`, and instances from
// `got.extend({ prefixUrl })` / `ky.create/extend({ prefixUrl })`; bodies go in `json`.
import type { Transport } from "./transport.ts";
import { external, objectLiteral, prop } from "../values.ts";

const VERBS = new Set(["get", "post", "put", "patch", "delete", "head", "options"]);

function gotLike(lib: "got" | "ky", modules: string[], instanceMethods: string[]): Transport {
  return {
    lib,
    fromModule: (module) => (modules.includes(module) ? { lib } : undefined),
    verb: (name) => (VERBS.has(name) ? { verb: name } : undefined),
    instanceBaseKeys: (method) => (method && instanceMethods.includes(method) ? ["prefixUrl"] : undefined),
    parts(a, args, verb, instance) {
      const first = args[0] && objectLiteral(a, args[0]);
      const [urlNode, options] = first && args.length === 1 && !verb ? [prop(first, "url"), first] : [args[0], args[1]];
      return { urlNode, options, bodyKey: "json", external: external(a, objectLiteral(a, options), ["prefixUrl"], "slash") ?? instance };
    },
  };
}

export const gotTransport = gotLike("got", ["got"], ["extend"]);
export const kyTransport = gotLike("ky", ["ky", "ky-universal"], ["create", "extend"]);
