// Whether an HTTP call answers an Observable (RxJS) instead of a promise, and what it emits: the
// body (Angular's HttpClient), the axios response (@nestjs/axios's HttpService, read by `.data`),
// or something the codemod cannot tell (a client whose result the code pipes or subscribes to).
// Such a call's answer is followed through its operators by observable-flow.ts.
import { Node, type SourceFile } from "../ts-morph.ts";
import { resolveIdentifier } from "./scope.ts";
import { declarationsNamed } from "./record-callees.ts";

export type Emits = "body" | "response" | "unknown";

/** The libraries whose request methods answer observables, by the module and class of the receiver. */
const LIBRARIES: { module: RegExp; name: string; emits: Emits }[] = [
  { module: /^@angular\/common\/http$/, name: "HttpClient", emits: "body" },
  { module: /^@nestjs\/axios$/, name: "HttpService", emits: "response" },
];

/** What `call` (`recv.get(…)`) emits when it answers an Observable; undefined when it answers something else. */
export function observableEmits(call: Node): Emits | undefined {
  if (!Node.isCallExpression(call)) return undefined;
  const callee = call.getExpression();
  const lib = Node.isPropertyAccessExpression(callee) ? receiverLibrary(callee.getExpression()) : undefined;
  // Angular's `observe: "response"` / `"events"`, `responseType: "text"`: the stream emits something else than the body.
  if (lib === "body") return bodyOptions(call.getArguments()[callee.getText().endsWith(".get") || /\.(delete|head)$/.test(callee.getText()) ? 1 : 2]) ? "body" : "unknown";
  if (lib) return lib;
  if (hasObservableType(call)) return "unknown";
  // Read as an observable by the code: piped, subscribed to, or the inner stream of a flattening operator.
  const outer = bare(call);
  const p = outer.getParent();
  if (p && Node.isPropertyAccessExpression(p) && p.getExpression() === outer && ["pipe", "subscribe"].includes(p.getName()) && Node.isCallExpression(p.getParent())) return "unknown";
  return flatteningInner(outer) ? "unknown" : undefined;
}

/** The node around `n` that only wraps it (parentheses, `as`, `!`, `satisfies`): unlike skipParens, rxjs's firstValueFrom is not seen through. */
export function bare(n: Node): Node {
  let x = n;
  for (let p = x.getParent(); p && (Node.isParenthesizedExpression(p) || Node.isAsExpression(p) || Node.isNonNullExpression(p) || Node.isSatisfiesExpression(p)); p = x.getParent()) x = p;
  return x;
}

/** An identifier imported from rxjs (`map`, `switchMap`, `firstValueFrom`): its imported name. */
export function rxjsName(id: Node): string | undefined {
  if (!Node.isIdentifier(id)) return undefined;
  const b = resolveIdentifier(id);
  return b?.kind === "import" && /^rxjs(\/|$)/.test(b.module) ? (b.name === "default" || b.name === "*" ? undefined : b.name) : undefined;
}

/** The name the file imports rxjs's `map` under (`import { map } from "rxjs/operators"`), if it does. */
export function rxjsMapIn(sf: SourceFile): string | undefined {
  for (const imp of sf.getImportDeclarations()) {
    if (!/^rxjs(\/operators)?$/.test(imp.getModuleSpecifierValue()) || imp.isTypeOnly()) continue;
    const spec = imp.getNamedImports().find((x) => x.getName() === "map" && !x.isTypeOnly());
    if (spec) return spec.getAliasNode()?.getText() ?? "map";
  }
  return undefined;
}

const FLATTENING = new Set(["switchMap", "mergeMap", "concatMap", "exhaustMap", "flatMap"]);

/**
 * `switchMap(() => this.http.get(…))`: the stream returned from a flattening operator's callback
 * inside a `.pipe(…)`; its values flow on in that pipe after the operator. The pipe call and the
 * operator's index, or undefined.
 */
