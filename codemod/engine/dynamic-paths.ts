// Paths computed at run time (`${BASE}/${kind}`): where the checker knows the hole's values (a
// union of string literals), the mark names the operations each value calls and their v2 paths;
// otherwise it says the path is computed at run time.
import { Node, SyntaxKind } from "../ts-morph.ts";
import type { LocatedUrl } from "./urls.ts";
import type { Analysis } from "./state.ts";
import type { Problems } from "./rewrites/problems.ts";
import { uniqueMatches } from "./v1-match.ts";
import type { OperationMapping } from "../../mappings/index.ts";
import { noV1Shape, possibleOperations } from "./finite-paths.ts";
import { typeStrings } from "./evaluate/finite-strings.ts";


/**
 * The v1 route literals written in a call's own URL argument (`getJson(buildUrl("/networkvolumes"))`),
 * when the path they give is computed at run time: the call is their site (not a stray route).
 */
export function routeLiteralsIn(urlNode: Node | undefined, method?: string): { node: Node; path: string; ops: OperationMapping[] }[] {
  if (!urlNode) return [];
  const out: { node: Node; path: string; ops: OperationMapping[] }[] = [];
  // What the argument is built by: the expression a project function called there returns (`api(podRequest(id))`).
  const built = urlNode.getDescendantsOfKind(SyntaxKind.CallExpression).concat(Node.isCallExpression(urlNode) ? [urlNode] : []).map((c) => returnedBy(c)).filter((x): x is Node => !!x);
  for (const n of [urlNode, ...urlNode.getDescendants(), ...built.flatMap((b) => [b, ...b.getDescendants()])]) {
    const text = Node.isStringLiteral(n) || Node.isNoSubstitutionTemplateLiteral(n) ? n.getLiteralValue() : Node.isTemplateExpression(n) ? n.getHead().getLiteralText() + n.getTemplateSpans().map((s) => "\0" + s.getLiteral().getLiteralText()).join("") : undefined;
    if (text === undefined) continue;
    const path = text.split(/[?#]/)[0]!.replace(/\/$/, "");
    if (!path.startsWith("/") || path === "/") continue;
    const ops = uniqueMatches(path).map((m) => m.operation).filter((o) => !method || o.v1.method === method);
    if (ops.length) out.push({ node: n, path, ops });
  }
  return out;
}

export function dynamicPathProblem(_a: Analysis, url: LocatedUrl, method?: string, routes: ReturnType<typeof routeLiteralsIn> = []): Problems[number] {
  if (routes.length) {
    const described = routes.map((r) => `${r.path.replace(/\0/g, "{…}")}: ${r.ops.map((o) => `${o.key}${o.v2 ? ` → ${o.v2.method} ${o.v2.path}` : " (no v2 equivalent)"}`).join(" / ")}`);
    return {
      reason: `the v1 path is computed at run time from the route written here (${described.join("; ")})`,
      advice: "write the v2 path where the URL is built (or build this URL without the run-time step), and check the request and answer shapes (docs/mapping.md)",
    };
  }
  const hole = url.parts.find((p) => p.kind === "hole");
  const values = hole && Node.isIdentifier(hole.node) ? typeStrings(hole.node) : undefined;
  if (values) {
    const described = values.map((v) => {
      const path = url.path.replace("\0", v.replace(/^\//, ""));
      const ms = uniqueMatches(path).filter((m) => !method || m.operation.v1.method === method);
      return ms.length ? `${v}: ${ms.map((m) => `${m.operation.key}${m.operation.v2 ? ` → ${m.operation.v2.method} ${m.operation.v2.path}` : " (no v2 equivalent)"}`).join(" / ")}` : `${v}: not a v1 path`;
    });
    return {
      reason: `the v1 path is computed at run time from ${hole!.node.getText()} (${described.join("; ")})`,
      advice: "map each value to its v2 path (and request/response shape) explicitly, then call the v2 base",
    };
  }
  const possible = possibleOperations(url.path, method);
  if (possible.length) return { reason: `the v1 path is computed at run time (it can call ${possible.map((o) => o.key).join(", ")})`, brief: "the v1 path is computed at run time", advice: "check which v1 operation it calls and use its v2 path (see docs/mapping.md)" };
  // Only ids are filled in at run time (`/pods/${id}/terminate`) and no v1 route has that shape:
  // the call fails on v1 as well; saying "computed at run time" would send the reader to the wrong place.
  if (noV1Shape(url.path, method)) {
    return { reason: `no v1 route matches ${method ? `${method} ` : ""}${url.path.replace(/\0/g, "{…}")} (the call fails on v1 too)`, advice: "find the operation it was meant to call in docs/mapping.md and use its v2 path" };
  }
  return { reason: "the v1 path is computed at run time", advice: "check which v1 operation it calls and use its v2 path (see docs/mapping.md)" };
}

/** The expression a function of the project called by `call` returns, when it has one (`(id) => ({ url: … })`). */
function returnedBy(call: Node): Node | undefined {
  if (!Node.isCallExpression(call)) return undefined;
  const callee = call.getExpression();
  if (!Node.isIdentifier(callee)) return undefined;
  for (const d of callee.getSymbol()?.getDeclarations() ?? []) {
    const fn = Node.isVariableDeclaration(d) ? d.getInitializer() : d;
    const body = fn && (Node.isArrowFunction(fn) || Node.isFunctionExpression(fn) || Node.isFunctionDeclaration(fn)) ? fn.getBody() : undefined;
    if (!body) continue;
    if (!Node.isBlock(body)) return body;
    const only = body.getStatements();
    if (only.length === 1 && Node.isReturnStatement(only[0]!)) return only[0]!.getExpression();
  }
  return undefined;
}
