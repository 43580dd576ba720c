// Rewrite: request bodies. A lifecycle action's fixed body (`{ action: "start" }`), added where
// the library takes it (fetch `body` + JSON content type, axios data, got/ky `json`, a helper's
// body argument or options); and flat v1 create/update bodies converted to nested v2 bodies
// through the mapping table's lenses.
import { Node, SyntaxKind } from "../../ts-morph.ts";
import { convertBody, evaluateLiteral } from "../body.ts";
import { renderValue } from "../body-render.ts";
import { unwrapExpression } from "../urls.ts";
import { edit, fileOf, q, quoteOf, siteEdits, type Analysis, type Plan } from "../state.ts";
import type { HttpCall } from "../transports/index.ts";
import { objectLiteral, prop } from "../values.ts";
import { jsonType } from "./json-type.ts";
import type { Problems } from "./problems.ts";
import { wrapBodyInAdapter } from "../adapter-sites.ts";
import { adapterCovers } from "../../adapter/index.ts";
import { bodyPlaces, notAnObject, type BodyPlace } from "../body-origin.ts";
import { declaredShape } from "../declared-shapes.ts";
import { builtShape } from "../built-body.ts";
import { convertDeclared, declaredFields, nameCallers } from "../declared-body.ts";
import { callerFields, type CallerField } from "../caller-fields.ts";
import { shortExpression } from "../expression-name.ts";
import { wretchFixedBodyEdit } from "../transports/wretch.ts";
import { isTypeScriptFile, referencesOf, typedOuter } from "../nodes.ts";

/** A fixed body whose values are computed at the call (`{ action }` for a path segment chosen at run time), as source. */
export interface ComputedBody {
  computed: string;
  shown: string;
}

