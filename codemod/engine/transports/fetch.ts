// fetch: the global, node-fetch and friends, undici's fetch; `fetch(url, init)`.
import type { Transport } from "./transport.ts";

const FETCH_MODULES = new Set(["node-fetch", "cross-fetch", "isomorphic-fetch", "make-fetch-happen", "undici-fetch"]);

export const fetchTransport: Transport = {
  lib: "fetch",
  fromModule: (module) => (FETCH_MODULES.has(module) ? { lib: "fetch" } : undefined),
  parts: (_a, args) => ({ urlNode: args[0], options: args[1], bodyKey: "body" }),
};
