// Whether an instance a package's factory makes (`createAxios({ baseURL })`, a package the codemod
// has no module for) has axios's form: its verbs take `(url[, data], config)`, its answer is
// `{ data, status, headers }` and its config takes a per-request `baseURL`. Decided from evidence
// only, never from a guess:
//   - the package's declarations say the factory returns axios's `AxiosInstance` (declared-axios.ts);
//   - the package's own JavaScript, installed, returns `axios.create(…)` (installed-axios-js.ts);
//   - the factory's or the package's name says axios (`createAxios`, `axios-retry-client`);
//   - the project reads every answer of the client that it reads through `.data`
//     (`res.data.pods`, `({ data }) =>`), and its data verbs are called as axios's are.
// Evidence against (an answer read bare or through `.json()`, a data verb given `{ json }`) wins
// over evidence for: the client's form is then not known, and the reason says where they disagree.
import { Node, SyntaxKind, type CallExpression } from "../../ts-morph.ts";
import type { Analysis } from "../state.ts";
import { optionsOf } from "../evaluate/value.ts";
import { unwrapExpression } from "../urls.ts";
import { referencesOf, skipParens } from "../nodes.ts";
import { enclosingFunction } from "../scope.ts";
import { references } from "../references.ts";
import { quotedPosition } from "../mark-positions.ts";
import { declaredFactoryReturn } from "./declared-axios.ts";
import { installedAxiosFactory } from "./installed-axios-js.ts";

export type AxiosForm = { axios: true; by: string } | { axios: false; why?: string };

const AXIOS_VERBS = new Set(["get", "delete", "head", "options", "post", "put", "patch"]);
const DATA_VERBS = new Set(["post", "put", "patch"]);
/** Members of axios's response besides `data`: reading them says nothing against its form. */
const AXIOS_RESPONSE = new Set(["status", "statusText", "headers", "config", "request"]);
/** Options of other clients' data verbs (ky, got, ofetch): `post(url, { json })` is not axios's `post(url, data)`. */
const NOT_AXIOS_OPTIONS = ["json", "body", "searchParams", "prefixUrl", "query"];
/** axios's request config keys: a config literal with another key is not axios's (apisauce's `get(url, params, config)`). */
const AXIOS_CONFIG = new Set(["url", "method", "baseURL", "headers", "params", "paramsSerializer", "data", "timeout", "timeoutErrorMessage", "withCredentials", "adapter", "auth", "responseType", "responseEncoding", "xsrfCookieName", "xsrfHeaderName", "onUploadProgress", "onDownloadProgress", "maxContentLength", "maxBodyLength", "validateStatus", "maxRedirects", "beforeRedirect", "socketPath", "httpAgent", "httpsAgent", "proxy", "cancelToken", "signal", "decompress", "transitional", "transformRequest", "transformResponse", "insecureHTTPParser", "env", "fetchOptions", "allowAbsoluteUrls", "withXSRFToken", "lookup", "family"]);

const memo = new WeakMap<Analysis, Map<Node, AxiosForm>>();

/** The form of the instance a verb call is made on, where a package's factory made it. */
export function axiosForm(a: Analysis, call: CallExpression): AxiosForm {
  const callee = unwrapExpression(call.getExpression());
  if (!Node.isPropertyAccessExpression(callee) || !AXIOS_VERBS.has(callee.getName())) return { axios: false };
  const made = optionsOf(a.evaluator.evaluate(unwrapExpression(callee.getExpression())));
  if (!made.length || !made.every((o) => o.kind === "made" && Node.isCallExpression(o.call))) return { axios: false };
  let seen = memo.get(a);
  if (!seen) memo.set(a, (seen = new Map()));
  let first: AxiosForm | undefined;
  for (const o of made) {
    const make = (o as unknown as { call: CallExpression }).call;
    if (!seen.has(make)) seen.set(make, formOf(a, make));
    const f = seen.get(make)!;
    if (!f.axios) return f;
    first ??= f;
  }
  return first!;
}

