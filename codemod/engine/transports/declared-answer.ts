// What a call of a client library resolves to, read from the library's type declarations (where the
// project has them installed): the parsed body itself (`Promise<T>`), the body under one member of
// the answer (`Promise<{ statusCode; result: T | null; headers }>` → `result`), or a response object
// of the library's own that holds no `T` and has methods (the body is read through one: `readBody()`).
// Without declarations (JavaScript, types not installed) the answer's form is not known here.
import { Node, type CallExpression } from "../../ts-morph.ts";
import type { Type } from "ts-morph";
import type { Analysis } from "../state.ts";
import { optionsOf } from "../evaluate/value.ts";
import { unwrapExpression } from "../urls.ts";
import { loadPackageTypes } from "../package-types.ts";

export type DeclaredAnswer =
  | { form: "body" }
  | { form: "member"; key: string; nullable: boolean }
  | { form: "response"; members: Set<string>; textReaders: Set<string> };

/** The promised type (`Promise<X>` → X), or the type itself. */
function awaitedOf(t: Type): Type {
  const name = t.getSymbol()?.getName() ?? t.getAliasSymbol()?.getName();
  if ((name === "Promise" || name === "PromiseLike") && t.getTypeArguments().length === 1) return t.getTypeArguments()[0]!;
  return t;
}

/** The type is a type parameter of the signature, alone or with null / undefined (`T | null`). */
function holdsParameter(t: Type): boolean {
  if (t.isTypeParameter()) return true;
  if (!t.isUnion()) return false;
  const parts = t.getUnionTypes().filter((u) => !u.isNull() && !u.isUndefined());
  return parts.length === 1 && parts[0]!.isTypeParameter();
}

/** The packages the call's receiver comes from (`new HttpClient(…)` of `@actions/http-client`), with the file importing each. */
function receiverModules(a: Analysis, call: CallExpression): { module: string; from: string }[] {
  const callee = unwrapExpression(call.getExpression());
  const root = Node.isPropertyAccessExpression(callee) ? unwrapExpression(callee.getExpression()) : callee;
  const out: { module: string; from: string }[] = [];
  for (const o of optionsOf(a.evaluator.evaluate(root))) {
    if (o.kind === "module") out.push({ module: o.module, from: o.node.getSourceFile().getFilePath() });
    if (o.kind !== "made" || !(Node.isCallExpression(o.call) || Node.isNewExpression(o.call))) continue;
    const maker = unwrapExpression(o.call.getExpression());
    for (const m of optionsOf(a.evaluator.evaluate(Node.isPropertyAccessExpression(maker) ? maker.getExpression() : maker))) {
      if (m.kind === "module") out.push({ module: m.module, from: m.node.getSourceFile().getFilePath() });
    }
  }
  return out;
}

export function declaredAnswer(a: Analysis, call: CallExpression): DeclaredAnswer | undefined {
  try {
    // The package's own declarations, where the project has it installed (a stand-in `declare module` is in the project already).
    for (const m of receiverModules(a, call)) loadPackageTypes(call.getProject(), m.from, m.module);
    const signature = call.getProject().getTypeChecker().getResolvedSignature(call);
    const decl = signature?.getDeclaration();
    if (!decl || !decl.getSourceFile().isDeclarationFile() || !Node.isReturnTyped(decl)) return undefined;
    const returned = decl.getReturnType();
    if (returned.isAny() || returned.isUnknown()) return undefined;
    const awaited = awaitedOf(returned);
    if (awaited.isAny() || awaited.isUnknown()) return undefined;
    if (holdsParameter(awaited)) return { form: "body" };
    if (awaited.isTypeParameter() || awaited.isUnion() || !awaited.isObject()) return undefined;
    const props = awaited.getProperties();
    const holding = props.filter((p) => holdsParameter(p.getTypeAtLocation(decl)));
    if (holding.length === 1) {
      const t = holding[0]!.getTypeAtLocation(decl);
      return { form: "member", key: holding[0]!.getName(), nullable: t.isUnion() && t.getUnionTypes().some((u) => u.isNull() || u.isUndefined()) };
    }
    if (holding.length > 1) return undefined;
    // A parsed JSON body has no methods: an answer with some (`readBody()`, `json()`) is a response object.
    const methods = props.filter((p) => p.getTypeAtLocation(decl).getCallSignatures().length > 0);
    if (!methods.length) return awaited.isArray() ? { form: "body" } : undefined;
    // Its methods that take nothing and promise a string read the body as text (`readBody()`, fetch's `text()`).
    const textReaders = methods.filter((p) => p.getTypeAtLocation(decl).getCallSignatures().some((sig) => sig.getParameters().length === 0 && /^Promise<string>$/.test(sig.getReturnType().getText())));
    return { form: "response", members: new Set(props.map((p) => p.getName())), textReaders: new Set(textReaders.map((p) => p.getName())) };
  } catch {
    return undefined;
  }
}
