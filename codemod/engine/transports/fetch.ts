// fetch: the global, node-fetch and friends, undici's fetch; `fetch(url, init)`, and
// `fetch(request)` of a Request made from a URL and an init (request-object.ts).
import type { Transport } from "./transport.ts";
import { madeRequest } from "../request-object.ts";
import { wholeDescriptor } from "../descriptors.ts";

const FETCH_MODULES = new Set(["node-fetch", "cross-fetch", "isomorphic-fetch", "make-fetch-happen", "undici-fetch"]);

export const fetchTransport: Transport = {
  lib: "fetch",
  fromModule: (module) => (FETCH_MODULES.has(module) ? { lib: "fetch" } : undefined),
  parts: (a, args) => {
    // (An init given to fetch beside a Request overrides the Request's own: not read as one call.)
    const made = args.length === 1 ? madeRequest(a, args[0]) : undefined;
    if (made) return { urlNode: made.url, options: made.init, bodyKey: "body" };
    // `fetch(d.url, d)`, `fetch(d.url, { ...d, headers })`: the init is the descriptor's literal, where its builder writes it.
    const whole = args.length === 2 ? wholeDescriptor(a, args[1], ["method", "body"]) : undefined;
    return { urlNode: args[0], options: whole?.literal ?? args[1], bodyKey: "body" };
  },
};