export function addFixedBody(plan: Plan, http: HttpCall, fixed: Record<string, unknown> | ComputedBody): void {
  const isComputed = typeof fixed.computed === "string" && typeof fixed.shown === "string";
  const value = isComputed ? (fixed as ComputedBody).computed : renderValue(fixed, quoteOf(plan.a, http.call));
  const shown = isComputed ? (fixed as ComputedBody).shown : JSON.stringify(fixed);
  if (http.lib === "helper" && http.helper!.bodyBuiltFrom) {
    plan.problems.push({ reason: `v2 expects the body ${shown} and this helper builds its own around the call's (${http.helper!.bodyBuiltFrom})`, advice: `let the helper pass the body through as it is, then send ${shown}` });
    return;
  }
  if (http.lib === "helper" && http.helper!.dropsBody) {
    plan.problems.push({ reason: `v2 expects the body ${shown} and this helper sends no request body`, advice: `let the helper pass a body through, then send ${shown}` });
    return;
  }
  // A wrapper building its own request with no body of its caller's (no body parameter, no options parameter).
  if (http.wrapper && http.wrapper.optionsIndex === undefined && http.wrapper.bodyIndex === undefined) {
    plan.problems.push({ reason: `v2 expects the body ${shown} and ${shortExpression(http.call.getExpression())} sends no request body of its caller's`, advice: `let it pass a body through, then send ${shown}` });
    return;
  }
  if (!http.body && http.bodyKeyUnknown) {
    plan.problems.push({ reason: `v2 expects the body ${shown}, and where ${shortExpression(http.call.getExpression())} takes a request body is not known (no body, data or json option in sight)`, advice: `send ${shown} as JSON (Content-Type: application/json) the way this function takes a body` });
    return;
  }
  const existing = http.body?.node;
  // `api.post(url, undefined, config)`: no data, only a placeholder for the config after it.
  const placeholder = existing && http.bodyKey === "arg" && /^(undefined|null)$/.test(unwrapExpression(existing).getText());
  if (existing && placeholder) {
    // A wrapper's body argument is sent as the wrapper sends it: said to be JSON, serialised unless it does that itself.
    if (http.wrapper?.bodyIndex !== undefined && !jsonType(plan, http, {})) return;
    const text = http.wrapper?.bodyIndex !== undefined && !http.wrapper.serialisesBody ? `JSON.stringify(${value})` : value;
    return void edit(plan, existing, { start: existing.getStart(), end: existing.getEnd(), text });
  }
  if (existing) {
    const lit = evaluateLiteral(unwrapExpression(existing));
    if (lit && !isComputed && JSON.stringify(lit.value) === shown) return;
    if (!(lit && typeof lit.value === "object" && lit.value && !Array.isArray(lit.value) && Object.keys(lit.value).length === 0)) {
      // v1's lifecycle actions take no body, so what the call sends is ignored: in options only this call uses, it is replaced.
      if (!ownedBody(http, existing) || !jsonType(plan, http, {})) {
        plan.problems.push({ reason: `v2 expects the body ${shown} here and the call already sends one`, advice: `send ${shown}` });
        return;
      }
    }
    const u = unwrapExpression(existing);
    edit(plan, u, { start: u.getStart(), end: u.getEnd(), text: value });
    return;
  }
  // superagent: the body goes in a `.send(…)` link right after the request call.
  if (http.builder) return void edit(plan, http.builder.request, { start: http.builder.request.getEnd(), end: http.builder.request.getEnd(), text: `.send(${value})` });
  // wretch: the verb's own body argument (`.post()` → `.post({ action })`).
  if (http.wretch) {
    const at = wretchFixedBodyEdit(http, value);
    if (at) return void edit(plan, http.call, at);
    plan.problems.push({ reason: `v2 expects the body ${shown} and the verb link takes other arguments here`, advice: `send ${shown} with .json(…)` });
    return;
  }
  const args = http.call.getArguments();
  if (http.bodyKey === "arg") {
    if (http.lib === "helper") {
      const sig = http.helper!;
      if (sig.bodyIndex !== undefined && args.length === sig.bodyIndex && args.length > 0) {
        // The helper's request must say JSON (the header goes where its headers are built).
        if (!jsonType(plan, http, {})) return;
        const last = args[args.length - 1]!;
        return void edit(plan, last, { start: last.getEnd(), end: last.getEnd(), text: `, ${value}` });
      }
      if (sig.optionsIndex !== undefined) return addSaidJson(plan, http, "body", sig.serialisesBody ? value : `JSON.stringify(${value})`);
      plan.problems.push({ reason: `v2 expects the body ${shown} and the helper call has no body argument in that position`, advice: `send ${shown}` });
      return;
    }
    // A wrapper taking the body as its next argument (`postJson(url)` → `postJson(url, body)`), sent as it sends bodies.
    const w = http.wrapper;
    if (w?.bodyIndex !== undefined) {
      if (args.length !== w.bodyIndex || !jsonType(plan, http, {})) {
        if (args.length !== w.bodyIndex) plan.problems.push({ reason: `v2 expects the body ${shown} and the wrapper call has no body argument in that position`, advice: `send ${shown}` });
        return;
      }
      const last = args[args.length - 1]!;
      return void edit(plan, last, { start: last.getEnd(), end: last.getEnd(), text: `, ${w.serialisesBody ? value : `JSON.stringify(${value})`}` });
    }
    const urlArg = args[0]!;
    if (args.length === 1) return void edit(plan, urlArg, { start: urlArg.getEnd(), end: urlArg.getEnd(), text: `, ${value}` });
    plan.problems.push({ reason: `v2 expects the body ${shown}`, advice: `pass ${shown} as the request data` });
    return;
  }
  // A helper that serialises one option key itself (`json`) gets the plain object there.
  const serialisedKey = http.lib === "helper" ? http.helper!.bodyKeys?.find((k) => k.serialised)?.key : undefined;
  // It still reaches fetch as text/plain unless the helper says JSON (or passes the call's headers on).
  if (serialisedKey) return addSaidJson(plan, http, serialisedKey, value);
  const serialised = (http.lib === "helper" && http.helper!.serialisesBody) || http.lib === "openapi-fetch" || !!http.jsonSerialiser;
  const json = http.bodyKey === "body" && !serialised ? `JSON.stringify(${value})` : value;
  const key = http.lib === "helper" ? (http.helper!.bodyKey ?? http.helper!.bodyKeys?.[0]?.key ?? http.bodyKey) : http.bodyKey;
  addSaidJson(plan, http, key, json);
}

