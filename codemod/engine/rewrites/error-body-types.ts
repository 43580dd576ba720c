// Whether an error body's type lets a read of v2's field stand as written: the value is `any` as
// the code declares it (`catch (e)`, `: any`, `(body as any)`, a class field `body: any`), or its
// type already has the field. Else the read goes through a cast or the declared type is widened.
import { findReferencesAsNodes } from "../find-references.ts";
import { Node, SyntaxKind } from "../../ts-morph.ts";
import type { Analysis } from "../state.ts";
import { bind } from "../values.ts";
import { unwrapExpression } from "../urls.ts";
import { editableField } from "../declared-types.ts";
import { namedOutsideRun } from "../project-reads.ts";

/** Whether the value's type (down `path`) is `any` by its declaration, or already has `field`. */
export function hasFieldOrAny(a: Analysis, expr: Node, field: string, path: string[] = []): boolean {
  try {
    let t = expr.getType();
    for (const k of path) {
      if (t.isAny()) return anyByDeclaration(a, expr, 0);
      const p = t.getNonNullableType().getProperty(k);
      if (!p) return false;
      t = p.getTypeAtLocation(expr);
    }
    if (t.isAny()) return anyByDeclaration(a, expr, 0);
    return !!t.getNonNullableType().getProperty(field);
  } catch {
    return false;
  }
}

/**
 * `any` because the code declares nothing (`catch (e)`, an untyped handler parameter, `: any`),
 * not because a type it names did not resolve here (`AxiosError<Body>` without the package's
 * types): a named type may lack the v2 field where the project is compiled.
 */
function anyByDeclaration(a: Analysis, expr: Node, depth: number): boolean {
  // `(body as any).message`: the code says it is any, whatever `body` is declared as.
  let written = expr;
  while (Node.isParenthesizedExpression(written)) written = written.getExpression();
  // `e as AxiosError<RunpodError>`: a type the code names, whatever the checker made of it.
  if (Node.isAsExpression(written) || Node.isTypeAssertion(written)) return written.getTypeNode()?.getText() === "any";
  // `e.body` where the class declares `public body: any`.
  if (Node.isPropertyAccessExpression(written) && declaredAny(written)) return true;
  let root = unwrapExpression(expr);
  for (;;) {
    if (Node.isAsExpression(root) || Node.isTypeAssertion(root)) return root.getTypeNode()?.getText() === "any";
    if (Node.isPropertyAccessExpression(root) || Node.isNonNullExpression(root) || Node.isParenthesizedExpression(root) || Node.isAwaitExpression(root)) root = root.getExpression();
    // `res.json().catch(() => ({}))`: the body's.
    else if (Node.isCallExpression(root) && /\.catch$/.test(root.getExpression().getText())) root = (root.getExpression() as any).getExpression();
    else break;
  }
  if (Node.isCallExpression(root)) {
    // A fetch body (`await res.json()`, `JSON.parse(text)`) is `any` as the platform declares it.
    if (/(\.json|^JSON\.parse)$/.test(root.getExpression().getText()) && !root.getTypeArguments().length) return true;
    try {
      return root.getExpression().getType().getCallSignatures().length > 0;
    } catch {
      return false;
    }
  }
  if (!Node.isIdentifier(root) || depth > 3) return false;
  const b = bind(a, root);
  if (!b || b.kind === "import" || b.kind === "function") return false;
  const typeNode = (b.decl as any).getTypeNode?.() as Node | undefined;
  if (typeNode) return typeNode.getText() === "any";
  const init = b.kind === "var" ? b.init : undefined;
  return init ? anyByDeclaration(a, init, depth + 1) : true;
}

/** Whether a property read's declarations (a class field, a parameter property, an interface member) are all written `any`. */
function declaredAny(access: Node): boolean {
  try {
    const decls = (access as any).getNameNode().getSymbol()?.getDeclarations() ?? [];
    return decls.length > 0 && decls.every((d: Node) => (d as any).getTypeNode?.()?.getText() === "any");
  } catch {
    return false;
  }
}

/**
 * The members named `field` of the error body type written where the read's root is declared
 * (`const e = err as AxiosError<{ message: string }>`, `(e: AxiosError<RunpodError>)`): a type
 * literal in the annotation, or an interface or type alias of the run it names. Read from the
 * written type, not the checker's: without the client package's types the body is `any` to it,
 * not to the project's compiler.
 */
export function errorTypeMembers(a: Analysis, access: Node, field: string): Node[] {
  const typeNode = errorTypeNode(a, access);
  if (!typeNode) return [];
  const out = new Set<Node>();
  const literal = (lit: Node) => {
    const member = Node.isTypeLiteral(lit) || Node.isInterfaceDeclaration(lit) ? lit.getProperty(field) : undefined;
    if (member) out.add(member);
  };
  typeNode.getDescendantsOfKind(SyntaxKind.TypeLiteral).forEach(literal);
  for (const ref of [typeNode, ...typeNode.getDescendants()].filter((n) => Node.isTypeReference(n))) {
    const sym = (ref as any).getTypeName().getSymbol();
    const target = sym?.getAliasedSymbol?.() ?? sym;
    for (const d of target?.getDeclarations() ?? []) {
      if (Node.isInterfaceDeclaration(d)) literal(d);
      else if (Node.isTypeAliasDeclaration(d) && d.getTypeNode() && Node.isTypeLiteral(d.getTypeNode()!)) literal(d.getTypeNode()!);
    }
  }
  return [...out].filter((m) => Node.isPropertySignature(m) && (m.getSourceFile() === access.getSourceFile() || editableField(a, m)));
}

/** The type written where a read's root is declared (`e as AxiosError<RunpodError>`, `(e: AxiosError<…>) =>`). */
export function errorTypeNode(a: Analysis, access: Node): Node | undefined {
  let root: Node = access;
  while (Node.isPropertyAccessExpression(root)) root = root.getExpression();
  if (!Node.isIdentifier(root)) return undefined;
  const b = bind(a, root);
  if (b?.kind !== "var" && b?.kind !== "param" && b?.kind !== "catch") return undefined;
  const init = b.kind === "var" ? b.init : undefined;
  return (b.decl as any).getTypeNode?.() ?? (init && Node.isAsExpression(init) ? init.getTypeNode() : undefined);
}

/**
 * Whether a named error type's member (an interface's, a type alias's) is used where none of
 * `covered` (the types written at reads moving to v2's field) is: another API's error typed with
 * it, a read the run keeps on v1. Read from the type's name, which resolves without the client
 * package's types (its field reads through `AxiosError<…>` do not), and from the text of the
 * project's modules the run did not parse.
 */
export function namedTypeUsedElsewhere(a: Analysis, member: Node, covered: Node[]): boolean {
  const owner = member.getParent();
  const named = owner && Node.isInterfaceDeclaration(owner) ? owner : owner && Node.isTypeLiteral(owner) && Node.isTypeAliasDeclaration(owner.getParent()) ? owner.getParent() : undefined;
  if (!named) return false;
  const inside = (n: Node) => covered.some((c) => c.getSourceFile() === n.getSourceFile() && n.getStart() >= c.getStart() && n.getEnd() <= c.getEnd());
  try {
    const name = (named as any).getNameNode() as Node;
    // A module the run did not parse naming the type (another API's client typed with it).
    if (namedOutsideRun(a, name.getText(), named.getSourceFile().getFilePath())) return true;
    const refs = findReferencesAsNodes(name);
    return refs.some((r) => r !== name && !r.getFirstAncestor((x) => Node.isImportDeclaration(x) || Node.isExportDeclaration(x)) && !inside(r));
  } catch {
    return true;
  }
}
