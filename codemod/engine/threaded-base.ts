// A marked call through a helper whose base is not written in the helper's own URL (an axios
// instance's `baseURL`, the base of another helper it calls, a URL builder's) keeps v1 through the
// helper all the same: the helper gains a trailing `runpodBase` parameter and hands it on to where
// the base is taken (the library's per-request base option, the inner helper's own base slot, the
// builder's), and the marked call gives `RUNPOD_V1_BASE` there. Every other caller gives nothing,
// and for them nothing changes, so the shared base flips to v2 with the calls that migrate.
import { Node, SyntaxKind, type CallExpression } from "../ts-morph.ts";
import type { Edit } from "../types.ts";
import type { Analysis } from "./state.ts";
import type { HttpCall } from "./transports/index.ts";
import { readCall } from "./call-reader.ts";
import { enclosingFunction } from "./scope.ts";
import { locate, resolveParts, unwrapExpression } from "./urls.ts";
import { bind, urlContext } from "./values.ts";
import { optionsOf } from "./evaluate/value.ts";
import { soleReader } from "./local-base.ts";
import { insertAt, textEdit } from "./text-edit.ts";
import { isTypeScriptFile, valueKind } from "./nodes.ts";
import { helperRedirect } from "./helper-redirect.ts";
import { swrFetcherRedirect } from "./swr-kept-fetcher.ts";
import { forwardedOptionsRedirect } from "./forwarded-base.ts";
import { shortExpression } from "./expression-name.ts";
import { perRequestBaseKey } from "./transports/convention.ts";
import { references } from "./references.ts";
import { HELPER_BASE_PARAM, nameFor, V1_BASE_NAME, type Redirect } from "./v1-redirect.ts";

type Call = Node & { getArguments(): Node[] };

/** Libraries that take a base per request, under this option; axios alone reads an undefined one as "the instance's". */
const PER_REQUEST: Record<string, string> = { axios: "baseURL", "openapi-fetch": "baseUrl", ky: "prefixUrl", got: "prefixUrl" };

/** Why no base of its own can be handed on (said in the marks of the calls kept with it). */
type Why = { why: string };
type HandOn = { edits: Edit[]; shared: NonNullable<Redirect["shared"]>[] };

/** The redirect of a marked call through the helper `http.helper.fn` whose base is taken beyond its own URL. */
export function threadedBaseRedirect(a: Analysis, http: HttpCall): Redirect | undefined {
  const r = thread(a, http, V1_BASE_NAME, 0);
  return "why" in r ? undefined : r;
}

/** Why a marked call through a helper cannot carry a base of its own, when the helper path says so. */
export function threadedBaseWhy(a: Analysis, http: HttpCall): string | undefined {
  if (http.lib !== "helper") return undefined;
  // A data hook (SWR) calls its fetcher with the key alone: no base parameter can reach it.
  if (http.hook) {
    const r = swrFetcherRedirect(a, http);
    return "why" in r ? r.why : undefined;
  }
  if (typedInjection(http.call)) return `${calleeName(http.call)} is a constructor parameter of a declared function type, which a base parameter would not fit`;
  const r = thread(a, http, V1_BASE_NAME, 0);
  return "why" in r ? r.why || undefined : undefined;
}

/** `name` is what the call gives: `RUNPOD_V1_BASE` at the site, the outer helper's own `runpodBase` when threading through helpers over helpers. */
function thread(a: Analysis, http: HttpCall, name: string, depth: number): Redirect | Why {
  const fn = http.helper?.fn as Node | undefined;
  const transport = http.helper?.transport as Node | undefined;
  if (!fn || !transport || !Node.isCallExpression(transport)) return { why: "" };
  if (depth > 4) return { why: "the base is taken more than five helpers deep" };
  const t = readCall(a, transport);
  if (!t) return { why: "" };
  // The helper's new parameter, handed on to where the base is taken.
  const inner = handOn(a, t, depth);
  if ("why" in inner) return inner;
  const param = newParameter(fn, http.call, name);
  if ("why" in param) return param;
  const key = `${fn.getSourceFile().getFilePath()}:${fn.getStart()}:threaded`;
  return { edits: [param.call], names: name === V1_BASE_NAME ? [name] : [], shared: { key, edits: [param.decl, ...inner.edits] }, inner: inner.shared };
}

