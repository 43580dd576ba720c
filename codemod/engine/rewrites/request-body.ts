// Rewrite: request bodies. A lifecycle action's fixed body (`{ action: "start" }`), added where
// the library takes it (fetch `body` + JSON content type, axios data, got/ky `json`, a helper's
// body argument or options); and flat v1 create/update bodies converted to nested v2 bodies
// through the mapping table's lenses.
import { Node } from "../../ts-morph.ts";
import { convertBody, evaluateLiteral, renderValue } from "../body.ts";
import { enclosingFunction } from "../scope.ts";
import { referencesOf } from "../nodes.ts";
import { unwrapExpression } from "../urls.ts";
import { edit, fileOf, q, quoteOf, type Analysis, type Plan } from "../state.ts";
import type { HttpCall } from "../transports/index.ts";
import { bind, objectLiteral, prop } from "../values.ts";
import { headersFact } from "../json-headers.ts";
import type { Problems } from "./problems.ts";
import { wrapBodyInAdapter } from "../adapter-sites.ts";
import { declaredShape } from "../declared-shapes.ts";
import { builtShape } from "../built-body.ts";
import { convertDeclared } from "../declared-body.ts";
import { shortExpression } from "../expression-name.ts";

export function addFixedBody(plan: Plan, http: HttpCall, body: Record<string, unknown>): void {
  const value = renderValue(body, quoteOf(plan.a, http.call));
  if (http.lib === "helper" && http.helper!.dropsBody) {
    plan.problems.push({ reason: `v2 expects the body ${JSON.stringify(body)} and this helper sends no request body`, advice: `let the helper pass a body through, then send ${JSON.stringify(body)}` });
    return;
  }
  const existing = http.body?.node;
  if (existing) {
    const lit = evaluateLiteral(unwrapExpression(existing));
    if (lit && JSON.stringify(lit.value) === JSON.stringify(body)) return;
    if (!(lit && typeof lit.value === "object" && lit.value && !Array.isArray(lit.value) && Object.keys(lit.value).length === 0)) {
      plan.problems.push({ reason: `v2 expects the body ${JSON.stringify(body)} here and the call already sends one`, advice: `send ${JSON.stringify(body)}` });
      return;
    }
    const u = unwrapExpression(existing);
    edit(plan, u, { start: u.getStart(), end: u.getEnd(), text: value });
    return;
  }
  const args = http.call.getArguments();
  if (http.bodyKey === "arg") {
    if (http.lib === "helper") {
      const sig = http.helper!;
      if (sig.bodyIndex !== undefined && args.length === sig.bodyIndex && args.length > 0) {
        if (!sig.bodyIsJson) {
          plan.problems.push({ reason: "v2 reads the action from a JSON body, and this helper does not send Content-Type: application/json", advice: "make the helper send Content-Type: application/json with a body" });
          return;
        }
        const last = args[args.length - 1]!;
        return void edit(plan, last, { start: last.getEnd(), end: last.getEnd(), text: `, ${value}` });
      }
      if (sig.optionsIndex !== undefined) return addToHelperOptions(plan, http, "body", sig.serialisesBody ? value : `JSON.stringify(${value})`, !sig.serialisesBody);
      plan.problems.push({ reason: `v2 expects the body ${JSON.stringify(body)} and the helper call has no body argument in that position`, advice: `send ${JSON.stringify(body)}` });
      return;
    }
    const urlArg = args[0]!;
    if (args.length === 1) return void edit(plan, urlArg, { start: urlArg.getEnd(), end: urlArg.getEnd(), text: `, ${value}` });
    plan.problems.push({ reason: `v2 expects the body ${JSON.stringify(body)}`, advice: `pass ${JSON.stringify(body)} as the request data` });
    return;
  }
  // A helper that serialises one option key itself (`json`) gets the plain object there.
  const serialisedKey = http.lib === "helper" ? http.helper!.bodyKeys?.find((k) => k.serialised)?.key : undefined;
  // It still reaches fetch as text/plain unless the helper says JSON (or passes the call's headers on).
  if (serialisedKey) return addToHelperOptions(plan, http, serialisedKey, value, true);
  const serialised = (http.lib === "helper" && http.helper!.serialisesBody) || http.lib === "openapi-fetch";
  const json = http.bodyKey === "body" && !serialised ? `JSON.stringify(${value})` : value;
  const key = http.lib === "helper" ? (http.helper!.bodyKey ?? http.helper!.bodyKeys?.[0]?.key ?? http.bodyKey) : http.bodyKey;
  if (http.lib === "helper") return addToHelperOptions(plan, http, key, json, json !== value);
  addToOptions(plan, http, key, json, http.bodyKey === "body" && http.lib !== "openapi-fetch");
}

/**
 * A body string handed through a helper's options reaches fetch as text/plain unless the helper
 * says JSON or passes the call's headers on (engine/helper-headers.ts).
 */
function addToHelperOptions(plan: Plan, http: HttpCall, key: string, value: string, needsJsonHeader: boolean): void {
  const says = http.helper!.jsonHeader;
  if (needsJsonHeader && !says) {
    plan.problems.push({ reason: "v2 reads the action from a JSON body, and this helper neither sends Content-Type: application/json nor passes the call's headers on", advice: "make the helper send Content-Type: application/json with a body" });
    return;
  }
  addToOptions(plan, http, key, value, needsJsonHeader && says === "passes");
}

