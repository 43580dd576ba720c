// Harmless query values (the table's `harmless`): a v1 parameter written with a literal value
// that asks for what v2 does anyway (`includeMachine=false`, `grouping: "podId"`) is dropped where
// it is written instead of marking the call. Only a literal value counts; a variable, or a value
// the code also sets elsewhere, keeps the mark.
import { Node, SyntaxKind } from "../../ts-morph.ts";
import { isHarmlessQuery, type OperationMapping } from "../../../mappings/index.ts";
import { unwrapExpression } from "../urls.ts";
import { edit, type Plan } from "../state.ts";
import { references } from "../references.ts";

/** The text a literal is sent as in a query (`"false"`, `false`, `` `podId` ``, `1`); undefined for anything else. */
export function queryLiteral(node: Node | undefined): string | undefined {
  const n = node && unwrapExpression(node);
  if (!n) return undefined;
  if (Node.isStringLiteral(n) || Node.isNoSubstitutionTemplateLiteral(n)) return n.getLiteralValue();
  if (n.getKind() === SyntaxKind.TrueKeyword) return "true";
  if (n.getKind() === SyntaxKind.FalseKeyword) return "false";
  if (Node.isNumericLiteral(n)) return String(n.getLiteralValue());
  return undefined;
}

/** Whether a parameter written as `name=value` in a URL's literal text can go (the value undecoded when malformed). */
export function harmlessPair(op: OperationMapping, name: string, value: string): boolean {
  if (name.includes("\0") || value.includes("\0")) return false;
  return isHarmlessQuery(op.query?.find((q) => q.v1 === name), [decoded(value)]);
}

function decoded(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, " "));
  } catch {
    return s;
  }
}

/**
 * The value a written name is given: a property's initializer, or the second argument of the
 * `.set(name, value)` / `.append(name, value)` whose first argument `written` is.
 */
function valueWritten(written: Node): Node | undefined {
  if (Node.isPropertyAssignment(written)) return written.getInitializer();
  const call = written.getParent();
  if (call && Node.isCallExpression(call) && call.getArguments()[0] === written) return call.getArguments()[1];
  return undefined;
}

/**
 * Drops a parameter wherever the code writes it, when every place gives it a harmless literal and
 * can be removed without touching another request (see `removable`). Returns whether it did.
 */
export function dropWhereWritten(plan: Plan, op: OperationMapping, name: string, written: Node[], call: Node): boolean {
  const m = op.query?.find((q) => q.v1 === name);
  if (!written.length) return false;
  const values = written.map((w) => queryLiteral(valueWritten(w)));
  if (values.some((v) => v === undefined) || !isHarmlessQuery(m, values as string[])) return false;
  const removals = written.map((w) => removal(w, call));
  if (removals.some((r) => !r)) return false;
  for (const r of removals) edit(plan, r!.at, r!);
  return true;
}

interface Removal {
  at: Node;
  start: number;
  end: number;
  text: string;
}

/** The edit that removes a written name: its property (with a comma), or its `.set(…)` statement. */
function removal(written: Node, call: Node): Removal | undefined {
  if (!removable(written, call)) return undefined;
  if (Node.isPropertyAssignment(written)) return propertyRemoval(written);
  const setter = written.getParent();
  const statement = setter?.getParent();
  if (!statement || !Node.isExpressionStatement(statement) || statement.getExpression() !== setter) return undefined;
  const holder = statement.getParent();
  if (!holder || !(Node.isBlock(holder) || Node.isSourceFile(holder))) return undefined;
  return lineRemoval(statement);
}

/** A property and the comma after it (or before it, when it is the last). */
function propertyRemoval(p: Node): Removal {
  const text = p.getSourceFile().getFullText();
  let start = p.getStart();
  let end = p.getEnd();
  const after = /^\s*,[ \t]*/.exec(text.slice(end));
  if (after) end += after[0].length;
  else {
    const before = /,\s*$/.exec(text.slice(0, start));
    if (before) start -= before[0].length;
  }
  return { at: p, start, end, text: "" };
}

/** A statement on its own line, with the line; else the statement alone. */
function lineRemoval(statement: Node): Removal {
  const text = statement.getSourceFile().getFullText();
  const start = statement.getStart();
  const end = statement.getEnd();
  const lineStart = text.lastIndexOf("\n", start - 1) + 1;
  const lineEnd = text.indexOf("\n", end);
  if (/^[ \t]*$/.test(text.slice(lineStart, start)) && lineEnd >= 0 && /^[ \t]*$/.test(text.slice(end, lineEnd))) return { at: statement, start: lineStart, end: lineEnd + 1, text: "" };
  return { at: statement, start, end, text: "" };
}

/**
 * Whether removing the name changes this request only: it is written inside the call, or in a
 * variable only this request reads (a shared `URLSearchParams` or params object is left alone).
 */
function removable(written: Node, call: Node): boolean {
  if (written.getAncestors().includes(call)) return true;
  const holder = holderOf(written);
  const name = holder && (holder as any).getNameNode?.();
  if (!name || !Node.isIdentifier(name)) return false;
  const reads = references(name).filter((r) => !isSetterCall(r));
  return reads.length === 1;
}

/** The variable whose value carries the written name: the one it is written into, or the receiver of `.set(…)`. */
function holderOf(written: Node): Node | undefined {
  const setter = written.getParent();
  if (setter && Node.isCallExpression(setter) && !Node.isPropertyAssignment(written)) {
    const access = setter.getExpression();
    const receiver = Node.isPropertyAccessExpression(access) ? unwrapExpression(access.getExpression()) : undefined;
    const decl = receiver && Node.isIdentifier(receiver) ? receiver.getSymbol()?.getDeclarations()[0] : undefined;
    return decl && Node.isVariableDeclaration(decl) ? decl : undefined;
  }
  return written.getFirstAncestorByKind(SyntaxKind.VariableDeclaration);
}

function isSetterCall(ref: Node): boolean {
  const access = ref.getParent();
  return !!access && Node.isPropertyAccessExpression(access) && access.getExpression() === ref && ["set", "append", "delete"].includes(access.getName()) && Node.isCallExpression(access.getParent()!);
}
