// fetch: the global, node-fetch and friends, undici's fetch; `fetch(url, init)`, and
// `fetch(request)` of a Request made from a URL and an init (request-object.ts).
import type { Transport } from "./transport.ts";
import { madeRequest } from "../request-object.ts";

const FETCH_MODULES = new Set(["node-fetch", "cross-fetch", "isomorphic-fetch", "make-fetch-happen", "undici-fetch"]);

export const fetchTransport: Transport = {
  lib: "fetch",
  fromModule: (module) => (FETCH_MODULES.has(module) ? { lib: "fetch" } : undefined),
  parts: (a, args) => {
    // (An init given to fetch beside a Request overrides the Request's own: not read as one call.)
    const made = args.length === 1 ? madeRequest(a, args[0]) : undefined;
    return made ? { urlNode: made.url, options: made.init, bodyKey: "body" } : { urlNode: args[0], options: args[1], bodyKey: "body" };
  },
};