export function addToOptions(plan: Plan, http: HttpCall, key: string, value: string, jsonHeader = false): void {
  const opts = http.options && unwrapExpression(http.options);
  const args = http.call.getArguments();
  const at = http.call;
  const contentType = `${q(plan.a, at, "Content-Type")}: ${q(plan.a, at, "application/json")}`;
  if (opts && Node.isObjectLiteralExpression(opts)) {
    const props = opts.getProperties();
    let add = `${key}: ${value}`;
    if (jsonHeader) {
      const headers = prop(opts, "headers");
      const h = headers && (objectLiteral(plan.a, headers) ?? unwrapExpression(headers));
      const shared = !!headers && !Node.isObjectLiteralExpression(unwrapExpression(headers));
      if (!headers) add += `, headers: { ${contentType} }`;
      else if (h && Node.isObjectLiteralExpression(h) && h.getProperties().some((p) => /content-type/i.test((p as any).getName?.() ?? p.getText()))) {
        // already JSON
      } else if (h && Node.isObjectLiteralExpression(h) && !shared) {
        const last = h.getProperties().at(-1);
        if (last) edit(plan, last, { start: last.getEnd(), end: last.getEnd(), text: `, ${contentType}` });
        else edit(plan, h, { start: h.getStart(), end: h.getEnd(), text: `{ ${contentType} }` });
      } else {
        // Built elsewhere: the object literals it can hold say whether it is JSON already.
        const fact = headersFact(plan.a, headers!);
        const holder = headers!.getParent();
        if (fact === "plain" && holder && Node.isShorthandPropertyAssignment(holder)) edit(plan, holder, { start: holder.getStart(), end: holder.getEnd(), text: `headers: { ...${headers!.getText()}, ${contentType} }` });
        else if (fact === "plain") edit(plan, headers!, { start: headers!.getStart(), end: headers!.getEnd(), text: `{ ...${headers!.getText()}, ${contentType} }` });
        else if (fact === "unknown") plan.problems.push({ reason: "v2 reads the action from a JSON body; the headers here are built elsewhere", advice: "make sure they include Content-Type: application/json" });
      }
    }
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
  plan.problems.push({ reason: `v2 needs ${key} ${value} and the options are built elsewhere`, advice: `add ${key}: ${value}` });
}

export function convertRequestBody(plan: Plan, http: HttpCall, lens: string, opKey?: string): void {
  if (!http.body && http.opaqueOptions && http.helper?.bodyIndex === undefined) {
    plan.problems.push({ reason: `the helper's options are built elsewhere (${shortExpression(http.opaqueOptions)}), so the v1 body they may carry cannot be converted with the ${lens} lens`, advice: "pass the options as an object literal at the call, or convert the body into the nested v2 body by hand (see docs/mapping.md)" });
    return;
  }
  if (!http.body) return;
  let node = unwrapExpression(http.body.node);
  if (Node.isIdentifier(node)) {
    const b = bind(plan.a, node);
    const init = b?.kind === "var" && b.path.length === 0 && b.init ? unwrapExpression(b.init) : undefined;
    // Declared (in this function or the module) only to be sent here: converted where it is written.
    if (init && Node.isObjectLiteralExpression(init) && usedOnlyHere(b!.decl, node) && !(b!.decl as any).getTypeNode?.()) node = init;
  }
  if (!Node.isObjectLiteralExpression(node)) {
    // Fields known where the value comes from (built just above from a literal and additions, a
    // tool's input schema, a typed parameter): converted one by one, read from the value at the send.
    const shape = builtShape(plan.a, node) ?? declaredShape(plan.a, node);
    if (shape) {
      const result = convertDeclared(node, shape, lens, quoteOf(plan.a, node));
      // `{ data }`: the key stays, its value becomes the v2 body.
      const holder = node.getParent();
      const key = holder && Node.isShorthandPropertyAssignment(holder) ? `${node.getText()}: ` : "";
      if (result.text !== null) edit(plan, node, { start: node.getStart(), end: node.getEnd(), text: key + result.text });
      for (const p of result.problems) plan.problems.push({ reason: p.reason, advice: p.advice });
      return;
    }
    // A body from the app's own interface (a tool's input, a form): the adapter converts it at run time.
    if (opKey && wrapBodyInAdapter(plan, http.body.node, opKey)) return;
    plan.problems.push({ reason: `the v1 body is built elsewhere (${shortExpression(http.body.node)}); it must be converted with the ${lens} lens`, advice: "rewrite the flat v1 fields into the nested v2 body (see docs/mapping.md)" });
    return;
  }
  const result = convertBody(node, lens, quoteOf(plan.a, node));
  if (result.text !== null) edit(plan, node, { start: node.getStart(), end: node.getEnd(), text: result.text });
  for (const p of result.problems) plan.problems.push({ reason: p.reason, advice: p.advice });
}

/** A const declared in its scope and used nowhere else there but at this use (nor exported); the option key `body:` is not a use. */
function usedOnlyHere(decl: Node, use: Node): boolean {
  const statement = decl.getParent()?.getParent();
  const name = Node.isVariableDeclaration(decl) ? decl.getNameNode() : undefined;
  if (!statement || !Node.isVariableStatement(statement) || statement.isExported() || !name || !Node.isIdentifier(name)) return false;
  const refs = referencesOf(enclosingFunction(decl), name);
  return refs.length === 1 && refs[0] === use;
}
