// A request whose URL is split over two keys of one options object, as Node's http(s).request
// takes it: `{ hostname: "rest.runpod.io", path: `/v1/pods/${id}/start`, method: "POST" }`. The
// codemod does not rewrite such a request (the host, the version and the body are written apart),
// but the site is named: its operation from the path and the object's method, one finding for the
// host and the path together.
import { Node, type ObjectLiteralExpression } from "../ts-morph.ts";
import type { OperationMapping } from "../../mappings/index.ts";
import { HOLE, resolveParts, type Part } from "./urls.ts";
import { urlContext } from "./values.ts";
import type { Analysis } from "./state.ts";
import { uniqueMatches } from "./v1-match.ts";

export interface HostPath {
  /** The operations the path (and method, when written) can call: one names the site. */
  operations: OperationMapping[];
  /** The v1 path as written after the version (`/pods/{…}/start`), or undefined when it is computed. */
  path?: string;
  /** The parts of the `path` value (consumed: the recall net does not count them again). */
  parts: Part[];
  /** The path expression as written, when it is computed from what callers give. */
  computed?: string;
}

const HOST_KEYS = ["hostname", "host"];

/** The request a host literal (`"rest.runpod.io"`) names with the `path` beside it, or undefined when it is no such key. */
export function hostPathOf(a: Analysis, host: Node): HostPath | undefined {
  const prop = host.getParent();
  if (!prop || !Node.isPropertyAssignment(prop) || prop.getInitializer() !== host || !HOST_KEYS.includes(prop.getName())) return undefined;
  const obj = prop.getParent() as ObjectLiteralExpression;
  const pathProp = obj.getProperty("path");
  const pathNode = pathProp && Node.isPropertyAssignment(pathProp) ? pathProp.getInitializer() : undefined;
  if (!pathNode) return undefined;
  const parts = resolveParts(pathNode, urlContext(a));
  const text = parts.map((p) => (p.kind === "text" ? p.text : HOLE)).join("");
  const versioned = /^\/v1(\/[^?#]*)?/.exec(text);
  // `API_PREFIX + path` with the path a parameter: the calls that give it are counted where they write it.
  if (!versioned?.[1] || versioned[1].startsWith(`/${HOLE}`)) return { operations: [], parts: [], computed: pathNode.getText() };
  const path = versioned[1].replace(/\/$/, "");
  const methodProp = obj.getProperty("method");
  const m = methodProp && Node.isPropertyAssignment(methodProp) ? methodProp.getInitializer() : undefined;
  const method = m && (Node.isStringLiteral(m) || Node.isNoSubstitutionTemplateLiteral(m)) ? m.getLiteralValue().toUpperCase() : m ? undefined : "GET";
  const operations = uniqueMatches(path).map((x) => x.operation).filter((op) => !method || op.v1.method === method);
  return { operations, path: path.replaceAll(HOLE, "{…}"), parts };
}
