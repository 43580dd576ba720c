// Rewrite: v2 wraps lists (`{ pods: [...] }`) where v1 answered a bare array, so the body is
// unwrapped where the call's result is consumed: `const { pods } = await res.json()`,
// `(await res.json()).pods`, `res.data.pods`, `.then((body) => body.pods)`, `.json<{ pods: T }>()`.
import { wrapped } from "../helper-answer.ts";
import { Node, SyntaxKind } from "../../ts-morph.ts";
import { enclosingFunction, isAsyncFunction } from "../scope.ts";
import { unwrapExpression } from "../urls.ts";
import { edit, type Analysis, type Plan } from "../state.ts";
import type { HttpCall } from "../transports/index.ts";
import { bodySites } from "../body-sites.ts";
import { observableFlow } from "../observable-flow.ts";
import { beforeFallbacks, isTypeScriptFile, referencesOf, skipParens } from "../nodes.ts";
import { isWriteTarget } from "../reassigned-records.ts";
import type { Problems } from "./problems.ts";
import { classifyRead } from "../response-branch.ts";
import { bodyTypeArguments } from "../declared-types.ts";
import { resultBeyondStatus } from "./record-flow-facts.ts";

export function isErrorRead(ref: Node): boolean {
  const p = ref.getParent();
  return !!p && Node.isPropertyAccessExpression(p) && p.getExpression() === ref && ["message", "error", "detail", "title", "status"].includes(p.getName());
}

/**
 * A call of a generic method whose answer type only its context gives (`get<Req, Rsp>(path, opts):
 * Promise<Rsp>`, returned from a method declared `Promise<Registry[]>`): after `.then` no context
 * gives it, so the body is `unknown` there and is read untyped.
 */
function answerFromContext(call: Node): boolean {
  if (!Node.isCallExpression(call) || call.getTypeArguments().length) return false;
  const decls = call.getExpression().getSymbol()?.getDeclarations() ?? [];
  return decls.some((d) => {
    const f = d as any;
    const returned = f.getReturnTypeNode?.()?.getText() as string | undefined;
    const params = ((f.getParameters?.() ?? []) as Node[]).map((p) => (p as any).getTypeNode?.()?.getText() ?? "").join(" ");
    const names = ((f.getTypeParameters?.() ?? []) as Node[]).map((t) => (t as any).getName() as string);
    return !!returned && names.some((n) => new RegExp(`\\b${n}\\b`).test(returned) && !new RegExp(`\\b${n}\\b`).test(params));
  });
}