/**
 * Adds the body to the options, and makes the request say it is JSON where its library sends a
 * string as it is (fetch: text/plain, even when a helper serialises the object): the header is added
 * where the request's headers are built (rewrites/json-type.ts), or beside the body.
 */
function addSaidJson(plan: Plan, http: HttpCall, key: string, value: string): void {
  const opts = http.options && unwrapExpression(http.options);
  const result = jsonType(plan, http, { into: opts && Node.isObjectLiteralExpression(opts) ? opts : undefined, newOptions: !http.options });
  if (result) addToOptions(plan, http, key, value, !!result.merged);
}

/** Adds `key: value` to the call's options (with `headers: { Content-Type }` when `jsonHeader`: the options carry no headers). */
function addToOptions(plan: Plan, http: HttpCall, key: string, value: string, jsonHeader = false): void {
  const opts = http.options && unwrapExpression(http.options);
  const args = http.call.getArguments();
  const at = http.call;
  const contentType = `${q(plan.a, at, "Content-Type")}: ${q(plan.a, at, "application/json")}`;
  if (opts && Node.isObjectLiteralExpression(opts)) {
    const props = opts.getProperties();
    // Options built away from the call (a descriptor a function returns, a `const` handed in later)
    // have no contextual type where they are written: TypeScript would widen `"stop"` to `string`,
    // which v2's typed body (`action: "start" | "stop" | …`) rejects.
    const away = typedOuter(opts).getParent() !== http.call && isTypeScriptFile(opts.getSourceFile().getFilePath()) && value.startsWith("{");
    let add = `${key}: ${away ? `${value} as const` : value}`;
    if (jsonHeader) add += `, headers: { ${contentType} }`;
    const last = props.at(-1);
    if (last) {
      const text = fileOf(plan.a, opts).text;
      if (opts.getText().includes("\n")) {
        const lineStart = text.lastIndexOf("\n", last.getStart() - 1) + 1;
        const indent = /^[ \t]*/.exec(text.slice(lineStart))![0];
        const trailingComma = text.slice(last.getEnd(), opts.getEnd()).trimStart().startsWith(",");
        const insertAt = trailingComma ? text.indexOf(",", last.getEnd()) + 1 : last.getEnd();
        edit(plan, opts, { start: insertAt, end: insertAt, text: `${trailingComma ? "" : ","}\n${indent}${add}${trailingComma ? "," : ""}` });
      } else edit(plan, opts, { start: last.getEnd(), end: last.getEnd(), text: `, ${add}` });
    } else edit(plan, opts, { start: opts.getStart(), end: opts.getEnd(), text: `{ ${add} }` });
    return;
  }
  if (!http.options) {
    const urlArg = args[0];
    if (!urlArg) return;
    // A helper's options argument is added after the last one only where it is the next argument.
    const at = http.lib === "helper" ? http.helper!.optionsIndex : undefined;
    if (at !== undefined && args.length !== at) {
      plan.problems.push({ reason: `v2 needs ${key} ${value}, passed in the helper's options (argument ${at + 1}), and this call stops before it`, advice: `pass the arguments before it, then { ${key}: ${value} }` });
      return;
    }
    let add = `${key}: ${value}`;
    if (jsonHeader) add += `, headers: { ${contentType} }`;
    const anchor = http.lib === "helper" ? args[args.length - 1]! : http.urlNode ?? urlArg;
    edit(plan, anchor, { start: anchor.getEnd(), end: anchor.getEnd(), text: `, { ${add} }` });
    return;
  }
  // A helper's options the call hands on from a variable (`post(path, options)`): a literal of the call's own spreads them, its key after.
  if (opts && Node.isIdentifier(opts) && http.lib === "helper") {
    const add = `${key}: ${value}${jsonHeader ? `, headers: { ...${opts.getText()}?.headers, ${contentType} }` : ""}`;
    return void edit(plan, opts, { start: opts.getStart(), end: opts.getEnd(), text: `{ ...${opts.getText()}, ${add} }` });
  }
  plan.problems.push({ reason: `v2 needs ${key} ${value} and the options are built elsewhere`, advice: `add ${key}: ${value}` });
}