export function flatteningInner(outer: Node): { pipe: Node & { getArguments(): Node[] }; index: number } | undefined {
  const p = outer.getParent();
  const fn = p && Node.isReturnStatement(p) ? p.getFirstAncestor((x) => Node.isArrowFunction(x) || Node.isFunctionExpression(x) || Node.isFunctionDeclaration(x) || Node.isMethodDeclaration(x)) : p && Node.isArrowFunction(p) && p.getBody() === outer ? p : undefined;
  if (!fn || !(Node.isArrowFunction(fn) || Node.isFunctionExpression(fn))) return undefined;
  const op = bare(fn).getParent();
  if (!op || !Node.isCallExpression(op) || op.getArguments()[0] !== bare(fn) || !FLATTENING.has(rxjsName(op.getExpression()) ?? "")) return undefined;
  const pipe = bare(op).getParent();
  if (!pipe || !Node.isCallExpression(pipe)) return undefined;
  const access = pipe.getExpression();
  if (!Node.isPropertyAccessExpression(access) || access.getName() !== "pipe") return undefined;
  return { pipe, index: pipe.getArguments().indexOf(bare(op) as never) };
}

/** The class of the receiver's library (`inject(HttpClient)`, `new HttpService()`, a field or parameter typed `HttpClient`). */
function receiverLibrary(recv: Node): Emits | undefined {
  const names: Node[] = [];
  for (const d of declarationsNamed(recv)) {
    if (!(Node.isPropertyDeclaration(d) || Node.isParameterDeclaration(d) || Node.isVariableDeclaration(d))) continue;
    const t = d.getTypeNode();
    if (t && Node.isTypeReference(t)) names.push(t.getTypeName());
    const init = d.getInitializer();
    const made = init && (Node.isNewExpression(init) ? init.getExpression() : Node.isCallExpression(init) && init.getExpression().getText() === "inject" ? init.getArguments()[0] : undefined);
    if (made) names.push(made);
  }
  for (const n of names) {
    if (!Node.isIdentifier(n)) continue;
    const b = resolveIdentifier(n);
    if (b?.kind !== "import") continue;
    const lib = LIBRARIES.find((l) => l.module.test(b.module) && l.name === b.name);
    if (lib) return lib.emits;
  }
  return undefined;
}

/** HttpClient's options leave its answer the JSON body: no `observe` / `responseType` other than the defaults, read off an object the code shows. */
function bodyOptions(options: Node | undefined): boolean {
  if (!options) return true;
  let obj: Node | undefined = bare(options);
  if (Node.isIdentifier(obj) || Node.isPropertyAccessExpression(obj)) {
    const d = declarationsNamed(obj).find((x) => Node.isVariableDeclaration(x) || Node.isPropertyDeclaration(x));
    const init = d && (Node.isVariableDeclaration(d) || Node.isPropertyDeclaration(d)) ? d.getInitializer() : undefined;
    obj = init && bare(init);
    while (obj && (Node.isAsExpression(obj) || Node.isParenthesizedExpression(obj) || Node.isSatisfiesExpression(obj))) obj = obj.getExpression();
  }
  if (!obj || !Node.isObjectLiteralExpression(obj)) return false;
  return obj.getProperties().every((p) => {
    if (Node.isSpreadAssignment(p)) return false;
    const name = (p as any).getName?.() as string | undefined;
    if (name !== "observe" && name !== "responseType") return true;
    const v = Node.isPropertyAssignment(p) ? p.getInitializer() : undefined;
    return !!v && /^["'`](body|json)["'`]$/.test(v.getText());
  });
}

/** The checker types the result with `pipe` and `subscribe` (rxjs's types are loaded). */
function hasObservableType(call: Node): boolean {
  try {
    const t = call.getType();
    return !t.isAny() && !!t.getProperty("pipe") && !!t.getProperty("subscribe");
  } catch {
    return false;
  }
}