export function unwrapList(plan: Plan, http: HttpCall, wrapper: string): void {
  const all = bodySites(plan.a, http);
  // (A helper returning its transport's answer is followed where the answer goes: answer-leaves.ts says where it leaves sight.)
  // (A result read for its status alone, `r.ok` / `r.status` of a `{ status, ok, json }`, holds no list to unwrap.)
  if (!all.length && http.lib === "helper" && !http.helper!.returnsBody && !http.helper!.returnsResponse && !http.observable && resultBeyondStatus(http.call)) {
    plan.problems.push({ risk: "silent", reason: `v2 wraps the list in { ${wrapper}: [...] } and this helper's result is not followed to where it is read${wrapped(http)}`, advice: `read .${wrapper} of the response body` });
  }
  // An error body is a problem document in v2: the list key belongs to the success body only.
  const sites = all.filter((site) => classifyRead(site.node) !== "error");
  // A convention's own place to unwrap (RTK Query's `transformResponse`): the answer keeps its list shape there.
  // (A data-fetching hook's list is unwrapped in the fetcher it is given: its cache, and so `data`, keep the array.)
  const own = !sites.length || http.hook ? http.unwrapList?.(wrapper) : undefined;
  if (own) return void plan.site.edits.push(...own);
  if (http.hook) {
    // (A helper whose result is not the body is named above.) The hook's `data` is never unwrapped where it is read: it is undefined while loading.
    if (http.lib === "helper" && !http.helper!.returnsBody) return;
    const why = http.hook.global ? "the hook runs the fetcher of <SWRConfig> (every hook's), where the list cannot be unwrapped for this key alone" : "the hook's fetcher does not resolve to the parsed body, where the list would be unwrapped";
    return void plan.problems.push({ risk: "silent", reason: `v2 wraps the list in { ${wrapper}: [...] } and ${why}`, advice: `give this hook a fetcher of its own that unwraps .${wrapper}` });
  }
  if (!sites.length && http.lib === "convention" && !http.style && !http.observable) {
    plan.problems.push({ risk: "silent", reason: `v2 wraps the list in { ${wrapper}: [...] } and the codemod cannot tell how this client's answer is read`, advice: `read .${wrapper} of the response body` });
  }
  // axios `get<Pod[]>(…)` (or a helper forwarding to it, `this.http.get<Pod[]>(…)`): the response type follows the unwrap
  // (a call answering the body itself, `runpod<Pod[]>(…)`, is retyped where the body is read).
  const axiosLike = (http.lib === "axios" && !http.interceptor) || (http.lib === "convention" && http.style === "data") || (http.lib === "helper" && http.helper?.answerLib === "axios");
  // An Observable's `get<Pod[]>(…)` too (Angular's HttpClient types the body so), and a callback parameter annotated with the list.
  if ((axiosLike || http.observable) && sites.length && http.call.getTypeArguments().length === 1) {
    const t = http.call.getTypeArguments()[0]!;
    wrapType(plan, t, wrapper);
  }
  // A function returning the stream declares what it emits (`volumes(): Observable<Volume[]>`): the type follows the unwrap.
  if (http.observable && sites.length) {
    for (const r of observableFlow(http.call, http.observable).returnTypes) {
      if (r.value) wrapType(plan, r.value, wrapper);
      else plan.problems.push({ risk: "silent", reason: `v2 wraps the list in { ${wrapper}: [...] } and the function returning the observable declares its values as ${r.declared.getText()}`, advice: `declare the values as { ${wrapper}: … }` });
    }
  }
  // A helper's own result typed by its argument (`call<Pod[]>(…)`, the body at `r.value`): the type follows the unwrap.
  if (sites.some((s) => s.inResult) && returnsTypedBody(http.call)) for (const t of bodyTypeArguments(http.call)) wrapType(plan, t, wrapper);
  for (const param of new Set(sites.map((s) => s.param))) {
    const t = param && Node.isParameterDeclaration(param) ? param.getTypeNode() : undefined;
    if (t) wrapType(plan, t, wrapper);
  }
  for (const site of sites) {
    if (site.kind === "handed") {
      const where = `${site.node.getSourceFile().getBaseName()}:${site.node.getStartLineNumber()}`;
      plan.problems.push({ risk: "silent", reason: `v2 wraps the list in { ${wrapper}: [...] } and ${site.said ?? `the response is handed to ${(site.node as any).getExpression().getText()} (${where}), which ${site.why}`}: where the list is read is not followed`, advice: `read .${wrapper} of the response body where that function reads it` });
      continue;
    }
    // wretch's `.json((pods) => …)`: the parameter takes the list out of v2's wrapper.
    if (site.kind === "binding" && Node.isParameterDeclaration(site.node) && http.lib === "wretch" && Node.isIdentifier(site.node.getNameNode())) {
      unwrapParam(plan, site.node, wrapper);
      continue;
    }
    // `subscribe(([first]) => …)`, `({ length }) =>`: the list taken apart in an observable's callback.
    if (site.kind === "binding" && Node.isParameterDeclaration(site.node)) {
      plan.problems.push({ risk: "silent", reason: `v2 wraps the list in { ${wrapper}: [...] } and the list is taken apart in a callback's parameter (${site.node.getText()})`, advice: `read .${wrapper} of the body there` });
      continue;
    }
    // `const [err, pods] = await …`, `const { data } = await …` of a helper's own result: the body may be
    // absent there (the failure side), so the list is read out of it where the name is used.
    if (site.kind === "binding" && site.inResult && Node.isIdentifier((site.node as any).getNameNode())) {
      for (const r of referencesOf(enclosingFunction(site.node), (site.node as any).getNameNode())) {
        const rp = r.getParent();
        if (rp && Node.isShorthandPropertyAssignment(rp)) {
          plan.problems.push({ risk: "silent", reason: `v2 wraps the list in { ${wrapper}: [...] } and the body taken out of the helper's result is handed on by name (${rp.getText()})`, advice: `read ${r.getText()}?.${wrapper}` });
          continue;
        }
        if (isWriteTarget(r)) continue;
        edit(plan, r, { start: r.getEnd(), end: r.getEnd(), text: `?.${wrapper}` });
      }
      continue;
    }
    if (site.kind === "binding") {
      const el = site.node as any;
      const local = el.getNameNode().getText();
      // `const { data } = …` (axios), `const { body } = …` (superagent): the answer's key stays.
      const key = el.getPropertyNameNode()?.getText() ?? el.getName();
      // `const { result } = …` where the library declares result may be null: destructuring the list out of it would throw.
      if (http.answerNullable) {
        plan.problems.push({ risk: "silent", reason: `v2 wraps the list in { ${wrapper}: [...] } and the body is taken out of ${key}, which the client library declares may be null`, advice: `read ${key}?.${wrapper}` });
        continue;
      }
      edit(plan, site.node, { start: el.getStart(), end: el.getEnd(), text: `${key}: { ${wrapper}: ${local} }` });
      continue;
    }
    retypeJson(plan, site.node, wrapper, http.lib === "got" || http.lib === "ky" || http.lib === "wretch");
    if (site.kind === "promise") {
      // An axios call through an unwrapping interceptor is typed as axios's answer (the code casts where it reads): its body is read untyped.
      // So is a generated request whose body type is inferred from the method's declared (v1) return type, which `.then` no longer gives it.
      const body = ((http.lib === "axios" && http.interceptor) || (http.routeConfig && !(http.call as any).getTypeArguments?.().length) || answerFromContext(http.call)) && isTypeScriptFile(site.node.getSourceFile().getFilePath()) ? "(body: any)" : "(body)";
      const fn = enclosingFunction(site.node);
      const parent = skipParens(site.node).getParent();
      const at = beforeFallbacks(site.node);
      if (at !== skipParens(site.node)) {
        edit(plan, at, { start: at.getEnd(), end: at.getEnd(), text: `.then(${body} => body.${wrapper})` });
      } else if (parent && Node.isReturnStatement(parent) && isAsyncFunction(fn)) {
        edit(plan, site.node, { start: site.node.getStart(), end: site.node.getStart(), text: "(await " });
        edit(plan, site.node, { start: site.node.getEnd(), end: site.node.getEnd(), text: body === "(body)" ? `).${wrapper}` : ` as any).${wrapper}` });
      } else {
        edit(plan, site.node, { start: site.node.getEnd(), end: site.node.getEnd(), text: `.then(${body} => body.${wrapper})` });
      }
      continue;
    }
    const v = site.node;
    const outer = skipParens(v);
    const parent = outer.getParent();
    // `(await res.json()) as Pod[]`: the asserted type follows the unwrap, read off the whole.
    const asserted = assertionAround(v);
    if (asserted) {
      const t = asserted.getTypeNode()!;
      wrapType(plan, t, wrapper);
      edit(plan, asserted, { start: asserted.getStart(), end: asserted.getStart(), text: "(" });
      edit(plan, asserted, { start: asserted.getEnd(), end: asserted.getEnd(), text: `).${wrapper}` });
      continue;
    }
    if (parent && Node.isVariableDeclaration(parent) && Node.isIdentifier(parent.getNameNode())) {
      const nameNode = parent.getNameNode();
      const refs = referencesOf(enclosingFunction(parent), nameNode);
      // A body read before the status check serves both sides: unwrap it where the success side uses it.
      const errorUse = (r: Node) => isErrorRead(r) || classifyRead(r, v) === "error";
      if (refs.some(errorUse)) {
        for (const r of refs) {
          if (errorUse(r)) continue;
          const rp = r.getParent();
          if (rp && Node.isShorthandPropertyAssignment(rp)) {
            plan.problems.push({ risk: "silent", reason: `the list body is also read for errors; unwrap .${wrapper} where it is used`, advice: `read ${nameNode.getText()}.${wrapper}` });
            continue;
          }
          edit(plan, r, { start: r.getEnd(), end: r.getEnd(), text: `.${wrapper}` });
        }
        continue;
      }
      if (nameNode.getText() === wrapper && !(parent as any).getTypeNode?.()) {
        edit(plan, nameNode, { start: nameNode.getStart(), end: nameNode.getEnd(), text: `{ ${wrapper} }` });
        continue;
      }
    }
    // `(await res.json()) as unknown`: the unwrap goes on the value under the cast, never after its type.
    const cast = castAround(v);
    if (cast) {
      const e = cast.getExpression();
      if (Node.isParenthesizedExpression(e)) edit(plan, e, { start: e.getEnd(), end: e.getEnd(), text: `.${wrapper}` });
      else {
        edit(plan, e, { start: e.getStart(), end: e.getStart(), text: "(" });
        edit(plan, e, { start: e.getEnd(), end: e.getEnd(), text: `).${wrapper}` });
      }
    } else if (outer !== v && (Node.isAwaitExpression(v) || Node.isCallExpression(v))) {
      edit(plan, outer, { start: outer.getEnd(), end: outer.getEnd(), text: `.${wrapper}` });
    } else if (Node.isAwaitExpression(v)) {
      // A helper typed `Promise<unknown>` answers a value TypeScript will not read a member of: read it untyped.
      const untyped = isTypeScriptFile(v.getSourceFile().getFilePath()) && answersUnknown(v);
      edit(plan, v, { start: v.getStart(), end: v.getStart(), text: "(" });
      edit(plan, v, { start: v.getEnd(), end: v.getEnd(), text: `${untyped ? " as any" : ""}).${wrapper}` });
    } else if (Node.isCallExpression(v) && parent && Node.isAsExpression(parent)) {
      edit(plan, parent, { start: parent.getStart(), end: parent.getStart(), text: "(" });
      edit(plan, parent, { start: parent.getEnd(), end: parent.getEnd(), text: `).${wrapper}` });
    } else {
      // `res.data ?? []`: a body that may be absent (hey-api's data on an error) stays optional.
      const fallback = parent && Node.isBinaryExpression(parent) && parent.getOperatorToken().getKind() === SyntaxKind.QuestionQuestionToken && parent.getLeft() === outer;
      // `r.value?.map(…)`: the chain stays optional past the unwrap (`r.value?.pods?.map(…)`).
      const optional = !!parent && (Node.isPropertyAccessExpression(parent) || Node.isElementAccessExpression(parent) || Node.isCallExpression(parent)) && parent.hasQuestionDotToken() && (parent as any).getExpression() === outer;
      edit(plan, v, { start: v.getEnd(), end: v.getEnd(), text: `${fallback || optional ? "?." : "."}${wrapper}` });
    }
  }
}

