// openapi-fetch: `createClient<paths>({ baseUrl })` makes a client whose calls name typed path
// templates: `client.GET("/pods/{podId}", { params: { path: { podId } } })`, bodies in `body`.
import type { Transport } from "./transport.ts";

export const openapiFetchTransport: Transport = {
  lib: "openapi-fetch",
  fromModule: (module, name) => (module === "openapi-fetch" && (name === "default" || name === "createClient" || name === "*") ? { lib: "openapi-fetch" } : undefined),
  verb: (name) => (/^(GET|POST|PUT|PATCH|DELETE)$/.test(name) ? { verb: name } : undefined),
  instanceBaseKeys: (method) => (method === undefined ? ["baseUrl"] : undefined),
  parts: (_a, args, _verb, instance) => ({ urlNode: args[0], options: args[1], bodyKey: "body", external: instance }),
};
