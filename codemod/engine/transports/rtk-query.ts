// RTK Query, a known convention: `createApi({ baseQuery: fetchBaseQuery({ baseUrl }), endpoints:
// (builder) => ({ x: builder.query|mutation({ query: (arg) => 'path' | { url, method, params, body } }) }) })`.
// Each endpoint is a call site: the path relative to `baseUrl`, the method (GET unless named), the
// query from `params`, the body from `body`. The answer reaches the app through the generated hooks'
// `data`, which the codemod does not follow: a list whose records are the same in v2 is unwrapped
// where RTK Query reads it (`transformResponse`), anything else about the answer is marked. A marked
// endpoint stays whole on v1 through an absolute URL on the declared v1 base (fetchBaseQuery sends
// an absolute URL as it is), so the base may flip for the others.
import { Node, SyntaxKind, type CallExpression } from "../../ts-morph.ts";
import type { HttpMethod } from "../../../mappings/index.ts";
import { addEdit, type Analysis, type Site } from "../state.ts";
import { baseIn } from "../evaluate/bases.ts";
import { objectLiteral, prop } from "../values.ts";
import { escapeFor, unwrapExpression } from "../urls.ts";
import { insertAt, replaceNode } from "../text-edit.ts";
import { V1_BASE_NAME } from "../v1-redirect.ts";
import { V2_BASE } from "../../../mappings/bases.ts";
import { optionsOf } from "../evaluate/value.ts";
import type { HttpCall } from "./transport.ts";
import type { Edit } from "../../types.ts";

const KINDS = new Set(["query", "mutation"]);
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];

interface Endpoint { def: Node; url: Node; request?: Node }

/** The value a `query` function returns (its expression body, or its one `return`). */
function returned(fn: Node | undefined): Node | undefined {
  if (!fn) return undefined;
  if (Node.isArrowFunction(fn) && !Node.isBlock(fn.getBody())) return unwrapExpression(fn.getBody());
  if (!Node.isArrowFunction(fn) && !Node.isFunctionExpression(fn) && !Node.isMethodDeclaration(fn)) return undefined;
  const returns = fn.getDescendantsOfKind(SyntaxKind.ReturnStatement).filter((r) => r.getFirstAncestor((x) => Node.isFunctionLikeDeclaration(x)) === fn);
  const value = returns.length === 1 ? returns[0]!.getExpression() : undefined;
  return value && unwrapExpression(value);
}

/** An endpoint definition whose `query` returns a path or a request object with a `url`. */
function endpointOf(a: Analysis, call: CallExpression): Endpoint | undefined {
  const arg = call.getArguments()[0];
  const def = arg && (objectLiteral(a, arg) ?? unwrapExpression(arg));
  if (!def) return undefined;
  if (!Node.isObjectLiteralExpression(def)) return undefined;
  const q = def.getProperty("query");
  const fn = q && Node.isPropertyAssignment(q) ? unwrapExpression(q.getInitializerOrThrow()) : q && Node.isMethodDeclaration(q) ? q : undefined;
  const value = returned(fn);
  if (!value) return undefined;
  if (Node.isStringLiteral(value) || Node.isNoSubstitutionTemplateLiteral(value) || Node.isTemplateExpression(value)) return { def, url: value };
  if (!Node.isObjectLiteralExpression(value)) return undefined;
  const url = prop(value, "url");
  return url ? { def, url, request: value } : undefined;
}

/** `builder.query(…)` inside `endpoints: (builder) => …` of `createApi({ … })`: the createApi options. */
function apiOptions(call: CallExpression): Node | undefined {
  const callee = unwrapExpression(call.getExpression());
  if (!Node.isPropertyAccessExpression(callee) || !KINDS.has(callee.getName())) return undefined;
  const builder = unwrapExpression(callee.getExpression());
  if (!Node.isIdentifier(builder)) return undefined;
  const fn = builder.getFirstAncestor((x) => Node.isArrowFunction(x) || Node.isFunctionExpression(x) || Node.isMethodDeclaration(x));
  const param = fn && (fn as any).getParameters()[0];
  if (!param || param.getName() !== builder.getText()) return undefined;
  const holder = fn!.getParent();
  const named = holder && (Node.isPropertyAssignment(holder) ? holder : Node.isMethodDeclaration(fn!) ? fn : undefined);
  if (!named || (named as any).getName() !== "endpoints") return undefined;
  const options = (Node.isMethodDeclaration(fn!) ? fn!.getParent() : holder!.getParent())!;
  const create = options.getParent();
  if (!create || !Node.isCallExpression(create) || !/(^|\.)createApi$/.test(unwrapExpression(create.getExpression()).getText())) return undefined;
  return options;
}