/** `(pods) => …` → `({ pods }) => …`, `list => …` → `({ pods: list }) => …` (its type is wrapped where the sites' parameters are). */
function unwrapParam(plan: Plan, param: Node, wrapper: string): void {
  const name = (param as any).getNameNode() as Node;
  const local = name.getText();
  const fn = param.getParent();
  const bare = !!fn && Node.isArrowFunction(fn) && !fn.getText().startsWith("(") && !fn.getText().startsWith("async (");
  const pattern = local === wrapper ? `{ ${wrapper} }` : `{ ${wrapper}: ${local} }`;
  edit(plan, name, { start: name.getStart(), end: name.getEnd(), text: bare ? `(${pattern})` : pattern });
}

function returnsTypedBody(call: Node): boolean {
  const [t] = bodyTypeArguments(call);
  return !!t && /\[\]$|^Array<.*>$/.test(t.getText());
}

/** `got(url).json<Pod[]>()` → `.json<{ pods: Pod[] }>()`: the type argument follows the unwrap. */
function retypeJson(plan: Plan, node: Node, wrapper: string, genericJson: boolean): void {
  let call: Node | undefined = node;
  if (call && Node.isAwaitExpression(call)) call = unwrapExpression(call.getExpression());
  if (!call || !Node.isCallExpression(call)) return;
  const callee = call.getExpression();
  // `.json<T>()`, or a helper / wrapper that returns the body typed by its argument (`getJSON<T>(url)`).
  const typedBody = Node.isPropertyAccessExpression(callee) && callee.getName() === "json";
  if (!typedBody && !returnsTypedBody(call)) return;
  const [t] = call.getTypeArguments();
  for (const each of bodyTypeArguments(call)) wrapType(plan, each, wrapper);
  // got / ky infer `.json<T>()` from the variable's declared type; once unwrapped, T must be written.
  if (!t && typedBody && genericJson) {
    const decl = skipParens(node).getParent();
    const declared = decl && Node.isVariableDeclaration(decl) ? decl.getTypeNode() : undefined;
    if (declared) edit(plan, callee, { start: callee.getEnd(), end: callee.getEnd(), text: `<{ ${wrapper}: ${declared.getText()} }>` });
  }
}

