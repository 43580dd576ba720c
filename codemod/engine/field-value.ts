// `this.base` of a class field that holds one value for the life of the instance: what it stands
// for in a URL, as a const's initializer does (`private base = \`${environment.apiUrl}/endpoints\``,
// then `this.http.delete(\`${this.base}/${id}\`)`). The URL's parts are then read through the
// field's initializer, so a call through it is a site like one through a module const. A field
// another class redeclares, or one written anywhere but once (its initializer, or one top-level
// `this.base = …` in a constructor when it has none), does not stand for one expression.
import { derivedClasses, findReferencesAsNodes } from "./find-references.ts";
import { Node, SyntaxKind } from "../ts-morph.ts";
import { classOfThis } from "./symbols.ts";

const cache = new WeakMap<Node, Node | null>();

/** The expression `this.<field>` always holds, or undefined. */
export function fieldValue(access: Node): Node | undefined {
  if (!Node.isPropertyAccessExpression(access) || !Node.isThisExpression(access.getExpression())) return undefined;
  const cls = classOfThis(access);
  if (!cls || !(Node.isClassDeclaration(cls) || Node.isClassExpression(cls))) return undefined;
  const field = cls.getInstanceProperty(access.getName());
  if (!field || !Node.isPropertyDeclaration(field) || field.hasModifier(SyntaxKind.AbstractKeyword) || field.hasModifier(SyntaxKind.DeclareKeyword)) return undefined;
  if (cache.has(field)) return cache.get(field) ?? undefined;
  const value = soleValue(cls, field) ?? null;
  cache.set(field, value);
  return value ?? undefined;
}

function soleValue(cls: Node & { getConstructors(): Node[] }, field: Node & { getInitializer(): Node | undefined; getNameNode(): Node; getName(): string }): Node | undefined {
  // A subclass declaring the same field gives its instances another value.
  if (Node.isClassDeclaration(cls) && derivedClasses(cls).some((d) => d.getInstanceProperty(field.getName()))) return undefined;
  const writes = fieldWrites(field.getNameNode());
  if (!writes) return undefined;
  const init = field.getInitializer();
  if (init) return writes.length ? undefined : init;
  // No initializer: the one assignment a constructor makes at its top level (not in a branch or a loop).
  if (writes.length !== 1) return undefined;
  const [w] = writes;
  const statement = w!.getParent();
  const ctor = statement?.getParent()?.getParent();
  const own = !!ctor && Node.isConstructorDeclaration(ctor) && ctor.getParent() === cls && Node.isExpressionStatement(statement!);
  return own && w!.getOperatorToken().getKind() === SyntaxKind.EqualsToken ? w!.getRight() : undefined;
}

/** Every write of the field the compiler finds (an assignment, `+=`, `++`, a destructuring target); undefined when it cannot tell. */
function fieldWrites(name: Node): (Node & { getOperatorToken(): Node; getRight(): Node })[] | undefined {
  let refs: Node[];
  try {
    refs = findReferencesAsNodes(name);
  } catch {
    return undefined;
  }
  const out: (Node & { getOperatorToken(): Node; getRight(): Node })[] = [];
  for (const r of refs) {
    if (r === name) continue;
    const access = r.getParent();
    if (!access || !Node.isPropertyAccessExpression(access) || access.getNameNode() !== r) {
      // `const { base } = this` reads it; an interface's member declares it; anything else may write it.
      const read = !!access && Node.isBindingElement(access) && !!access.getFirstAncestor((x) => Node.isVariableDeclaration(x) || Node.isParameterDeclaration(x));
      if (!read && !(access && Node.isPropertySignature(access))) return undefined;
      continue;
    }
    let outer: Node = access;
    while (outer.getParent() && (Node.isParenthesizedExpression(outer.getParent()!) || Node.isNonNullExpression(outer.getParent()!))) outer = outer.getParent()!;
    const p = outer.getParent();
    if (p && Node.isBinaryExpression(p) && p.getLeft() === outer) {
      const op = p.getOperatorToken().getKind();
      if (op >= SyntaxKind.FirstAssignment && op <= SyntaxKind.LastAssignment) {
        out.push(p);
        continue;
      }
    }
    if (p && (Node.isPrefixUnaryExpression(p) || Node.isPostfixUnaryExpression(p)) && [SyntaxKind.PlusPlusToken, SyntaxKind.MinusMinusToken].includes(p.getOperatorToken())) return undefined;
    if (p && (Node.isShorthandPropertyAssignment(p) || Node.isPropertyAssignment(p) || Node.isArrayLiteralExpression(p)) && p.getFirstAncestor((x) => Node.isBinaryExpression(x) && x.getOperatorToken().getKind() === SyntaxKind.EqualsToken && x.getLeft().getPos() <= outer.getPos() && outer.getEnd() <= x.getLeft().getEnd())) return undefined;
  }
  return out;
}