/** `fetchBaseQuery({ baseUrl })` of the createApi options: the call and its base option. */
function baseQueryOf(options: Node): { maker: Node; option: Node } | undefined {
  const bq = Node.isObjectLiteralExpression(options) ? prop(options, "baseQuery") : undefined;
  const maker = bq && unwrapExpression(bq);
  if (!maker || !Node.isCallExpression(maker) || !/(^|\.)fetchBaseQuery$/.test(unwrapExpression(maker.getExpression()).getText())) return undefined;
  const opts = maker.getArguments()[0];
  const option = opts && Node.isObjectLiteralExpression(unwrapExpression(opts)) ? prop(unwrapExpression(opts), "baseUrl") : undefined;
  return option ? { maker, option } : undefined;
}

const read = new WeakMap<Analysis, Map<Node, boolean>>();

/** Whether every endpoint of the API is one the codemod reads (then the base's use by fetchBaseQuery is accounted for). */
function allEndpointsRead(a: Analysis, options: Node): boolean {
  const memo = read.get(a) ?? new Map<Node, boolean>();
  read.set(a, memo);
  if (memo.has(options)) return memo.get(options)!;
  const calls = options.getDescendantsOfKind(SyntaxKind.CallExpression).filter((c) => apiOptions(c) === options);
  const endpoints = prop(options, "endpoints");
  const fn = endpoints && unwrapExpression(endpoints);
  const shape = fn && returned(fn);
  const defined = shape && Node.isObjectLiteralExpression(shape) ? shape.getProperties() : undefined;
  const ok = !!defined && defined.length === calls.length && calls.every((c) => !!endpointOf(a, c) && defined.some((p) => Node.isPropertyAssignment(p) && unwrapExpression(p.getInitializerOrThrow()) === c));
  memo.set(options, ok);
  return ok;
}

/** Reads an RTK Query endpoint as a call on its API's base. */
export function rtkEndpoint(a: Analysis, call: CallExpression): HttpCall | undefined {
  const options = apiOptions(call);
  const base = options && baseQueryOf(options);
  const endpoint = base && endpointOf(a, call);
  if (!endpoint) return undefined;
  const found = baseIn(a.evaluator.evaluate(base!.option));
  if (!found) return undefined;
  a.baseSource.set(unwrapExpression(base!.option), found.source);
  const request = endpoint.request;
  const method = request && prop(request, "method");
  const lit = method && unwrapExpression(method);
  const out: HttpCall = {
    call, lib: "convention", urlNode: endpoint.url, external: { value: found.value, node: base!.option, join: "slash" },
    method: { kind: "default", value: "GET" }, bodyKey: "body", options: request,
    trail: allEndpointsRead(a, options!) ? [base!.maker] : [],
    answerUnseen: "reaches the app through the generated hooks' data",
    jsonSerialiser: "fetchBaseQuery",
  };
  if (lit && (Node.isStringLiteral(lit) || Node.isNoSubstitutionTemplateLiteral(lit)) && METHODS.includes(lit.getLiteralValue().toUpperCase())) out.method = { kind: "literal", value: lit.getLiteralValue().toUpperCase() as HttpMethod, node: lit };
  else if (method) out.method = { kind: "unknown", node: method };
  const body = request && prop(request, "body");
  if (body) out.body = { node: body, stringify: false, prop: (request as any).getProperty("body") };
  // The answer's transforms are written once, after `query`, when the site's plan is complete.
  let unwrap: string | undefined;
  out.unwrapList = (wrapper) => {
    unwrap = transformResponse(endpoint.def, wrapper);
    return unwrap === undefined ? undefined : [];
  };
  out.answerEdits = (site) => transforms(a, site, endpoint.def, unwrap);
  out.ownRedirect = () => absoluteOnV1(endpoint.url);
  return out;
}

const typed = (n: Node, ts: string, js: string) => (/\.(js|jsx|mjs|cjs)$/.test(n.getSourceFile().getFilePath()) ? js : ts);

