// Rewrite: a request that sends a body says it is JSON. v2 answers any other body type with 415
// (v1 and the gateway took text/plain): fetch sends a string as text/plain, undici's request,
// got and ky (`body:`) send it with no type, axios sends a string as form data. The request's
// headers are followed by value from the site through its helpers and wrappers to the transport
// call (request-headers.ts). Where they do not say JSON, the header is written at a place where
// it reaches this request and changes nothing else: the call's own headers or options, else the
// request helper that builds them (every call of a helper goes to the API, and the gateway takes
// JSON too), never an object other code shares. Otherwise the site is marked, saying why.
import { Node, type CallExpression, type ObjectLiteralExpression } from "../../ts-morph.ts";
import { readCall } from "../call-reader.ts";
import { edit, fileOf, q, type Analysis, type Plan } from "../state.ts";
import type { HttpCall } from "../transports/transport.ts";
import { HeaderWalk, type Fix, type HeaderState } from "../request-headers.ts";
import type { Frame } from "../evaluate/value.ts";
import { enclosingFunction, countIdentifiers } from "../scope.ts";
import { bind, objectLiteral, urlContext } from "../values.ts";
import { locate, resolveParts, unwrapExpression } from "../urls.ts";
import { shortExpression } from "../expression-name.ts";
import { optionsOf } from "../evaluate/value.ts";
import { builtForSend, wholeDescriptor } from "../descriptors.ts";

const ADVICE = "send the body as JSON with Content-Type: application/json (v2 answers other types with 415)";
const FORM = /^(?:globalThis\.)?(FormData|URLSearchParams|Blob|File|ReadableStream|ArrayBuffer|Buffer|Uint8Array)\b/;

/** A helper or wrapper between the site and the transport: its own transport call. */
interface Layer {
  fn: Node;
  transport: CallExpression;
  /** A request helper (its path is on the API's base): every call of it is a request to the API. */
  helper: boolean;
}

interface Chain {
  inner: HttpCall;
  frame: Frame | undefined;
  layers: Layer[];
}

/** What the caller writes itself: the header beside the body it adds to these options, or in the options it adds. */
export interface JsonTypeResult {
  merged?: boolean;
}

/**
 * Makes sure the request of `http` says its body is JSON. `added`: the rewrite adds the body (into
 * `into`, an options literal it writes to, or into options it adds: `newOptions`); the header is
 * then left to it when it belongs there. Returns undefined when the site gets a problem instead.
 */
export function jsonType(plan: Plan, http: HttpCall, added?: { into?: Node; newOptions?: boolean }): JsonTypeResult | undefined {
  // RTK Query's fetchBaseQuery and Apollo's RESTDataSource serialise a plain object themselves and say it is JSON; the endpoint's headers are not read.
  if (http.jsonSerialiser === "fetchBaseQuery" || http.jsonSerialiser === "apollo" || http.jsonSerialiser === "route-config") return {};
  const walk = new HeaderWalk(plan.a);
  const chain = requestChain(plan, walk, http);
  if (!chain) {
    plan.problems.push({ reason: "the request's headers cannot be followed to the call that sends it, and v2 takes only JSON bodies", advice: ADVICE, brief: "the request's Content-Type cannot be followed" });
    return undefined;
  }
  const need = added ? addedNeed(chain.inner) : bodyNeed(plan.a, http, chain.inner);
  if (need === "none") return {};
  if (typeof need === "object") {
    plan.problems.push({ reason: `the body is sent as a ${need.form}, and v2 takes only JSON bodies`, advice: ADVICE, brief: `the body is a ${need.form}, not JSON` });
    return undefined;
  }
  const state = headerState(plan, walk, chain);
  if (state.kind === "json") return {};
  if (state.kind === "other") {
    plan.problems.push({ reason: `the request says Content-Type ${state.value}, and v2 takes only application/json bodies`, advice: ADVICE, brief: `Content-Type ${state.value} is not JSON` });
    return undefined;
  }
  if (state.kind === "unknown") {
    plan.problems.push({ reason: `v2 takes only JSON bodies, and the request's Content-Type cannot be checked: ${state.why}`, advice: ADVICE, brief: `its Content-Type cannot be checked (${shortExpression(state.at)})` });
    return undefined;
  }
  const fix = chooseFix(plan, http, chain, state.fixes);
  if (!fix) {
    const why = state.why ?? noPlace(chain, state.fixes);
    plan.problems.push({ reason: `the request sends its body without Content-Type: application/json (v2 answers 415), and the codemod cannot add it: ${why}`, advice: ADVICE, brief: `no JSON Content-Type, and ${why}` });
    return undefined;
  }
  if (added && ((fix.kind === "headers" && fix.options === added.into) || (fix.kind === "options" && fix.call === http.call && added.newOptions))) return { merged: true };
  writeFix(plan, fix);
  return {};
}

