// Problems, a generated client's request (transports/route-config.ts) whose answer reaches the app
// in the generator's own terms: a `{ data, error }` result (hey-api) whose `error` the SDK's callers
// read for v1's `message` (v2 errors are problems with `detail`), and a type argument naming the
// generator's v1 model (`client.get<Pod>(…)`), which the codemod does not edit: a v2 record read
// through it would not type-check, so the site is marked (the advice: generate the client again).
import { Node } from "../../ts-morph.ts";
import { lensNamed, type OperationMapping } from "../../../mappings/index.ts";
import { edit, type Plan } from "../state.ts";
import type { HttpCall } from "../transports/index.ts";
import { generatorOf } from "../generated-client.ts";
import { references } from "../references.ts";
import { skipParens } from "../nodes.ts";
import { differingFields } from "./record-field-read.ts";

export function generatedAnswer(plan: Plan, http: HttpCall, op: OperationMapping): void {
  if (!http.routeConfig) return;
  if (http.style === "data") {
    const read = callerErrorRead(http.call);
    if (read) {
      const where = `${read.getSourceFile().getBaseName()}:${read.getStartLineNumber()}`;
      plan.problems.push({ risk: "silent", reason: `a caller of the generated function reads its error's message (${where}): v2 errors are problems with detail, not v1's message`, advice: "read error.detail (then error.message) there", brief: `a caller reads its error's v1 message (${where})` });
    }
  }
  const typeArg = Node.isCallExpression(http.call) ? http.call.getTypeArguments()[0] : undefined;
  if (!typeArg || !generatorOf(typeArg.getSourceFile())) return;
  const shape = op.response;
  // `client.get<Array<X>, E>(…)`: the answer's declared type follows the unwrap its readers get.
  if (shape.kind === "list" && /\[\]$|^Array<[\s\S]*>$/.test(typeArg.getText())) edit(plan, typeArg, { start: typeArg.getStart(), end: typeArg.getEnd(), text: `{ ${shape.wrapper}: ${typeArg.getText()} }` });
  const lens = (shape.kind === "record" || shape.kind === "list") && lensNamed(shape.lens);
  if (!lens) return;
  const declared = declaredNames(typeArg);
  // (`desiredStatus→status`, `machine.dataCenterId+…→…`: the first v1 segment is what the model declares.)
  const stale = differingFields(lens.fields, lens.v1Lost).filter((f) => f.split("→")[0]!.split("+").some((v1) => declared.has(v1.split(".")[0]!)));
  if (!stale.length) return;
  plan.problems.push({ risk: "silent", reason: `the answer is typed by the generated client's v1 model (${short(typeArg.getText())}), which declares v1 fields that differ in v2: ${stale.join(", ")}`, advice: "read the v2 record once the client is generated from the v2 document", brief: `the answer is typed by the generated v1 model ${short(typeArg.getText())}` });
}

/** The property names a type argument declares (of its elements, for an array). */
function declaredNames(typeArg: Node): Set<string> {
  try {
    let t = typeArg.getType();
    if (t.isArray()) t = t.getArrayElementTypeOrThrow();
    return new Set(t.getProperties().map((p) => p.getName()));
  } catch {
    return new Set();
  }
}

/** A read of the error's `message` on the result of the function that returns this call, at one of its calls. */
function callerErrorRead(call: Node): Node | undefined {
  const outer = skipParens(call);
  const holder = outer.getParent();
  const fn = holder && Node.isArrowFunction(holder) ? holder : holder && Node.isReturnStatement(holder) ? holder.getFirstAncestor((n) => Node.isFunctionDeclaration(n) || Node.isArrowFunction(n) || Node.isFunctionExpression(n) || Node.isMethodDeclaration(n)) : undefined;
  const decl = fn && (Node.isArrowFunction(fn) || Node.isFunctionExpression(fn)) ? fn.getParent() : fn;
  const name = decl && (decl as any).getNameNode?.();
  if (!name || !Node.isIdentifier(name)) return undefined;
  for (const r of references(name)) {
    const use = r.getParent();
    if (!use || !Node.isCallExpression(use) || use.getExpression() !== r) continue;
    const found = errorMessageRead(use);
    if (found) return found;
  }
  return undefined;
}

/** `const { data, error } = await f(); … error.message`, `const res = await f(); … res.error.message`, `(await f()).error?.message`. */
function errorMessageRead(use: Node): Node | undefined {
  let at = skipParens(use);
  if (at.getParent() && Node.isAwaitExpression(at.getParent()!)) at = skipParens(at.getParent()!);
  const parent = at.getParent();
  const message = (n: Node) => {
    const p = n.getParent();
    return p && Node.isPropertyAccessExpression(p) && p.getExpression() === n && p.getName() === "message" ? p : undefined;
  };
  const onError = (n: Node) => {
    const p = n.getParent();
    return p && Node.isPropertyAccessExpression(p) && p.getExpression() === n && p.getName() === "error" ? message(p) : undefined;
  };
  if (parent && Node.isPropertyAccessExpression(parent)) return onError(at);
  if (!parent || !Node.isVariableDeclaration(parent)) return undefined;
  const bound = parent.getNameNode();
  if (Node.isIdentifier(bound)) {
    for (const r of references(bound)) {
      const found = onError(r);
      if (found) return found;
    }
    return undefined;
  }
  if (!Node.isObjectBindingPattern(bound)) return undefined;
  const el = bound.getElements().find((e) => (e.getPropertyNameNode()?.getText() ?? e.getName()) === "error");
  const local = el?.getNameNode();
  if (!local || !Node.isIdentifier(local)) return undefined;
  for (const r of references(local)) {
    const found = message(r);
    if (found) return found;
  }
  return undefined;
}

function short(text: string): string {
  const flat = text.replace(/\s+/g, " ");
  return flat.length > 40 ? `${flat.slice(0, 37)}…` : flat;
}
