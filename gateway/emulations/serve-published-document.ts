// servePublishedDocument: the gateway itself serves the published v1 OpenAPI document (from its
// reference directory) and a small docs page; 404 in v1 format when it has no document.
import { V1Error } from "../translation/v1-errors.ts";
import type { Emulation } from "./types.ts";
import { V1_RETIREMENT } from "../../mappings/bases.ts";

const page = (publicV2Base: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>v1 API (via v2-bridge)</title></head>
<body><h1>v1 REST API, translated to v2 by v2-bridge</h1>
<p>The v1 API is deprecated and retired on ${V1_RETIREMENT.toISOString().slice(0, 10)}. This gateway translates v1 calls to v2.</p>
<ul><li><a href="openapi.json">v1 OpenAPI document</a></li>
<li><a href="${publicV2Base}/openapi.json">v2 OpenAPI document</a> (the successor)</li></ul>
</body></html>
`;

export const servePublishedDocument: Emulation = {
  name: "servePublishedDocument",
  async handle(call) {
    if (call.op.response.kind === "html") {
      return { status: 200, text: page(call.deps.config.publicV2Base), contentType: "text/html; charset=utf-8" };
    }
    if (!call.deps.v1Document) throw new V1Error(404, "this gateway has no v1 OpenAPI document (set --reference-dir)");
    return { status: 200, json: call.deps.v1Document };
  },
};