/** How the helper's transport call `t` takes the base the helper is given (its `runpodBase`). */
function handOn(a: Analysis, t: HttpCall, depth: number): HandOn | Why {
  const name = HELPER_BASE_PARAM;
  if (t.lib === "helper") {
    if (typedInjection(t.call)) return { why: `${calleeName(t.call)} is a constructor parameter of a declared function type, which a base parameter would not fit` };
    const fn = t.helper?.fn as Node | undefined;
    const anchor = fn && a.helperAnchors.get(fn);
    const r = anchor ? helperRedirect(fn!, anchor.node, anchor.value, t.call, name) : forwardedOptionsRedirect(a, t, name) ?? thread(a, t, name, depth + 1);
    if (r && "why" in r) return r;
    return r && !r.derived ? { edits: r.edits, shared: [...(r.shared ? [r.shared] : []), ...(r.inner ?? [])] } : { why: `${calleeName(t.call)} computes its base from what its callers give` };
  }
  const external = t.external;
  if (!external) return builderBase(a, t, name);
  const target = nameFor(external.value);
  if (!external.node || !target || target.name !== V1_BASE_NAME || target.slash) return { why: `its base (${external.value}) is not the v1 API root a request can be given` };
  // A base the transport names itself (in its own options) is this request's, not the instance's.
  if (external.node.getFirstAncestor((n) => n === t.call)) return { why: "" };
  const key = PER_REQUEST[t.lib] ?? (t.lib === "convention" ? perRequestBaseKey(a, t) : undefined);
  if (!key) return { why: `${shortExpression(unwrapExpression(t.call.getExpression()))} is a client whose base per request the codemod does not know` };
  return baseOption(t, key, t.lib === "axios" ? `${key}: ${name}` : `...(${name} ? { ${key}: ${name} } : {})`);
}

/** `fetch(this.url(route), …)`: the URL builder gains the base parameter (as a helper would), given `runpodBase`. */
function builderBase(a: Analysis, t: HttpCall, name: string): HandOn | Why {
  const r = viaBuilder(a, t, name);
  if (!r || "why" in r) return r ?? { why: "" };
  return !r.derived ? { edits: r.edits, shared: r.shared ? [r.shared] : [] } : { why: "" };
}

/**
 * A marked call (not through a helper) whose URL a builder of the project makes with the shared
 * base (`fetch(apiUrl(env, "pods"), …)`, or a URL object it made, `const url = apiUrl(…);
 * url.searchParams.set(…); fetch(url)`): the builder gains the base parameter, which the call's
 * builder call fills with `RUNPOD_V1_BASE`; its other callers are unchanged.
 */
export function builderRedirect(a: Analysis, http: HttpCall): Redirect | undefined {
  const r = viaBuilder(a, http, undefined);
  return r && !("why" in r) ? r : undefined;
}

/** `name`: the outer helper's base parameter handed on, or undefined for the declared v1 base at the site. */
function viaBuilder(a: Analysis, t: HttpCall, name: string | undefined): Redirect | Why | undefined {
  const u = t.urlNode && builderCallOf(a, t.urlNode, t.call);
  if (!u || !Node.isCallExpression(u)) return { why: "" };
  return redirectBuilder(a, u, name);
}

/** A builder call (`apiUrl(env, "pods")`) of a kept call, given the declared v1 base. */
export function builderCallRedirect(a: Analysis, u: CallExpression): Redirect | undefined {
  const r = redirectBuilder(a, u, undefined);
  return r && !("why" in r) ? r : undefined;
}

function redirectBuilder(a: Analysis, u: CallExpression, name: string | undefined): Redirect | Why | undefined {
  const parts = resolveParts(u, urlContext(a));
  const url = locate(parts, undefined);
  const first = parts[0];
  const why = { why: `the URL ${shortExpression(u)} does not start with a base its builder can be given` };
  if (!url?.anchor?.node || first?.kind !== "base" || first.node !== url.anchor.node) return why;
  const builder = enclosingFunction(first.node);
  if (Node.isSourceFile(builder) || !declares(u, builder)) return why;
  // What the call passes whole for the builder's base slot, read by the evaluator: a known string there is its own base.
  const carriesBase = (arg: Node, key: string | undefined) => optionsOf(key === undefined ? a.evaluator.evaluate(arg) : a.evaluator.property(arg, a.evaluator.evaluate(arg), key)).some((o) => o.kind === "string");
  return helperRedirect(builder, first.node, url.anchor.value, u, name, carriesBase) ?? why;
}

/** The builder call a URL is: written at the call, or a local URL (object) only this call reads. */
function builderCallOf(a: Analysis, urlNode: Node, at: Node): Node | undefined {
  const u = unwrapExpression(urlNode);
  if (Node.isCallExpression(u)) return u;
  if (!Node.isIdentifier(u)) return undefined;
  const b = bind(a, u);
  if (b?.kind !== "var" || !b.init || b.path.length || !Node.isVariableDeclaration(b.decl) || !soleReader(b.decl, at)) return undefined;
  const init = unwrapExpression(b.init);
  return Node.isCallExpression(init) ? init : undefined;
}