export function convertRequestBody(plan: Plan, http: HttpCall, lens: string, opKey?: string): void {
  if (http.lib === "helper" && http.helper!.bodyBuiltFrom) {
    plan.problems.push({ reason: `this helper builds the request body around the call's (${http.helper!.bodyBuiltFrom}), so the v1 body cannot be converted with the ${lens} lens through it`, advice: "let the helper pass the body through as it is, or convert the body into the nested v2 body by hand (see docs/mapping.md)" });
    return;
  }
  if (!http.body && http.opaqueOptions && http.helper?.bodyIndex === undefined) {
    plan.problems.push({ reason: `the helper's options are built elsewhere (${shortExpression(http.opaqueOptions)}), so the v1 body they may carry cannot be converted with the ${lens} lens`, advice: "pass the options as an object literal at the call, or convert the body into the nested v2 body by hand (see docs/mapping.md)" });
    return;
  }
  if (!http.body) return;
  // Converted where the value is written: the literal at the send, or followed through what serves only this send.
  const places = bodyPlaces(plan.a, http.body.node);
  const before = plan.problems.length;
  for (const place of places) convertPlace(plan, http, place, lens, opKey);
  // Branches with the same problem (two returns each sending half a pair) say it once.
  const seen = new Set<string>();
  const own = plan.problems.splice(before).filter((p) => !seen.has(p.reason) && !!seen.add(p.reason));
  plan.problems.push(...own);
}

function convertPlace(plan: Plan, http: HttpCall, place: BodyPlace, lens: string, opKey: string | undefined): void {
  const node = place.node;
  const at = node === unwrapExpression(http.body!.node) ? shortExpression(node) : `${shortExpression(http.body!.node)}, at ${shortExpression(node)}`;
  const where = place.why ? `${at}: ${place.why}` : at;
  if (Node.isObjectLiteralExpression(node)) {
    const quote = quoteOf(plan.a, node);
    // A spread of a typed parameter (`{ ...input, cloudType }`): its declared fields, as its callers give them;
    // of an object built above in this function (`{ ...shared, gpuTypeIds: [kind] }`): the fields it holds there.
    const given: Map<string, CallerField>[] = [];
    const spreadFields = (spread: Node) => {
      const built = builtShape(plan.a, unwrapExpression(spread));
      if (built) return declaredFields(spread, built, quote);
      const shape = declaredShape(plan.a, spread);
      if (!shape) return undefined;
      const callers = callerFields(plan.a, spread, shape.fields.map((f) => f.name));
      if (callers) given.push(callers);
      return declaredFields(spread, shape, quote, callers);
    };
    const result = convertBody(node, lens, quote, spreadFields);
    for (const callers of given) nameCallers(result.problems, callers);
    if (result.text !== null) edit(plan, node, { start: node.getStart(), end: node.getEnd(), text: result.text });
    if (result.text !== null && result.before) siteEdits(plan, result.before);
    for (const p of result.problems) plan.problems.push({ reason: p.reason, advice: p.advice });
    return;
  }
  // Fields known where the value comes from (built just above from a literal and additions, a
  // tool's input schema, a typed parameter): converted one by one, read from the value at the send.
  const shape = builtShape(plan.a, node) ?? declaredShape(plan.a, node);
  if (shape) {
    const callers = builtShape(plan.a, node) ? undefined : callerFields(plan.a, node, shape.fields.map((f) => f.name));
    const result = convertDeclared(node, shape, lens, quoteOf(plan.a, node), callers);
    if (result.text !== null) edit(plan, node, { start: node.getStart(), end: node.getEnd(), text: result.text });
    for (const p of result.problems) plan.problems.push({ reason: p.reason, advice: p.advice });
    return;
  }
  // Only an object can be converted: a JSON text (serialised where it cannot be reached), a form, a number cannot.
  // A helper that sends what it is given as the request's text (`fetch(url, { body })`, no serialising of its own)
  // is given the serialised body (`canonicalJson({ … })`): the object is out of reach there too.
  const sentAsText = http.lib === "helper" && !http.body!.stringify && sendsBodyParameter(http) ? "the text the helper sends as it is" : undefined;
  const not = notAnObject(plan.a, place.wrap) ?? sentAsText;
  if (not) {
    const what = `the v1 body is ${not}${node === unwrapExpression(http.body!.node) && !place.why ? "" : " built elsewhere"} (${where})`;
    plan.problems.push({ reason: `${what}, so it cannot be converted with the ${lens} lens`, advice: "convert the object before it is serialised: rewrite the flat v1 fields into the nested v2 body (see docs/mapping.md)", brief: what });
    return;
  }
  // A body from the app's own interface (a tool's input, a form): the adapter converts it at run time.
  if (opKey && wrapBodyInAdapter(plan, place.wrap, opKey)) return;
  // With the adapter on, why it cannot take this body at the call (its other uses would keep the v1 object).
  const held = opKey && plan.a.adapter ? adapterCovers("requestBody", opKey) : true;
  const why = held === true ? "" : `, which the adapter does not hold: ${held}`;
  plan.problems.push({ reason: `the v1 body is built elsewhere (${where}); it must be converted with the ${lens} lens${why}`, advice: "rewrite the flat v1 fields into the nested v2 body (see docs/mapping.md)" });
}