/** `transformResponse: (r) => r.<wrapper>` for the definition (none there yet): the hooks' data stays the list. */
function transformResponse(def: Node, wrapper: string): string | undefined {
  if (!Node.isObjectLiteralExpression(def) || def.getProperty("transformResponse")) return undefined;
  return `transformResponse: ${typed(def, `(response: { ${wrapper}: any[] })`, "(response)")} => response.${wrapper}`;
}

/** The function the endpoints' `transformErrorResponse` names, declared once per file. */
export const V1_ERROR_NAME = "v2ProblemAsV1Error";

/**
 * The endpoint's answer transforms: the list unwrap, and v2's problem document (`{ title, detail }`)
 * given the v1 `message` the app reads off `error.data` (RTK Query's `transformErrorResponse`),
 * unless the definition transforms its errors already (then the reason it is marked).
 */
function transforms(a: Analysis, site: Site, def: Node, unwrap: string | undefined): string | undefined {
  if (!Node.isObjectLiteralExpression(def)) return "the endpoint definition is not an object literal";
  if (def.getProperty("transformErrorResponse")) return "the endpoint transforms its errors itself, and v2 errors are problem documents ({ title, detail }), not { message }";
  site.edits.push(insertAt(def, def.getProperty("query")!.getEnd(), `, ${[unwrap, `transformErrorResponse: ${V1_ERROR_NAME}`].filter(Boolean).join(", ")}`));
  const before = site.onApply;
  site.onApply = () => {
    before?.();
    declareOnce(a, def);
  };
  return undefined;
}

/** `v2ProblemAsV1Error`, declared before the statement that makes the API (once per file, and not when a run before declared it). */
function declareOnce(a: Analysis, def: Node): void {
  const sf = def.getSourceFile();
  const file = a.files.get(sf.getFilePath());
  if (!file || file.declared.has(V1_ERROR_NAME) || new RegExp(`\\b${V1_ERROR_NAME}\\s*=`).test(sf.getFullText())) return;
  file.declared.add(V1_ERROR_NAME);
  const statement = def.getFirstAncestor((n) => Node.isStatement(n) && Node.isSourceFile(n.getParent()!))!;
  const e = typed(def, "(error: any): any", "(error)");
  const text = `// v2 errors are problem documents ({ title, detail }); this API's callers read error.data.message (v1).\nconst ${V1_ERROR_NAME} = ${e} =>\n  error?.data && typeof error.data === "object" && !("message" in error.data) ? { ...error, data: { ...error.data, message: error.data.detail ?? error.data.title } } : error;\n\n`;
  addEdit(a, insertAt(statement, statement.getStart(), text));
}

/** The endpoint's URL made absolute on the declared v1 base (`'pods'` → `` `${RUNPOD_V1_BASE}/pods` ``). */
export function absoluteOnV1(url: Node): ReturnType<NonNullable<HttpCall["ownRedirect"]>> {
  const target = unwrapExpression(url);
  const slash = (text: string) => (text.startsWith("/") ? "" : "/");
  if (Node.isStringLiteral(target) || Node.isNoSubstitutionTemplateLiteral(target)) {
    const text = target.getLiteralValue();
    return { edits: [replaceNode(target, `\`\${${V1_BASE_NAME}}${slash(text)}${escapeFor(text, true)}\``)], names: [V1_BASE_NAME] };
  }
  if (Node.isTemplateExpression(target)) {
    const head = target.getHead().getLiteralText();
    if (head.startsWith("http")) return undefined;
    return { edits: [insertAt(target, target.getStart() + 1, `\${${V1_BASE_NAME}}${slash(head)}`)], names: [V1_BASE_NAME] };
  }
  return undefined;
}

/** Whether the literal sits in an endpoint of an RTK Query API whose base is the v2 base (a migrated endpoint: not a v1 route). */
export function inV2Api(a: Analysis, literal: Node): boolean {
  const call = literal.getFirstAncestor((n) => Node.isCallExpression(n) && !!apiOptions(n));
  const options = call && apiOptions(call as CallExpression);
  const base = options && baseQueryOf(options);
  if (!base) return false;
  return optionsOf(a.evaluator.evaluate(base.option)).some((o) => o.kind === "string" && o.text.replace(/\/+$/, "") === V2_BASE);
}
