// Names for v2 operations: the v2 document's operationId for a route the sandbox answered
// (`podAction(stop)` for pod actions, whose action is what they do), else "METHOD /route".
import type { OpenApiDocument } from "../openapi/reference.ts";

const shape = (template: string) => template.replace(/\{[^}]+\}/g, "{}");

export type OperationNamer = (method: string, route: string | undefined, path: string, body: unknown) => { key: string; label: string };

export function operationNamer(document: OpenApiDocument | null): OperationNamer {
  const ids = new Map<string, string>();
  for (const [template, item] of Object.entries(document?.paths ?? {})) {
    for (const [method, op] of Object.entries(item)) {
      if (op && typeof op === "object" && typeof op.operationId === "string") ids.set(`${method.toUpperCase()} ${shape(template)}`, op.operationId);
    }
  }
  return (method, route, path, body) => {
    const template = route ?? path;
    const base = ids.get(`${method} ${shape(template)}`) ?? `${method} ${template}`;
    const action = template.endsWith("/action") && body && typeof body === "object" ? (body as { action?: unknown }).action : undefined;
    const label = template.endsWith("/action") ? `${base}(${action === undefined ? "no action" : String(action)})` : base;
    return { key: `${method} ${shape(template)}${template.endsWith("/action") ? ` ${String(action)}` : ""}`, label };
  };
}