/** The helper hands its body parameter to the transport as it is (`fetch(url, { body })`), serialising it nowhere. */
function sendsBodyParameter(http: HttpCall): boolean {
  const sig = http.helper;
  const fn = sig?.fn as Node | undefined;
  const param = fn && sig!.bodyIndex !== undefined && !sig!.serialisesBody ? ((fn as any).getParameters?.() as Node[] | undefined)?.[sig!.bodyIndex] : undefined;
  const name = param && Node.isParameterDeclaration(param) && Node.isIdentifier(param.getNameNode()) ? param.getName() : undefined;
  if (!fn || !name) return false;
  const uses = fn.getDescendantsOfKind(SyntaxKind.Identifier).filter((id) => id.getText() === name && id !== (param as any).getNameNode());
  const asBody = (id: Node) => {
    const p = id.getParent();
    return (Node.isShorthandPropertyAssignment(p) && p.getName() === "body") || (Node.isPropertyAssignment(p) && p.getName() === "body" && p.getInitializer() === id);
  };
  // A test of it (`body === undefined ? {} : { "content-type": … }`, `if (!body)`) sends nothing.
  const tested = (id: Node) => {
    const p = id.getParent();
    return (Node.isBinaryExpression(p) && ["===", "!==", "==", "!="].includes(p.getOperatorToken().getText())) || (Node.isPrefixUnaryExpression(p) && p.getOperatorToken() === SyntaxKind.ExclamationToken) || (Node.isIfStatement(p) && p.getExpression() === id);
  };
  return uses.some(asBody) && uses.every((id) => asBody(id) || tested(id));
}

/**
 * The body of fetch options that belong to this call alone: its own options literal, or a `const`
 * holding that literal with no use but this call (`const init = { method, body }; fetch(url, init)`).
 */
function ownedBody(http: HttpCall, body: Node): boolean {
  // (`body: JSON.stringify(x)`: x is replaced, the stringify stays.)
  if (http.lib !== "fetch" || !http.options || !http.body?.stringify) return false;
  const call = body.getParent();
  const property = call && Node.isCallExpression(call) ? call.getParent() : undefined;
  const literal = property && Node.isPropertyAssignment(property) && property.getName() === "body" ? property.getParent() : undefined;
  if (!literal || !Node.isObjectLiteralExpression(literal)) return false;
  // (http.options is the literal an identifier holds: the call's own argument says whether it is named.)
  const arg = http.call.getArguments()[1];
  const given = arg && unwrapExpression(arg);
  if (!given) return false;
  if (given === literal) return true;
  const decl = literal.getParent();
  if (!Node.isIdentifier(given) || !decl || !Node.isVariableDeclaration(decl) || decl.getInitializer() !== literal) return false;
  const list = decl.getParent();
  if (!list || !Node.isVariableDeclarationList(list) || list.getDeclarationKind() !== "const" || decl.getName() !== given.getText()) return false;
  const scope = list.getParent()?.getParent();
  const uses = scope ? referencesOf(scope, decl.getNameNode()) : [];
  return uses.length === 1 && uses[0] === given;
}