function formOf(a: Analysis, make: CallExpression): AxiosForm {
  const makers = optionsOf(a.evaluator.evaluate(unwrapExpression(make.getExpression())));
  // Only a package's factory: a function of the project's own is read through its returns (factory-instance.ts).
  if (!makers.length || !makers.every((m) => m.kind === "module")) return { axios: false };
  const maker = makers[0] as { module: string; name: string };
  const factory = `${factoryName(make)}() of ${maker.module}`;
  // Its declarations are the library's word (an interceptor of its own may still unwrap the answer; the per-request base is axios's).
  const declared = declaredFactoryReturn(a, make);
  if (declared?.axios) return { axios: true, by: `${maker.module} declares it returns axios's AxiosInstance` };
  if (declared) return { axios: false, why: `${maker.module} declares ${factoryName(make)}() returns ${declared.type}, not axios's AxiosInstance` };
  const calls = clientCalls(make);
  const against = calls ? evidenceAgainst(calls) : undefined;
  if (against) return { axios: false, why: `${factory} is not used as axios's instance is: ${against}` };
  const fromFile = make.getSourceFile().getFilePath();
  if (maker.name && maker.name !== "default" && installedAxiosFactory(fromFile, maker.module, maker.name)) return { axios: true, by: `${maker.module}'s ${maker.name} returns axios.create(…)` };
  if (/axios/i.test(factoryName(make)) || /axios/i.test(maker.module)) return { axios: true, by: `${factory} is named for axios` };
  const dataReads = calls?.filter((c) => c.reads?.includes("data")) ?? [];
  if (dataReads.length) return { axios: true, by: `every answer of ${factory} that is read is read through .data (${dataReads.slice(0, 2).map((c) => quotedPosition(c.call)).join(", ")})` };
  const unseen = calls ? "nothing reads its answers through .data" : "its instance is used where the codemod cannot list its calls";
  return { axios: false, why: `nothing says ${factory} answers as axios does (no declarations or code of it installed, its name does not say axios, ${unseen}), so neither its answer's form nor a per-request base is known` };
}

/** The name the factory is called by (`createAxios`, `http.create`). */
function factoryName(make: CallExpression): string {
  const e = unwrapExpression(make.getExpression());
  return Node.isPropertyAccessExpression(e) ? `${e.getExpression().getText()}.${e.getName()}` : e.getText();
}

type ClientCall = { call: CallExpression; verb: string; reads: string[] | undefined };

/** The verb calls on the instance, where it is held in a variable or a class property all of whose uses are verb calls; undefined when it is handed on. */
function clientCalls(make: CallExpression): ClientCall[] | undefined {
  const up = skipParens(make).getParent();
  let name: Node | undefined;
  if (up && (Node.isVariableDeclaration(up) || Node.isPropertyDeclaration(up)) && up.getInitializer() && skipParens(up.getInitializer()!) === skipParens(make)) name = up.getNameNode();
  else if (up && Node.isBinaryExpression(up) && up.getOperatorToken().getKind() === SyntaxKind.EqualsToken && Node.isPropertyAccessExpression(up.getLeft())) {
    const sym = (up.getLeft() as unknown as { getNameNode(): Node }).getNameNode().getSymbol();
    name = sym?.getDeclarations().map((d) => (d as Node & { getNameNode?(): Node }).getNameNode?.()).find((n) => !!n);
  }
  if (!name || !Node.isIdentifier(name)) return undefined;
  const out: ClientCall[] = [];
  for (const r of references(name)) {
    // (A class property's use is its access, `this.api`.)
    const pa = r.getParent();
    const call = pa?.getParent();
    if (!pa || !Node.isPropertyAccessExpression(pa) || !call || !Node.isCallExpression(call) || call.getExpression() !== pa) {
      // `export { api }`, `typeof api`: not a use of its answers; anything else hands it on.
      if (r.getFirstAncestorByKind(SyntaxKind.TypeQuery) || r.getFirstAncestorByKind(SyntaxKind.ExportAssignment)) continue;
      return undefined;
    }
    if (!AXIOS_VERBS.has(pa.getName())) return undefined;
    out.push({ call, verb: pa.getName(), reads: answerMembers(call) });
  }
  return out;
}

