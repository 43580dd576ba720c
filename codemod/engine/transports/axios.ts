// axios: `axios(config)`, `axios(url, config)`, `axios.get/post/…(url, [data], config)`,
// `axios.request(config)`, and instances from `axios.create({ baseURL })`.
import type { Transport } from "./transport.ts";
import { external, objectLiteral, prop } from "../values.ts";

const VERBS = new Set(["get", "post", "put", "patch", "delete", "head", "options"]);

export const axiosTransport: Transport = {
  lib: "axios",
  fromModule: (module, name) => (module === "axios" && (name === "*" || name === "default" || name === "axios") ? { lib: "axios" } : undefined),
  verb: (name) => (VERBS.has(name) ? { verb: name } : name === "request" ? {} : undefined),
  instanceBaseKeys: (method) => (method === "create" ? ["baseURL"] : undefined),
  parts(a, args, verb, instance) {
    const first = args[0] && objectLiteral(a, args[0]);
    if (verb) {
      const hasData = verb === "post" || verb === "put" || verb === "patch";
      const options = args[hasData ? 2 : 1];
      return { urlNode: args[0], options, bodyKey: "arg", bodyArg: hasData ? args[1] : undefined, external: external(a, objectLiteral(a, options), ["baseURL"], "slash") ?? instance };
    }
    const [urlNode, options] = first && args.length === 1 ? [prop(first, "url"), first] : [args[0], args[1]];
    return { urlNode, options, bodyKey: "data", external: external(a, objectLiteral(a, options), ["baseURL"], "slash") ?? instance };
  },
};