function calleeName(call: CallExpression): string {
  return shortExpression(unwrapExpression(call.getExpression()));
}

/** Whether the call's callee is the function `fn` (a method, a function, a const holding an arrow). */
function declares(call: CallExpression, fn: Node): boolean {
  const callee = unwrapExpression(call.getExpression());
  const nameNode = Node.isPropertyAccessExpression(callee) ? callee.getNameNode() : Node.isIdentifier(callee) ? callee : undefined;
  const symbol = nameNode?.getSymbol();
  // (An imported builder: the declarations of what the import names.)
  const decls = (symbol?.isAlias() ? symbol.getAliasedSymbol() : symbol)?.getDeclarations() ?? [];
  return decls.some((d) => d === fn || (Node.isVariableDeclaration(d) && d.getInitializer() === fn) || (Node.isPropertyDeclaration(d) && d.getInitializer() === fn));
}

/** The per-request base option put into the transport's own options (an object literal it is given), or a new options argument. */
function baseOption(t: HttpCall, key: string, property: string): HandOn | Why {
  const call = t.call;
  const args = call.getArguments();
  const opaque = { why: `the options of ${shortExpression(call)} are built elsewhere and may serve other requests` };
  if (args.some((x) => Node.isSpreadElement(x))) return opaque;
  // axios `request(config)`, `api(config)`: a base beside the config would be ignored; a copy of it carries the base.
  const config = t.lib === "axios" && t.method.kind !== "verb" ? axiosConfig(t) : undefined;
  if (config === "unknown") return { why: `${shortExpression(call)} may be given a config object, which takes no base beside it` };
  if (config && !Node.isObjectLiteralExpression(config)) return spreadBase(config, key, HELPER_BASE_PARAM);
  const options = t.options && unwrapExpression(t.options);
  if (options) {
    // Options built elsewhere may serve other requests: only a literal written in the call.
    if (!Node.isObjectLiteralExpression(options) || !args.some((x) => unwrapExpression(x) === options)) return opaque;
    if (options.getProperties().some((p) => (Node.isPropertyAssignment(p) || Node.isShorthandPropertyAssignment(p)) && p.getName() === key)) return { why: "" };
    const open = options.getStart() + 1;
    const empty = options.getProperties().length === 0;
    return { edits: [textEdit(options, open, empty ? options.getEnd() - 1 : open, empty ? ` ${property} ` : ` ${property},`)], shared: [] };
  }
  const verb = t.lib === "axios" && t.method.kind === "verb" ? t.method.value?.toLowerCase() : undefined;
  // axios: `get(url, config)`, `post(url, data, config)`, `api(url, config)`; `request(config)` and `api(config)` take the config alone.
  const want = verb && ["post", "put", "patch"].includes(verb) ? 3 : 2;
  if (args.length >= want || args.length === 0) return opaque;
  const value = t.lib === "axios" ? `{ ${property} }` : `${HELPER_BASE_PARAM} ? { ${key}: ${HELPER_BASE_PARAM} } : {}`;
  const fill = Array.from({ length: want - 1 - args.length }, () => "undefined");
  return { edits: [insertAt(call, args.at(-1)!.getEnd(), `, ${[...fill, value].join(", ")}`)], shared: [] };
}

/**
 * The config an axios call without a verb takes whole (`api.request(config)`, `api(config)`): a
 * second argument would be ignored there. `unknown`: the argument may be a URL or a config.
 */
function axiosConfig(t: HttpCall): Node | "unknown" | undefined {
  const args = t.call.getArguments();
  if (args.length !== 1) return undefined;
  const callee = unwrapExpression(t.call.getExpression());
  const arg = unwrapExpression(args[0]!);
  if (Node.isPropertyAccessExpression(callee) && callee.getName() === "request") return arg;
  if (Node.isStringLiteral(arg) || Node.isTemplateExpression(arg) || Node.isNoSubstitutionTemplateLiteral(arg)) return undefined;
  const kind = valueKind(arg);
  return kind === "string" ? undefined : kind === "object" ? arg : "unknown";
}