/** From the site through each helper or wrapper to the transport call that sends the request. */
function requestChain(plan: Plan, walk: HeaderWalk, http: HttpCall): Chain | undefined {
  let cur = http;
  let frame: Frame | undefined;
  const layers: Layer[] = [];
  for (let depth = 0; depth < 6; depth++) {
    const fn = (cur.lib === "helper" ? cur.helper?.fn : cur.wrapper?.fn) as Node | undefined;
    const transport = (cur.lib === "helper" ? cur.helper?.transport : cur.wrapper?.transport) as CallExpression | undefined;
    if (!fn || !transport) return { inner: cur, frame, layers };
    frame = walk.frame(fn, cur.call, frame);
    layers.push({ fn, transport, helper: cur.lib === "helper" });
    const next = readCall(plan.a, transport);
    if (!next) return undefined;
    cur = next;
  }
  return undefined;
}

/** A body the rewrite adds: an object the library serialises itself, else a JSON string. */
function addedNeed(inner: HttpCall): "json" | "none" {
  if (inner.lib === "axios" || inner.lib === "openapi-fetch" || inner.lib === "superagent" || inner.lib === "wretch" || inner.jsonSerialiser) return "none";
  return (inner.lib === "ky" || inner.lib === "got" || inner.lib === "convention") && inner.bodyKey !== "body" ? "none" : "json";
}

/** Whether the body must be said to be JSON: the transport sends it as it is given. */
function bodyNeed(a: Analysis, site: HttpCall, inner: HttpCall): "json" | "none" | { form: string } {
  const lib = inner.lib;
  // superagent sends an object as JSON (a string body at its own call is superagent.ts's to mark).
  if (lib === "openapi-fetch" || lib === "superagent" || lib === "wretch") return "none";
  if ((lib === "ky" || lib === "got" || lib === "convention") && inner.bodyKey === "json") return "none";
  const body = site.body;
  if (!body) return "none";
  const serialised = body.stringify || (site.lib === "helper" && site.helper!.serialisesBody && lib !== "axios");
  // axios (and a client by convention given data) serialises objects as JSON itself; a string goes as form data.
  if (lib === "axios" || (lib === "convention" && (inner.bodyKey !== "body" || inner.jsonSerialiser))) return body.stringify || isString(body.node) ? "json" : "none";
  if (serialised) return "json";
  const form = formOf(a, body.node);
  return form ? { form } : "json";
}

/** A form or binary body (`new URLSearchParams(…)`, a value typed `FormData`): fetch gives it its own type. */
function formOf(a: Analysis, n: Node): string | undefined {
  const type = typeText(n);
  const typed = type && FORM.exec(type)?.[1];
  if (typed) return typed;
  // The DOM's types may not be loaded: what the value is made by.
  for (const o of optionsOf(a.evaluator.evaluate(n))) {
    const made = o.kind === "made" && Node.isNewExpression(o.call) ? FORM.exec(o.call.getExpression().getText())?.[1] : undefined;
    if (made) return made;
  }
  return undefined;
}

function typeText(n: Node): string | undefined {
  try {
    return n.getType().getText(n);
  } catch {
    return undefined;
  }
}

function isString(n: Node): boolean {
  const u = unwrapExpression(n);
  if (Node.isStringLiteral(u) || Node.isNoSubstitutionTemplateLiteral(u) || Node.isTemplateExpression(u)) return true;
  try {
    const t = u.getType();
    return t.isString() || t.isStringLiteral();
  } catch {
    return false;
  }
}

/** The headers of the transport's request, with a client instance's own headers under the call's. */
function headerState(plan: Plan, walk: HeaderWalk, chain: Chain): HeaderState {
  const { inner, frame, layers } = chain;
  const raw = rawOptions(plan, inner);
  const missing = !raw && !layers.length ? missingOptions(inner) : undefined;
  const state = walk.options(raw, frame, missing);
  if (state.kind !== "absent" || !["axios", "ky", "got", "convention"].includes(inner.lib)) return state;
  // These libraries merge an instance's headers under the call's (names in any casing): JSON there is enough.
  const instance = instanceHeaders(plan, walk, inner, frame);
  return instance?.kind === "json" || instance?.kind === "other" ? instance : state;
}

function instanceHeaders(plan: Plan, walk: HeaderWalk, inner: HttpCall, frame: Frame | undefined): HeaderState | undefined {
  const callee = unwrapExpression(inner.call.getExpression());
  const target = Node.isPropertyAccessExpression(callee) ? callee.getExpression() : callee;
  for (const o of optionsOf(plan.a.evaluator.evaluate(target, frame))) {
    if (o.kind !== "made" || !(Node.isCallExpression(o.call) || Node.isNewExpression(o.call))) continue;
    const config = o.call.getArguments()[0];
    if (config) return walk.options(config, o.frame);
  }
  return undefined;
}