/** The members read off a call's answer where it is held here: `(await c).x`, `const r = await c; r.x`, `const { x } = await c`, `c.then((r) => r.x)`, `c.then(({ x }) => …)`. */
function answerMembers(call: CallExpression): string[] | undefined {
  const outer = skipParens(call);
  const up = outer.getParent();
  if (up && Node.isPropertyAccessExpression(up) && up.getName() === "then" && Node.isCallExpression(up.getParent())) {
    const cb = (up.getParent() as CallExpression).getArguments()[0];
    const param = cb && (Node.isArrowFunction(cb) || Node.isFunctionExpression(cb)) ? cb.getParameters()[0] : undefined;
    return param ? boundMembers(param.getNameNode(), cb!) : undefined;
  }
  const awaited = up && Node.isAwaitExpression(up) ? skipParens(up) : undefined;
  const holder = awaited?.getParent();
  if (holder && Node.isPropertyAccessExpression(holder)) return [holder.getName()];
  if (holder && Node.isVariableDeclaration(holder)) return boundMembers(holder.getNameNode(), enclosingFunction(holder));
  return undefined;
}

function boundMembers(name: Node, scope: Node): string[] | undefined {
  if (Node.isObjectBindingPattern(name)) return name.getElements().map((e) => e.getPropertyNameNode()?.getText() ?? e.getName());
  if (!Node.isIdentifier(name)) return undefined;
  const reads: string[] = [];
  for (const r of referencesOf(scope, name)) {
    const p = r.getParent();
    if (p && Node.isPropertyAccessExpression(p) && p.getExpression() === r) reads.push(p.getName());
  }
  return reads.length ? reads : undefined;
}

/** Where the project's own calls of the client say it is not axios's: an answer read other than through `.data`, a data verb given another client's options. */
function evidenceAgainst(calls: ClientCall[]): string | undefined {
  for (const c of calls) {
    const other = c.reads?.find((m) => m !== "data" && !AXIOS_RESPONSE.has(m));
    if (other && !c.reads!.includes("data")) {
      const withData = calls.find((d) => d.reads?.includes("data"));
      const how = other === "json" || other === "text" ? `through .${other}()` : `bare (.${other})`;
      return `its answer is read ${how} at ${quotedPosition(c.call)}${withData ? `, and through .data at ${quotedPosition(withData.call)}` : ""}`;
    }
    const second = c.call.getArguments()[1];
    const obj = second && unwrapExpression(second);
    if (DATA_VERBS.has(c.verb) && obj && Node.isObjectLiteralExpression(obj)) {
      const key = NOT_AXIOS_OPTIONS.find((k) => obj.getProperty(k));
      if (key) return `${c.verb}(url, { ${key} }) at ${quotedPosition(c.call)} takes options where axios takes the data`;
    }
    const config = unwrapExpression(c.call.getArguments()[DATA_VERBS.has(c.verb) ? 2 : 1] ?? c.call);
    const stray = Node.isObjectLiteralExpression(config) ? config.getProperties().map((p) => (Node.isPropertyAssignment(p) || Node.isShorthandPropertyAssignment(p) ? p.getName() : undefined)).find((k) => k !== undefined && !AXIOS_CONFIG.has(k)) : undefined;
    if (stray) return `${c.verb}(…) at ${quotedPosition(c.call)} is given { ${stray} } where axios takes its config`;
    if (!DATA_VERBS.has(c.verb) && c.call.getArguments().length > 2) return `${c.verb}(…) at ${quotedPosition(c.call)} is given ${c.call.getArguments().length} arguments, axios's takes (url, config)`;
  }
  return undefined;
}