/** `{ ...config, baseURL: runpodBase ?? config.baseURL }`: the config's own base stays when the call gives none. */
function spreadBase(config: Node, key: string, name: string): HandOn | Why {
  if (!Node.isIdentifier(config)) return { why: `the config ${shortExpression(config)} is built where it is passed, and a base would have to go into it` };
  const text = config.getText();
  return { edits: [textEdit(config, config.getStart(), config.getEnd(), `{ ...${text}, ${key}: ${name} ?? ${text}.${key} }`)], shared: [] };
}

/** The helper's trailing `runpodBase` parameter and the argument the call gives it. */
function newParameter(fn: Node, call: Call, name: string): { decl: Edit; call: Edit } | Why {
  const params = ((fn as any).getParameters?.() ?? []) as Node[];
  const helper = functionName(fn);
  if (params.some((p) => (p as any).isRestParameter?.())) return { why: `${helper} takes rest parameters, after which no base parameter can follow` };
  if (params.some((p) => (p as any).getName?.() === HELPER_BASE_PARAM)) return { why: "" };
  // A function typed where it is declared (`const send: Send = (…) => …`): a parameter of its own would not fit the type.
  const holder = fn.getParent();
  if (holder && Node.isVariableDeclaration(holder) && holder.getTypeNode()) return { why: `${helper} is declared with a function type (${holder.getTypeNode()!.getText()}), which a base parameter would not fit` };
  const args = call.getArguments();
  if (args.length > params.length || args.some((x) => Node.isSpreadElement(x))) return { why: `${shortExpression(call)} gives ${helper} arguments beyond those it declares` };
  // Handed on as a value (`paths.map(get)`), it may be given arguments where the new parameter is.
  const passed = handedOn(fn);
  if (passed) return { why: `${helper} is handed on as a value (${shortExpression(passed)}), where its callers may fill a new parameter` };
  const close = fn.getFirstChildByKind(SyntaxKind.CloseParenToken);
  const closeParen = call.getLastChildByKind(SyntaxKind.CloseParenToken);
  if (!close || !closeParen) return { why: "" };
  const text = isTypeScriptFile(fn.getSourceFile().getFilePath()) ? `${HELPER_BASE_PARAM}?: string` : HELPER_BASE_PARAM;
  const last = params.at(-1);
  const decl = last ? insertAt(last, last.getEnd(), `, ${text}`) : insertAt(close, close.getStart(), text);
  const tail = [...Array.from({ length: params.length - args.length }, () => "undefined"), name].join(", ");
  const at = args.length ? args.at(-1)!.getEnd() : closeParen.getStart();
  return { decl, call: insertAt(call, at, args.length ? `, ${tail}` : tail) };
}

const handed = new WeakMap<Node, Node | null>();

/** A use of the function that is not a call of it (nor its declaration, import or export), if any. */
function handedOn(fn: Node): Node | undefined {
  if (handed.has(fn)) return handed.get(fn) ?? undefined;
  const holder = fn.getParent();
  const name = Node.isFunctionDeclaration(fn) || Node.isMethodDeclaration(fn) ? fn.getNameNode() : holder && Node.isVariableDeclaration(holder) ? holder.getNameNode() : undefined;
  let found: Node | undefined;
  for (const r of name && Node.isIdentifier(name) ? references(name) : []) {
    if (r === name) continue;
    const p = r.getParent();
    const callee = p && Node.isPropertyAccessExpression(p) && p.getNameNode() === r ? p : r;
    const up = callee.getParent();
    if (up && Node.isCallExpression(up) && up.getExpression() === callee) continue;
    if (p && (Node.isImportSpecifier(p) || Node.isExportSpecifier(p) || Node.isImportClause(p) || Node.isShorthandPropertyAssignment(p) || Node.isExportAssignment(p))) continue;
    found = r;
    break;
  }
  handed.set(fn, found ?? null);
  return found;
}

function functionName(fn: Node): string {
  const own = (fn as any).getName?.() as string | undefined;
  const holder = fn.getParent();
  return own ?? (holder && Node.isVariableDeclaration(holder) ? holder.getName() : "the helper");
}

/** Reached through a typed constructor parameter (`constructor(private request: RequestFn)`): an extra argument would not fit the declared function type. */
export function typedInjection(call: Node): boolean {
  const callee = Node.isCallExpression(call) ? unwrapExpression(call.getExpression()) : undefined;
  if (!callee || !Node.isPropertyAccessExpression(callee) || !Node.isThisExpression(callee.getExpression())) return false;
  const cls = callee.getFirstAncestor((n) => Node.isClassDeclaration(n));
  const param = cls && Node.isClassDeclaration(cls) ? cls.getConstructors()[0]?.getParameters().find((p) => p.isParameterProperty() && p.getName() === callee.getName()) : undefined;
  return !!param?.getTypeNode();
}
