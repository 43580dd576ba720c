// Whether a route literal's value can reach a request: an HTTP call, a URL being built, or code the
// engine cannot see into that may take it as a URL. The recall net counts a v1 route literal as a
// site only then. A path the project uses as a key (`notify("/pods")` matching listeners by prefix,
// `cache.delete("/pods")`, SWR's `mutate("/pods")`, a react-query `queryKey`), compares or logs is
// not a request. The value is followed as the engine follows values: into the project's own
// functions (the parameter's uses), through variables, concatenation, templates, string methods
// and returns to callers. Where it goes somewhere unknown, it counts (recall first).
import { Node } from "../ts-morph.ts";
import type { Analysis } from "./state.ts";
import { classNamed, declarationsNamed, functionNamed } from "./record-callees.ts";
import { enclosingFunction } from "./scope.ts";
import { referencesOf, skipParens } from "./nodes.ts";
import { callersOf } from "./rewrites/record-flow-facts.ts";
import { swrCacheKey } from "./transports/swr.ts";
import { namesArgument, namesKey } from "./library-names.ts";

/** A parameter or property whose name says it takes a URL or a path. */
const URL_LIKE = /url|uri|path|href|endpoint|route|input|resource|link|location|address/i;
/** A declared parameter type that is a URL or a request (`fetch(input: RequestInfo | URL)`, `new URL(url: string | URL)`). */
const URL_TYPE = /\bURL\b|RequestInfo|\bRequest\b/;
/**
 * Calls the engine cannot see into whose argument is, by convention, a cache key or an event name:
 * SWR's and react-query's cache, event emitters, Next.js's cache of the app's own routes.
 */
const KEY_VERBS = new Set([
  "mutate", "invalidateQueries", "refetchQueries", "removeQueries", "resetQueries", "cancelQueries", "setQueryData", "getQueryData", "setQueriesData",
  "emit", "on", "once", "off", "addListener", "removeListener", "addEventListener", "removeEventListener", "publish", "subscribe", "unsubscribe",
  "revalidatePath", "revalidateTag",
]);
/** Object keys that hold a cache key, an event name or an action's type, by convention (`useQuery({ queryKey: ["/pods", id] })`, `{ type: "pods/stopOne" }`). */
const KEY_PROPERTIES = new Set(["queryKey", "mutationKey", "cacheKey", "eventName", "event", "type"]);
const COMPARISONS = new Set(["===", "!==", "==", "!=", "<", ">", "<=", ">=", "in", "instanceof"]);
const MAX_DEPTH = 8;

/** Whether the literal's value may reach a request (true where the engine cannot tell). */
export function reachesRequest(a: Analysis, literal: Node): boolean {
  return goes(a, literal, 0, new Set());
}

function goes(a: Analysis, value: Node, depth: number, seen: Set<Node>): boolean {
  if (depth > MAX_DEPTH) return true;
  const outer = skipParens(value);
  const p = outer.getParent();
  if (!p) return true;
  if (Node.isExpressionStatement(p) || Node.isIfStatement(p) || Node.isCaseClause(p) || Node.isSwitchStatement(p) || Node.isTypeOfExpression(p)) return false;
  if (Node.isPrefixUnaryExpression(p) || Node.isVoidExpression(p) || Node.isDeleteExpression(p)) return false;
  if ((Node.isCallExpression(p) || Node.isNewExpression(p)) && p.getExpression() !== outer) {
    const index = p.getArguments().indexOf(outer as never);
    return index < 0 || argument(a, p, index, depth, seen);
  }
  if (Node.isVariableDeclaration(p) && p.getInitializer() === outer) return variable(a, p, depth, seen);
  // `"/pods".startsWith(x)`, `path.replace(…)`: a string method gives a string (which may carry it) or a test.
  if (Node.isPropertyAccessExpression(p) && p.getExpression() === outer) {
    const call = p.getParent();
    return !!call && Node.isCallExpression(call) && call.getExpression() === p && stringy(call) && goes(a, call, depth + 1, seen);
  }
  // A lookup key (`routes["/pods"]`) is not a request; the value indexed is not followed.
  if (Node.isElementAccessExpression(p)) return p.getExpression() === outer;
  if (Node.isBinaryExpression(p)) {
    const op = p.getOperatorToken().getText();
    if (COMPARISONS.has(op)) return false;
    if (op === "=") return p.getRight() === outer;
    return goes(a, p, depth + 1, seen);
  }
  if (Node.isTemplateSpan(p)) return goes(a, p.getParent()!, depth + 1, seen);
  if (Node.isConditionalExpression(p)) return p.getCondition() !== outer && goes(a, p, depth + 1, seen);
  if (Node.isArrayLiteralExpression(p) || Node.isAwaitExpression(p)) return goes(a, p, depth + 1, seen);
  if ((Node.isPropertyAssignment(p) && p.getInitializer() === outer) || Node.isShorthandPropertyAssignment(p)) {
    const key = p.getName();
    // A name a known library takes in its options (`createSlice({ name: "pods" })`).
    if (namesKey(a, p.getParent()!, key)) return false;
    return URL_LIKE.test(key) || !KEY_PROPERTIES.has(key);
  }
  if (Node.isReturnStatement(p) || (Node.isArrowFunction(p) && p.getBody() === outer)) {
    const fn = Node.isReturnStatement(p) ? enclosingFunction(p) : p;
    if (seen.has(fn)) return false;
    seen.add(fn);
    const callers = callersOf(fn);
    return !callers || callers.some((c) => goes(a, c, depth + 1, seen));
  }
  return true;
}

