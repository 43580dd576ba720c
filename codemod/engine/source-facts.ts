// What the type checker says about a v1 body value written as an expression: its value when its
// type is one literal (`"QUEUE_DELAY" as const`, a `const` string), and whether it may be
// undefined at run time. The analysis project does not check strict null types, so "always there"
// is read from declarations: a declared type without `?`, `undefined` or `null`, or an
// initialiser that is itself always there. Anything unproven may be undefined.
import { Node, SyntaxKind } from "../ts-morph.ts";
import type { SourceInput } from "../../mappings/index.ts";

/** What a declared type must not mention for the value to be always there / never null. */
interface Rule {
  excluded: RegExp;
  /** Whether `x?:` (may be left out) breaks the rule. */
  question: boolean;
}
const DEFINED: Rule = { excluded: /\b(undefined|null|void|any|unknown)\b/, question: true };
const NON_NULL: Rule = { excluded: /\b(null|any|unknown)\b/, question: false };
/** Expressions whose value is never undefined whatever their operands are. */
const ALWAYS = new Set<SyntaxKind>([
  SyntaxKind.TemplateExpression,
  SyntaxKind.ArrayLiteralExpression,
  SyntaxKind.ObjectLiteralExpression,
  SyntaxKind.NewExpression,
  SyntaxKind.PrefixUnaryExpression,
  SyntaxKind.TypeOfExpression,
]);
const ALWAYS_CALLS = /^(Number|String|Boolean|parseInt|parseFloat|Math\.\w+)$/;

/** The values the node's type lists (`"QUEUE_DELAY" | "REQUEST_COUNT"`, `4`, `true`), undefined and null aside. */
function literalsOf(node: Node): unknown[] | undefined {
  try {
    const type = node.getType();
    const members = (type.isUnion() ? type.getUnionTypes() : [type]).filter((t) => !t.isUndefined() && !t.isNull());
    const values: unknown[] = [];
    for (const t of members) {
      if (t.isStringLiteral() || t.isNumberLiteral()) values.push(t.getLiteralValue());
      else if (t.isBooleanLiteral()) values.push(t.getText() === "true");
      else return undefined;
    }
    return values.length ? [...new Set(values)] : undefined;
  } catch {
    return undefined; // no type: nothing known
  }
}

/** A declaration says its value is always there (a type without `?`/undefined/null, or such an initialiser). */
function declaredPresent(decl: Node, depth: number, rule: Rule): boolean {
  if (rule.question && (decl as any).hasQuestionToken?.()) return false;
  const typeNode = (decl as any).getTypeNode?.() as Node | undefined;
  if (typeNode) return !rule.excluded.test(typeNode.getText());
  const init = (decl as any).getInitializer?.() as Node | undefined;
  if (Node.isBindingElement(decl) && !init) {
    const props = boundProperty(decl);
    return props.length > 0 && props.every((p) => declaredPresent(p, depth + 1, rule));
  }
  if (Node.isParameterDeclaration(decl) || Node.isBindingElement(decl)) return !!init && present(init, rule, depth + 1);
  if (Node.isVariableDeclaration(decl)) return !!init && present(init, rule, depth + 1);
  if (Node.isPropertyAssignment(decl)) return !!init && present(init, rule, depth + 1);
  return Node.isShorthandPropertyAssignment(decl) || Node.isEnumMember(decl);
}

function present(expr: Node, rule: Rule, depth = 0): boolean {
  if (depth > 4) return false;
  let node = expr;
  while (Node.isParenthesizedExpression(node) || Node.isAsExpression(node) || Node.isSatisfiesExpression(node)) {
    // `x as T` declares the value's type there (`as const` keeps the expression's own).
    const typeNode = Node.isAsExpression(node) ? node.getTypeNode() : undefined;
    if (typeNode && typeNode.getText() !== "const") return !rule.excluded.test(typeNode.getText());
    node = node.getExpression();
  }
  if (Node.isNonNullExpression(node)) return true;
  if (Node.isStringLiteral(node) || Node.isNumericLiteral(node) || Node.isNoSubstitutionTemplateLiteral(node) || Node.isTrueLiteral(node) || Node.isFalseLiteral(node)) return true;
  if (ALWAYS.has(node.getKind())) return true;
  if (Node.isCallExpression(node)) return ALWAYS_CALLS.test(node.getExpression().getText()) || declaredReturn(node.getExpression(), rule);
  if (Node.isBinaryExpression(node)) {
    const op = node.getOperatorToken().getText();
    if (op === "??" || op === "||") return present(node.getRight(), rule, depth + 1);
    return !["&&", "=", "??=", "||=", "&&="].includes(op);
  }
  if (Node.isConditionalExpression(node)) return present(node.getWhenTrue(), rule, depth + 1) && present(node.getWhenFalse(), rule, depth + 1);
  if (node.getKind() === SyntaxKind.ThisKeyword) return true;
  if (!Node.isIdentifier(node) && !Node.isPropertyAccessExpression(node)) return false;
  if (Node.isPropertyAccessExpression(node) && ((rule.question && node.hasQuestionDotToken()) || !present(node.getExpression(), rule, depth + 1))) return false;
  const parent = node.getParent();
  // `{ gpuCount }`: the symbol of the variable read, not of the property written.
  const symbol = parent && Node.isShorthandPropertyAssignment(parent) ? parent.getValueSymbol() : node.getSymbol();
  const decls = symbol?.getDeclarations() ?? [];
  return decls.length > 0 && decls.every((d) => declaredPresent(d, depth, rule));
}

/** `volumeFor(kind)` with `function volumeFor(kind: string): number`: every declaration of the callee declares a return type that is always there. */
function declaredReturn(callee: Node, rule: Rule): boolean {
  const decls = callee.getSymbol()?.getDeclarations() ?? [];
  return decls.length > 0 && decls.every((d) => {
    const typeNode = Node.isFunctionDeclaration(d) || Node.isMethodDeclaration(d) ? d.getReturnTypeNode() : undefined;
    return !!typeNode && !rule.excluded.test(typeNode.getText()) && !/^Promise\b/.test(typeNode.getText());
  });
}

/** `{ size }: { size: number }`: the property the binding element takes, as its pattern's declared type says. */
function boundProperty(decl: Node): Node[] {
  const pattern = decl.getParent();
  const owner = pattern?.getParent();
  const typeNode = owner && ((owner as any).getTypeNode?.() as Node | undefined);
  const name = (decl as any).getPropertyNameNode?.()?.getText() ?? (decl as any).getName?.();
  if (!typeNode || !pattern || !Node.isObjectBindingPattern(pattern) || typeof name !== "string") return [];
  return typeNode.getType().getProperty(name)?.getDeclarations() ?? [];
}

/** The facts the converters' source forms use about `node`, written as `source`. */
export function sourceInput(node: Node, source = node.getText()): SourceInput {
  const oneOf = literalsOf(node);
  return { source, ...(oneOf?.length === 1 ? { known: { value: oneOf[0] } } : {}), ...(oneOf ? { oneOf } : {}), optional: !present(node, DEFINED) };
}

/** Whether `node` is never null (a declared type without null, any or unknown): `x ?? d` then only replaces undefined. */
export const neverNull = (node: Node): boolean => present(node, NON_NULL);
