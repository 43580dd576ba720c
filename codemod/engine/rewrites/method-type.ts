// A helper's method parameter declared as a union of method literals without the method v2 needs
// (`call(method: "GET" | "POST" | "DELETE", …)` given `"PATCH"` for UpdatePod): the union is widened
// once with that method, where it is written (the parameter's own union, or a type alias used only to
// annotate values), so the rewritten call type-checks. A type that cannot be widened safely (outside
// the run, a .d.ts, an enum, an alias used as a key or type argument) is named, and the site is marked.
import { Node, SyntaxKind } from "../../ts-morph.ts";
import type { Edit } from "../../types.ts";
import type { Analysis } from "../state.ts";
import type { HttpCall } from "../transports/index.ts";
import { replaceNode } from "../text-edit.ts";

export type MethodType = { edit?: Edit; why?: string };

/** How the helper's method parameter takes `to` when the call's literal at `at` becomes it: as declared, widened, or why not. */
export function methodTypeFor(a: Analysis, http: HttpCall, at: Node, to: string): MethodType {
  const slot = http.lib === "helper" ? slotOf(http, at) : undefined;
  const typeNode = slot?.getTypeNode();
  if (!slot || !typeNode) return {};
  const param = slot;
  const name = `${calleeName(http)}'s method ${Node.isParameterDeclaration(slot) ? "parameter" : "option"}`;
  if (Node.isTypeReference(typeNode)) {
    const symbol = typeNode.getTypeName().getSymbol();
    const decl = (symbol?.getAliasedSymbol() ?? symbol)?.getDeclarations()[0];
    // A name the codemod cannot resolve (a package's type, a .d.ts not read) may not take it: it is the user's to check.
    if (!decl) return { why: `${name} is typed ${typeNode.getText()}, declared outside the files the codemod reads` };
    if (accepts(param.getType(), to)) return {};
    if (Node.isEnumDeclaration(decl)) return { why: `${name} is the enum ${decl.getName()}, which has no ${to}` };
    if (!Node.isTypeAliasDeclaration(decl)) return { why: `${name} is typed ${typeNode.getText()}, which does not take ${to}` };
    const union = decl.getTypeNode();
    if (!union || !Node.isUnionTypeNode(union)) return { why: `${name} is typed ${decl.getName()}, which does not take ${to}` };
    const used = keyedUse(decl);
    if (used) return { why: `${name} is typed ${decl.getName()}, also used as ${used}, where one more method would not fit` };
    return widen(a, union, to, `${name} (type ${decl.getName()})`);
  }
  if (accepts(param.getType(), to)) return {};
  if (Node.isUnionTypeNode(typeNode)) return widen(a, typeNode, to, name);
  return { why: `${name} is typed ${typeNode.getText()}, which does not take ${to}` };
}

/** Whether a type takes the string literal `to` (string, any, or a union holding it). */
function accepts(type: import("ts-morph").Type, to: string): boolean {
  if (type.isAny() || type.isUnknown() || type.isString()) return true;
  const parts = type.isUnion() ? type.getUnionTypes() : [type];
  return parts.some((t) => t.isString() || t.isAny() || (t.isStringLiteral() && t.getLiteralValue() === to));
}

/** `"GET" | "POST" | "DELETE"` → `"GET" | "POST" | "DELETE" | "PATCH"`, written in a file of the run, in the union's own quotes. */
function widen(a: Analysis, union: Node, to: string, name: string): MethodType {
  const sf = union.getSourceFile();
  if (sf.isDeclarationFile() || !a.files.has(sf.getFilePath())) return { why: `${name} is declared outside the files rewritten (${sf.getBaseName()}), without ${to}` };
  const members = (union as Node & { getTypeNodes(): Node[] }).getTypeNodes();
  if (!members.every((m) => Node.isLiteralTypeNode(m) && Node.isStringLiteral(m.getLiteral()))) return { why: `${name} is typed ${union.getText()}, which does not take ${to}` };
  const last = members.at(-1)!;
  const q = last.getText()[0]!;
  // The last member replaced (not an insertion), so the edit made for several sites collapses into one.
  return { edit: replaceNode(last, `${last.getText()} | ${q}${to}${q}`) };
}

/** Where an alias is used other than to annotate a value (`Record<Method, …>`, a mapped key, a type argument): widening it would ask more of those. */
function keyedUse(decl: Node & { getNameNode(): Node }): string | undefined {
  const refs = (decl.getNameNode() as Node & { findReferencesAsNodes(): Node[] }).findReferencesAsNodes();
  for (const r of refs) {
    const ref = r.getParentIfKind(SyntaxKind.TypeReference);
    if (!ref) continue;
    const holder = ref.getParent();
    if (Node.isUnionTypeNode(holder)) continue;
    if (holder && (Node.isParameterDeclaration(holder) || Node.isPropertySignature(holder) || Node.isVariableDeclaration(holder) || Node.isPropertyDeclaration(holder))) continue;
    return `${holder?.getText().slice(0, 40) ?? "a type"} (${r.getSourceFile().getBaseName()}:${r.getStartLineNumber()})`;
  }
  return undefined;
}

/** Where the literal goes: the helper's method parameter, or the declared `method` key of the options the call gives (`call(path, { method: "POST" })`). */
function slotOf(http: HttpCall, at: Node): (Node & { getTypeNode(): Node | undefined; getType(): import("ts-morph").Type }) | undefined {
  const sig = http.helper!;
  const fn = sig.fn as Node;
  if (sig.methodIndex !== undefined && http.call.getArguments()[sig.methodIndex] === at) return Node.isFunctionLikeDeclaration(fn) ? fn.getParameters()[sig.methodIndex] : undefined;
  const prop = at.getParent();
  const options = prop?.getParent();
  if (!Node.isPropertyAssignment(prop) || prop.getName() !== "method" || !Node.isObjectLiteralExpression(options) || !http.call.getArguments().includes(options)) return undefined;
  const decl = options.getContextualType()?.getNonNullableType().getProperty("method")?.getDeclarations()[0];
  return Node.isPropertySignature(decl) ? decl : undefined;
}

function calleeName(http: HttpCall): string {
  return http.call.getExpression().getText();
}
