// undici: `request(url, { method, body })` (and its `fetch`, which is the fetch transport).
import type { Transport } from "./transport.ts";

export const undiciTransport: Transport = {
  lib: "undici-request",
  fromModule(module, name) {
    if (module !== "undici") return undefined;
    if (name === "fetch") return { lib: "fetch" };
    if (name === "request") return { lib: "undici-request" };
    if (name === "*" || name === "default") return { lib: "undici-ns" };
    return undefined;
  },
  parts: (_a, args) => ({ urlNode: args[0], options: args[1], bodyKey: "body" }),
};