/** The first `as T` / `satisfies T` a body read sits in (through parentheses), if any. */
function castAround(v: Node): (Node & { getExpression(): Node }) | undefined {
  for (let n: Node = v, p = v.getParent(); p && (Node.isParenthesizedExpression(p) || Node.isAsExpression(p) || Node.isSatisfiesExpression(p)); n = p, p = p.getParent()) {
    if (Node.isAsExpression(p) || Node.isSatisfiesExpression(p)) return p;
  }
  return undefined;
}

/** The `as T[]` assertion a body read sits in (through parentheses), if any. */
function assertionAround(v: Node): (Node & { getTypeNode(): Node | undefined }) | undefined {
  let n: Node = v;
  // `x as unknown as Pod[]`: the last assertion of a chain says the type.
  let last: (Node & { getTypeNode(): Node | undefined }) | undefined;
  for (let p = n.getParent(); p && (Node.isParenthesizedExpression(p) || Node.isAsExpression(p)); p = n.getParent()) {
    if (Node.isAsExpression(p)) last = p;
    n = p;
  }
  return last && /\[\]$|^Array<.*>$/.test(last.getTypeNode()?.getText() ?? "") ? last : undefined;
}

/**
 * `Pod[]` → `{ pods: Pod[] }`, written around the type so the renames of its record fields inside
 * (`Array<{ amount: number }>` → `totalAmount`) land too.
 */
function wrapType(plan: Plan, t: Node, wrapper: string): void {
  edit(plan, t, { start: t.getStart(), end: t.getStart(), text: `{ ${wrapper}: ` });
  edit(plan, t, { start: t.getEnd(), end: t.getEnd(), text: " }" });
}

/** The awaited value is typed `unknown` (or `unknown | null`): a member read of it does not type-check. */
function answersUnknown(v: Node): boolean {
  try {
    const t = v.getType();
    return t.isUnknown() || (t.isUnion() && t.getUnionTypes().some((u) => u.isUnknown()));
  } catch {
    return false;
  }
}