/** The argument the transport's options are written in (the call's own, before resolving a variable). */
function rawOptions(plan: Plan, inner: HttpCall): Node | undefined {
  if (!inner.options) return undefined;
  const args = inner.call.getArguments();
  // (A descriptor given whole, `fetch(d.url, { ...d, headers })`: the argument, whose headers may be its own.)
  return args.find((x) => x === inner.options || unwrapExpression(x) === inner.options || objectLiteral(plan.a, x) === inner.options || wholeDescriptor(plan.a, x, [])?.literal === inner.options) ?? inner.options;
}

/** A call that gives no options where its library takes them: they can be added after its last argument. */
function missingOptions(inner: HttpCall): Fix | undefined {
  const n = inner.call.getArguments().length;
  if (inner.lib === "helper") return inner.helper!.optionsIndex !== undefined ? { kind: "options", call: inner.call, index: inner.helper!.optionsIndex } : undefined;
  if (inner.lib === "axios") return inner.method.kind === "verb" && ["POST", "PUT", "PATCH"].includes(inner.method.value ?? "") ? { kind: "options", call: inner.call, index: 2 } : { kind: "options", call: inner.call, index: 1 };
  return n === 1 ? { kind: "options", call: inner.call, index: 1 } : undefined;
}

/** The first place that is sound: the site's own code, else a request helper's own transport call. */
function chooseFix(plan: Plan, site: HttpCall, chain: Chain, fixes: Fix[]): Fix | undefined {
  const atSite = fixes.find((f) => placeOf(plan, f, site.call, undefined));
  if (atSite) return atSite;
  for (const layer of chain.layers) {
    if (!layer.helper && !onlyApiCalls(plan, layer.fn)) continue;
    const found = fixes.find((f) => placeOf(plan, f, layer.transport, layer.fn));
    if (found) return found;
  }
  return undefined;
}

/** A wrapper (it takes whole URLs) every call of which, in the run, is on a v1 base: a header there reaches only the API. */
function onlyApiCalls(plan: Plan, fn: Node): boolean {
  const callers = plan.a.evaluator.callers(fn);
  return !!callers?.length && callers.every((c) => {
    const http = Node.isCallExpression(c) ? readCall(plan.a, c) : undefined;
    return !!http?.urlNode && !!locate(resolveParts(http.urlNode, urlContext(plan.a)), http.external);
  });
}

/** Why no place is sound, by where the headers are built. */
function noPlace(chain: Chain, fixes: Fix[]): string {
  const anchors = fixes.map((f) => (f.kind === "append" ? f.literal : f.kind === "headers" || f.kind === "respread" ? f.options : f.kind === "options" ? f.call : f.expr));
  const wrapper = chain.layers.find((l) => !l.helper && anchors.some((n) => n.getFirstAncestor((x) => x === l.fn)));
  if (wrapper) return `its headers are built in ${nameOf(wrapper.fn)}, which other URLs are fetched through too`;
  const at = anchors[0];
  return at ? `its headers (${shortExpression(at)}) are shared with other requests` : "the request gives nowhere to write it";
}

function nameOf(fn: Node): string {
  const own = (fn as any).getName?.() as string | undefined;
  const holder = fn.getParent();
  return own ?? (holder && Node.isVariableDeclaration(holder) ? holder.getName() : "a wrapper");
}

/**
 * Whether a fix lands in `call`'s own arguments (or a local written only for them), and, inside a
 * helper (`fn`), touches nothing its callers give: the header then reaches every call of it alike.
 */
function placeOf(plan: Plan, fix: Fix, call: CallExpression, fn: Node | undefined): boolean {
  if (fix.kind === "options") return !fn && fix.call === call && call.getArguments().length === fix.index;
  const anchor = fix.kind === "append" ? fix.literal : fix.kind === "headers" || fix.kind === "respread" ? fix.options : fix.expr;
  if (!within(anchor, call) && !localOnlyTo(plan, anchor, call) && !builtForSend(plan.a, anchor, call)) return false;
  if (fix.kind === "rebuild" && !simple(fix.expr)) return false;
  if (fix.kind === "respread") return simple(fix.spread) && !(fn && readsParamOf(plan, fix.spread, fn));
  if (!fn) return true;
  if (fix.kind === "append" || fix.kind === "headers") {
    const lit = fix.kind === "append" ? fix.literal : fix.options;
    return !lit.getProperties().some((p) => Node.isSpreadAssignment(p) && readsParamOf(plan, p.getExpression(), fn));
  }
  return !readsParamOf(plan, fix.expr, fn);
}

