// How a mark or a finding names an expression: its text when that is short and on one line, else
// its shape with the long parts elided (`{ apiKey: …, baseUrl: … }`, `axios.create(…)`). Never a
// cut in the middle (`{ apiKey: process.env.KEY, ba`), and never text spanning lines: a mark
// written inside such text by this run would change the reason on the next run (and repeat it).
import { Node } from "../ts-morph.ts";

const MAX = 40;

export function shortExpression(node: Node, max = MAX): string {
  const text = node.getText();
  if (!text.includes("\n") && text.length <= max && !hasComment(node)) return text;
  const s = shape(node, max);
  return s.length <= max * 2 ? s : "…";
}

function shape(n: Node, max: number): string {
  const inner = (x: Node) => shortExpression(x, Math.max(12, Math.floor(max / 2)));
  if (Node.isObjectLiteralExpression(n)) {
    const names: string[] = [];
    for (const p of n.getProperties()) {
      const name = Node.isSpreadAssignment(p) ? `...${inner(p.getExpression())}` : ((p as any).getName?.() as string | undefined) ?? "…";
      if ([...names, name].join(", ").length > max) return `{ ${[...names, "…"].join(", ")} }`;
      names.push(Node.isPropertyAssignment(p) ? `${name}: …` : name);
    }
    return names.length ? `{ ${names.join(", ")} }` : "{}";
  }
  if (Node.isArrayLiteralExpression(n)) return "[…]";
  if (Node.isCallExpression(n)) return `${inner(n.getExpression())}(…)`;
  if (Node.isNewExpression(n)) return `new ${inner(n.getExpression())}(…)`;
  if (Node.isPropertyAccessExpression(n)) return `${inner(n.getExpression())}${n.hasQuestionDotToken() ? "?." : "."}${n.getName()}`;
  if (Node.isElementAccessExpression(n)) return `${inner(n.getExpression())}[…]`;
  if (Node.isAwaitExpression(n)) return `await ${inner(n.getExpression())}`;
  if (Node.isParenthesizedExpression(n)) return `(${inner(n.getExpression())})`;
  if (Node.isAsExpression(n)) return `${inner(n.getExpression())} as …`;
  if (Node.isNonNullExpression(n)) return `${inner(n.getExpression())}!`;
  if (Node.isBinaryExpression(n)) return `${inner(n.getLeft())} ${n.getOperatorToken().getText()} ${inner(n.getRight())}`;
  if (Node.isConditionalExpression(n)) return `${inner(n.getCondition())} ? … : …`;
  if (Node.isArrowFunction(n)) return "(…) => …";
  if (Node.isFunctionExpression(n) || Node.isFunctionDeclaration(n)) return `function ${n.getName() ?? ""}(…) { … }`.replace("function (", "function(");
  if (Node.isTemplateExpression(n) || Node.isNoSubstitutionTemplateLiteral(n)) return "`…`";
  if (Node.isStringLiteral(n)) return `${n.getText()[0]}…${n.getText()[0]}`;
  if (Node.isPropertyAssignment(n)) return `${n.getName()}: ${inner(n.getInitializerOrThrow())}`;
  if (Node.isShorthandPropertyAssignment(n) || Node.isIdentifier(n)) return n.getText();
  if (Node.isVariableDeclaration(n)) return n.getName();
  return "…";
}

/** Whether a comment is written inside the node (its own leading trivia is not its text). */
function hasComment(node: Node): boolean {
  const start = node.getStart();
  const end = node.getEnd();
  for (const d of node.getDescendants()) {
    for (const c of [...d.getLeadingCommentRanges(), ...d.getTrailingCommentRanges()]) if (c.getPos() >= start && c.getEnd() <= end) return true;
  }
  return false;
}