/** A variable holding the value: its uses in its scope (an exported one may be used anywhere). */
function variable(a: Analysis, decl: Node, depth: number, seen: Set<Node>): boolean {
  if (!Node.isVariableDeclaration(decl)) return true;
  const name = decl.getNameNode();
  const statement = decl.getParent()?.getParent();
  if (!Node.isIdentifier(name) || (statement && Node.isVariableStatement(statement) && statement.isExported())) return true;
  return referencesOf(enclosingFunction(decl), name).some((r) => goes(a, r, depth + 1, seen));
}

/** The value handed to a call at `index`: followed into the project's function, else judged by what is declared of the callee. */
function argument(a: Analysis, call: Node, index: number, depth: number, seen: Set<Node>): boolean {
  const callee = (call as any).getExpression() as Node;
  const fn = Node.isCallExpression(call) ? functionNamed(a, callee) : classNamed(a, callee)?.getConstructors()[0];
  if (fn) {
    const params = (fn as any).getParameters() as Node[];
    const param = params[index];
    if (!param || !Node.isParameterDeclaration(param) || param.getDotDotDotToken() || !Node.isIdentifier(param.getNameNode())) return true;
    if (seen.has(param)) return false;
    seen.add(param);
    return referencesOf(fn, param.getNameNode()).some((r) => goes(a, r, depth + 1, seen));
  }
  // A name a known library takes (Redux Toolkit's `createAsyncThunk("pods/stopOne", …)`, a translation key): library-names.ts.
  if (namesArgument(a, call, index)) return false;
  const name = Node.isPropertyAccessExpression(callee) ? callee.getName() : callee.getText();
  // SWR's cache calls (`useSWRMutation(key, …)`, `useSWRConfig().mutate(key)`): the key names a cache entry.
  if (Node.isCallExpression(call) && index === 0 && swrCacheKey(a, call)) return false;
  if (KEY_VERBS.has(name) || /^console\.\w+$/.test(callee.getText())) return false;
  // The standard library's declarations (the only outside code the analysis loads): a URL parameter,
  // or a string result that may carry the value on (`concat`, `replace`); anything else is a key or a test.
  const declared = declarationsNamed(callee);
  if (!declared.length || !declared.every((d) => d.getSourceFile().isDeclarationFile())) return true;
  for (const d of declared) {
    const params = ((d as any).getParameters?.() ?? []) as Node[];
    const last = params.at(-1);
    const param = params[index] ?? (last && Node.isParameterDeclaration(last) && last.getDotDotDotToken() ? last : undefined);
    if (!param || !Node.isParameterDeclaration(param)) continue;
    if (URL_LIKE.test(param.getName()) || URL_TYPE.test(param.getTypeNode()?.getText() ?? "")) return true;
  }
  return stringy(call) && goes(a, call, depth + 1, seen);
}

/** Whether a call's result may be a string (a string type, or one the checker does not know). */
function stringy(call: Node): boolean {
  try {
    const type = call.getType();
    const parts = type.isUnion() ? type.getUnionTypes() : [type];
    return parts.some((t) => t.isAny() || t.isUnknown() || t.isString() || t.isStringLiteral() || t.isTypeParameter() || !!(t as any).isTemplateLiteral?.());
  } catch {
    return true;
  }
}