function within(node: Node, call: CallExpression): boolean {
  const args = call.getArguments();
  if (!args.length || node.getSourceFile() !== call.getSourceFile()) return false;
  return node.getStart() >= args[0]!.getStart() && node.getEnd() <= args[args.length - 1]!.getEnd();
}

/** A literal in the initializer of a const of the call's own function, named once there besides its declaration. */
function localOnlyTo(plan: Plan, node: Node, call: CallExpression): boolean {
  let decl: Node | undefined = node.getParent();
  while (decl && (Node.isPropertyAssignment(decl) || Node.isObjectLiteralExpression(decl))) decl = decl.getParent();
  if (!decl || !Node.isVariableDeclaration(decl) || !Node.isIdentifier(decl.getNameNode())) return false;
  const fn = enclosingFunction(call);
  if (enclosingFunction(decl) !== fn || Node.isSourceFile(fn)) return false;
  const statement = decl.getParent()?.getParent();
  if (!statement || !Node.isVariableStatement(statement) || String(statement.getDeclarationKind()) !== "const") return false;
  return countIdentifiers(fn, decl.getName()) === 2 && within(firstUse(fn, decl), call);
}

function firstUse(fn: Node, decl: Node & { getName(): string; getNameNode(): Node }): Node {
  return fn.getDescendants().find((d) => Node.isIdentifier(d) && d.getText() === decl.getName() && d !== decl.getNameNode()) ?? decl;
}

function simple(n: Node): boolean {
  const u = unwrapExpression(n);
  return Node.isIdentifier(u) || (Node.isPropertyAccessExpression(u) && simple(u.getExpression())) || u.getKindName() === "ThisKeyword";
}

function readsParamOf(plan: Plan, node: Node, fn: Node): boolean {
  const ids = Node.isIdentifier(node) ? [node] : node.getDescendants().filter((d) => Node.isIdentifier(d));
  return ids.some((id) => {
    const b = bind(plan.a, id);
    return b?.kind === "param" && b.fn === fn;
  });
}

/** Writes the header. Each edit replaces a whole node with text that keeps it, so the same fix from several calls of a helper is one edit. */
function writeFix(plan: Plan, fix: Fix): void {
  const anchor = fix.kind === "append" ? fix.literal : fix.kind === "headers" || fix.kind === "respread" ? fix.options : fix.kind === "options" ? fix.call : fix.expr;
  const ct = `${q(plan.a, anchor, "Content-Type")}: ${q(plan.a, anchor, "application/json")}`;
  if (fix.kind === "append") return addProperty(plan, fix.literal, ct);
  if (fix.kind === "headers") return addProperty(plan, fix.options, `headers: { ${ct} }`);
  if (fix.kind === "respread") return addProperty(plan, fix.options, `headers: { ...${unwrapExpression(fix.spread).getText()}.headers, ${ct} }`);
  if (fix.kind === "options") {
    const last = fix.call.getArguments().at(-1)!;
    return edit(plan, last, { start: last.getStart(), end: last.getEnd(), text: `${last.getText()}, { headers: { ${ct} } }` });
  }
  const e = unwrapExpression(fix.expr);
  const holder = fix.expr.getParent();
  if (fix.kind === "wrap" && holder && Node.isShorthandPropertyAssignment(holder)) {
    return edit(plan, holder, { start: holder.getStart(), end: holder.getEnd(), text: `${holder.getName()}: { ...${holder.getName()}, ${ct} }` });
  }
  const text = e.getText();
  const replaced = fix.kind === "wrap" ? `{ ...${text}, ${ct} }` : `{ ...${text}, headers: { ...${text}.headers, ${ct} } }`;
  if (fix.kind === "rebuild" && holder && Node.isShorthandPropertyAssignment(holder)) return edit(plan, holder, { start: holder.getStart(), end: holder.getEnd(), text: `${holder.getName()}: ${replaced}` });
  edit(plan, fix.expr, { start: fix.expr.getStart(), end: fix.expr.getEnd(), text: replaced });
}

/** `last, added` in place of the literal's last property (on its own line when the literal spans lines); `{ added }` for `{}`. */
function addProperty(plan: Plan, lit: ObjectLiteralExpression, added: string): void {
  const last = lit.getProperties().at(-1);
  if (!last) return edit(plan, lit, { start: lit.getStart(), end: lit.getEnd(), text: `{ ${added} }` });
  const text = fileOf(plan.a, lit).text;
  if (!lit.getText().includes("\n")) return edit(plan, last, { start: last.getStart(), end: last.getEnd(), text: `${last.getText()}, ${added}` });
  const lineStart = text.lastIndexOf("\n", last.getStart() - 1) + 1;
  const indent = /^[ \t]*/.exec(text.slice(lineStart))![0];
  edit(plan, last, { start: last.getStart(), end: last.getEnd(), text: `${last.getText()},\n${indent}${added}` });
}
